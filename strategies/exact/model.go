package exact

import (
	"math"
	"sort"

	"github.com/aliasplan/aliasplan/planner"
)

// model is one independent component of a problem in the form the search
// needs: items re-indexed 0..n-1 in order of (first section, last section,
// size, alignment, problem index), time sections, and the interference that
// sections do not express.
//
// A section is a set of pairwise interfering items. For interval problems
// (and graph problems whose lifetimes are consistent with their
// interference, see windowsValid) the sections are the elementary time
// segments between consecutive distinct lifetime end points, and item i is
// a member of sections [sa[i], sb[i]). Otherwise every item is alone in its
// own section and all interference goes through nbr.
type model struct {
	orig  []int32 // model index → problem index
	size  []uint64
	align []uint64
	sa    []int32 // first section of the item
	sb    []int32 // one past its last section; sa < sb
	nsec  int

	// members of section t: mem[memStart[t]:memStart[t+1]], ascending.
	memStart []int32
	mem      []int32

	// Interfering pairs that share no section: nbr[nbrStart[i]:nbrStart[i+1]].
	// Empty for interval problems.
	nbrStart []int32
	nbr      []int32

	// twin[i] is the item just before i that is interchangeable with it
	// (same sections, size, alignment and neighbours), or -1. The search
	// places twins in index order.
	twin []int32

	load    []uint64 // total size of the members of each section
	maxLoad uint64   // the largest load: a lower bound for the component
	minSize uint64
	spans   int64 // sum of the items' section counts: the cost of a full scan
}

// components splits p into groups of items such that items of different
// groups never interfere; each group is ascending. Interval problems are
// cut at times no lifetime crosses; graph problems by connected components
// of the interference graph.
func components(p *planner.Problem) [][]int32 {
	n := len(p.Items)
	if n == 0 {
		return nil
	}
	var out [][]int32
	if p.Intervals() {
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
		sort.Slice(idx, func(a, b int) bool {
			x, y := &p.Items[idx[a]], &p.Items[idx[b]]
			if x.Start != y.Start {
				return x.Start < y.Start
			}
			return idx[a] < idx[b]
		})
		var cur []int32
		var end int64
		for _, i := range idx {
			it := &p.Items[i]
			if len(cur) > 0 && it.Start >= end {
				out = append(out, cur)
				cur = nil
			}
			if len(cur) == 0 || it.End > end {
				end = it.End
			}
			cur = append(cur, i)
		}
		out = append(out, cur)
	} else {
		comp := make([]int32, n)
		for i := range comp {
			comp[i] = -1
		}
		var stack []int32
		for s := 0; s < n; s++ {
			if comp[s] >= 0 {
				continue
			}
			c := int32(len(out))
			comp[s] = c
			cur := []int32{int32(s)}
			stack = append(stack[:0], int32(s))
			for len(stack) > 0 {
				i := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, j := range p.Neighbors(int(i)) {
					if comp[j] < 0 {
						comp[j] = c
						cur = append(cur, j)
						stack = append(stack, j)
					}
				}
			}
			out = append(out, cur)
		}
	}
	for _, c := range out {
		sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
	}
	return out
}

// windowsValid reports whether, among the given items of a graph problem,
// every two items whose lifetimes overlap interfere: then time sections
// are sets of pairwise interfering items. Compile's problems have this
// property (an item entirely before another ends before it starts), but
// Problem does not promise it. Cost O(n log n + overlapping pairs · log d).
func windowsValid(p *planner.Problem, items []int32) bool {
	idx := append([]int32(nil), items...)
	sort.Slice(idx, func(a, b int) bool {
		x, y := &p.Items[idx[a]], &p.Items[idx[b]]
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return idx[a] < idx[b]
	})
	var active []int32
	for _, i := range idx {
		it := &p.Items[i]
		w := 0
		for _, j := range active {
			if p.Items[j].End > it.Start {
				active[w] = j
				w++
				if !p.Interferes(int(i), int(j)) {
					return false
				}
			}
		}
		active = append(active[:w], i)
	}
	return true
}

// buildModel builds the model of one component (ascending problem indexes).
// sectioned selects time sections; without it every item gets a section of
// its own.
func buildModel(p *planner.Problem, items []int32, sectioned bool) *model {
	n := len(items)
	m := &model{nsec: 0}
	// Section boundaries.
	starts := make([]int64, n)
	ends := make([]int64, n)
	if sectioned {
		pts := make([]int64, 0, 2*n)
		for _, i := range items {
			pts = append(pts, p.Items[i].Start, p.Items[i].End)
		}
		sort.Slice(pts, func(a, b int) bool { return pts[a] < pts[b] })
		w := 0
		for k, t := range pts {
			if k == 0 || t != pts[w-1] {
				pts[w] = t
				w++
			}
		}
		pts = pts[:w]
		pos := func(t int64) int64 {
			return int64(sort.Search(len(pts), func(k int) bool { return pts[k] >= t }))
		}
		for k, i := range items {
			starts[k] = pos(p.Items[i].Start)
			ends[k] = pos(p.Items[i].End)
		}
		m.nsec = len(pts) - 1
	} else {
		// Order the private sections by lifetime so that neighbouring
		// items get neighbouring sections (a better search order).
		tmp := make([]int, n)
		for k := range tmp {
			tmp[k] = k
		}
		sort.SliceStable(tmp, func(a, b int) bool {
			x, y := &p.Items[items[tmp[a]]], &p.Items[items[tmp[b]]]
			if x.Start != y.Start {
				return x.Start < y.Start
			}
			return x.End < y.End
		})
		for s, k := range tmp {
			starts[k] = int64(s)
			ends[k] = int64(s + 1)
		}
		m.nsec = n
	}
	// Model order.
	ord := make([]int, n)
	for k := range ord {
		ord[k] = k
	}
	sort.Slice(ord, func(a, b int) bool {
		x, y := ord[a], ord[b]
		if starts[x] != starts[y] {
			return starts[x] < starts[y]
		}
		if ends[x] != ends[y] {
			return ends[x] < ends[y]
		}
		ix, iy := &p.Items[items[x]], &p.Items[items[y]]
		if ix.Size != iy.Size {
			return ix.Size > iy.Size
		}
		if ix.Alignment != iy.Alignment {
			return ix.Alignment > iy.Alignment
		}
		return items[x] < items[y]
	})
	m.orig = make([]int32, n)
	m.size = make([]uint64, n)
	m.align = make([]uint64, n)
	m.sa = make([]int32, n)
	m.sb = make([]int32, n)
	m.minSize = math.MaxUint64
	for mi, k := range ord {
		it := &p.Items[items[k]]
		m.orig[mi] = items[k]
		m.size[mi] = it.Size
		m.align[mi] = it.Alignment
		m.sa[mi] = int32(starts[k])
		m.sb[mi] = int32(ends[k])
		m.minSize = min(m.minSize, it.Size)
		m.spans += ends[k] - starts[k]
	}
	// Members and loads.
	m.memStart = make([]int32, m.nsec+1)
	for i := 0; i < n; i++ {
		for t := m.sa[i]; t < m.sb[i]; t++ {
			m.memStart[t+1]++
		}
	}
	for t := 0; t < m.nsec; t++ {
		m.memStart[t+1] += m.memStart[t]
	}
	m.mem = make([]int32, m.memStart[m.nsec])
	fill := append([]int32(nil), m.memStart[:m.nsec]...)
	m.load = make([]uint64, m.nsec)
	for i := 0; i < n; i++ {
		for t := m.sa[i]; t < m.sb[i]; t++ {
			m.mem[fill[t]] = int32(i)
			fill[t]++
			m.load[t] = satAdd(m.load[t], m.size[i])
		}
	}
	for _, l := range m.load {
		m.maxLoad = max(m.maxLoad, l)
	}
	// Neighbours that share no section (graph problems only).
	m.nbrStart = make([]int32, n+1)
	if !p.Intervals() {
		inv := make([]int32, len(p.Items))
		for mi, pi := range m.orig {
			inv[pi] = int32(mi)
		}
		for mi := 0; mi < n; mi++ {
			for _, pj := range p.Neighbors(int(m.orig[mi])) {
				mj := inv[pj]
				if m.sb[mi] <= m.sa[mj] || m.sb[mj] <= m.sa[mi] {
					m.nbr = append(m.nbr, mj)
				}
			}
			m.nbrStart[mi+1] = int32(len(m.nbr))
			row := m.nbr[m.nbrStart[mi]:]
			sort.Slice(row, func(a, b int) bool { return row[a] < row[b] })
		}
	}
	// Twins: adjacent in model order by construction.
	m.twin = make([]int32, n)
	for i := 0; i < n; i++ {
		m.twin[i] = -1
		if i == 0 {
			continue
		}
		j := i - 1
		if m.sa[i] != m.sa[j] || m.sb[i] != m.sb[j] || m.size[i] != m.size[j] || m.align[i] != m.align[j] {
			continue
		}
		if !sameNeighbours(m, i, j) {
			continue
		}
		m.twin[i] = int32(j)
	}
	return m
}

// sameNeighbours reports whether i and j have the same extra neighbours,
// each other aside.
func sameNeighbours(m *model, i, j int) bool {
	a := m.nbr[m.nbrStart[i]:m.nbrStart[i+1]]
	b := m.nbr[m.nbrStart[j]:m.nbrStart[j+1]]
	x, y := 0, 0
	for {
		for x < len(a) && int(a[x]) == j {
			x++
		}
		for y < len(b) && int(b[y]) == i {
			y++
		}
		if x == len(a) || y == len(b) {
			return x == len(a) && y == len(b)
		}
		if a[x] != b[y] {
			return false
		}
		x++
		y++
	}
}

func (m *model) members(t int) []int32 { return m.mem[m.memStart[t]:m.memStart[t+1]] }

func (m *model) neighbours(i int) []int32 { return m.nbr[m.nbrStart[i]:m.nbrStart[i+1]] }

// satAdd returns a+b, saturated at math.MaxUint64.
func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}

// alignUp rounds x up to a multiple of the power of two a, saturating.
func alignUp(x, a uint64) uint64 {
	r := (x + a - 1) &^ (a - 1)
	if r < x {
		return math.MaxUint64 &^ (a - 1)
	}
	return r
}
