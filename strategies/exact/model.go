package exact

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/aliasplan/aliasplan/interval"
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
	sa    []int32 // first time section of the item
	sb    []int32 // one past its last time section; sa < sb
	nsec  int     // sections: time sections [0, ntime), then cliques
	ntime int

	// Graph problems: cliques of the interference graph that are not
	// time sections (sets of items pairwise unordered though their
	// lifetimes do not all meet), as extra sections [ntime, nsec). Item
	// i's are xs[xStart[i]:xStart[i+1]]; nil for interval problems.
	xStart  []int32
	xs      []int32
	cliques [][]int32

	// members of section t: mem[memStart[t]:memStart[t+1]], ascending;
	// nil until buildMembers. bySize holds the same lists in order of
	// size (then index).
	memStart []int32
	mem      []int32
	bySize   []int32

	// Interfering pairs that share no section: nbr[nbrStart[i]:nbrStart[i+1]].
	// Empty for interval problems.
	nbrStart []int32
	nbr      []int32

	// twin[i] is the item just before i that is interchangeable with it
	// (same sections, size, alignment and neighbours), or -1. The search
	// places twins in index order.
	twin []int32

	load    []uint64 // total size of the members of each section
	count   []int32  // number of members of each section
	maxLoad uint64   // the largest load: a lower bound for the component
	spans   int64    // sum of the items' section counts: the cost of a full scan
	// gran: the largest power of two that divides every size; align
	// holds max(alignment, gran).
	gran uint64
	// big: a graph component with too many pairs outside its sections
	// for neighbour lists (maxModelPairs); it has no nbr, twins or
	// cliques, and only its greedy placement.
	big bool
}

// components splits p into groups of items such that items of different
// groups never interfere; each group is ascending. Interval problems are
// cut at times no lifetime crosses; graph problems by connected components
// of the interference graph. It returns nil when mt runs out.
func components(p *planner.Problem, mt *meter) [][]int32 {
	n := len(p.Items)
	if n == 0 {
		return nil
	}
	var out [][]int32
	if p.Intervals() {
		// Charged before the sort, so that a spent budget skips it.
		if mt.tick(nlogn(n)) {
			return nil
		}
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
				if mt.tick(int64(len(p.Row(int(i)))) + 1) {
					return nil
				}
				for j := range p.Neighbors(int(i)) {
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
// When mt runs out it returns false (the caller sees mt.over).
func windowsValid(p *planner.Problem, items []int32, mt *meter) bool {
	if mt.tick(nlogn(len(items))) {
		return false
	}
	at := func(k int) interval.Placed {
		it := &p.Items[items[k]]
		// Flipping the sign bit keeps the order of signed times.
		return interval.Placed{Range: interval.Range{Start: uint64(it.Start) ^ 1<<63, End: uint64(it.End) ^ 1<<63}}
	}
	for a, b := range interval.Overlaps(len(items), at) {
		if mt.tick(1) || !p.Interferes(int(items[a]), int(items[b])) {
			return false
		}
	}
	return true
}

// buildModel builds the model of one component (ascending problem indexes).
// sectioned selects time sections; without it every item gets a section of
// its own. It returns nil when mt runs out. A graph component with more
// than maxModelPairs interfering pairs gets a model marked big, without
// neighbour lists (they would cost memory quadratic in its size): the
// search is not for it.
func buildModel(p *planner.Problem, items []int32, sectioned bool, mt *meter) *model {
	n := len(items)
	if mt.tick(nlogn(n)) {
		return nil
	}
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
	// The granularity: every size is a multiple of g, the largest power
	// of two dividing them all, so every canonical offset is a multiple
	// of max(alignment, g) (docs/exact.md) and the search may use that
	// as the alignment.
	m.gran = uint64(1) << 63
	for _, i := range items {
		m.gran = min(m.gran, p.Items[i].Size&-p.Items[i].Size)
	}
	m.orig = make([]int32, n)
	m.size = make([]uint64, n)
	m.align = make([]uint64, n)
	m.sa = make([]int32, n)
	m.sb = make([]int32, n)
	for mi, k := range ord {
		it := &p.Items[items[k]]
		m.orig[mi] = items[k]
		m.size[mi] = it.Size
		m.align[mi] = max(it.Alignment, m.gran)
		m.sa[mi] = int32(starts[k])
		m.sb[mi] = int32(ends[k])
		m.spans += ends[k] - starts[k]
	}
	// Loads by a difference array, O(n + sections), which is exact unless
	// the sizes add up beyond 2⁶⁴; then section by section, saturating.
	var total uint64
	for i := 0; i < n; i++ {
		total = satAdd(total, m.size[i])
	}
	m.load = make([]uint64, m.nsec+1)
	m.count = make([]int32, m.nsec+1)
	for i := 0; i < n; i++ {
		m.load[m.sa[i]] += m.size[i]
		m.load[m.sb[i]] -= m.size[i]
		m.count[m.sa[i]]++
		m.count[m.sb[i]]--
	}
	for t := 1; t <= m.nsec; t++ {
		m.load[t] += m.load[t-1]
		m.count[t] += m.count[t-1]
	}
	m.load, m.count = m.load[:m.nsec], m.count[:m.nsec]
	if total == math.MaxUint64 {
		for t := range m.load {
			m.load[t] = 0
		}
		for i := 0; i < n; i++ {
			for t := m.sa[i]; t < m.sb[i]; t++ {
				m.load[t] = satAdd(m.load[t], m.size[i])
			}
		}
	}
	for _, l := range m.load {
		m.maxLoad = max(m.maxLoad, l)
	}
	// Neighbours that share no section (graph problems only): the one
	// place that reads the problem's interference row by row.
	m.nbrStart = make([]int32, n+1)
	if !p.Intervals() {
		inv := make([]int32, len(p.Items))
		for mi, pi := range m.orig {
			inv[pi] = int32(mi)
		}
		for mi := 0; mi < n; mi++ {
			pi := int(m.orig[mi])
			deg := p.Degree(pi)
			if mt.tick(int64(len(p.Row(pi)) + deg)) {
				return nil
			}
			if len(m.nbr)+deg > maxModelPairs {
				m.big = true
				m.nbr, m.nbrStart = nil, make([]int32, n+1)
				break
			}
			for pj := range p.Neighbors(pi) {
				mj := inv[pj]
				if m.sb[mi] <= m.sa[mj] || m.sb[mj] <= m.sa[mi] {
					m.nbr = append(m.nbr, mj)
				}
			}
			m.nbrStart[mi+1] = int32(len(m.nbr))
			own := m.nbr[m.nbrStart[mi]:]
			sort.Slice(own, func(a, b int) bool { return own[a] < own[b] })
		}
	}
	if m.big {
		return m
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
	m.ntime = m.nsec
	if len(m.nbr) > 0 && n <= maxCliqueItems && !m.addCliques(mt) {
		return nil
	}
	return m
}

// maxCliqueItems bounds the clique search (an n² bit matrix).
const maxCliqueItems = 4000

// maxModelPairs bounds a model's neighbour lists (4 bytes a pair and as
// many in the shaker): larger graph components are placed greedily.
const maxModelPairs = 4 << 20

// nlogn is the step charge of sorting n things.
func nlogn(n int) int64 { return int64(n) * int64(bits.Len(uint(n))+1) }

// addCliques adds, as extra sections, greedy heavy cliques of the
// interference graph that no time section contains: one grown from each
// item, heaviest neighbour first, duplicates dropped. They carry the
// interference that lifetimes miss (for a render graph, most of it), so
// the section rules see the sets that make the lower bound. It returns
// false when mt runs out.
//
// The bit matrix is indexed by rank in the order of decreasing size, so
// the heaviest candidate is the lowest set bit: a clique of k members
// costs O(k·n/64).
func (m *model) addCliques(mt *meter) bool {
	n := len(m.size)
	words := (n + 63) / 64
	bySize := make([]int32, n) // rank → item
	for i := range bySize {
		bySize[i] = int32(i)
	}
	sort.SliceStable(bySize, func(a, b int) bool { return m.size[bySize[a]] > m.size[bySize[b]] })
	rank := make([]int32, n)
	for r, i := range bySize {
		rank[i] = int32(r)
	}
	adj := make([]uint64, n*words)
	row := func(r int32) []uint64 { return adj[int(r)*words : (int(r)+1)*words] }
	for i := 0; i < n; i++ {
		if mt.tick(int64(n + len(m.neighbours(i)))) {
			return false
		}
		r := row(rank[i])
		for _, j := range m.neighbours(i) {
			rj := rank[j]
			r[rj/64] |= 1 << (rj % 64)
		}
		// Time-overlapping items interfere too.
		for j := 0; j < n; j++ {
			if j != i && m.sa[j] < m.sb[i] && m.sa[i] < m.sb[j] {
				rj := rank[j]
				r[rj/64] |= 1 << (rj % 64)
			}
		}
	}
	seen := map[uint64][][]int32{} // cliques by hash
	cand := make([]uint64, words)
	var members []int32
	xcount := make([]int32, n+1)
	budget := 4*m.spans + int64(4*n)
	for _, seed := range bySize {
		copy(cand, row(rank[seed]))
		members = append(members[:0], seed)
		for w0 := 0; ; {
			if mt.tick(int64(words)) {
				return false
			}
			// The heaviest remaining candidate: the lowest rank.
			for w0 < words && cand[w0] == 0 {
				w0++
			}
			if w0 == words {
				break
			}
			v := bySize[w0*64+bits.TrailingZeros64(cand[w0])]
			members = append(members, v)
			r := row(rank[v])
			for w := w0; w < words; w++ {
				cand[w] &= r[w]
			}
		}
		// A set of pairwise overlapping lifetimes shares a point (Helly),
		// so it lies in a time section already.
		var maxA, minB int32 = 0, math.MaxInt32
		for _, k := range members {
			maxA, minB = max(maxA, m.sa[k]), min(minB, m.sb[k])
		}
		if maxA < minB || len(members) < 3 {
			continue
		}
		c := append([]int32(nil), members...)
		sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
		h := fnv.New64a()
		for _, k := range c {
			binary.Write(h, binary.LittleEndian, k)
		}
		key := h.Sum64()
		if slices.ContainsFunc(seen[key], func(d []int32) bool { return slices.Equal(c, d) }) {
			continue
		}
		seen[key] = append(seen[key], c)
		if budget -= int64(len(c)); budget < 0 {
			break
		}
		m.cliques = append(m.cliques, c)
		for _, k := range c {
			xcount[k+1]++
		}
	}
	m.xStart = make([]int32, n+1)
	for i := 0; i < n; i++ {
		m.xStart[i+1] = m.xStart[i] + xcount[i+1]
	}
	m.xs = make([]int32, m.xStart[n])
	fill := append([]int32(nil), m.xStart[:n]...)
	for q, c := range m.cliques {
		t := int32(m.ntime + q)
		var load uint64
		for _, k := range c {
			m.xs[fill[k]] = t
			fill[k]++
			load = satAdd(load, m.size[k])
		}
		m.load = append(m.load, load)
		m.count = append(m.count, int32(len(c)))
		m.maxLoad = max(m.maxLoad, load)
		m.spans += int64(len(c))
	}
	m.nsec = m.ntime + len(m.cliques)
	return true
}

// extra returns item i's clique sections.
func (m *model) extra(i int32) []int32 {
	if m.xStart == nil {
		return nil
	}
	return m.xs[m.xStart[i]:m.xStart[i+1]]
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

// reversed returns the model with time reversed (section t becomes
// nsec-1-t), items keeping their indexes, for the dives; it has no member
// lists.
func (m *model) reversed() *model {
	r := *m
	n := len(m.size)
	r.sa, r.sb = make([]int32, n), make([]int32, n)
	for i := 0; i < n; i++ {
		r.sa[i] = int32(m.nsec) - m.sb[i]
		r.sb[i] = int32(m.nsec) - m.sa[i]
	}
	r.load, r.count = make([]uint64, m.nsec), make([]int32, m.nsec)
	for t := 0; t < m.nsec; t++ {
		r.load[t], r.count[t] = m.load[m.nsec-1-t], m.count[m.nsec-1-t]
	}
	r.memStart, r.mem = nil, nil
	return &r
}

// buildMembers fills the member lists: O(spans) time and memory, so only
// for models the propagating search takes on.
func (m *model) buildMembers() {
	if m.memStart != nil {
		return
	}
	m.memStart = make([]int32, m.nsec+1)
	for t := 0; t < m.nsec; t++ {
		m.memStart[t+1] = m.memStart[t] + m.count[t]
	}
	m.mem = make([]int32, m.memStart[m.nsec])
	fill := append([]int32(nil), m.memStart[:m.nsec]...)
	for i := range m.size {
		for t := m.sa[i]; t < m.sb[i]; t++ {
			m.mem[fill[t]] = int32(i)
			fill[t]++
		}
	}
	for q, c := range m.cliques {
		copy(m.mem[m.memStart[m.ntime+q]:], c)
	}
	m.bySize = append([]int32(nil), m.mem...)
	for t := 0; t < m.nsec; t++ {
		l := m.bySize[m.memStart[t]:m.memStart[t+1]]
		sort.Slice(l, func(a, b int) bool {
			if m.size[l[a]] != m.size[l[b]] {
				return m.size[l[a]] < m.size[l[b]]
			}
			return l[a] < l[b]
		})
	}
}

// membersBySize returns the members of section t in order of size.
func (m *model) membersBySize(t int) []int32 { return m.bySize[m.memStart[t]:m.memStart[t+1]] }

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
