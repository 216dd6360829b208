package exact

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/internal/invariants"
	"github.com/aliasplan/aliasplan/planner"
)

// Window re-solves: the improvement phase's exact large-neighbourhood move
// for interval components (issue 22, session 6).
//
// Bands free the top of the best placement; ruin moves free a rectangle
// but place it again by first fit. A window move frees every item whose
// lifetime lies inside a time window [t0, t1) around an item above a
// target T, at every height, pins the items that cross the window's
// edges at their offsets (clipped to the window and to T), and solves
// that sub-problem exactly at capacity T: the ordinary search on a model
// of the window, in which pinned items have the one-point domain of
// their offset. A found placement puts every freed item below T, so the
// items above T get fewer with every success, and the peak drops when
// the last one goes. The target starts a step below the peak; the step
// doubles when the peak reaches the target and halves after a run of
// failures. The window grows after an exhausted sub-search (the window
// has no placement within T) and shrinks after an aborted one.
//
// Soundness: a move only produces placements. Every freed item is placed
// by the search within [0, T), clear of every freed and pinned item it
// interferes with (pinned items are placed at their offsets; clipping a
// pinned item to T removes only bytes at or above T, where no freed item
// lies), and clear of everything else in the component: an item that
// meets the window in time either lies inside it (freed) or crosses an
// edge (pinned), and one pinned item at or above T is clear of every
// freed item below T. verify checks it again. A move proves nothing:
// bounds, Optimal and the gap come from the complete searches only.

// Window sizes (freed items) the moves adapt between.
const (
	winMin   = 16
	winStart = 60
	winMax   = 200
	// winFails: consecutive failures after which the target rises.
	winFails = 24
	// winWork caps one sub-search's propagation steps (about 50 ms).
	winWork = 5_000_000
)

type windower struct {
	rng   *rand.Rand
	T     uint64 // the target; 0: not set
	step  uint64
	size  int // freed items a window aims at
	fails int
	free  []int32
	pins  []int32
	in    []bool
	old   []uint64
	items []planner.Item
	sub   []int32 // sub-problem index → component index
	// Counters for the trace.
	tries, wins, peaks int
	exh, abo           int
}

// windowable reports whether c gets window moves (interval components with
// a placement, as ruin moves).
func (c *comp) windowable() bool { return c.ruinable() }

// window runs window moves on c until their sub-searches have used about
// work nodes or stop says so, and returns the nodes used (each freed item
// counts one more, for building the window). It lowers c.peak when the
// items above the target are gone.
func (c *comp) window(work int64, stop func() bool) int64 {
	m := c.m
	n := len(m.size)
	g := m.gran
	w := c.wins
	if w == nil {
		w = &windower{rng: rand.New(rand.NewPCG(uint64(n), 0x3d1)), size: winStart, in: make([]bool, n)}
		c.wins = w
	}
	var done int64
	for done < work && c.peak > c.lower {
		if done > 0 && stop() {
			break
		}
		U, L := c.peak, c.lower
		if w.T == 0 || w.T >= U || w.T < L {
			if w.step == 0 {
				w.step = max(g, (U-L)/16)
			}
			w.T = max(L, alignDown(U-min(w.step, U), g))
			if w.T >= U {
				return done
			}
		}
		T := w.T
		// The seed: a random item above the target.
		seed, seen := -1, 0
		for i := 0; i < n; i++ {
			if c.best[i]+m.size[i] > T {
				seen++
				if w.rng.IntN(seen) == 0 {
					seed = i
				}
			}
		}
		if seed < 0 {
			// Nothing above T: the peak is there.
			c.peak = m.peakOf(c.best)
			continue
		}
		want := winMin/2 + w.rng.IntN(w.size+1)
		t0, t1 := w.hull(m, seed, want)
		w.tries++
		st, nodes := c.solveWindow(t0, t1, want, T, stop)
		done += nodes
		switch st {
		case found:
			w.wins++
			w.fails = 0
			if top := m.peakOf(c.best); top < c.peak {
				c.peak = top
				w.peaks++
				w.step *= 2
			}
		case exhausted:
			w.exh++
			w.size = min(winMax, w.size+w.size/4+1)
			w.fails++
		default:
			w.abo++
			w.size = max(winMin, w.size-w.size/5)
			w.fails++
		}
		if w.fails >= winFails {
			// The target is out of reach from here: aim closer to the peak.
			w.fails = 0
			w.step = max(g, w.step/2)
			w.T = 0
		}
	}
	return done
}

// peakOf is the largest end of placement off.
func (m *model) peakOf(off []uint64) uint64 {
	var top uint64
	for i, o := range off {
		top = max(top, o+m.size[i])
	}
	return top
}

// hull picks the time window around seed: its lifetime, widened on both
// sides (at random proportions) until at least want items lie inside.
func (w *windower) hull(m *model, seed, want int) (int32, int32) {
	a, b := m.sa[seed], m.sb[seed]
	u := w.rng.Float64()
	for r := int32(0); ; r += r/2 + 1 {
		t0 := max(0, a-int32(float64(r)*u))
		t1 := min(int32(m.ntime), b+int32(float64(r)*(1-u)))
		inside := 0
		for i := range m.size {
			if m.sa[i] >= t0 && m.sb[i] <= t1 {
				inside++
			}
		}
		if inside >= want || (t0 == 0 && t1 == int32(m.ntime)) {
			return t0, t1
		}
	}
}

// solveWindow frees the want items whose lifetimes lie in [t0, t1) that
// end highest, pins the others that meet it, and searches the freed ones
// at capacity T. On found it writes the freed items' new offsets into
// c.best. It returns the outcome and the nodes used.
func (c *comp) solveWindow(t0, t1 int32, want int, T uint64, stop func() bool) (status, int64) {
	m := c.m
	w := c.wins
	w.free, w.pins, w.items, w.sub = w.free[:0], w.pins[:0], w.items[:0], w.sub[:0]
	for i := range m.size {
		if m.sa[i] >= t0 && m.sb[i] <= t1 {
			w.free = append(w.free, int32(i))
		}
	}
	if len(w.free) == 0 {
		return aborted, 1
	}
	// The rectangle: the items inside that end highest (every one above
	// T among them); the others inside are pinned like those that cross.
	selectTop(w.free, want, func(i int32) uint64 { return c.best[i] + m.size[i] })
	// At least want of them, every one above T, and enough that the
	// lowest freed offset leaves room below T for the largest.
	k := 0
	low, big := uint64(math.MaxUint64), uint64(0)
	for k < len(w.free) {
		if i := w.free[k]; k >= want && c.best[i]+m.size[i] <= T && satAdd(low, big) <= T {
			break
		}
		i := w.free[k]
		low, big = min(low, c.best[i]), max(big, m.size[i])
		k++
	}
	for _, i := range w.free {
		w.in[i] = false
	}
	w.free = w.free[:k]
	// The rectangle's bottom y0: the lowest freed offset, aligned for
	// every freed item. The sub-problem is [y0, T) in bytes: freed items
	// stay at y0 or above (a restriction of the neighbourhood, not of the
	// problem), so a pinned item matters only where it lies above y0.
	y0, amax := uint64(math.MaxUint64), uint64(1)
	f0, f1 := int32(math.MaxInt32), int32(0)
	for _, i := range w.free {
		w.in[i] = true
		y0 = min(y0, c.best[i])
		amax = max(amax, m.align[i])
		f0, f1 = min(f0, m.sa[i]), max(f1, m.sb[i])
	}
	y0 = alignDown(y0, amax)
	if y0 >= T {
		return aborted, 1
	}
	defer func() {
		for _, i := range w.free {
			w.in[i] = false
		}
	}()
	// Capacity T first; when no placement of the window fits T, halfway
	// between T and the window's highest end (fewer bytes above T).
	var top uint64
	for _, i := range w.free {
		top = max(top, c.best[i]+m.size[i])
	}
	var nodes int64
	cp := T
	for try := 0; try < 3; try++ {
		st, k := c.subSolve(cp, y0, f0, f1, stop)
		nodes += k
		if st != exhausted {
			return st, nodes
		}
		next := alignDown(cp+(top-cp)/2, m.gran)
		if next <= cp || next >= top {
			break
		}
		cp = next
	}
	return exhausted, nodes
}

// subSolve searches the freed items w.free at capacity cp, in bytes
// [y0, cp) and time sections [f0, f1), around the pinned items (the
// others that meet them there, clipped to both). On found it writes the
// freed items' new offsets into c.best.
func (c *comp) subSolve(cp, y0 uint64, f0, f1 int32, stop func() bool) (status, int64) {
	m := c.m
	w := c.wins
	w.pins, w.items, w.sub = w.pins[:0], w.items[:0], w.sub[:0]
	for i := range m.size {
		if !w.in[i] && m.sa[i] < f1 && f0 < m.sb[i] && c.best[i] < cp && c.best[i]+m.size[i] > y0 {
			w.pins = append(w.pins, int32(i))
		}
	}
	for _, i := range w.free {
		w.items = append(w.items, planner.Item{Size: m.size[i], Alignment: m.align[i], Start: int64(m.sa[i] - f0), End: int64(m.sb[i] - f0)})
		w.sub = append(w.sub, i)
	}
	for _, i := range w.pins {
		o := max(c.best[i], y0)
		w.items = append(w.items, planner.Item{Size: min(c.best[i]+m.size[i], cp) - o, Alignment: 1,
			Start: int64(max(m.sa[i], f0) - f0), End: int64(min(m.sb[i], f1) - f0)})
		w.sub = append(w.sub, i)
	}
	p, err := planner.NewIntervalProblem(w.items, 0)
	if err != nil {
		return aborted, 1
	}
	all := make([]int32, len(w.items))
	for k := range all {
		all[k] = int32(k)
	}
	sm := buildModel(p, all, true, nil)
	nfree := len(w.free)
	pin := make([]bool, len(all))
	pinOff := make([]uint64, len(all))
	for mi, pi := range sm.orig {
		if int(pi) >= nfree {
			pin[mi] = true
			pinOff[mi] = max(c.best[w.sub[pi]], y0) - y0
		}
	}
	// Twins are interchangeable only when both are free.
	for mi, tw := range sm.twin {
		if tw >= 0 && (pin[mi] || pin[tw]) {
			sm.twin[mi] = -1
		}
	}
	s := newSearch(sm)
	s.pin, s.pinOff = pin, pinOff
	// A window's nodes cost more than the whole problem's (every section
	// holds pinned members): the sub-search also stops after winWork
	// steps of propagation.
	s.stop = func() bool { return s.work > winWork || stop() }
	s.skyline = w.rng.IntN(4) != 0
	if w.rng.IntN(2) == 0 {
		order := make([]int32, len(all))
		for k := range order {
			order[k] = int32(k)
		}
		w.rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		s.setOrder(order)
	}
	budget := int64(4*nfree + 256)
	st := s.run(cp-y0, budget)
	nodes := s.nodes + int64(nfree)
	if st != found {
		return st, nodes
	}
	w.old = w.old[:0]
	for _, i := range w.free {
		w.old = append(w.old, c.best[i])
	}
	for mi, pi := range sm.orig {
		if int(pi) < nfree {
			c.best[w.sub[pi]] = s.off[mi] + y0
		}
	}
	if err := c.verifyWindow(w.free); err != nil {
		if invariants.Enabled {
			panic(err)
		}
		// Cannot happen: keep the old placement.
		for k, i := range w.free {
			c.best[i] = w.old[k]
		}
		return aborted, nodes
	}
	return found, nodes
}

// verifyWindow checks that the freed items lie clear of every item they
// interfere with in c.best.
func (c *comp) verifyWindow(free []int32) error {
	m := c.m
	for _, i := range free {
		for k := range m.size {
			if int32(k) == i || m.sb[k] <= m.sa[i] || m.sb[i] <= m.sa[k] {
				continue
			}
			a, b := c.best[i], c.best[k]
			if a < b+m.size[k] && b < a+m.size[i] {
				return fmt.Errorf("exact: window move: items %d and %d overlap (%d+%d [%d,%d) in=%v, %d+%d [%d,%d) in=%v)", i, k, a, m.size[i], m.sa[i], m.sb[i], c.wins.in[i], b, m.size[k], m.sa[k], m.sb[k], c.wins.in[k])
			}
		}
	}
	return nil
}

// placePinned places every pinned item of the scope whose offset is f,
// the lowest level (window.go). It reports whether it placed any, and
// false when a placement fails.
func (s *search) placePinned(lo, hi int32, f uint64) (forced, ok bool) {
	m := s.m
	ilo, ihi := int32(0), int32(len(m.size))
	if m.nsec == m.ntime {
		ilo, ihi = s.firstItem[lo], s.firstItem[hi]
	}
	for j := ilo; j < ihi; j++ {
		if !s.pin[j] || s.placed[j] || s.lo[j] != f {
			continue
		}
		if !s.place(j, f) {
			return forced, false
		}
		forced = true
	}
	return forced, true
}

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x3d1)) }
