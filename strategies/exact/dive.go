package exact

import (
	"math"
	"sort"
)

// diver is the search for interval problems too large for propagation
// (tens of thousands of items and sections): the same canonical placement
// as search — the lowest point of the lowest run of sections is covered by
// an item starting there, or left empty — but without domains: floors in a
// segment tree, candidates from per-section start lists, a greedy choice
// and no backtracking. A dive costs O((n + raises) log T) and never fails;
// it is the heuristic half of the anytime search on large problems.
type diver struct {
	m     *model
	tree  floorTree
	cnt   countTree // remaining members per section
	ends  minTree   // per section: the smallest end of a remaining item starting there
	byEnd [][]int32 // items by first section, ascending end
	head  []int32   // byEnd[t][head[t]:] holds every remaining item starting at t
	off   []uint64
	done  []bool
}

func newDiver(m *model) *diver {
	d := &diver{m: m}
	n := len(m.size)
	d.byEnd = make([][]int32, m.nsec)
	for i := 0; i < n; i++ {
		d.byEnd[m.sa[i]] = append(d.byEnd[m.sa[i]], int32(i))
	}
	for _, st := range d.byEnd {
		sort.SliceStable(st, func(a, b int) bool { return m.sb[st[a]] < m.sb[st[b]] })
	}
	d.off = make([]uint64, n)
	d.done = make([]bool, n)
	d.head = make([]int32, m.nsec)
	d.tree = newFloorTree(m.nsec)
	d.ends = newMinTree(m.nsec)
	return d
}

// dive places every item greedily, preferring by better among the
// candidates of a point, and returns the peak; d.off holds the offsets.
// Each step (an item placed or a point raised) is charged to mt; ok is
// false when mt runs out, and then the offsets are incomplete.
func (d *diver) dive(better func(a, b int32) bool, mt *meter) (peak uint64, ok bool) {
	m := d.m
	for i := range d.done {
		d.done[i] = false
	}
	d.cnt = newCountTree(m.nsec)
	for t := 0; t < m.nsec; t++ {
		d.cnt.add(t, t+1, int64(m.count[t]))
		d.tree.set(t, 0)
		d.head[t] = 0
		d.updateEnd(t)
	}
	for left := len(m.size); left > 0; {
		if mt.tick(1) {
			return peak, false
		}
		f, t := d.tree.min()
		if f == math.MaxUint64 {
			break
		}
		end := d.tree.firstAbove(t, f) // the run at f is [t, end)
		u := d.ends.firstAtMost(t, end, int64(end))
		if u < 0 {
			u = end
		}
		if u > t {
			// No item fits in the run from [t, u): those points stay empty.
			d.tree.assign(t, u, d.holeHeight(t, end, f))
			continue
		}
		// Candidates start at t and end within the run.
		j := int32(-1)
		for _, i := range d.byEnd[t][d.head[t]:] {
			if int(m.sb[i]) > end {
				break
			}
			if d.done[i] || f%m.align[i] != 0 {
				continue
			}
			if j < 0 || better(i, j) {
				j = i
			}
		}
		if j < 0 {
			h := d.holeHeight(t, end, f)
			for _, i := range d.byEnd[t][d.head[t]:] {
				if !d.done[i] && int(m.sb[i]) <= end {
					h = min(h, alignUp(f+1, m.align[i]))
				}
			}
			d.tree.set(t, h)
			continue
		}
		d.done[j] = true
		d.off[j] = f
		top := f + m.size[j]
		peak = max(peak, top)
		d.tree.assign(int(m.sa[j]), int(m.sb[j]), top)
		d.cnt.add(int(m.sa[j]), int(m.sb[j]), -1)
		d.cnt.zeros(int(m.sa[j]), int(m.sb[j]), func(u int) { d.tree.set(u, math.MaxUint64) })
		d.updateEnd(t)
		left--
	}
	return peak, true
}

// updateEnd skips placed items at the head of section t's start list and
// records the smallest remaining end.
func (d *diver) updateEnd(t int) {
	st := d.byEnd[t]
	h := d.head[t]
	for int(h) < len(st) && d.done[st[h]] {
		h++
	}
	d.head[t] = h
	v := int64(math.MaxInt64)
	if int(h) < len(st) {
		v = int64(d.m.sb[st[h]])
	}
	d.ends.set(t, v)
}

// holeHeight is a lower bound on the offsets of the remaining members of
// sections [t, u) when nothing covers them at f and no item starting in
// [t, u) ends within the run [t, end): every such member spans t-1 or end.
func (d *diver) holeHeight(t, end int, f uint64) uint64 {
	h := uint64(math.MaxUint64)
	if t > 0 {
		h = min(h, d.tree.get(t-1))
	}
	if end < d.m.nsec {
		h = min(h, d.tree.get(end))
	}
	if h <= f {
		h = f + 1
	}
	return h
}

// minTree is a segment tree of int64 values with point updates and the
// first index of a range whose value is at most x.
type minTree struct {
	size int
	mn   []int64
}

func newMinTree(n int) minTree {
	size := 1
	for size < n {
		size *= 2
	}
	t := minTree{size: size, mn: make([]int64, 2*size)}
	for i := range t.mn {
		t.mn[i] = math.MaxInt64
	}
	return t
}

func (t *minTree) set(i int, v int64) {
	x := t.size + i
	t.mn[x] = v
	for x /= 2; x >= 1; x /= 2 {
		t.mn[x] = min(t.mn[2*x], t.mn[2*x+1])
	}
}

// firstAtMost returns the first index in [a, b) whose value is ≤ x, or -1.
func (t *minTree) firstAtMost(a, b int, x int64) int {
	return t.rec(1, 0, t.size, a, b, x)
}

func (t *minTree) rec(node, l, r, a, b int, x int64) int {
	if b <= l || r <= a || t.mn[node] > x {
		return -1
	}
	if r-l == 1 {
		return l
	}
	mid := (l + r) / 2
	if v := t.rec(2*node, l, mid, a, b, x); v >= 0 {
		return v
	}
	return t.rec(2*node+1, mid, r, a, b, x)
}

// floorTree is a segment tree over section floors (MaxUint64 for dead
// sections) with range assignment, the leftmost minimum, and the first
// section at or after t whose floor exceeds f.
type floorTree struct {
	n        int
	mn, mx   []uint64
	lazy     []uint64
	hasLazy  []bool
	minIndex []int32
}

func newFloorTree(n int) floorTree {
	size := 1
	for size < n {
		size *= 2
	}
	t := floorTree{n: n, mn: make([]uint64, 2*size), mx: make([]uint64, 2*size),
		lazy: make([]uint64, 2*size), hasLazy: make([]bool, 2*size), minIndex: make([]int32, 2*size)}
	t.build(1, 0, size)
	return t
}

func (t *floorTree) build(x, l, r int) {
	if r-l == 1 {
		if l < t.n {
			t.mn[x], t.mx[x] = 0, 0
		} else {
			t.mn[x], t.mx[x] = math.MaxUint64, math.MaxUint64
		}
		t.minIndex[x] = int32(l)
		return
	}
	mid := (l + r) / 2
	t.build(2*x, l, mid)
	t.build(2*x+1, mid, r)
	t.pull(x)
}

func (t *floorTree) size() int { return len(t.mn) / 2 }

func (t *floorTree) pull(x int) {
	a, b := 2*x, 2*x+1
	if t.mn[a] <= t.mn[b] {
		t.mn[x], t.minIndex[x] = t.mn[a], t.minIndex[a]
	} else {
		t.mn[x], t.minIndex[x] = t.mn[b], t.minIndex[b]
	}
	t.mx[x] = max(t.mx[a], t.mx[b])
}

func (t *floorTree) apply(x int, v uint64, l int) {
	t.mn[x], t.mx[x] = v, v
	t.minIndex[x] = int32(l)
	t.lazy[x], t.hasLazy[x] = v, true
}

func (t *floorTree) push(x, l, r int) {
	if t.hasLazy[x] {
		mid := (l + r) / 2
		t.apply(2*x, t.lazy[x], l)
		t.apply(2*x+1, t.lazy[x], mid)
		t.hasLazy[x] = false
	}
}

// assign sets the floors of [a, b) to v.
func (t *floorTree) assign(a, b int, v uint64) { t.assignRec(1, 0, t.size(), a, b, v) }

func (t *floorTree) assignRec(x, l, r, a, b int, v uint64) {
	if b <= l || r <= a {
		return
	}
	if a <= l && r <= b {
		t.apply(x, v, l)
		return
	}
	t.push(x, l, r)
	mid := (l + r) / 2
	t.assignRec(2*x, l, mid, a, b, v)
	t.assignRec(2*x+1, mid, r, a, b, v)
	t.pull(x)
}

func (t *floorTree) set(i int, v uint64) { t.assign(i, i+1, v) }

func (t *floorTree) get(i int) uint64 {
	x, l, r := 1, 0, t.size()
	for r-l > 1 {
		t.push(x, l, r)
		mid := (l + r) / 2
		if i < mid {
			x, r = 2*x, mid
		} else {
			x, l = 2*x+1, mid
		}
	}
	return t.mn[x]
}

// min returns the smallest floor and its leftmost section.
func (t *floorTree) min() (uint64, int) { return t.mn[1], int(t.minIndex[1]) }

// firstAbove returns the first section ≥ i whose floor exceeds f, or n.
func (t *floorTree) firstAbove(i int, f uint64) int {
	r := t.firstAboveRec(1, 0, t.size(), i, f)
	if r < 0 || r > t.n {
		return t.n
	}
	return r
}

func (t *floorTree) firstAboveRec(x, l, r, i int, f uint64) int {
	if r <= i || t.mx[x] <= f {
		return -1
	}
	if r-l == 1 {
		return l
	}
	t.push(x, l, r)
	mid := (l + r) / 2
	if v := t.firstAboveRec(2*x, l, mid, i, f); v >= 0 {
		return v
	}
	return t.firstAboveRec(2*x+1, mid, r, i, f)
}

// countTree holds per-section counts with range add and a walk over the
// sections of a range whose count is 0 (each reported until it is set
// again: dead sections are reported once, then masked).
type countTree struct {
	n    int
	mn   []int64
	lazy []int64
}

func newCountTree(n int) countTree {
	size := 1
	for size < n {
		size *= 2
	}
	c := countTree{n: n, mn: make([]int64, 2*size), lazy: make([]int64, 2*size)}
	for i := n; i < size; i++ {
		c.mn[size+i] = math.MaxInt64 / 2
	}
	for x := size - 1; x >= 1; x-- {
		c.mn[x] = min(c.mn[2*x], c.mn[2*x+1])
	}
	return c
}

func (c *countTree) size() int { return len(c.mn) / 2 }

func (c *countTree) add(a, b int, v int64) { c.addRec(1, 0, c.size(), a, b, v) }

func (c *countTree) addRec(x, l, r, a, b int, v int64) {
	if b <= l || r <= a {
		return
	}
	if a <= l && r <= b {
		c.mn[x] += v
		c.lazy[x] += v
		return
	}
	mid := (l + r) / 2
	c.addRec(2*x, l, mid, a, b, v)
	c.addRec(2*x+1, mid, r, a, b, v)
	c.mn[x] = min(c.mn[2*x], c.mn[2*x+1]) + c.lazy[x]
}

// zeros calls fn for each section of [a, b) whose count is 0 and then
// masks it (adds a large value) so that it is reported once.
func (c *countTree) zeros(a, b int, fn func(int)) { c.zerosRec(1, 0, c.size(), a, b, 0, fn) }

func (c *countTree) zerosRec(x, l, r, a, b int, acc int64, fn func(int)) {
	if b <= l || r <= a || c.mn[x]+acc > 0 {
		return
	}
	if r-l == 1 {
		fn(l)
		c.mn[x] += math.MaxInt64 / 4
		return
	}
	acc += c.lazy[x]
	mid := (l + r) / 2
	c.zerosRec(2*x, l, mid, a, b, acc, fn)
	c.zerosRec(2*x+1, mid, r, a, b, acc, fn)
	c.mn[x] = min(c.mn[2*x], c.mn[2*x+1]) + c.lazy[x]
}
