package exact

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// fakeClock advances by step at every reading, so that progress depends
// on the work done (clock readings) and not on the machine's speed or
// load.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// TestProgress drives the search with a node budget and a fake clock that
// advances a fixed step per reading: the reports are then a function of
// the problem alone. They must come, at least a second of (fake) time
// apart, with figures consistent with each other and with the result.
func TestProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	items := make([]planner.Item, 120)
	for i := range items {
		s := rng.Int64N(240)
		items[i] = planner.Item{Size: 1 + rng.Uint64N(1000), Alignment: 1 << rng.IntN(3), Start: s, End: s + 1 + rng.Int64N(60)}
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Unix(0, 0), step: 50 * time.Millisecond}
	var reports []Progress
	var at []time.Time
	s := New(Options{NodeLimit: 4000, Progress: func(pr Progress) {
		reports = append(reports, pr)
		at = append(at, clock.t)
	}})
	sol, res, err := s.solve(p, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Optimal {
		t.Fatalf("solved (%v): the test needs a problem that runs out of nodes", res)
	}
	if len(reports) < 2 {
		t.Fatalf("%d progress reports in %v of fake time and %d nodes, want at least 2", len(reports), res.Elapsed, res.Nodes)
	}
	for k, pr := range reports {
		if k > 0 {
			if d := at[k].Sub(at[k-1]); d < time.Second {
				t.Errorf("report %d: %v after the previous one, want at least 1s", k, d)
			}
			if pr.Nodes < reports[k-1].Nodes || pr.Best > reports[k-1].Best || pr.Bound < reports[k-1].Bound {
				t.Errorf("report %d %+v after %+v: nodes fell, best rose or bound fell", k, pr, reports[k-1])
			}
		}
		if pr.Elapsed != at[k].Sub(time.Unix(0, 0))-clock.step {
			t.Errorf("report %d: elapsed %v at fake time %v", k, pr.Elapsed, at[k].Sub(time.Unix(0, 0)))
		}
		if pr.Bound > pr.Best || pr.Best < res.Peak || pr.Bound > res.Bound || pr.Nodes > res.Nodes {
			t.Errorf("report %d %+v, result %v", k, pr, res)
		}
	}
	t.Logf("%d reports, %v", len(reports), res)
	if sol.Peak() != res.Peak {
		t.Errorf("solution peak %d, result %v", sol.Peak(), res)
	}
}
