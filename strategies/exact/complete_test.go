package exact

import (
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// overlapFree fails t when two interfering items of the component overlap
// in off.
func overlapFree(t *testing.T, p *planner.Problem, m *model, off []uint64, placed []bool) {
	t.Helper()
	for a := range m.orig {
		for b := a + 1; b < len(m.orig); b++ {
			if placed != nil && (!placed[a] || !placed[b]) {
				continue
			}
			pa, pb := int(m.orig[a]), int(m.orig[b])
			if p.Interferes(pa, pb) && off[a] < off[b]+m.size[b] && off[b] < off[a]+m.size[a] {
				t.Fatalf("items %d and %d overlap: [%d,+%d) [%d,+%d)", pa, pb, off[a], m.size[a], off[b], m.size[b])
			}
		}
	}
}

// TestRepairDeepest checks the improvement phase's repair move on
// generated instances of both families: a failed run at the bound leaves
// its deepest node, a partial placement within the capacity; the repair
// completes it without overlaps, keeping the placed items where they
// were, and its peak is the top of its placement.
func TestRepairDeepest(t *testing.T) {
	cases := []struct {
		name string
		p    *planner.Problem
	}{
		{"slack", slackProblem(1, 600, 0.05)},
		{"perfect", perfectProblem(3, 600, 100_000, 1<<22)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			ff, _ := firstfit.New().Place(p)
			repaired := 0
			for _, items := range components(p, nil) {
				if len(items) < repairItems {
					continue
				}
				m := buildModel(p, items, true, nil)
				c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size))}
				for mi, pi := range m.orig {
					c.best[mi] = ff.Offset[pi]
					c.peak = max(c.peak, c.best[mi]+m.size[mi])
				}
				start := c.peak
				C := m.maxLoad
				st := c.s.run(C, int64(len(m.size)/4))
				if st == found {
					t.Skipf("the run fit the bound within its budget: nothing to repair")
				}
				s := c.s
				if s.deep <= 0 || s.deep >= len(m.size) {
					t.Fatalf("deepest node places %d of %d items", s.deep, len(m.size))
				}
				// The deepest node is a partial placement within C.
				n := 0
				for i, ok := range s.deepPlaced {
					if ok {
						n++
						if s.deepOff[i]+m.size[i] > C {
							t.Fatalf("item %d placed at %d ends above C = %d", i, s.deepOff[i], C)
						}
					}
				}
				if n != s.deep {
					t.Fatalf("deepest node: %d placed, recorded %d", n, s.deep)
				}
				overlapFree(t, p, m, s.deepOff, s.deepPlaced)
				better := c.repair()
				if !better {
					// The repair keeps the best placement; check its own.
					c.best = append(c.best[:0], c.rep.off...)
					c.peak = 0
					for i := range c.best {
						c.peak = max(c.peak, c.best[i]+m.size[i])
					}
				}
				repaired++
				overlapFree(t, p, m, c.best, nil)
				var top uint64
				for i, ok := range s.deepPlaced {
					if ok && c.best[i] != s.deepOff[i] {
						t.Fatalf("item %d moved from %d to %d", i, s.deepOff[i], c.best[i])
					}
					top = max(top, c.best[i]+m.size[i])
				}
				if top != c.peak {
					t.Fatalf("peak %d, placement's top %d", c.peak, top)
				}
				t.Logf("%d items: first fit %d, deepest node %d/%d placed, repaired %d (better %v, bound %d)", len(items), start, s.deep, len(m.size), c.peak, better, C)
			}
			if repaired == 0 {
				t.Error("no component repaired")
			}
		})
	}
}
