package exact

import (
	"fmt"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// DefaultNodeLimit is the node budget when Options sets neither limit.
const DefaultNodeLimit = 20_000

// Options bound the search. The zero value means a node budget of
// DefaultNodeLimit and no time limit, so that Place is deterministic, as
// planner.Strategy requires.
type Options struct {
	// TimeLimit stops the search after this much wall time. It applies
	// only when NodeLimit is 0, and then results depend on the machine's
	// speed and load.
	TimeLimit time.Duration
	// NodeLimit stops the search after this many search nodes. When it is
	// set the result depends on nothing but the problem and the limit.
	NodeLimit int64
	// Capacity, when not 0, asks a decision question instead of the
	// smallest peak: is there a placement whose peak is at most Capacity
	// bytes? Solve stops at the first such placement or when it proves
	// that none exists; Result.Verdict says which, or that the limit came
	// first. The solution returned is the best found either way. It
	// applies to each Solve call, so to each pool group of a graph.
	Capacity uint64
	// Progress, when set, is called from Solve's goroutine at most once a
	// second while the search runs.
	Progress func(Progress)
}

// Verdict answers Options.Capacity.
type Verdict uint8

const (
	// NotAsked: Options.Capacity was 0 (the peak was minimised).
	NotAsked Verdict = iota
	// Fits: the solution's peak is at most the capacity.
	Fits
	// DoesNotFit: proven, the bound exceeds the capacity.
	DoesNotFit
	// Unknown: neither within the limits.
	Unknown
)

func (v Verdict) String() string {
	return [...]string{"not asked", "fits", "does not fit", "unknown"}[v]
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
	Bound uint64 // proven: no placement, in any pools, needs fewer bytes
	// Optimal is true only when proven: Peak == Bound, or the search
	// showed that nothing smaller fits.
	Optimal bool
	// Stopped says why the peak is not proven optimal. What the budget
	// (time or nodes) interrupted: "greedy" (first fit alone used the
	// whole time limit: the peak is its solution's), "bound" (the lower
	// bound, which runs beside the greedy strategies on large problems,
	// was not done at the deadline: the peak is the greedy incumbent's
	// and Bound only the largest item), "model" (finding
	// components and building the search's model: the peak is the greedy
	// incumbent's), "dives" (the greedy dives of interval components), or
	// "search". Or no limit but a reason of the problem's: "size" (a
	// component is beyond the search's size limits, see the package
	// documentation, and keeps its greedy and dive placements) or "pools"
	// (the placement needs more than one pool of Problem.MaxPoolSize; the
	// search places one pool, so the greedy solution stands). Empty when
	// Optimal, and when a capacity question is answered (Verdict Fits or
	// DoesNotFit).
	Stopped string
	// Verdict answers Options.Capacity (NotAsked without one).
	Verdict Verdict
	Nodes   int64
	// Elapsed is the whole of Solve; Greedy the part the greedy start
	// took (first fit, and best fit when first fit left time), which a
	// time limit cannot interrupt. The lower bound runs beside them and
	// is stopped at the deadline (Stopped "bound").
	Elapsed, Greedy time.Duration
}

// Limited reports whether a time or node limit, rather than the problem,
// kept the result from being proven optimal (or a capacity question from
// being answered).
func (r Result) Limited() bool {
	switch r.Stopped {
	case "greedy", "bound", "model", "dives", "search":
		return true
	}
	return false
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
	switch {
	case r.Optimal:
		opt = ", optimal"
	case r.Limited():
		opt = ", stopped in " + r.Stopped
	case r.Stopped != "":
		opt = ", not searched (" + r.Stopped + ")"
	}
	if r.Verdict != NotAsked {
		opt += ", " + r.Verdict.String()
	}
	return fmt.Sprintf("peak %d, bound %d, gap %.4f%%%s, %d nodes, %v",
		r.Peak, r.Bound, 100*r.Gap(), opt, r.Nodes, r.Elapsed.Round(time.Microsecond))
}

// Strategy is the exact placement strategy. It holds only its options, so
// one value may serve concurrent calls.
type Strategy struct {
	opts Options
}

// New returns an exact strategy with the given budget. It panics on a
// negative limit.
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
// bound and whether the peak is optimal. The solution has passed
// planner.CheckSolution; a failure there is a bug, returned as an error.
func (s *Strategy) Solve(p *planner.Problem) (*planner.Solution, Result, error) {
	return s.solve(p, time.Now)
}

// solve is Solve with a clock, which tests replace.
func (s *Strategy) solve(p *planner.Problem, now func() time.Time) (*planner.Solution, Result, error) {
	d := newDriver(p, s.opts, now)
	sol, res, err := d.solve()
	if err != nil {
		if d.mirror != nil {
			d.halt.Store(true)
			<-d.mirror.done
		}
		return nil, res, err
	}
	sol, res = d.joinMirror(sol, res)
	if err := planner.CheckSolution(p, sol); err != nil {
		return nil, res, fmt.Errorf("exact: internal error: %w", err)
	}
	return sol, res, nil
}
