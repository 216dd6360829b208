package proptest

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// rangedPlanOK plans a random graph with random subresource ranges (under
// the DAG and the execution ordering, so that ranged images alias) and
// checks the plan with verify.Plan: the barriers per range, per-cell
// layouts and hazards, alias barriers covering the whole image.
func rangedPlanOK(seed uint64, n int) string {
	g := RangedGraph(seed, n)
	for _, order := range []planner.Ordering{planner.OrderDAG, planner.OrderExecution} {
		pl := aliasplan.New(aliasplan.Options{Strategy: firstfit.New(), Order: order})
		c, plan, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
		if err != nil {
			return fmt.Sprintf("%s: plan: %v", order, err)
		}
		if err := verify.Plan(c, plan); err != nil {
			return fmt.Sprintf("%s: verify: %v", order, err)
		}
	}
	return ""
}

// TestRangedPlansVerify: every plan of a random ranged graph passes
// verify.Plan (cases() graphs, 2,000 by default).
func TestRangedPlansVerify(t *testing.T) {
	props := gopter.NewProperties(parameters())
	props.Property("ranged plans pass verify.Plan", prop.ForAll(
		func(seed uint64, n int) string { return rangedPlanOK(seed, n) },
		gen.UInt64(), gen.IntRange(1, 24),
	))
	props.TestingRun(t, gopter.ConsoleReporter(false))
}
