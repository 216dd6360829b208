package format

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// writeBarrierRange writes an image barrier's subresource range (SPEC §5:
// mips and layers as [base, count], aspects by name; absent: the whole
// image, or every level, layer or aspect).
func writeBarrierRange(fb *planBarrier, x *planner.Barrier) error {
	if x.Mips != (planner.MipRange{}) {
		fb.Mips = []uint32{uint32(x.Mips.Base), uint32(x.Mips.Count)}
	}
	if x.Layers != (planner.LayerRange{}) {
		fb.Layers = []uint32{uint32(x.Layers.Base), uint32(x.Layers.Count)}
	}
	if x.Aspects != 0 {
		fb.Aspects = x.Aspects.Names()
		if bad, ok := maskFileNames(fb.Aspects); !ok {
			return fmt.Errorf("aspect bit %s has no name", bad)
		}
	}
	return nil
}

// readBarrierRange reads an image barrier's optional range: counts of at
// least 1, inside the image's mips and layers, aspects its format has;
// im nil: the barrier is not an image barrier on an image, and has none.
func readBarrierRange(x *planner.Barrier, fb *planBarrier, im *planner.ImageDesc,
	fail func(field string, rule planner.Rule, format string, args ...any) *planner.GraphError) error {
	if im == nil {
		if fb.Mips != nil || fb.Layers != nil || fb.Aspects != nil {
			return fail(".mips", planner.RuleField, "only image barriers have a subresource range (mips, layers, aspects)")
		}
		return nil
	}
	pair := func(field string, v []uint32, n uint32) (base, count uint32, err error) {
		switch {
		case len(v) != 2:
			return 0, 0, fail("."+field, planner.RuleField, "%s is [base, count], not %d numbers", field, len(v))
		case v[1] == 0 || v[0] >= n || v[1] > n-v[0]:
			return 0, 0, fail("."+field, planner.RuleSubresourceRange, "%s [%d, %d] is not inside the image's %d", field, v[0], v[1], n)
		}
		return v[0], v[1], nil
	}
	if fb.Mips != nil {
		b, n, err := pair("mips", fb.Mips, im.MipLevels)
		if err != nil {
			return err
		}
		x.Mips = planner.MipRange{Base: uint8(b), Count: uint8(n)}
	}
	if fb.Layers != nil {
		b, n, err := pair("layers", fb.Layers, im.ArrayLayers)
		if err != nil {
			return err
		}
		x.Layers = planner.LayerRange{Base: uint16(b), Count: uint16(n)}
	}
	for _, n := range fb.Aspects {
		f, ok := vk.ParseAspect(n)
		if !ok {
			return fail(".aspects", planner.RuleUnknownName, "unknown aspect name %q", n)
		}
		x.Aspects |= f
	}
	if has := im.Format.Aspects(); x.Aspects&^has != 0 {
		return fail(".aspects", planner.RuleAspects, "aspects %s: format %s has only %s", x.Aspects, im.Format, has)
	}
	return nil
}
