package main

import (
	"fmt"
	"io"
	"os"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

const checkHelp = `Usage: aliasplan check GRAPH.json PLAN.json

Reads a graph file and a plan file made for it and verifies the plan
independently of whatever made it: no two interfering resources overlap,
alignment, pool bounds and classes, statuses, stats, the execution order,
and barrier coverage (hazards, layout changes, aliasing). Plans made under
the execution or budget ordering list their serializations (aliased pairs the
DAG leaves unordered): each must be ordered by the execution order and by
the alias barrier before the second resource's first use.

Exit status: 0 when the plan holds, 1 with the violations listed on
stderr, 2 when a file is unreadable or malformed.
`

func checkCommand() *command {
	cmd := newCommand("check", checkHelp)
	cmd.run = check
	return cmd
}

func check(files []string, stdout, stderr io.Writer) error {
	if len(files) != 2 {
		return usageErrorf("check", "want a graph file and a plan file, got %d file(s)", len(files))
	}
	graphFile, planFile := files[0], files[1]
	if graphFile == "-" && planFile == "-" {
		return usageErrorf("check", "only one of the files can be stdin")
	}
	g, err := readGraphFile(graphFile)
	if err != nil {
		return err
	}
	c, err := compileFile(graphFile, g)
	if err != nil {
		return err
	}
	plan, err := readPlanFile(planFile, g)
	if err != nil {
		return err
	}
	planName := displayName(planFile)
	if err := planner.Verify(c, plan); err != nil {
		return &violationsError{file: planName, violations: splitErrors(err)}
	}
	pooled := 0
	for _, rp := range plan.Resources {
		if rp.Status == planner.StatusPooled {
			pooled++
		}
	}
	ordering := ""
	if plan.Ordering != planner.OrderDAG {
		// Serialized pairs are proved like the rest: execution order and
		// alias barrier.
		ordering = fmt.Sprintf(", %s order with %s", plan.Ordering, plural(len(plan.Serializations), "serialization"))
	}
	fmt.Fprintf(stdout, "%s: ok: %s (%d pooled) in %s of %s, %s%s\n", planName, plural(len(plan.Resources), "resource"),
		pooled, plural(len(plan.Pools), "pool"), mib(plan.Stats.PooledBytes), plural(len(plan.Barriers), "barrier"), ordering)
	return nil
}

// readPlanFile reads a plan file for g; "-" is stdin.
func readPlanFile(path string, g *planner.Graph) (*planner.Plan, error) {
	if path == "-" {
		return format.ReadPlan(os.Stdin, "stdin", g)
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := format.ReadPlan(f, path, g)
	if err != nil {
		return nil, inFile(path, err)
	}
	return p, nil
}

// displayName is how errors and reports name an input path.
func displayName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// plural writes "1 pool", "2 pools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// splitErrors lists the errors err joins (errors.Join), or err alone.
func splitErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, splitErrors(e)...)
		}
		return out
	}
	return []error{err}
}
