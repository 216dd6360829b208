package replay

import (
	p "github.com/aliasplan/aliasplan/planner"
)

// Per-range replay (issue 23, item 6): an access that names part of an
// image (some mips, layers or aspects) is replayed on exactly that part:
// its shader slots are views of the range (one descriptor per mip level of
// the range, an array view of the range's layers), its attachment passes
// render into the range's subresources only, and its clears clear the
// range. A depth-read-only + stencil-write command declares the depth and
// stencil aspects as two accesses; they are one attachment, each aspect
// in its own layout (separateDepthStencilLayouts, core in Vulkan 1.2).

// span is the part of an image an access names, resolved against the
// image: mips [mip0, mip0+mips), layers [layer0, layer0+layers), aspects
// (Vulkan's bits).
type span struct {
	mip0, mips, layer0, layers uint32
	aspects                    uint32
}

func accessSpan(im *p.ImageDesc, a *p.Access) span {
	mips, layers := max(im.MipLevels, 1), max(im.ArrayLayers, 1)
	s := span{mip0: uint32(a.Mips.Base), mips: uint32(a.Mips.Count), layer0: uint32(a.Layers.Base), layers: uint32(a.Layers.Count),
		aspects: uint32(a.Aspects)}
	if s.mips == 0 {
		s.mips = mips - min(s.mip0, mips)
	}
	if s.layers == 0 {
		s.layers = layers - min(s.layer0, layers)
	}
	if s.aspects == 0 {
		s.aspects = uint32(im.Format.Aspects())
	}
	return s
}

// wholeLayers says whether the span covers every layer of im.
func (s span) wholeLayers(im *p.ImageDesc) bool {
	return s.layer0 == 0 && s.layers == max(im.ArrayLayers, 1)
}

// partial says whether a names part of its image, not all of it.
func partial(g *p.Graph, a *p.Access) bool {
	if !a.HasRange() || int(a.Resource) >= len(g.Resources) || g.Resources[a.Resource].Kind != p.KindImage {
		return false
	}
	im := &g.Resources[a.Resource].Image
	s := accessSpan(im, a)
	return s.mip0 != 0 || s.mips != max(im.MipLevels, 1) || !s.wholeLayers(im) || s.aspects != uint32(im.Format.Aspects())
}

// Ranged copies, blits and resolves are copyrange.go's; ranges of
// imported images importrange.go's (the read-back per subresource).

// sameRange says whether two accesses of one resource name the same
// subresource range (written alike or not: mips 0+0 and 0+MipLevels are one)
// (aggregateAccesses keeps accesses of different ranges apart: one
// command may hold disjoint ranges in different layouts).
func sameRange(g *p.Graph, a, b *p.Access) bool {
	if a.Mips == b.Mips && a.Layers == b.Layers && a.Aspects == b.Aspects {
		return true
	}
	if g.Resources[a.Resource].Kind != p.KindImage {
		return true // a range on a buffer is refused by Validate; never split one
	}
	im := &g.Resources[a.Resource].Image
	return accessSpan(im, a) == accessSpan(im, b)
}

// subresourcesOf lists the (mip level, layer) pairs of span s of an
// attachment image with their extents; a 3D image's depth slices count
// as layers.
func subresourcesOf(im *p.ImageDesc, s span) (out []struct{ level, layer, w, h uint32 }) {
	for l := s.mip0; l < s.mip0+s.mips && l < im.MipLevels; l++ {
		k0, n := s.layer0, s.layers
		if im.Depth > 1 {
			k0, n = 0, max(1, im.Depth>>l)
		}
		for k := k0; k < k0+n; k++ {
			out = append(out, struct{ level, layer, w, h uint32 }{l, k, max(1, im.Width>>l), max(1, im.Height>>l)})
		}
	}
	return out
}

// mergeDepthAspects folds a depth/stencil attachment declared as two
// accesses, one per aspect, of one range into one attachment whose
// stencil aspect has its own layout and modes. It reports whether att
// was merged into an earlier attachment of w.
func mergeDepthAspects(w *work, att attachment) bool {
	for i := range w.depths {
		d := &w.depths[i]
		if d.res != att.res || d.sp.mip0 != att.sp.mip0 || d.sp.mips != att.sp.mips || d.sp.layer0 != att.sp.layer0 || d.sp.layers != att.sp.layers ||
			d.sp.aspects&att.sp.aspects != 0 {
			continue
		}
		dep, sten := *d, att
		if d.noDepth {
			dep, sten = att, *d
		}
		if dep.noDepth || !sten.noDepth {
			continue
		}
		m := dep
		m.stencil, m.split = true, true
		m.sLayout, m.sRead, m.sWrite = sten.layout, sten.read, sten.write
		m.sp.aspects = dep.sp.aspects | sten.sp.aspects
		*d = m
		return true
	}
	return false
}

// stencilMode is the stencil mode of a depth/stencil attachment.
func stencilMode(a attachment) int {
	if a.split || a.noDepth {
		return dsMode(attachment{read: a.sRead, write: a.sWrite})
	}
	return dsMode(a)
}

// subWritten is the image subresources (resource, mip, layer) the frame
// has written so far: a ranged attachment loads only what an earlier
// command wrote, and clears on first use of its range (checkOrder).
type subWritten map[[3]uint32]bool

func (sw subWritten) mark(g *p.Graph, a *p.Access) {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindImage {
		return
	}
	s := accessSpan(&r.Image, a)
	for l := s.mip0; l < s.mip0+s.mips; l++ {
		for k := s.layer0; k < s.layer0+s.layers; k++ {
			sw[[3]uint32{uint32(a.Resource), l, k}] = true
		}
	}
}

// covers says whether every subresource of span s of image id is written.
func (sw subWritten) covers(id p.ResourceID, s span) bool {
	for l := s.mip0; l < s.mip0+s.mips; l++ {
		for k := s.layer0; k < s.layer0+s.layers; k++ {
			if !sw[[3]uint32{uint32(id), l, k}] {
				return false
			}
		}
	}
	return true
}

// keptExtent is the smallest extent Scale may give image id so that the
// mip levels its ranged accesses name still exist: 2^(last named level).
func keptExtent(g *p.Graph, id p.ResourceID) uint32 {
	last := uint32(0)
	for ci := range g.Commands {
		for _, a := range g.Commands[ci].Accesses {
			if a.Resource == id && a.Mips != (p.MipRange{}) {
				end := uint32(a.Mips.Base) + max(uint32(a.Mips.Count), 1)
				if a.Mips.Count == 0 {
					end = g.Resources[id].Image.MipLevels
				}
				last = max(last, end-1)
			}
		}
	}
	return 1 << min(last, 16)
}
