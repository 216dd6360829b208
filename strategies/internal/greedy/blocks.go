package greedy

import (
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/interval"
)

// A pool's placed items, ascending by offset, are kept as a list of
// blocks of consecutive items, each with a summary that lets first fit's
// walk pass the whole block in O(1) when none of its items is a
// non-neighbour of the item being placed.
//
// Why: on dense problems (render graphs interfere 99%) whose pools are
// capped (maxMemoryAllocationSize), most pools an item tries are full for
// it, and the plain walk reads every item there to prove it: four fifths
// of first fit's time on random frames. An item's non-neighbours are few
// (about 1% of the placed items, a dozen per pool), so nearly every block
// holds neighbours only, and for such a block the walk's outcome follows
// from four numbers (below). The blocks that hold a non-neighbour are
// walked item by item, as before.
//
// The summary of a block holding only neighbours, walked from x (x at or
// above the aligned End of every neighbour before it): the walk stops at
// the first item q with Start_q ≥ x_q + size (x_q: x when q is reached; an
// item starting that high also ends above x, sizes being positive). So:
//
//   - the first item starting at or above x + size stops it at x;
//   - no item stops it when every Start is below x + size (the last Start
//     is the largest), or when every item after the first starts less than
//     size above the largest End before it in the block (slack < size):
//     x_q is at least that End. The walk then leaves the block at
//     max(x, alignUp(maxEnd)), the same x as item by item (alignUp is
//     monotone), and fails when that leaves the window, as it would have
//     at one of the block's items (x only rises);
//   - otherwise the block is walked item by item.
//
// The answer is the walk's in every case: the plans are unchanged
// (TestBlockWalkAgreesWithListWalk compares it with the list walk).

// blockCap is the most items a block holds; a full block splits in two.
// Blocks of 8 to 32 items: about m/32 summaries and a dozen blocks of at
// most 32 items walked per full pool of m items.
const blockCap = 32

// block is a run of consecutive items of a pool's list, with its summary.
type block struct {
	n      int32
	items  [blockCap]int32
	rs     [blockCap]interval.Range
	maxEnd uint64 // the largest End
	// slack is the largest Start_q − max(End_0..End_{q−1}) over q ≥ 1
	// where positive, else 0.
	slack uint64
}

// summarize recomputes b's maxEnd and slack. O(n).
func (b *block) summarize() {
	var m, slack uint64
	for q, r := range b.rs[:b.n] {
		if q > 0 && r.Start > m {
			slack = max(slack, r.Start-m)
		}
		m = max(m, r.End)
	}
	b.maxEnd, b.slack = m, slack
}

// poolBlocks is one pool's placed items as blocks (ids into
// graphState.blocks), ascending by offset.
type poolBlocks struct {
	ids []int32
	n   int // items
}

// insertBlocks inserts item i with range r into pool k's blocks, after the
// items that start at or below r.Start.
func (gs *graphState) insertBlocks(k int32, i int32, r interval.Range) {
	pool := &gs.pools[k]
	pool.n++
	if len(pool.ids) == 0 {
		id := gs.newBlock()
		pool.ids = append(pool.ids, id)
	}
	// The last block whose first item starts at or below r.Start (the
	// first block when none does): every later block starts above it.
	x, _ := slices.BinarySearchFunc(pool.ids, r.Start, func(id int32, s uint64) int {
		if gs.blocks[id].rs[0].Start <= s {
			return -1
		}
		return 1
	})
	x = max(x-1, 0)
	id := pool.ids[x]
	b := &gs.blocks[id]
	if b.n == blockCap {
		// Split: the upper half moves to a new block after b.
		nid := gs.newBlock()
		b = &gs.blocks[id] // newBlock may move the blocks
		nb := &gs.blocks[nid]
		h := int32(blockCap / 2)
		nb.n = b.n - h
		copy(nb.items[:], b.items[h:b.n])
		copy(nb.rs[:], b.rs[h:b.n])
		b.n = h
		for _, j := range nb.items[:nb.n] {
			gs.blockOf[j] = nid
		}
		b.summarize()
		nb.summarize()
		pool.ids = slices.Insert(pool.ids, x+1, nid)
		if nb.rs[0].Start <= r.Start {
			id, b = nid, nb
		}
	}
	// Insert after the ranges that start at or below r.
	q := int32(0)
	for q < b.n && b.rs[q].Start <= r.Start {
		q++
	}
	copy(b.items[q+1:b.n+1], b.items[q:b.n])
	copy(b.rs[q+1:b.n+1], b.rs[q:b.n])
	b.items[q], b.rs[q] = i, r
	b.n++
	b.summarize()
	gs.blockOf[i] = id
}

// newBlock appends an empty block and returns its id.
func (gs *graphState) newBlock() int32 {
	gs.blocks = append(gs.blocks, block{})
	gs.marks = append(gs.marks, 0)
	return int32(len(gs.blocks) - 1)
}

// markNonNeighbours counts, per block and per pool, the placed items that
// are not neighbours of the item whose row is row (it is not placed):
// O(n/64 + their number). The counts are cleared by clearMarks.
func (gs *graphState) markNonNeighbours(row []uint64) {
	for len(gs.poolMarks) < len(gs.pools) {
		gs.poolMarks = append(gs.poolMarks, 0)
	}
	for w, pw := range gs.placedBits {
		x := pw &^ row[w]
		for ; x != 0; x &= x - 1 {
			j := w<<6 + bits.TrailingZeros64(x)
			id := gs.blockOf[j]
			if gs.marks[id] == 0 {
				gs.marked = append(gs.marked, id)
			}
			gs.marks[id]++
			gs.poolMarks[gs.sol.Pool[j]]++
		}
	}
}

// clearMarks undoes markNonNeighbours.
func (gs *graphState) clearMarks() {
	for _, id := range gs.marked {
		gs.marks[id] = 0
	}
	gs.marked = gs.marked[:0]
	clear(gs.poolMarks)
}

// walkBlocks is first fit over pool k's blocks, for an item whose
// non-neighbours markNonNeighbours has counted: from x (aligned, and
// [x, x+size) within w), the lowest aligned offset that the pool's
// neighbours of the item (in row) leave free, ok false when there is none
// within w. The same answer as walkFirst over the pool's whole list.
func (gs *graphState) walkBlocks(k int, row []uint64, x, size, align uint64, w interval.Range) (uint64, bool) {
	limit := w.End - size // x fits while x <= limit
	mask := align - 1
	for _, id := range gs.pools[k].ids {
		b := &gs.blocks[id]
		var stop, fail bool
		if gs.marks[id] != 0 {
			x, stop, fail = walkItems(b.items[:b.n], b.rs[:b.n], row, x, size, mask, limit)
		} else if b.rs[0].Start >= x+size {
			return x, true
		} else if b.rs[b.n-1].Start < x+size || b.slack < size {
			y, carry := bits.Add64(b.maxEnd, mask, 0)
			x = max(x, y&^mask)
			fail = carry != 0 || x > limit
		} else {
			x, stop, fail = walkItems(nil, b.rs[:b.n], nil, x, size, mask, limit)
		}
		if stop {
			return x, true
		}
		if fail {
			return x, false
		}
	}
	return x, true
}

// walkItems is walkFirst over one block's items (limit = w.End − size,
// mask = align − 1): x after them, stop when an item starts above the gap
// [x, x+size) (x is final), fail when x left the window. A nil row means
// every item is a neighbour.
func walkItems(items []int32, rs []interval.Range, row []uint64, x, size, mask, limit uint64) (uint64, bool, bool) {
	if row == nil {
		for _, q := range rs {
			if q.Start >= x+size {
				return x, true, false
			}
			y, carry := bits.Add64(q.End, mask, 0)
			x = max(x, y&^mask)
			if carry != 0 || x > limit {
				return x, false, true
			}
		}
		return x, false, false
	}
	rs = rs[:len(items)]
	for k, j := range items {
		nb := -(row[j>>6] >> (uint(j) & 63) & 1) // all ones for a neighbour
		q := rs[k]
		e := q.End & nb
		var blocks, past uint64
		if e > x {
			blocks = 1
		}
		if q.Start >= x+size {
			past = 1
		}
		if blocks&past != 0 {
			return x, true, false // a neighbour starting above the gap [x, x+size)
		}
		y, carry := bits.Add64(e, mask, 0)
		x = max(x, y&^mask)
		if carry != 0 || x > limit {
			return x, false, true // only a neighbour moves x
		}
	}
	return x, false, false
}
