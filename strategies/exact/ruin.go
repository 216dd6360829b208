package exact

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync/atomic"
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
	prof, cand        []massEvent
	// stale: moves since the last that lowered the peak; rotations: layer
	// rotations made.
	stale, rotations int
	cuts             []uint64
	start            []uint64
	ord              []int32
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
		r = &ruiner{rng: rand.New(rand.NewPCG(uint64(n)+ruinSeedX, 0x2a1)), kept: make([]bool, n), key: make([]uint64, n)}
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
	if ruinLex {
		r.prof = m.massProfile(c.best, r.prof)
	}
	var done int64
	for done < work && c.peak > c.lower {
		if done > 0 && stop() {
			break
		}
		if rotateAfter > 0 && r.stale >= rotateAfter {
			r.stale = 0
			if c.rotate(r) {
				r.rotations++
				r.area = m.areaAbove(c.best, r.lvl)
				if ruinLex {
					r.prof = m.massProfile(c.best, r.prof)
				}
			}
		}
		r.stale++
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
		if ruinWalk && r.rng.IntN(2) == 0 {
			seed = r.descend(c, seed)
		}
		// The window: the seed's lifetime widened by up to an eighth of
		// the sections on each side.
		w := max(1, m.ntime/8)
		t0 := max(0, int(m.sa[seed])-r.rng.IntN(w))
		t1 := min(m.ntime, int(m.sb[seed])+r.rng.IntN(w))
		base := c.best
		k := 0
		if ruinEject && int(m.sb[seed]-m.sa[seed]) >= max(1, m.ntime/8) && r.rng.IntN(2) == 0 {
			base, k = r.eject(c, seed)
		}
		if k == 0 {
			base = c.best
			r.win = r.win[:0]
			for i := 0; i < n; i++ {
				r.kept[i] = true
				if int(m.sa[i]) < t1 && t0 < int(m.sb[i]) {
					r.win = append(r.win, int32(i))
				}
			}
			// Free the k items of the window that end highest.
			k = min(len(r.win), ruinMin+r.rng.IntN(ruinSpread))
			r.maxFreed = max(r.maxFreed, k)
			top := r.win
			selectTop(top, k, func(i int32) uint64 { return c.best[i] + m.size[i] })
			for _, i := range top[:k] {
				r.kept[i] = false
			}
		}
		mode := r.rng.IntN(ruinModes)
		r.rep.bestGap = mode >= 3
		for i := 0; i < n; i++ {
			switch mode % 3 {
			case 0:
				r.key[i] = c.best[i]
			case 1:
				r.key[i] = math.MaxUint64 - m.size[i]
			default:
				r.key[i] = math.MaxUint64 - uint64(float64(m.size[i])*(0.7+0.6*r.rng.Float64()))
			}
		}
		r.rep.limit = U
		peak := r.rep.complete(base, r.kept, r.key, false)
		r.rep.limit = 0
		r.rep.bestGap = false
		done += int64(k)
		r.moves++
		ruinStats[3].Add(1)
		if peak > U {
			ruinStats[2].Add(1)
			r.over++
			continue
		}
		a := m.areaAbove(r.rep.off, r.lvl)
		if peak == U && a == r.area && slices.Equal(r.rep.off, c.best) {
			r.same++
			continue
		}
		if peak < U {
			r.stale = 0
		}
		if ruinLex {
			if r.prof == nil {
				r.prof = m.massProfile(c.best, r.prof)
			}
			r.cand = m.massProfile(r.rep.off, r.cand)
			if peak < U || leximaxLess(r.cand, r.prof) <= 0 {
				if peak < U {
					ruinStats[0].Add(1)
				} else {
					ruinStats[1].Add(1)
				}
				c.peak = peak
				c.best = append(c.best[:0], r.rep.off...)
				r.area = a
				r.prof, r.cand = r.cand, r.prof
			}
			continue
		}
		if peak < U || a <= r.area {
			if peak < U {
				ruinStats[0].Add(1)
			} else {
				ruinStats[1].Add(1)
			}
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

var ruinWalk = os.Getenv("ALIASPLAN_RUINWALK") != ""

// descend walks down from item i of c's best placement, up to a random
// number of steps, to a random item that touches the current one from
// below (ends at its offset) and shares a time section with it.
func (r *ruiner) descend(c *comp, i int) int {
	m := c.m
	steps := 1 + r.rng.IntN(32)
	for ; steps > 0; steps-- {
		next, seen := -1, 0
		for j := range m.size {
			if c.best[j]+m.size[j] == c.best[i] && m.sa[j] < m.sb[i] && m.sa[i] < m.sb[j] {
				seen++
				if r.rng.IntN(seen) == 0 {
					next = j
				}
			}
		}
		if next < 0 {
			break
		}
		i = next
	}
	return i
}

var ruinLex = os.Getenv("ALIASPLAN_RUINLEX") != ""

// massEvent: at height y (bytes), going down, the occupied time a byte
// row holds changes by d.
type massEvent struct {
	y uint64
	d int64
}

// massProfile returns placement off's events, by height descending: an
// item adds its lifetime (sections) at its end and removes it at its
// offset.
func (m *model) massProfile(off []uint64, buf []massEvent) []massEvent {
	buf = buf[:0]
	for i, o := range off {
		d := int64(m.sb[i] - m.sa[i])
		buf = append(buf, massEvent{o + m.size[i], d}, massEvent{o, -d})
	}
	slices.SortFunc(buf, func(a, b massEvent) int { return cmp.Compare(b.y, a.y) })
	return buf
}

// leximaxLess compares two mass profiles from the top: at the highest
// height where the occupied time of a byte row differs, the one with less
// is the smaller (-1 for x, 1 for y); 0 when they are the same.
func leximaxLess(x, y []massEvent) int {
	var rx, ry int64
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		var h uint64
		switch {
		case i == len(x):
			h = y[j].y
		case j == len(y):
			h = x[i].y
		default:
			h = max(x[i].y, y[j].y)
		}
		for i < len(x) && x[i].y == h {
			rx += x[i].d
			i++
		}
		for j < len(y) && y[j].y == h {
			ry += y[j].d
			j++
		}
		if rx != ry {
			return cmp.Compare(rx, ry)
		}
	}
	return 0
}

var ruinStats [4]atomic.Int64 // drops, flat accepted, over, moves (diagnostic)

var ruinSeedX = func() uint64 {
	var x uint64
	fmt.Sscan(os.Getenv("ALIASPLAN_RUINSEED"), &x)
	return x
}()

var ruinModes = func() int {
	if os.Getenv("ALIASPLAN_RUINBF") != "" {
		return 6
	}
	return 3
}()

var rotateAfter = func() int {
	x := 0
	fmt.Sscan(os.Getenv("ALIASPLAN_ROTATE"), &x)
	return x
}()

// rotate moves the top layer of c's best placement to the bottom: at a
// level y (a random one of those) that no item crosses, every item lies
// below y or at or above it, so the items at or above it can move down by
// y and the others up by peak − y without any two overlapping (each layer
// keeps its own arrangement, and the upper layer now lies below the
// lower). Then every item is placed again by first fit in order of its
// new offset, which places none higher (the items before it lie no
// higher than before, and its own offset stays clear of them). The peak
// does not rise. It reports whether a level was found.
func (c *comp) rotate(r *ruiner) bool {
	m := c.m
	n := len(m.size)
	r.ord = r.ord[:0]
	for i := 0; i < n; i++ {
		r.ord = append(r.ord, int32(i))
	}
	slices.SortFunc(r.ord, func(a, b int32) int { return cmp.Compare(c.best[a], c.best[b]) })
	r.cuts = r.cuts[:0]
	var top uint64 // the highest end of the items below the current offset
	var A uint64 = 1
	for i := 0; i < n; i++ {
		A = max(A, m.align[i])
	}
	U := c.peak
	for x, i := range r.ord {
		o := c.best[i]
		if o > 0 && top <= o && (x == 0 || c.best[r.ord[x-1]] < o) && o%A == 0 && (U-o)%A == 0 {
			r.cuts = append(r.cuts, o)
		}
		top = max(top, o+m.size[i])
	}
	if len(r.cuts) == 0 {
		return false
	}
	y := r.cuts[r.rng.IntN(len(r.cuts))]
	for i := 0; i < n; i++ {
		if c.best[i] >= y {
			r.key[i] = c.best[i] - y
		} else {
			r.key[i] = c.best[i] + (U - y)
		}
		r.kept[i] = false
	}
	peak := r.rep.complete(r.key, r.kept, r.key, false)
	if peak > U {
		return false // not reached: see above
	}
	c.peak = peak
	c.best = append(c.best[:0], r.rep.off...)
	return true
}

var ruinEject = os.Getenv("ALIASPLAN_EJECT") != ""

// eject moves long item j of c's best placement down to the offset of a
// random lower item that shares a section with it and frees every item
// that would overlap it there: it returns the partial placement (j at its
// new offset, kept) with r.kept set, and the number of freed items (0: no
// lower offset).
func (r *ruiner) eject(c *comp, j int) ([]uint64, int) {
	m := c.m
	n := len(m.size)
	y, seen := uint64(0), 0
	for i := 0; i < n; i++ {
		if c.best[i] < c.best[j] && m.sa[i] < m.sb[j] && m.sa[j] < m.sb[i] && c.best[i]%m.align[j] == 0 {
			seen++
			if r.rng.IntN(seen) == 0 {
				y = c.best[i]
			}
		}
	}
	if seen == 0 {
		return nil, 0
	}
	r.start = append(r.start[:0], c.best...)
	r.start[j] = y
	k := 0
	for i := 0; i < n; i++ {
		r.kept[i] = true
		if i != j && m.sa[i] < m.sb[j] && m.sa[j] < m.sb[i] && c.best[i] < y+m.size[j] && y < c.best[i]+m.size[i] {
			r.kept[i] = false
			k++
		}
	}
	return r.start, max(k, 1)
}
