package exact

import (
	"fmt"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDiag13(t *testing.T) {
	name := os.Getenv("ALIASPLAN_DIAG")
	if name == "" {
		t.Skip("unset")
	}
	lim, _ := time.ParseDuration(os.Getenv("ALIASPLAN_FAMILIES"))
	for _, n := range []int{500, 1000, 2000, 3000} {
		for _, f := range families(n, 2) {
			if f.name != name {
				continue
			}
			sol, res, err := New(Options{TimeLimit: lim}).Solve(f.p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v", res)
			t.Logf("ruin: drops %d flat %d over %d moves %d", ruinStats[0].Load(), ruinStats[1].Load(), ruinStats[2].Load(), ruinStats[3].Load())
			items := f.p.Items
			if d := os.Getenv("ALIASPLAN_DUMP"); d != "" {
				var b []byte
				for _, o := range sol.Offset {
					b = fmt.Appendf(b, "%d\n", o)
				}
				os.WriteFile(d, b, 0o644)
			}
			var pts []int64
			for _, it := range items {
				pts = append(pts, it.Start, it.End)
			}
			slices.Sort(pts)
			pts = slices.Compact(pts)
			C := f.c
			nabove := 0
			for i, it := range items {
				if sol.Offset[i]+it.Size > C {
					nabove++
					t.Logf("above: item %d size %d [%d,%d) off %d end %d", i, it.Size, it.Start, it.End, sol.Offset[i], sol.Offset[i]+it.Size)
				}
			}
			t.Logf("%d items above C", nabove)
			for k := 0; k+1 < len(pts); k++ {
				a := pts[k]
				var load, top uint64
				var nit int
				for i, it := range items {
					if it.Start <= a && a < it.End {
						load += it.Size
						top = max(top, sol.Offset[i]+it.Size)
						nit++
					}
				}
				t.Logf("sec %4d t=%8d load %7d waste %6d top %7d over %6d items %d", k, a, load, int64(C)-int64(load), top, int64(top)-int64(C), nit)
			}
		}
	}
}

func TestRuinProbe13(t *testing.T) {
	if os.Getenv("ALIASPLAN_RPROBE") == "" {
		t.Skip("unset")
	}
	var work int64 = 300000
	fmt.Sscan(os.Getenv("ALIASPLAN_RPROBE"), &work)
	for _, pc := range []struct {
		n    int
		seed uint64
	}{{1000, 1}, {1000, 5}, {1000, 9}, {2000, 1}, {3000, 1}} {
		if f := os.Getenv("ALIASPLAN_RPN"); f != "" && f != fmt.Sprint(pc.n) {
			continue
		}
		p := slackProblem(pc.seed, pc.n, 0.05)
		parts := components(p, nil)
		ff, _ := firstfit.New().Place(p)
		if d := os.Getenv("ALIASPLAN_LOAD"); d != "" {
			b, _ := os.ReadFile(fmt.Sprintf(d, pc.n, pc.seed))
			for i, l := range strings.Fields(string(b)) {
				fmt.Sscan(l, &ff.Offset[i])
			}
		}
		for _, items := range parts {
			if len(items) < bandItems {
				continue
			}
			m := buildModel(p, items, true, nil)
			c := &comp{m: m, s: newSearch(m), best: make([]uint64, len(m.size)), lower: m.maxLoad}
			for mi, pi := range m.orig {
				c.best[mi] = ff.Offset[pi]
				c.peak = max(c.peak, c.best[mi]+m.size[mi])
			}
			start := c.peak
			st := time.Now()
			never := func() bool { return false }
			if os.Getenv("ALIASPLAN_RPWIN") != "" {
				for k := 0; k < 20; k++ {
					c.ruin(work/20, never)
					c.window(work/40, never)
					if c.ruins != nil {
						c.ruins.area = 0
					}
				}
			} else {
				c.ruin(work, never)
			}
			r := c.ruins
			t.Logf("n=%d s%d comp %d: %d -> %d (+%.2f%% over bound %d) moves %d over %d same %d rot %d %.1fs", pc.n, pc.seed, len(items), start, c.peak,
				100*(float64(c.peak)/float64(m.maxLoad)-1), m.maxLoad, r.moves, r.over, r.same, r.rotations, time.Since(st).Seconds())
		}
	}
}

func TestCuts13(t *testing.T) {
	d := os.Getenv("ALIASPLAN_LOAD")
	if d == "" {
		t.Skip("unset")
	}
	for _, pc := range []struct {
		n    int
		seed uint64
	}{{1000, 1}, {1000, 5}, {1000, 9}, {2000, 1}, {3000, 1}} {
		p := slackProblem(pc.seed, pc.n, 0.05)
		b, _ := os.ReadFile(fmt.Sprintf(d, pc.n, pc.seed))
		off := make([]uint64, len(p.Items))
		for i, l := range strings.Fields(string(b)) {
			fmt.Sscan(l, &off[i])
		}
		var U uint64
		for i, it := range p.Items {
			U = max(U, off[i]+it.Size)
		}
		// clean cuts: levels y in (0, U) crossed by no item
		var ys []uint64
		for i := range p.Items {
			ys = append(ys, off[i])
		}
		slices.Sort(ys)
		ys = slices.Compact(ys)
		var cuts []string
		for _, y := range ys {
			if y == 0 {
				continue
			}
			ok := true
			above := 0
			for i, it := range p.Items {
				if off[i] < y && y < off[i]+it.Size {
					ok = false
					break
				}
				if off[i] >= y {
					above++
				}
			}
			if ok {
				cuts = append(cuts, fmt.Sprintf("%d(%d above)", y, above))
			}
		}
		t.Logf("n=%d s%d U=%d cuts %v", pc.n, pc.seed, U, cuts)
		for i, it := range p.Items {
			if off[i]+it.Size > 1<<20 {
				t.Logf("  above C: item %d size %d life %.1f%% of time, off %d end %d", i, it.Size, 100*float64(it.End-it.Start)/float64(1<<20), off[i], off[i]+it.Size)
			}
		}
	}
}
