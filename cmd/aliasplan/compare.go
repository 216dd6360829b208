package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// parseCompare reads --compare: a comma-separated list of strategy names,
// each at most once, in the order the page shows them. An entry may name
// an ordering too, STRATEGY:ORDER (firstfit:execution); without one it
// takes the main plan's (--order, --budget).
func parseCompare(list string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, fmt.Errorf("%q: empty name in the list", list)
		}
		strat, order, hasOrder := strings.Cut(n, ":")
		if !slices.Contains(strategyNames, strat) {
			return nil, fmt.Errorf("unknown strategy %q (want a comma-separated list of %s, each optionally :dag, :execution or :budget)", strat, strings.Join(strategyNames, ", "))
		}
		if _, ok := planner.ParseOrdering(order); hasOrder && !ok {
			return nil, fmt.Errorf("%q: unknown ordering %q (want dag, execution or budget)", n, order)
		}
		if slices.Contains(names, n) {
			return nil, fmt.Errorf("strategy %q listed twice", n)
		}
		names = append(names, n)
	}
	return names, nil
}

// planEach plans g once per entry in names (STRATEGY or STRATEGY:ORDER)
// with the options of the main plan, reusing the main plan (made by
// strategy primary) where its strategy and ordering come up. An entry
// ORDER budget takes the main plan's --budget, and needs one.
func planEach(g *planner.Graph, opts aliasplan.Options, names []string, primary string, main *planner.Plan, ex exactFlags, stderr io.Writer) ([]*planner.Plan, error) {
	plans := make([]*planner.Plan, len(names))
	for i, n := range names {
		strat, orderName, hasOrder := strings.Cut(n, ":")
		order := main.Ordering
		if hasOrder {
			order, _ = planner.ParseOrdering(orderName)
		}
		if strat == primary && order == main.Ordering {
			plans[i] = main
			continue
		}
		s, err := newStrategy(strat, ex, stderr)
		if err != nil {
			return nil, err
		}
		o := opts
		o.Strategy = s
		o.Order, o.Budget = order, 0
		if order == planner.OrderBudget {
			if opts.Budget == 0 {
				return nil, usageErrorf("plan", "--compare %s: give --budget SIZE too", n)
			}
			o.Budget = opts.Budget
		}
		p, err := aliasplan.New(o).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			return nil, fmt.Errorf("--compare %s: %w", n, err)
		}
		plans[i] = p
	}
	return plans, nil
}

// compareText prints the compared plans' pooled bytes against their lower
// bound, one line each, after the text summary.
func compareText(w io.Writer, names []string, plans []*planner.Plan) {
	fmt.Fprintln(w, "compared in the page:")
	width := 10
	for _, n := range names {
		width = max(width, len(n))
	}
	for i, p := range plans {
		st := p.Stats
		gap := "–"
		if st.LowerBound > 0 && st.PooledBytes >= st.LowerBound {
			gap = fmt.Sprintf("+%.1f%%", 100*float64(st.PooledBytes-st.LowerBound)/float64(st.LowerBound))
		}
		line := fmt.Sprintf("  %-*s pooled %12s   lower bound %12s   %s", width, names[i], mib(st.PooledBytes), mib(st.LowerBound), gap)
		if p.Ordering != planner.OrderDAG {
			line += fmt.Sprintf("   execution bound %s, %s", mib(st.ExecutionBound), plural(len(p.Serializations), "serialization"))
		}
		fmt.Fprintln(w, line)
	}
}
