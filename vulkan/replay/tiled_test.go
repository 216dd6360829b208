package replay

import (
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// tiledFrame holds the transfers that issue 23's first replay refused:
// ranged copies and resolves between different extents, ranged transfers
// of 3D images (3D -> 3D of another extent, 3D -> buffer -> 3D), and
// copies between a 2D array and a 3D image of different extents (ranged
// both ways, and whole images). Every destination is read afterwards, so
// the digests see what the tiled regions wrote.
func tiledFrame() *p.Graph {
	g := &p.Graph{}
	all := vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
	img := func(name string, w, h, d, mips, layers uint32) p.ResourceID {
		return g.AddImage(name, p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: w, Height: h, Depth: d, MipLevels: mips, ArrayLayers: layers, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: all})
	}
	a := img("a", 32, 32, 1, 3, 2)     // 2D array, 3 mips
	b := img("b", 24, 40, 1, 2, 3)     // 2D array of other extents
	vol := img("vol", 16, 16, 4, 2, 1) // 3D, 2 mips
	vol2 := img("vol2", 8, 12, 8, 1, 1)
	flat := img("flat", 20, 20, 1, 1, 6)
	ms := g.AddImage("ms", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 4,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc})
	res := g.AddImage("res", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 48, Height: 20, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst})
	buf := g.AddBuffer("buf", p.BufferDesc{Size: 8 * 8 * 2 * 4, Usage: vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst})
	write := func(id p.ResourceID) p.Access {
		return p.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	read := func(id p.ResourceID) p.Access {
		return p.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
	}
	src := func(id p.ResourceID, st vk.Stage) p.Access {
		return p.Access{Resource: id, Stages: st, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}
	}
	dst := func(id p.ResourceID, st vk.Stage) p.Access {
		return p.Access{Resource: id, Stages: st, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}
	}
	g.AddCommand("fill", write(a), write(vol).WithMips(0, 1))
	g.AddCommand("fill.vol1", write(vol).WithMips(1, 1)) // one 3D storage slot per command
	g.AddCommand("draw", p.Access{Resource: ms, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	// Ranged copies between different extents: a's mip 1 (16x16, layer
	// 1) tiled over b's mip 0 (24x40, layers 0-2); a's mip 0 read in its
	// corner into b's mip 1 (12x20, layer 2).
	g.AddCommand("copy.up", src(a, vk.StageCopy).WithMips(1, 1).WithLayers(1, 1), dst(b, vk.StageCopy).WithMips(0, 1))
	g.AddCommand("copy.down", src(a, vk.StageCopy).WithMips(0, 1).WithLayers(0, 1), dst(b, vk.StageCopy).WithMips(1, 1).WithLayers(2, 1))
	g.AddCommand("copy.rest", src(a, vk.StageCopy).WithMips(2, 1), dst(b, vk.StageCopy).WithMips(1, 1).WithLayers(0, 2))
	// A ranged resolve between different extents: ms layer 1 (32x32)
	// tiled over res layer 0 (48x20); layer 0 over res layer 1.
	g.AddCommand("resolve", src(ms, vk.StageResolve), dst(res, vk.StageResolve).WithLayers(0, 2))
	// 3D ranges: vol's mip 0 (16x16x4) tiled over vol2 (8x12x8); vol's
	// mip 1 (8x8x2) out to a buffer and, below, back into that mip.
	g.AddCommand("vol.copy", src(vol, vk.StageCopy).WithMips(0, 1), dst(vol2, vk.StageCopy))
	// A blit of layer 0 of a 2D level over the whole volume (scaled in
	// x, y and depth; the one 2D <-> 3D blit Vulkan allows).
	g.AddCommand("blit.to3d", src(a, vk.StageBlit).WithMips(0, 1).WithLayers(0, 1), dst(vol2, vk.StageBlit))
	g.AddCommand("vol.tobuf", src(vol, vk.StageCopy).WithMips(1, 1), p.Access{Resource: buf, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
	// 2D <-> 3D of different extents: vol's mip 1 (8x8, 2 slices) tiled
	// over flat's 6 layers (20x20), ranged; then the buffer back into
	// vol's mip 1, and b's mip 1 (12x20, 3 layers) over vol's mip 0
	// (16x16x4), ranged on both sides.
	g.AddCommand("vol.to2d", src(vol, vk.StageCopy).WithMips(1, 1), dst(flat, vk.StageCopy).WithLayers(0, 6))
	g.AddCommand("vol.frombuf", p.Access{Resource: buf, Stages: vk.StageCopy, Access: vk.AccessTransferRead}, dst(vol, vk.StageCopy).WithMips(1, 1))
	g.AddCommand("b.to3d", src(b, vk.StageCopy).WithMips(1, 1), dst(vol, vk.StageCopy).WithMips(0, 1))
	g.AddCommand("read", read(b), read(vol), read(flat), read(res)) // vol: 2 sampled 3D slots
	g.AddCommand("read.vol2", read(vol2))
	// Whole images, 2D <-> 3D of different extents: flat (20x20, 6
	// layers) over vol2 (8x12x8), then vol2 into flat.
	g.AddCommand("whole.to3d", src(flat, vk.StageCopy), dst(vol2, vk.StageCopy))
	g.AddCommand("whole.to2d", src(vol2, vk.StageCopy), dst(flat, vk.StageCopy))
	g.AddCommand("read2", read(vol2), read(flat))
	return g
}

// TestTiledTransfers replays tiledFrame aliased and unaliased on the
// device: zero validation messages (the layer checks every region's
// bounds and layer counts), digests equal. On the base commit New refused
// it ("equal extents", "3D images").
func TestTiledTransfers(t *testing.T) {
	g := tiledFrame()
	if _, err := p.Compile(g); err != nil {
		t.Fatal(err)
	}
	rep := compare(t, sharedDevice(t), g, 1)
	if !rep.DigestsEqual {
		t.Errorf("digests differ")
	}
}

// TestTiledTransferCover: every destination texel of each tiled transfer
// of tiledFrame is written exactly once (the regions tile the destination
// range, none outside it), and each region lies inside both images.
func TestTiledTransferCover(t *testing.T) {
	g := tiledFrame()
	n := 0
	for c := range g.Commands {
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			t.Fatalf("%s: %v", g.Commands[c].Name, err)
		}
		for _, op := range w.copies {
			if g.Resources[op.src].Kind != p.KindImage || g.Resources[op.dst].Kind != p.KindImage {
				continue
			}
			n++
			src, dst := tsideOf(g, op.src, op.srcSpan), tsideOf(g, op.dst, op.dstSpan)
			check := coverCheck
			if op.blit {
				check = blitCoverCheck
			}
			if why := check(src, dst, tiles(src, dst, op.blit)); why != "" {
				t.Errorf("%s: %s", g.Commands[c].Name, why)
			}
		}
	}
	if n < 8 {
		t.Errorf("%d image transfers, want at least 8", n)
	}
}

// coverCheck says what is wrong with ts as a tiling of dst from src.
func coverCheck(src, dst tside, ts []tile) string {
	type key struct{ level, x, y, z uint32 }
	seen := map[key]int{}
	var b strings.Builder
	for _, t := range ts {
		if t.slevel < src.mip0 || t.slevel >= src.mip0+src.mips || t.dlevel < dst.mip0 || t.dlevel >= dst.mip0+dst.mips {
			return "a region outside the ranges' levels"
		}
		se, de := src.ext(t.slevel-src.mip0), dst.ext(t.dlevel-dst.mip0)
		if t.ext.Width > se.Width || t.ext.Height > se.Height || t.ext.Depth > se.Depth ||
			uint32(t.off.X)+t.ext.Width > de.Width || uint32(t.off.Y)+t.ext.Height > de.Height || uint32(t.off.Z)+t.ext.Depth > de.Depth {
			return "a region outside an image"
		}
		for z := uint32(0); z < t.ext.Depth; z++ {
			for y := uint32(0); y < t.ext.Height; y++ {
				for x := uint32(0); x < t.ext.Width; x++ {
					seen[key{t.dlevel, uint32(t.off.X) + x, uint32(t.off.Y) + y, uint32(t.off.Z) + z}]++
				}
			}
		}
	}
	for i := uint32(0); i < dst.mips; i++ {
		de := dst.ext(i)
		for z := uint32(0); z < de.Depth; z++ {
			for y := uint32(0); y < de.Height; y++ {
				for x := uint32(0); x < de.Width; x++ {
					if k := seen[key{dst.mip0 + i, x, y, z}]; k != 1 {
						b.WriteString("texel written " + string(rune('0'+min(k, 9))) + " times; ")
						return b.String()
					}
				}
			}
		}
	}
	return ""
}

// blitCoverCheck says what is wrong with ts as blit regions of dst from
// src: each destination level whole in x and y, its depth (a 2D range's
// layers) split among the regions once each.
func blitCoverCheck(src, dst tside, ts []tile) string {
	seen := map[[2]uint32]int{}
	for _, t := range ts {
		if t.slevel < src.mip0 || t.slevel >= src.mip0+src.mips || t.dlevel < dst.mip0 || t.dlevel >= dst.mip0+dst.mips {
			return "a region outside the ranges' levels"
		}
		if t.sext != mipExtent(src.im, t.slevel) || t.dext != mipExtent(dst.im, t.dlevel) {
			return "a blit region that does not take both levels whole"
		}
		for z := uint32(0); z < t.ext.Depth; z++ {
			seen[[2]uint32{t.dlevel, uint32(t.off.Z) + z}]++
		}
	}
	for i := uint32(0); i < dst.mips; i++ {
		for z := uint32(0); z < dst.ext(i).Depth; z++ {
			if seen[[2]uint32{dst.mip0 + i, z}] != 1 {
				return "a destination layer or slice blitted other than once"
			}
		}
	}
	return ""
}
