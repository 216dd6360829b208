package aliasplan_test

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/exact"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// orderStrategy is the strategy TestOrderingFrames measures (the
// docs/ordering.md tables: go test -run TestOrderingFrames -v, with
// -order-strategy bestfit or exact for the others).
var orderStrategy = flag.String("order-strategy", "firstfit", "strategy for TestOrderingFrames: firstfit, bestfit or exact")

// orderSweep adds, per frame, the serializations the budget order needs at
// budgets from the execution plan's pooled bytes to the DAG plan's, in
// eighths (docs/ordering.md).
var orderSweep = flag.Bool("order-sweep", false, "TestOrderingFrames: also sweep budgets between the execution and DAG plans")

// orderingRow is one frame's line of the docs/ordering.md table.
type orderingRow struct {
	name                   string
	dagBound, execBound    uint64
	dagPooled, execPooled  uint64
	budget, budgetPooled   uint64
	execSer, budgetSer     int
	execPairs, budgetPairs int64
	unordered              int64 // command pairs the DAG leaves unordered
}

func orderingFrames(t testing.TB) ([]string, map[string]*aliasplan.Graph) {
	names := []string{"sample"}
	graphs := map[string]*aliasplan.Graph{"sample": aliasplan.SampleFrame(1920, 1080)}
	for _, f := range datadir.Files(t, datadir.Frames) {
		n := f.Test()
		names = append(names, n)
		graphs[n] = readGraph(t, f.Path)
	}
	return names, graphs
}

// measureOrdering plans g under the DAG order, the execution order and a
// budget halfway between the two plans' pooled bytes (every plan passes
// Verify inside Plan).
func measureOrdering(t testing.TB, name string, g *aliasplan.Graph, opts aliasplan.Options) orderingRow {
	t.Helper()
	plan := func(o aliasplan.Options) (*planner.Compiled, *planner.Plan) {
		c, p, err := aliasplan.New(o).PlanCompiled(g)
		if err != nil {
			t.Fatalf("%s (%s): %v", name, o.Order, err)
		}
		if p.Ordering != o.Order {
			t.Errorf("%s: plan ordering %s, asked for %s", name, p.Ordering, o.Order)
		}
		return c, p
	}
	row := orderingRow{name: name}
	o := opts
	_, dag := plan(o)
	o.Order = aliasplan.OrderExecution
	ec, ex := plan(o)
	row.dagBound, row.execBound = dag.Stats.LowerBound, dag.Stats.ExecutionBound
	row.dagPooled, row.execPooled = dag.Stats.PooledBytes, ex.Stats.PooledBytes
	row.execSer, row.execPairs = len(ex.Serializations), planner.OrderedPairs(ec, ex)
	n := planner.CommandID(len(g.Commands))
	for a := range n {
		for b := a + 1; b < n; b++ {
			if !ec.HappensBefore(a, b) {
				row.unordered++
			}
		}
	}
	if ex.Stats.LowerBound != dag.Stats.LowerBound || ex.Stats.ExecutionBound != dag.Stats.ExecutionBound {
		t.Errorf("%s: bounds differ between orders: %+v, %+v", name, dag.Stats, ex.Stats)
	}
	row.budget = (row.dagPooled + row.execPooled) / 2
	o.Order, o.Budget = aliasplan.OrderBudget, row.budget
	bc, bu := plan(o)
	row.budgetPooled, row.budgetSer, row.budgetPairs = bu.Stats.PooledBytes, len(bu.Serializations), planner.OrderedPairs(bc, bu)
	return row
}

func (r orderingRow) markdown() string {
	mb := func(n uint64) string { return fmt.Sprintf("%.3f", float64(n)/1e6) }
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %.3f | %d (%d) | %s | %s | %d (%d) | %d |",
		r.name, mb(r.dagBound), mb(r.dagPooled), mb(r.execBound), mb(r.execPooled), float64(r.execPooled)/float64(r.execBound),
		r.execSer, r.execPairs, mb(r.budget), mb(r.budgetPooled), r.budgetSer, r.budgetPairs, r.unordered)
}

// TestOrderingFrames measures the three orders on the sample frame and
// every shared frame (the docs/ordering.md table, in the -v output) and
// checks issue 13's targets: the execution order within 5% of its bound,
// the halfway budget met with fewer serializations than the execution
// order, and a budget below the execution plan refused with the smallest
// size reachable.
func TestOrderingFrames(t *testing.T) {
	names, graphs := orderingFrames(t)
	for _, name := range names {
		g := graphs[name]
		if *orderStrategy == "exact" && name == "heldout/random-1000" {
			t.Log("random-1000: skipped with the exact strategy (minutes per plan, as in strategies/exact's benchmarks)")
			continue
		}
		if raceEnabled && name == "heldout/random-1000" {
			t.Log("random-1000: skipped under the race detector (about a minute there); go test without -race checks it")
			continue
		}
		var strat planner.Strategy
		switch *orderStrategy {
		case "firstfit":
			strat = firstfit.New()
		case "bestfit":
			strat = bestfit.New()
		case "exact":
			strat = exact.New(exact.Options{})
		default:
			t.Fatalf("-order-strategy %q: want firstfit, bestfit or exact", *orderStrategy)
		}
		r := measureOrdering(t, name, g, aliasplan.Options{Strategy: strat})
		t.Log(r.markdown())
		if *orderSweep {
			line := "| " + name + " |"
			for k := range 9 {
				b := r.execPooled + (r.dagPooled-r.execPooled)*uint64(k)/8
				p, err := aliasplan.New(aliasplan.Options{Strategy: strat, Order: aliasplan.OrderBudget, Budget: b}).Plan(g)
				if err != nil {
					t.Errorf("%s: budget %d: %v", name, b, err)
					continue
				}
				line += fmt.Sprintf(" %d |", len(p.Serializations))
			}
			t.Logf("%s %d |", line, r.execSer)
		}
		if r.execBound > r.dagBound {
			t.Errorf("%s: execution bound %d above the DAG bound %d", name, r.execBound, r.dagBound)
		}
		// Issue 13's target, set on the held-out frames; the repository's
		// small random frames sit further from their bound (random-48:
		// 1.066 under first fit), so they are held to 10%.
		target := 1.05
		if !strings.HasPrefix(name, "heldout/") && strings.HasPrefix(name, "random-") {
			target = 1.10
		}
		if float64(r.execPooled) > target*float64(r.execBound) {
			t.Errorf("%s: execution order pools %d bytes, %.4f × its bound %d", name, r.execPooled, float64(r.execPooled)/float64(r.execBound), r.execBound)
		}
		if r.budgetPooled > r.budget {
			t.Errorf("%s: budget %d, pooled %d", name, r.budget, r.budgetPooled)
		}
		// Fewer serializations than the execution order (one is the
		// fewest a saving can take).
		if r.execPooled < r.dagPooled && r.budgetSer >= r.execSer && r.execSer > 1 {
			t.Errorf("%s: the budget needs %d serializations, the execution order %d", name, r.budgetSer, r.execSer)
		}
		if r.execPooled < r.dagPooled && r.budgetSer == 0 && r.budget < r.dagPooled {
			t.Errorf("%s: a budget below the DAG plan met without serializations", name)
		}
		_, err := aliasplan.New(aliasplan.Options{Strategy: strat, Order: aliasplan.OrderBudget, Budget: r.execPooled - 1}).Plan(g)
		var be *planner.BudgetError
		if !errors.As(err, &be) || be.Reachable != min(r.execPooled, r.dagPooled) || be.ExecutionBound != r.execBound ||
			!strings.Contains(err.Error(), fmt.Sprintf("smallest pooled size reachable is %d bytes", be.Reachable)) {
			t.Errorf("%s: budget %d: %v", name, r.execPooled-1, err)
		}
	}
}

// TestOrderingOptions: a budget the DAG plan meets adds no serialization;
// OrderBudget without a budget, a budget under another order and an
// unknown ordering are errors.
func TestOrderingOptions(t *testing.T) {
	g := aliasplan.SampleFrame(1920, 1080)
	dag, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := aliasplan.New(aliasplan.Options{Order: aliasplan.OrderBudget, Budget: dag.Stats.PooledBytes}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	if p.Ordering != aliasplan.OrderBudget || p.Budget != dag.Stats.PooledBytes || len(p.Serializations) != 0 || p.Stats.PooledBytes != dag.Stats.PooledBytes {
		t.Errorf("budget met by the DAG plan: ordering %s, budget %d, %d serializations, pooled %d (DAG %d)",
			p.Ordering, p.Budget, len(p.Serializations), p.Stats.PooledBytes, dag.Stats.PooledBytes)
	}
	for _, o := range []aliasplan.Options{{Order: aliasplan.OrderBudget}, {Order: 7}, {Budget: 1 << 30}, {Order: aliasplan.OrderExecution, Budget: 1 << 30}} {
		if _, err := aliasplan.New(o).Plan(g); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	// Deterministic: the same options give the same serializations.
	for _, order := range []planner.Ordering{aliasplan.OrderExecution, aliasplan.OrderBudget} {
		o := aliasplan.Options{Order: order}
		if order == aliasplan.OrderBudget {
			o.Budget = dag.Stats.PooledBytes - 1
		}
		a, err1 := aliasplan.New(o).Plan(g)
		b, err2 := aliasplan.New(o).Plan(g)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !slices.Equal(a.Serializations, b.Serializations) || a.Stats != b.Stats {
			t.Errorf("%s: two runs differ", order)
		}
	}
}

// BenchmarkOrdering measures Place under each ordering (the budget halfway
// between the DAG and execution plans' pooled bytes) on held-out frames.
func BenchmarkOrdering(b *testing.B) {
	for _, name := range []string{"deferred-1080p", "compute-120", "random-200", "random-1000"} {
		g := readGraph(b, frameFile(b, "heldout/"+name))
		c, err := planner.Compile(&g.Graph)
		if err != nil {
			b.Fatal(err)
		}
		base := planner.Options{Strategy: firstfit.New(), DedicatedThreshold: planner.DefaultDedicatedThreshold, BudgetPilot: firstfit.New()}
		place := func(o planner.Options) *planner.Plan {
			p, err := planner.Place(c, o)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}
		dag := place(base)
		ex := base
		ex.Order = planner.OrderExecution
		bu := base
		bu.Order, bu.Budget = planner.OrderBudget, (dag.Stats.PooledBytes+place(ex).Stats.PooledBytes)/2
		for _, o := range []planner.Options{base, ex, bu} {
			b.Run("frame="+name+"/order="+o.Order.String(), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					place(o)
				}
			})
		}
	}
}
