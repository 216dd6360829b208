package interval

import (
	"fmt"
	"math"
)

// Range is the half-open range [Start, End) of uint64 positions (bytes or
// time slots). A Range with End <= Start is empty. Its methods are O(1).
type Range struct {
	Start, End uint64
}

// Everything is the largest range: it holds every position but
// math.MaxUint64, which a half-open range cannot reach.
var Everything = Range{0, math.MaxUint64}

// Len returns the number of positions in r (0 when r is empty).
func (r Range) Len() uint64 {
	if r.End <= r.Start {
		return 0
	}
	return r.End - r.Start
}

// Empty reports whether r holds no position.
func (r Range) Empty() bool { return r.End <= r.Start }

// Contains reports whether x is in r.
func (r Range) Contains(x uint64) bool { return r.Start <= x && x < r.End }

// Covers reports whether every position of s is in r. An empty s is
// covered by any range.
func (r Range) Covers(s Range) bool {
	return s.Empty() || (r.Start <= s.Start && s.End <= r.End)
}

// Overlaps reports whether r and s share at least one position.
func (r Range) Overlaps(s Range) bool {
	return r.Start < s.End && s.Start < r.End && !r.Empty() && !s.Empty()
}

// Intersect returns the positions r and s share (an empty range when none).
func (r Range) Intersect(s Range) Range {
	out := Range{max(r.Start, s.Start), min(r.End, s.End)}
	if out.Empty() {
		return Range{}
	}
	return out
}

func (r Range) String() string { return fmt.Sprintf("[%d, %d)", r.Start, r.End) }

// AlignUp returns the smallest multiple of align that is >= x, and false
// when that multiple does not fit in a uint64. align must be a power of
// two (1 aligns nothing); AlignUp panics otherwise.
func AlignUp(x, align uint64) (uint64, bool) {
	if align == 0 || align&(align-1) != 0 {
		panic(fmt.Sprintf("interval: alignment %d is not a power of two", align))
	}
	y := x &^ (align - 1)
	if y == x {
		return x, true
	}
	y += align
	return y, y > x
}

// fitsAt reports whether [off, off+size) lies within w, without overflow.
func fitsAt(off, size uint64, w Range) bool {
	return off >= w.Start && off <= w.End && size <= w.End-off
}
