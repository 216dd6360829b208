package interval

import (
	"math"
	"slices"

	"github.com/google/btree"
)

// runSet is an insert-only set of disjoint, non-adjacent runs, as a
// Timeline node keeps them. Most nodes hold a handful of runs, so a set
// starts as a sorted slice (one allocation, binary search) and moves to a
// btree keyed by End once it holds more than smallRuns runs, keeping
// inserts O(log n) however large it grows.
type runSet struct {
	small []Range // sorted, while big == nil
	big   *btree.BTreeG[Range]
}

const smallRuns = 64

func (s *runSet) empty() bool { return s.big == nil && len(s.small) == 0 }

// next implements source: the first run ending after x. O(log n).
func (s *runSet) next(x uint64) (Range, bool) {
	if s.big != nil {
		return (&runTree{t: s.big}).next(x)
	}
	lo := firstEndAfter(s.small, x)
	if lo == len(s.small) {
		return Range{}, false
	}
	return s.small[lo], true
}

// insert adds r's positions, merging the runs it overlaps or touches.
// scratch and free are the owner's, shared by its sets.
func (s *runSet) insert(r Range, scratch *[]Range, free *btree.FreeListG[Range]) {
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
	s.small = slices.Replace(s.small, i, j, m)
	if len(s.small) > smallRuns {
		s.big = btree.NewWithFreeListG(smallDegree, byEnd, free)
		for _, q := range s.small {
			s.big.ReplaceOrInsert(q)
		}
		s.small = nil
	}
}

// union is the source of the union of several run sets. Queries must come
// with non-decreasing x (as the fit loops make them), and the sets must
// not change during a query. It keeps the sets in a min-heap by the start
// of each set's current run (its first run ending after some earlier x); a
// set is asked again only when x passes its run. If the heap's top still
// ends after x it is the answer: every set whose run ended earlier started
// before the top, so the top covers x.
//
// Each set is read through a cursor, so that walking a set in order costs
// O(1) per run, not a btree descent.
type union struct {
	h  []unionEntry
	st []cursor
}

type unionEntry struct {
	r Range // {0, 0} until first asked: ends before any x
	i int32 // index into st
}

func (u *union) reset(sets []*runSet) {
	u.h = u.h[:0]
	for i, s := range sets {
		u.h = append(u.h, unionEntry{i: int32(i)})
		if i == len(u.st) {
			u.st = append(u.st, cursor{})
		}
		c := &u.st[i]
		c.ahead, c.tree = s.small, s.big
	}
}

// next implements source. Amortized O(log k) per run passed.
func (u *union) next(x uint64) (Range, bool) {
	for len(u.h) > 0 {
		top := &u.h[0]
		if top.r.End > x {
			return top.r, true
		}
		if r, ok := u.st[top.i].next(x); ok {
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

// cursor walks sorted, disjoint runs for non-decreasing x: a slice, or a
// btree keyed by End read in batches, so that walking n runs in order costs
// O(n + n/batch · log n), not n btree descents.
type cursor struct {
	ahead []Range               // known runs, in order
	tree  *btree.BTreeG[Range] // where the runs after ahead are; nil when ahead holds them all
	store []Range              // backing array of ahead for batches
}

const batch = 16

// next implements source: the first run ending after x.
func (c *cursor) next(x uint64) (Range, bool) {
	for {
		a := c.ahead
		k := 0
		for k < len(a) && k < 4 && a[k].End <= x { // usually it is one of the next few
			k++
		}
		if k == 4 {
			k += firstEndAfter(a[k:], x)
		}
		if k < len(a) {
			c.ahead = a[k:]
			return a[k], true
		}
		c.ahead = nil
		if c.tree == nil || x == math.MaxUint64 {
			return Range{}, false
		}
		c.store = c.store[:0]
		c.tree.AscendGreaterOrEqual(Range{End: x + 1}, func(q Range) bool {
			c.store = append(c.store, q)
			return len(c.store) < batch
		})
		if len(c.store) < batch {
			c.tree = nil
		}
		c.ahead = c.store
	}
}

// firstEndAfter returns the index of the first run of rs that ends after
// x (len(rs) when none does); rs is sorted.
func firstEndAfter(rs []Range, x uint64) int {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rs[m].End > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
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
