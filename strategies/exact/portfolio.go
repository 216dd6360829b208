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
// under a time limit, on an interval problem, it solves the mirror until
// the driver's deadline, minimising or asking the same capacity. halt
// ends both: the one that proves its peak optimal, or answers the
// capacity question, sets it.
func (d *driver) startMirror() {
	if d.mirror != nil || d.noMirror || !d.timed() || !d.p.Intervals() {
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
		if mr.err == nil && (mr.res.Optimal || mr.res.Verdict == Fits || mr.res.Verdict == DoesNotFit) {
			d.halt.Store(true)
		}
	}()
}

// joinMirror waits for the mirror and returns the better of the two
// answers: the lower peak (its solution checked against p), the larger
// bound, nodes added; under a capacity, the verdict of the two (fits
// when the peak is within it, does not fit when either bound exceeds it).
func (d *driver) joinMirror(sol *planner.Solution, res Result) (*planner.Solution, Result) {
	mr := d.mirror
	if mr == nil {
		return sol, res
	}
	if res.Optimal || res.Verdict == Fits || res.Verdict == DoesNotFit {
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
	lower := max(d.lower(), mr.res.Bound)
	if mr.res.Verdict == DoesNotFit {
		// The mirror's bound is capped by its peak; its verdict says
		// its uncapped bound exceeds the capacity.
		lower = max(lower, d.capa+1)
	}
	res.Bound = min(max(res.Bound, mr.res.Bound), res.Peak)
	res.Optimal = res.Peak == res.Bound
	if d.capa > 0 {
		switch {
		case res.Peak <= d.capa:
			res.Verdict = Fits
		case lower > d.capa:
			res.Verdict = DoesNotFit
		default:
			res.Verdict = Unknown
		}
	}
	if res.Optimal || res.Verdict == Fits || res.Verdict == DoesNotFit {
		res.Stopped = ""
	}
	res.Elapsed = d.now().Sub(d.start)
	return sol, res
}

// halted reports whether the other search of the portfolio proved its
// peak optimal.
func (d *driver) halted() bool { return d.halt != nil && d.halt.Load() }
