package greedy

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

var fits = []Fit{FirstFit, BestFit}

func (f Fit) String() string {
	if f == FirstFit {
		return "first"
	}
	return "best"
}

// problems returns p's items as an interval problem and as a graph
// problem in which items interfere when their lifetimes overlap.
func problems(t *testing.T, items []planner.Item, maxPoolSize uint64) []*planner.Problem {
	t.Helper()
	ip, err := planner.NewIntervalProblem(items, maxPoolSize)
	if err != nil {
		t.Fatal(err)
	}
	gp, err := planner.NewGraphProblem(items, maxPoolSize, func(i, j int) bool {
		return items[i].Start < items[j].End && items[j].Start < items[i].End
	})
	if err != nil {
		t.Fatal(err)
	}
	return []*planner.Problem{ip, gp}
}

func kind(p *planner.Problem) string {
	if p.Intervals() {
		return "interval"
	}
	return "graph"
}

// TestNoAliasingFallback: when alignment padding makes every order's
// greedy placement cost more than the sum of the sizes, Place returns the
// no-aliasing placement, which costs exactly that sum (sizes are multiples
// of their alignments).
func TestNoAliasingFallback(t *testing.T) {
	cases := []struct {
		name  string
		items []planner.Item
	}{
		// Found by proptest (TestIntervalSolutions, bestfit, seed
		// 15450077132537172551, 3 items). By size: a at 0, c at 14784 up to
		// 15723, then b, aligned to 2, at 15724: 16072 bytes for 16071.
		{"proptest", []planner.Item{
			{Size: 14784, Alignment: 32, Start: 4, End: 8}, // a
			{Size: 348, Alignment: 2, Start: 0, End: 6},    // b
			{Size: 939, Alignment: 1, Start: 3, End: 9},    // c
		}},
		// The larger item goes first and leaves an odd offset: 3+1+2.
		{"odd", []planner.Item{
			{Size: 3, Alignment: 1, Start: 0, End: 1},
			{Size: 2, Alignment: 2, Start: 0, End: 1},
		}},
	}
	for _, c := range cases {
		var sum uint64
		for _, it := range c.items {
			sum += it.Size
		}
		for _, p := range problems(t, c.items, 0) {
			for _, fit := range fits {
				t.Run(fmt.Sprintf("%s/%s/fit=%v", c.name, kind(p), fit), func(t *testing.T) {
					e := newEngine("test", p, fit)
					for _, o := range []Order{Size, Load, SizeClass} {
						s, err := e.run(o.perm(p))
						if err != nil {
							t.Fatal(err)
						}
						if s.Peak() <= sum {
							t.Fatalf("order %s alone: peak %d, want above the sum %d (the case no longer shows the padding)", o.Name(), s.Peak(), sum)
						}
					}
					sol, err := Place("test", p, fit, Size, Load, SizeClass)
					if err != nil {
						t.Fatal(err)
					}
					if err := planner.CheckSolution(p, sol); err != nil {
						t.Fatal(err)
					}
					if sol.Peak() != sum {
						t.Errorf("Place: peak %d, want the sum of the sizes %d", sol.Peak(), sum)
					}
					if want := planner.NoAliasing(p); !reflect.DeepEqual(sol, want) {
						t.Errorf("Place: %+v, want NoAliasing's %+v", sol, want)
					}
				})
			}
		}
	}
}

// TestNoAliasingTie: a no-aliasing placement that only ties keeps the
// greedy's (here: the larger item at 0, where NoAliasing puts the more
// aligned one first).
func TestNoAliasingTie(t *testing.T) {
	items := []planner.Item{
		{Size: 8, Alignment: 1, Start: 0, End: 1},
		{Size: 4, Alignment: 4, Start: 0, End: 1},
	}
	for _, p := range problems(t, items, 0) {
		for _, fit := range fits {
			sol, err := Place("test", p, fit, Size)
			if err != nil {
				t.Fatal(err)
			}
			if alt := planner.NoAliasing(p); alt.Peak() != sol.Peak() || alt.Offset[0] == sol.Offset[0] {
				t.Fatalf("%s fit=%v: the case does not tie with NoAliasing %+v", kind(p), fit, alt)
			}
			if want := []uint64{0, 8}; !reflect.DeepEqual(sol.Offset, want) {
				t.Errorf("%s fit=%v: offsets %v, want the greedy's %v", kind(p), fit, sol.Offset, want)
			}
		}
	}
}

// randomGraph returns a seeded graph problem: lifetimes within [0, 100),
// items interfering when their lifetimes overlap and otherwise with
// probability extra; mixed alignments, some sizes not multiples of them.
func randomGraph(seed uint64, n int, extra float64, maxPoolSize uint64) (*planner.Problem, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	items := make([]planner.Item, n)
	for i := range items {
		align := uint64(1) << rng.IntN(9)
		size := 1 + rng.Uint64N(5000)
		if rng.IntN(2) == 0 {
			size = align * (1 + rng.Uint64N(8))
		}
		start := rng.Int64N(100)
		items[i] = planner.Item{Size: size, Alignment: align, Start: start, End: start + 1 + rng.Int64N(40)}
	}
	return planner.NewGraphProblem(items, maxPoolSize, func(i, j int) bool {
		a, b := &items[i], &items[j]
		return a.Start < b.End && b.Start < a.End || rng.Float64() < extra
	})
}

// TestGraphFit replays runs on random graph problems (sparse and dense,
// with and without a pool cap, so with several pools) and checks, item by
// item, that both ways of the fast fit (sorting the neighbours, walking the
// pools) and fit itself agree with plainFit.
func TestGraphFit(t *testing.T) {
	for seed := range uint64(40) {
		n := 1 + int(seed*7%150)
		extra := []float64{0, 0.05, 0.5, 1}[seed%4]
		var maxPoolSize uint64
		if seed%3 == 0 {
			maxPoolSize = 12000
		}
		p, err := randomGraph(seed, n, extra, maxPoolSize)
		if err != nil {
			t.Fatal(err)
		}
		for _, fit := range fits {
			for _, o := range []Order{Size, Load, SizeClass, byItem("start", byStart)} {
				e := newEngine("test", p, fit)
				sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
				gs := newGraphState(e, sol)
				for _, i := range o.perm(p) {
					wOff, wK, wOK := e.plainFit(sol, gs.isPlaced, i)
					if !wOK {
						t.Fatalf("seed %d: item %d fits nowhere", seed, i)
					}
					for way, f := range map[string]func() (uint64, int, bool){
						"fit":    func() (uint64, int, bool) { return gs.fit(i) },
						"sorted": func() (uint64, int, bool) { return gs.fitSorted(i) },
						"walk":   func() (uint64, int, bool) { return gs.fitWalk(i) },
					} {
						if off, k, ok := f(); off != wOff || k != wK || !ok {
							t.Fatalf("seed %d fit=%v order %s item %d: %s gave pool %d offset %d (%v), want pool %d offset %d",
								seed, fit, o.Name(), i, way, k, off, ok, wK, wOff)
						}
					}
					sol.Pool[i], sol.Offset[i] = int32(wK), wOff
					if wK == len(sol.PoolSizes) {
						sol.PoolSizes = append(sol.PoolSizes, 0)
					}
					sol.PoolSizes[wK] = max(sol.PoolSizes[wK], wOff+p.Items[i].Size)
					gs.record(i)
				}
				if err := planner.CheckSolution(p, sol); err != nil {
					t.Fatalf("seed %d fit=%v order %s: %v", seed, fit, o.Name(), err)
				}
			}
		}
	}
}

// TestParallel: problems large enough to run their orders on several
// goroutines give the same solution as on one.
func TestParallel(t *testing.T) {
	gp, err := randomGraph(1, 400, 0.3, 0)
	if err != nil {
		t.Fatal(err)
	}
	ip, err := planner.NewIntervalProblem(gp.Items, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*planner.Problem{gp, ip} {
		for _, fit := range fits {
			prev := runtime.GOMAXPROCS(1)
			one, err1 := Place("test", p, fit, Size, Load, SizeClass)
			runtime.GOMAXPROCS(max(prev, 3))
			many, err2 := Place("test", p, fit, Size, Load, SizeClass)
			runtime.GOMAXPROCS(prev)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !reflect.DeepEqual(one, many) {
				t.Errorf("%s fit=%v: one goroutine and several disagree", kind(p), fit)
			}
		}
	}
}

func TestPlaceWithoutOrders(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Place without an order did not panic")
		}
	}()
	p, _ := planner.NewIntervalProblem(nil, 0)
	Place("test", p, FirstFit)
}

func Example() {
	// Three buffers live together: by size, 14784 bytes go at 0 and 939
	// after them, which leaves the 2-aligned 348 bytes one byte of padding
	// above the sum of the sizes. Place returns the no-aliasing stack
	// (decreasing alignment) instead.
	items := []planner.Item{
		{Size: 14784, Alignment: 32, Start: 4, End: 8},
		{Size: 348, Alignment: 2, Start: 0, End: 6},
		{Size: 939, Alignment: 1, Start: 3, End: 9},
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	sol, err := Place("example", p, FirstFit, Size, Load, SizeClass)
	if err != nil {
		panic(err)
	}
	fmt.Println("offsets", sol.Offset, "peak", sol.Peak())
	// Output:
	// offsets [0 14784 15132] peak 16071
}
