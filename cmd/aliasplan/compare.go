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
// each at most once, in the order the page shows them.
func parseCompare(list string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, fmt.Errorf("%q: empty name in the list", list)
		}
		if !slices.Contains(strategyNames, n) {
			return nil, fmt.Errorf("unknown strategy %q (want a comma-separated list of %s)", n, strings.Join(strategyNames, ", "))
		}
		if slices.Contains(names, n) {
			return nil, fmt.Errorf("strategy %q listed twice", n)
		}
		names = append(names, n)
	}
	return names, nil
}

// planEach plans g once per strategy in names with the options of the main
// plan, reusing the main plan (made by strategy primary) where its name
// comes up.
func planEach(g *planner.Graph, opts aliasplan.Options, names []string, primary string, main *planner.Plan, ex exactFlags, stderr io.Writer) ([]*planner.Plan, error) {
	plans := make([]*planner.Plan, len(names))
	for i, n := range names {
		if n == primary {
			plans[i] = main
			continue
		}
		s, err := newStrategy(n, ex, stderr)
		if err != nil {
			return nil, err
		}
		o := opts
		o.Strategy = s
		p, err := aliasplan.New(o).Plan(g)
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
	for i, p := range plans {
		st := p.Stats
		gap := "–"
		if st.LowerBound > 0 && st.PooledBytes >= st.LowerBound {
			gap = fmt.Sprintf("+%.1f%%", 100*float64(st.PooledBytes-st.LowerBound)/float64(st.LowerBound))
		}
		fmt.Fprintf(w, "  %-10s pooled %12s   lower bound %12s   %s\n", names[i], mib(st.PooledBytes), mib(st.LowerBound), gap)
	}
}
