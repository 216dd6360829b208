package aliasplan

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// SampleFrame builds a realistic deferred-rendering frame at the given
// resolution: four shadow cascades resolved into a screen-space mask after
// a depth prepass, a G-buffer, a
// hierarchical-Z pyramid, SSAO with a blur, clustered light culling,
// deferred lighting, auto-exposure with a host readback, TAA against an
// imported history, a six-level bloom chain, and a tonemap into an
// imported backbuffer. It also declares a debug view nothing uses. The
// resources carry no explicit requirements: the planner's source (a device
// or a profile) supplies them.
//
// It is what `aliasplan plan` plans without a file, and an example of the
// builder API a renderer calls every frame.
func SampleFrame(width, height uint32) *Graph {
	g := &Graph{}
	image := func(name string, f vk.Format, w, h uint32, usage vk.ImageUsage) ResourceID {
		return g.AddImage(name, ImageDesc{Format: f, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: usage})
	}
	buffer := func(name string, size uint64, usage vk.BufferUsage) ResourceID {
		return g.AddBuffer(name, BufferDesc{Size: size, Usage: usage})
	}
	// Access shorthands.
	depthWrite := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
			Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthAttachmentOptimal}
	}
	depthTest := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
			Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutDepthReadOnlyOptimal}
	}
	color := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
	}
	sampled := func(stage vk.Stage, r ResourceID) Access {
		layout := vk.LayoutShaderReadOnlyOptimal
		if g.Resources[r].Image.Format.HasDepth() {
			layout = vk.LayoutDepthReadOnlyOptimal
		}
		return Access{Resource: r, Stages: stage, Access: vk.AccessShaderSampledRead, Layout: layout}
	}
	storeImage := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	readBuf := func(stage vk.Stage, r ResourceID) Access {
		return Access{Resource: r, Stages: stage, Access: vk.AccessShaderStorageRead}
	}
	writeBuf := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	const fragment, compute = vk.StageFragmentShader, vk.StageComputeShader

	// Imported: owned by the engine across frames.
	backbuffer := g.AddResource(Resource{Name: "backbuffer", Kind: p.KindImage, Imported: true,
		Image: ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: width, Height: height, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment, InitialLayout: vk.LayoutUndefined}})
	history := g.AddResource(Resource{Name: "taa.history", Kind: p.KindImage, Imported: true,
		Image: ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: width, Height: height, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst, InitialLayout: vk.LayoutShaderReadOnlyOptimal,
			FinalLayout: vk.LayoutShaderReadOnlyOptimal}}) // the next frame samples it again
	lights := g.AddResource(Resource{Name: "scene.lights", Kind: p.KindBuffer, Imported: true,
		Buffer: BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageStorageBuffer}})

	var cascades [4]ResourceID
	for i := range cascades {
		cascades[i] = image(fmt.Sprintf("shadow.cascade%d", i), vk.FormatD32Sfloat, 2048, 2048, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	}
	depth := image("depth", vk.FormatD32Sfloat, width, height, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	shadowMask := image("shadow.mask", vk.FormatR8Unorm, width, height, vk.ImageUsageStorage|vk.ImageUsageSampled)
	albedo := image("gbuffer.albedo", vk.FormatR8G8B8A8Srgb, width, height, vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	normal := image("gbuffer.normal", vk.FormatA2B10G10R10UnormPack32, width, height, vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	material := image("gbuffer.material", vk.FormatR8G8B8A8Unorm, width, height, vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	motion := image("gbuffer.motion", vk.FormatR16G16Sfloat, width, height, vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	hiz := image("hiz", vk.FormatR32Sfloat, width/2, height/2, vk.ImageUsageStorage|vk.ImageUsageSampled)
	ssaoRaw := image("ssao.raw", vk.FormatR8Unorm, width/2, height/2, vk.ImageUsageStorage|vk.ImageUsageSampled)
	ssao := image("ssao.blurred", vk.FormatR8Unorm, width/2, height/2, vk.ImageUsageStorage|vk.ImageUsageSampled)
	grid := buffer("lights.grid", 8<<20, vk.BufferUsageStorageBuffer)
	hdr := image("hdr", vk.FormatR16G16B16A16Sfloat, width, height, vk.ImageUsageStorage|vk.ImageUsageSampled)
	histogram := buffer("exposure.histogram", 1024, vk.BufferUsageStorageBuffer|vk.BufferUsageTransferDst)
	exposure := buffer("exposure.value", 256, vk.BufferUsageStorageBuffer|vk.BufferUsageTransferSrc)
	readback := g.AddResource(Resource{Name: "exposure.readback", Kind: p.KindBuffer, Memory: p.GPUToCPU,
		Buffer: BufferDesc{Size: 256, Usage: vk.BufferUsageTransferDst}})
	taa := image("taa.output", vk.FormatR16G16B16A16Sfloat, width, height, vk.ImageUsageStorage|vk.ImageUsageSampled|vk.ImageUsageTransferSrc)
	const levels = 6
	var down, up [levels]ResourceID
	for i := 0; i < levels; i++ {
		w, h := max(1, width>>(i+1)), max(1, height>>(i+1))
		down[i] = image(fmt.Sprintf("bloom.down%d", i), vk.FormatB10G11R11UfloatPack32, w, h, vk.ImageUsageStorage|vk.ImageUsageSampled)
	}
	for i := levels - 2; i >= 0; i-- {
		w, h := max(1, width>>(i+1)), max(1, height>>(i+1))
		up[i] = image(fmt.Sprintf("bloom.up%d", i), vk.FormatB10G11R11UfloatPack32, w, h, vk.ImageUsageStorage|vk.ImageUsageSampled)
	}
	image("debug.overdraw", vk.FormatR32Sfloat, width, height, vk.ImageUsageStorage) // declared, never used

	// Commands in recorded order.
	for i, c := range cascades {
		g.AddCommand(fmt.Sprintf("shadow%d", i), depthWrite(c))
	}
	g.AddCommand("depth.prepass", depthWrite(depth))
	// Resolving the cascades into a screen-space mask early ends their
	// lifetimes before the G-buffer pass, whose targets can then reuse them.
	g.AddCommand("shadow.resolve", sampled(compute, depth), sampled(compute, cascades[0]), sampled(compute, cascades[1]),
		sampled(compute, cascades[2]), sampled(compute, cascades[3]), storeImage(shadowMask))
	g.AddCommand("gbuffer", depthTest(depth), color(albedo), color(normal), color(material), color(motion))
	g.AddCommand("hiz.build", sampled(compute, depth), storeImage(hiz))
	g.AddCommand("ssao", sampled(compute, depth), sampled(compute, normal), storeImage(ssaoRaw))
	g.AddCommand("ssao.blur", sampled(compute, ssaoRaw), sampled(compute, depth), storeImage(ssao))
	g.AddCommand("lights.cull", sampled(compute, hiz), readBuf(compute, lights), writeBuf(grid))
	g.AddCommand("lighting", sampled(compute, depth), sampled(compute, albedo), sampled(compute, normal), sampled(compute, material),
		sampled(compute, ssao), sampled(compute, shadowMask), readBuf(compute, grid), readBuf(compute, lights), storeImage(hdr))
	g.AddCommand("exposure.clear", Access{Resource: histogram, Stages: vk.StageClear, Access: vk.AccessTransferWrite})
	g.AddCommand("exposure.histogram", sampled(compute, hdr),
		Access{Resource: histogram, Stages: compute, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	g.AddCommand("exposure.adapt", readBuf(compute, histogram), writeBuf(exposure))
	g.AddCommand("exposure.readback", Access{Resource: exposure, Stages: vk.StageCopy, Access: vk.AccessTransferRead},
		Access{Resource: readback, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
	g.AddCommand("taa.resolve", sampled(compute, hdr), sampled(compute, motion), sampled(compute, history), readBuf(compute, exposure), storeImage(taa))
	g.AddCommand("taa.store", Access{Resource: taa, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
		Access{Resource: history, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	src := taa
	for i := 0; i < levels; i++ {
		g.AddCommand(fmt.Sprintf("bloom.down%d", i), sampled(compute, src), storeImage(down[i]))
		src = down[i]
	}
	for i := levels - 2; i >= 0; i-- {
		g.AddCommand(fmt.Sprintf("bloom.up%d", i), sampled(compute, src), sampled(compute, down[i]), storeImage(up[i]))
		src = up[i]
	}
	g.AddCommand("tonemap", sampled(fragment, taa), sampled(fragment, up[0]), readBuf(fragment, exposure), color(backbuffer))
	return g
}

// AsyncSampleFrame is SampleFrame with async compute (issue 24): the
// shadow cascades, the depth prepass, the G-buffer, lighting, TAA, bloom
// and the tonemap stay on graphics; the hierarchical-Z build, SSAO and its
// blur, light culling, a particle simulation (added: a 4 MiB buffer that
// lighting reads) and the auto-exposure luminance passes run on the compute
// queue. The same frame on one queue is AsyncSampleFrame with every
// command's Queue set back to graphics.
func AsyncSampleFrame(width, height uint32) *Graph {
	g := SampleFrame(width, height)
	depth, _ := g.ResourceByName("depth")
	lighting, _ := g.CommandByName("lighting")
	particles := g.AddBuffer("particles", BufferDesc{Size: 4 << 20, Usage: vk.BufferUsageStorageBuffer})
	// The simulation runs after the depth prepass (it collides with depth)
	// and before lighting, which reads the particles.
	sim := p.Command{Name: "particles.simulate", Queue: p.QueueCompute, Accesses: []Access{
		{Resource: depth, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal},
		{Resource: particles, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}}}
	l := &g.Commands[lighting]
	l.Accesses = append(l.Accesses, Access{Resource: particles, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	g.Commands = append(g.Commands[:lighting], append([]p.Command{sim}, g.Commands[lighting:]...)...)
	for i := range g.Commands {
		switch g.Commands[i].Name {
		case "hiz.build", "ssao", "ssao.blur", "lights.cull", "particles.simulate",
			"exposure.clear", "exposure.histogram", "exposure.adapt":
			g.Commands[i].Queue = p.QueueCompute
		}
	}
	return g
}
