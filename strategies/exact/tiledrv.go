package exact

import "time"

// tileNodeCost: under a node limit, this many tiler nodes count as one
// node (a tiler node costs about a microsecond, a node of the
// propagating search about a millisecond at n = 2,000–3,000).
const tileNodeCost = 256

// tileState of a component: whether the skyline tiler applies.
const (
	tileUnknown = iota
	tileNo
	tileYes
)

// tiling runs the skyline tiler (tile.go) on c for up to work tiler
// nodes (and under a time limit until dead, when dead is not zero),
// in both time directions by turns, with Luby-growing restarts. It
// returns the nodes spent. The tiler applies to interval components
// whose every time section holds exactly the proven bound: a tiling is
// then optimal. Found: c's best is the tiling. Otherwise the deepest
// partial tiling is completed by first fit and kept if it is better.
func (c *comp) tiling(work int64, dead time.Time, stop func() bool) int64 {
	m := c.m
	if !c.tileInit() || c.peak <= c.lower {
		return 0
	}
	if c.tilers[0] == nil {
		c.tilers[0] = newTiler(m, c.lower)
		c.tilers[1] = newTiler(m.reversed(), c.lower)
		c.tileRank = make([]int32, len(m.size))
	}
	n := int64(len(m.size))
	var spent int64
	for _, t := range c.tilers {
		t.deep = 0
		t.stop = stop
	}
	for spent < work || (!dead.IsZero() && time.Now().Before(dead)) {
		dir := c.tileRuns % 2
		r := c.tileRuns / 2
		c.tileRuns++
		t := c.tilers[dir]
		tileRank(m, r, c.tileRank)
		budget := luby(r+1) * n
		if dead.IsZero() {
			budget = min(budget, work-spent)
		}
		n0 := t.nodes
		st := t.run(budget, c.tileRank)
		spent += t.nodes - n0
		if st == found {
			c.peak = c.lower
			c.best = append(c.best[:0], t.off...)
			return spent
		}
		if st == exhausted {
			// No tiling (a run without abort is complete up to memo
			// collisions): the tiler no longer applies.
			c.tileState = tileNo
			break
		}
		spent++ // a run that the memo ends at once still costs
		if stop != nil && stop() {
			break
		}
	}
	// The deepest partial tiling of the phase, completed by first fit.
	if c.rep == nil {
		c.rep = newRepairer(m)
	}
	for _, t := range c.tilers {
		if t.deep == 0 {
			continue
		}
		if peak := c.rep.complete(t.deepOff, t.deepPlaced, nil, true); peak < c.peak {
			c.peak = peak
			c.best = append(c.best[:0], c.rep.off...)
		}
	}
	return spent
}

// tileInit decides once whether the tiler applies to c and reports it.
func (c *comp) tileInit() bool {
	if c.tileState == tileUnknown {
		c.tileState = tileNo
		if c.best != nil && zeroWaste(c.m, c.lower) && c.peak > c.lower {
			c.tileState = tileYes
		}
	}
	return c.tileState == tileYes
}

// tilePhase gives every component the tiler applies to a phase of
// restart k: under a node limit luby(k)·64·n tiler nodes (each
// tileNodeCost of them counted as one node), under a time limit at
// least that and half as long as the longest restart so far took
// (about a third of the time: with half, the complete search that
// solves perfect-7 of ../shared/data took twice as long).
func (d *driver) tilePhase(k int, prev time.Duration) {
	for _, c := range d.comps {
		if c.s == nil || c.peak <= c.lower || c.tileState == tileNo || d.tiles.handles(c) || d.out() {
			continue
		}
		work := luby(k) * 64 * int64(len(c.m.size))
		var dead time.Time
		if d.timed() {
			dead = d.now().Add(prev / 2)
			if dead.After(d.dead) {
				dead = d.dead
			}
		} else {
			work = min(work, (d.limit-d.nodes())*tileNodeCost)
			if work <= 0 {
				return
			}
		}
		spent := c.tiling(work, dead, d.stop)
		d.tiled += spent
		d.shaken += d.tiled / tileNodeCost
		d.tiled %= tileNodeCost
		if traceRun != nil {
			traceRun(k, "tile", c.lower, map[bool]status{true: found, false: aborted}[c.peak == c.lower], 0, c.peak)
		}
	}
}
