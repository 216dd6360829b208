package exact

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// perfectProblem is an instance of the zero-waste family of
// ../shared/data/perfect: the rectangle [0, T) time × [0, C) bytes cut by
// random guillotine cuts (no grid) into n rectangles, each a buffer. Its
// optimum is C, the lower bound.
func perfectProblem(seed uint64, n int, T, C int64) *planner.Problem {
	rng := rand.New(rand.NewPCG(seed, 0x9e7f))
	type rect struct{ t0, t1, m0, m1 int64 }
	rs := make([]rect, 1, n)
	rs[0] = rect{0, T, 0, C}
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

// family is one generated instance with the capacity it was cut from.
type family struct {
	name string
	p    *planner.Problem
	c    uint64
}

// families returns the generated instances of both families at size n:
// slack (5–30% removed) and zero-waste.
func families(n int, seeds int) []family {
	var out []family
	first := 1
	if v := os.Getenv("ALIASPLAN_FAMILIES_SEED"); v != "" {
		// Fresh instances of the same families: seeds first, first+1, ...
		fmt.Sscan(v, &first)
	}
	for s := first; s < first+seeds; s++ {
		frac := []float64{0.05, 0.15, 0.3, 0.2}[(s-1)%4]
		out = append(out, family{fmt.Sprintf("slack/n=%d/seed=%d", n, s), slackProblem(uint64(s), n, frac), 1 << 20})
	}
	for s := first; s < first+seeds; s++ {
		out = append(out, family{fmt.Sprintf("perfect/n=%d/seed=%d", n, s), perfectProblem(uint64(s), n, 100_000, 1<<22), 1 << 22})
	}
	return out
}

// TestFamiliesReport (ALIASPLAN_FAMILIES=seconds) solves the generated
// families at n = 500 … 3000 under a time limit and logs peak, bound and
// gap to the capacity. It asserts nothing: it is a measurement.
func TestFamiliesReport(t *testing.T) {
	secs := os.Getenv("ALIASPLAN_FAMILIES")
	if secs == "" {
		t.Skip("ALIASPLAN_FAMILIES unset")
	}
	lim, err := time.ParseDuration(secs)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{500, 1000, 2000, 3000}
	seeds, err := familySeeds()
	if err != nil {
		t.Fatal(err)
	}
	// ALIASPLAN_FAMILIES_SHARD=j/k solves only the problems whose index in
	// the list (sizes ascending, slack before perfect, seeds ascending) is
	// j modulo k: scripts/exact-families.sh runs k shards side by side,
	// each pinned to its own cores.
	shard, shards, err := parseShard(os.Getenv("ALIASPLAN_FAMILIES_SHARD"))
	if err != nil {
		t.Fatal(err)
	}
	index := -1
	for _, n := range sizes {
		for _, f := range families(n, seeds) {
			index++
			if index%shards != shard {
				continue
			}
			if pats := os.Getenv("ALIASPLAN_FAMILY"); pats != "" {
				// Comma-separated patterns: any may match.
				hit := false
				for _, pat := range strings.Split(pats, ",") {
					if ok, _ := filepath.Match(pat, f.name); ok {
						hit = true
					}
				}
				if !hit {
					continue
				}
			}
			opts := Options{TimeLimit: lim}
			if os.Getenv("ALIASPLAN_FAMILIES_CAPACITY") != "" {
				// Capacity mode: does it fit in the capacity it was cut from?
				opts.Capacity = f.c
			}
			_, res, err := New(opts).Solve(f.p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("#%02d %-26s n=%d peak %d target %d (%+.2f%%) bound %d %v", index, f.name, len(f.p.Items), res.Peak, f.c,
				100*(float64(res.Peak)/float64(f.c)-1), res.Bound, res)
		}
	}
}

// familySeeds reads ALIASPLAN_FAMILIES_SEEDS: how many seeds of each
// family and size (seeds first … first+seeds−1; default 2).
func familySeeds() (int, error) {
	v := os.Getenv("ALIASPLAN_FAMILIES_SEEDS")
	if v == "" {
		return 2, nil
	}
	var seeds int
	var rest string
	if n, _ := fmt.Sscanf(v, "%d%s", &seeds, &rest); n != 1 || seeds < 1 {
		return 0, fmt.Errorf("ALIASPLAN_FAMILIES_SEEDS=%q: want a count ≥ 1", v)
	}
	return seeds, nil
}

// parseShard reads ALIASPLAN_FAMILIES_SHARD ("j/k", 0 ≤ j < k; empty: the
// whole list, 0/1).
func parseShard(v string) (j, k int, err error) {
	if v == "" {
		return 0, 1, nil
	}
	var rest string
	if n, _ := fmt.Sscanf(v, "%d/%d%s", &j, &k, &rest); n != 2 || k < 1 || j < 0 || j >= k {
		return 0, 0, fmt.Errorf("ALIASPLAN_FAMILIES_SHARD=%q: want j/k with 0 ≤ j < k", v)
	}
	return j, k, nil
}

// TestParseShard: the shard selector accepts j/k and names the rule otherwise.
func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		v    string
		j, k int
		ok   bool
	}{{"", 0, 1, true}, {"0/1", 0, 1, true}, {"3/8", 3, 8, true}, {"8/8", 0, 0, false}, {"-1/4", 0, 0, false},
		{"1/0", 0, 0, false}, {"x", 0, 0, false}, {"1/4x", 0, 0, false}, {"1", 0, 0, false}} {
		j, k, err := parseShard(c.v)
		if (err == nil) != c.ok || (c.ok && (j != c.j || k != c.k)) {
			t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d, ok %v", c.v, j, k, err, c.j, c.k, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "ALIASPLAN_FAMILIES_SHARD") {
			t.Errorf("parseShard(%q): error %q does not name the variable", c.v, err)
		}
	}
}

// TestFamiliesNodes (ALIASPLAN_FAMILIES_NODES=N) logs node-limited results:
// a fingerprint to compare two versions of the search.
func TestFamiliesNodes(t *testing.T) {
	lim := os.Getenv("ALIASPLAN_FAMILIES_NODES")
	if lim == "" {
		t.Skip("ALIASPLAN_FAMILIES_NODES unset")
	}
	var nodes int64
	fmt.Sscan(lim, &nodes)
	sizes := []int{300, 1000}
	pat := os.Getenv("ALIASPLAN_FAMILY")
	if pat != "" {
		// One problem (a filepath.Match pattern) of any size.
		sizes = []int{300, 500, 1000, 2000, 3000}
	}
	for _, n := range sizes {
		for _, f := range families(n, 2) {
			if ok, _ := filepath.Match(pat, f.name); pat != "" && !ok {
				continue
			}
			_, res, err := New(Options{NodeLimit: nodes}).Solve(f.p)
			if err != nil {
				t.Fatal(err)
			}
			res.Elapsed = 0
			t.Logf("%-26s %v", f.name, res)
		}
	}
}

// BenchmarkFamilies solves the generated slack and zero-waste families at
// n = 500 … 3000 (seeds 1–2 of each) under a node limit (so every run does
// the same work) and reports how many reach the capacity they were cut
// from (solved) and the mean gap to the lower bound (gap-%).
// ALIASPLAN_FAMILIES_LIMIT (a duration) replaces the node limit by a time
// limit: docs/exact.md's tables come from it (ALIASPLAN_FAMILIES_SEEDS=4
// for seeds 1–4, as there).
func BenchmarkFamilies(b *testing.B) {
	opts := Options{NodeLimit: 20_000}
	if v := os.Getenv("ALIASPLAN_FAMILIES_LIMIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		opts = Options{TimeLimit: d}
	}
	seeds, err := familySeeds()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{500, 1000, 2000, 3000} {
		fs := families(n, seeds)
		for _, kind := range []string{"slack", "perfect"} {
			b.Run(fmt.Sprintf("%s/n=%d", kind, n), func(b *testing.B) {
				var solved, runs int
				var gap float64
				for b.Loop() {
					for _, f := range fs {
						if f.name[:len(kind)] != kind {
							continue
						}
						_, res, err := New(opts).Solve(f.p)
						if err != nil {
							b.Fatal(err)
						}
						runs++
						if res.Peak <= f.c {
							solved++
						}
						gap += 100 * res.Gap()
					}
				}
				b.ReportMetric(float64(solved)/float64(b.N), "solved")
				b.ReportMetric(gap/float64(runs), "gap-%")
			})
		}
	}
}
