package exact_test

import (
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/exact"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/strategies/strategytest"
)

// TestContract runs the strategy contract with a small node budget (the
// suite's random problems are not all provable quickly).
func TestContract(t *testing.T) {
	strategytest.Run(t, func() planner.Strategy { return exact.New(exact.Options{NodeLimit: 5000}) })
}

// randomProblem is a seeded interval or graph problem of n items; graph
// interference is the incomparability of two crossed interval orders.
func randomProblem(seed uint64, n int, graph bool) *planner.Problem {
	rng := rand.New(rand.NewPCG(seed, 99))
	items := make([]planner.Item, n)
	second := make([][2]int64, n)
	for i := range items {
		s := rng.Int64N(int64(2 * n))
		items[i] = planner.Item{Size: 1 + rng.Uint64N(1000), Alignment: 1 << rng.IntN(4), Start: s, End: s + 1 + rng.Int64N(int64(n))}
		s2 := rng.Int64N(int64(2 * n))
		second[i] = [2]int64{s2, s2 + 1 + rng.Int64N(int64(n))}
	}
	var p *planner.Problem
	var err error
	if graph {
		before := func(a, b int) bool { return items[a].End <= items[b].Start && second[a][1] <= second[b][0] }
		p, err = planner.NewGraphProblem(items, 0, func(i, j int) bool { return !before(i, j) && !before(j, i) })
	} else {
		p, err = planner.NewIntervalProblem(items, 0)
	}
	if err != nil {
		panic(err)
	}
	return p
}

// TestNodeLimitDeterministic checks that with a node budget the result
// depends on nothing else: the same problem twice gives the same solution
// and report, and a concurrent run changes nothing.
func TestNodeLimitDeterministic(t *testing.T) {
	for _, graph := range []bool{false, true} {
		p := randomProblem(3, 60, graph)
		s := exact.New(exact.Options{NodeLimit: 3000})
		var wg sync.WaitGroup
		sols := make([]*planner.Solution, 3)
		res := make([]exact.Result, 3)
		for k := range sols {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				sols[k], res[k], err = s.Solve(p)
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		for k := 1; k < len(sols); k++ {
			if !reflect.DeepEqual(sols[0], sols[k]) {
				t.Fatalf("graph=%v: solutions differ", graph)
			}
			if res[0].Peak != res[k].Peak || res[0].Bound != res[k].Bound || res[0].Nodes != res[k].Nodes || res[0].Optimal != res[k].Optimal {
				t.Fatalf("graph=%v: results differ: %v and %v", graph, res[0], res[k])
			}
		}
		if res[0].Nodes > 3000 {
			t.Errorf("graph=%v: %d nodes, budget 3000", graph, res[0].Nodes)
		}
	}
}

// TestNeverWorseThanFirstFit compares with the default strategy on random
// problems, and checks the report against the solution.
func TestNeverWorseThanFirstFit(t *testing.T) {
	for seed := uint64(0); seed < 12; seed++ {
		p := randomProblem(seed, 30+int(seed)*5, seed%2 == 1)
		ff, err := firstfit.New().Place(p)
		if err != nil {
			t.Fatal(err)
		}
		sol, res, err := exact.New(exact.Options{NodeLimit: 1000}).Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if sol.Peak() > ff.Peak() {
			t.Errorf("seed %d: exact %d, first fit %d", seed, sol.Peak(), ff.Peak())
		}
		if res.Peak != sol.Peak() || res.Bound > res.Peak || res.Bound < planner.LowerBound(p) {
			t.Errorf("seed %d: report %v for a solution of %d (lower bound %d)", seed, res, sol.Peak(), planner.LowerBound(p))
		}
		if res.Optimal != (res.Peak == res.Bound) {
			t.Errorf("seed %d: report %v", seed, res)
		}
	}
}

// TestMaxPoolSize: when one pool cannot hold the problem, the solution
// uses several, each within the cap.
func TestMaxPoolSize(t *testing.T) {
	items := make([]planner.Item, 10)
	for i := range items {
		items[i] = planner.Item{Size: 10, Alignment: 1, Start: 0, End: 1}
	}
	p, err := planner.NewIntervalProblem(items, 30)
	if err != nil {
		t.Fatal(err)
	}
	sol, res, err := exact.New(exact.Options{NodeLimit: 1000}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if len(sol.PoolSizes) < 4 || res.Peak != 100 || !res.Optimal {
		t.Errorf("pools %v, report %v", sol.PoolSizes, res)
	}
	// A cap the single-pool optimum fits under is kept.
	p2, _ := planner.NewIntervalProblem(items[:3], 30)
	sol, res, _ = exact.New(exact.Options{NodeLimit: 1000}).Solve(p2)
	if len(sol.PoolSizes) != 1 || res.Peak != 30 {
		t.Errorf("pools %v, report %v", sol.PoolSizes, res)
	}
}

func TestGap(t *testing.T) {
	for _, tc := range []struct {
		r    exact.Result
		want float64
	}{
		{exact.Result{Peak: 110, Bound: 100}, 0.1},
		{exact.Result{Peak: 100, Bound: 100}, 0},
		{exact.Result{}, 0},
	} {
		if got := tc.r.Gap(); got < tc.want-1e-12 || got > tc.want+1e-12 {
			t.Errorf("%+v: gap %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestNegativeLimitPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	exact.New(exact.Options{NodeLimit: -1})
}
