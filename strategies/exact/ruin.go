package exact

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Ruin and recreate: the improvement phase's third move, for interval
// components the complete search does not finish.
//
// Band searches free the top of the best placement and so cannot repair
// waste low in it. A ruin move frees a rectangle of the placement around
// an item at the peak: the items whose lifetimes meet a time window around
// it and that end highest there (30–330 of them), at every height the
// window reaches, and places them again by first fit around the kept ones
// (repairer.complete), in one of three orders (their old offsets, largest
// first, size with noise); a recreation stops at the first item that
// ends above the peak (session 12b: that placement could not be kept).
// First fit puts a freed item in the lowest gap it fits, which may lie
// below kept items: the move reaches the holes a band search cannot.
// The new placement replaces the best when its peak is lower, or equal
// with no more occupied area above the bound (a plateau move, which lets
// a sequence of moves empty the top). Like dives, shakes
// and repairs it only produces placements, checked like every other; it
// proves nothing, so bounds and Optimal are unchanged.

// ruinMin and ruinSpread: a move frees ruinMin + [0, ruinSpread) items.
// ruinSpread was 300 until session 12; 900 lowered the peaks of the
// slack seed-1 instances further in 30 s at n = 1,000 and 3,000, less
// far at n = 2,000 (docs/exact.md, "Ruin sizes").
const (
	ruinMin    = 30
	ruinSpread = 900
)

type ruiner struct {
	rng  *rand.Rand
	rep  *repairer
	kept []bool
	key  []uint64
	win  []int32
	area uint64 // occupied area above the bound of the best placement
	lvl  uint64 // the bound area was measured against
	// maxFreed: the most items one move freed (tests).
	maxFreed int
	// moves, over, same: moves made, stopped above the peak, and
	// rebuilding the placement unchanged (tests, diagnostics).
	moves, over, same int
}

// ruinable reports whether c gets ruin moves: interval components that the
// search works on and that have a placement.
func (c *comp) ruinable() bool {
	m := c.m
	return c.s != nil && len(m.nbr) == 0 && m.nsec == m.ntime && len(m.size) >= bandItems &&
		c.best != nil && c.peak != math.MaxUint64
}

// areaAbove is the occupied time×bytes area above level L of placement off
// (time in sections).
func (m *model) areaAbove(off []uint64, L uint64) uint64 {
	var a uint64
	for i, o := range off {
		if e := o + m.size[i]; e > L {
			a += uint64(m.sb[i]-m.sa[i]) * (e - max(o, L))
		}
	}
	return a
}

// ruin runs moves on c until it has placed about work items (each move
// places its freed items once) or stop says so, and returns the items
// placed. It lowers c.peak when a move finds a better placement.
func (c *comp) ruin(work int64, stop func() bool) int64 {
	m := c.m
	n := len(m.size)
	r := c.ruins
	if r == nil {
		r = &ruiner{rng: rand.New(rand.NewPCG(uint64(n), 0x2a1)), kept: make([]bool, n), key: make([]uint64, n)}
		if c.rep == nil {
			c.rep = newRepairer(m)
		}
		r.rep = c.rep
		c.ruins = r
	}
	if r.lvl != c.lower || r.area == 0 {
		r.lvl = c.lower
		r.area = m.areaAbove(c.best, r.lvl)
	}
	var done int64
	for done < work && c.peak > c.lower {
		if done > 0 && stop() {
			break
		}
		U := c.peak
		// The seed: a random item ending at the peak.
		seed, seen := -1, 0
		for i := 0; i < n; i++ {
			if c.best[i]+m.size[i] == U {
				seen++
				if r.rng.IntN(seen) == 0 {
					seed = i
				}
			}
		}
		// The window: the seed's lifetime widened by up to an eighth of
		// the sections on each side.
		w := max(1, m.ntime/8)
		t0 := max(0, int(m.sa[seed])-r.rng.IntN(w))
		t1 := min(m.ntime, int(m.sb[seed])+r.rng.IntN(w))
		r.win = r.win[:0]
		for i := 0; i < n; i++ {
			r.kept[i] = true
			if int(m.sa[i]) < t1 && t0 < int(m.sb[i]) {
				r.win = append(r.win, int32(i))
			}
		}
		// Free the k items of the window that end highest.
		k := min(len(r.win), ruinMin+r.rng.IntN(ruinSpread))
		r.maxFreed = max(r.maxFreed, k)
		top := r.win
		selectTop(top, k, func(i int32) uint64 { return c.best[i] + m.size[i] })
		for _, i := range top[:k] {
			r.kept[i] = false
		}
		mode := r.rng.IntN(3)
		for i := 0; i < n; i++ {
			switch mode {
			case 0:
				r.key[i] = c.best[i]
			case 1:
				r.key[i] = math.MaxUint64 - m.size[i]
			default:
				r.key[i] = math.MaxUint64 - uint64(float64(m.size[i])*(0.7+0.6*r.rng.Float64()))
			}
		}
		r.rep.limit = U
		peak := r.rep.complete(c.best, r.kept, r.key, false)
		r.rep.limit = 0
		done += int64(k)
		r.moves++
		if peak > U {
			r.over++
			continue
		}
		a := m.areaAbove(r.rep.off, r.lvl)
		if peak == U && a == r.area && slices.Equal(r.rep.off, c.best) {
			r.same++
			continue
		}
		if peak < U || a <= r.area {
			c.peak = peak
			c.best = append(c.best[:0], r.rep.off...)
			r.area = a
		}
	}
	return done
}

// selectTop moves the k items of xs with the largest key (ties: the lower
// index) to xs[:k].
func selectTop(xs []int32, k int, key func(int32) uint64) {
	_ = k
	slices.SortFunc(xs, func(a, b int32) int {
		if ka, kb := key(a), key(b); ka != kb {
			return cmp.Compare(kb, ka)
		}
		return cmp.Compare(a, b)
	})
}
