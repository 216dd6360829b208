package exact

import (
	"github.com/aliasplan/aliasplan/planner"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTileProbe (ALIASPLAN_TILE=variant) runs the tiler alone on the
// perfect family: a diagnostic.
func TestTileProbe(t *testing.T) {
	if os.Getenv("ALIASPLAN_TILE") == "" {
		t.Skip("ALIASPLAN_TILE unset")
	}
	lim := 3 * time.Second
	if v := os.Getenv("ALIASPLAN_TILE_LIMIT"); v != "" {
		lim, _ = time.ParseDuration(v)
	}
	solved, total := 0, time.Duration(0)
	for _, n := range []int{2000, 3000} {
		for s := 1; s <= 8; s++ {
			p := perfectProblem(uint64(s), n, 100_000, 1<<22)
			for ci, items := range components(p, nil) {
				m := buildModel(p, items, true, nil)
				if os.Getenv("ALIASPLAN_TILE_REV") != "" {
					m = m.reversed()
				}
				C := uint64(1 << 22)
				if !zeroWaste(m, C) {
					t.Fatalf("n=%d s=%d not zero-waste", n, s)
				}
				tl := newTiler(m, C)
				v := os.Getenv("ALIASPLAN_TILE")
				tl.noMemo = strings.Contains(v, "nomemo")
				tl.noChain = strings.Contains(v, "nochain")
				start := time.Now()
				dead := start.Add(lim)
				tl.stop = func() bool { return time.Now().After(dead) }
				rank := make([]int32, len(m.size))
				var st status
				r := 0
				for k := 1; time.Now().Before(dead); k++ {
					tileRank(m, r, rank)
					r++
					st = tl.run(luby(k)*int64(len(m.size)), rank)
					if st != aborted {
						break
					}
				}
				el := time.Since(start)
				if st == found {
					solved++
					total += el
				} else {
					total += lim
				}
				t.Logf("n=%d s=%d comp %d items %d sections %d: st=%d restarts %d nodes %d %v", n, s, ci, len(items), m.ntime, st, r, tl.nodes, el.Round(time.Millisecond))
			}
		}
	}
	t.Logf("solved %d/16, time %v", solved, total.Round(time.Millisecond))
}

// TestTilerTiles: on generated zero-waste instances the tiler finds, for
// every component, a placement of peak C in which no two items that
// share a time section overlap (checked pairwise here, not by the
// tiler's own bookkeeping), in both time directions.
func TestTilerTiles(t *testing.T) {
	const C = 1 << 22
	for s := uint64(1); s <= 3; s++ {
		p := perfectProblem(s, 300, 100_000, C)
		for _, items := range components(p, nil) {
			m := buildModel(p, items, true, nil)
			if !zeroWaste(m, C) {
				t.Fatalf("seed %d: a component is not zero-waste", s)
			}
			for dir, mm := range []*model{m, m.reversed()} {
				tl := newTiler(mm, C)
				rank := make([]int32, len(m.size))
				st := aborted
				for k := 1; k <= 200 && st == aborted; k++ {
					tileRank(mm, k-1, rank)
					st = tl.run(luby(k)*int64(len(m.size)), rank)
				}
				if st != found {
					t.Fatalf("seed %d dir %d: %d items, no tiling (status %d)", s, dir, len(m.size), st)
				}
				for i := range m.size {
					if tl.off[i]+m.size[i] > C {
						t.Fatalf("seed %d: item %d ends at %d > %d", s, i, tl.off[i]+m.size[i], C)
					}
					for j := i + 1; j < len(m.size); j++ {
						timeMeet := m.sa[i] < m.sb[j] && m.sa[j] < m.sb[i]
						byteMeet := tl.off[i] < tl.off[j]+m.size[j] && tl.off[j] < tl.off[i]+m.size[i]
						if timeMeet && byteMeet {
							t.Fatalf("seed %d dir %d: items %d and %d overlap", s, dir, i, j)
						}
					}
				}
			}
		}
	}
}

// TestTilerInSolve: under a node limit, Solve proves a zero-waste
// instance of n = 2,000 optimal that the search alone leaves 4.3% above
// its bound at 30 s (the tiler's phase counts its nodes at
// 1/tileNodeCost).
func TestTilerInSolve(t *testing.T) {
	for s := uint64(2); s <= 2; s++ {
		p := perfectProblem(s, 2000, 100_000, 1<<22)
		_, res, err := New(Options{NodeLimit: 3000}).Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Optimal || res.Peak != 1<<22 {
			t.Errorf("seed %d: %v, want optimal at %d", s, res, 1<<22)
		}
	}
}

// TestTilerBeside: under a time limit the tiler runs on its own
// goroutine (tileasync.go) and its tiling ends the search: perfect
// n=2000 seed 2 is one the complete search leaves 4.3% above its bound
// at 30 s, and the driver's own tiler phase leaves the components the
// goroutine works on alone. Fails when the goroutine's tiling is not
// adopted (no "tiles" event) or not optimal. The limit only bounds a
// failing run: a passing one ends at the tiling.
func TestTilerBeside(t *testing.T) {
	p := perfectProblem(2, 2000, 100_000, 1<<22)
	posted := 0
	traceRun = func(k int, kind string, c uint64, st status, deep int, peak uint64) {
		if kind == "tiles" && st == found {
			posted++
		}
	}
	defer func() { traceRun = nil }()
	sol, res, err := New(Options{TimeLimit: time.Minute}).Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if !res.Optimal || res.Peak != 1<<22 || posted == 0 {
		t.Errorf("%v, %d tilings adopted; want optimal at %d from the goroutine", res, posted, 1<<22)
	}
}

// TestMirrored: the time-reversed problem has the same interference
// (every pair overlaps in both or in neither), so a placement of one is
// a placement of the other, and the portfolio's join takes the mirror's
// solution when its peak is lower, with the larger bound.
func TestMirrored(t *testing.T) {
	p := slackProblem(1, 200, 0.15)
	q := mirrored(p)
	if q == nil {
		t.Fatal("no mirror of an interval problem")
	}
	ov := func(a, b planner.Item) bool { return a.Start < b.End && b.Start < a.End }
	for i := range p.Items {
		for j := i + 1; j < len(p.Items); j++ {
			if ov(p.Items[i], p.Items[j]) != ov(q.Items[i], q.Items[j]) {
				t.Fatalf("items %d, %d: overlap differs in the mirror", i, j)
			}
		}
	}
	// The join: a mirror run whose placement (of q) is better.
	good, gres, err := New(Options{NodeLimit: 20000}).Solve(q)
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(p, Options{TimeLimit: time.Second}, time.Now)
	mr := &mirrorRun{done: make(chan struct{}), sol: good, res: gres}
	close(mr.done)
	d.mirror = mr
	worse := Result{Peak: gres.Peak + 1024, Bound: gres.Bound - 1024}
	sol, res := d.joinMirror(nil, worse)
	if sol != good || res.Peak != gres.Peak || res.Bound != min(gres.Bound, gres.Peak) || res.Optimal != (gres.Peak == gres.Bound) {
		t.Errorf("join: %v, want the mirror's %v", res, gres)
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		t.Errorf("the mirror's placement on p: %v", err)
	}
	// Both drivers at once under a time limit (the race detector sees
	// them): the answer is checked and no worse than the bound says.
	p2 := slackProblem(1, 500, 0.05)
	sol2, res2, err := New(Options{TimeLimit: 3 * time.Second}).Solve(p2)
	if err != nil {
		t.Fatal(err)
	}
	if err := planner.CheckSolution(p2, sol2); err != nil || res2.Peak < res2.Bound {
		t.Errorf("portfolio: %v, %v", res2, err)
	}
}
