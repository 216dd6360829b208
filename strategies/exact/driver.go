package exact

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// concurrentBoundItems is the size from which the lower bound runs beside
// the greedy strategies (below it, a goroutine costs more than it saves).
const concurrentBoundItems = 2048

// Limits of the propagating search: larger components get dives only.
const (
	maxSearchSpans = 2_000_000 // Σ sections per item: member lists and per-node work
	maxSearchItems = 20_000
)

// comp is one independent component and what is known about it.
type comp struct {
	m     *model
	s     *search // nil when the component is too large to search
	lower uint64  // no placement of the component fits below this
	best  []uint64
	peak  uint64 // max end of best; MaxUint64 while best is nil
	round int    // restarts so far
	shake *shaker
	// Band searches (lns): how far below the best peak the next one aims,
	// and how many ran.
	step  uint64
	bands int
	guide []uint64  // scratch: the placement a band search starts from
	tops  []int32   // scratch
	rep   *repairer // completes a run's deepest node (complete.go)
	ruins *ruiner   // ruin-and-recreate moves (ruin.go)
	wins  *windower // window re-solves (window.go)
	// winShare: eighths of the restart budget the next window phase gets.
	winShare int64
	// ruinShare: eighths of the restart budget the next ruin phase gets
	// (0: not yet set).
	ruinShare int64
	// runWork: the propagation work of the last complete run, the
	// measure of a banded restart's share.
	runWork int64
	// runDeep: the deepest node of the last complete run (items placed).
	runDeep int
	// rate: the cheapest propagation work a node of its complete runs
	// of 64 nodes or more (runWorkCap); 0 before one.
	rate int64
	// The skyline tiler (tiledrv.go): whether it applies, one tiler per
	// time direction, its restarts so far and a scratch rank.
	tileState int
	tilers    [2]*tiler
	tileRuns  int
	tileRank  []int32
}

type driver struct {
	p      *planner.Problem
	opts   Options
	start  time.Time
	limit  int64 // node budget, MaxInt64 under a time limit
	dead   time.Time
	lastP  time.Time
	shaken int64 // nodes spent shaking (one per item placed)
	comps  []*comp
	bound  uint64
	greed  *planner.Solution
	tooBig bool             // some component is beyond the search's size limits
	now    func() time.Time // the clock (a test may replace it)
	// stopped says what the budget interrupted ("" when nothing was):
	// see Result.Stopped.
	stopped string
	capa    uint64        // Options.Capacity: 0 minimises the peak
	hstep   uint          // halfway runs aim (U-L)/2^(hstep+1) below U
	tiled   int64         // tiler nodes not yet counted (tileNodeCost)
	greedy  time.Duration // what the greedy start cost
	tiles   *tileAsync    // the tiler beside the search (timed runs only)
	// The mirror beside the search (portfolio.go): its run, whether this
	// driver may start one, and the flag that ends both.
	mirror   *mirrorRun
	noMirror bool
	halt     *atomic.Bool
	phases   map[string]time.Duration // tracePhases
}

func newDriver(p *planner.Problem, opts Options, now func() time.Time) *driver {
	d := &driver{p: p, opts: opts, now: now, start: now(), capa: opts.Capacity, halt: new(atomic.Bool)}
	d.lastP = d.start
	switch {
	case opts.NodeLimit > 0:
		d.limit = opts.NodeLimit
	case opts.TimeLimit > 0:
		d.limit = math.MaxInt64
		d.dead = d.start.Add(opts.TimeLimit)
	default:
		d.limit = DefaultNodeLimit
	}
	return d
}

func (d *driver) timed() bool { return d.opts.NodeLimit == 0 && d.opts.TimeLimit > 0 }

func (d *driver) nodes() int64 {
	n := d.shaken
	for _, c := range d.comps {
		if c.s != nil {
			n += c.s.nodes
		}
	}
	return n
}

// expired reports whether the time limit has passed (never under a node
// limit: the shakes' node charge is checked before each run).
func (d *driver) expired() bool { return d.timed() && !d.now().Before(d.dead) }

func (d *driver) out() bool {
	return d.nodes() >= d.limit || (d.timed() && (!d.now().Before(d.dead) || d.halted()))
}

// peak and lower are the component figures combined: components share the
// pool, so the pool is as large as the largest.
func (d *driver) peak() uint64 {
	var u uint64
	for _, c := range d.comps {
		u = max(u, c.peak)
	}
	return u
}

func (d *driver) lower() uint64 {
	l := d.bound
	for _, c := range d.comps {
		l = max(l, c.lower)
	}
	return l
}

// best is the best total so far, the greedy solution's included.
func (d *driver) best() uint64 {
	return min(d.peak(), d.greed.Peak())
}

// stop is the searches' periodic check: progress and the time limit.
func (d *driver) stop() bool {
	now := d.now()
	if d.opts.Progress != nil && now.Sub(d.lastP) >= time.Second {
		d.lastP = now
		d.opts.Progress(Progress{Best: d.best(), Bound: d.lower(), Nodes: d.nodes(), Elapsed: now.Sub(d.start)})
	}
	return d.timed() && (now.After(d.dead) || (d.tiles != nil && d.tiles.hit.Load()) || d.halted())
}

func (d *driver) solve() (*planner.Solution, Result, error) {
	p := d.p
	n := len(p.Items)
	if n == 0 {
		sol := &planner.Solution{Pool: []int32{}, Offset: []uint64{}, PoolSizes: []uint64{}}
		return sol, Result{Optimal: true, Elapsed: d.now().Sub(d.start)}, nil
	}
	// The lower bound needs only the problem: on a large one it runs
	// beside the greedy strategies (on the other core, where there is
	// one) and is joined before anything reads it. Under a time limit
	// the join waits until the deadline at most, then stops the bound
	// (see joinBound).
	var boundDone chan struct{}
	var boundOK bool
	var cancel atomic.Bool
	if n >= concurrentBoundItems {
		boundDone = make(chan struct{})
		go func() {
			defer close(boundDone)
			d.bound, boundOK = lowerBoundUntil(p, cancel.Load)
		}()
	} else {
		d.bound = planner.LowerBound(p)
	}

	// The first incumbent: the better greedy (first fit is the default
	// strategy, so the result is never worse than it).
	// Under a time limit that first fit alone has used up, best fit is
	// skipped: the limit cannot interrupt either, and first fit is the
	// default strategy's answer. (Under a node limit both always run.)
	ff, err := firstfit.New().Place(p)
	var bf *planner.Solution
	if err == nil && !d.expired() {
		bf, err = bestfit.New().Place(p)
	}
	greedyEnd := d.now()
	if boundDone != nil {
		d.joinBound(boundDone, &cancel)
	}
	if err != nil {
		return nil, Result{}, err
	}
	d.greed = ff
	if bf != nil && bf.Peak() < ff.Peak() {
		d.greed = bf
	}
	d.greedy = greedyEnd.Sub(d.start)
	if boundDone != nil && !boundOK {
		// The time limit ran out before the bound: every placement
		// holds the largest item.
		d.bound = 0
		for _, it := range p.Items {
			d.bound = max(d.bound, it.Size)
		}
		d.stopped = "bound"
		return d.greed, d.result(d.greed.Peak()), nil
	}
	if d.greed.Peak() <= d.bound || d.answered(d.greed.Peak()) {
		return d.greed, d.result(d.greed.Peak()), nil
	}
	if bf == nil {
		d.stopped = "greedy"
		return d.greed, d.result(d.greed.Peak()), nil
	}
	if !d.searchable() {
		d.stopped = "size"
		if p.MaxPoolSize != 0 && d.bound > p.MaxPoolSize {
			d.stopped = "pools"
		}
		return d.greed, d.result(d.greed.Peak()), nil
	}

	// Everything before the first search node is metered: on large
	// problems it costs more than the budget, and then the greedy
	// solution is the answer.
	mt := newMeter(d)
	if mt.late() {
		// The greedy strategies and the bound used the whole budget.
		d.stopped = "model"
		return d.greed, d.result(d.greed.Peak()), nil
	}
	parts := components(p, mt)
	for _, items := range parts {
		sectioned := p.Intervals() || windowsValid(p, items, mt)
		var m *model
		if !mt.over {
			m = buildModel(p, items, sectioned, mt)
		}
		if m == nil {
			d.comps = nil
			d.stopped = "model"
			return d.greed, d.result(d.greed.Peak()), nil
		}
		c := &comp{m: m, lower: m.maxLoad, peak: math.MaxUint64}
		for i := range m.size {
			c.lower = max(c.lower, m.size[i])
		}
		c.lower = roundUp(c.lower, m.gran)
		if len(d.greed.PoolSizes) == 1 {
			// The greedy placement restricted to the component.
			c.best = make([]uint64, len(m.size))
			c.peak = 0
			for mi, pi := range m.orig {
				c.best[mi] = d.greed.Offset[pi]
				c.peak = max(c.peak, c.best[mi]+m.size[mi])
			}
		}
		if m.big || m.spans > maxSearchSpans || len(m.size) > maxSearchItems {
			d.tooBig = true
		} else {
			// Member lists and their size order: charged before.
			if mt.tick(2 * m.spans) {
				d.comps = nil
				d.stopped = "model"
				return d.greed, d.result(d.greed.Peak()), nil
			}
			c.s = newSearch(m)
			c.s.stop = d.stop
		}
		d.comps = append(d.comps, c)
	}
	if parts == nil {
		d.stopped = "model"
		return d.greed, d.result(d.greed.Peak()), nil
	}
	if !d.dive(mt) {
		d.stopped = "dives"
	} else {
		d.improve()
	}

	// The component solutions share one pool.
	top := d.peak()
	if top >= d.greed.Peak() || (p.MaxPoolSize != 0 && top > p.MaxPoolSize) {
		if d.stopped == "" && p.MaxPoolSize != 0 && top > p.MaxPoolSize {
			d.stopped = "pools"
		}
		return d.greed, d.result(d.greed.Peak()), nil
	}
	sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n), PoolSizes: []uint64{top}}
	for _, c := range d.comps {
		for mi, pi := range c.m.orig {
			sol.Offset[pi] = c.best[mi]
		}
	}
	return sol, d.result(top), nil
}

// lowerBoundUntil is planner.LowerBoundUntil; a test replaces it with a
// bound that never finishes before it is stopped.
var lowerBoundUntil = planner.LowerBoundUntil

// joinBound waits for the concurrent lower bound; under a time limit
// only until the deadline, and then it stops the bound (cancel) and
// waits the few milliseconds LowerBoundUntil takes to return. The clock
// is read once, here, not by the bound's goroutine (a test's clock need
// not be safe for concurrent use).
func (d *driver) joinBound(done chan struct{}, cancel *atomic.Bool) {
	if !d.timed() {
		<-done
		return
	}
	left := d.dead.Sub(d.now())
	if left > 0 {
		t := time.NewTimer(left)
		defer t.Stop()
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
	cancel.Store(true)
	<-done
}

// searchable reports whether the search can work on p: a single pool must
// be able to hold it (the bound within MaxPoolSize) and no sum of sizes
// may come near 2⁶⁴.
func (d *driver) searchable() bool {
	p := d.p
	if p.MaxPoolSize != 0 && d.bound > p.MaxPoolSize {
		return false
	}
	var total uint64
	for _, it := range p.Items {
		total = satAdd(total, satAdd(it.Size, it.Alignment))
	}
	return total < math.MaxUint64/2
}

func (d *driver) result(peak uint64) Result {
	r := Result{Peak: peak, Bound: min(d.lower(), peak), Nodes: d.nodes(), Elapsed: d.now().Sub(d.start), Greedy: d.greedy}
	r.Optimal = r.Peak == r.Bound
	if d.capa > 0 {
		switch {
		case peak <= d.capa:
			r.Verdict = Fits
		case d.lower() > d.capa:
			r.Verdict = DoesNotFit
		default:
			r.Verdict = Unknown
		}
	}
	if !r.Optimal && (r.Verdict == NotAsked || r.Verdict == Unknown) {
		r.Stopped = d.stopped
		if r.Stopped == "" {
			r.Stopped = "search"
		}
	}
	return r
}

// answered reports whether the capacity question (if any) is settled by
// a placement of peak best and the bounds proven so far.
func (d *driver) answered(best uint64) bool {
	return d.capa > 0 && (best <= d.capa || d.lower() > d.capa)
}

// dive gives every interval component a greedy placement by canonical
// dives, in two candidate orders and both time directions. Dives are not
// counted as nodes (four cost about as much as the greedy strategies) but
// charged to mt; it returns false when mt runs out.
func (d *driver) dive(mt *meter) bool {
	for _, c := range d.comps {
		m := c.m
		if len(m.nbr) > 0 || m.big || m.nsec == 0 {
			continue
		}
		for dir := 0; dir < 2; dir++ {
			mm := m
			if dir == 1 {
				mm = m.reversed()
			}
			if mt.tick(int64(m.nsec + len(m.size))) {
				return false
			}
			dv := newDiver(mm)
			for _, better := range diveOrders(mm) {
				peak, ok := dv.dive(better, mt)
				if !ok {
					return false
				}
				if peak < c.peak {
					c.peak = peak
					c.best = append(c.best[:0], dv.off...)
				}
			}
		}
	}
	return true
}

// diveOrders are the candidate preferences of the dives: the longest
// item (it covers most of the lowest run), then the largest.
func diveOrders(m *model) []func(a, b int32) bool {
	span := func(i int32) int32 { return m.sb[i] - m.sa[i] }
	return []func(a, b int32) bool{
		func(a, b int32) bool {
			if span(a) != span(b) {
				return span(a) > span(b)
			}
			return m.size[a] > m.size[b]
		},
		func(a, b int32) bool {
			if m.size[a] != m.size[b] {
				return m.size[a] > m.size[b]
			}
			return span(a) > span(b)
		},
	}
}

// improve runs decision searches between the lower bound and the best
// peak, restarting with new candidate orders and a growing node budget
// (the Luby sequence), until the peak is proven optimal or the budget is
// spent.
func (d *driver) improve() {
	var prev time.Duration
	d.tiles = d.startTiles()
	defer func() { d.tiles.stopTiles(); d.tiles = nil }()
	if tracePhases != nil {
		defer func() { tracePhases(d.noMirror, d.phases) }()
	}
	if d.tiles == nil {
		d.startMirror()
	}
	for k := 1; ; k++ {
		d.tiles.adopt()
		L, U := d.lower(), d.peak()
		if L >= U || d.answered(U) || d.out() {
			return
		}
		// Zero-waste components: a skyline tiler phase (tiledrv.go),
		// about half the time.
		tp := d.phase()
		d.tilePhase(k, prev)
		d.phaseEnd(tp, "tile")
		if L, U = d.lower(), d.peak(); L >= U || d.answered(U) || d.out() {
			return
		}
		t0 := d.now()
		// Mostly try to reach the bound; every fourth restart aims halfway
		// between, which improves the incumbent when the bound is out of
		// reach. A capacity question asks only about its capacity.
		C := L
		if d.capa > 0 {
			// Every fourth aims halfway between the capacity and the
			// incumbent, as below: a better incumbent when the answer is
			// unknown, and most searches at C run from better orders.
			L = d.capa
			C = L
		}
		half := k%4 == 0 && U-L > 1
		if half {
			// Halfway between, at first; a halfway run that fails moves
			// the next one closer to U (half the distance), one that
			// succeeds moves it back: on large components a failed run
			// costs seconds, and the repairs (complete.go) lower U in
			// small steps, which would make halfway ever harder.
			// Peaks are multiples of every component's granularity.
			dist := max((U-L)>>(d.hstep+1), 1)
			C = max(L, alignDown(U-dist, d.gran()))
		}
		if k%4 == 1 {
			tp := d.phase()
			d.shakeAll(uint64(k), 8*int(luby(k)))
			d.phaseEnd(tp, "shake")
			if d.out() {
				return
			}
		}
		searched := false
		for _, c := range d.comps {
			if c.peak <= C || c.s == nil {
				continue
			}
			if c.lower > C {
				break
			}
			searched = true
			// A run that finds a placement rarely backtracks much: most
			// runs end within about n nodes or not at all, so short runs,
			// many orders.
			// Seven restarts in eight branch on levels, the eighth on the
			// next item, each kind with its own Luby sequence.
			n := int64(len(c.m.size))
			c.s.skyline = k%8 != 0
			kk := k / 8
			if c.s.skyline {
				kk = k - k/8
			}
			budget := luby(kk) * (n + n/4 + 64)
			budget = min(budget, d.limit-d.nodes())
			if budget <= 0 {
				return
			}
			c.s.setOrder(c.order())
			c.round++
			cc := C
			if d.capa > 0 {
				// Canonical peaks are multiples of the granularity
				// (Lemma 3): one fits within C iff one fits within cc.
				cc = alignDown(C, c.m.gran)
			}
			var st status
			if c.banded(k) {
				// When the last complete run failed low (its deepest node
				// placed less than half the items: more restarts of it
				// rarely get further), a banded restart runs bands until
				// they have done as much propagation work as that run (a
				// band costs a few hundred nodes, a complete run at L on a
				// large component seconds): then half the effort goes to
				// the moves that improve the incumbent. Otherwise one band.
				w0 := c.s.work
				for r := 0; ; r++ {
					tp := d.phase()
					st = c.band(C, budget)
					d.phaseEnd(tp, "band")
					if traceRun != nil {
						traceRun(k, "band", C, st, c.s.deep, c.peak)
					}
					if st == found {
						c.take()
					} else if c.repair() {
						c.step *= 2 // band halved it; the repair moved
					}
					if c.peak <= C || d.out() || r+1 >= maxBands || 2*(c.s.work-w0) >= c.runWork || 2*int64(c.runDeep) >= n {
						break
					}
					if budget = min(budget, d.limit-d.nodes()); budget <= 0 {
						break
					}
				}
				// Ruin moves (ruin.go) after the bands: each freed item
				// placed counts as a node.
				// From restart ruinFrom: the first complete runs solve
				// many large instances (seconds each), ruin moves rarely do.
				ruinStuck := true
				if k >= ruinFrom && c.ruinable() && c.peak > C && !d.out() {
					// The share adapts: halved after a phase that did not
					// lower the peak (zero-waste instances, where first fit
					// rarely tiles), restored after one that did.
					if c.ruinShare == 0 {
						c.ruinShare = ruinShare * 8
					}
					w := min(c.ruinShare*budget/8, d.limit-d.nodes())
					p0 := c.peak
					tp := d.phase()
					d.shaken += c.ruin(w, d.stop)
					d.phaseEnd(tp, "ruin")
					if c.peak < p0 {
						c.ruinShare = ruinShare * 8
						ruinStuck = false
					} else {
						c.ruinShare = max(1, c.ruinShare/2)
					}
					if traceRun != nil {
						traceRun(k, "ruin", C, map[bool]status{true: found, false: aborted}[c.peak < p0], 0, c.peak)
					}
				}
				// Window re-solves (window.go) after the ruin moves: the
				// freed items of a time window are searched again exactly
				// around the pinned ones.
				// Only when the ruin moves did not lower the peak: where
				// they do, they are cheaper (measured: slack n=2000-3000).
				// Under a node limit they are left out: node-limited results
				// (the fingerprint TestFamiliesNodes and bench --node-limit
				// compare) stay those of the search without them.
				if k >= ruinFrom && ruinStuck && d.timed() && c.windowable() && c.peak > C && !d.out() {
					// The share adapts as the ruin moves': halved after a
					// phase without a successful window, restored by one.
					if c.winShare == 0 {
						c.winShare = windowShare * 8
					}
					p0 := c.peak
					var w0 int
					if c.wins != nil {
						w0 = c.wins.wins
					}
					tp := d.phase()
					d.shaken += c.window(min(c.winShare*budget/8, d.limit-d.nodes()), d.stop)
					d.phaseEnd(tp, "window")
					if c.ruins != nil {
						// The placement moved: the ruin moves' plateau
						// measure is recomputed.
						c.ruins.area = 0
					}
					if c.wins != nil && c.wins.wins > w0 {
						c.winShare = windowShare * 8
					} else {
						c.winShare = max(1, c.winShare/2)
					}
					if traceRun != nil {
						traceRun(k, "window", C, map[bool]status{true: found, false: aborted}[c.peak < p0], 0, c.peak)
						if traceWin != nil {
							traceWin(c.wins.tries, c.wins.wins, c.wins.peaks, c.wins.exh, c.wins.abo, c.wins.size, c.peak-c.wins.T)
						}
					}
				}
				// A band search proves nothing; the other components are
				// not searched this restart.
				break
			}
			w0 := c.s.work
			tp := d.phase()
			nd0 := c.s.nodes
			if d.timed() {
				// Under a time limit a run whose nodes cost far more
				// propagation than usual is cut short (runWorkCap).
				cp := runWorkCap(c.m, c.rate)
				c.s.stop = func() bool { return d.stop() || c.s.work-w0 > (c.s.nodes-nd0+runWorkSlack)*cp }
			}
			st = c.s.run(cc, budget)
			c.s.stop = d.stop
			if nd := c.s.nodes - nd0; nd >= 64 {
				if r := (c.s.work - w0) / nd; c.rate == 0 || r < c.rate {
					c.rate = max(r, 1)
				}
			}
			if traceWork != nil {
				traceWork(k, len(c.m.size), c.s.nodes-nd0, budget, c.s.work-w0, c.m.spans)
			}
			runKind := "complete"
			if half {
				runKind = "half"
			}
			c.runWork, c.runDeep = c.s.work-w0, c.s.deep
			if half && d.capa == 0 {
				switch {
				case st == found && d.hstep > 0:
					d.hstep--
				case st == aborted && d.hstep < 6:
					d.hstep++
				}
			}
			if traceRun != nil {
				traceRun(k, map[bool]string{true: "level", false: "next"}[c.s.skyline], cc, st, c.s.deep, c.peak)
			}
			if st == found {
				c.take()
				d.phaseEnd(tp, runKind)
				continue
			}
			if n >= repairItems {
				c.repair()
			}
			d.phaseEnd(tp, runKind) // the run and its repair
			if st == exhausted {
				// Every capacity below need fails the same way.
				// Peaks are multiples of the granularity.
				c.lower = max(c.lower, min(roundUp(max(c.s.need, satAdd(cc, 1)), c.m.gran), c.peak))
			}
			break // the component does not fit C (yet): C is out of reach
		}
		prev = max(prev, d.now().Sub(t0))
		if !searched {
			// Only components that cannot be searched are above C.
			if d.tooBig {
				d.stopped = "size"
			}
			return
		}
	}
}

// Band searches (large-neighbourhood search) start on components of at
// least bandItems items, from restart bandFrom on, every other restart.
const (
	bandItems = 200
	bandFrom  = 8
	bandEarly = 1000
)

// traceRun, when set (tests), sees every run: restart, kind, capacity,
// outcome, deepest node and the best peak before the run's repair.
var traceRun func(k int, kind string, c uint64, st status, deep int, peak uint64)

// runWorkCap is the propagation work a node of a complete run may cost
// on average (the run stops when its work exceeds this times its nodes
// plus runWorkSlack): runWorkSpans times the component's spans (Σ
// sections per item), and runWorkRate times the cheapest average of
// its earlier runs of 64 nodes or more (rate; 0: none yet). On the
// largest zero-waste components (perfect n=3000 seed 3, 2,015 items,
// 80,459 spans) the productive runs cost 5,000–7,000 a node and some
// halfway runs 250,000–2,500,000 (46 nodes in 20 s): one such run held
// the restart loop, and with it the adoption of the tiler's posts and
// every move, for the rest of the time limit.
func runWorkCap(m *model, rate int64) int64 {
	cp := runWorkSpans * max(m.spans, int64(len(m.size)))
	if rate > 0 {
		cp = min(cp, runWorkRate*rate)
	}
	return cp
}

const (
	runWorkSpans = 4
	runWorkRate  = 4
	runWorkSlack = 16
)

// traceWork, when set (tests), sees each complete run's nodes, budget,
// propagation work and the component's spans.
var traceWork func(k, n int, nodes, budget, work, spans int64)

// tracePhases, when set (tests), sees where improve's time went, by
// phase, when it returns (mirror: the driver is the mirror's).
var tracePhases func(mirror bool, phases map[string]time.Duration)

// phaseMark is a phase's start for tracePhases: the time and the peak.
type phaseMark struct {
	t    time.Time
	peak uint64
}

// phase and phaseEnd time a phase of improve for tracePhases and count
// the phases that lowered the peak (name+"↓") and by how much in all
// (name+"↓bytes", in the Duration's units).
func (d *driver) phase() phaseMark {
	if tracePhases == nil {
		return phaseMark{}
	}
	return phaseMark{time.Now(), d.peak()}
}

func (d *driver) phaseEnd(m phaseMark, name string) {
	if tracePhases == nil {
		return
	}
	if d.phases == nil {
		d.phases = map[string]time.Duration{}
	}
	d.phases[name] += time.Since(m.t)
	if p := d.peak(); p < m.peak {
		d.phases[name+"↓"]++
		if m.peak != math.MaxUint64 {
			d.phases[name+"↓bytes"] += time.Duration(m.peak - p)
		}
	}
}

// traceWin, when set (tests), sees the window counters after each window
// phase: tries, found, peak drops, exhausted, aborted, the window size
// and how far below the peak the target is.
var traceWin func(tries, wins, peaks, exh, abo, size int, below uint64)

// repairItems: components from this size have the deepest node of every
// failed complete run repaired (complete.go); smaller ones are solved by
// the search.
const repairItems = bandItems

// ruinShare: a banded restart's ruin moves place up to ruinShare times its node
// budget of items (a placement by first fit costs a few hundredths of a
// search node at n = 1,000–3,000).
const ruinShare = 5

// windowShare: a banded restart's window moves use up to windowShare
// times its node budget (sub-search nodes plus one per freed item).
const windowShare = 1

// ruinFrom is the first restart with ruin moves (and window moves).
const ruinFrom = 7

// maxBands caps the bands of one banded restart.
const maxBands = 1

// banded reports whether restart k of c is a band search.
func (c *comp) banded(k int) bool {
	n := len(c.m.size)
	if n < bandItems || c.best == nil || c.peak == math.MaxUint64 {
		return false
	}
	if n >= bandEarly {
		// A complete run takes seconds here: bands from the second
		// restart on.
		return k >= 2 && k%2 == 1
	}
	return k >= bandFrom && k%2 == 1
}

// band is one step of the improvement phase for problems the complete
// search does not finish (large-neighbourhood search): from the best
// placement (or its mirror image, every other call) it keeps every item
// but a freed set and searches the freed items again, exactly, at a
// capacity a step below the best peak (search.runFrom). The freed set is
// a band of offsets at the top: the items of the highest ends. Found
// lowers the peak and doubles the step; anything else halves it and
// proves nothing, so no bound comes from a band. The band's size comes
// from a generator seeded by the call count, so under a node limit the
// result stays a function of the problem and the limit.
func (c *comp) band(C uint64, budget int64) status {
	m := c.m
	n := len(m.size)
	g := m.gran
	c.bands++
	rng := rand.New(rand.NewPCG(uint64(c.bands), 0xba2d))
	U := c.peak
	if c.step == 0 {
		c.step = max(g, (U-C)/32)
	}
	target := max(C, alignDown(U-min(c.step, U), g))
	if target >= U {
		return aborted
	}
	off := append(c.guide[:0], c.best...)
	c.guide = off
	if c.bands%2 == 0 {
		// The mirror image: the same items upside down is a placement too
		// (interference is symmetric), when every offset stays aligned.
		ok := true
		for i := range off {
			o := U - off[i] - m.size[i]
			if o%m.align[i] != 0 {
				ok = false
				break
			}
			off[i] = o
		}
		if !ok {
			copy(off, c.best)
		}
	}
	// Twins in index order (the search requires it of every placement;
	// twins are interchangeable, so their offsets may be permuted).
	for i := 0; i < n; {
		k := i + 1
		for k < n && m.twin[k] == int32(k-1) {
			k++
		}
		if k-i > 1 {
			slices.Sort(off[i:k])
		}
		i = k
	}
	// The freed items: those of the highest ends, between 50 and 550 of
	// them and at least every item that ends above the target. The kept
	// ones all end by some y and the freed ones after it, so no freed
	// item lies below a kept one it interferes with (it would end lower).
	above := 0
	for i := 0; i < n; i++ {
		if off[i]+m.size[i] > target {
			above++
		}
	}
	free := min(n-1, max(above, 50+rng.IntN(min(n, 500))))
	tops := c.tops[:0]
	for i := 0; i < n; i++ {
		tops = append(tops, int32(i))
	}
	c.tops = tops
	slices.SortFunc(tops, func(a, b int32) int {
		if x, y := off[a]+m.size[a], off[b]+m.size[b]; x != y {
			return cmp.Compare(x, y)
		}
		return cmp.Compare(a, b)
	})
	keep := n - free
	y := off[tops[keep-1]] + m.size[tops[keep-1]]
	for keep > 0 && off[tops[keep-1]]+m.size[tops[keep-1]] == y && keep < n && off[tops[keep]]+m.size[tops[keep]] == y {
		keep-- // items ending at y stay together
	}
	if keep == 0 {
		return aborted
	}
	prefix := tops[:keep]
	slices.SortFunc(prefix, func(a, b int32) int {
		if off[a] != off[b] {
			return cmp.Compare(off[a], off[b])
		}
		return cmp.Compare(a, b)
	})
	st := c.s.runFrom(target, min(budget, int64(2*free+64)), prefix, off)
	if st == found {
		c.step *= 2
	} else {
		c.step = max(g, c.step/2)
	}
	return st
}

// shakeAll runs randomized first fits on every graph component still
// above the bound, each counted as one node per item.
func (d *driver) shakeAll(seed uint64, runs int) {
	L := d.lower()
	for _, c := range d.comps {
		m := c.m
		if len(m.nbr) == 0 || c.peak <= L || c.s == nil {
			continue
		}
		if c.shake == nil {
			c.shake = newShaker(d.p, m)
		}
		rng := rand.New(rand.NewPCG(seed, 0x5ca1e))
		for r := 0; r < runs && !d.out() && d.nodes()+int64(len(m.size)) <= d.limit; r++ {
			peak, ok := c.shake.run(rng, d.expired)
			if !ok {
				return
			}
			d.shaken += int64(len(m.size))
			if peak < c.peak {
				c.peak = peak
				c.best = append(c.best[:0], c.shake.off...)
			}
		}
	}
}

// take records the search's placement if it beats the best.
func (c *comp) take() {
	var top uint64
	for i, o := range c.s.off {
		top = max(top, o+c.m.size[i])
	}
	if top < c.peak {
		c.peak = top
		c.best = append(c.best[:0], c.s.off...)
	}
}

// order returns the candidate order for the component's next restart:
// longest first, largest first, then seeded shuffles.
func (c *comp) order() []int32 {
	m := c.m
	n := len(m.size)
	o := make([]int32, n)
	for i := range o {
		o[i] = int32(i)
	}
	span := func(i int32) int32 { return m.sb[i] - m.sa[i] }
	switch c.round {
	case 0:
		sort.SliceStable(o, func(x, y int) bool {
			a, b := o[x], o[y]
			if span(a) != span(b) {
				return span(a) > span(b)
			}
			return m.size[a] > m.size[b]
		})
	case 1:
		sort.SliceStable(o, func(x, y int) bool { return m.size[o[x]] > m.size[o[y]] })
	default:
		r := rand.New(rand.NewPCG(uint64(c.round), 0x5eed))
		r.Shuffle(n, func(a, b int) { o[a], o[b] = o[b], o[a] })
	}
	return o
}

// gran is the granularity all components share: the smallest (they are
// powers of two).
func (d *driver) gran() uint64 {
	g := uint64(1) << 63
	for _, c := range d.comps {
		g = min(g, c.m.gran)
	}
	return g
}

// roundUp rounds x up to a multiple of the power of two g, saturating
// to the largest multiple.
func roundUp(x, g uint64) uint64 { return alignUp(x, g) }

// luby returns the k-th term (k ≥ 1) of the Luby sequence 1 1 2 1 1 2 4 …
func luby(k int) int64 {
	for {
		p := 1
		for (1<<p)-1 < k {
			p++
		}
		if k == (1<<p)-1 {
			return 1 << (p - 1)
		}
		k -= (1 << (p - 1)) - 1
	}
}
