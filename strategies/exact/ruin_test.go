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
		t.Logf("component of %d items: %d -> %d (bound %d) %v", len(items), start, c.peak, m.maxLoad, c.ruins.st)
		if c.peak < start {
			improved++
		}
	}
	if improved == 0 {
		t.Error("no ruin move improved a greedy placement")
	}
}

// TestRuinSpread: on a component of more than 1,000 items some ruin
// moves free more than the 330 items that bounded a move before session
// 12 (ruinMin + ruinSpread since), and the placements they leave are
// overlap-free, end at the peak, and never raise it.
func TestRuinSpread(t *testing.T) {
	p := slackProblem(1, 1200, 0.05)
	ff, _ := firstfit.New().Place(p)
	var m *model
	for _, items := range components(p, nil) {
		if len(items) > 1000 {
			m = buildModel(p, items, true, nil)
		}
	}
	if m == nil {
		t.Fatal("no component of more than 1,000 items")
	}
	c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size)), lower: m.maxLoad}
	for mi, pi := range m.orig {
		c.best[mi] = ff.Offset[pi]
		c.peak = max(c.peak, c.best[mi]+m.size[mi])
	}
	start := c.peak
	for k := 0; k < 3; k++ {
		before := c.peak
		c.ruin(10000, func() bool { return false })
		if c.peak > before {
			t.Fatalf("ruin raised the peak: %d -> %d", before, c.peak)
		}
	}
	if c.ruins.maxFreed <= 330 || c.ruins.maxFreed > ruinMin+ruinSpread {
		t.Errorf("the most items a move freed: %d, want more than 330 and at most %d", c.ruins.maxFreed, ruinMin+ruinSpread)
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
	t.Logf("%d items: %d -> %d (bound %d), most freed %d", len(m.size), start, c.peak, m.maxLoad, c.ruins.maxFreed)
}
