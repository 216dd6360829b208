package interval

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSetInsertDelete(t *testing.T) {
	type op struct {
		del bool
		r   Range
		ok  bool // Delete's result
	}
	ins := func(a, b uint64) op { return op{r: Range{a, b}} }
	del := func(a, b uint64, ok bool) op { return op{del: true, r: Range{a, b}, ok: ok} }
	tests := []struct {
		name string
		ops  []op
		want string
		len  int
	}{
		{"empty", nil, "{}", 0},
		{"one", []op{ins(2, 5)}, "{[2, 5)x1}", 1},
		{"empty range ignored", []op{ins(3, 3), ins(4, 2)}, "{}", 0},
		{"disjoint", []op{ins(6, 8), ins(0, 2)}, "{[0, 2)x1 [6, 8)x1}", 2},
		{"touching", []op{ins(0, 2), ins(2, 4)}, "{[0, 4)x1}", 2},
		{"overlap", []op{ins(0, 4), ins(2, 6)}, "{[0, 2)x1 [2, 4)x2 [4, 6)x1}", 2},
		{"duplicate", []op{ins(1, 3), ins(1, 3)}, "{[1, 3)x2}", 2},
		{"nested", []op{ins(0, 10), ins(3, 4)}, "{[0, 3)x1 [3, 4)x2 [4, 10)x1}", 2},
		{"delete one of two", []op{ins(1, 3), ins(1, 3), del(1, 3, true)}, "{[1, 3)x1}", 1},
		{"delete remerges", []op{ins(0, 10), ins(3, 4), del(3, 4, true)}, "{[0, 10)x1}", 1},
		{"delete splits run", []op{ins(0, 4), ins(2, 6), del(0, 4, true)}, "{[2, 6)x1}", 1},
		{"delete middle", []op{ins(0, 2), ins(2, 4), ins(4, 6), del(2, 4, true)}, "{[0, 2)x1 [4, 6)x1}", 2},
		{"delete absent", []op{ins(0, 2), del(1, 3, false)}, "{[0, 2)x1}", 1},
		{"delete from empty", []op{del(0, 1, false)}, "{}", 0},
		{"delete empty range", []op{ins(0, 2), del(1, 1, false)}, "{[0, 2)x1}", 1},
		{"delete across pieces", []op{ins(0, 2), ins(2, 4), del(0, 4, true)}, "{}", 1},
		{"top of space", []op{ins(math.MaxUint64-2, math.MaxUint64), ins(0, 1<<63)}, "{[0, 9223372036854775808)x1 [18446744073709551613, 18446744073709551615)x1}", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Set
			for _, o := range tt.ops {
				if !o.del {
					s.Insert(o.r)
				} else if got := s.Delete(o.r); got != o.ok {
					t.Errorf("Delete(%v) = %v, want %v", o.r, got, o.ok)
				}
				s.checkInvariantsAlways(t)
			}
			if got := s.String(); got != tt.want {
				t.Errorf("set = %s, want %s", got, tt.want)
			}
			if s.Len() != tt.len {
				t.Errorf("Len = %d, want %d", s.Len(), tt.len)
			}
		})
	}
}

// checkInvariantsAlways runs checkInvariants even without the invariants
// tag, turning its panic into a test failure.
func (s *Set) checkInvariantsAlways(t *testing.T) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatal(r)
		}
	}()
	s.verify()
}

func TestSetQueries(t *testing.T) {
	var s Set
	for _, r := range []Range{{0, 4}, {2, 6}, {10, 12}, {16, 20}} {
		s.Insert(r)
	}
	depths := map[uint64]int{0: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 0, 9: 0, 10: 1, 11: 1, 12: 0, 19: 1, 20: 0}
	for x, want := range depths {
		if got := s.Depth(x); got != want {
			t.Errorf("Depth(%d) = %d, want %d", x, got, want)
		}
	}
	if b := s.Bounds(); b != (Range{0, 20}) {
		t.Errorf("Bounds = %v", b)
	}
	for _, tt := range []struct {
		r    Range
		free bool
	}{{Range{6, 10}, true}, {Range{5, 7}, false}, {Range{12, 16}, true}, {Range{11, 13}, false}, {Range{20, 30}, true}, {Range{3, 3}, true}} {
		if got := s.Free(tt.r); got != tt.free {
			t.Errorf("Free(%v) = %v, want %v", tt.r, got, tt.free)
		}
	}
	var runs, gaps []Range
	s.AscendOccupied(Range{3, 17}, func(r Range) bool { runs = append(runs, r); return true })
	s.AscendGaps(Range{3, 30}, func(r Range) bool { gaps = append(gaps, r); return true })
	if want := []Range{{0, 6}, {10, 12}, {16, 20}}; !equalRanges(runs, want) {
		t.Errorf("AscendOccupied = %v, want %v", runs, want)
	}
	if want := []Range{{6, 10}, {12, 16}, {20, 30}}; !equalRanges(gaps, want) {
		t.Errorf("AscendGaps = %v, want %v", gaps, want)
	}
	var n int
	s.AscendGaps(Everything, func(Range) bool { n++; return false })
	if n != 1 {
		t.Errorf("AscendGaps did not stop: %d calls", n)
	}
	var empty Set
	if empty.Bounds() != (Range{}) || empty.Depth(3) != 0 || !empty.Free(Everything) {
		t.Error("zero Set is not empty")
	}
	s.Clear()
	if s.Len() != 0 || s.String() != "{}" {
		t.Errorf("after Clear: %d %s", s.Len(), s.String())
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

func TestSetFit(t *testing.T) {
	// occupied: [0,4) [6,8) [16,20) [40,64)  gaps: [4,6) [8,16) [20,40) [64,∞)
	var s Set
	for _, r := range []Range{{0, 4}, {6, 8}, {2, 3}, {16, 20}, {40, 64}} {
		s.Insert(r)
	}
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
	var b Set
	for _, r := range []Range{{10, 20}, {23, 30}} { // gaps [0,10) [20,23) [30,∞)
		b.Insert(r)
	}
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
		"size 0":    func() { new(Set).LowestFit(0, 1, Everything) },
		"align 0":   func() { new(Set).BestFit(1, 0, Everything) },
		"align 3":   func() { new(Set).LowestFit(1, 3, Everything) },
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

// model is a brute-force Set over offsets [0, modelSize).
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

func TestSetRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var s Set
		var m model
		var live []Range
		for step := 0; step < 60; step++ {
			if len(live) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(live))
				r := live[k]
				live = append(live[:k], live[k+1:]...)
				if !s.Delete(r) {
					t.Fatalf("Delete(%v) failed", r)
				}
				for x := r.Start; x < r.End; x++ {
					m[x]--
				}
			} else {
				a := rng.Uint64N(modelSize - 1)
				r := Range{a, a + 1 + rng.Uint64N(min(12, modelSize-a))}
				s.Insert(r)
				live = append(live, r)
				for x := r.Start; x < r.End; x++ {
					m[x]++
				}
			}
			s.checkInvariantsAlways(t)
			for x := uint64(0); x < modelSize; x++ {
				if s.Depth(x) != m[x] {
					t.Fatalf("round %d step %d: Depth(%d) = %d, want %d; set %s", round, step, x, s.Depth(x), m[x], s.String())
				}
			}
			size := 1 + rng.Uint64N(10)
			align := uint64(1) << rng.IntN(4)
			from := rng.Uint64N(modelSize)
			w := Range{from, from + rng.Uint64N(modelSize-from+1)}
			got, gok := s.LowestFit(size, align, w)
			want, wok := m.lowest(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("LowestFit(%d, %d, %v) = %d, %v; want %d, %v; set %s", size, align, w, got, gok, want, wok, s.String())
			}
			got, gok = s.BestFit(size, align, w)
			want, wok = m.best(size, align, w)
			if got != want || gok != wok {
				t.Fatalf("BestFit(%d, %d, %v) = %d, %v; want %d, %v; set %s", size, align, w, got, gok, want, wok, s.String())
			}
		}
	}
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
