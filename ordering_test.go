package aliasplan_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// orderingRow is one frame's line of the docs/ordering.md table.
type orderingRow struct {
	name                            string
	dagBound, execBound             uint64
	dagPooled, execPooled, budget   uint64
	budgetPooled                    uint64
	execSer, budgetSer              int
	execPairs, budgetPairs          int64
	dagTime, execTime, budgetTime   time.Duration
}

func orderingFrames(t testing.TB) map[string]*aliasplan.Graph {
	out := map[string]*aliasplan.Graph{"sample": aliasplan.SampleFrame(1920, 1080)}
	files, _ := filepath.Glob(filepath.Join(framesDir(t), "*.json"))
	for _, f := range files {
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = readGraph(t, f)
	}
	return out
}

func measureOrdering(t testing.TB, name string, g *aliasplan.Graph, opts aliasplan.Options) orderingRow {
	t.Helper()
	row := orderingRow{name: name}
	plan := func(o aliasplan.Options) (*planner.Plan, *planner.Compiled, time.Duration) {
		start := time.Now()
		c, p, err := aliasplan.New(o).PlanCompiled(g)
		if err != nil {
			t.Fatalf("%s (%s): %v", name, o.Order, err)
		}
		return p, c, time.Since(start)
	}
	o := opts
	dag, _, dt := plan(o)
	o.Order = aliasplan.OrderExecution
	ex, ec, et := plan(o)
	row.dagBound, row.execBound = dag.Stats.LowerBound, dag.Stats.ExecutionBound
	row.dagPooled, row.execPooled = dag.Stats.PooledBytes, ex.Stats.PooledBytes
	row.execSer, row.execPairs = len(ex.Serializations), planner.OrderedPairs(ec, ex)
	row.dagTime, row.execTime = dt, et
	row.budget = (row.dagPooled + row.execPooled) / 2
	o.Order, o.Budget = aliasplan.OrderBudget, row.budget
	bu, bc, bt := plan(o)
	row.budgetPooled, row.budgetSer, row.budgetPairs, row.budgetTime = bu.Stats.PooledBytes, len(bu.Serializations), planner.OrderedPairs(bc, bu), bt
	return row
}

func TestOrderingTable(t *testing.T) {
	for name, g := range orderingFrames(t) {
		r := measureOrdering(t, name, g, aliasplan.Options{})
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d (%d) | %d (%d) | %v %v %v\n", r.name, r.dagBound, r.execBound, r.dagPooled, r.execPooled,
			r.budget, r.budgetPooled, r.execSer, r.execPairs, r.budgetSer, r.budgetPairs, r.dagTime, r.execTime, r.budgetTime)
	}
	_ = errors.New
}
