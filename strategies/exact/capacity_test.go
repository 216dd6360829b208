package exact

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// TestCapacityBruteForce: on small random problems, asked for the
// optimum the capacity mode answers Fits with a placement within it, and
// asked for one byte less it proves DoesNotFit.
func TestCapacityBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for k := 0; k < 30; k++ {
		graph := k%3 == 2
		p := randomSmall(rng, 4+rng.IntN(7), graph)
		opt := bruteForce(p)
		for _, c := range []uint64{opt, opt - 1, opt + 7} {
			sol, res, err := New(Options{NodeLimit: 1 << 20, Capacity: c}).Solve(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := planner.CheckSolution(p, sol); err != nil {
				t.Fatal(err)
			}
			want := Fits
			if c < opt {
				want = DoesNotFit
			}
			if res.Verdict != want || (want == Fits && res.Peak > c) || (want == DoesNotFit && res.Bound <= c) {
				t.Fatalf("case %d (graph %v), optimum %d, capacity %d: %v, want %v", k, graph, opt, c, res, want)
			}
			if res.Stopped != "" {
				t.Errorf("case %d, capacity %d: answered, yet stopped %q", k, c, res.Stopped)
			}
		}
	}
}

// TestCapacityStopsAtFirstFit: a capacity well above the optimum is
// answered by the first placement within it, with no search when a
// greedy placement fits; on a slack instance, fitting the capacity it was
// cut from needs fewer nodes than minimising (to a smaller optimum).
func TestCapacityStopsAtFirstFit(t *testing.T) {
	p := slackProblem(3, 360, 0.1)
	ff, _ := firstfit.New().Place(p)
	_, res, err := New(Options{NodeLimit: 100_000, Capacity: ff.Peak()}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Fits || res.Nodes != 0 || res.Peak > ff.Peak() {
		t.Errorf("capacity of first fit's peak %d: %v, want Fits without search", ff.Peak(), res)
	}
	_, min, err := New(Options{NodeLimit: 100_000}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	_, dec, err := New(Options{NodeLimit: 100_000, Capacity: 1 << 20}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("minimise: %v; capacity 2^20: %v", min, dec)
	if dec.Verdict != Fits || dec.Peak > 1<<20 {
		t.Errorf("capacity 2^20: %v, want Fits", dec)
	}
	if dec.Nodes > min.Nodes {
		t.Errorf("capacity 2^20 took %d nodes, minimising %d", dec.Nodes, min.Nodes)
	}
	// The verdict's own rule: below the planner's bound, no search.
	_, res, err = New(Options{NodeLimit: 100_000, Capacity: planner.LowerBound(p) - 1}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != DoesNotFit || res.Nodes != 0 {
		t.Errorf("capacity below the bound: %v, want DoesNotFit without search", res)
	}
}

// TestGreedyStop: when first fit alone has used the time limit, best fit
// is skipped and the result says so, with first fit's placement.
func TestGreedyStop(t *testing.T) {
	p := slackProblem(2, 200, 0.2)
	ff, _ := firstfit.New().Place(p)
	readings := 0
	clock := func() time.Time {
		readings++
		if readings == 1 {
			return time.Unix(0, 0)
		}
		return time.Unix(3600, 0)
	}
	sol, res, err := New(Options{TimeLimit: time.Second}).solve(p, clock)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "greedy" || !res.Limited() || res.Peak != ff.Peak() || res.Nodes != 0 || res.Greedy != time.Hour {
		t.Errorf("%v (greedy %v), want first fit's peak %d, stopped in greedy, greedy 1h", res, res.Greedy, ff.Peak())
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Fatal(err)
	}
}

// TestStoppedReasons: a problem whose bound exceeds MaxPoolSize is not
// searched, and says why without blaming a limit.
func TestStoppedReasons(t *testing.T) {
	items := make([]planner.Item, 40)
	for i := range items {
		items[i] = planner.Item{Size: 10 + uint64(i%7), Alignment: 1, Start: int64(i % 13), End: int64(i%13 + 5)}
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		t.Fatal(err)
	}
	q, err := planner.NewIntervalProblem(items, planner.LowerBound(p)-1)
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := New(Options{NodeLimit: 1000}).Solve(q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Optimal || res.Stopped != "pools" || res.Limited() {
		t.Errorf("%v: want stopped for pools, not by a limit", res)
	}
}

// TestBandImproves: band searches from a greedy placement of a generated
// slack instance produce a valid placement (checked against the problem)
// and lower the peak.
func TestBandImproves(t *testing.T) {
	p := slackProblem(1, 600, 0.2)
	parts := components(p, nil)
	ff, _ := firstfit.New().Place(p)
	improved := 0
	for _, items := range parts {
		if len(items) < bandItems {
			continue
		}
		m := buildModel(p, items, true, nil)
		c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size))}
		for mi, pi := range m.orig {
			c.best[mi] = ff.Offset[pi]
			c.peak = max(c.peak, c.best[mi]+m.size[mi])
		}
		start := c.peak
		for k := 0; k < 6; k++ {
			if c.band(m.maxLoad, 2000) == found {
				c.take()
			}
		}
		for a := range m.orig {
			for b := a + 1; b < len(m.orig); b++ {
				pa, pb := int(m.orig[a]), int(m.orig[b])
				if p.Interferes(pa, pb) && c.best[a] < c.best[b]+m.size[b] && c.best[b] < c.best[a]+m.size[a] {
					t.Fatalf("items %d and %d overlap", pa, pb)
				}
			}
		}
		t.Logf("component of %d items: %d -> %d (bound %d)", len(items), start, c.peak, m.maxLoad)
		if c.peak < start {
			improved++
		}
	}
	if improved == 0 {
		t.Error("no band search improved a greedy placement")
	}
}
