package exact

import (
	"math"

	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// mirrorRun is the second search of the portfolio (docs/exact.md,
// "The mirror beside the search"): the same interval problem with time
// reversed, solved by a driver of its own on another goroutine. Offsets
// of a placement of the mirror are a placement of the problem
// (reversing time keeps every overlap), and the mirror's bound is a
// bound of the problem, so the better peak and the larger bound are
// taken.
type mirrorRun struct {
	done chan struct{}
	sol  *planner.Solution
	res  Result
	err  error
}

// mirrored returns p with time reversed (Start' = M - End, End' = M -
// Start, M the largest End), or nil when p is not an interval problem or
// the arithmetic would overflow.
func mirrored(p *planner.Problem) *planner.Problem {
	if !p.Intervals() || len(p.Items) == 0 {
		return nil
	}
	M := p.Items[0].End
	for _, it := range p.Items {
		M = max(M, it.End)
	}
	items := make([]planner.Item, len(p.Items))
	for i, it := range p.Items {
		if it.Start < 0 && M > math.MaxInt64+it.Start {
			return nil
		}
		items[i] = it
		items[i].Start, items[i].End = M-it.End, M-it.Start
	}
	q, err := planner.NewIntervalProblem(items, p.MaxPoolSize)
	if err != nil {
		return nil
	}
	return q
}

// startMirror is called by the driver when its improvement phase begins
// and no tiler runs beside it (that goroutine has the second core then):
// under a time limit, minimising, on an interval problem, it solves the
// mirror until the driver's deadline. halt ends both: the one that
// proves its peak optimal sets it.
func (d *driver) startMirror() {
	if d.mirror != nil || d.noMirror || !d.timed() || d.capa > 0 || !d.p.Intervals() {
		return
	}
	left := d.dead.Sub(d.now())
	if left < 100*time.Millisecond {
		return
	}
	q := mirrored(d.p)
	if q == nil {
		return
	}
	mr := &mirrorRun{done: make(chan struct{})}
	d.mirror = mr
	opts := d.opts
	opts.TimeLimit, opts.Progress = left, nil
	md := newDriver(q, opts, d.now)
	md.noMirror, md.halt = true, d.halt
	go func() {
		defer close(mr.done)
		mr.sol, mr.res, mr.err = md.solve()
		if mr.err == nil && mr.res.Optimal {
			d.halt.Store(true)
		}
	}()
}

// joinMirror waits for the mirror and returns the better of the two
// answers: the lower peak (its solution checked against p), the larger
// bound, nodes added.
func (d *driver) joinMirror(sol *planner.Solution, res Result) (*planner.Solution, Result) {
	mr := d.mirror
	if mr == nil {
		return sol, res
	}
	if res.Optimal {
		d.halt.Store(true)
	}
	<-mr.done
	if mr.err != nil || mr.sol == nil {
		return sol, res
	}
	res.Nodes += mr.res.Nodes
	if mr.res.Peak < res.Peak && planner.CheckSolution(d.p, mr.sol) == nil {
		sol, res.Peak = mr.sol, mr.res.Peak
	}
	res.Bound = min(max(res.Bound, mr.res.Bound), res.Peak)
	res.Optimal = res.Peak == res.Bound
	if res.Optimal {
		res.Stopped = ""
	}
	res.Elapsed = d.now().Sub(d.start)
	return sol, res
}

// halted reports whether the other search of the portfolio proved its
// peak optimal.
func (d *driver) halted() bool { return d.halt != nil && d.halt.Load() }
