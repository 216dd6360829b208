package proptest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// queuesOK plans a random graph with queues assigned and checks that the
// plan verifies (submissions included), has submissions exactly when a
// command is off graphics, and is deterministic.
func queuesOK(g *planner.Graph) string {
	pl := aliasplan.New(aliasplan.Options{Strategy: firstfit.New(), Reuse: aliasplan.NoReuse})
	c, plan, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		return "plan: " + err.Error()
	}
	if err := verify.Plan(c, plan); err != nil {
		return "verify: " + err.Error()
	}
	if g.MultiQueue() != (len(plan.Submissions) > 0) {
		return fmt.Sprintf("%d submissions, multi-queue %t", len(plan.Submissions), g.MultiQueue())
	}
	if msg := crossTransitions(g, plan); msg != "" {
		return msg
	}
	again, err := pl.Plan(&aliasplan.Graph{Graph: *g})
	if err != nil || !reflect.DeepEqual(plan.Submissions, again.Submissions) {
		return "not deterministic"
	}
	return ""
}

// crossTransitions checks the source access of image barriers that change
// a layout after another queue's write, the last use of the image (its
// own, or an old occupant's when the barrier is an alias barrier): it must hold the
// use's access flags, which the semaphore wait made visible (barriers
// waitVisible; submit-time validation flags the transition otherwise).
func crossTransitions(g *planner.Graph, plan *planner.Plan) string {
	pos := make([]int, len(g.Commands))
	for i, c := range plan.Order {
		pos[c] = i
	}
	// lastWriteQueue: the queue of r's last modification before position
	// p, a write or a layout change (the layer 1.3.239 checks a transition
	// against it even when reads on the transition's queue followed it).
	var lastS vk.Stage
	var lastW vk.AccessFlags
	lastWriteQueue := func(r planner.ResourceID, p int) (planner.Queue, bool) {
		q, found := planner.QueueGraphics, false
		lastS, lastW = 0, 0
		prev := vk.LayoutUndefined
		for _, ci := range plan.Order {
			if pos[ci] >= p {
				break
			}
			for _, a := range g.Commands[ci].Accesses {
				if a.Resource != r {
					continue
				}
				if a.Access.Writes() != 0 || (g.Resources[r].Kind == planner.KindImage && a.Layout != prev) {
					q, found = g.Commands[ci].Queue, true
					lastS, lastW = a.Stages, a.Access.Writes()
				}
				prev = a.Layout
			}
		}
		return q, found
	}
	for _, x := range plan.Barriers {
		if x.Type != planner.ImageBarrier || x.OldLayout == x.NewLayout || x.Before < 0 {
			continue
		}
		q := g.Commands[x.Before].Queue
		rs := []planner.ResourceID{x.Resource}
		if x.Kind == planner.Alias {
			rs = x.Previous
		}
		for _, r := range rs {
			wq, ok := lastWriteQueue(r, pos[x.Before])
			if !ok || wq == q {
				continue
			}
			if x.SrcAccess&x.DstAccess != x.DstAccess || x.SrcAccess == 0 {
				return fmt.Sprintf("barrier before %q on %s (%s %q, %s→%s) after a write of %q on %s: source access %s lacks the use's %s",
					g.Commands[x.Before].Name, q, x.Kind, g.Resources[x.Resource].Name, x.OldLayout, x.NewLayout, g.Resources[r].Name, wq, x.SrcAccess, x.DstAccess)
			}
			// The write's own stage and access, where this queue may name
			// them (barriers.crossScope: the layer credits a write made
			// visible by an earlier batch's wait only so).
			if st := lastS & planner.QueueStages(q); st != 0 && lastW != 0 {
				want := lastW &^ vk.UnsupportedAccess(st, lastW)
				if x.SrcStages&st == 0 || x.SrcAccess&want != want {
					return fmt.Sprintf("barrier before %q on %s (%s %q, %s→%s) after a write of %q on %s at %s (%s): source scope %s/%s lacks the write's own",
						g.Commands[x.Before].Name, q, x.Kind, g.Resources[x.Resource].Name, x.OldLayout, x.NewLayout, g.Resources[r].Name, wq, lastS, lastW, x.SrcStages, x.SrcAccess)
				}
			}
		}
	}
	return ""
}

// TestGraphPlansWithQueues: random graphs (RandomGraph, and larger
// RandomFrames) with commands on graphics, compute and transfer plan and
// pass verify.Plan, submissions included. A quarter of the cases of the
// other properties (ALIASPLAN_PROPTEST_CASES), at least 100.
func TestGraphPlansWithQueues(t *testing.T) {
	p := parameters()
	p.MinSuccessfulTests = max(100, cases()/4)
	props := gopter.NewProperties(p)
	multi := 0
	props.Property("plans with queues verify", prop.ForAll(
		func(seed uint64, n int) string {
			g := RandomGraph(seed, n)
			AssignQueues(g, seed)
			if g.MultiQueue() {
				multi++
			}
			return queuesOK(g)
		},
		gen.UInt64(), gen.IntRange(1, 24),
	))
	props.TestingRun(t)
	if multi < 100 {
		t.Errorf("only %d random graphs had a command off graphics", multi)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		g := RandomFrame(seed, 200)
		AssignQueues(g, seed)
		if !g.MultiQueue() {
			t.Fatalf("RandomFrame(%d, 200): every command on graphics", seed)
		}
		if msg := queuesOK(g); msg != "" {
			t.Errorf("RandomFrame(%d, 200) with queues: %s", seed, msg)
		}
	}
}
