package main

import (
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/exact"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// strategyNames are the strategies the CLI knows, in bench order.
var strategyNames = []string{"firstfit", "bestfit", "exact"}

// newStrategy picks a strategy by name. Exact's limits come from ex; its
// progress goes to progress (nil: none) at most once a second.
func newStrategy(name string, ex exactFlags, progress io.Writer) (planner.Strategy, error) {
	switch name {
	case "firstfit":
		return firstfit.New(), nil
	case "bestfit":
		return bestfit.New(), nil
	case "exact":
		return newExact(ex, progress), nil
	}
	return nil, fmt.Errorf("unknown strategy %q (want firstfit, bestfit or exact)", name)
}

// exactRun wraps the exact strategy to keep each Solve's result: a graph
// is placed one pool group at a time, and the CLI reports whether every
// group was proven optimal.
type exactRun struct {
	s       *exact.Strategy
	results []exact.Result
}

func newExact(ex exactFlags, progress io.Writer) *exactRun {
	opts := exact.Options{TimeLimit: ex.timeLimit, NodeLimit: ex.nodeLimit, Capacity: ex.capacity}
	if opts.TimeLimit == 0 && opts.NodeLimit == 0 {
		// The help promises no limit; the library's zero options mean its
		// default node budget instead.
		opts.NodeLimit = math.MaxInt64
	}
	if progress != nil {
		opts.Progress = throttle(progress, time.Second)
	}
	return &exactRun{s: exact.New(opts)}
}

func (e *exactRun) Name() string { return e.s.Name() }

func (e *exactRun) Place(p *planner.Problem) (*planner.Solution, error) {
	sol, res, err := e.s.Solve(p)
	if err != nil {
		return nil, err
	}
	e.results = append(e.results, res)
	return sol, nil
}

// optimal reports whether every group placed so far was proven optimal.
func (e *exactRun) optimal() bool {
	for _, r := range e.results {
		if !r.Optimal {
			return false
		}
	}
	return true
}

// nodes sums the search nodes of the groups placed so far.
func (e *exactRun) nodes() int64 {
	var n int64
	for _, r := range e.results {
		n += r.Nodes
	}
	return n
}

// throttle prints exact's progress reports, at most one per interval.
func throttle(w io.Writer, every time.Duration) func(exact.Progress) {
	var mu sync.Mutex
	last := time.Now() // a solve shorter than a second prints nothing
	return func(pr exact.Progress) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(last) < every {
			return
		}
		last = now
		gap := "?"
		if pr.Bound > 0 && pr.Best >= pr.Bound {
			gap = fmt.Sprintf("%.2f%%", 100*float64(pr.Best-pr.Bound)/float64(pr.Bound))
		}
		fmt.Fprintf(w, "exact: best %s, bound %s, gap %s, %d nodes, %s\n",
			mib(pr.Best), mib(pr.Bound), gap, pr.Nodes, pr.Elapsed.Round(time.Millisecond))
	}
}
