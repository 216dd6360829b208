package exact

import (
	"cmp"
	"math"
	"slices"
)

// Repair of a run's deepest node (the improvement phase's second move).
//
// A decision run at C = L that fails on a large component usually fails
// near the top: it places most items within C, then backtracks through
// the last few hundred levels until its budget is spent, and all that was
// learnt is lost. The deepest node a run reached is a partial placement
// within C (every node the search enters has passed propagation, so its
// placed items lie in [0, C) and interfering ones do not overlap). deepest
// keeps it, and complete places the items it left out by first fit around
// the placed ones: a placement of every item, usually a little above C,
// which becomes the incumbent when it beats it. The band searches then
// free its top (the repaired items) and search it again. Like dives and
// shakes, a repair only produces placements (checked like every other);
// it proves nothing.

// snapshot records the current node as the run's deepest when it places
// more items than the deepest so far.
func (s *search) snapshot() {
	if s.nplaced <= s.deep {
		return
	}
	s.deep = s.nplaced
	if s.deepOff == nil {
		s.deepOff = make([]uint64, len(s.off))
		s.deepPlaced = make([]bool, len(s.off))
		s.deepLo = make([]uint64, len(s.off))
	}
	copy(s.deepLo, s.lo)
	copy(s.deepPlaced, s.placed)
	for i, p := range s.placed {
		if p {
			s.deepOff[i] = s.off[i]
		}
	}
}

// repairer completes partial placements by first fit.
type repairer struct {
	m     *model
	off   []uint64
	done  []bool
	stamp []int32
	now   int32
	nb    []int32
	order []int32
	// limit, when not 0: complete gives up at the first item that would
	// end above it and returns that item's end; r.off is then partial
	// (ruin moves, which drop such a placement anyway).
	limit uint64
}

func newRepairer(m *model) *repairer {
	n := len(m.size)
	return &repairer{m: m, off: make([]uint64, n), done: make([]bool, n), stamp: make([]int32, n)}
}

// complete places every item of m not placed in the partial placement
// (off, placed) by first fit: in order of decreasing size (bySize) or of
// increasing lower bound lo, each at the lowest aligned offset where it
// overlaps no item already there that it interferes with. It returns the
// peak; r.off holds the placement.
func (r *repairer) complete(off []uint64, placed []bool, lo []uint64, bySize bool) uint64 {
	m := r.m
	n := len(m.size)
	copy(r.off, off)
	copy(r.done, placed)
	var peak uint64
	r.order = r.order[:0]
	for i := 0; i < n; i++ {
		if placed[i] {
			peak = max(peak, off[i]+m.size[i])
		} else {
			r.order = append(r.order, int32(i))
		}
	}
	slices.SortFunc(r.order, func(a, b int32) int {
		if bySize {
			if m.size[a] != m.size[b] {
				return cmp.Compare(m.size[b], m.size[a])
			}
		} else if lo[a] != lo[b] {
			return cmp.Compare(lo[a], lo[b])
		}
		return cmp.Compare(a, b)
	})
	for _, j := range r.order {
		r.neighbours(j)
		slices.SortFunc(r.nb, func(a, b int32) int { return cmp.Compare(r.off[a], r.off[b]) })
		o := uint64(0)
		for _, k := range r.nb {
			if r.off[k] >= satAdd(o, m.size[j]) {
				break // the gap below k holds j
			}
			o = max(o, alignUp(r.off[k]+m.size[k], m.align[j]))
		}
		r.off[j] = o
		r.done[j] = true
		peak = max(peak, o+m.size[j])
		if r.limit != 0 && peak > r.limit {
			return peak
		}
	}
	return peak
}

// neighbours sets r.nb to the items placed so far that interfere with j.
func (r *repairer) neighbours(j int32) {
	m := r.m
	r.nb = r.nb[:0]
	if len(m.nbr) == 0 && m.nsec == m.ntime {
		// Interval model: interference is overlap of time sections.
		for k := range m.size {
			if r.done[k] && int32(k) != j && m.sa[k] < m.sb[j] && m.sa[j] < m.sb[k] {
				r.nb = append(r.nb, int32(k))
			}
		}
		return
	}
	r.now++
	if r.now == math.MaxInt32 {
		clear(r.stamp)
		r.now = 1
	}
	add := func(k int32) {
		if r.done[k] && k != j && r.stamp[k] != r.now {
			r.stamp[k] = r.now
			r.nb = append(r.nb, k)
		}
	}
	for t := m.sa[j]; t < m.sb[j]; t++ {
		for _, k := range m.members(int(t)) {
			add(k)
		}
	}
	for _, t := range m.extra(j) {
		for _, k := range m.members(int(t)) {
			add(k)
		}
	}
	for _, k := range m.neighbours(int(j)) {
		add(k)
	}
}

// repair completes the deepest node of c's last run, when it left items
// out, and keeps the result if it beats the best placement.
func (c *comp) repair() bool {
	s := c.s
	n := len(c.m.size)
	if s.deep == 0 || s.deep >= n {
		return false
	}
	if c.rep == nil {
		c.rep = newRepairer(c.m)
	}
	better := false
	for _, bySize := range []bool{true, false} {
		if peak := c.rep.complete(s.deepOff, s.deepPlaced, s.deepLo, bySize); peak < c.peak {
			c.peak = peak
			c.best = append(c.best[:0], c.rep.off...)
			better = true
		}
	}
	return better
}
