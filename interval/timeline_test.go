package interval

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

type rect struct{ life, r Range }

// bruteOccupied returns a model of the offsets that rectangles overlapping
// life occupy.
func bruteOccupied(rs []rect, life Range) *model {
	var m model
	for _, q := range rs {
		if q.life.Overlaps(life) {
			for x := q.r.Start; x < q.r.End && x < modelSize; x++ {
				m[x]++
			}
		}
	}
	return &m
}

func TestTimelineRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 100; round++ {
		slots := 1 + rng.IntN(40)
		if round%4 == 0 { // deeper trees, several chunks of nodes
			slots = 1 + rng.IntN(1000)
		}
		tl := NewTimeline(slots)
		var rs []rect
		for step := 0; step < 50; step++ {
			a := rng.Uint64N(uint64(slots))
			life := Range{a, a + 1 + rng.Uint64N(uint64(slots)-a)}
			o := rng.Uint64N(modelSize - 1)
			r := Range{o, o + 1 + rng.Uint64N(min(10, modelSize-o))}
			tl.Insert(life, r)
			rs = append(rs, rect{life, r})

			a = rng.Uint64N(uint64(slots))
			q := Range{a, a + 1 + rng.Uint64N(uint64(slots)-a)}
			m := bruteOccupied(rs, q)
			size := 1 + rng.Uint64N(8)
			align := uint64(1) << rng.IntN(3)
			from := rng.Uint64N(modelSize)
			w := Range{from, from + rng.Uint64N(modelSize-from+1)}
			got, gok := tl.LowestFit(q, size, align, w)
			want, wok := m.lowest(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("round %d: LowestFit(%v, %d, %d, %v) = %d, %v; want %d, %v", round, q, size, align, w, got, gok, want, wok)
			}
			got, gok = tl.BestFit(q, size, align, w)
			want, wok = m.best(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("round %d: BestFit(%v, %d, %d, %v) = %d, %v; want %d, %v", round, q, size, align, w, got, gok, want, wok)
			}
			var runs []Range
			tl.AscendOccupied(q, w, func(r Range) bool { runs = append(runs, r); return true })
			var wantRuns []Range
			for x := w.Start; x < w.End; x++ {
				if m[x] == 0 {
					continue
				}
				if k := len(wantRuns) - 1; k >= 0 && wantRuns[k].End == x {
					wantRuns[k].End++
				} else {
					wantRuns = append(wantRuns, Range{x, x + 1})
				}
			}
			if !equalRanges(runs, wantRuns) {
				t.Fatalf("round %d: AscendOccupied(%v, %v) = %v, want %v", round, q, w, runs, wantRuns)
			}
		}
		if tl.Len() != 50 || tl.Slots() != slots {
			t.Fatalf("Len %d Slots %d", tl.Len(), tl.Slots())
		}
	}
}

func TestTimelineHuge(t *testing.T) {
	tl := NewTimeline(3)
	const big = 1 << 62
	tl.Insert(Range{0, 2}, Range{0, 3 * big})
	off, ok := tl.LowestFit(Range{1, 3}, big-1, 1, Everything)
	if !ok || off != 3*big {
		t.Errorf("LowestFit = %d, %v; want %d", off, ok, uint64(3*big))
	}
	if _, ok := tl.LowestFit(Range{1, 3}, big, 1, Everything); ok {
		t.Error("a block ending at 2^64 fitted")
	}
	off, ok = tl.BestFit(Range{2, 3}, 2*big, 2*big, Everything)
	if !ok || off != 0 {
		t.Errorf("BestFit on a free slot = %d, %v", off, ok)
	}
}

func ExampleTimeline() {
	// Three buffers over time slots [0, 4): a lives in [0, 2), b in [2, 4).
	tl := NewTimeline(4)
	tl.Insert(Range{0, 2}, Range{0, 100})   // a
	tl.Insert(Range{2, 4}, Range{100, 150}) // b
	// c lives in [1, 3): it overlaps both.
	off, _ := tl.LowestFit(Range{1, 3}, 40, 1, Everything)
	fmt.Println("c:", off)
	// d lives in [3, 4): only b is live, so d reuses a's bytes.
	off, _ = tl.LowestFit(Range{3, 4}, 100, 1, Everything)
	fmt.Println("d:", off)
	// Output:
	// c: 150
	// d: 0
}

// TestTimelineManyRuns grows node run sets past smallRuns, so that they
// move to btrees and queries read them through batched cursors, and
// checks every query against the merged runs of the overlapping
// rectangles (Runs, a single sorted slice).
func TestTimelineManyRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const slots, n = 6, 3 * smallRuns
	tl := NewTimeline(slots)
	var rs []rect
	for step := 0; step < n; step++ {
		a := rng.Uint64N(slots)
		life := Range{a, a + 1 + rng.Uint64N(slots-a)}
		// Odd gaps between blocks keep most runs apart.
		o := 3 * rng.Uint64N(2*n)
		r := Range{o, o + 1 + rng.Uint64N(2)}
		tl.Insert(life, r)
		rs = append(rs, rect{life, r})
		if step%16 != 0 && step < n-4 {
			continue
		}
		for range 8 {
			a := rng.Uint64N(slots)
			q := Range{a, a + 1 + rng.Uint64N(slots-a)}
			var occ []Range
			for _, x := range rs {
				if x.life.Overlaps(q) {
					occ = append(occ, x.r)
				}
			}
			want := Merge(occ)
			size := 1 + rng.Uint64N(4)
			align := uint64(1) << rng.IntN(2)
			from := rng.Uint64N(6 * n)
			w := Range{from, from + rng.Uint64N(6*n-from+1)}
			got, gok := tl.LowestFit(q, size, align, w)
			wnt, wok := want.LowestFit(size, align, w)
			if got != wnt || gok != wok {
				t.Fatalf("step %d: LowestFit(%v, %d, %d, %v) = %d, %v; want %d, %v", step, q, size, align, w, got, gok, wnt, wok)
			}
			got, gok = tl.BestFit(q, size, align, w)
			wnt, wok = want.BestFit(size, align, w)
			if got != wnt || gok != wok {
				t.Fatalf("step %d: BestFit(%v, %d, %d, %v) = %d, %v; want %d, %v", step, q, size, align, w, got, gok, wnt, wok)
			}
			var runs, wantRuns []Range
			tl.AscendOccupied(q, w, func(r Range) bool { runs = append(runs, r); return true })
			for _, r := range want {
				if r = r.Intersect(w); !r.Empty() {
					wantRuns = append(wantRuns, r)
				}
			}
			if !equalRanges(runs, wantRuns) {
				t.Fatalf("step %d: AscendOccupied(%v, %v) = %v, want %v", step, q, w, runs, wantRuns)
			}
		}
	}
	big := 0
	for _, c := range tl.chunks {
		if c == nil {
			continue
		}
		for i := range c {
			if c[i].sub.big != nil {
				big++
			}
		}
	}
	if big == 0 {
		t.Fatalf("no run set reached %d runs: the test does not exercise the btrees", smallRuns)
	}
}
