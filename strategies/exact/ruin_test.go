package exact

import (
	"math/rand/v2"
	"slices"
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
		r := c.ruins
		t.Logf("component of %d items: %d -> %d (bound %d); %d moves, %d stopped above the peak, %d rebuilt it unchanged",
			len(items), start, c.peak, m.maxLoad, r.moves, r.over, r.same)
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

// TestCompleteLimit: a recreation with a limit gives up only when the
// whole first fit ends above the limit, and below it agrees with the
// unlimited one.
func TestCompleteLimit(t *testing.T) {
	p := slackProblem(2, 600, 0.2)
	ff, _ := firstfit.New().Place(p)
	var m *model
	for _, items := range components(p, nil) {
		if len(items) >= bandItems {
			m = buildModel(p, items, true, nil)
		}
	}
	n := len(m.size)
	off := make([]uint64, n)
	for mi, pi := range m.orig {
		off[mi] = ff.Offset[pi]
	}
	rng := rand.New(rand.NewPCG(3, 4))
	kept := make([]bool, n)
	key := make([]uint64, n)
	full, lim := newRepairer(m), newRepairer(m)
	below, above := 0, 0
	for trial := 0; trial < 200; trial++ {
		for i := range kept {
			kept[i] = rng.IntN(4) != 0
			key[i] = rng.Uint64()
		}
		want := full.complete(off, kept, key, false)
		lim.limit = want - m.gran*uint64(rng.IntN(3)) // at, or a granule or two below
		got := lim.complete(off, kept, key, false)
		switch {
		case want <= lim.limit:
			below++
			if got != want || !slices.Equal(lim.off, full.off) {
				t.Fatalf("trial %d: limit %d at or above the peak %d changed the result (peak %d)", trial, lim.limit, want, got)
			}
		default:
			above++
			if got <= lim.limit {
				t.Fatalf("trial %d: peak %d above limit %d, the limited run says %d", trial, want, lim.limit, got)
			}
		}
	}
	if below == 0 || above == 0 {
		t.Fatalf("trials at the peak %d, above it %d: want both", below, above)
	}
}
