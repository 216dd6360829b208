package greedy

import (
	"cmp"
	"github.com/aliasplan/aliasplan/internal/invariants"
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// poolRange is a placed neighbour's byte range and pool.
type poolRange struct {
	pool int32
	r    interval.Range
}

// graphState is one run's placement state for a graph problem: the pools'
// contents, and scratch space reused from item to item, so that placing an
// item allocates nothing but the growth of its pool's list.
type graphState struct {
	e   *engine
	sol *planner.Solution // Pool[j] < 0 until j is placed
	// pools[k] holds pool k's placed items, ascending by offset, as
	// blocks (blocks.go).
	pools      []poolBlocks
	blocks     []block          // the pools' blocks, by id
	blockOf    []int32          // each placed item's block
	placedBits []uint64         // the placed items, one bit each
	marks      []int32          // per block: the non-neighbours of the item being placed there (blocks.go)
	marked     []int32          // the blocks with marks
	poolMarks  []int32          // per pool: the same count
	placed     int              // items placed so far
	nb         []poolRange      // scratch: the neighbours' ranges, to sort
	runs       []interval.Range // scratch: merged runs, for best fit
	cpools     []classPool      // the pools' placed ranges by twin class (e.tw only)
}

func newGraphState(e *engine, sol *planner.Solution) *graphState {
	for j := range sol.Pool {
		sol.Pool[j] = -1
	}
	n := len(sol.Pool)
	return &graphState{e: e, sol: sol, blockOf: make([]int32, n), placedBits: make([]uint64, (n+63)/64)}
}

func (gs *graphState) isPlaced(j int32) bool { return gs.sol.Pool[j] >= 0 }

// fit finds the first pool with room for item i among the ranges of its
// placed neighbours there, and the offset the fit rule picks in it. A pool
// that holds none of them (a new one included) takes i at its lowest
// aligned offset; false means i fits not even there.
//
// The neighbours' ranges are needed in offset order, one pool at a time.
// With few neighbours, sorting their ranges is cheapest; with many (dense
// interference, as render graphs have), walking the pools' lists, which
// are kept sorted, and testing each item in the problem's interference
// row costs O(m) for m placed items, no sort, and for first fit usually
// stops early. The walk is taken once d·log d reaches a quarter of the
// placed items, not all of them: the walk's early stop makes it cheaper
// than the sort well before the two costs meet (about 5% less time at
// 30,000 commands); both must give the plain fit's answer, which
// checkFit compares them with under the invariants tag. A problem with
// few twin classes (classes.go) takes first fit from its classes' merged
// runs instead, unless that search gives up.
func (gs *graphState) fit(i int32) (off uint64, k int, ok bool) {
	done := false
	if gs.useClasses(i) {
		off, k, ok, done = gs.fitClasses(i)
	}
	if done {
		// fitClasses answered
	} else if d := int(gs.e.deg[i]); 4*d*bits.Len(uint(d)) >= gs.placed {
		off, k, ok = gs.fitWalk(i)
	} else {
		off, k, ok = gs.fitSorted(i)
	}
	if invariants.Enabled {
		gs.checkFit(i, off, k, ok)
	}
	return off, k, ok
}

// fitSorted is fit by sorting the placed neighbours' ranges by pool, then
// offset.
func (gs *graphState) fitSorted(i int32) (uint64, int, bool) {
	p, sol := gs.e.p, gs.sol
	nb := gs.nb[:0]
	for w, x := range p.Row(int(i)) {
		for ; x != 0; x &= x - 1 {
			j := w<<6 + bits.TrailingZeros64(x)
			if q := sol.Pool[j]; q >= 0 {
				nb = append(nb, poolRange{q, interval.Range{Start: sol.Offset[j], End: sol.Offset[j] + p.Items[j].Size}})
			}
		}
	}
	gs.nb = nb
	slices.SortFunc(nb, func(a, b poolRange) int {
		if c := cmp.Compare(a.pool, b.pool); c != 0 {
			return c
		}
		return cmp.Compare(a.r.Start, b.r.Start)
	})
	it := &p.Items[i]
	for k := 0; ; k++ {
		n := 0
		for n < len(nb) && int(nb[n].pool) == k {
			n++
		}
		if gs.e.fit == FirstFit {
			s := newLowestScan(it, gs.e.window)
			if !s.ok {
				return 0, k, false // i fits in no pool, not even an empty one
			}
			for _, q := range nb[:n] {
				if q.r.End > s.x && (q.r.Start >= s.x+s.size || s.skip(q.r.End)) {
					break
				}
			}
			if s.ok || n == 0 {
				return s.x, k, s.ok
			}
		} else {
			rs := gs.runs[:0]
			for _, q := range nb[:n] {
				rs = appendRun(rs, q.r)
			}
			gs.runs = rs
			if off, ok := interval.Runs(rs).BestFit(it.Size, it.Alignment, gs.e.window); ok || n == 0 {
				return off, k, ok
			}
		}
		nb = nb[n:]
	}
}

// fitWalk is fit by walking each pool's list, which is sorted by offset,
// for i's neighbours. First fit walks the lists' blocks, passing those
// that hold no non-neighbour of i by their summaries (blocks.go).
func (gs *graphState) fitWalk(i int32) (uint64, int, bool) {
	it := &gs.e.p.Items[i]
	row := gs.e.p.Row(int(i))
	if gs.e.fit == FirstFit {
		gs.markNonNeighbours(row)
		defer gs.clearMarks()
	}
	for k := 0; ; k++ {
		if gs.e.fit == FirstFit {
			s := newLowestScan(it, gs.e.window)
			if !s.ok {
				return 0, k, false // i fits in no pool, not even an empty one
			}
			if k >= len(gs.pools) || gs.pools[k].n == int(gs.poolMarks[k]) {
				return s.x, k, true // pool k holds no neighbour of i
			}
			s.x, s.ok = gs.walkBlocks(k, row, s.x, s.size, s.align, s.w)
			if s.ok {
				return s.x, k, true
			}
		} else {
			runs := gs.runs[:0]
			if k < len(gs.pools) {
				for _, id := range gs.pools[k].ids {
					b := &gs.blocks[id]
					for x, j := range b.items[:b.n] {
						if row[j>>6]&(1<<(j&63)) != 0 {
							runs = appendRun(runs, b.rs[x])
						}
					}
				}
			}
			gs.runs = runs
			if off, ok := interval.Runs(runs).BestFit(it.Size, it.Alignment, gs.e.window); ok || len(runs) == 0 {
				return off, k, ok
			}
		}
	}
}

// appendRun appends r to runs, sorted by offset, merging it with the last
// run when they overlap or touch, as interval.Merge does. r.Start must be
// at least the last run's Start.
func appendRun(rs []interval.Range, r interval.Range) []interval.Range {
	if n := len(rs); n > 0 && r.Start <= rs[n-1].End {
		rs[n-1].End = max(rs[n-1].End, r.End)
		return rs
	}
	return append(rs, r)
}

// record records that item i has been placed at sol's Pool[i], Offset[i].
func (gs *graphState) record(i int32) {
	gs.placed++
	k := gs.sol.Pool[i]
	if int(k) == len(gs.pools) {
		gs.pools = append(gs.pools, poolBlocks{})
	}
	r := interval.Range{Start: gs.sol.Offset[i], End: gs.sol.Offset[i] + gs.e.p.Items[i].Size}
	if gs.e.tw != nil {
		gs.recordClass(k, gs.e.tw.of[i], r)
	}
	gs.placedBits[i>>6] |= 1 << (uint(i) & 63)
	gs.insertBlocks(k, i, r)
}

// lowestScan is first fit over ranges taken in ascending order of Start,
// which need not be merged: x is the lowest aligned offset, within the
// window, that none of the ranges taken so far blocks (ok false: there is
// none). Each range taken either ends at or below x or has moved x past
// its end, so x is final once a range starts at or above x+size (no
// overflow: x+size is within the window while ok). A range ending above x
// that does not start that high blocks x: skip moves past it.
type lowestScan struct {
	x, size, align uint64
	w              interval.Range
	ok             bool
}

func newLowestScan(it *planner.Item, w interval.Range) lowestScan {
	s := lowestScan{size: it.Size, align: it.Alignment, w: w}
	s.x, s.ok = alignUp(w.Start, it.Alignment)
	s.ok = s.ok && fitsAt(s.x, s.size, w)
	return s
}

// skip moves x to the first aligned offset at or above end, and reports
// whether that leaves the window (ok false).
func (s *lowestScan) skip(end uint64) (done bool) {
	s.x, s.ok = alignUp(end, s.align)
	s.ok = s.ok && fitsAt(s.x, s.size, s.w)
	return !s.ok
}

// alignUp is interval.AlignUp for an alignment known to be a power of two
// (planner.Problem checks), small enough to inline.
func alignUp(x, align uint64) (uint64, bool) {
	y := x &^ (align - 1)
	if y == x {
		return x, true
	}
	y += align
	return y, y > x
}

// fitsAt reports whether [off, off+size) lies within w, without overflow.
func fitsAt(off, size uint64, w interval.Range) bool {
	return off >= w.Start && off <= w.End && size <= w.End-off
}
