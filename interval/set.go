package interval

import (
	"fmt"
	"github.com/aliasplan/aliasplan/internal/invariants"

	"github.com/google/btree"
)

// Set is a multiset of ranges: several items may occupy the same
// positions (items that share bytes because they never interfere). It
// records coverage, not identities: for every position, how many of its
// ranges hold it (the depth). Queries look at the union, the positions of
// depth >= 1.
//
// The zero Set is empty and ready to use. A Set must not be copied after
// first use. It is not safe for concurrent use when one goroutine writes.
type Set struct {
	segs *btree.BTreeG[seg] // maximal runs of equal, non-zero depth, keyed by End
	runs *runTree           // maximal runs of depth >= 1: the union
	n    int                // ranges inserted minus ranges deleted

	old, out []seg // scratch
}

// seg is a run of positions of equal depth n >= 1. Adjacent segs of a Set
// always differ in depth (they are maximal).
type seg struct {
	Range
	n int32
}

func segByEnd(a, b seg) bool { return a.End < b.End }

func (s *Set) init() {
	if s.segs == nil {
		s.segs = btree.NewG(degree, segByEnd)
		s.runs = newRunTree()
	}
}

// Len returns the number of ranges in the set (inserted minus deleted,
// empty ranges not counted). O(1).
func (s *Set) Len() int { return s.n }

// Clear removes every range. O(1).
func (s *Set) Clear() {
	if s.segs != nil {
		s.segs.Clear(false)
		s.runs.t.Clear(false)
	}
	s.n = 0
}

// Insert adds one occurrence of r. An empty r occupies nothing and is
// ignored; r.Start > r.End is also empty. O((1+k) log n) for n stored
// runs and k runs of distinct depth that r overlaps.
func (s *Set) Insert(r Range) {
	if r.Empty() {
		return
	}
	s.init()
	s.collect(r)
	s.replace(r, 1)
	s.runs.insert(r)
	s.n++
	s.checkInvariants()
}

// Delete removes one occurrence of r and reports whether it could: it
// fails, changing nothing, when some position of r is not occupied. Since
// a Set records coverage and not identities, deleting a range that was not
// inserted as such succeeds when its positions are covered (deleting
// [0, 4) after inserting [0, 2) and [2, 4) empties the set but leaves Len
// at 1): pass only ranges that were inserted. Deleting an empty range
// returns false. O((1+k) log n), as Insert.
func (s *Set) Delete(r Range) bool {
	if r.Empty() || s.segs == nil {
		return false
	}
	s.collect(r)
	// The segs of old that overlap r must cover it without a hole.
	x := r.Start
	for _, g := range s.old {
		if g.Start > x {
			break
		}
		x = max(x, g.End)
	}
	if x < r.End {
		return false
	}
	s.replace(r, -1)
	s.n--
	// The union lost the positions of r whose depth fell to 0. The run
	// holding r splits around them.
	var holes bool
	covered := r.Start
	for _, g := range s.out {
		if g.End <= r.Start || g.Start >= r.End {
			continue
		}
		if g.Start > covered {
			holes = true
			break
		}
		covered = g.End
	}
	if !holes && covered < r.End {
		holes = true
	}
	if holes {
		s.splitRun(r)
	}
	s.checkInvariants()
	return true
}

// collect gathers into s.old the segs that overlap or touch r, in order.
func (s *Set) collect(r Range) {
	s.old = s.old[:0]
	s.segs.AscendGreaterOrEqual(seg{Range: Range{End: r.Start}}, func(g seg) bool {
		if g.Start > r.End {
			return false
		}
		s.old = append(s.old, g)
		return true
	})
}

// replace rewrites the segs in s.old, adding d to the depth of every
// position of r; the new segs are left in s.out.
func (s *Set) replace(r Range, d int32) {
	lo, hi := r.Start, r.End
	if len(s.old) > 0 {
		lo, hi = min(lo, s.old[0].Start), max(hi, s.old[len(s.old)-1].End)
	}
	s.out = s.out[:0]
	i := 0
	for x := lo; x < hi; {
		for i < len(s.old) && s.old[i].End <= x {
			i++
		}
		var n int32
		next := hi
		if i < len(s.old) {
			if g := s.old[i]; g.Start <= x {
				n, next = g.n, g.End
			} else {
				next = g.Start
			}
		}
		if x < r.Start {
			next = min(next, r.Start)
		} else if x < r.End {
			next = min(next, r.End)
			n += d
		}
		if n > 0 {
			if k := len(s.out) - 1; k >= 0 && s.out[k].End == x && s.out[k].n == n {
				s.out[k].End = next
			} else {
				s.out = append(s.out, seg{Range{x, next}, n})
			}
		}
		x = next
	}
	for _, g := range s.old {
		s.segs.Delete(g)
	}
	for _, g := range s.out {
		s.segs.ReplaceOrInsert(g)
	}
}

// splitRun replaces the run that held r before a Delete by its pieces
// that are still occupied.
func (s *Set) splitRun(r Range) {
	run, _ := s.runs.next(r.Start) // r was covered, so this run holds it
	s.runs.t.Delete(run)
	pieces := s.runs.scratch[:0]
	add := func(p Range) {
		if p.Empty() {
			return
		}
		if k := len(pieces) - 1; k >= 0 && pieces[k].End == p.Start {
			pieces[k].End = p.End
			return
		}
		pieces = append(pieces, p)
	}
	add(Range{run.Start, r.Start})
	for _, g := range s.out {
		add(g.Intersect(r))
	}
	add(Range{r.End, run.End})
	for _, p := range pieces {
		s.runs.t.ReplaceOrInsert(p)
	}
	s.runs.scratch = pieces[:0]
}

// Depth returns how many ranges of the set hold position x. O(log n).
func (s *Set) Depth(x uint64) int {
	if s.segs == nil {
		return 0
	}
	var n int32
	s.segs.AscendGreaterOrEqual(seg{Range: Range{End: x}}, func(g seg) bool {
		if g.End == x {
			return true // ends at x: does not hold x
		}
		if g.Start <= x {
			n = g.n
		}
		return false
	})
	return int(n)
}

// Bounds returns the smallest range holding every occupied position
// (an empty Range when the set is empty). O(log n).
func (s *Set) Bounds() Range {
	if s.segs == nil || s.segs.Len() == 0 {
		return Range{}
	}
	lo, _ := s.runs.t.Min()
	hi, _ := s.runs.t.Max()
	return Range{lo.Start, hi.End}
}

// Free reports whether no position of r is occupied. O(log n).
func (s *Set) Free(r Range) bool {
	if r.Empty() || s.runs == nil {
		return true
	}
	q, ok := s.runs.next(r.Start)
	return !ok || q.Start >= r.End
}

// AscendOccupied calls fn, in offset order, for each maximal occupied run
// (a connected piece of the union) that intersects w, until fn returns
// false. The runs are not clipped to w. O(log n + m) for m runs visited.
func (s *Set) AscendOccupied(w Range, fn func(r Range) bool) {
	s.runs.ascend(w, fn)
}

// AscendDepth calls fn, in offset order, for each maximal run of positions
// of equal depth >= 1 that intersects w, with that depth, until fn returns
// false. The runs are not clipped to w. O(log n + m).
func (s *Set) AscendDepth(w Range, fn func(r Range, depth int) bool) {
	if s.segs == nil || w.Empty() {
		return
	}
	s.segs.AscendGreaterOrEqual(seg{Range: Range{End: w.Start + 1}}, func(g seg) bool {
		return g.Start < w.End && fn(g.Range, int(g.n))
	})
}

// AscendGaps calls fn, in offset order, for each maximal free range within
// w (clipped to w), until fn returns false. O(log n + m).
func (s *Set) AscendGaps(w Range, fn func(gap Range) bool) {
	x := w.Start
	stop := false
	s.AscendOccupied(w, func(r Range) bool {
		if r.Start > x && !fn(Range{x, r.Start}) {
			stop = true
			return false
		}
		x = max(x, r.End)
		return true
	})
	if !stop && x < w.End {
		fn(Range{x, w.End})
	}
}

// LowestFit returns the lowest offset off, a multiple of align, such that
// [off, off+size) lies within w and holds no occupied position; false when
// no such offset exists. Use Everything as w for no bound, or
// Range{from, limit} to search [from, limit) only. size must be > 0 and
// align a power of two, else LowestFit panics. Sizes near 2^64 are fine:
// nothing overflows.
//
// Cost: O((1+g) log n) for g occupied runs skipped (runs below the answer
// whose gaps are too small).
func (s *Set) LowestFit(size, align uint64, w Range) (uint64, bool) {
	if s.runs == nil {
		return lowestFit(&cursor{}, size, align, w)
	}
	return lowestFit(s.runs, size, align, w)
}

// BestFit returns the lowest aligned offset of the smallest gap within w
// that holds an aligned block of size bytes (best fit), or false when no
// gap does. Gaps are maximal free ranges clipped to w and compare by
// length; the top gap, the one that reaches w.End with nothing occupied
// above it, ranks last, as if unbounded, so a pool grows only when no hole
// fits. Ties go to the lowest gap. Argument rules as LowestFit.
//
// Cost: O(log n + g) for g gaps within w (all of them, unless a gap of
// exactly size bytes ends the walk early).
func (s *Set) BestFit(size, align uint64, w Range) (uint64, bool) {
	c := &cursor{}
	if s.runs != nil {
		c.reset(nil, s.runs.t)
		if w.Start > 0 { // start the walk at the first run that matters
			c.next(w.Start - 1)
		}
	}
	return bestFit(c, size, align, w)
}

// String draws the set as its depth runs, e.g. "{[0, 4)x1 [4, 6)x2}".
// O(n).
func (s *Set) String() string {
	b := []byte{'{'}
	s.AscendDepth(Everything, func(r Range, n int) bool {
		if len(b) > 1 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%vx%d", r, n)
		return true
	})
	return string(append(b, '}'))
}

// checkInvariants verifies the representation when built with the
// invariants tag: segs disjoint, ordered, maximal, of positive depth; runs
// exactly their union.
func (s *Set) checkInvariants() {
	if invariants.Enabled {
		s.verify()
	}
}

func (s *Set) verify() {
	if s.segs == nil {
		return
	}
	var prev seg
	first := true
	var union []Range
	s.segs.Ascend(func(g seg) bool {
		if g.Empty() || g.n <= 0 {
			panic(fmt.Sprintf("interval: bad seg %v depth %d", g.Range, g.n))
		}
		if !first && (g.Start < prev.End || (g.Start == prev.End && g.n == prev.n)) {
			panic(fmt.Sprintf("interval: segs %v x%d and %v x%d out of order or not maximal", prev.Range, prev.n, g.Range, g.n))
		}
		if k := len(union) - 1; k >= 0 && union[k].End == g.Start {
			union[k].End = g.End
		} else {
			union = append(union, g.Range)
		}
		prev, first = g, false
		return true
	})
	i := 0
	s.runs.t.Ascend(func(r Range) bool {
		if i >= len(union) || union[i] != r {
			panic(fmt.Sprintf("interval: run %v does not match the segs' union %v", r, union))
		}
		i++
		return true
	})
	if i != len(union) {
		panic(fmt.Sprintf("interval: %d runs, segs' union has %d", i, len(union)))
	}
}
