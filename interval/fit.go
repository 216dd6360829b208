package interval

import (
	"math"
	"sort"

	"github.com/google/btree"
)

// source yields the occupied positions of a structure, lowest first.
type source interface {
	// next returns an occupied range r with r.End > x such that no
	// position in [x, r.Start) is occupied, or false when no position
	// >= x is occupied. r need not be a maximal occupied run.
	next(x uint64) (Range, bool)
}

// lowestFit returns the lowest multiple of align, off, such that
// [off, off+size) lies within w and holds no occupied position of src.
// Each step skips at least one occupied range of src.
func lowestFit(src source, size, align uint64, w Range) (uint64, bool) {
	checkSize(size)
	x, ok := AlignUp(w.Start, align)
	for ok && fitsAt(x, size, w) {
		r, occupied := src.next(x)
		if !occupied || r.Start >= x+size { // x+size cannot overflow: fitsAt
			return x, true
		}
		x, ok = AlignUp(r.End, align)
	}
	return 0, false
}

// bestFit returns the lowest aligned offset of the smallest free gap of src
// within w that holds an aligned block of size bytes. The top gap (the one
// that reaches w.End with nothing occupied above it) ranks after every
// other gap, as if it were unbounded; ties go to the lowest gap. It walks
// every gap of src within w, and stops early on a gap of exactly size
// bytes.
func bestFit(src source, size, align uint64, w Range) (uint64, bool) {
	checkSize(size)
	var best, bestLen uint64
	found := false
	x := w.Start
	for x < w.End {
		r, occupied := src.next(x)
		if occupied && r.Start <= x {
			x = r.End
			continue
		}
		gap, top := Range{x, w.End}, !occupied
		if occupied && r.Start < w.End {
			gap.End = r.Start
		}
		if off, ok := AlignUp(gap.Start, align); ok && fitsAt(off, size, gap) {
			if top {
				if found {
					return best, true
				}
				return off, true
			}
			if l := gap.Len(); !found || l < bestLen {
				best, bestLen, found = off, l, true
				if l == size {
					return best, true
				}
			}
		}
		x = gap.End
	}
	return best, found
}

func checkSize(size uint64) {
	if size == 0 {
		panic("interval: fit query for size 0")
	}
}

// runTree is a set of disjoint, non-adjacent ranges (runs) ordered by End,
// which for disjoint ranges is also the order of Start. Keying by End makes
// "the first run ending after x" a single btree descent.
type runTree struct {
	t       *btree.BTreeG[Range]
	scratch []Range
}

func byEnd(a, b Range) bool { return a.End < b.End }

const degree = 16

func newRunTree() *runTree { return &runTree{t: btree.NewG(degree, byEnd)} }

// smallDegree is the degree of the run trees of a Timeline's nodes.
const smallDegree = 8

// next implements source. O(log n).
func (rt *runTree) next(x uint64) (r Range, ok bool) {
	if x == math.MaxUint64 {
		return Range{}, false
	}
	rt.t.AscendGreaterOrEqual(Range{End: x + 1}, func(q Range) bool {
		r, ok = q, true
		return false
	})
	return r, ok
}

// insert adds r's positions, merging the runs r overlaps or touches.
// O(log n + m log n) for m merged runs.
func (rt *runTree) insert(r Range) {
	if r.Empty() {
		return
	}
	rt.scratch = rt.scratch[:0]
	contained := false
	rt.t.AscendGreaterOrEqual(Range{End: r.Start}, func(q Range) bool {
		if q.Start > r.End {
			return false
		}
		if q.Covers(r) {
			contained = true
			return false
		}
		rt.scratch = append(rt.scratch, q)
		return true
	})
	if contained {
		return
	}
	m := r
	for _, q := range rt.scratch {
		m.Start, m.End = min(m.Start, q.Start), max(m.End, q.End)
	}
	for _, q := range rt.scratch {
		if q.End != m.End { // the one ending at m.End is replaced below
			rt.t.Delete(q)
		}
	}
	rt.t.ReplaceOrInsert(m)
}

// ascend calls fn for each run intersecting w, in order.
func (rt *runTree) ascend(w Range, fn func(Range) bool) {
	if rt == nil || w.Empty() {
		return
	}
	rt.t.AscendGreaterOrEqual(Range{End: w.Start + 1}, func(q Range) bool {
		return q.Start < w.End && fn(q)
	})
}

// Runs is a sorted list of disjoint, non-adjacent ranges: the form that
// Merge returns and LowestFit and BestFit read.
type Runs []Range

// Merge sorts rs by Start and coalesces overlapping and touching ranges in
// place, dropping empty ones. It returns the prefix of rs that holds the
// result, so rs's storage is reused. O(n log n).
func Merge(rs []Range) Runs {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	w := 0
	for _, r := range rs {
		if r.Empty() {
			continue
		}
		if w > 0 && r.Start <= rs[w-1].End {
			rs[w-1].End = max(rs[w-1].End, r.End)
			continue
		}
		rs[w] = r
		w++
	}
	return Runs(rs[:w])
}

// LowestFit returns the lowest offset off, a multiple of align, such that
// [off, off+size) lies within w and intersects no run of rs; false when
// there is none. size must be > 0 and align a power of two (else it
// panics). O(g + log n) for g runs skipped.
func (rs Runs) LowestFit(size, align uint64, w Range) (uint64, bool) {
	return lowestFit(&cursor{ahead: rs}, size, align, w)
}

// BestFit returns the lowest aligned offset in the smallest gap between
// runs of rs (within w) that holds size bytes; the gap above the last run
// ranks last, as if unbounded. See Set.BestFit. O(n).
func (rs Runs) BestFit(size, align uint64, w Range) (uint64, bool) {
	return bestFit(&cursor{ahead: rs}, size, align, w)
}
