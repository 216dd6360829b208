package greedy

import (
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// twinClasses groups a graph problem's items into classes of true twins:
// maximal runs of consecutive items whose closed neighbourhoods are equal
// (a pass writing many buffers makes one such run: every buffer interferes
// with the same others and with each other). For two twins j, j' and any
// other item i, i interferes with j exactly when it interferes with j', so
// an item's neighbours are whole classes, and first fit may take a class's
// placed ranges, merged into runs, instead of testing its members one by
// one: on two passes of n buffers ordered by a token (three classes) a fit
// costs O(log n) instead of a walk over every placed item.
type twinClasses struct {
	of  []int32   // each item's class
	adj [][]int32 // each class's neighbour classes, itself included
}

// minTwinItems and twinRatio decide when classes are worth keeping: a
// problem of at least minTwinItems items with at most one class per
// twinRatio items. Random frames have about one class per item and keep
// the walk alone.
const (
	minTwinItems = 1024
	twinRatio    = 16
)

// newTwinClasses returns p's twin classes, or nil when there are too many
// of them to pay. O(n²/64) for the rows' comparison (stopping at the first
// differing word, usually the first) and O(K²) for K classes.
func newTwinClasses(p *planner.Problem) *twinClasses {
	n := len(p.Items)
	if n < minTwinItems {
		return nil
	}
	of := make([]int32, n)
	var first []int32 // each class's first member
	for i := range n {
		if i > 0 && sameClosedRow(p.Row(i), p.Row(i-1), i) {
			of[i] = of[i-1]
			continue
		}
		if len(first)+1 > n/twinRatio {
			return nil
		}
		of[i] = int32(len(first))
		first = append(first, int32(i))
	}
	adj := make([][]int32, len(first))
	for c, r := range first {
		row := p.Row(int(r))
		for d, s := range first {
			if d == c || row[s>>6]&(1<<(uint(s)&63)) != 0 {
				adj[c] = append(adj[c], int32(d))
			}
		}
	}
	return &twinClasses{of: of, adj: adj}
}

// classPool is one pool's placed ranges by class: runs[c] holds the
// ranges of class c's placed members there, merged into sorted runs
// (overlapping or touching ranges joined); nil until the class has one.
type classPool struct {
	runs [][]interval.Range
}

// recordClass adds the range r of a member of class c placed in pool k.
func (gs *graphState) recordClass(k int32, c int32, r interval.Range) {
	for int(k) >= len(gs.cpools) {
		gs.cpools = append(gs.cpools, classPool{runs: make([][]interval.Range, len(gs.e.tw.adj))})
	}
	rs := &gs.cpools[k].runs[c]
	*rs = insertRun(*rs, r)
}

// insertRun inserts r into rs (sorted, merged runs), merging it with the
// runs it overlaps or touches.
func insertRun(rs []interval.Range, r interval.Range) []interval.Range {
	// lo: the first run that ends at or after r.Start (it may merge).
	lo, _ := slices.BinarySearchFunc(rs, r.Start, func(q interval.Range, t uint64) int {
		if q.End < t {
			return -1
		}
		return 1
	})
	hi := lo // one past the last run that starts at or before r.End
	for hi < len(rs) && rs[hi].Start <= r.End {
		hi++
	}
	if lo == hi {
		return slices.Insert(rs, lo, r)
	}
	r.Start = min(r.Start, rs[lo].Start)
	r.End = max(r.End, rs[hi-1].End)
	rs[lo] = r
	return slices.Delete(rs, lo+1, hi)
}

// maxClassMoves bounds the moves of fitClasses' search in one pool before
// it gives the item back to the walk (which gives the same answer): many
// small gaps among many classes would make its passes costly.
const maxClassMoves = 64

// fitClasses is first fit for item i from its neighbour classes' runs:
// for each pool, x rises past any run of a neighbour class that blocks
// [x, x+size) until no class blocks it. A run blocks every offset from x
// to its end, so x never passes a free offset, and the search ends at
// first fit's answer. ok2 false: it gave up (too many moves) and the
// caller walks instead.
func (gs *graphState) fitClasses(i int32) (off uint64, k int, ok, ok2 bool) {
	it := &gs.e.p.Items[i]
	adj := gs.e.tw.adj[gs.e.tw.of[i]]
	for k = 0; ; k++ {
		s := newLowestScan(it, gs.e.window)
		if !s.ok {
			return 0, k, false, true // i fits in no pool, not even an empty one
		}
		if k >= len(gs.cpools) {
			return s.x, k, true, true
		}
		runs := gs.cpools[k].runs
		seen := false
		moves := 0
		for changed := true; changed && s.ok; {
			changed = false
			for _, c := range adj {
				rs := runs[c]
				if len(rs) == 0 {
					continue
				}
				seen = true
				// The first run ending above x.
				j, _ := slices.BinarySearchFunc(rs, s.x, func(q interval.Range, t uint64) int {
					if q.End <= t {
						return -1
					}
					return 1
				})
				if j == len(rs) || rs[j].Start >= s.x+s.size {
					continue
				}
				if moves++; moves > maxClassMoves {
					return 0, 0, false, false
				}
				changed = true
				if s.skip(rs[j].End) {
					break
				}
			}
		}
		if s.ok || !seen {
			return s.x, k, s.ok, true
		}
	}
}

// useClasses reports whether item i's fit goes through its classes: when
// the problem has them and i's neighbour classes are few beside the
// placed items a walk would test.
func (gs *graphState) useClasses(i int32) bool {
	tw := gs.e.tw
	if tw == nil || gs.e.fit != FirstFit {
		return false
	}
	a := len(tw.adj[tw.of[i]])
	return 4*a*bits.Len(uint(a)) < gs.placed
}
