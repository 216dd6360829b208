package proptest

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Replay kinds of issue 21's transfer round (vulkan/replay: standin.go,
// blocks.go): lone copy sides that need a stand-in image, resolves into
// 3D images, block-compressed images in transfers.
func (b *rgen) standIns(k string, s uint32) {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	rd, wr := vk.AccessTransferRead, vk.AccessTransferWrite
	src, dst := vk.LayoutTransferSrcOptimal, vk.LayoutTransferDstOptimal
	if k == "block-compressed" {
		// Extents of whole blocks at every level (2s by s, 2 mips; 3s by
		// 2s), the first tiled over the second; partial edge blocks below.
		f := []vk.Format{vk.FormatBc1RgbaUnormBlock, vk.FormatBc7UnormBlock}[b.rng.IntN(2)]
		bcUsage := vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
		a := b.image("bc", planner.ImageDesc{Format: f, Width: 2 * s, Height: s, MipLevels: 2, ArrayLayers: 2, Usage: bcUsage})
		big := b.image("bc-tiled", planner.ImageDesc{Format: f, Width: 3 * s, Height: 2 * s, Usage: bcUsage})
		b.cmd("bc.upload", copyAccess(a, vk.StageCopy, wr, dst))
		b.cmd("bc.self", copyAccess(a, vk.StageCopy, rd|wr, vk.LayoutGeneral))
		b.cmd("bc.tile", copyAccess(a, vk.StageCopy, rd, src), copyAccess(big, vk.StageCopy, wr, dst))
		b.toSink("bc.read", sampled(a, cs, vk.LayoutShaderReadOnlyOptimal), sampled(big, cs, vk.LayoutShaderReadOnlyOptimal))
		b.cmd("bc.download", copyAccess(big, vk.StageCopy, rd, src))
		// Blocks written by compute as texels of the block's size, copied
		// into a compressed image (one texel per block).
		raw := vk.FormatR32G32Uint
		if f == vk.FormatBc7UnormBlock {
			raw = vk.FormatR32G32B32A32Uint
		}
		enc := b.image("encoded", planner.ImageDesc{Format: raw, Width: s / 2, Height: s / 4, Usage: vk.ImageUsageStorage | vk.ImageUsageTransferSrc})
		e := b.image("bc-encoded", planner.ImageDesc{Format: f, Width: 2 * s, Height: s, Usage: bcUsage})
		b.cmd("bc.encode-write", b.storageWrite(enc))
		b.cmd("bc.encode", copyAccess(enc, vk.StageCopy, rd, src), copyAccess(e, vk.StageCopy, wr, dst))
		b.toSink("bc.encoded-read", sampled(e, cs, vk.LayoutShaderReadOnlyOptimal))
		// Partial edge blocks (issue 21, session 13): a (2s-2) by (s-1)
		// image, 2 mips (the last block column 2 texels wide, the last row
		// 3 high), written from compute texels (one per block, through
		// the replay's buffer at the edges), tiled in blocks over a larger
		// image with the same partial edges, and copied out into texels.
		// The compressed images with partial edge blocks are Dedicated
		// (never aliased): layer 1.3.239's memory model of a
		// block-compressed image stops short of its partial edge blocks,
		// so on an aliased one it reports hazards the alias barrier rules
		// out by the spec (vulkan/replay TestAliasedEdgeBlocksLayer,
		// docs/replay.md).
		pw, ph := 2*s-2, s-1
		edge := b.image("bc-edge", planner.ImageDesc{Format: f, Width: pw, Height: ph, MipLevels: 2, Usage: bcUsage})
		edge2 := b.image("bc-edge-tiled", planner.ImageDesc{Format: f, Width: pw + 8, Height: ph + 4, Usage: bcUsage})
		b.g.Resources[edge].Dedicated, b.g.Resources[edge2].Dedicated = true, true
		encE := b.image("encoded-edge", planner.ImageDesc{Format: raw, Width: (pw + 3) / 4, Height: 1, Usage: vk.ImageUsageStorage | vk.ImageUsageTransferSrc})
		dec := b.image("decoded-edge", planner.ImageDesc{Format: raw, Width: s/2 + 1, Height: s/4 + 1, Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst})
		b.cmd("bc.edge-encode-write", b.storageWrite(encE))
		b.cmd("bc.edge-encode", copyAccess(encE, vk.StageCopy, rd, src), copyAccess(edge, vk.StageCopy, wr, dst))
		b.cmd("bc.edge-tile", copyAccess(edge, vk.StageCopy, rd, src), copyAccess(edge2, vk.StageCopy, wr, dst))
		b.cmd("bc.edge-decode", copyAccess(edge, vk.StageCopy, rd, src), copyAccess(dec, vk.StageCopy, wr, dst))
		b.toSink("bc.edge-read", sampled(edge, cs, vk.LayoutShaderReadOnlyOptimal), sampled(edge2, cs, vk.LayoutShaderReadOnlyOptimal), sampled(dec, cs, vk.LayoutShaderReadOnlyOptimal))
		return
	}
	ms := b.image("ms", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Samples: 4,
		Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	vol := b.image("volume", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Depth: 4, Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst})
	blit := b.image("blitted", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s / 2, MipLevels: 2, Usage: colorUsage})
	res := b.image("resolved", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, ArrayLayers: 2, Usage: colorUsage})
	// Lone destinations: a 4× copy, a blit, a resolve (2D and 3D).
	b.cmd("standin.in", copyAccess(ms, vk.StageCopy, wr, dst), copyAccess(blit, vk.StageBlit, wr, dst),
		copyAccess(res, vk.StageResolve, wr, dst), copyAccess(vol, vk.StageResolve, wr, dst))
	b.cmd("standin.fetch", sampled(ms, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(out))
	b.toSink("standin.read", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal), sampled(vol, cs, vk.LayoutShaderReadOnlyOptimal),
		sampled(blit, cs, vk.LayoutShaderReadOnlyOptimal), sampled(res, cs, vk.LayoutShaderReadOnlyOptimal))
	// A resolve into the 3D image, then lone sources: a 4× copy, a blit,
	// a resolve.
	b.cmd("ms.draw", colorWrite(ms))
	b.cmd("ms.to3d", copyAccess(ms, vk.StageResolve, rd, src), copyAccess(vol, vk.StageResolve, wr, dst))
	b.toSink("volume.read", sampled(vol, cs, vk.LayoutShaderReadOnlyOptimal))
	b.cmd("standin.out", copyAccess(ms, vk.StageCopy, rd, src), copyAccess(blit, vk.StageBlit, rd, src))
	b.cmd("ms.resolve-out", copyAccess(ms, vk.StageResolve, rd, src))
}
