package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// The frame families of the repository's test data, each a small member
// of a family of the held-out data set: deferred (aliasplan.SampleFrame),
// forward+ (forwardPlusFrame), compute chains (computeFrame) and random
// frames (proptest.RandomFrame). They are built with the root package's
// presets, which proptest cannot import (format's tests import proptest),
// so they live here. Their resources carry no requirements; run writes
// the H200 profile's estimates into the files.

// forwardPlusFrame builds a forward+ frame at width × height: a shadow
// map, a depth prepass, clustered light culling into a dedicated index
// buffer, a forward pass, skybox, GPU particles (simulate, sort, indirect
// draw), a five-level bloom chain, a host readback of light statistics,
// tonemapping and a UI pass into an imported backbuffer, and two debug
// resources nothing uses.
func forwardPlusFrame(width, height uint32) *planner.Graph {
	g := &aliasplan.Graph{}
	image := func(name string, f vk.Format, w, h uint32, usage vk.ImageUsage) aliasplan.ResourceID {
		return g.AddImage(name, aliasplan.ImageDesc{Format: f, Width: max(1, w), Height: max(1, h), Usage: usage})
	}
	buffer := func(name string, size uint64, usage vk.BufferUsage) aliasplan.ResourceID {
		return g.AddBuffer(name, aliasplan.BufferDesc{Size: size, Usage: usage})
	}
	// store is a storage-buffer write that reads nothing (WriteBuffer
	// reads too, which a first use must not: replay compares contents).
	store := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	const (
		vertex, fragment, compute = vk.StageVertexShader, vk.StageFragmentShader, vk.StageComputeShader
		target                    = vk.ImageUsageColorAttachment | vk.ImageUsageSampled
		storage                   = vk.BufferUsageStorageBuffer
	)
	backbuffer := g.AddResource(aliasplan.Resource{Name: "backbuffer", Kind: planner.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: width, Height: height, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment}})
	instances := g.AddResource(aliasplan.Resource{Name: "scene.instances", Kind: planner.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 1 << 20, Usage: storage}})
	lights := g.AddResource(aliasplan.Resource{Name: "scene.lights", Kind: planner.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 64 << 10, Usage: storage}})
	previous := g.AddResource(aliasplan.Resource{Name: "particles.previous", Kind: planner.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 256 << 10, Usage: storage}})

	shadow := image("shadow.map0", vk.FormatD32Sfloat, 512, 512, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	depth := image("depth", vk.FormatD32Sfloat, width, height, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	counter := buffer("lights.counter", 16, storage|vk.BufferUsageTransferDst|vk.BufferUsageTransferSrc)
	grid := buffer("lights.grid", uint64(width/16+1)*uint64(height/16+1)*8, storage)
	index := g.AddResource(aliasplan.Resource{Name: "lights.index", Kind: planner.KindBuffer, Dedicated: true,
		Buffer: aliasplan.BufferDesc{Size: uint64(width/16+1) * uint64(height/16+1) * 256, Usage: storage}})
	hdr := image("hdr.color", vk.FormatR16G16B16A16Sfloat, width, height, target)
	velocity := image("velocity", vk.FormatR16G16Sfloat, width, height, vk.ImageUsageColorAttachment)
	state := buffer("particles.state", 256<<10, storage)
	args := buffer("particles.args", 64, vk.BufferUsageIndirectBuffer|storage)
	keys := buffer("particles.keys", 32<<10, storage)
	const levels = 5
	var down, up [levels]aliasplan.ResourceID
	for i := range levels {
		down[i] = image(fmt.Sprintf("bloom.down%d", i), vk.FormatB10G11R11UfloatPack32, width>>(i+1), height>>(i+1), target)
	}
	for i := levels - 2; i >= 0; i-- {
		up[i] = image(fmt.Sprintf("bloom.up%d", i), vk.FormatB10G11R11UfloatPack32, width>>(i+1), height>>(i+1), target)
	}
	readback := g.AddResource(aliasplan.Resource{Name: "stats.readback", Kind: planner.KindBuffer, Memory: planner.GPUToCPU,
		Buffer: aliasplan.BufferDesc{Size: 64, Usage: vk.BufferUsageTransferDst}})
	ui := buffer("ui.vertices", 16<<10, storage|vk.BufferUsageVertexBuffer)
	image("debug.heatmap", vk.FormatR32Uint, width, height, vk.ImageUsageStorage) // declared, never used
	buffer("debug.counters", 4<<10, storage)                                      // declared, never used

	g.AddCommand("shadow.pass0", g.DepthAttachment(shadow))
	g.AddCommand("depth.prepass", g.ReadBuffer(instances, vertex), g.DepthAttachment(depth))
	g.AddCommand("lights.clear", g.TransferDst(counter))
	g.AddCommand("lights.cull", g.Sampled(depth, compute), g.ReadBuffer(lights, compute), g.WriteBuffer(counter, compute),
		store(grid), store(index))
	g.AddCommand("forward.opaque", g.ReadBuffer(instances, vertex), g.DepthTest(depth), g.ReadBuffer(grid, fragment),
		g.ReadBuffer(index, fragment), g.ReadBuffer(lights, fragment), g.ColorAttachment(hdr), g.ColorAttachment(velocity),
		g.Sampled(shadow, fragment))
	g.AddCommand("skybox", g.DepthTest(depth), g.BlendAttachment(hdr))
	g.AddCommand("particles.simulate", g.ReadBuffer(previous, compute), g.Sampled(depth, compute), store(state),
		store(args), store(keys))
	g.AddCommand("particles.sort", g.WriteBuffer(keys, compute))
	g.AddCommand("particles.draw", g.Indirect(args), g.ReadBuffer(state, vertex), g.ReadBuffer(keys, vertex), g.DepthTest(depth),
		g.BlendAttachment(hdr))
	src := hdr
	for i := range levels {
		g.AddCommand(fmt.Sprintf("bloom.downsample%d", i), g.Sampled(src, fragment), g.ColorAttachment(down[i]))
		src = down[i]
	}
	for i := levels - 2; i >= 0; i-- {
		g.AddCommand(fmt.Sprintf("bloom.upsample%d", i), g.Sampled(src, fragment), g.Sampled(down[i], fragment), g.ColorAttachment(up[i]))
		src = up[i]
	}
	g.AddCommand("stats.copy", g.TransferSrc(counter), g.TransferDst(readback))
	g.AddCommand("tonemap", g.Sampled(hdr, fragment), g.Sampled(up[0], fragment), g.ColorAttachment(backbuffer))
	g.AddCommand("ui.build", store(ui))
	g.AddCommand("ui", g.VertexBuffer(ui), g.BlendAttachment(backbuffer))
	return &g.Graph
}

// computeKernels name computeFrame's passes.
var computeKernels = []string{"shade", "sort.scatter", "denoise", "prefix_sum", "raster.sw", "reduce", "cull.triangles", "histogram"}

// computeFrame builds a compute-only frame of n passes from a seed, like
// the held-out compute-*.json frames: a counters buffer cleared first and
// read by every pass; each pass reads one or two recent transients (or
// starts a new branch, reading only imported scene data), writes one or
// two fresh ones (buffers from 256 bytes to 4 MiB, now and then a storage
// image in GENERAL layout), and the last pass writes the imported output
// image. The first transient is dedicated.
func computeFrame(seed uint64, n int) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0xbb67ae8584caa73b))
	g := &aliasplan.Graph{}
	const compute = vk.StageComputeShader
	instances := g.AddResource(aliasplan.Resource{Name: "scene.instances", Kind: planner.KindBuffer, Imported: true,
		Buffer: aliasplan.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageStorageBuffer}})
	output := g.AddResource(aliasplan.Resource{Name: "output.image", Kind: planner.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 320, Height: 180, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageStorage}})
	counters := g.AddBuffer("counters", aliasplan.BufferDesc{Size: 256,
		Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferDst | vk.BufferUsageTransferSrc})
	g.AddCommand("counters.clear", g.TransferDst(counters))
	var recent []aliasplan.ResourceID
	read := func(r aliasplan.ResourceID) aliasplan.Access {
		if g.Resources[r].Kind == planner.KindImage {
			return g.ReadImage(r, compute)
		}
		return g.ReadBuffer(r, compute)
	}
	for i := 1; i <= n; i++ {
		acc := []aliasplan.Access{g.ReadBuffer(counters, compute)}
		if len(recent) == 0 || rng.IntN(6) == 0 {
			acc = append(acc, g.ReadBuffer(instances, compute)) // a new branch
		} else {
			first := recent[len(recent)-1-rng.IntN(min(len(recent), 3))]
			acc = append(acc, read(first))
			if second := recent[len(recent)-1-rng.IntN(min(len(recent), 6))]; second != first && rng.IntN(2) == 0 {
				acc = append(acc, read(second))
			}
		}
		for k := 1 + rng.IntN(2); k > 0; k-- {
			name := fmt.Sprintf("t%03d", len(g.Resources)-3)
			var r aliasplan.ResourceID
			if rng.IntN(5) == 0 {
				r = g.AddImage(name, aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
					Width: uint32(16 * (1 + rng.IntN(20))), Height: uint32(16 * (1 + rng.IntN(12))), Usage: vk.ImageUsageStorage})
				acc = append(acc, g.WriteImage(r, compute))
			} else {
				r = g.AddResource(aliasplan.Resource{Name: name, Kind: planner.KindBuffer, Dedicated: len(g.Resources) == 3,
					Buffer: aliasplan.BufferDesc{Size: uint64(1) << (8 + rng.IntN(15)) * uint64(1+rng.IntN(3)), Usage: vk.BufferUsageStorageBuffer}})
				acc = append(acc, aliasplan.Access{Resource: r, Stages: compute, Access: vk.AccessShaderStorageWrite})
			}
			recent = append(recent, r)
		}
		if i == n {
			acc = append(acc, g.WriteImage(output, compute))
		}
		g.AddCommand(fmt.Sprintf("%s.%03d", computeKernels[rng.IntN(len(computeKernels))], i), acc...)
	}
	return &g.Graph
}

// makeReplayable adjusts a generated frame so that package replay can run
// it on a device: a transfer write in a command that reads nothing by
// transfer is a fill (stage CLEAR), not a copy without a source; and
// every resource gets the usage bits its accesses need (proptest's
// generators declare usage loosely).
func makeReplayable(g *planner.Graph) {
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		source := false
		for _, a := range cmd.Accesses {
			source = source || a.Access&vk.AccessTransferRead != 0
		}
		for i := range cmd.Accesses {
			a := &cmd.Accesses[i]
			if !source && a.Access == vk.AccessTransferWrite && a.Stages&(vk.StageCopy|vk.StageAllTransfer) != 0 {
				a.Stages = vk.StageClear
			}
			r := &g.Resources[a.Resource]
			has := func(f vk.AccessFlags) bool { return a.Access&f != 0 }
			if r.Kind == planner.KindBuffer {
				for _, m := range []struct {
					f vk.AccessFlags
					u vk.BufferUsage
				}{
					{vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, vk.BufferUsageStorageBuffer},
					{vk.AccessTransferRead, vk.BufferUsageTransferSrc},
					{vk.AccessTransferWrite, vk.BufferUsageTransferDst},
					{vk.AccessIndirectCommandRead, vk.BufferUsageIndirectBuffer},
					{vk.AccessVertexAttributeRead, vk.BufferUsageVertexBuffer},
					{vk.AccessIndexRead, vk.BufferUsageIndexBuffer},
					{vk.AccessUniformRead, vk.BufferUsageUniformBuffer},
				} {
					if has(m.f) {
						r.Buffer.Usage |= m.u
					}
				}
				continue
			}
			for _, m := range []struct {
				f vk.AccessFlags
				u vk.ImageUsage
			}{
				{vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, vk.ImageUsageStorage},
				{vk.AccessShaderSampledRead, vk.ImageUsageSampled},
				{vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, vk.ImageUsageColorAttachment},
				{vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, vk.ImageUsageDepthStencilAttachment},
				{vk.AccessInputAttachmentRead, vk.ImageUsageInputAttachment},
				{vk.AccessTransferRead, vk.ImageUsageTransferSrc},
				{vk.AccessTransferWrite, vk.ImageUsageTransferDst},
			} {
				if has(m.f) {
					r.Image.Usage |= m.u
				}
			}
		}
	}
}
