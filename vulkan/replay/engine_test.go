package replay

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Engine-shaped frames, written as a new user of the root package would
// write them (its presets and range helpers, nothing replay-specific):
// the kinds of frame issue 21 found refused (open-source engines' frame
// graphs): cascaded shadows in one layered depth image, a depth pyramid
// in the mips of one image, 4× MSAA with an attachment resolve, input
// attachments, a bloom chain in one image's mips, a cube probe's faces, a
// TAA history imported across frames, async compute, indirect draws, and
// the present idiom. Each must replay with equal digests and no message.

// forwardEngineFrame is a clustered forward frame in the manner of
// Filament's: shadow cascades, a structure (depth) pass with a min-depth
// pyramid, SSAO on the compute queue when async, a 4× MSAA colour pass
// resolved into the HDR target, TAA against an imported history, bloom
// and tonemapping into the backbuffer.
func forwardEngineFrame(w, h uint32, async bool) *aliasplan.Graph {
	g := &aliasplan.Graph{}
	const (
		vs, fs, cs = vk.StageVertexShader, vk.StageFragmentShader, vk.StageComputeShader
		target     = vk.ImageUsageColorAttachment | vk.ImageUsageSampled
	)
	image := func(name string, f vk.Format, w, h, mips, layers, samples uint32, usage vk.ImageUsage) aliasplan.ResourceID {
		return g.AddImage(name, aliasplan.ImageDesc{Format: f, Width: max(1, w), Height: max(1, h), MipLevels: mips, ArrayLayers: layers, Samples: samples, Usage: usage})
	}
	computeQ := aliasplan.QueueGraphics
	if async {
		computeQ = aliasplan.QueueCompute
	}
	vertices := g.AddResource(aliasplan.Resource{Name: "scene.vertices", Kind: aliasplan.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageVertexBuffer}})
	indices := g.AddResource(aliasplan.Resource{Name: "scene.indices", Kind: aliasplan.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 1 << 18, Usage: vk.BufferUsageIndexBuffer}})
	frameUBO := g.AddResource(aliasplan.Resource{Name: "frame.uniforms", Kind: aliasplan.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 4096, Usage: vk.BufferUsageUniformBuffer}})
	history := g.AddResource(aliasplan.Resource{Name: "taa.history", Kind: aliasplan.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageSampled | vk.ImageUsageStorage, InitialLayout: vk.LayoutShaderReadOnlyOptimal, FinalLayout: vk.LayoutShaderReadOnlyOptimal}})
	back := g.AddResource(aliasplan.Resource{Name: "backbuffer", Kind: aliasplan.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment, InitialLayout: vk.LayoutUndefined, FinalLayout: vk.LayoutPresentSrc}})
	draw := func(extra ...aliasplan.Access) []aliasplan.Access {
		return append([]aliasplan.Access{g.VertexBuffer(vertices), g.IndexBuffer(indices), g.Uniform(frameUBO, vs|fs)}, extra...)
	}

	// Culling: indirect draw arguments for the colour pass.
	args := g.AddBuffer("cull.args", aliasplan.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer})
	g.AddCommand("cull", g.Uniform(frameUBO, cs), aliasplan.Access{Resource: args, Stages: cs, Access: vk.AccessShaderStorageWrite})

	// Four shadow cascades, one layer each.
	shadow := image("shadow.cascades", vk.FormatD32Sfloat, w, w, 1, 4, 1, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	for i := 0; i < 4; i++ {
		g.AddCommand("shadow.cascade"+string(rune('0'+i)), draw(g.DepthAttachment(shadow).WithLayers(i, 1))...)
	}

	// Structure pass at half size, its min-depth pyramid (5 mips).
	structure := image("structure.depth", vk.FormatD32Sfloat, w/2, h/2, 1, 1, 1, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	g.AddCommand("structure", draw(g.DepthAttachment(structure))...)
	pyramid := image("structure.pyramid", vk.FormatR32Sfloat, w/2, h/2, 5, 1, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	g.AddCommandOn(computeQ, "pyramid.0", g.Sampled(structure, cs), g.WriteImage(pyramid, cs).WithMips(0, 1))
	for m := 1; m < 5; m++ {
		g.AddCommandOn(computeQ, "pyramid."+string(rune('0'+m)), g.Sampled(pyramid, cs).WithMips(m-1, 1), g.WriteImage(pyramid, cs).WithMips(m, 1))
	}
	ssao := image("ssao", vk.FormatR16Sfloat, w/2, h/2, 1, 1, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	g.AddCommandOn(computeQ, "ssao", g.Sampled(pyramid, cs), g.Uniform(frameUBO, cs), g.WriteImage(ssao, cs))

	// Colour pass: 4× MSAA colour and depth, resolved into hdr.
	colorMS := image("color.ms", vk.FormatR16G16B16A16Sfloat, w, h, 1, 1, 4, vk.ImageUsageColorAttachment)
	depthMS := image("depth.ms", vk.FormatD32Sfloat, w, h, 1, 1, 4, vk.ImageUsageDepthStencilAttachment)
	hdr := image("hdr", vk.FormatR16G16B16A16Sfloat, w, h, 1, 1, 1, target|vk.ImageUsageStorage)
	g.AddCommand("color", draw(g.Indirect(args), g.Sampled(shadow, fs), g.Sampled(ssao, fs),
		g.DepthAttachment(depthMS), g.ColorAttachment(colorMS), g.ColorAttachment(hdr))...)

	// TAA: resolve against the history, then copy the result back into it
	// for the next frame (a storage write of the history).
	taa := image("taa.out", vk.FormatR16G16B16A16Sfloat, w, h, 1, 1, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	g.AddCommand("taa", g.Sampled(hdr, cs), g.Sampled(history, cs), g.WriteImage(taa, cs))
	g.AddCommand("taa.keep", g.Sampled(taa, cs), g.WriteImage(history, cs))
	g.AddCommand("taa.history", g.Sampled(history, fs)) // layout back for the next frame

	// Bloom: downsample chain in one image's mips.
	bloom := image("bloom", vk.FormatR16G16B16A16Sfloat, w/2, h/2, 4, 1, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	g.AddCommand("bloom.0", g.Sampled(taa, cs), g.WriteImage(bloom, cs).WithMips(0, 1))
	for m := 1; m < 4; m++ {
		g.AddCommand("bloom."+string(rune('0'+m)), g.Sampled(bloom, cs).WithMips(m-1, 1), g.WriteImage(bloom, cs).WithMips(m, 1))
	}

	// Tonemap into the backbuffer, UI over it, present.
	g.AddCommand("tonemap", g.Sampled(taa, fs), g.Sampled(bloom, fs), g.ColorAttachment(back))
	g.AddCommand("ui", g.Uniform(frameUBO, vs|fs), g.BlendAttachment(back))
	g.AddCommand("present", g.Present(back))
	return g
}

// deferredEngineFrame is a deferred frame in the manner of Granite's: a
// G-buffer pass, lighting that reads the G-buffer as input attachments at
// its own pixel with the depth tested read-only, transparent geometry
// blended over it, a reflection probe's six faces (one array image) and
// their mips, SSR against the lit image, a 3D fog volume, and the
// present.
func deferredEngineFrame(w, h uint32) *aliasplan.Graph {
	g := &aliasplan.Graph{}
	const (
		vs, fs, cs = vk.StageVertexShader, vk.StageFragmentShader, vk.StageComputeShader
		gbuf       = vk.ImageUsageColorAttachment | vk.ImageUsageInputAttachment
	)
	image := func(name string, f vk.Format, w, h, mips, layers uint32, usage vk.ImageUsage) aliasplan.ResourceID {
		return g.AddImage(name, aliasplan.ImageDesc{Format: f, Width: max(1, w), Height: max(1, h), MipLevels: mips, ArrayLayers: layers, Usage: usage})
	}
	vertices := g.AddResource(aliasplan.Resource{Name: "scene.vertices", Kind: aliasplan.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageVertexBuffer}})
	frameUBO := g.AddResource(aliasplan.Resource{Name: "frame.uniforms", Kind: aliasplan.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 4096, Usage: vk.BufferUsageUniformBuffer}})
	back := g.AddResource(aliasplan.Resource{Name: "swapchain", Kind: aliasplan.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatB8G8R8A8Srgb, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment, InitialLayout: vk.LayoutUndefined, FinalLayout: vk.LayoutPresentSrc}})
	draw := func(extra ...aliasplan.Access) []aliasplan.Access {
		return append([]aliasplan.Access{g.VertexBuffer(vertices), g.Uniform(frameUBO, vs|fs)}, extra...)
	}

	// Reflection probe: six faces rendered one by one, then their mips.
	probe := image("probe", vk.FormatR16G16B16A16Sfloat, 64, 64, 3, 6, vk.ImageUsageColorAttachment|vk.ImageUsageSampled|vk.ImageUsageStorage)
	probeDepth := image("probe.depth", vk.FormatD16Unorm, 64, 64, 1, 1, vk.ImageUsageDepthStencilAttachment)
	for f := 0; f < 6; f++ {
		g.AddCommand("probe.face"+string(rune('0'+f)), draw(g.DepthAttachment(probeDepth), g.ColorAttachment(probe).WithMips(0, 1).WithLayers(f, 1))...)
	}
	for m := 1; m < 3; m++ {
		g.AddCommand("probe.mip"+string(rune('0'+m)), g.Sampled(probe, cs).WithMips(m-1, 1), g.WriteImage(probe, cs).WithMips(m, 1))
	}

	// G-buffer, then lighting from input attachments.
	albedo := image("gbuffer.albedo", vk.FormatR8G8B8A8Unorm, w, h, 1, 1, gbuf)
	normal := image("gbuffer.normal", vk.FormatA2B10G10R10UnormPack32, w, h, 1, 1, gbuf)
	pbr := image("gbuffer.pbr", vk.FormatR8G8B8A8Unorm, w, h, 1, 1, gbuf)
	depth := image("depth", vk.FormatD24UnormS8Uint, w, h, 1, 1, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageInputAttachment|vk.ImageUsageSampled)
	g.AddCommand("gbuffer", draw(g.DepthAttachment(depth), g.ColorAttachment(albedo), g.ColorAttachment(normal), g.ColorAttachment(pbr))...)
	lit := image("lit", vk.FormatR16G16B16A16Sfloat, w, h, 1, 1, vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	g.AddCommand("lighting", g.Uniform(frameUBO, fs), g.InputAttachment(albedo), g.InputAttachment(normal), g.InputAttachment(pbr),
		g.InputAttachment(depth), g.Sampled(probe, fs), g.ColorAttachment(lit))

	// Fog volume (3D), then transparent geometry blended over the lit image.
	fog := g.AddImage("fog.volume", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 32, Height: 32, Depth: 16, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
	g.AddCommand("fog.inject", g.Uniform(frameUBO, cs), g.WriteImage(fog, cs))
	g.AddCommand("transparent", draw(g.DepthTest(depth), g.Sampled(fog, fs), g.BlendAttachment(lit))...)

	// SSR at half size, composed into the swapchain.
	ssr := image("ssr", vk.FormatR16G16B16A16Sfloat, w/2, h/2, 1, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	g.AddCommand("ssr", g.Sampled(lit, cs), g.Sampled(depth, cs), g.WriteImage(ssr, cs))
	g.AddCommand("compose", g.Sampled(lit, fs), g.Sampled(ssr, fs), g.ColorAttachment(back))
	g.AddCommand("present", g.Present(back))
	return g
}

// TestEngineFrames replays the engine-shaped frames: no refusal, equal
// digests, no validation message, and the frames alias something (the
// point of planning them).
func TestEngineFrames(t *testing.T) {
	d := sharedDevice(t)
	for _, c := range []struct {
		name string
		g    *aliasplan.Graph
	}{
		{"forward", forwardEngineFrame(320, 180, false)},
		{"deferred", deferredEngineFrame(320, 180)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := p.Compile(&c.g.Graph); err != nil {
				t.Fatalf("the frame does not compile: %v", err)
			}
			rep := compare(t, d, &c.g.Graph, 1)
			t.Logf("%d commands, transient %d B, pooled %d B, %d alias barriers, %d messages, digests equal %v", rep.Commands, rep.TransientBytes, rep.PooledBytes, rep.AliasBarriers, rep.ValidationMessages, rep.DigestsEqual)
			if rep.AliasBarriers == 0 {
				t.Errorf("the frame aliases nothing")
			}
		})
	}
	// The forward frame with its depth pyramid and SSAO on the compute
	// queue (semaphores, ownership of the pyramid's mips and ssao).
	t.Run("forward-async", func(t *testing.T) {
		queueSubmit(t)
		rep := compareQueues(t, openDevice(t), &forwardEngineFrame(320, 180, true).Graph, 1)
		t.Logf("queues %s, %d batches, %d semaphores, %d alias barriers, %d messages, digests equal %v", rep.Queues, rep.Batches, rep.Semaphores, rep.AliasBarriers, rep.ValidationMessages, rep.DigestsEqual)
	})
}

// TestEngineIdioms replays small frames of idioms engines write with the
// presets: a 4× depth resolve attachment, a mip chain by blits, a staging
// upload and a readback with host accesses, compute skinning into a vertex
// buffer with indirect dispatch and draw, a stencil-only test beside a
// depth-only sample, clears and fills. Each must replay clean and equal.
func TestEngineIdioms(t *testing.T) {
	d := sharedDevice(t)
	const cs, fs = vk.StageComputeShader, vk.StageFragmentShader
	cases := []struct {
		name string
		f    func() *aliasplan.Graph
	}{
		{"depth-resolve", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			ms := g.AddImage("depth.ms", aliasplan.ImageDesc{Format: vk.FormatD32Sfloat, Width: 64, Height: 64, Samples: 4, Usage: vk.ImageUsageDepthStencilAttachment})
			one := g.AddImage("depth", aliasplan.ImageDesc{Format: vk.FormatD32Sfloat, Width: 64, Height: 64, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
			out := g.AddImage("out", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Usage: vk.ImageUsageStorage})
			g.AddCommand("draw", g.DepthAttachment(ms), g.DepthAttachment(one))
			g.AddCommand("use", g.Sampled(one, cs), g.WriteImage(out, cs))
			g.AddCommand("read", g.ReadImage(out, cs))
			return g
		}},
		{"blit-mips", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			im := g.AddImage("tex", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, MipLevels: 4, Usage: vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst | vk.ImageUsageSampled | vk.ImageUsageStorage})
			g.AddCommand("fill", g.WriteImage(im, cs).WithMips(0, 1))
			for m := 1; m < 4; m++ {
				g.AddCommand("mip"+string(rune('0'+m)), g.TransferSrc(im).WithMips(m-1, 1), g.TransferDst(im).WithMips(m, 1))
			}
			out := g.AddBuffer("out", aliasplan.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
			g.AddCommand("use", g.Sampled(im, cs), p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageWrite})
			g.AddCommand("read", g.ReadBuffer(out, cs))
			return g
		}},
		{"upload-readback", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			stage := g.AddResource(aliasplan.Resource{Name: "staging", Kind: aliasplan.KindBuffer, Memory: p.CPUToGPU, Buffer: aliasplan.BufferDesc{Size: 64 * 64 * 4, Usage: vk.BufferUsageTransferSrc}})
			im := g.AddImage("tex", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Usage: vk.ImageUsageTransferDst | vk.ImageUsageSampled | vk.ImageUsageTransferSrc})
			rb := g.AddResource(aliasplan.Resource{Name: "readback", Kind: aliasplan.KindBuffer, Memory: p.GPUToCPU, Buffer: aliasplan.BufferDesc{Size: 64 * 64 * 4, Usage: vk.BufferUsageTransferDst}})
			g.AddCommand("host.write", p.Access{Resource: stage, Stages: vk.StageHost, Access: vk.AccessHostWrite})
			g.AddCommand("upload", g.TransferSrc(stage), g.TransferDst(im))
			g.AddCommand("sample", g.Sampled(im, fs))
			g.AddCommand("readback", g.TransferSrc(im), g.TransferDst(rb))
			g.AddCommand("host.read", p.Access{Resource: rb, Stages: vk.StageHost, Access: vk.AccessHostRead})
			return g
		}},
		{"skinning-indirect", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			vb := g.AddBuffer("skinned", aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageVertexBuffer})
			args := g.AddBuffer("args", aliasplan.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer})
			col := g.AddImage("color", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageStorage})
			g.AddCommand("skin", p.Access{Resource: vb, Stages: cs, Access: vk.AccessShaderStorageWrite}, p.Access{Resource: args, Stages: cs, Access: vk.AccessShaderStorageWrite})
			g.AddCommand("dispatch.indirect", g.Indirect(args), g.ReadBuffer(vb, cs))
			g.AddCommand("draw", g.VertexBuffer(vb), g.Indirect(args), g.ColorAttachment(col))
			g.AddCommand("post", g.ReadImage(col, cs), g.WriteImage(col, cs))
			g.AddCommand("ui", g.BlendAttachment(col))
			g.AddCommand("read", g.ReadImage(col, cs))
			return g
		}},
		{"stencil", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			ds := g.AddImage("ds", aliasplan.ImageDesc{Format: vk.FormatD24UnormS8Uint, Width: 64, Height: 64, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
			col := g.AddImage("color", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageStorage})
			g.AddCommand("mask", g.DepthAttachment(ds))
			g.AddCommand("outline", g.DepthTest(ds).WithAspects(vk.AspectStencil), g.ColorAttachment(col))
			g.AddCommand("depth.read", g.Sampled(ds, fs).WithAspects(vk.AspectDepth), g.BlendAttachment(col))
			g.AddCommand("read", g.ReadImage(col, cs))
			return g
		}},
		{"clear-fill", func() *aliasplan.Graph {
			g := &aliasplan.Graph{}
			im := g.AddImage("im", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 64, Height: 64, Usage: vk.ImageUsageTransferDst | vk.ImageUsageStorage})
			b := g.AddBuffer("counters", aliasplan.BufferDesc{Size: 1024, Usage: vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer})
			g.AddCommand("clear", p.Access{Resource: im, Stages: vk.StageClear, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal},
				p.Access{Resource: b, Stages: vk.StageClear, Access: vk.AccessTransferWrite})
			g.AddCommand("count", g.WriteBuffer(b, cs), g.WriteImage(im, cs))
			g.AddCommand("read", g.ReadBuffer(b, cs), g.ReadImage(im, cs))
			return g
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.f()
			rep := compare(t, d, &g.Graph, 1)
			t.Logf("%d alias barriers, digests equal %v", rep.AliasBarriers, rep.DigestsEqual)
		})
	}
}
