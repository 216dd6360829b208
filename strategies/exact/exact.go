package exact

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// DefaultNodeLimit is the node budget when Options sets neither limit.
const DefaultNodeLimit = 1_000_000

// Options bound the search. The zero value means a node budget of
// DefaultNodeLimit and no time limit, so that Place is deterministic, as
// planner.Strategy requires.
type Options struct {
	// TimeLimit stops the search after this much wall time. It applies
	// only when NodeLimit is 0: results then depend on the machine's speed.
	TimeLimit time.Duration
	// NodeLimit stops the search after this many search nodes. When it is
	// set the result depends on nothing but the problem and the limit.
	NodeLimit int64
	// Progress, when set, is called from Solve's goroutine at most once a
	// second while the search runs.
	Progress func(Progress)
}

// Progress reports a running search.
type Progress struct {
	Best    uint64 // the best peak found so far
	Bound   uint64 // the proven lower bound so far
	Nodes   int64
	Elapsed time.Duration
}

// Result reports how good a solution is.
type Result struct {
	Peak  uint64 // the solution's total pool size
	Bound uint64 // proven: no placement in any pools needs fewer bytes
	// Optimal is true only when proven: Peak == Bound, or the search
	// showed that nothing smaller fits.
	Optimal bool
	Nodes   int64
	Elapsed time.Duration
}

// Gap returns (Peak-Bound)/Bound, 0 when Bound is 0.
func (r Result) Gap() float64 {
	if r.Bound == 0 || r.Peak <= r.Bound {
		return 0
	}
	return float64(r.Peak-r.Bound) / float64(r.Bound)
}

func (r Result) String() string {
	opt := ""
	if r.Optimal {
		opt = ", optimal"
	}
	return fmt.Sprintf("peak %d, bound %d, gap %.4f%%%s, %d nodes, %v", r.Peak, r.Bound, 100*r.Gap(), opt, r.Nodes, r.Elapsed)
}

// Strategy is the exact placement strategy. It is safe for concurrent use:
// Solve keeps its state on the stack.
type Strategy struct {
	opts Options
}

// New returns an exact strategy with the given budget.
func New(opts Options) *Strategy {
	if opts.NodeLimit < 0 || opts.TimeLimit < 0 {
		panic("exact: negative limit")
	}
	return &Strategy{opts: opts}
}

// Name returns "exact".
func (s *Strategy) Name() string { return "exact" }

// Place returns Solve's solution.
func (s *Strategy) Place(p *planner.Problem) (*planner.Solution, error) {
	sol, _, err := s.Solve(p)
	return sol, err
}

// Solve places p within the budget and reports the peak, the proven lower
// bound and whether the peak is optimal.
func (s *Strategy) Solve(p *planner.Problem) (*planner.Solution, Result, error) {
	d := newDriver(p, s.opts)
	sol, res := d.solve()
	if err := planner.CheckSolution(p, sol); err != nil {
		return nil, res, fmt.Errorf("exact: internal error: %w", err)
	}
	return sol, res, nil
}

// ErrBudget is never returned; the search always returns its best plan.
var _ = errors.New

// comp is one independent component and what is known about it.
type comp struct {
	m     *model
	s     *search
	lower uint64   // no placement of the component fits below this
	best  []uint64 // best offsets found (model order)
	peak  uint64   // max end of best
}

type driver struct {
	p     *planner.Problem
	opts  Options
	start time.Time
	nodes int64 // all searches
	limit int64 // global node budget, or MaxInt64 with a time limit
	dead  time.Time
	lastP time.Time
	comps []*comp
	bound uint64
}

func newDriver(p *planner.Problem, opts Options) *driver {
	d := &driver{p: p, opts: opts, start: time.Now()}
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

// stop is the searches' periodic check: progress and the time limit.
func (d *driver) stop() bool {
	now := time.Now()
	if d.opts.Progress != nil && now.Sub(d.lastP) >= time.Second {
		d.lastP = now
		d.opts.Progress(Progress{Best: d.peak(), Bound: d.lower(), Nodes: d.totalNodes(), Elapsed: now.Sub(d.start)})
	}
	return d.timed() && now.After(d.dead)
}

func (d *driver) totalNodes() int64 {
	n := d.nodes
	for _, c := range d.comps {
		if c.s != nil {
			n += c.s.nodes
		}
	}
	return n
}

func (d *driver) solve() (*planner.Solution, Result) {
	p := d.p
	n := len(p.Items)
	sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	if n == 0 {
		return sol, Result{Optimal: true, Elapsed: time.Since(d.start)}
	}
	d.bound = planner.LowerBound(p)
	for _, items := range components(p) {
		sectioned := p.Intervals() || windowsValid(p, items)
		m := buildModel(p, items, sectioned)
		c := &comp{m: m, lower: m.maxLoad, peak: math.MaxUint64}
		for i := range m.size {
			c.lower = max(c.lower, m.size[i])
		}
		d.comps = append(d.comps, c)
	}
	// First incumbents: a dive of the search at unlimited capacity.
	for _, c := range d.comps {
		c.s = newSearch(c.m)
		c.s.stop = d.stop
		if c.s.run(math.MaxUint64, math.MaxInt64) != found {
			panic("exact: unbounded dive failed")
		}
		c.take()
	}
	d.improve()
	// Assemble.
	var top uint64
	for _, c := range d.comps {
		for mi, pi := range c.m.orig {
			sol.Offset[pi] = c.best[mi]
			top = max(top, c.best[mi]+c.m.size[mi])
		}
	}
	sol.PoolSizes = []uint64{top}
	res := Result{Peak: top, Bound: min(d.lower(), top), Nodes: d.totalNodes(), Elapsed: time.Since(d.start)}
	res.Optimal = res.Peak == res.Bound
	return sol, res
}

// take records the search's current placement if it beats the best.
func (c *comp) take() {
	var top uint64
	for i, o := range c.s.off {
		top = max(top, o+c.m.size[i])
	}
	if top < c.peak {
		c.peak = top
		c.best = append(c.best[:0], c.s.off...)
	}
	c.lower = min(c.lower, c.peak)
}

// improve runs decision searches between the bound and the incumbent.
func (d *driver) improve() {
	budget := int64(1024)
	round := 0
	for {
		L, U := d.lower(), d.peak()
		if L >= U || d.totalNodes() >= d.limit || (d.timed() && time.Now().After(d.dead)) {
			return
		}
		caps := []uint64{L}
		if U-L > 1 {
			caps = append(caps, L+(U-L)/2)
		}
		progress := false
		for _, C := range caps {
			if C < d.lower() || C >= d.peak() {
				continue
			}
			switch d.attempt(C, budget, round) {
			case found, exhausted:
				progress = true
			}
			if d.lower() >= d.peak() {
				return
			}
		}
		if !progress {
			budget *= 2
		}
		round++
	}
}

// attempt decides capacity C for every component that does not already
// fit, each with the given node budget.
func (d *driver) attempt(C uint64, budget int64, round int) status {
	cs := append([]*comp(nil), d.comps...)
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].peak > cs[b].peak })
	for _, c := range cs {
		if c.peak <= C {
			continue
		}
		if c.lower > C {
			return exhausted
		}
		left := d.limit - d.totalNodes()
		if left <= 0 {
			return aborted
		}
		c.s.setOrder(valueOrder(c.m, round))
		switch c.s.run(C, min(budget, left)) {
		case found:
			c.take()
		case exhausted:
			c.lower = max(c.lower, c.s.need)
			return exhausted
		case aborted:
			return aborted
		}
	}
	return found
}

// valueOrder returns the candidate order for a restart.
func valueOrder(m *model, round int) []int32 {
	n := len(m.size)
	o := make([]int32, n)
	for i := range o {
		o[i] = int32(i)
	}
	span := func(i int32) int32 { return m.sb[i] - m.sa[i] }
	var less func(a, b int32) bool
	switch round % 3 {
	case 0: // longest first, then largest
		less = func(a, b int32) bool {
			if span(a) != span(b) {
				return span(a) > span(b)
			}
			return m.size[a] > m.size[b]
		}
	case 1: // largest first
		less = func(a, b int32) bool { return m.size[a] > m.size[b] }
	case 2: // largest area first
		less = func(a, b int32) bool {
			return float64(m.size[a])*float64(span(a)) > float64(m.size[b])*float64(span(b))
		}
	}
	sort.SliceStable(o, func(x, y int) bool { return less(o[x], o[y]) })
	return o
}
