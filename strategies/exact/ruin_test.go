package exact

import (
	"testing"

	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// TestRuinImproves: ruin moves from a first-fit placement of a slack
// instance lower its peak, keep it overlap-free, and never raise it.
func TestRuinImproves(t *testing.T) {
	p := slackProblem(1, 600, 0.2)
	parts := components(p, nil)
	ff, _ := firstfit.New().Place(p)
	improved := 0
	for _, items := range parts {
		if len(items) < bandItems {
			continue
		}
		m := buildModel(p, items, true, nil)
		c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size)), lower: m.maxLoad}
		for mi, pi := range m.orig {
			c.best[mi] = ff.Offset[pi]
			c.peak = max(c.peak, c.best[mi]+m.size[mi])
		}
		if !c.ruinable() {
			t.Fatal("an interval component of 200+ items is not ruinable")
		}
		start := c.peak
		for k := 0; k < 4; k++ {
			before := c.peak
			c.ruin(4000, func() bool { return false })
			if c.peak > before {
				t.Fatalf("ruin raised the peak: %d -> %d", before, c.peak)
			}
		}
		var top uint64
		for a := range m.orig {
			top = max(top, c.best[a]+m.size[a])
			for b := a + 1; b < len(m.orig); b++ {
				pa, pb := int(m.orig[a]), int(m.orig[b])
				if p.Interferes(pa, pb) && c.best[a] < c.best[b]+m.size[b] && c.best[b] < c.best[a]+m.size[a] {
					t.Fatalf("items %d and %d overlap", pa, pb)
				}
			}
		}
		if top != c.peak {
			t.Fatalf("peak %d, placement ends at %d", c.peak, top)
		}
		t.Logf("component of %d items: %d -> %d (bound %d)", len(items), start, c.peak, m.maxLoad)
		if c.peak < start {
			improved++
		}
	}
	if improved == 0 {
		t.Error("no ruin move improved a greedy placement")
	}
}
