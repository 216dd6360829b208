package exact

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// slackProblem is an instance of the family of ../shared/data/slack: the
// square [0, 2²⁰) time × [0, 2²⁰) bytes cut on a grid of 1024 into about
// n rectangles (guillotine cuts and five-piece pinwheels), a fraction
// frac of them removed. It fits in 2²⁰ bytes by construction.
func slackProblem(seed uint64, n int, frac float64) *planner.Problem {
	rng := rand.New(rand.NewPCG(seed, 77))
	const W, G = 1 << 20, 1 << 10
	type rect struct{ t0, t1, m0, m1 int64 }
	rs := []rect{{0, W, 0, W}}
	for len(rs) < n {
		k := rng.IntN(len(rs))
		r := rs[k]
		wt, wm := (r.t1-r.t0)/G, (r.m1-r.m0)/G
		switch {
		case wt < 2 && wm < 2:
			continue
		case rng.IntN(4) == 0 && wt >= 3 && wm >= 3:
			// A pinwheel: four rectangles around a centre one.
			a := r.t0 + G*(1+rng.Int64N(wt-2))
			b := a + G*(1+rng.Int64N((r.t1-a)/G-1))
			c := r.m0 + G*(1+rng.Int64N(wm-2))
			d := c + G*(1+rng.Int64N((r.m1-c)/G-1))
			rs[k] = rect{r.t0, b, r.m0, c}
			rs = append(rs, rect{b, r.t1, r.m0, d}, rect{a, r.t1, d, r.m1}, rect{r.t0, a, c, r.m1}, rect{a, b, c, d})
		case (rng.IntN(2) == 0 && wt >= 2) || wm < 2:
			cut := r.t0 + G*(1+rng.Int64N(wt-1))
			rs[k].t1 = cut
			rs = append(rs, rect{cut, r.t1, r.m0, r.m1})
		default:
			cut := r.m0 + G*(1+rng.Int64N(wm-1))
			rs[k].m1 = cut
			rs = append(rs, rect{r.t0, r.t1, cut, r.m1})
		}
	}
	var items []planner.Item
	for _, r := range rs {
		if rng.Float64() >= frac {
			items = append(items, planner.Item{Size: uint64(r.m1 - r.m0), Alignment: 1, Start: r.t0, End: r.t1})
		}
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	return p
}

// TestSlackFamily: generated instances of the slack family fit in 2²⁰
// within a node budget (so the test does not depend on the machine). The
// level branching is what makes this work: with next-item branching
// alone most of them end far above 2²⁰ (docs/exact.md).
func TestSlackFamily(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		p := slackProblem(seed, 150+int(seed)*30, 0.2)
		sol, res, err := New(Options{NodeLimit: 100_000}).Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d, %d items: %v", seed, len(p.Items), res)
		if res.Peak > 1<<20 {
			t.Errorf("seed %d: %v, want at most %d", seed, res, 1<<20)
		}
	}
}

// TestLevelBranchingPrunes: on a slack instance, decision searches with
// level branching reach the capacity the instance was cut from, where
// next-item branching alone, with the same orders and budget, does not.
// Both branchings are checked for soundness by TestBruteForceBranchings.
func TestLevelBranchingPrunes(t *testing.T) {
	p := slackProblem(1, 200, 0.2)
	if len(components(p, nil)) != 1 {
		t.Fatal("the instance splits into components")
	}
	m := buildModel(p, components(p, nil)[0], true, nil)
	solved := func(level bool) (int, int64) {
		s := newSearch(m)
		s.skyline = level
		c := &comp{m: m}
		for k := 1; k <= 12; k++ {
			s.setOrder(c.order())
			c.round++
			if st := s.run(1<<20, luby(k)*int64(len(m.size)+64)); st == found {
				return k, s.nodes
			}
		}
		return -1, s.nodes
	}
	kl, nl := solved(true)
	kn, nn := solved(false)
	t.Logf("level: restart %d, %d nodes; next item: restart %d, %d nodes", kl, nl, kn, nn)
	if kl < 0 {
		t.Errorf("level branching did not fit 2²⁰ in 12 restarts (%d nodes)", nl)
	}
	if kn >= 0 {
		t.Errorf("next-item branching fit too (restart %d): the test no longer shows the rule's effect", kn)
	}
}

// TestGranularity: when every size is a multiple of g, the model aligns
// to g, and bounds proven by exhausted searches round up to multiples of
// g; the result stays the brute-force optimum.
func TestGranularity(t *testing.T) {
	items := []planner.Item{
		{Size: 12, Alignment: 1, Start: 0, End: 2},
		{Size: 8, Alignment: 16, Start: 1, End: 3},
		{Size: 4, Alignment: 2, Start: 2, End: 4},
	}
	p, _ := planner.NewIntervalProblem(items, 0)
	m := buildModel(p, components(p, nil)[0], true, nil)
	if m.gran != 4 {
		t.Fatalf("granularity %d, want 4", m.gran)
	}
	for i, a := range m.align {
		if want := max(p.Items[m.orig[i]].Alignment, 4); a != want {
			t.Errorf("item %d: alignment %d, want %d", m.orig[i], a, want)
		}
	}
	// A five-cycle of interference, sizes 4: the clique bound is 8, the
	// optimum 12. One exhausted search below 12 proves 12: peaks are
	// multiples of 4.
	cyc := make([]planner.Item, 5)
	for i := range cyc {
		cyc[i] = planner.Item{Size: 4, Alignment: 1, Start: int64(i), End: int64(i) + 1}
	}
	q, _ := planner.NewGraphProblem(cyc, 0, func(i, j int) bool { return (j-i+5)%5 == 1 || (i-j+5)%5 == 1 })
	if planner.LowerBound(q) != 8 {
		t.Fatalf("five-cycle bound %d", planner.LowerBound(q))
	}
	mq := buildModel(q, components(q, nil)[0], false, nil)
	sq := newSearch(mq)
	if st := sq.run(11, 1<<20); st != exhausted || roundUp(max(sq.need, 12), mq.gran) != 12 {
		t.Errorf("five-cycle at 11: status %d, need %d", st, sq.need)
	}
	_, res, err := New(Options{NodeLimit: 10_000}).Solve(q)
	if err != nil || !res.Optimal || res.Peak != 12 {
		t.Errorf("five-cycle: %v, %v; want 12, optimal", res, err)
	}
	// Random problems with sizes in multiples of 4: the bound is a
	// multiple of 4, and the result the brute-force optimum.
	rng := rand.New(rand.NewPCG(4, 4))
	for c := 0; c < 100; c++ {
		q := randomSmall(rng, 3+rng.IntN(7), c%2 == 1)
		for i := range q.Items {
			q.Items[i].Size *= 4
		}
		want := bruteForce(q)
		_, res, err := New(Options{NodeLimit: 1_000_000}).Solve(q)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Optimal || res.Peak != want || res.Bound%4 != 0 {
			t.Fatalf("case %d: %v, brute force %d", c, res, want)
		}
	}
}

// TestMeterStopsModel: building the model charges the step meter, and
// when it runs out (a tiny node budget, or a clock past the deadline)
// the greedy incumbent comes back with the planner's bound, saying so.
func TestMeterStopsModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	p := randomSmall(rng, 300, true)
	ff, _ := firstfit.New().Place(p)
	bf, _ := bestfit.New().Place(p)
	greedy := min(ff.Peak(), bf.Peak())
	check := func(name string, sol *planner.Solution, res Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if res.Peak != greedy || res.Bound != min(planner.LowerBound(p), greedy) || res.Nodes != 0 {
			t.Errorf("%s: %v, want the greedy peak %d with the planner's bound %d and no nodes", name, res, greedy, planner.LowerBound(p))
		}
		if !res.Optimal && res.Stopped != "model" {
			t.Errorf("%s: stopped in %q, want model", name, res.Stopped)
		}
	}
	sol, res, err := New(Options{NodeLimit: 1}).Solve(p)
	check("node limit 1", sol, res, err)

	// A clock that jumps far past the deadline at its fourth reading (the
	// first is the start, then two after the greedy strategies).
	readings := 0
	clock := func() time.Time {
		readings++
		if readings <= 3 {
			return time.Unix(0, 0)
		}
		return time.Unix(3600, 0)
	}
	sol, res, err = New(Options{TimeLimit: time.Second}).solve(p, clock)
	check("clock past the deadline", sol, res, err)
	if readings > 10 {
		t.Errorf("%d clock readings after the deadline passed", readings)
	}
	if fmt.Sprint(res) == "" {
		t.Error("empty result text")
	}
}

// TestBigGraphComponent: a graph component with more interfering pairs
// than the model keeps (maxModelPairs) gets no neighbour lists; it must
// then be neither dived (dives see only lifetimes) nor searched, and its
// greedy placement stands.
func TestBigGraphComponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	n := 3000
	items := make([]planner.Item, n)
	for i := range items {
		s := rng.Int64N(int64(n))
		items[i] = planner.Item{Size: 1 + rng.Uint64N(64), Alignment: 1, Start: s, End: s + 1 + rng.Int64N(50)}
	}
	// Six pairs in seven interfere (the pairs whose lifetimes overlap
	// all do): far more than maxModelPairs pairs, most of them between
	// items whose lifetimes do not meet.
	p, err := planner.NewGraphProblem(items, 0, func(i, j int) bool {
		a, b := &items[i], &items[j]
		return (a.Start < b.End && b.Start < a.End) || (i+j)%7 != 0
	})
	if err != nil {
		t.Fatal(err)
	}
	if n*(n-1)*6/7 <= maxModelPairs {
		t.Fatalf("%d pairs do not exceed maxModelPairs", n*(n-1)*6/7)
	}
	sol, res, err := New(Options{NodeLimit: 20_000}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if res.Nodes != 0 {
		t.Errorf("%v: a component without neighbour lists was searched", res)
	}
}
