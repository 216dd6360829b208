package interval

import (
	"math"
	"testing"
)

func TestRange(t *testing.T) {
	tests := []struct {
		a, b             Range
		overlaps, covers bool
		intersect        Range
		lenA             uint64
	}{
		{Range{0, 4}, Range{2, 6}, true, false, Range{2, 4}, 4},
		{Range{0, 4}, Range{4, 6}, false, false, Range{}, 4},
		{Range{0, 4}, Range{1, 3}, true, true, Range{1, 3}, 4},
		{Range{0, 4}, Range{0, 4}, true, true, Range{0, 4}, 4},
		{Range{0, 4}, Range{3, 3}, false, true, Range{}, 4},
		{Range{5, 5}, Range{0, 9}, false, false, Range{}, 0},
		{Range{7, 3}, Range{0, 9}, false, false, Range{}, 0},
		{Everything, Range{math.MaxUint64 - 1, math.MaxUint64}, true, true, Range{math.MaxUint64 - 1, math.MaxUint64}, math.MaxUint64},
	}
	for _, tt := range tests {
		if got := tt.a.Overlaps(tt.b); got != tt.overlaps {
			t.Errorf("%v.Overlaps(%v) = %v, want %v", tt.a, tt.b, got, tt.overlaps)
		}
		if got := tt.b.Overlaps(tt.a); got != tt.overlaps {
			t.Errorf("%v.Overlaps(%v) = %v, want %v", tt.b, tt.a, got, tt.overlaps)
		}
		if got := tt.a.Covers(tt.b); got != tt.covers {
			t.Errorf("%v.Covers(%v) = %v, want %v", tt.a, tt.b, got, tt.covers)
		}
		if got := tt.a.Intersect(tt.b); got != tt.intersect {
			t.Errorf("%v.Intersect(%v) = %v, want %v", tt.a, tt.b, got, tt.intersect)
		}
		if got := tt.a.Len(); got != tt.lenA {
			t.Errorf("%v.Len() = %d, want %d", tt.a, got, tt.lenA)
		}
	}
	if r := (Range{2, 5}); !r.Contains(2) || !r.Contains(4) || r.Contains(5) || r.Contains(1) {
		t.Errorf("Contains is not half-open on %v", r)
	}
	if s := (Range{1, 2}).String(); s != "[1, 2)" {
		t.Errorf("String = %q", s)
	}
}

func TestAlignUp(t *testing.T) {
	tests := []struct {
		x, align, want uint64
		ok             bool
	}{
		{0, 1, 0, true},
		{5, 1, 5, true},
		{5, 4, 8, true},
		{8, 4, 8, true},
		{1, 1 << 63, 1 << 63, true},
		{1<<63 + 1, 1 << 63, 0, false},
		{math.MaxUint64, 2, 0, false},
		{math.MaxUint64, 1, math.MaxUint64, true},
	}
	for _, tt := range tests {
		got, ok := AlignUp(tt.x, tt.align)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("AlignUp(%d, %d) = %d, %v; want %d, %v", tt.x, tt.align, got, ok, tt.want, tt.ok)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("AlignUp(1, 3) did not panic")
		}
	}()
	AlignUp(1, 3)
}
