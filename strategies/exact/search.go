package exact

import (
	"math"
	"sort"
)

var dbgHist []int64
var dbgRef []uint64

func (s *search) consistent() bool {
	for i, p := range s.placed {
		if p && s.off[i] != dbgRef[i] {
			return false
		}
	}
	return true
}

// status is the outcome of a search or of one subtree.
type status uint8

const (
	found     status = iota // every item of the scope placed within the capacity
	exhausted               // no placement within the capacity (proven)
	aborted                 // the node budget ran out
)

// undo kinds.
const (
	undoFloor  = iota // floor[idx] = old
	undoNbrEnd        // nbrEnd[idx] = old
	undoPlace         // unplace item idx
)

type undo struct {
	kind uint8
	idx  int32
	old  uint64
}

// search decides whether a model fits in capacity c, by depth-first search
// over canonical placements (docs/exact.md). It is reused across
// capacities: run resets it.
type search struct {
	m *model
	c uint64

	off    []uint64
	placed []bool
	floor  []uint64 // per section: no remaining member can sit lower
	rem    []uint64 // per section: total size of the remaining members
	cnt    []int32  // per section: number of remaining members
	nbrEnd []uint64 // per item: the highest end of a placed extra neighbour
	trail  []undo

	firstItem []int32 // firstItem[t]: the first item whose first section is ≥ t
	rank      []int32 // value order: lower rank is tried first

	// Per-node scratch.
	minoff []uint64 // per item: lowest aligned offset any placement allows
	ef     []uint64 // per section: lowest offset of its next member
	reach  []bool
	rel    []int32
	score  []int32
	perm   []int32
	tmp    []int32

	flushScore bool
	cands  []int32

	nodes int64 // nodes visited by this search, all runs
	limit int64 // run aborts when nodes reaches limit
	// stop, when set, is called every 256 nodes; true aborts the run.
	stop func() bool
	// need is the smallest capacity at which some pruned node would have
	// survived: after an exhausted run, no placement needs less.
	need uint64
}

func newSearch(m *model) *search {
	n := len(m.size)
	s := &search{
		m:         m,
		off:       make([]uint64, n),
		placed:    make([]bool, n),
		floor:     make([]uint64, m.nsec),
		rem:       make([]uint64, m.nsec),
		cnt:       make([]int32, m.nsec),
		nbrEnd:    make([]uint64, n),
		firstItem: make([]int32, m.nsec+1),
		rank:      make([]int32, n),
		minoff:    make([]uint64, n),
		ef:        make([]uint64, m.nsec),
		reach:     make([]bool, m.nsec+1),
	}
	i := 0
	for t := 0; t <= m.nsec; t++ {
		for i < n && int(m.sa[i]) < t {
			i++
		}
		s.firstItem[t] = int32(i)
	}
	for i := range s.rank {
		s.rank[i] = int32(i)
	}
	return s
}

// setOrder sets the value order: items earlier in order are tried first.
func (s *search) setOrder(order []int32) {
	for r, i := range order {
		s.rank[i] = int32(r)
	}
}

// run decides capacity c with at most budget more nodes. On found, s.off
// holds the placement.
func (s *search) run(c uint64, budget int64) status {
	m := s.m
	s.c = c
	s.limit = s.nodes + budget
	s.need = math.MaxUint64
	s.trail = s.trail[:0]
	for i := range s.placed {
		s.placed[i] = false
		s.nbrEnd[i] = 0
	}
	for t := 0; t < m.nsec; t++ {
		s.floor[t] = 0
		s.rem[t] = m.load[t]
		s.cnt[t] = m.memStart[t+1] - m.memStart[t]
	}
	return s.dfs(0, int32(m.nsec))
}

func (s *search) live(t int) bool { return s.cnt[t] > 0 }

// dfs places every remaining item whose sections lie in [lo, hi). On
// exhausted or aborted it leaves the state as it found it.
func (s *search) dfs(lo, hi int32) status {
	m := s.m
	if s.nodes >= s.limit {
		return aborted
	}
	s.nodes++
	if s.stop != nil && s.nodes&255 == 0 && s.stop() {
		s.limit = s.nodes
		return aborted
	}
	ilo, ihi := s.firstItem[lo], s.firstItem[hi]

	// Lowest offsets: minoff per remaining item, ef per live section.
	for t := lo; t < hi; t++ {
		s.ef[t] = math.MaxUint64
	}
	need := uint64(0)
	any := false
	for i := ilo; i < ihi; i++ {
		if s.placed[i] {
			continue
		}
		any = true
		mo := s.nbrEnd[i]
		for t := m.sa[i]; t < m.sb[i]; t++ {
			mo = max(mo, s.floor[t])
		}
		mo = alignUp(mo, m.align[i])
		if tw := m.twin[i]; tw >= 0 && !s.placed[tw] {
			// Twins are placed in index order: i lies above its twin.
			mo = max(mo, alignUp(satAdd(s.minoff[tw], m.size[tw]), m.align[i]))
		}
		s.minoff[i] = mo
		need = max(need, satAdd(mo, m.size[i]))
		for t := m.sa[i]; t < m.sb[i]; t++ {
			s.ef[t] = min(s.ef[t], mo)
		}
	}
	if !any {
		return found
	}
	fstar := uint64(math.MaxUint64)
	for t := lo; t < hi; t++ {
		if !s.live(int(t)) {
			continue
		}
		e := max(s.ef[t], s.floor[t])
		s.ef[t] = e
		fstar = min(fstar, e)
		need = max(need, satAdd(e, s.rem[t]))
	}
	if need > s.c {
		s.need = min(s.need, need)
		return exhausted
	}
	// Release dates: a section's members stack from ef up without more
	// waste than its slack, so the members released (minoff) before x must
	// cover [ef, x) but for the slack.
	for t := lo; t < hi; t++ {
		if !s.live(int(t)) {
			continue
		}
		if r := s.releaseNeed(int(t)); r > need {
			need = r
		}
	}
	if need > s.c {
		s.need = min(s.need, need)
		return exhausted
	}

	// Independent blocks: live sections separated by dead ones.
	if st, split := s.blocks(lo, hi); split {
		return st
	}

	// Level fstar: every tight section at fstar needs an item exactly at
	// fstar, and items at one offset do not overlap in time.
	if !s.coverable(lo, hi, fstar) {
		s.need = min(s.need, s.c+1)
		return exhausted
	}

	// The lowest point to cover: the section at fstar with the fewest
	// candidates (fail first), then the least slack.
	best, bestN := int32(-1), int32(math.MaxInt32)
	var bestSlack uint64
	for t := lo; t < hi; t++ {
		if !s.live(int(t)) || s.ef[t] != fstar {
			continue
		}
		n := int32(0)
		for _, j := range m.members(int(t)) {
			if !s.placed[j] && s.minoff[j] == fstar {
				n++
			}
		}
		slack := s.c - s.ef[t] - s.rem[t]
		if n < bestN || (n == bestN && slack < bestSlack) {
			best, bestN, bestSlack = t, n, slack
		}
	}
	tstar := best
	if dbgHist != nil {
		dbgHist[min(int(bestN), 9)]++
	}

	// Candidates, in value order. The slice is this node's own: deeper
	// nodes append after it.
	base := len(s.cands)
	for _, j := range m.members(int(tstar)) {
		if !s.placed[j] && s.minoff[j] == fstar {
			s.cands = append(s.cands, j)
		}
	}
	cands := s.cands[base:]
	if len(cands) > 1 {
		s.orderCands(cands, fstar)
	}
	// The hole's height must be computed before any child changes state.
	h := s.holeHeight(tstar, fstar)

	mark := len(s.trail)
	onRef := dbgRef != nil && s.consistent()
	for k := 0; k < len(cands); k++ {
		j := s.cands[base+k]
		s.place(j, fstar)
		n0 := s.nodes
		good := onRef && s.consistent()
		st := s.dfs(lo, hi)
		if onRef && !good && s.nodes-n0 > 2000 {
			np := 0
			for _, p := range s.placed {
				if p {
					np++
				}
			}
			println("refuted: placed", np, "level", fstar, "t*", tstar, "cands", len(cands), "nodes", s.nodes-n0, "status", st)
			for _, c := range cands {
				println("  cand", c, "span", m.sa[c], m.sb[c], "size", m.size[c], "ref", dbgRef[c], "chosen", c == j)
			}
			s.unwind(mark)
			for t := int32(36); t < 60; t++ {
				print("  sec ", t, " floor ", s.floor[t], " ef ", s.ef[t], " rem ", s.rem[t], " members:")
				for _, q := range m.members(int(t)) {
					if !s.placed[q] {
						print(" ", q, "[", m.sa[q], ",", m.sb[q], ")s", m.size[q], "@", dbgRef[q])
					}
				}
				println()
			}
			s.place(j, fstar)
		}
		if st == found {
			s.cands = s.cands[:base]
			return found
		}
		s.unwind(mark)
		if st == aborted {
			s.cands = s.cands[:base]
			return aborted
		}
	}
	s.cands = s.cands[:base]

	// No remaining item covers (tstar, fstar): it stays empty.
	if h == math.MaxUint64 {
		return exhausted
	}
	s.trail = append(s.trail, undo{undoFloor, tstar, s.floor[tstar]})
	s.floor[tstar] = h
	st := s.dfs(lo, hi)
	if st != found {
		s.unwind(mark)
	}
	return st
}

// orderCands sorts the candidates at level f: first those whose top is
// flush with the floor beside them (they extend a level instead of making
// a step), then by rank.
func (s *search) orderCands(cands []int32, f uint64) {
	m := s.m
	score := s.score[:0]
	for _, j := range cands {
		top := f + m.size[j]
		sc := int32(0)
		if s.flushScore {
			if a := m.sa[j] - 1; a >= 0 && s.live(int(a)) && s.floor[a] == top {
				sc++
			}
			if b := m.sb[j]; int(b) < m.nsec && s.live(int(b)) && s.floor[b] == top {
				sc++
			}
		}
		score = append(score, sc)
	}
	s.score = score
	idx := s.perm[:0]
	for k := range cands {
		idx = append(idx, int32(k))
	}
	sort.Slice(idx, func(a, b int) bool {
		x, y := idx[a], idx[b]
		if score[x] != score[y] {
			return score[x] > score[y]
		}
		return s.rank[cands[x]] < s.rank[cands[y]]
	})
	tmp := s.tmp[:0]
	for _, k := range idx {
		tmp = append(tmp, cands[k])
	}
	copy(cands, tmp)
	s.perm, s.tmp = idx, tmp
}

// releaseNeed returns the capacity section t needs by the release-date
// argument: max over members k of minoff[k] + rem - (total size of the
// members released strictly before minoff[k]).
func (s *search) releaseNeed(t int) uint64 {
	m := s.m
	e := s.ef[t]
	late := false
	rel := s.rel[:0]
	for _, j := range m.members(t) {
		if s.placed[j] {
			continue
		}
		rel = append(rel, j)
		if s.minoff[j] > e {
			late = true
		}
	}
	s.rel = rel
	if !late {
		return 0
	}
	sort.Slice(rel, func(a, b int) bool { return s.minoff[rel[a]] < s.minoff[rel[b]] })
	var before, need uint64
	for k := 0; k < len(rel); {
		x := s.minoff[rel[k]]
		need = max(need, satAdd(x, s.rem[t])-before)
		for ; k < len(rel) && s.minoff[rel[k]] == x; k++ {
			before += m.size[rel[k]]
		}
	}
	return need
}

// holeHeight returns the lowest offset at which a remaining member of
// section t can sit once (t, f) is known to stay empty, or MaxUint64 when
// none can. It reads minoff, so call it before changing state.
func (s *search) holeHeight(t int32, f uint64) uint64 {
	m := s.m
	h := uint64(math.MaxUint64)
	for _, j := range m.members(int(t)) {
		if s.placed[j] {
			continue
		}
		if s.minoff[j] > f {
			h = min(h, s.minoff[j])
			continue
		}
		// j could sit at f but does not: in a canonical placement it then
		// rests on a remaining interfering item, which sits at f or higher.
		below := uint64(math.MaxUint64)
		for u := m.sa[j]; u < m.sb[j]; u++ {
			for _, k := range m.members(int(u)) {
				if k != j && !s.placed[k] {
					below = min(below, m.size[k])
				}
			}
		}
		for _, k := range m.neighbours(int(j)) {
			if !s.placed[k] {
				below = min(below, m.size[k])
			}
		}
		if below != math.MaxUint64 {
			h = min(h, alignUp(satAdd(f, below), m.align[j]))
		}
	}
	return h
}

// coverable reports whether the tight sections at level f (those whose
// slack is zero) can be covered by pairwise time-disjoint candidates at f.
func (s *search) coverable(lo, hi int32, f uint64) bool {
	m := s.m
	tight := false
	for t := lo; t < hi; t++ {
		if s.live(int(t)) && s.ef[t] == f && s.ef[t]+s.rem[t] == s.c {
			tight = true
			break
		}
	}
	if !tight {
		return true
	}
	for t := lo; t <= hi; t++ {
		s.reach[t] = false
	}
	s.reach[lo] = true
	i := s.firstItem[lo]
	ihi := s.firstItem[hi]
	for t := lo; t < hi; t++ {
		// Items starting before t were handled at their first section.
		if !s.reach[t] {
			for i < ihi && m.sa[i] == t {
				i++
			}
			continue
		}
		if !(s.live(int(t)) && s.ef[t] == f && s.ef[t]+s.rem[t] == s.c) {
			s.reach[t+1] = true
		}
		for ; i < ihi && m.sa[i] == t; i++ {
			if !s.placed[i] && s.minoff[i] == f {
				s.reach[m.sb[i]] = true
			}
		}
	}
	return s.reach[hi]
}

// blocks splits the live sections of [lo, hi) into maximal runs separated
// by dead sections. When there are several and no extra interference
// crosses between them, it solves them one after another (a failure in one
// fails the node: the others cannot help) and reports split = true.
func (s *search) blocks(lo, hi int32) (status, bool) {
	m := s.m
	type block struct {
		lo, hi int32
		slack  uint64
	}
	var bs []block
	for t := lo; t < hi; {
		if !s.live(int(t)) {
			t++
			continue
		}
		b := block{lo: t, slack: math.MaxUint64}
		for t < hi && s.live(int(t)) {
			b.slack = min(b.slack, s.c-s.ef[t]-s.rem[t])
			t++
		}
		b.hi = t
		bs = append(bs, b)
	}
	if len(bs) < 2 {
		return found, false
	}
	if len(m.nbr) > 0 {
		for _, b := range bs {
			for i := s.firstItem[b.lo]; i < s.firstItem[b.hi]; i++ {
				if s.placed[i] {
					continue
				}
				for _, k := range m.neighbours(int(i)) {
					if !s.placed[k] && (m.sa[k] < b.lo || m.sa[k] >= b.hi) {
						return found, false
					}
				}
			}
		}
	}
	// Tightest block first: it is the likeliest to fail.
	sort.SliceStable(bs, func(a, b int) bool { return bs[a].slack < bs[b].slack })
	mark := len(s.trail)
	for _, b := range bs {
		if st := s.dfs(b.lo, b.hi); st != found {
			s.unwind(mark)
			return st, true
		}
	}
	return found, true
}

// place puts item j at offset f, the level of the lowest point.
func (s *search) place(j int32, f uint64) {
	m := s.m
	end := f + m.size[j]
	for t := m.sa[j]; t < m.sb[j]; t++ {
		s.trail = append(s.trail, undo{undoFloor, t, s.floor[t]})
		s.floor[t] = end
		s.rem[t] -= m.size[j]
		s.cnt[t]--
	}
	for _, k := range m.neighbours(int(j)) {
		if !s.placed[k] && s.nbrEnd[k] < end {
			s.trail = append(s.trail, undo{undoNbrEnd, k, s.nbrEnd[k]})
			s.nbrEnd[k] = end
		}
	}
	s.placed[j] = true
	s.off[j] = f
	s.trail = append(s.trail, undo{undoPlace, j, 0})
}

func (s *search) unwind(mark int) {
	m := s.m
	for k := len(s.trail) - 1; k >= mark; k-- {
		u := s.trail[k]
		switch u.kind {
		case undoFloor:
			s.floor[u.idx] = u.old
		case undoNbrEnd:
			s.nbrEnd[u.idx] = u.old
		case undoPlace:
			j := u.idx
			s.placed[j] = false
			for t := m.sa[j]; t < m.sb[j]; t++ {
				s.rem[t] += m.size[j]
				s.cnt[t]++
			}
		}
	}
	s.trail = s.trail[:mark]
}
