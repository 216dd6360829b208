package exact

import (
	"fmt"
	"maps"
	"slices"

	"github.com/aliasplan/aliasplan/planner"
	"os"
	"testing"
	"time"
)

// TestWasteTileProbe (ALIASPLAN_WTILE=1) runs the waste tiler alone on
// the slack family at its capacity: a diagnostic.
func TestWasteTileProbe(t *testing.T) {
	if os.Getenv("ALIASPLAN_WTILE") == "" {
		t.Skip("ALIASPLAN_WTILE unset")
	}
	lim := 3 * time.Second
	if v := os.Getenv("ALIASPLAN_WTILE_LIMIT"); v != "" {
		lim, _ = time.ParseDuration(v)
	}
	for _, n := range wtileSizes() {
		for s := 1; s <= 4; s++ {
			frac := []float64{0.05, 0.15, 0.3, 0.2}[(s-1)%4]
			p := slackProblem(uint64(s), n, frac)
			for ci, items := range components(p, nil) {
				m := buildModel(p, items, true, nil)
				C := uint64(1 << 20)
				if !tileable(m, C) {
					t.Fatalf("n=%d s=%d not tileable", n, s)
				}
				tl := [2]*tiler{newWasteTiler(m, C), newWasteTiler(m.reversed(), C)}
				for _, x := range tl {
					x.wholeHole = os.Getenv("ALIASPLAN_WTILE") == "whole"
					x.prop = os.Getenv("ALIASPLAN_WTILE_PROP") != ""
					fmt.Sscan(os.Getenv("ALIASPLAN_WTILE_STEP"), &x.holeStep)
				}
				start := time.Now()
				dead := start.Add(lim)
				rank := make([]int32, len(m.size))
				var st status
				r, deep := 0, 0
				for k := 0; time.Now().Before(dead); k++ {
					x := tl[k%2]
					x.stop = func() bool { return time.Now().After(dead) }
					tileRank(m, k/2, rank)
					r++
					st = x.run(luby(k/2+1)*int64(len(m.size)), rank)
					deep = max(deep, x.deep)
					if st == found {
						break
					}
				}
				best := uint64(0)
				if st != found {
					rep := newRepairer(m)
					best = rep.complete(tl[0].deepOff, tl[0].deepPlaced, nil, true)
					rep2 := newRepairer(tl[1].m)
					best = min(best, rep2.complete(tl[1].deepOff, tl[1].deepPlaced, nil, true))
				}
				t.Logf("n=%d s=%d comp %d items %d sections %d: st=%d restarts %d nodes %d deep %d repair %+.2f%% %v", n, s, ci, len(items), m.ntime, st, r, tl[0].nodes+tl[1].nodes, deep, 100*(float64(best)/float64(C)-1), time.Since(start).Round(time.Millisecond))
			}
		}
	}
}

func wtileSizes() []int {
	if v := os.Getenv("ALIASPLAN_WTILE_N"); v != "" {
		var n int
		fmt.Sscan(v, &n)
		return []int{n}
	}
	return []int{500, 1000, 2000, 3000}
}

// phantomProblem adds to p, an interval problem every time of which
// holds at most C, phantom items that fill every time segment to C:
// slab (the recursive-minimum decomposition of the waste profile) or
// steps (one phantom per run of equal waste).
func phantomProblem(p *planner.Problem, C uint64, slab bool) *planner.Problem {
	ev := map[int64]bool{}
	for _, it := range p.Items {
		ev[it.Start], ev[it.End] = true, true
	}
	ts := slices.Sorted(maps.Keys(ev))
	w := make([]int64, len(ts)-1)
	for k := range w {
		w[k] = int64(C)
	}
	for _, it := range p.Items {
		a, _ := slices.BinarySearch(ts, it.Start)
		b, _ := slices.BinarySearch(ts, it.End)
		for k := a; k < b; k++ {
			w[k] -= int64(it.Size)
		}
	}
	items := append([]planner.Item(nil), p.Items...)
	add := func(a, b int, h int64) {
		items = append(items, planner.Item{Size: uint64(h), Alignment: 1, Start: ts[a], End: ts[b]})
	}
	if slab {
		var rec func(l, r int)
		rec = func(l, r int) {
			for l < r {
				for l < r && w[l] == 0 {
					l++
				}
				e := l
				for e < r && w[e] > 0 {
					e++
				}
				if l == e {
					return
				}
				h := w[l]
				for k := l; k < e; k++ {
					h = min(h, w[k])
				}
				add(l, e, h)
				for k := l; k < e; k++ {
					w[k] -= h
				}
				rec(l, e)
				l = e
			}
		}
		rec(0, len(w))
	} else {
		for k := 0; k < len(w); {
			e := k
			for e < len(w) && w[e] == w[k] {
				e++
			}
			if w[k] > 0 {
				add(k, e, w[k])
			}
			k = e
		}
	}
	q, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	return q
}

func TestPhantomTileProbe(t *testing.T) {
	if os.Getenv("ALIASPLAN_PTILE") == "" {
		t.Skip("ALIASPLAN_PTILE unset")
	}
	lim := 3 * time.Second
	if v := os.Getenv("ALIASPLAN_WTILE_LIMIT"); v != "" {
		lim, _ = time.ParseDuration(v)
	}
	slab := os.Getenv("ALIASPLAN_PTILE") == "slab"
	for _, n := range wtileSizes() {
		for s := 1; s <= 4; s++ {
			frac := []float64{0.05, 0.15, 0.3, 0.2}[(s-1)%4]
			p0 := slackProblem(uint64(s), n, frac)
			C := uint64(1 << 20)
			p := phantomProblem(p0, C, slab)
			for ci, items := range components(p, nil) {
				m := buildModel(p, items, true, nil)
				if !zeroWaste(m, C) {
					t.Fatalf("n=%d s=%d not zero-waste", n, s)
				}
				tl := [2]*tiler{newTiler(m, C), newTiler(m.reversed(), C)}
				start := time.Now()
				dead := start.Add(lim)
				rank := make([]int32, len(m.size))
				var st status
				r := 0
				for k := 0; time.Now().Before(dead); k++ {
					x := tl[k%2]
					x.stop = func() bool { return time.Now().After(dead) }
					tileRank(m, k/2, rank)
					r++
					st = x.run(luby(k/2+1)*int64(len(m.size)), rank)
					if st != aborted {
						break
					}
				}
				t.Logf("n=%d s=%d comp %d items %d (phantoms %d) sections %d: st=%d restarts %d nodes %d %v", n, s, ci, len(items), len(p.Items)-len(p0.Items), m.ntime, st, r, tl[0].nodes+tl[1].nodes, time.Since(start).Round(time.Millisecond))
			}
		}
	}
}
