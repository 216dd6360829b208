package proptest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
)

// tamperRanged plans g and returns, per barrier on a ranged image, what
// verify.Plan says of the plan with that barrier removed and with its
// range narrowed by one mip, one layer or one aspect ("" when verify
// accepts the tampered plan).
func tamperRanged(t *testing.T, name string, g *planner.Graph) (tampered, caught int) {
	t.Helper()
	pl := aliasplan.New(aliasplan.Options{})
	c, p, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	check := func(what string, q *planner.Plan) {
		tampered++
		if err := verify.Plan(c, q); err != nil {
			caught++
		} else {
			t.Errorf("%s: verify.Plan accepts the plan with %s", name, what)
		}
	}
	for k := range p.Barriers {
		x := p.Barriers[k]
		if x.Type != planner.ImageBarrier || !c.Ranged(x.Resource) {
			continue
		}
		q := *p
		q.Barriers = slices.Delete(slices.Clone(p.Barriers), k, k+1)
		check(fmt.Sprintf("barrier %d removed", k), &q)
		im := &g.Resources[x.Resource].Image
		br := planner.BarrierRange(&x, im)
		for _, narrow := range []func(y *planner.Barrier) bool{
			func(y *planner.Barrier) bool {
				if br.Mips.Count < 2 {
					return false
				}
				y.Mips, y.Layers, y.Aspects = br.Mips, br.Layers, br.Aspects
				y.Mips.Count--
				return true
			},
			func(y *planner.Barrier) bool {
				if br.Layers.Count < 2 {
					return false
				}
				y.Mips, y.Layers, y.Aspects = br.Mips, br.Layers, br.Aspects
				y.Layers.Base++
				y.Layers.Count--
				return true
			},
			func(y *planner.Barrier) bool {
				if br.Aspects&(br.Aspects-1) == 0 {
					return false
				}
				y.Mips, y.Layers, y.Aspects = br.Mips, br.Layers, br.Aspects&(br.Aspects-1)
				return true
			},
		} {
			q := *p
			q.Barriers = slices.Clone(p.Barriers)
			if narrow(&q.Barriers[k]) {
				check(fmt.Sprintf("barrier %d narrowed to mips %v layers %v aspects %s", k, q.Barriers[k].Mips, q.Barriers[k].Layers, q.Barriers[k].Aspects), &q)
			}
		}
	}
	return tampered, caught
}

// TestRangedTamper: removing any barrier of a ranged image, or narrowing
// its range by one mip, layer or aspect, makes verify.Plan reject the
// plan: the range frames and random ranged graphs.
func TestRangedTamper(t *testing.T) {
	total := 0
	for _, f := range RangeFrames(false) {
		n, _ := tamperRanged(t, f.Name, f.Graph)
		total += n
	}
	for seed := uint64(1); seed <= 40; seed++ {
		n, _ := tamperRanged(t, fmt.Sprintf("ranged seed %d", seed), RangedGraph(seed, 16))
		total += n
	}
	if total < 100 {
		t.Errorf("only %d tampered plans: the test reaches too few range barriers", total)
	}
	t.Logf("%d tampered plans, all rejected", total)
}

// TestWholeImageBarrierNarrowed: a range on a barrier of an image that no
// access names part of (the per-resource checks take its barriers for the
// whole image) is rejected when it is less than the whole image.
func TestWholeImageBarrierNarrowed(t *testing.T) {
	for _, f := range RangeFrames(true) { // the GENERAL twins: whole-image accesses
		pl := aliasplan.New(aliasplan.Options{})
		c, p, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *f.Graph})
		if err != nil {
			t.Fatal(err)
		}
		for k := range p.Barriers {
			x := &p.Barriers[k]
			if x.Type != planner.ImageBarrier || f.Graph.Resources[x.Resource].Image.MipLevels < 2 {
				continue
			}
			q := *p
			q.Barriers = slices.Clone(p.Barriers)
			q.Barriers[k].Mips = planner.MipRange{Base: 0, Count: 1}
			if err := verify.Plan(c, &q); err == nil {
				t.Errorf("%s: barrier %d narrowed to mip 0 is accepted", f.Name, k)
			}
		}
	}
}
