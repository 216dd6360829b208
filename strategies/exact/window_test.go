package exact

import (
	"os"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// windowComp is the largest component of p with its first-fit placement.
func windowComp(t *testing.T, p *planner.Problem) *comp {
	t.Helper()
	ff, err := firstfit.New().Place(p)
	if err != nil {
		t.Fatal(err)
	}
	var big []int32
	for _, items := range components(p, nil) {
		if len(items) > len(big) {
			big = items
		}
	}
	m := buildModel(p, big, true, nil)
	c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size)), lower: m.maxLoad}
	for mi, pi := range m.orig {
		c.best[mi] = ff.Offset[pi]
		c.peak = max(c.peak, c.best[mi]+m.size[mi])
	}
	return c
}

// checkComp fails unless c.best is overlap-free and ends at c.peak.
func checkComp(t *testing.T, p *planner.Problem, c *comp) {
	t.Helper()
	m := c.m
	var top uint64
	for a := range m.orig {
		top = max(top, c.best[a]+m.size[a])
		if c.best[a]%m.align[a] != 0 {
			t.Fatalf("item %d: offset %d not aligned", m.orig[a], c.best[a])
		}
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
}

// TestWindowExperiment (ALIASPLAN_WINDOW=limit) runs window moves alone
// from first fit on the generated families and logs the peaks.
func TestWindowExperiment(t *testing.T) {
	v := os.Getenv("ALIASPLAN_WINDOW")
	if v == "" {
		t.Skip("ALIASPLAN_WINDOW unset")
	}
	lim, err := time.ParseDuration(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1000, 2000, 3000} {
		for _, f := range families(n, 2) {
			if pat := os.Getenv("ALIASPLAN_FAMILY"); pat != "" && pat != f.name {
				continue
			}
			c := windowComp(t, f.p)
			start := c.peak
			dead := time.Now().Add(lim)
			stop := func() bool { return time.Now().After(dead) }
			for !stop() && c.peak > c.lower {
				c.window(1<<20, stop)
			}
			checkComp(t, f.p, c)
			w := c.wins
			t.Logf("%-24s n=%d ff %+.2f%% -> %+.2f%% (tries %d wins %d peaks %d size %d step %d)", f.name, len(c.m.size),
				100*(float64(start)/float64(f.c)-1), 100*(float64(c.peak)/float64(f.c)-1), w.tries, w.wins, w.peaks, w.size, w.step)
		}
	}
}

// TestWindowAtPeak: a window re-solved at the current peak (where the
// current placement is a solution) is found, on both families.
func TestWindowAtPeak(t *testing.T) {
	for _, f := range []family{{"slack", slackProblem(3, 400, 0.2), 0}, {"perfect", perfectProblem(3, 400, 100_000, 1<<22), 0}} {
		c := windowComp(t, f.p)
		c.wins = &windower{rng: rngFor(7), size: winStart, in: make([]bool, len(c.m.size))}
		res := map[status]int{}
		for k := 0; k < 24; k++ {
			seed := c.wins.rng.IntN(len(c.m.size))
			want := winMin + c.wins.rng.IntN(60)
			t0, t1 := c.wins.hull(c.m, seed, want)
			st, _ := c.solveWindow(t0, t1, want, c.peak, func() bool { return false })
			res[st]++
			c.peak = c.m.peakOf(c.best)
			checkComp(t, f.p, c)
		}
		t.Logf("%s: found %d exhausted %d aborted %d", f.name, res[found], res[exhausted], res[aborted])
		if res[exhausted] > 0 {
			t.Errorf("%s: %d windows exhausted at the peak, where the placement is a solution", f.name, res[exhausted])
		}
	}
}

// TestWindowImproves: window moves from a first-fit placement of a slack
// instance lower its peak, keep it overlap-free and never raise it.
func TestWindowImproves(t *testing.T) {
	p := slackProblem(1, 600, 0.2)
	c := windowComp(t, p)
	if !c.windowable() {
		t.Fatal("an interval component of 200+ items gets no window moves")
	}
	start := c.peak
	for k := 0; k < 4; k++ {
		before := c.peak
		c.window(20000, func() bool { return false })
		if c.peak > before {
			t.Fatalf("window moves raised the peak: %d -> %d", before, c.peak)
		}
		checkComp(t, p, c)
	}
	t.Logf("%d items: %d -> %d (bound %d; %d windows, %d found)", len(c.m.size), start, c.peak, c.lower, c.wins.tries, c.wins.wins)
	if c.peak >= start {
		t.Error("no window move improved a greedy placement")
	}
}

// TestRunWorkCap: a complete run's work allowance a node is four spans
// of the component, or four times the cheapest rate of its earlier runs
// when that is lower.
func TestRunWorkCap(t *testing.T) {
	m := &model{size: make([]uint64, 10), spans: 1000}
	if got := runWorkCap(m, 0); got != 4000 {
		t.Errorf("no rate: %d, want 4000", got)
	}
	if got := runWorkCap(m, 300); got != 1200 {
		t.Errorf("rate 300: %d, want 1200", got)
	}
	if got := runWorkCap(m, 5000); got != 4000 {
		t.Errorf("rate 5000: %d, want 4000 (the spans rule)", got)
	}
	m.spans = 3 // fewer spans than items: items count
	if got := runWorkCap(m, 0); got != 40 {
		t.Errorf("spans below items: %d, want 40", got)
	}
}
