package replay

import (
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	avk "github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Copies, resolves and blits between images of different extents or
// layer counts, whole or ranged (copyrange.go), 2D or 3D. A copy or
// resolve tiles the source over the destination: destination mip level l
// (of its range) takes source level min(l, source levels - 1) (of its
// range), repeated across x, y and depth until the destination is
// covered, so every texel a copy declares writing is written (a
// transient's later readers see defined contents) and every source texel
// of the region the two share is read; a larger source is read in its
// corner. A 2D image's layers are its depth here: a 2D array and a 3D
// image tile onto each other slice for layer (Vulkan copies between 2D
// and 3D images map the 2D side's layers to the 3D side's depth). A blit
// scales: each destination level takes the whole of its source level
// (NEAREST, or LINEAR for a ranged blit where the format filters), the
// layers tiled as for a copy. Refused: block-compressed formats, a tiling
// of more than maxTiles regions (a tiny source under a huge destination),
// a resolve into a 3D image, and a blit between a 3D image and any layer
// of a 2D image but layer 0 alone (Vulkan: a blit that touches a 3D image
// moves layer 0, VUID-vkCmdBlitImage-srcImage-00240).

const maxTiles = 1 << 14

func sameExtent(a, b *p.ImageDesc) bool {
	return a.Width == b.Width && a.Height == b.Height && a.Depth == b.Depth && a.ArrayLayers == b.ArrayLayers
}

// tiledPair says whether a whole-image transfer between a and b is tiled:
// different extents or layers, different mip counts (every destination
// level is written, from source level min(l, levels - 1); since session
// 8, before which more source than destination levels were refused and
// fewer left the destination's other levels unwritten), or another block
// grid (blocks.go).
func tiledPair(a, b *p.ImageDesc) bool {
	return !sameExtent(a, b) || a.MipLevels != b.MipLevels || isMixed(a, b)
}

// tside is one side of a tiled transfer: a range of an image.
type tside struct {
	im             *p.ImageDesc
	mip0, mips     uint32
	layer0, layers uint32
	is3D           bool
}

func tsideOf(g *p.Graph, id p.ResourceID, s span) tside {
	im := &g.Resources[id].Image
	sp := sideSpan(g, id, s) // copyrange.go: the range, or the whole image
	return tside{im: im, mip0: sp.mip0, mips: sp.mips, layer0: sp.layer0, layers: sp.layers, is3D: im.Depth > 1}
}

// ext is the extent of level i of the side's range, a 2D image's layers
// as its depth.
func (s tside) ext(i uint32) vkg.Extent3D {
	e := mipExtent(s.im, s.mip0+i)
	if !s.is3D {
		e.Depth = s.layers
	}
	return e
}

// tiledCopyProblem says why the images of op cannot be tiled onto each
// other ("" when they can).
func tiledCopyProblem(s, d *p.Resource, op *copyOp, src, dst tside) string {
	si := &s.Image
	if why := blockTiledProblem(s, d, op, src, dst); why != "" { // blocks.go
		return why
	}
	if src.is3D != dst.is3D {
		switch {
		case op.resolve && si.Samples > 1 && (src.layer0 != 0 || src.layers > 1):
			return fmt.Sprintf("resolve from %s into the 3D image %s: Vulkan resolves into a 3D image from layer 0 alone (VUID-vkCmdResolveImage-srcImage-04446: srcSubresource.baseArrayLayer 0, layerCount 1), and the source range names other layers", s.Name, d.Name)
		case op.blit && (!src.is3D && (src.layer0 != 0 || src.layers > 1) || !dst.is3D && (dst.layer0 != 0 || dst.layers > 1)):
			return fmt.Sprintf("blit between %s and %s: a blit that touches a 3D image moves layer 0 of the 2D one alone (VUID-vkCmdBlitImage-srcImage-00240), and the range names other layers", s.Name, d.Name)
		}
	}
	if n := len(tiles(src, dst, op.blit)); n > maxTiles {
		return fmt.Sprintf("copy from %s: tiling it over %s takes %d regions (more than %d)", s.Name, d.Name, n, maxTiles)
	}
	return ""
}

// tile is one region of a tiled transfer: source and destination levels
// (absolute), the destination offset and the extent, in x, y and depth
// (a 2D side's layers, from its range's base); sext and dext are the
// levels' own extents (blits take the whole of both).
type tile struct {
	slevel, dlevel uint32
	soff           vkg.Offset3D // the source offset: zero but for block-compressed tiles (blocks.go)
	off            vkg.Offset3D
	ext            vkg.Extent3D
	sext, dext     vkg.Extent3D
}

func tiles(src, dst tside, blit bool) []tile {
	if !blit && isMixed(src.im, dst.im) {
		ts, _ := mixedTiles(src, dst) // blocks.go
		return ts
	}
	if !blit && isBlocked(src.im.Format) && isBlocked(dst.im.Format) {
		ts, _ := blockTiles(src, dst) // blocks.go
		return ts
	}
	var out []tile
	for i := uint32(0); i < dst.mips; i++ {
		si := min(i, src.mips-1)
		se, de := src.ext(si), dst.ext(i)
		t0 := tile{slevel: src.mip0 + si, dlevel: dst.mip0 + i, sext: mipExtent(src.im, src.mip0+si), dext: mipExtent(dst.im, dst.mip0+i)}
		if blit {
			step := se.Depth // 2D: the source's layers at a time
			if src.is3D || dst.is3D {
				step = de.Depth // one region (tiledCopyProblem: one layer of a 2D side)
			}
			for j := uint32(0); j < de.Depth; j += step {
				t := t0
				t.off.Z, t.ext.Depth = int32(j), min(step, de.Depth-j)
				out = append(out, t)
			}
			continue
		}
		for z := uint32(0); z < de.Depth; z += se.Depth {
			for y := uint32(0); y < de.Height; y += se.Height {
				for x := uint32(0); x < de.Width; x += se.Width {
					t := t0
					t.off = vkg.Offset3D{X: int32(x), Y: int32(y), Z: int32(z)}
					t.ext = vkg.Extent3D{Width: min(se.Width, de.Width-x), Height: min(se.Height, de.Height-y), Depth: min(se.Depth, de.Depth-z)}
					out = append(out, t)
					if len(out) > maxTiles {
						return out
					}
				}
			}
		}
	}
	return out
}

// recordTiled records op between images of different extents or layers
// (whole images: ranges of the whole).
func (m *mode) recordTiled(cb vkg.CommandBuffer, op copyOp) {
	g := m.r.g
	m.recordTiles(cb, op, tsideOf(g, op.src, span{}), tsideOf(g, op.dst, span{}), colorOrDepth(g.Resources[op.src].Image.Format), vkg.FilterNearest)
}

// recordTiles records op from side src to side dst, aspects asp, tiled.
func (m *mode) recordTiles(cb vkg.CommandBuffer, op copyOp, src, dst tside, asp uint32, filter vkg.Filter) {
	_, si := m.handle(op.src)
	_, di := m.handle(op.dst)
	sl, dl := vkg.ImageLayout(op.srcLayout), vkg.ImageLayout(op.dstLyot)
	ts := tiles(src, dst, op.blit)
	// A 2D side's depth is layers from its base; a 3D side has one layer.
	sub := func(s tside, level, z, n uint32) vkg.ImageSubresourceLayers {
		if s.is3D {
			return vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(asp), MipLevel: level, LayerCount: 1}
		}
		return vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(asp), MipLevel: level, BaseArrayLayer: s.layer0 + z, LayerCount: n}
	}
	depth := func(t tile) uint32 { // a copy's extent.depth
		if src.is3D || dst.is3D {
			return t.ext.Depth
		}
		return 1
	}
	dstOff := func(t tile) vkg.Offset3D {
		o := t.off
		if !dst.is3D {
			o.Z = 0
		}
		return o
	}
	switch {
	case op.blit:
		var regions []vkg.ImageBlit
		for _, t := range ts {
			n := t.ext.Depth
			if src.is3D || dst.is3D {
				n = 1
			}
			sz, dz := int32(1), int32(1)
			if src.is3D {
				sz = int32(t.sext.Depth)
			}
			if dst.is3D {
				dz = int32(t.dext.Depth)
			}
			regions = append(regions, vkg.ImageBlit{
				SrcSubresource: sub(src, t.slevel, 0, n), DstSubresource: sub(dst, t.dlevel, uint32(t.off.Z), n),
				SrcOffsets: [2]vkg.Offset3D{{}, {X: int32(t.sext.Width), Y: int32(t.sext.Height), Z: sz}},
				DstOffsets: [2]vkg.Offset3D{{}, {X: int32(t.dext.Width), Y: int32(t.dext.Height), Z: dz}}})
		}
		vkg.CmdBlitImage(cb, si, sl, di, dl, uint32(len(regions)), regions, filter)
	case op.resolve:
		var regions []vkg.ImageResolve
		for _, t := range ts {
			if dst.is3D { // slice by slice from layer 0 (tiledCopyProblem), VUID-vkCmdResolveImage-srcImage-04446
				for z := uint32(0); z < t.ext.Depth; z++ {
					o := t.off
					o.Z += int32(z)
					regions = append(regions, vkg.ImageResolve{SrcSubresource: sub(src, t.slevel, 0, 1), DstSubresource: sub(dst, t.dlevel, 0, 1),
						SrcOffset: t.soff, DstOffset: o, Extent: vkg.Extent3D{Width: t.ext.Width, Height: t.ext.Height, Depth: 1}})
				}
				continue
			}
			regions = append(regions, vkg.ImageResolve{SrcSubresource: sub(src, t.slevel, 0, t.ext.Depth), DstSubresource: sub(dst, t.dlevel, uint32(t.off.Z), t.ext.Depth),
				SrcOffset: t.soff, DstOffset: dstOff(t), Extent: vkg.Extent3D{Width: t.ext.Width, Height: t.ext.Height, Depth: 1}})
		}
		m.cmdResolve(cb, si, sl, di, dl, regions, dst.im.Format, dst.is3D) // resolve3d.go
	default:
		var regions []vkg.ImageCopy
		var edges []tile // through the replay's buffer (blocks.go)
		for _, t := range ts {
			if edgeTile(src, dst, t) {
				edges = append(edges, t)
				continue
			}
			regions = append(regions, vkg.ImageCopy{SrcSubresource: sub(src, t.slevel, 0, t.ext.Depth), DstSubresource: sub(dst, t.dlevel, uint32(t.off.Z), t.ext.Depth),
				SrcOffset: t.soff, DstOffset: dstOff(t), Extent: vkg.Extent3D{Width: t.ext.Width, Height: t.ext.Height, Depth: depth(t)}})
		}
		if len(regions) > 0 {
			vkg.CmdCopyImage(cb, si, sl, di, dl, uint32(len(regions)), regions)
		}
		if len(edges) == 0 {
			return
		}
		// Partial edge blocks of an uncompressed-to-compressed copy: the
		// source's texels into the op's region of the replay's buffer,
		// then into the destination's edge blocks (blocks.go, edgeTile).
		var up, down []vkg.BufferImageCopy
		off := op.edge
		for _, t := range edges {
			sd, dd := uint32(1), uint32(1)
			if src.is3D {
				sd = t.ext.Depth
			}
			if dst.is3D {
				dd = t.ext.Depth
			}
			up = append(up, vkg.BufferImageCopy{BufferOffset: vkg.DeviceSize(off), ImageSubresource: sub(src, t.slevel, 0, t.ext.Depth), ImageOffset: t.soff,
				ImageExtent: vkg.Extent3D{Width: t.ext.Width, Height: t.ext.Height, Depth: sd}})
			de := mixedDstExtent(src, dst, t)
			down = append(down, vkg.BufferImageCopy{BufferOffset: vkg.DeviceSize(off), ImageSubresource: sub(dst, t.dlevel, uint32(t.off.Z), t.ext.Depth), ImageOffset: dstOff(t),
				ImageExtent: vkg.Extent3D{Width: de.Width, Height: de.Height, Depth: dd}})
			off += edgeBytes(src, t)
		}
		eb := m.r.edges
		vkg.CmdCopyImageToBuffer(cb, si, sl, eb.buf, uint32(len(up)), up)
		m.r.k.hooks.Barrier(cb, &vkext.Barriers{Buffer: []vkext.BufferBarrier{{Scope: vkext.Scope{SrcStages: uint64(avk.StageCopy), SrcAccess: uint64(avk.AccessTransferWrite),
			DstStages: uint64(avk.StageCopy), DstAccess: uint64(avk.AccessTransferRead)}, Buffer: unsafe.Pointer(eb.buf), Offset: op.edge, Size: off - op.edge}}})
		vkg.CmdCopyBufferToImage(cb, eb.buf, di, dl, uint32(len(down)), down)
	}
}
