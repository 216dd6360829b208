package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// Copies, resolves and blits between images of different extents or
// layer counts. A copy or resolve tiles the source over the destination:
// destination mip level l takes source level min(l, source levels - 1),
// repeated across x, y, z and the layers until the destination is
// covered, so every texel a copy declares writing is written (a
// transient's later readers see defined contents) and every source texel
// of the region the two share is read; a larger source is read in its
// corner. A blit scales: each destination level takes the whole of its
// source level (NEAREST), the layers tiled as for a copy. A 2D and a 3D
// image do not tile onto each other (refused naming that), nor do
// block-compressed formats, and a tiling of more than maxTiles regions
// (a tiny source under a huge destination) is refused too.

const maxTiles = 1 << 14

func sameExtent(a, b *p.ImageDesc) bool {
	return a.Width == b.Width && a.Height == b.Height && a.Depth == b.Depth && a.ArrayLayers == b.ArrayLayers
}

// tiledCopyProblem says why the images of op cannot be tiled onto each
// other ("" when they can).
func tiledCopyProblem(s, d *p.Resource) string {
	si, di := &s.Image, &d.Image
	if (si.Depth > 1) != (di.Depth > 1) {
		return fmt.Sprintf("copy from %s: a 2D and a 3D image of different extents (%dx%dx%d, %d layers, and %dx%dx%d, %d) do not tile onto each other", s.Name,
			si.Width, si.Height, si.Depth, si.ArrayLayers, di.Width, di.Height, di.Depth, di.ArrayLayers)
	}
	for _, f := range []*p.ImageDesc{si, di} {
		if bw, bh := f.Format.BlockExtent(); bw != 1 || bh != 1 {
			return fmt.Sprintf("copy from %s: format %s is block-compressed: images of different extents tile in texels, not blocks", s.Name, f.Format)
		}
	}
	if n := len(tiles(si, di, false)); n > maxTiles {
		return fmt.Sprintf("copy from %s: tiling it over %s takes %d regions (more than %d)", s.Name, d.Name, n, maxTiles)
	}
	return ""
}

// tile is one region of a tiled copy: source level and layers (from 0),
// destination level, offset and base layer, extent; blit regions take
// the whole of both levels.
type tile struct {
	slevel, dlevel uint32
	layers, dbase  uint32
	off            vkg.Offset3D
	ext            vkg.Extent3D
	sext, dext     vkg.Extent3D
}

func tiles(si, di *p.ImageDesc, blit bool) []tile {
	var out []tile
	for l := uint32(0); l < di.MipLevels; l++ {
		sl := min(l, si.MipLevels-1)
		se, de := mipExtent(si, sl), mipExtent(di, l)
		for j := uint32(0); j < di.ArrayLayers; j += si.ArrayLayers {
			n := min(si.ArrayLayers, di.ArrayLayers-j)
			if blit {
				out = append(out, tile{slevel: sl, dlevel: l, layers: n, dbase: j, sext: se, dext: de})
				continue
			}
			for z := uint32(0); z < de.Depth; z += se.Depth {
				for y := uint32(0); y < de.Height; y += se.Height {
					for x := uint32(0); x < de.Width; x += se.Width {
						out = append(out, tile{slevel: sl, dlevel: l, layers: n, dbase: j,
							off: vkg.Offset3D{X: int32(x), Y: int32(y), Z: int32(z)},
							ext: vkg.Extent3D{Width: min(se.Width, de.Width-x), Height: min(se.Height, de.Height-y), Depth: min(se.Depth, de.Depth-z)}})
						if len(out) > maxTiles {
							return out
						}
					}
				}
			}
		}
	}
	return out
}

// recordTiled records op between images of different extents or layers.
func (m *mode) recordTiled(cb vkg.CommandBuffer, op copyOp) {
	g := m.r.g
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	_, si := m.handle(op.src)
	_, di := m.handle(op.dst)
	asp := vkg.ImageAspectFlags(colorOrDepth(s.Image.Format))
	sl, dl := vkg.ImageLayout(op.srcLayout), vkg.ImageLayout(op.dstLyot)
	ts := tiles(&s.Image, &d.Image, op.blit)
	sub := func(level, base, n uint32) vkg.ImageSubresourceLayers {
		return vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: level, BaseArrayLayer: base, LayerCount: n}
	}
	switch {
	case op.blit:
		var regions []vkg.ImageBlit
		for _, t := range ts {
			regions = append(regions, vkg.ImageBlit{
				SrcSubresource: sub(t.slevel, 0, t.layers), DstSubresource: sub(t.dlevel, t.dbase, t.layers),
				SrcOffsets: [2]vkg.Offset3D{{}, {X: int32(t.sext.Width), Y: int32(t.sext.Height), Z: int32(t.sext.Depth)}},
				DstOffsets: [2]vkg.Offset3D{{}, {X: int32(t.dext.Width), Y: int32(t.dext.Height), Z: int32(t.dext.Depth)}}})
		}
		vkg.CmdBlitImage(cb, si, sl, di, dl, uint32(len(regions)), regions, vkg.FilterNearest)
	case op.resolve:
		var regions []vkg.ImageResolve
		for _, t := range ts {
			regions = append(regions, vkg.ImageResolve{SrcSubresource: sub(t.slevel, 0, t.layers), DstSubresource: sub(t.dlevel, t.dbase, t.layers),
				DstOffset: t.off, Extent: t.ext})
		}
		vkg.CmdResolveImage(cb, si, sl, di, dl, uint32(len(regions)), regions)
	default:
		var regions []vkg.ImageCopy
		for _, t := range ts {
			regions = append(regions, vkg.ImageCopy{SrcSubresource: sub(t.slevel, 0, t.layers), DstSubresource: sub(t.dlevel, t.dbase, t.layers),
				DstOffset: t.off, Extent: t.ext})
		}
		vkg.CmdCopyImage(cb, si, sl, di, dl, uint32(len(regions)), regions)
	}
}
