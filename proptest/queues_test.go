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
	again, err := pl.Plan(&aliasplan.Graph{Graph: *g})
	if err != nil || !reflect.DeepEqual(plan.Submissions, again.Submissions) {
		return "not deterministic"
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
