package proptest

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Replay kinds of issue 21's last refusals (vulkan/replay: selfimage.go,
// extents.go, lonecopy.go).

func copyAccess(r planner.ResourceID, st vk.Stage, acc vk.AccessFlags, l vk.Layout) planner.Access {
	return planner.Access{Resource: r, Stages: st, Access: acc, Layout: l}
}

// transfers adds the transfer kinds.
func (b *rgen) transfers(k string, s uint32) {
	cs := vk.StageComputeShader
	rd, wr := vk.AccessTransferRead, vk.AccessTransferWrite
	src, dst, gen := vk.LayoutTransferSrcOptimal, vk.LayoutTransferDstOptimal, vk.LayoutGeneral
	switch k {
	case "image-self-transfers":
		img := b.image("self", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, ArrayLayers: 2, MipLevels: 2, Usage: colorUsage})
		col := b.image("column", planner.ImageDesc{Format: vk.FormatR32Sfloat, Width: 1, Height: s, Usage: colorUsage})
		b.cmd("self.write", b.storageWrite(img), b.storageWrite(col))
		b.cmd("self.copy", copyAccess(img, vk.StageCopy, rd|wr, gen), copyAccess(col, vk.StageAllTransfer, rd|wr, gen))
		b.cmd("self.blit", copyAccess(img, vk.StageBlit, rd|wr, gen))
		b.toSink("self.read", sampled(img, cs, vk.LayoutShaderReadOnlyOptimal), sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "extent-copies":
		a := b.image("small", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s / 2, ArrayLayers: 2, Usage: colorUsage})
		big := b.image("big", planner.ImageDesc{Format: vk.FormatR8G8B8A8Uint, Width: 2 * s, Height: s, ArrayLayers: 3, MipLevels: 2, Usage: colorUsage})
		corner := b.image("corner", planner.ImageDesc{Format: vk.FormatR32Uint, Width: s / 2, Height: s / 4, Usage: colorUsage})
		scaled := b.image("scaled", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 2 * s, Height: 2 * s, MipLevels: 2, Usage: colorUsage})
		b.cmd("small.write", b.storageWrite(a))
		b.cmd("small.tile", copyAccess(a, vk.StageCopy, rd, src), copyAccess(big, vk.StageCopy, wr, dst))
		b.cmd("big.corner", copyAccess(big, vk.StageCopy, rd, src), copyAccess(corner, vk.StageCopy, wr, dst))
		b.cmd("small.scale", copyAccess(a, vk.StageBlit, rd, src), copyAccess(scaled, vk.StageBlit, wr, dst))
		b.toSink("extents.read", sampled(big, cs, vk.LayoutShaderReadOnlyOptimal), sampled(corner, cs, vk.LayoutShaderReadOnlyOptimal),
			sampled(scaled, cs, vk.LayoutShaderReadOnlyOptimal))
	case "lone-copies":
		buf := b.g.AddBuffer(b.prefix+"upload", planner.BufferDesc{Size: uint64(256 * (1 + b.rng.IntN(4))), Usage: vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer})
		img := b.image("uploaded", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, MipLevels: 2, Usage: colorUsage})
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
		b.cmd("upload", copyAccess(buf, vk.StageCopy, wr, 0), copyAccess(img, vk.StageCopy, wr, dst), copyAccess(dep, vk.StageCopy, wr, dst))
		out := b.g.AddBuffer(b.prefix+"out", planner.BufferDesc{Size: 512, Usage: vk.BufferUsageTransferSrc | vk.BufferUsageStorageBuffer})
		b.cmd("out.write", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageWrite},
			planner.Access{Resource: buf, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(img, cs, vk.LayoutShaderReadOnlyOptimal),
			sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal))
		b.cmd("download", copyAccess(out, vk.StageCopy, rd, 0), copyAccess(img, vk.StageCopy, rd, src))
		cp := b.image("copy", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, MipLevels: 2, Usage: colorUsage})
		b.cmd("two-sources", copyAccess(img, vk.StageCopy, rd, src), copyAccess(dep, vk.StageCopy, rd, src), copyAccess(cp, vk.StageCopy, wr, dst))
		b.toSink("copy.read", sampled(cp, cs, vk.LayoutShaderReadOnlyOptimal))
	case "stand-in-transfers", "block-compressed":
		b.standIns(k, s) // replay_standin.go
	}
}

// preRaster adds tessellation and geometry shader accesses.
func (b *rgen) preRaster(s uint32) {
	tc, te, gs := vk.StageTessellationControlShader, vk.StageTessellationEvaluationShader, vk.StageGeometryShader
	cs := vk.StageComputeShader
	in := b.buffer("control-points", uint64(256*(1+b.rng.IntN(4))), vk.BufferUsageUniformBuffer)
	hm := b.image("heightmap", planner.ImageDesc{Format: vk.FormatR16Sfloat, Width: s, Height: s, MipLevels: 2, Usage: colorUsage})
	b.cmd("patches.write", b.storageWrite(in), b.storageWrite(hm))
	out := b.buffer("tess-out", uint64(512*(1+b.rng.IntN(4))), 0)
	gout := b.buffer("geom-out", 512, 0)
	col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
	b.cmd("terrain.draw", planner.Access{Resource: in, Stages: tc, Access: vk.AccessShaderStorageRead},
		sampled(hm, te, vk.LayoutShaderReadOnlyOptimal),
		planner.Access{Resource: out, Stages: te, Access: vk.AccessShaderStorageWrite},
		planner.Access{Resource: gout, Stages: gs, Access: vk.AccessShaderStorageWrite},
		colorWrite(col), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
	sil := b.image("silhouettes", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	b.cmd("silhouette.draw", planner.Access{Resource: in, Stages: gs, Access: vk.AccessUniformRead},
		planner.Access{Resource: out, Stages: gs | vk.StageFragmentShader, Access: vk.AccessShaderStorageRead}, colorWrite(sil))
	b.cmd("domain.only", planner.Access{Resource: gout, Stages: te, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: in, Stages: cs, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	b.toSink("tess.read", planner.Access{Resource: in, Stages: cs, Access: vk.AccessShaderStorageRead},
		sampled(col, cs, vk.LayoutShaderReadOnlyOptimal), sampled(sil, cs, vk.LayoutShaderReadOnlyOptimal), sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal))
}

// readOnly adds a read-only colour attachment or a big uniform buffer.
func (b *rgen) readOnly(k string, s uint32) {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	if k == "big-uniform" {
		ub := b.buffer("constants", uint64(65536*(1+b.rng.IntN(3))+16*b.rng.IntN(64)), vk.BufferUsageUniformBuffer)
		b.cmd("constants.write", b.storageWrite(ub))
		b.cmd("constants.draw", planner.Access{Resource: ub, Stages: fs, Access: vk.AccessUniformRead}, colorWrite(out))
		b.toSink("constants.read", planner.Access{Resource: ub, Stages: cs, Access: vk.AccessUniformRead}, sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
		return
	}
	fb := b.image("feedback", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	b.cmd("feedback.draw", colorWrite(fb))
	b.cmd("feedback.read", planner.Access{Resource: fb, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead, Layout: vk.LayoutColorAttachmentOptimal},
		colorWrite(out))
	b.toSink("feedback.sample", sampled(fb, cs, vk.LayoutShaderReadOnlyOptimal), sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
}

// storageFormats writes images of the formats with their own storage
// read arrays in the replay's EXTRA shaders, then reads them as storage.
func (b *rgen) storageFormats(s uint32) {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	fmts := []vk.Format{vk.FormatR32G32Sfloat, vk.FormatR32G32B32A32Uint, vk.FormatR16G16B16A16Unorm, vk.FormatA2B10G10R10UnormPack32, vk.FormatR8G8Unorm}
	var w, rc, rf []planner.Access
	for i, f := range fmts {
		img := b.image(f.String(), planner.ImageDesc{Format: f, Width: s, Height: s, ArrayLayers: uint32(1 + i%2), Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		w = append(w, b.storageWrite(img))
		st := cs
		if i%2 == 1 {
			st = fs
		}
		a := planner.Access{Resource: img, Stages: st, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}
		if st == cs {
			rc = append(rc, a)
		} else {
			rf = append(rf, a)
		}
	}
	b.cmd("formats.write", w...)
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	b.cmd("formats.fragment-read", append(rf, colorWrite(out))...)
	b.toSink("formats.compute-read", append(rc, sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))...)
}
