package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/vk"
)

// MipRange is a range of mip levels: [Base, Base+Count). Count 0 means
// every level from Base on (VK_REMAINING_MIP_LEVELS), so the zero value is
// every level.
type MipRange struct {
	Base, Count uint8
}

// LayerRange is a range of array layers: [Base, Base+Count). Count 0 means
// every layer from Base on (VK_REMAINING_ARRAY_LAYERS), so the zero value
// is every layer.
type LayerRange struct {
	Base, Count uint16
}

// Out-of-range arguments to WithMips and WithLayers are stored as these
// markers, which no image can hold, so that Validate reports them instead
// of a silently truncated range.
var (
	badMip   = MipRange{Base: 0xff, Count: 0xff}
	badLayer = LayerRange{Base: 0xffff, Count: 0xffff}
)

// Rules of subresource ranges (with the others in errors.go).
const (
	RuleSubresourceRange Rule = "subresource-range" // an access's mips or layers outside its image, or a range on a buffer
	RuleAspects          Rule = "aspects"           // an access names an aspect its image's format does not have
)

// WithMips returns a with its mip range set to [base, base+count). count 0
// means every level from base on.
func (a Access) WithMips(base, count int) Access {
	if base < 0 || count < 0 || base > 0xfe || count > 0xfe {
		a.Mips = badMip
	} else {
		a.Mips = MipRange{Base: uint8(base), Count: uint8(count)}
	}
	return a
}

// WithLayers returns a with its array-layer range set to [base,
// base+count). count 0 means every layer from base on.
func (a Access) WithLayers(base, count int) Access {
	if base < 0 || count < 0 || base > 0xfffe || count > 0xfffe {
		a.Layers = badLayer
	} else {
		a.Layers = LayerRange{Base: uint16(base), Count: uint16(count)}
	}
	return a
}

// WithAspects returns a with its aspects set (0: every aspect of the
// image's format).
func (a Access) WithAspects(aspects vk.Aspect) Access {
	a.Aspects = aspects
	return a
}

// HasRange reports whether a names a subresource range at all (any of
// Mips, Layers, Aspects set). A range may still cover the whole image.
func (a *Access) HasRange() bool {
	return a.Mips != (MipRange{}) || a.Layers != (LayerRange{}) || a.Aspects != 0
}

// span is a resolved subresource range: mips [mip0, mip1), layers
// [layer0, layer1), aspect bits. Validate has checked it lies inside the
// image.
type span struct {
	mip0, mip1     uint32
	layer0, layer1 uint32
	aspects        vk.Aspect
}

// resolve turns an access's range into a span of image im.
func resolve(a *Access, im *ImageDesc) span {
	s := span{mip0: uint32(a.Mips.Base), layer0: uint32(a.Layers.Base), aspects: a.Aspects}
	s.mip1 = im.MipLevels
	if a.Mips.Count != 0 {
		s.mip1 = s.mip0 + uint32(a.Mips.Count)
	}
	s.layer1 = im.ArrayLayers
	if a.Layers.Count != 0 {
		s.layer1 = s.layer0 + uint32(a.Layers.Count)
	}
	if s.aspects == 0 {
		s.aspects = im.Format.Aspects()
	}
	return s
}

// wholeSpan is the span of every subresource of im.
func wholeSpan(im *ImageDesc) span {
	return span{mip1: im.MipLevels, layer1: im.ArrayLayers, aspects: im.Format.Aspects()}
}

func (s span) intersects(t span) bool {
	return s.mip0 < t.mip1 && t.mip0 < s.mip1 && s.layer0 < t.layer1 && t.layer0 < s.layer1 && s.aspects&t.aspects != 0
}

// String writes a span as the file does: mips [base, count], layers
// [base, count], aspects.
func (s span) String() string {
	return fmt.Sprintf("mips [%d, %d] layers [%d, %d] aspects %s", s.mip0, s.mip1-s.mip0, s.layer0, s.layer1-s.layer0, s.aspects)
}

// partial reports whether access a names less than the whole image of
// resource r (the fast path is an access with no range at all).
func partial(a *Access, r *Resource) bool {
	if !a.HasRange() || r.Kind != KindImage {
		return false
	}
	return resolve(a, &r.Image) != wholeSpan(&r.Image)
}

// validateRange checks an access's subresource range against its
// resource: none on a buffer, mips and layers inside the image, aspects
// the format has. It is Validate's one call for ranges.
func validateRange(cmd *Command, ai int, res *Resource) error {
	a := &cmd.Accesses[ai]
	if !a.HasRange() {
		return nil
	}
	fail := func(rule Rule, format string, args ...any) error {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if res.Kind != KindImage {
		return fail(RuleSubresourceRange, "a buffer access has no subresource range (mips, layers or aspects)")
	}
	im := &res.Image
	if m := a.Mips; m == badMip || uint32(m.Base) >= im.MipLevels || uint32(m.Base)+uint32(m.Count) > im.MipLevels {
		return fail(RuleSubresourceRange, "mips [%d, %d] are not inside the image's %d mip levels", m.Base, m.Count, im.MipLevels)
	}
	if l := a.Layers; l == badLayer || uint32(l.Base) >= im.ArrayLayers || uint32(l.Base)+uint32(l.Count) > im.ArrayLayers {
		return fail(RuleSubresourceRange, "layers [%d, %d] are not inside the image's %d array layers", l.Base, l.Count, im.ArrayLayers)
	}
	if has := im.Format.Aspects(); a.Aspects&^has != 0 {
		return fail(RuleAspects, "aspects %s: format %s has only %s", a.Aspects, im.Format, has)
	}
	return nil
}

// sameSubresource reports whether two accesses of image res touch a
// common subresource. Both ranges have been validated.
func sameSubresource(a, b *Access, res *Resource) bool {
	if !a.HasRange() && !b.HasRange() {
		return true
	}
	return resolve(a, &res.Image).intersects(resolve(b, &res.Image))
}

// twoLayoutsWhere names the subresources two accesses share, for the
// two-layouts error; "" when neither names a range (the message stays as
// it was before ranges).
func twoLayoutsWhere(a, b *Access, res *Resource) string {
	if !a.HasRange() && !b.HasRange() {
		return ""
	}
	s, t := resolve(a, &res.Image), resolve(b, &res.Image)
	i := span{mip0: max(s.mip0, t.mip0), mip1: min(s.mip1, t.mip1), layer0: max(s.layer0, t.layer0), layer1: min(s.layer1, t.layer1), aspects: s.aspects & t.aspects}
	return " on " + i.String()
}

// RuleRangesUnsupported: a graph with subresource ranges (less than a
// whole image) reached Place, but barriers.Build and verify.Plan do not yet
// serve ranges: no plan is made rather than one with whole-image barriers.
const RuleRangesUnsupported Rule = "ranges-unsupported-in-barriers"

// rangesServed reports a graph with a partial subresource range: until the
// barriers serve ranges, Place plans none.
func (c *Compiled) rangesServed() error {
	g := c.Graph
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		for ai := range cmd.Accesses {
			a := &cmd.Accesses[ai]
			if a.HasRange() && partial(a, &g.Resources[a.Resource]) {
				return &GraphError{Command: cmd.Name, Access: ai, Resource: g.Resources[a.Resource].Name, Rule: RuleRangesUnsupported,
					Detail: "subresource ranges are compiled, but barriers and verify do not serve them yet: no plan is made"}
			}
		}
	}
	return nil
}
