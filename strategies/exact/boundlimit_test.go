package exact

import (
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// Issue 19 (exact's time limit covers everything but the greedy start):
// on a large problem the lower bound runs beside the greedy strategies,
// and the join waited for it however long it took (30,000 commands, a
// 200 ms limit: 0.66 s past the greedy start, all of it the bound). Now
// the join waits until the deadline and stops the bound there. The bound
// here never finishes unless stopped, and the clock is past the deadline
// once the greedy strategies are done: the answer is first fit's
// placement, Stopped "bound", the bound the largest item, without
// waiting. (With the join of before, the test never ends: go test's
// timeout fails it.)
func TestTimeLimitStopsBound(t *testing.T) {
	p := slackProblem(3, 2*concurrentBoundItems, 0.2)
	if len(p.Items) < concurrentBoundItems {
		t.Fatalf("%d items: the bound would not run beside the greedy strategies", len(p.Items))
	}
	ff, err := firstfit.New().Place(p)
	if err != nil {
		t.Fatal(err)
	}
	stops := 0
	lowerBoundUntil = func(_ *planner.Problem, stop func() bool) (uint64, bool) {
		for !stop() {
			time.Sleep(time.Millisecond)
		}
		stops++
		return 0, false
	}
	defer func() { lowerBoundUntil = planner.LowerBoundUntil }()
	readings := 0
	clock := func() time.Time {
		readings++
		if readings <= 2 { // the start, first fit's check
			return time.Unix(0, 0)
		}
		return time.Unix(3600, 0)
	}
	sol, res, err := New(Options{TimeLimit: time.Second}).solve(p, clock)
	if err != nil {
		t.Fatal(err)
	}
	var largest uint64
	for _, it := range p.Items {
		largest = max(largest, it.Size)
	}
	if res.Stopped != "bound" || !res.Limited() || res.Bound != largest || stops != 1 {
		t.Errorf("%v (stopped %q, bound stopped %d times), want stopped at the bound with the largest item %d as bound", res, res.Stopped, stops, largest)
	}
	if sol.Peak() > ff.Peak() || res.Peak != sol.Peak() {
		t.Errorf("peak %d (result %d), want at most first fit's %d", sol.Peak(), res.Peak, ff.Peak())
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if res.Greedy != time.Hour {
		t.Errorf("greedy start %v, want the clock's hour (first fit and best fit)", res.Greedy)
	}

	// Under a node limit the bound is never stopped: the join waits.
	stops = 0
	lowerBoundUntil = func(q *planner.Problem, stop func() bool) (uint64, bool) {
		if stop() {
			stops++
		}
		return planner.LowerBound(q), true
	}
	_, res, err = New(Options{NodeLimit: 1000}).solve(p, clock)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped == "bound" || stops != 0 {
		t.Errorf("node limit: stopped %q, bound stopped %d times", res.Stopped, stops)
	}
}
