package interval

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The fit rules (lowestFit, bestFit) are shared by Runs and Timeline;
// these tests hold Runs to a brute-force model.

func TestRunsFit(t *testing.T) {
	// occupied: [0,4) [6,8) [16,20) [40,64)  gaps: [4,6) [8,16) [20,40) [64,∞)
	s := Merge([]Range{{0, 4}, {6, 8}, {2, 3}, {16, 20}, {40, 64}})
	const big = 1 << 63
	tests := []struct {
		size, align uint64
		w           Range
		lowest      uint64
		lowestOK    bool
		best        uint64
		bestOK      bool
	}{
		{1, 1, Everything, 4, true, 4, true},
		{2, 1, Everything, 4, true, 4, true},       // exact fit
		{2, 8, Everything, 8, true, 8, true},       // [4,6) holds no multiple of 8
		{3, 1, Everything, 8, true, 8, true},       // [8,16) is the smallest gap that fits
		{9, 1, Everything, 20, true, 20, true},     // only [20,40) among holes
		{16, 16, Everything, 64, true, 64, true},   // aligned 32 leaves [32,40): too small
		{8, 16, Everything, 32, true, 32, true},    // [32,40)
		{21, 1, Everything, 64, true, 64, true},    // top
		{1, 1, Range{5, 100}, 5, true, 5, true},    // from inside a gap
		{2, 1, Range{5, 100}, 8, true, 8, true},    // gap clipped to [5,6)
		{30, 1, Range{0, 90}, 0, false, 0, false},  // top gap [64,90) clipped by the limit
		{26, 1, Range{0, 90}, 64, true, 64, true},  // exactly up to the limit
		{big, big, Everything, 0, false, 0, false}, // would end at 2^64
		{big - 64, big, Everything, big, true, big, true},
		{big, 1, Everything, 64, true, 64, true},
		{math.MaxUint64 - 64, 1, Everything, 64, true, 64, true},
		{math.MaxUint64 - 63, 1, Everything, 0, false, 0, false},
		{4, 1, Range{100, 50}, 0, false, 0, false},
	}
	for _, tt := range tests {
		off, ok := s.LowestFit(tt.size, tt.align, tt.w)
		if ok != tt.lowestOK || off != tt.lowest {
			t.Errorf("LowestFit(%d, %d, %v) = %d, %v; want %d, %v", tt.size, tt.align, tt.w, off, ok, tt.lowest, tt.lowestOK)
		}
		off, ok = s.BestFit(tt.size, tt.align, tt.w)
		if ok != tt.bestOK || off != tt.best {
			t.Errorf("BestFit(%d, %d, %v) = %d, %v; want %d, %v", tt.size, tt.align, tt.w, off, ok, tt.best, tt.bestOK)
		}
	}
	// Best fit differs from first fit when a lower gap is larger.
	b := Merge([]Range{{10, 20}, {23, 30}}) // gaps [0,10) [20,23) [30,∞)
	if off, _ := b.LowestFit(3, 1, Everything); off != 0 {
		t.Errorf("LowestFit = %d, want 0", off)
	}
	if off, _ := b.BestFit(3, 1, Everything); off != 20 {
		t.Errorf("BestFit = %d, want 20", off)
	}
	if off, _ := b.BestFit(4, 1, Everything); off != 0 {
		t.Errorf("BestFit(4) = %d, want 0", off)
	}
	if off, _ := b.BestFit(11, 1, Everything); off != 30 {
		t.Errorf("BestFit(11) = %d, want 30 (top)", off)
	}
}

func TestFitPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"size 0":    func() { Runs(nil).LowestFit(0, 1, Everything) },
		"align 0":   func() { Runs(nil).BestFit(1, 0, Everything) },
		"align 3":   func() { Runs(nil).LowestFit(1, 3, Everything) },
		"slots 0":   func() { NewTimeline(0) },
		"life out":  func() { NewTimeline(4).Insert(Range{2, 5}, Range{0, 1}) },
		"life none": func() { NewTimeline(4).LowestFit(Range{2, 2}, 1, 1, Everything) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// model is a brute-force multiset of ranges over offsets [0, modelSize):
// the depth of every offset.
type model [64]int

const modelSize = 64

func (m *model) lowest(size, align uint64, w Range) (uint64, bool) {
	for off := uint64(0); off+size <= modelSize; off += align {
		if off >= w.Start && off+size <= w.End && m.free(off, off+size) {
			return off, true
		}
	}
	return 0, false
}

func (m *model) free(a, b uint64) bool {
	for x := a; x < b; x++ {
		if x < modelSize && m[x] > 0 {
			return false
		}
	}
	return true
}

// best is a brute-force BestFit for windows with End <= modelSize.
func (m *model) best(size, align uint64, w Range) (uint64, bool) {
	var best, bestLen uint64
	found := false
	for x := w.Start; x < w.End; {
		if m[x] > 0 {
			x++
			continue
		}
		e := x
		for e < w.End && m[e] == 0 {
			e++
		}
		top := m.free(e, modelSize)
		off, _ := AlignUp(x, align)
		if off+size <= e {
			l := e - x
			if top {
				l = math.MaxUint64
			}
			if !found || l < bestLen {
				best, bestLen, found = off, l, true
			}
		}
		x = e
	}
	return best, found
}

// TestRunsRandom holds Runs (Merge of the live ranges, which may overlap
// and repeat) to the model: the same lowest and best fits in random
// windows, for random sizes and alignments.
func TestRunsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var m model
		var live []Range
		for step := 0; step < 60; step++ {
			if len(live) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(live))
				r := live[k]
				live = append(live[:k], live[k+1:]...)
				for x := r.Start; x < r.End; x++ {
					m[x]--
				}
			} else {
				a := rng.Uint64N(modelSize - 1)
				r := Range{a, a + 1 + rng.Uint64N(min(12, modelSize-a))}
				live = append(live, r)
				for x := r.Start; x < r.End; x++ {
					m[x]++
				}
			}
			rs := Merge(append([]Range(nil), live...))
			size := 1 + rng.Uint64N(10)
			align := uint64(1) << rng.IntN(4)
			from := rng.Uint64N(modelSize)
			w := Range{from, from + rng.Uint64N(modelSize-from+1)}
			got, gok := rs.LowestFit(size, align, w)
			want, wok := m.lowest(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("LowestFit(%d, %d, %v) = %d, %v; want %d, %v; runs %v", size, align, w, got, gok, want, wok, rs)
			}
			got, gok = rs.BestFit(size, align, w)
			want, wok = m.best(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("BestFit(%d, %d, %v) = %d, %v; want %d, %v; runs %v", size, align, w, got, gok, want, wok, rs)
			}
		}
	}
}

func equalRanges(a, b []Range) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMergeRuns(t *testing.T) {
	rs := Merge([]Range{{10, 12}, {0, 2}, {3, 3}, {1, 4}, {4, 5}, {20, 30}, {25, 26}})
	if want := []Range{{0, 5}, {10, 12}, {20, 30}}; !equalRanges(rs, want) {
		t.Fatalf("Merge = %v, want %v", rs, want)
	}
	if off, ok := rs.LowestFit(5, 1, Everything); !ok || off != 5 {
		t.Errorf("LowestFit(5) = %d, %v", off, ok)
	}
	if off, ok := rs.LowestFit(6, 1, Everything); !ok || off != 12 {
		t.Errorf("LowestFit(6) = %d, %v", off, ok)
	}
	if off, ok := rs.BestFit(4, 1, Everything); !ok || off != 5 { // [5,10) is smaller than [12,20)
		t.Errorf("BestFit(4) = %d, %v", off, ok)
	}
	if off, ok := rs.BestFit(6, 1, Everything); !ok || off != 12 {
		t.Errorf("BestFit(6) = %d, %v", off, ok)
	}
	if off, ok := Runs(nil).LowestFit(3, 8, Range{1, 100}); !ok || off != 8 {
		t.Errorf("empty LowestFit = %d, %v", off, ok)
	}
}
