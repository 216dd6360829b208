package planner

import (
	"math/bits"

	"github.com/aliasplan/aliasplan/vk"
)

// ValidateSizes is Validate for a graph g that has the same structure
// (SameStructure) as a graph that passed Validate: a renderer's next
// frame under dynamic resolution. It checks only the rules a size can
// break — a buffer's size, an image's extent against its mip levels,
// array layers and samples, explicit requirements — and, when one of
// them is broken, returns exactly what Validate(g) returns (it runs it).
// Every other rule of Validate reads only fields that SameStructure
// compares (names, kinds, formats, usages, layouts, mip and layer counts,
// samples, tiling, memory, queues, accesses), so it holds for g because
// it held for the graph that passed. The device's limits are Place's
// (and Resize's) business, as for Validate.
//
// For a graph not known to be alike to a valid one, call Validate:
// ValidateSizes alone would let broken structure through. O(R), no
// allocation when g is valid.
func ValidateSizes(g *Graph) error {
	if g == nil {
		return Validate(g)
	}
	for i := range g.Resources {
		if !sizesValid(&g.Resources[i]) {
			return Validate(g)
		}
	}
	return nil
}

// sizesValid reports whether r meets every rule of validateResource that
// reads a size (Buffer.Size, Image.Width/Height/Depth, Requirements),
// given that r meets the others. It may be stricter than Validate (the
// caller then runs Validate), never laxer.
func sizesValid(r *Resource) bool {
	switch r.Kind {
	case KindBuffer:
		if r.Buffer.Size == 0 {
			return false
		}
	case KindImage:
		im := &r.Image
		if im.Width == 0 || im.Height == 0 || im.Depth == 0 {
			return false
		}
		if im.MipLevels > uint32(bits.Len32(max(im.Width, im.Height, im.Depth))) {
			return false
		}
		// The image type rules read the depth: a 3D image has one layer,
		// a multisampled one is 2D.
		if im.Depth > 1 && (im.ArrayLayers > 1 || im.Samples > 1) {
			return false
		}
	default:
		return false
	}
	q := r.Requirements
	if q == nil {
		return true
	}
	if q.Size == 0 || !isPow2(q.Alignment) || q.MemoryTypeBits == 0 {
		return false
	}
	switch r.Kind {
	case KindBuffer:
		return q.Size >= r.Buffer.Size
	default:
		least, err := ImageBytes(&r.Image)
		if err != nil {
			return false
		}
		if r.Image.Format == vk.FormatD32SfloatS8Uint {
			least = least / 8 * 5
		}
		return q.Size >= least
	}
}
