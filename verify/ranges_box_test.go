package verify_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// TestRangesShortcutsAgree: the ranged checks' shortcuts (a barrier's
// cells found from its box of the cell grid, ranges_box.go) report exactly
// what the per-cell comparison reports, on random ranged plans and on
// those plans tampered with: every barrier of a ranged image removed,
// narrowed, shifted, widened to the whole image or cut inside a cell.
func TestRangesShortcutsAgree(t *testing.T) {
	errs := func(c *planner.Compiled, p *planner.Plan, byCell bool) string {
		*verify.RangesByCell = byCell
		defer func() { *verify.RangesByCell = false }()
		return fmt.Sprint(verify.All(c, p, 50))
	}
	compared, rejected := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		g := proptest.RangedGraph(seed, 16)
		c, err := planner.Compile(g)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := barriers.Build(c, p); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		check := func(what string, q *planner.Plan) {
			compared++
			fast, slow := errs(c, q, false), errs(c, q, true)
			if fast != slow {
				t.Errorf("seed %d, %s: the shortcuts report %s, the per-cell checks %s", seed, what, fast, slow)
			}
			if fast != "[]" {
				rejected++
			}
		}
		check("as planned", p)
		for k, x := range p.Barriers {
			if x.Type != planner.ImageBarrier || !c.Ranged(x.Resource) {
				continue
			}
			q := *p
			q.Barriers = slices.Delete(slices.Clone(p.Barriers), k, k+1)
			check(fmt.Sprintf("barrier %d removed", k), &q)
			im := &g.Resources[x.Resource].Image
			br := planner.BarrierRange(&x, im)
			for name, change := range map[string]func(y *planner.Barrier){
				"narrowed": func(y *planner.Barrier) {
					y.Mips, y.Layers = br.Mips, br.Layers
					y.Mips.Count = max(1, br.Mips.Count-1)
				},
				"shifted": func(y *planner.Barrier) { y.Mips = planner.MipRange{Base: br.Mips.Base + 1, Count: br.Mips.Count} },
				"whole":   func(y *planner.Barrier) { y.Mips, y.Layers, y.Aspects = planner.MipRange{}, planner.LayerRange{}, 0 },
				"one mip": func(y *planner.Barrier) { y.Mips = planner.MipRange{Base: br.Mips.Base, Count: 1} },
				"one layer": func(y *planner.Barrier) {
					y.Layers = planner.LayerRange{Base: br.Layers.Base + br.Layers.Count - 1, Count: 1}
				},
			} {
				q := *p
				q.Barriers = slices.Clone(p.Barriers)
				change(&q.Barriers[k])
				check(fmt.Sprintf("barrier %d %s", k, name), &q)
			}
		}
	}
	if compared < 500 || rejected < 200 {
		t.Errorf("only %d plans compared, %d rejected: the test reaches too few ranged barriers", compared, rejected)
	}
	t.Logf("%d plans compared, %d rejected", compared, rejected)
}
