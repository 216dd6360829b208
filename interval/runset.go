package interval

import (
	"fmt"
	"github.com/aliasplan/aliasplan/internal/invariants"
	"math"
	"slices"

	"github.com/google/btree"
)

// runTree is a set of disjoint, non-adjacent ranges (runs) ordered by End,
// which for disjoint ranges is also the order of Start. Keying by End makes
// "the first run ending after x" a single btree descent.
type runTree struct {
	t       *btree.BTreeG[Range]
	scratch []Range
}

func byEnd(a, b Range) bool { return a.End < b.End }

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

// runSet is an insert-only set of disjoint, non-adjacent runs, as a
// Timeline node keeps them. Most nodes hold a handful of runs, so a set
// starts as a sorted slice (one allocation, binary search) and moves to a
// btree keyed by End once it holds more than smallRuns runs, keeping
// inserts O(log n) however large it grows.
type runSet struct {
	small []Range // sorted, while big == nil
	big   *btree.BTreeG[Range]
}

const smallRuns = 256

func (s *runSet) empty() bool { return s.big == nil && len(s.small) == 0 }

// endBefore returns the End of the last run ending at or before x, 0 when
// none does. O(log n).
func (s *runSet) endBefore(x uint64) uint64 {
	if s.big == nil {
		if i := firstEndAfter(s.small, x); i > 0 {
			return s.small[i-1].End
		}
		return 0
	}
	var e uint64
	s.big.DescendLessOrEqual(Range{End: x}, func(q Range) bool {
		e = q.End
		return false
	})
	return e
}

// insert adds r's positions, merging the runs it overlaps or touches.
// scratch, free and slab are the owner's, shared by its sets: an empty
// set's first runs are carved from slab (see takeSlab).
func (s *runSet) insert(r Range, scratch *[]Range, free *btree.FreeListG[Range], slab *[]Range) {
	if r.Empty() {
		return
	}
	if s.big != nil {
		rt := runTree{t: s.big, scratch: *scratch}
		rt.insert(r)
		*scratch = rt.scratch
		return
	}
	// Runs [i, j) overlap or touch r.
	i := 0
	if r.Start > 0 {
		i = firstEndAfter(s.small, r.Start-1)
	}
	j := i
	for j < len(s.small) && s.small[j].Start <= r.End {
		j++
	}
	if j == i+1 && s.small[i].Covers(r) {
		return
	}
	m := r
	if j > i {
		m.Start, m.End = min(m.Start, s.small[i].Start), max(m.End, s.small[j-1].End)
	}
	if cap(s.small) == 0 {
		s.small = takeSlab(slab)
	}
	s.small = slices.Replace(s.small, i, j, m)
	if invariants.Enabled {
		for k := 1; k < len(s.small); k++ {
			if s.small[k-1].End >= s.small[k].Start {
				panic(fmt.Sprintf("interval: runs %v and %v of a run set touch or are out of order", s.small[k-1], s.small[k]))
			}
		}
	}
	if len(s.small) > smallRuns {
		s.big = btree.NewWithFreeListG(smallDegree, byEnd, free)
		for _, q := range s.small {
			s.big.ReplaceOrInsert(q)
		}
		s.small = nil
	}
}

// slabRuns is the capacity takeSlab gives a set, and slabSize the runs
// of one slab allocation.
const slabRuns, slabSize = 2, 4096

// takeSlab returns an empty slice of capacity slabRuns carved from *slab,
// refilled when spent. Most of a Timeline's run sets never hold more than
// a run or two (a million buffers with disjoint lifetimes make millions of
// such sets), so one allocation serves thousands of them instead of one
// each; a set that grows past slabRuns moves to its own array, as any
// slice does.
func takeSlab(slab *[]Range) []Range {
	if cap(*slab) < slabRuns {
		*slab = make([]Range, slabSize)
	}
	s := (*slab)[:0:slabRuns]
	*slab = (*slab)[slabRuns:]
	return s
}

// union is the source of the union of several cursors, for BestFit's walk
// over every gap. Queries must come with non-decreasing x, and the sets
// must not change during a query. It keeps the cursors in a min-heap by
// the start of each one's current run (its first run ending after some
// earlier x); a cursor is asked again only when x passes its run. If the
// heap's top still ends after x it is the answer: every cursor whose run
// ended earlier started before the top, so the top covers x.
type union struct {
	h  []unionEntry
	cs []cursor
}

type unionEntry struct {
	r Range // {0, 0} until first asked: ends before any x
	i int32 // index into cs
}

func (u *union) reset(cs []cursor) {
	u.cs = cs
	u.h = u.h[:0]
	for i := range cs {
		u.h = append(u.h, unionEntry{i: int32(i)})
	}
}

// next implements source. O(log k) per run passed, plus the cursors' own
// costs.
func (u *union) next(x uint64) (Range, bool) {
	for len(u.h) > 0 {
		top := &u.h[0]
		if top.r.End > x {
			return top.r, true
		}
		if r, ok := u.cs[top.i].next(x); ok {
			top.r = r
		} else {
			last := len(u.h) - 1
			u.h[0] = u.h[last]
			u.h = u.h[:last]
		}
		u.down()
	}
	return Range{}, false
}

// down restores the heap order after the top changed.
func (u *union) down() {
	h := u.h
	if len(h) == 0 {
		return
	}
	e := h[0]
	i := 0
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1].r.Start < h[c].r.Start {
			c++
		}
		if e.r.Start <= h[c].r.Start {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = e
}
