package exact_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/exact"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// tiling returns a zero-waste interval problem of n buffers: the
// rectangle [0, 2⁴⁰) time × [0, 2³⁰) bytes cut by random guillotine cuts
// into n rectangles, each a buffer (lifetime its time extent, size its
// byte extent). Its optimum is 2³⁰, the lower bound.
func tiling(seed uint64, n int) *planner.Problem {
	rng := rand.New(rand.NewPCG(seed, 0x711e))
	type rect struct{ t0, t1, m0, m1 int64 }
	rs := make([]rect, 1, n)
	rs[0] = rect{0, 1 << 40, 0, 1 << 30}
	for len(rs) < n {
		k := rng.IntN(len(rs))
		r := rs[k]
		if rng.IntN(2) == 0 && r.t1-r.t0 > 1 {
			cut := r.t0 + 1 + rng.Int64N(r.t1-r.t0-1)
			rs[k].t1 = cut
			rs = append(rs, rect{cut, r.t1, r.m0, r.m1})
		} else if r.m1-r.m0 > 1 {
			cut := r.m0 + 1 + rng.Int64N(r.m1-r.m0-1)
			rs[k].m1 = cut
			rs = append(rs, rect{r.t0, r.t1, cut, r.m1})
		}
	}
	items := make([]planner.Item, n)
	for i, r := range rs {
		items[i] = planner.Item{Size: uint64(r.m1 - r.m0), Alignment: 1, Start: r.t0, End: r.t1}
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	return p
}

// timed is a strategy that records, per pool group, the exact strategy's
// wall time and what the greedy incumbents (first fit and best fit) cost
// on the same group.
type timed struct {
	s             *exact.Strategy
	solve, greedy time.Duration
	worst         time.Duration // the largest solve − greedy of a group
	// late is the largest Result.Elapsed − Result.Greedy − limit of a
	// group: Solve's own time past its greedy start plus the limit (the
	// issue's target: at most 10% of the limit), measured inside Solve
	// (no separate greedy run to compare with, so less sensitive to the
	// machine's load).
	late           time.Duration
	limit          time.Duration
	groups, search int
}

func (r *timed) Name() string { return "exact" }

func (r *timed) Place(p *planner.Problem) (*planner.Solution, error) {
	t0 := time.Now()
	if _, err := firstfit.New().Place(p); err != nil {
		return nil, err
	}
	if _, err := bestfit.New().Place(p); err != nil {
		return nil, err
	}
	t1 := time.Now()
	sol, res, err := r.s.Solve(p)
	t2 := time.Now()
	r.greedy += t1.Sub(t0)
	r.solve += t2.Sub(t1)
	r.worst = max(r.worst, t2.Sub(t1)-t1.Sub(t0))
	r.late = max(r.late, res.Elapsed-res.Greedy-r.limit)
	r.groups++
	if res.Stopped != "model" {
		r.search++
	}
	return sol, err
}

// BenchmarkTimeLimit measures how well the exact strategy keeps a 200 ms
// time limit on large problems: random frames of n commands
// (proptest.RandomGraph, and proptest.RandomFrame shaped like the shared
// random-*.json frames, with dense interference; planned group by group)
// and zero-waste tilings of n buffers. The target is a wall time per pool group within 1.1 ×
// the limit plus what the greedy incumbents cost; the metric
// excess-ms is the largest (solve − greedy) over the groups, to compare
// with 220 ms, and greedy-ms the greedy time of all groups; late-ms is
// the largest time a group's Solve ran past its own greedy start plus the
// limit, as Solve measures them (Result.Elapsed − Result.Greedy − limit;
// 0 when every group kept within it), to compare with 20 ms.
func BenchmarkTimeLimit(b *testing.B) {
	const limit = 200 * time.Millisecond
	for _, gen := range []struct {
		name string
		make func(uint64, int) *planner.Graph
	}{{"graph", proptest.RandomGraph}, {"frame", proptest.RandomFrame}} {
		for _, n := range []int{1000, 4000, 10000, 30000} {
			benchGraph(b, gen.name, n, gen.make(1, n), limit)
		}
	}
	for _, n := range []int{10_000, 200_000, 1_000_000} {
		p := tiling(1, n)
		b.Run(fmt.Sprintf("intervals/buffers=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			r := &timed{s: exact.New(exact.Options{TimeLimit: limit}), limit: limit}
			for b.Loop() {
				r.worst, r.late = 0, 0
				if _, err := r.Place(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.worst.Milliseconds()), "excess-ms")
			b.ReportMetric(float64(r.late.Milliseconds()), "late-ms")
			b.ReportMetric(float64(r.greedy.Milliseconds())/float64(b.N), "greedy-ms")
		})
	}
}

// benchGraph plans a random frame with the exact strategy under limit and
// reports the worst group's solve time minus its greedy time.
func benchGraph(b *testing.B, name string, n int, g *planner.Graph, limit time.Duration) {
	c, err := planner.Compile(g)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("%s/commands=%d", name, n), func(b *testing.B) {
		b.ReportAllocs()
		r := &timed{s: exact.New(exact.Options{TimeLimit: limit}), limit: limit}
		for b.Loop() {
			r.worst, r.late = 0, 0
			if _, err := planner.Place(c, planner.Options{Strategy: r, DedicatedThreshold: planner.DefaultDedicatedThreshold}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(r.worst.Milliseconds()), "excess-ms")
		b.ReportMetric(float64(r.late.Milliseconds()), "late-ms")
		b.ReportMetric(float64(r.greedy.Milliseconds())/float64(b.N), "greedy-ms")
	})
}
