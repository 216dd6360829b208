package exact

import "sort"

// sweeper decides capacity c for a model in which every section's load is
// exactly c (zero slack everywhere, as in a perfect tiling). Then every
// section is tiled without gaps, and at each section boundary the items
// that start there must tile, exactly, the gaps left by the items that
// ended there. It sweeps the sections in time order and fills each
// section's gaps bottom up with the items that start in it, which is far
// more constrained than growing the placement bottom up: exact fills of
// arbitrary gap lengths by arbitrary sizes are rare by coincidence.
type sweeper struct {
	m      *model
	c      uint64
	first  []int32 // first[t]: the first item whose first section is ≥ t
	off    []uint64
	used   []bool
	nodes  int64
	limit  int64
	stop   func() bool
	status status
}

type seg struct {
	off, end uint64
	item     int32
}

func newSweeper(m *model, first []int32) *sweeper {
	return &sweeper{m: m, first: first, off: make([]uint64, len(m.size)), used: make([]bool, len(m.size))}
}

// applies reports whether every section's load is c.
func (m *model) tight(c uint64) bool {
	for _, l := range m.load {
		if l != c {
			return false
		}
	}
	return true
}

func (w *sweeper) run(c uint64, budget int64) status {
	w.c = c
	w.limit = w.nodes + budget
	for i := range w.used {
		w.used[i] = false
	}
	w.status = exhausted
	if w.section(0, nil) {
		return found
	}
	return w.status
}

// section fills section k given the segments of the items placed so far
// that are live in section k-1.
func (w *sweeper) section(k int, prev []seg) bool {
	m := w.m
	if k == m.nsec {
		return true
	}
	col := make([]seg, 0, len(prev)+int(w.first[k+1]-w.first[k]))
	for _, s := range prev {
		if m.sb[s.item] > int32(k) {
			col = append(col, s)
		}
	}
	return w.fill(k, col, 0, -1)
}

// fill places the next item of section k at the lowest free point of col
// at or above from. last is the item that ends at from if it was placed in
// this section, else -1.
func (w *sweeper) fill(k int, col []seg, from uint64, last int32) bool {
	m := w.m
	if w.nodes >= w.limit {
		w.status = aborted
		return false
	}
	w.nodes++
	if w.stop != nil && w.nodes&255 == 0 && w.stop() {
		w.limit = w.nodes
		w.status = aborted
		return false
	}
	// Lowest free point at or above from. col is sorted by offset.
	x := from
	gapEnd := w.c
	idx := sort.Search(len(col), func(i int) bool { return col[i].end > x })
	for idx < len(col) && col[idx].off <= x {
		x = col[idx].end
		last = -1
		idx++
	}
	if x >= w.c {
		// The section is full; the items that start here must all be used,
		// which zero slack guarantees.
		next := make([]seg, len(col))
		copy(next, col)
		return w.section(k+1, next)
	}
	if idx < len(col) {
		gapEnd = col[idx].off
	}
	gap := gapEnd - x
	lo, hi := w.first[k], w.first[k+1]
	if !w.fillable(lo, hi, gap) {
		return false
	}
	for j := lo; j < hi; j++ {
		if w.used[j] || m.size[j] > gap || x%m.align[j] != 0 {
			continue
		}
		if tw := m.twin[j]; tw >= 0 && !w.used[tw] {
			continue // twins in index order
		}
		// Adjacent new items that end together can swap: keep index order.
		if last >= 0 && m.sb[last] == m.sb[j] && last > j {
			continue
		}
		w.used[j] = true
		w.off[j] = x
		s := seg{x, x + m.size[j], j}
		col2 := make([]seg, 0, len(col)+1)
		col2 = append(col2, col[:idx]...)
		col2 = append(col2, s)
		col2 = append(col2, col[idx:]...)
		if w.fill(k, col2, s.end, j) {
			return true
		}
		w.used[j] = false
		if w.status == aborted {
			return false
		}
	}
	return false
}

// fillable reports whether some unused items of [lo, hi) add up to gap
// exactly (small sets only; larger ones are assumed fillable).
func (w *sweeper) fillable(lo, hi int32, gap uint64) bool {
	m := w.m
	var sz [20]uint64
	n := 0
	var total uint64
	for j := lo; j < hi; j++ {
		if w.used[j] {
			continue
		}
		if n == len(sz) {
			return true
		}
		if m.size[j] <= gap {
			sz[n] = m.size[j]
			total += m.size[j]
			n++
		}
	}
	if total < gap {
		return false
	}
	if total == gap {
		return true
	}
	return subsetSum(sz[:n], gap, total)
}

// subsetSum reports whether some of sz add up to target; rest is the sum
// of sz.
func subsetSum(sz []uint64, target, rest uint64) bool {
	if target == 0 {
		return true
	}
	if len(sz) == 0 || rest < target {
		return false
	}
	if rest == target {
		return true
	}
	s := sz[0]
	if s <= target && subsetSum(sz[1:], target-s, rest-s) {
		return true
	}
	return subsetSum(sz[1:], target, rest-s)
}
