package exact

import (
	"sync"
	"sync/atomic"
	"time"
)

// tilePost is what the tiler beside the search hands the driver: a
// placement of a component and its peak (the bound when it is a tiling).
type tilePost struct {
	off  []uint64
	peak uint64
}

// tileAsync is the skyline tiler run on its own goroutine, beside the
// search, under a time limit only (docs/decisions.md): the machines this
// runs on have two cores or more, the tiler's nodes are cheap and its
// success ends a zero-waste component at once, and the search and the
// sync phase (tilePhase) lose none of their time to it. Under a node
// limit the driver keeps the tiler phase of every restart instead, so
// results stay functions of the problem and the limit.
type tileAsync struct {
	quit atomic.Bool
	hit  atomic.Bool // a tiling was posted and not yet adopted
	wg   sync.WaitGroup
	work []*tileJob
}

// tileJob: one zero-waste component, its own tilers (built on the
// driver's goroutine: they and the repairer only read the model), and
// the latest placement posted.
type tileJob struct {
	c      *comp
	tilers [2]*tiler
	rep    *repairer
	rank   []int32
	post   atomic.Pointer[tilePost]
	peak   uint64 // the best peak posted (the goroutine's own record)
	none   bool   // a complete run found no tiling
	lower  uint64 // the component's bound when it started: the tilers' C
}

// startTiles starts the goroutine when some component is zero-waste and
// above its bound; the caller stops it with stopTiles.
func (d *driver) startTiles() *tileAsync {
	if !d.timed() {
		return nil
	}
	ta := &tileAsync{}
	for _, c := range d.comps {
		if c.s == nil || c.peak <= c.lower || !c.tileInit() {
			continue
		}
		m := c.m
		ta.work = append(ta.work, &tileJob{c: c, tilers: [2]*tiler{newTiler(m, c.lower), newTiler(m.reversed(), c.lower)},
			rep: newRepairer(m), rank: make([]int32, len(m.size)), peak: c.peak, lower: c.lower})
	}
	if len(ta.work) == 0 {
		return nil
	}
	dead := d.dead
	ta.wg.Add(1)
	go func() {
		defer ta.wg.Done()
		ta.run(dead)
	}()
	return ta
}

// run works on the jobs in turn (the one with the fewest runs first, so
// each gets a share), each a restart of the tiler in one direction with
// a Luby budget, until every job is tiled, quit is set or the deadline
// passes. A job whose deepest partial tiling grew posts its first-fit
// completion when that beats the best it posted (at most every 50 ms).
func (ta *tileAsync) run(dead time.Time) {
	stop := func() bool { return ta.quit.Load() || !time.Now().Before(dead) }
	runs := make([]int, len(ta.work))
	deep := make([][2]int, len(ta.work))
	last := time.Now()
	for !stop() {
		k := -1
		for i, j := range ta.work {
			if j.peak > j.lower && !j.none && (k < 0 || runs[i] < runs[k]) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		j := ta.work[k]
		dir, r := runs[k]%2, runs[k]/2
		runs[k]++
		t := j.tilers[dir]
		t.stop = stop
		m := t.m
		tileRank(m, r, j.rank)
		switch t.run(luby(r+1)*int64(len(m.size)), j.rank) {
		case found:
			j.peak = j.lower
			j.post.Store(&tilePost{off: append([]uint64(nil), t.off...), peak: j.peak})
			ta.hit.Store(true)
			continue
		case exhausted:
			j.none = true // no tiling: leave the job
		}
		if t.deep > deep[k][dir] && time.Since(last) >= 50*time.Millisecond {
			deep[k][dir] = t.deep
			last = time.Now()
			j.repair(t)
		}
	}
	// Stopped: the deepest partial tilings not yet completed.
	for k, j := range ta.work {
		for dir, t := range j.tilers {
			if j.peak > j.lower && t.deep > deep[k][dir] {
				j.repair(t)
			}
		}
	}
}

// repair completes t's deepest partial tiling by first fit and posts it
// when it beats the best posted.
func (j *tileJob) repair(t *tiler) {
	if peak := j.rep.complete(t.deepOff, t.deepPlaced, nil, true); peak < j.peak {
		j.peak = peak
		j.post.Store(&tilePost{off: append([]uint64(nil), j.rep.off...), peak: peak})
	}
}

// adopt takes the placements posted since the last call.
func (ta *tileAsync) adopt() {
	if ta == nil {
		return
	}
	ta.hit.Store(false)
	for _, j := range ta.work {
		if p := j.post.Swap(nil); p != nil && p.peak < j.c.peak {
			j.c.peak = p.peak
			j.c.best = append(j.c.best[:0], p.off...)
			if traceRun != nil {
				traceRun(0, "tiles", j.lower, map[bool]status{true: found, false: aborted}[p.peak == j.lower], 0, p.peak)
			}
		}
	}
}

// stopTiles ends the goroutine, waits for it and adopts what it left.
func (ta *tileAsync) stopTiles() {
	if ta == nil {
		return
	}
	ta.quit.Store(true)
	ta.wg.Wait()
	ta.adopt()
}

// handles reports whether the goroutine works on c (the driver's tiler
// phase then leaves it alone).
func (ta *tileAsync) handles(c *comp) bool {
	if ta == nil {
		return false
	}
	for _, j := range ta.work {
		if j.c == c {
			return true
		}
	}
	return false
}
