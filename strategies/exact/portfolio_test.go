package exact

import (
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

// TestMirroredCapacity: under Options.Capacity the mirror's answer is
// joined as a verdict: its fitting placement makes the result Fits (and
// clears Stopped), its proof that nothing fits makes it DoesNotFit, and a
// mirror that answers neither leaves Unknown.
func TestMirroredCapacity(t *testing.T) {
	p := slackProblem(1, 200, 0.15)
	q := mirrored(p)
	good, gres, err := New(Options{NodeLimit: 20000}).Solve(q)
	if err != nil {
		t.Fatal(err)
	}
	join := func(capa uint64, mres Result, msol *planner.Solution) Result {
		d := newDriver(p, Options{TimeLimit: time.Second, Capacity: capa}, time.Now)
		mr := &mirrorRun{done: make(chan struct{}), sol: msol, res: mres}
		close(mr.done)
		d.mirror = mr
		worse := Result{Peak: gres.Peak + 1024, Bound: d.lower(), Verdict: Unknown, Stopped: "search"}
		sol, res := d.joinMirror(nil, worse)
		if msol != nil && res.Peak == mres.Peak {
			if err := planner.CheckSolution(p, sol); err != nil {
				t.Errorf("capacity %d: the mirror's placement on p: %v", capa, err)
			}
		}
		return res
	}
	fits := gres
	fits.Verdict = Fits
	if res := join(gres.Peak, fits, good); res.Verdict != Fits || res.Stopped != "" || res.Peak != gres.Peak {
		t.Errorf("capacity = the mirror's peak: %v, want fits at %d", res, gres.Peak)
	}
	// A capacity below the bound: the mirror proved it does not fit (its
	// Bound capped by its peak, which exceeds the capacity).
	capa := gres.Bound - 1
	no := Result{Peak: gres.Peak, Bound: gres.Bound, Verdict: DoesNotFit}
	if res := join(capa, no, good); res.Verdict != DoesNotFit || res.Stopped != "" {
		t.Errorf("capacity below the bound: %v, want does not fit", res)
	}
	// Neither answered: still unknown, still stopped.
	unk := Result{Peak: gres.Peak + 2048, Bound: 1, Verdict: Unknown, Stopped: "search"}
	d0 := newDriver(p, Options{}, time.Now)
	if res := join(d0.lower()+1, unk, nil); res.Verdict != Unknown || res.Stopped == "" {
		t.Errorf("neither answers: %v, want unknown", res)
	}
	// Both drivers at once in capacity mode (the race detector sees them).
	p2 := slackProblem(1, 500, 0.05)
	sol2, res2, err := New(Options{TimeLimit: 3 * time.Second, Capacity: 1 << 20}).Solve(p2)
	if err != nil {
		t.Fatal(err)
	}
	if err := planner.CheckSolution(p2, sol2); err != nil || (res2.Verdict == Fits) != (res2.Peak <= 1<<20) {
		t.Errorf("portfolio, capacity: %v, %v", res2, err)
	}
}
