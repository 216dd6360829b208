package exact

import (
	"math"
	"time"
)

// meter bounds the work done outside the search: finding components,
// checking lifetimes, building models, cliques and neighbour lists, and
// the dives. Those steps run before the first search node, and on large
// graphs they cost more than any sensible time limit, so each charges its
// elementary steps here and gives up when the budget is spent.
//
// Under a node limit the budget is a step count (stepsPerNode steps a
// node), so where building stops depends only on the problem and the
// limit; under a time limit the clock is read every clockEvery steps.
type meter struct {
	steps int64 // steps charged so far
	cap   int64 // the step budget; MaxInt64 under a time limit
	next  int64 // read the clock when steps reaches next
	over  bool  // the budget ran out: every later tick reports it
	timed bool
	dead  time.Time
	now   func() time.Time
}

const (
	// stepsPerNode converts a node budget into a step budget for the
	// building work. A search node costs some hundreds of steps, so
	// building within this budget takes at most about as long as the
	// search it allows.
	stepsPerNode = 1024
	clockEvery   = 1 << 12
)

func newMeter(d *driver) *meter {
	mt := &meter{cap: math.MaxInt64, timed: d.timed(), dead: d.dead, now: d.now, next: clockEvery}
	if !mt.timed {
		if d.limit > math.MaxInt64/stepsPerNode {
			mt.cap = math.MaxInt64
		} else {
			mt.cap = d.limit * stepsPerNode
		}
	}
	return mt
}

// tick charges k steps and reports whether the budget is spent.
func (mt *meter) tick(k int64) bool {
	if mt == nil {
		return false
	}
	if mt.over {
		return true
	}
	mt.steps += k
	if mt.steps >= mt.cap {
		mt.over = true
		return true
	}
	if mt.timed && mt.steps >= mt.next {
		mt.next = mt.steps + clockEvery
		if !mt.now().Before(mt.dead) {
			mt.over = true
		}
	}
	return mt.over
}

// late reads the clock now (under a time limit) and reports whether the
// budget is spent.
func (mt *meter) late() bool {
	if mt.timed && !mt.now().Before(mt.dead) {
		mt.over = true
	}
	return mt.over
}
