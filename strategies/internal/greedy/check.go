package greedy

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// plainFit is the graph fit in its plainest form, which the fast one
// (graphState.fit) must agree with: the ranges of i's placed neighbours
// (those with placed(j)), grouped by pool, merged by interval.Merge and
// searched. O(d log d) for d neighbours. The invariants build and the
// tests compare the two.
func (e *engine) plainFit(sol *planner.Solution, placed func(j int32) bool, i int32) (off uint64, k int, ok bool) {
	type poolRange struct {
		pool int32
		r    interval.Range
	}
	var nb []poolRange
	for j := range e.p.Neighbors(int(i)) {
		if placed(j) {
			nb = append(nb, poolRange{sol.Pool[j], interval.Range{Start: sol.Offset[j], End: sol.Offset[j] + e.p.Items[j].Size}})
		}
	}
	slices.SortFunc(nb, func(a, b poolRange) int { return cmp.Compare(a.pool, b.pool) })
	it := &e.p.Items[i]
	lo := 0
	for k = 0; ; k++ {
		hi := lo
		for hi < len(nb) && int(nb[hi].pool) == k {
			hi++
		}
		var rs []interval.Range
		for _, q := range nb[lo:hi] {
			rs = append(rs, q.r)
		}
		m := interval.Merge(rs)
		if e.fit == FirstFit {
			off, ok = m.LowestFit(it.Size, it.Alignment, e.window)
		} else {
			off, ok = m.BestFit(it.Size, it.Alignment, e.window)
		}
		if ok || lo == hi {
			return off, k, ok
		}
		lo = hi
	}
}

// checkFit panics when the fast fit of item i disagrees with plainFit (on
// where i goes, or on whether it fits at all).
func (gs *graphState) checkFit(i int32, off uint64, k int, ok bool) {
	placed := func(j int32) bool { return gs.isPlaced(j) }
	wOff, wK, wOK := gs.e.plainFit(gs.sol, placed, i)
	if ok != wOK || ok && (off != wOff || k != wK) {
		panic(fmt.Sprintf("greedy: item %d: fit gave pool %d offset %d (%v), the plain search pool %d offset %d (%v)", i, k, off, ok, wK, wOff, wOK))
	}
}
