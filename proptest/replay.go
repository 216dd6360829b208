package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// ReplayKinds names the kinds of use ReplayFrame draws from; each frame
// uses some of them (ReplayFrameKinds says which), and a run of seeds
// covers every one.
var ReplayKinds = []string{
	"msaa-draw-resolve",    // a 4× colour and depth pass, an attachment resolve, texelFetch of every sample
	"msaa-transfer",        // a RESOLVE-stage vkCmdResolveImage
	"array",                // a 2D array written by compute, sampled by a fragment shader
	"cube",                 // a 6-layer square image drawn into (a pass per layer), sampled by compute
	"3d",                   // a 3D image written and sampled
	"mip-attachments",      // colour and depth images of several mips drawn into (a view per mip), then sampled
	"depth-read-only",      // depth tested read-only while sampled, D32 sampled in SHADER_READ_ONLY_OPTIMAL
	"depth-stencil",        // a depth/stencil image written, then both aspects sampled
	"indirect-vertex",      // one draw reading two indirect buffers, two vertex buffers and an index buffer
	"multi-stage",          // one buffer read by the vertex and fragment shaders in one access, SHADER_READ
	"ordering-only",        // TOP_OF_PIPE / BOTTOM_OF_PIPE / NONE uses (the README's present idiom)
	"layered-transfers",    // copies and blits of every mip level and layer, buffer↔image of a mip chain
	"compute-chain",        // short-lived buffers and images between compute passes (aliasing)
	"aggregated-accesses",  // one resource named twice in one command
	"input-attachment",     // colour and depth written, then read as input attachments at the fragment's own pixel
	"graphics-storage",     // storage writes from vertex and fragment shaders (beside attachments, and alone)
	"texel-buffers",        // storage texel buffers written and read, uniform texel buffers read (compute, vertex, fragment)
	"3d-uint",              // an R32_UINT 3D image written, sampled and storage-read; one drawn into slice by slice
	"stencil-only",         // an S8_UINT attachment written, tested read-write and read-only, then sampled
	"host",                 // HOST_WRITE of an upload buffer before the GPU reads it, HOST_READ of a read-back buffer after
	"msaa-storage",         // 4× storage images read and written by fragment shaders (shaderStorageImageMultisample)
	"generic-buffers",      // ALL_COMMANDS / ALL_GRAPHICS stages and MEMORY_READ / MEMORY_WRITE accesses of buffers; a buffer copied onto itself
	"generic-images",       // the same of storage, colour, depth and cleared images
	"image-self-transfers", // an image copied and blitted onto itself (GENERAL, one half onto the other)
	"extent-copies",        // copies and a blit between images of different extents and layer counts (tiled, scaled)
	"lone-copies",          // copy destinations without a source and sources without a destination (buffers, colour and depth images)
	"tess-geometry",        // reads and writes in tessellation control, evaluation and geometry shaders (with and without each other)
	"color-read-only",      // a colour attachment read without a write (loaded, write mask 0) beside a written one
	"big-uniform",          // a uniform buffer over 64 KiB read in compute and fragment shaders (64 KiB ranges)
	"storage-formats",      // storage-image reads of rg32f, rgba32ui, rgba16, rgb10_a2 and rg8 images (compute and fragment)
	"transform-feedback",   // a capture writing its counter, a resume reading and writing it, vkCmdDrawIndirectByteCountEXT, then the captured words read
	"cond-rendering",       // a dispatch and a draw whose predicate a compute pass wrote
	"stand-in-transfers",   // lone copy sides of 4× images, lone BLIT and RESOLVE sides (a 3D destination too), a resolve into a 3D image
	"block-compressed",     // BC1 / BC7 images: a lone upload, a copy onto itself, a tiled copy, a lone download, texels copied into blocks; partial edge blocks (dedicated images) to and from texels and tiled
	"graphics-slots",       // a draw with more vertex and fragment slots of one kind than the shaders declare (vulkan/replay/gfxsplit.go)
	"signed-storage",       // signed-integer storage images written by compute, vertex and fragment shaders, copied to buffers (replay_sint.go)
}

// ReplayFrame builds a small frame (extents 8 to 32) for the replay from
// seed: a sink buffer, then two or three of ReplayKinds, each a few
// commands whose transients die soon so that the plan aliases them. Every
// transient's first use writes it; every access is one the replay
// performs on any Vulkan 1.3 device with 4× multisampling.
func ReplayFrame(seed uint64) *planner.Graph {
	g, _ := replayFrame(seed)
	return g
}

// ReplayFrameKinds says which ReplayKinds ReplayFrame(seed) uses.
func ReplayFrameKinds(seed uint64) []string {
	_, k := replayFrame(seed)
	return k
}

func replayFrame(seed uint64) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0xbb67ae8584caa73b))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	// Every kind once in every len(ReplayKinds) seeds (seed order), plus one or two
	// more at random (kept small: make test replays 50 of them).
	kinds := []int{int(seed % uint64(len(ReplayKinds)))}
	for n := 1 + rng.IntN(2); n > 0; n-- {
		kinds = append(kinds, rng.IntN(len(ReplayKinds)))
	}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, ReplayKinds[k])
		b.first = true
		b.kind(ReplayKinds[k])
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

type rgen struct {
	g      *planner.Graph
	rng    *rand.Rand
	prefix string
	sink   planner.ResourceID
	n      int
	first  bool
}

const (
	colorUsage = vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
	depthUsage = vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
)

func (b *rgen) cmd(name string, acc ...planner.Access) {
	if b.first {
		// A kind's first command reads the sink the previous kind's
		// last one wrote: kinds follow each other, so their transients
		// can share memory.
		b.first = false
		st := vk.StageComputeShader
		for _, a := range acc {
			if a.Stages&(vk.StageColorAttachmentOutput|vk.StageEarlyFragmentTests|vk.StageLateFragmentTests) != 0 {
				st = vk.StageFragmentShader
			}
		}
		acc = append(acc, planner.Access{Resource: b.sink, Stages: st, Access: vk.AccessShaderStorageRead})
	}
	b.n++
	b.g.AddCommand(fmt.Sprintf("%s%s.%d", b.prefix, name, b.n), acc...)
}

func (b *rgen) size() uint32 { return []uint32{8, 16, 32}[b.rng.IntN(3)] }

func (b *rgen) image(name string, d planner.ImageDesc) planner.ResourceID {
	d.Tiling = vk.TilingOptimal
	return b.g.AddImage(b.prefix+name, d)
}

func (b *rgen) buffer(name string, size uint64, usage vk.BufferUsage) planner.ResourceID {
	return b.g.AddBuffer(b.prefix+name, planner.BufferDesc{Size: size, Usage: usage | vk.BufferUsageStorageBuffer})
}

func (b *rgen) storageWrite(r planner.ResourceID) planner.Access {
	a := planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	if b.g.Resources[r].Kind == planner.KindImage {
		a.Layout = vk.LayoutGeneral
	}
	return a
}

func sampled(r planner.ResourceID, st vk.Stage, l vk.Layout) planner.Access {
	return planner.Access{Resource: r, Stages: st, Access: vk.AccessShaderSampledRead, Layout: l}
}

func colorWrite(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
}

func depthWrite(r planner.ResourceID, l vk.Layout) planner.Access {
	return planner.Access{Resource: r, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: l}
}

// toSink makes a compute command read r (sampled or storage) and write
// the sink, so the kind's results feed a digest and later kinds.
func (b *rgen) toSink(name string, a ...planner.Access) {
	b.cmd(name, append(a, planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})...)
}

func (b *rgen) kind(k string) {
	s := b.size()
	fs := vk.StageFragmentShader
	cs := vk.StageComputeShader
	switch k {
	case "msaa-draw-resolve":
		ms := b.image("ms", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Samples: 4,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled | vk.ImageUsageTransferSrc})
		msd := b.image("msdepth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Samples: 4, Usage: depthUsage})
		res := b.image("resolved", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("msaa.draw", colorWrite(ms), depthWrite(msd, vk.LayoutDepthAttachmentOptimal), colorWrite(res))
		b.cmd("msaa.fetch", sampled(ms, fs, vk.LayoutShaderReadOnlyOptimal), sampled(msd, fs, vk.LayoutDepthReadOnlyOptimal), colorWrite(res))
		b.toSink("resolved.read", sampled(res, cs, vk.LayoutShaderReadOnlyOptimal))
	case "msaa-transfer":
		ms := b.image("ms", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Samples: 4,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc})
		res := b.image("resolved", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("msaa.draw", colorWrite(ms))
		b.cmd("msaa.resolve", planner.Access{Resource: ms, Stages: vk.StageResolve, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
			planner.Access{Resource: res, Stages: vk.StageResolve, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
		b.toSink("resolved.read", sampled(res, cs, vk.LayoutShaderReadOnlyOptimal))
	case "array":
		arr := b.image("array", planner.ImageDesc{Format: vk.FormatR32Sfloat, Width: s, Height: s, ArrayLayers: uint32(2 + b.rng.IntN(3)), Usage: colorUsage})
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("array.write", b.storageWrite(arr))
		b.cmd("array.sample", sampled(arr, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(out))
		b.toSink("out.read", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	case "cube":
		cube := b.image("cube", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, ArrayLayers: 6, MipLevels: 2, Usage: colorUsage})
		b.cmd("cube.faces", colorWrite(cube))
		b.toSink("cube.sample", sampled(cube, cs, vk.LayoutShaderReadOnlyOptimal))
	case "3d":
		vol := b.image("volume", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s / 2, Height: s / 2, Depth: 4, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		b.cmd("volume.write", b.storageWrite(vol))
		slices := b.image("slices", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s / 2, Height: s / 2, Depth: 4, MipLevels: 2,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
		b.cmd("slices.draw", colorWrite(slices))
		b.toSink("slices.sample", sampled(slices, cs, vk.LayoutShaderReadOnlyOptimal))
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR32Uint, Width: s, Height: s, Usage: colorUsage})
		b.cmd("volume.sample", sampled(vol, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(out))
		b.toSink("out.read", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "mip-attachments":
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, MipLevels: 3, Usage: colorUsage})
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, MipLevels: 2, Usage: depthUsage})
		b.cmd("mips.draw", colorWrite(col), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.cmd("mips.blend", planner.Access{Resource: col, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
		b.toSink("mips.sample", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal), sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal))
	case "depth-read-only":
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR32Sfloat, Width: s, Height: s, Usage: colorUsage})
		b.cmd("depth.write", depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.cmd("depth.test-and-sample", planner.Access{Resource: dep, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests | fs,
			Access: vk.AccessDepthStencilAttachmentRead | vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal}, colorWrite(out))
		b.toSink("depth.sampled-shader-read-only", sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal), sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "depth-stencil":
		ds := b.image("ds", planner.ImageDesc{Format: vk.FormatD32SfloatS8Uint, Width: s, Height: s, Usage: depthUsage})
		b.cmd("ds.write", depthWrite(ds, vk.LayoutDepthStencilAttachmentOptimal))
		b.toSink("ds.sample", sampled(ds, cs, vk.LayoutDepthStencilReadOnlyOptimal))
	case "indirect-vertex":
		ind := []planner.ResourceID{b.buffer("args0", 16, vk.BufferUsageIndirectBuffer), b.buffer("args1", 32, vk.BufferUsageIndirectBuffer)}
		vtx := []planner.ResourceID{b.buffer("verts0", 384, vk.BufferUsageVertexBuffer), b.buffer("verts1", 192, vk.BufferUsageVertexBuffer)}
		idx := b.buffer("indices", 96, vk.BufferUsageIndexBuffer)
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("args.write", b.storageWrite(ind[0]), b.storageWrite(ind[1]), b.storageWrite(vtx[0]), b.storageWrite(vtx[1]))
		b.cmd("indices.clear", planner.Access{Resource: idx, Stages: cs, Access: vk.AccessShaderStorageWrite})
		acc := []planner.Access{colorWrite(out), {Resource: idx, Stages: vk.StageIndexInput, Access: vk.AccessIndexRead}}
		for _, r := range ind {
			acc = append(acc, planner.Access{Resource: r, Stages: vk.StageDrawIndirect, Access: vk.AccessIndirectCommandRead})
		}
		for _, r := range vtx {
			acc = append(acc, planner.Access{Resource: r, Stages: vk.StageVertexAttributeInput, Access: vk.AccessVertexAttributeRead})
		}
		b.cmd("draw", acc...)
		b.toSink("out.read", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "multi-stage":
		buf := b.buffer("shared", uint64(256*(1+b.rng.IntN(8))), vk.BufferUsageUniformBuffer)
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("shared.write", planner.Access{Resource: buf, Stages: cs, Access: vk.AccessShaderWrite})
		b.cmd("shared.draw", planner.Access{Resource: buf, Stages: vk.StageVertexShader | fs, Access: vk.AccessShaderRead}, colorWrite(out))
		b.toSink("out.read", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	case "ordering-only":
		img := b.g.AddResource(planner.Resource{Name: b.prefix + "swapchain", Kind: planner.KindImage, Imported: true,
			Image: planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc, InitialLayout: vk.LayoutUndefined}})
		b.cmd("acquire", planner.Access{Resource: img, Stages: vk.StageTopOfPipe, Layout: vk.LayoutColorAttachmentOptimal})
		b.cmd("draw", colorWrite(img), planner.Access{Resource: b.sink, Stages: fs, Access: vk.AccessShaderStorageRead})
		b.cmd("present", planner.Access{Resource: img, Stages: vk.StageBottomOfPipe, Layout: vk.LayoutPresentSrc})
		b.cmd("fence", planner.Access{Resource: b.sink, Stages: vk.StageNone | vk.StageBottomOfPipe})
	case "layered-transfers":
		a := b.image("a", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, ArrayLayers: 2, MipLevels: 2, Usage: colorUsage})
		c := b.image("b", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, ArrayLayers: 2, MipLevels: 2, Usage: colorUsage})
		d := b.image("c", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, ArrayLayers: 2, MipLevels: 2, Usage: colorUsage})
		bytes := uint64(s*s+(s/2)*(s/2)) * 2 * 4
		buf := b.g.AddBuffer(b.prefix+"staging", planner.BufferDesc{Size: bytes, Usage: vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer})
		b.cmd("a.write", b.storageWrite(a))
		b.cmd("a.copy", planner.Access{Resource: a, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
			planner.Access{Resource: c, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
		b.cmd("b.blit", planner.Access{Resource: c, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
			planner.Access{Resource: d, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
		b.cmd("c.to-buffer", planner.Access{Resource: d, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
			planner.Access{Resource: buf, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
		b.toSink("staging.read", planner.Access{Resource: buf, Stages: cs, Access: vk.AccessShaderStorageRead})
	case "compute-chain":
		prev := planner.ResourceID(-1)
		for i := 0; i < 3; i++ {
			var r planner.ResourceID
			if b.rng.IntN(2) == 0 {
				r = b.buffer(fmt.Sprintf("t%d", i), uint64(512*(1+b.rng.IntN(4))), 0)
			} else {
				r = b.image(fmt.Sprintf("t%d", i), planner.ImageDesc{Format: vk.FormatR32Uint, Width: s, Height: s, Usage: colorUsage})
			}
			acc := []planner.Access{b.storageWrite(r)}
			if prev >= 0 {
				pa := planner.Access{Resource: prev, Stages: cs, Access: vk.AccessShaderStorageRead}
				if b.g.Resources[prev].Kind == planner.KindImage {
					pa.Layout = vk.LayoutGeneral
				}
				acc = append(acc, pa)
			}
			b.cmd("chain", acc...)
			prev = r
		}
		pa := planner.Access{Resource: prev, Stages: cs, Access: vk.AccessShaderStorageRead}
		if b.g.Resources[prev].Kind == planner.KindImage {
			pa.Layout = vk.LayoutGeneral
		}
		b.toSink("chain.end", pa)
	case "aggregated-accesses":
		img := b.image("img", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("img.write", b.storageWrite(img))
		b.cmd("img.twice", planner.Access{Resource: img, Stages: cs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
			planner.Access{Resource: img, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
			planner.Access{Resource: b.sink, Stages: cs, Access: vk.AccessShaderStorageWrite})
		b.toSink("img.read", sampled(img, cs, vk.LayoutShaderReadOnlyOptimal))
	case "input-attachment":
		gb := b.image("gbuffer", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageInputAttachment})
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s,
			Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageInputAttachment})
		out := b.image("lit", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("gbuffer.draw", colorWrite(gb), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.cmd("lighting", planner.Access{Resource: gb, Stages: fs, Access: vk.AccessInputAttachmentRead, Layout: vk.LayoutShaderReadOnlyOptimal},
			planner.Access{Resource: dep, Stages: fs, Access: vk.AccessInputAttachmentRead, Layout: vk.LayoutDepthReadOnlyOptimal}, colorWrite(out))
		b.toSink("lit.read", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "graphics-storage":
		vbuf := b.buffer("vertex-out", uint64(256*(1+b.rng.IntN(4))), 0)
		fimg := b.image("fragment-out", planner.ImageDesc{Format: vk.FormatR32Sfloat, Width: s, Height: s, Usage: colorUsage})
		fbuf := b.buffer("fragment-buf", uint64(512*(1+b.rng.IntN(4))), 0)
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
		b.cmd("draw.writes", planner.Access{Resource: vbuf, Stages: vk.StageVertexShader, Access: vk.AccessShaderStorageWrite},
			planner.Access{Resource: fimg, Stages: fs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
			colorWrite(col), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.cmd("fragment.rw", planner.Access{Resource: fimg, Stages: fs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
			planner.Access{Resource: fbuf, Stages: fs, Access: vk.AccessShaderStorageWrite})
		b.toSink("writes.read", planner.Access{Resource: vbuf, Stages: cs, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: fbuf, Stages: cs, Access: vk.AccessShaderStorageRead},
			sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "texel-buffers":
		tu := vk.BufferUsageStorageTexelBuffer | vk.BufferUsageUniformTexelBuffer
		stb := b.g.AddBuffer(b.prefix+"texels", planner.BufferDesc{Size: uint64(256 * (1 + b.rng.IntN(4))), Usage: tu})
		utb := b.g.AddBuffer(b.prefix+"lut", planner.BufferDesc{Size: uint64(128 * (1 + b.rng.IntN(4))), Usage: vk.BufferUsageUniformTexelBuffer | vk.BufferUsageStorageTexelBuffer})
		ro := b.g.AddBuffer(b.prefix+"uniform-texels", planner.BufferDesc{Size: 512, Usage: vk.BufferUsageUniformTexelBuffer | vk.BufferUsageStorageTexelBuffer})
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("texels.write", planner.Access{Resource: stb, Stages: cs, Access: vk.AccessShaderStorageWrite},
			planner.Access{Resource: ro, Stages: cs, Access: vk.AccessShaderWrite})
		b.cmd("lut.write", planner.Access{Resource: stb, Stages: cs, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: utb, Stages: cs, Access: vk.AccessShaderStorageWrite})
		b.cmd("texels.draw", planner.Access{Resource: utb, Stages: fs, Access: vk.AccessShaderSampledRead},
			planner.Access{Resource: stb, Stages: vk.StageVertexShader, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: ro, Stages: vk.StageVertexShader | fs, Access: vk.AccessShaderSampledRead}, colorWrite(out))
		b.toSink("texels.read", planner.Access{Resource: utb, Stages: cs, Access: vk.AccessShaderSampledRead},
			sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "3d-uint":
		vol := b.image("volume", planner.ImageDesc{Format: vk.FormatR32Uint, Width: s / 2, Height: s / 2, Depth: 4, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		b.cmd("volume.write", b.storageWrite(vol))
		slices := b.image("slices", planner.ImageDesc{Format: vk.FormatR32Uint, Width: s / 2, Height: s / 2, Depth: 4,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
		b.cmd("slices.draw", colorWrite(slices), sampled(vol, fs, vk.LayoutShaderReadOnlyOptimal))
		b.cmd("volume.storage-read", planner.Access{Resource: vol, Stages: cs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
			planner.Access{Resource: b.sink, Stages: cs, Access: vk.AccessShaderStorageWrite})
		b.toSink("slices.sample", sampled(slices, cs, vk.LayoutShaderReadOnlyOptimal))
	case "stencil-only":
		st := b.image("stencil", planner.ImageDesc{Format: vk.FormatS8Uint, Width: s, Height: s, Usage: depthUsage})
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		tests := vk.StageEarlyFragmentTests | vk.StageLateFragmentTests
		b.cmd("stencil.write", planner.Access{Resource: st, Stages: tests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutStencilAttachmentOptimal}, colorWrite(out))
		b.cmd("stencil.increment", planner.Access{Resource: st, Stages: tests,
			Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutStencilAttachmentOptimal})
		b.cmd("stencil.test", planner.Access{Resource: st, Stages: tests, Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutStencilReadOnlyOptimal},
			planner.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
		b.toSink("stencil.sample", sampled(st, cs, vk.LayoutStencilReadOnlyOptimal), sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "host":
		up := b.g.AddResource(planner.Resource{Name: b.prefix + "upload", Kind: planner.KindBuffer, Memory: planner.CPUToGPU,
			Buffer: planner.BufferDesc{Size: uint64(256 * (1 + b.rng.IntN(4))), Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageUniformBuffer}})
		down := b.g.AddResource(planner.Resource{Name: b.prefix + "readback", Kind: planner.KindBuffer, Memory: planner.GPUToCPU,
			Buffer: planner.BufferDesc{Size: 512, Usage: vk.BufferUsageStorageBuffer}})
		b.cmd("upload.host-write", planner.Access{Resource: up, Stages: vk.StageHost, Access: vk.AccessHostWrite})
		b.cmd("upload.use", planner.Access{Resource: up, Stages: cs | fs, Access: vk.AccessShaderRead},
			planner.Access{Resource: down, Stages: cs, Access: vk.AccessShaderStorageWrite})
		b.toSink("readback.gpu-read", planner.Access{Resource: down, Stages: cs, Access: vk.AccessShaderStorageRead})
		b.cmd("readback.host-read", planner.Access{Resource: down, Stages: vk.StageHost, Access: vk.AccessHostRead})
	case "msaa-storage":
		ms := b.image("ms", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Samples: 4,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageStorage})
		msw := b.image("ms-written", planner.ImageDesc{Format: vk.FormatR32Uint, Width: s, Height: s, Samples: 4, ArrayLayers: uint32(1 + b.rng.IntN(2)),
			Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("ms.draw", colorWrite(ms))
		b.cmd("ms.storage", planner.Access{Resource: ms, Stages: fs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
			planner.Access{Resource: msw, Stages: fs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		b.cmd("ms.fetch", sampled(msw, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(out))
		b.toSink("out.read", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
	case "storage-formats":
		b.storageFormats(s)
	case "color-read-only", "big-uniform":
		b.readOnly(k, s)
	case "tess-geometry":
		b.preRaster(s)
	case "image-self-transfers", "extent-copies", "lone-copies", "stand-in-transfers", "block-compressed":
		b.transfers(k, s)
	case "transform-feedback", "cond-rendering":
		b.xfbCond(k, s) // replay_xfb.go
	case "generic-buffers", "generic-images":
		b.generic(k == "generic-images", s)
	case "graphics-slots":
		b.graphicsSlots(s) // replay_slots.go
	case "signed-storage":
		b.signedStorage(s) // replay_sint.go
	default:
		panic("proptest: unknown replay kind " + k)
	}
}

// generic adds uses with generic stages (ALL_COMMANDS, ALL_GRAPHICS) and
// generic accesses (MEMORY_READ, MEMORY_WRITE), which the replay performs
// as the concrete work they stand for (vulkan/replay/generic.go).
func (b *rgen) generic(images bool, s uint32) {
	all, gfx := vk.StageAllCommands, vk.StageAllGraphics
	mr, mw := vk.AccessMemoryRead, vk.AccessMemoryWrite
	if !images {
		a := b.buffer("storage", uint64(256*(1+b.rng.IntN(8))), vk.BufferUsageUniformBuffer)
		f := b.g.AddBuffer(b.prefix+"fill", planner.BufferDesc{Size: uint64(256 * (1 + b.rng.IntN(8))),
			Usage: vk.BufferUsageTransferDst | vk.BufferUsageTransferSrc | vk.BufferUsageUniformBuffer})
		b.cmd("gen.write", planner.Access{Resource: a, Stages: all, Access: mw}, planner.Access{Resource: f, Stages: all, Access: mw})
		b.cmd("gen.self-copy", planner.Access{Resource: f, Stages: vk.StageCopy, Access: vk.AccessTransferRead | vk.AccessTransferWrite})
		b.cmd("gen.read-write", planner.Access{Resource: a, Stages: vk.StageComputeShader, Access: mr | mw})
		b.toSink("gen.read", planner.Access{Resource: a, Stages: gfx, Access: mr}, planner.Access{Resource: f, Stages: all, Access: mr})
		return
	}
	st := b.image("storage", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s,
		Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
	cl := b.image("cleared", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: vk.ImageUsageTransferDst | vk.ImageUsageSampled})
	b.cmd("gen.write", planner.Access{Resource: st, Stages: all, Access: mw, Layout: vk.LayoutGeneral},
		planner.Access{Resource: col, Stages: gfx, Access: mw, Layout: vk.LayoutColorAttachmentOptimal},
		planner.Access{Resource: dep, Stages: gfx, Access: mw, Layout: vk.LayoutDepthAttachmentOptimal})
	b.cmd("gen.clear", planner.Access{Resource: cl, Stages: all, Access: mw, Layout: vk.LayoutTransferDstOptimal})
	b.cmd("gen.blend", planner.Access{Resource: col, Stages: gfx, Access: mr | mw, Layout: vk.LayoutColorAttachmentOptimal})
	b.toSink("gen.read", planner.Access{Resource: st, Stages: all, Access: mr, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: col, Stages: all, Access: mr, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: dep, Stages: gfx, Access: mr, Layout: vk.LayoutDepthReadOnlyOptimal},
		planner.Access{Resource: cl, Stages: all, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
}
