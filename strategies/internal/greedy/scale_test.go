package greedy

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// tiling cuts the rectangle time [0, 4n) × memory [0, 2^40) into n
// rectangles by random guillotine cuts (memory cuts at multiples of 256
// bytes): each rectangle is an item, so the optimum peak is exactly 2^40
// with zero waste, the case greedy packings find hardest. Items are
// shuffled so that no order comes for free.
func tiling(seed uint64, n int) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0xa54ff53a5f1d36f1))
	type rect struct {
		t0, t1 int64
		m0, m1 uint64 // in units of 256 bytes
	}
	rs := make([]rect, 1, n)
	rs[0] = rect{0, 4 * int64(n), 0, 1 << 32}
	for len(rs) < n {
		k := rng.IntN(len(rs))
		r := rs[k]
		dt, dm := r.t1-r.t0, r.m1-r.m0
		switch {
		case dt > 1 && (dm <= 1 || rng.IntN(2) == 0):
			cut := r.t0 + 1 + rng.Int64N(dt-1)
			rs[k].t1 = cut
			rs = append(rs, rect{cut, r.t1, r.m0, r.m1})
		case dm > 1:
			cut := r.m0 + 1 + rng.Uint64N(dm-1)
			rs[k].m1 = cut
			rs = append(rs, rect{r.t0, r.t1, cut, r.m1})
		}
	}
	rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
	items := make([]planner.Item, n)
	for i, r := range rs {
		items[i] = planner.Item{Size: (r.m1 - r.m0) * 256, Alignment: 256, Start: r.t0, End: r.t1}
	}
	return items
}

// TestTiling checks the generator: the max load is exactly the rectangle's
// height, so the bound is the optimum.
func TestTiling(t *testing.T) {
	for _, n := range []int{1, 2, 10, 1000} {
		if got := planner.MaxLoad(tiling(1, n)); got != 1<<40 {
			t.Errorf("n=%d: max load %d, want %d", n, got, uint64(1)<<40)
		}
	}
}

// intervalScaleSizes are BenchmarkIntervalScale's sizes;
// ALIASPLAN_INTERVAL_SCALE (a comma-separated list, e.g. 1000000)
// overrides them for the large runs of docs/performance.md.
var intervalScaleSizes = func() []int {
	s := os.Getenv("ALIASPLAN_INTERVAL_SCALE")
	if s == "" {
		return []int{200000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}()

// BenchmarkIntervalScale places large zero-waste tilings with each fit
// rule and the strategies' orders, and reports the peak above the optimum
// (gap-%). Peak memory is measured around the test binary with
// /usr/bin/time (docs/performance.md).
func BenchmarkIntervalScale(b *testing.B) {
	for _, n := range intervalScaleSizes {
		p, err := planner.NewIntervalProblem(tiling(7, n), 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, fit := range fits {
			b.Run(fmt.Sprintf("n=%d/fit=%v", n, fit), func(b *testing.B) {
				b.ReportAllocs()
				var sol *planner.Solution
				for b.Loop() {
					if sol, err = Place("bench", p, fit, Size, Load, SizeClass); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(100*(float64(sol.Peak())/float64(uint64(1)<<40)-1), "gap-%")
			})
		}
	}
}
