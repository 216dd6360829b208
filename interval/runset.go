package interval

import (
	"math"
	"slices"
	"sort"

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
	i := sort.Search(len(s.small), func(i int) bool { return s.small[i].End >= r.Start })
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
// Each set also has a window of the runs that follow its current one (the
// rest of a small set's slice, or a batch read from a big set's btree), so
// that walking a set in order costs O(1) per run, not a btree descent.
type union struct {
	h  []unionEntry
	st []unionState
}

type unionEntry struct {
	r Range // {0, 0} until first asked: ends before any x
	i int32 // index into st
}

type unionState struct {
	set   *runSet
	ahead []Range // the runs after r, in order
	more  bool    // big sets: the btree may hold runs after ahead
	store []Range // backing array of ahead for big sets
}

const batch = 16

func (u *union) reset(sets []*runSet) {
	u.h = u.h[:0]
	for i, s := range sets {
		u.h = append(u.h, unionEntry{i: int32(i)})
		if i < len(u.st) {
			u.st[i].set, u.st[i].ahead, u.st[i].more = s, nil, true
		} else {
			u.st = append(u.st, unionState{set: s, more: true})
		}
	}
}

// next implements source. Amortized O(log k) per run passed.
func (u *union) next(x uint64) (Range, bool) {
	for len(u.h) > 0 {
		top := &u.h[0]
		if top.r.End > x {
			return top.r, true
		}
		if r, ok := u.st[top.i].advance(x); ok {
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

// advance returns the set's first run ending after x.
func (st *unionState) advance(x uint64) (Range, bool) {
	for {
		a := st.ahead
		k := 0
		for k < len(a) && k < 4 && a[k].End <= x { // usually the next one
			k++
		}
		if k == 4 {
			k += firstEndAfter(a[k:], x)
		}
		if k < len(a) {
			st.ahead = a[k+1:]
			return a[k], true
		}
		if !st.more {
			return Range{}, false
		}
		st.more = false
		if s := st.set; s.big == nil {
			st.ahead = s.small[firstEndAfter(s.small, x):]
			continue
		}
		if x == math.MaxUint64 {
			return Range{}, false
		}
		st.store = st.store[:0]
		st.set.big.AscendGreaterOrEqual(Range{End: x + 1}, func(q Range) bool {
			st.store = append(st.store, q)
			return len(st.store) < batch
		})
		st.ahead, st.more = st.store, len(st.store) == batch
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
	i := 0
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].r.Start < h[c].r.Start {
			c++
		}
		if h[i].r.Start <= h[c].r.Start {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
