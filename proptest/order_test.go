package proptest

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"reflect"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// orderedOK plans a random graph under the DAG order, the execution order
// and a budget (frac/4 of the way from the execution plan's pooled bytes
// to the DAG plan's, or below the execution plan's for frac 0) with one
// strategy, and checks:
//
//   - every plan passes Verify, and is deterministic;
//   - the bounds: executionBound ≤ lowerBound, the same in every order;
//     pooled between the order's bound (the DAG bound under dag, the
//     execution bound otherwise) and the no-aliasing cost;
//   - independently of Verify, every pair of pooled resources sharing
//     bytes is DAG-ordered, or listed as a serialization whose first
//     resource's uses all run before the second's in execution order;
//     the DAG order lists none;
//   - a budget plan meets its budget; a budget below the execution plan
//     fails only with a *BudgetError whose reachable size is above it.
func orderedOK(seed uint64, n int, s planner.Strategy, frac int, maxPool uint64) string {
	g := RandomGraph(seed, n)
	plan := func(order planner.Ordering, budget uint64) (*planner.Compiled, *planner.Plan, error) {
		return aliasplan.New(aliasplan.Options{Strategy: s, Order: order, Budget: budget, MaxPoolSize: maxPool}).PlanCompiled(&aliasplan.Graph{Graph: *g})
	}
	_, dag, err := plan(planner.OrderDAG, 0)
	if err != nil {
		return "dag: " + err.Error()
	}
	c, ex, err := plan(planner.OrderExecution, 0)
	if err != nil {
		return "execution: " + err.Error()
	}
	if msg := checkOrdered(c, ex, dag.Stats, maxPool); msg != "" {
		return "execution: " + msg
	}
	if msg := checkOrdered(c, dag, dag.Stats, maxPool); msg != "" {
		return "dag: " + msg
	}
	lo, hi := ex.Stats.PooledBytes, dag.Stats.PooledBytes
	if lo > hi {
		lo, hi = hi, lo
	}
	budget := lo + (hi-lo)*uint64(frac)/4
	if frac == 0 {
		budget = lo - 1
	}
	if budget == 0 {
		return ""
	}
	bc, bu, err := plan(planner.OrderBudget, budget)
	if frac == 0 {
		var be *planner.BudgetError
		if err == nil && bu.Stats.PooledBytes > budget {
			return "budget exceeded"
		}
		if err != nil && (!errors.As(err, &be) || be.Reachable <= budget || be.Budget != budget) {
			return "budget below reach: " + err.Error()
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("budget %d (dag %d, execution %d): %v", budget, dag.Stats.PooledBytes, ex.Stats.PooledBytes, err)
	}
	if bu.Stats.PooledBytes > budget {
		return "budget exceeded"
	}
	if msg := checkOrdered(bc, bu, dag.Stats, maxPool); msg != "" {
		return "budget: " + msg
	}
	_, again, err := plan(planner.OrderBudget, budget)
	if err != nil || !reflect.DeepEqual(bu, again) {
		return "budget: not deterministic"
	}
	return ""
}

func checkOrdered(c *planner.Compiled, p *planner.Plan, dagStats planner.Stats, maxPool uint64) string {
	if err := verify.Plan(c, p); err != nil {
		return "verify: " + err.Error()
	}
	st := p.Stats
	if st.ExecutionBound > st.LowerBound || st.LowerBound != dagStats.LowerBound || st.ExecutionBound != dagStats.ExecutionBound {
		return fmt.Sprintf("bounds %d, %d (dag plan: %d, %d)", st.LowerBound, st.ExecutionBound, dagStats.LowerBound, dagStats.ExecutionBound)
	}
	bound := st.ExecutionBound
	if p.Ordering == planner.OrderDAG {
		bound = st.LowerBound
	}
	for _, pl := range p.Pools {
		if maxPool != 0 && pl.Size > maxPool {
			return "pool over the cap"
		}
	}
	if st.PooledBytes < bound || st.PooledBytes > st.TransientBytes {
		return fmt.Sprintf("pooled %d outside [%d, %d]", st.PooledBytes, bound, st.TransientBytes)
	}
	pos := make([]int, len(p.Order))
	for i, cmd := range p.Order {
		pos[cmd] = i
	}
	listed := map[[2]planner.ResourceID]bool{}
	for _, s := range p.Serializations {
		listed[[2]planner.ResourceID{s.First, s.Second}] = true
	}
	if p.Ordering == planner.OrderDAG && len(listed) > 0 {
		return "serializations under the DAG order"
	}
	// before reports whether every use of a runs before every use of b.
	before := func(a, b planner.ResourceID) bool {
		for _, ua := range c.Uses(a) {
			for _, ub := range c.Uses(b) {
				if pos[ua.Command] >= pos[ub.Command] {
					return false
				}
			}
		}
		return true
	}
	shared := 0
	for a := range p.Resources {
		x := &p.Resources[a]
		if x.Status != planner.StatusPooled {
			continue
		}
		for b := range p.Resources {
			y := &p.Resources[b]
			if a == b || y.Status != planner.StatusPooled || x.Placement.Pool != y.Placement.Pool ||
				x.Placement.Offset >= y.Placement.Offset+y.Placement.Size || y.Placement.Offset >= x.Placement.Offset+x.Placement.Size {
				continue
			}
			ra, rb := planner.ResourceID(a), planner.ResourceID(b)
			switch {
			case c.Before(ra, rb) || c.Before(rb, ra):
			case listed[[2]planner.ResourceID{ra, rb}]:
				if !before(ra, rb) {
					return fmt.Sprintf("serialized %d before %d, but their uses interleave", a, b)
				}
				shared++
			case !listed[[2]planner.ResourceID{rb, ra}]:
				return fmt.Sprintf("%d and %d share bytes, unordered and not serialized", a, b)
			}
		}
	}
	if shared != len(p.Serializations) {
		return fmt.Sprintf("%d serializations listed, %d byte-sharing pairs need one", len(p.Serializations), shared)
	}
	return ""
}

func TestOrderingPlans(t *testing.T) {
	params := parameters()
	params.MinSuccessfulTests = max(1, cases()/4)
	props := gopter.NewProperties(params)
	for _, s := range strategies() {
		props.Property(s.Name()+": every ordering verifies, lies between its bound and no aliasing, and budgets hold", prop.ForAll(
			func(seed uint64, n int, frac int) string { return orderedOK(seed, n, s, frac, 0) },
			gen.UInt64(), gen.IntRange(1, 24), gen.IntRange(0, 4),
		))
	}
	props.Property("firstfit: every ordering keeps a small maximum pool size", prop.ForAll(
		func(seed uint64, n int, frac int) string { return orderedOK(seed, n, firstfit.New(), frac, 1<<21) },
		gen.UInt64(), gen.IntRange(1, 24), gen.IntRange(0, 4),
	))
	props.TestingRun(t)
}
