package main

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"io"
	"os"
	"strings"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

const checkHelp = `Usage: aliasplan check [flags] GRAPH.json PLAN.json

Reads a graph file and a plan file made for it and verifies the plan with
verify.Plan, which checks the plan itself, not how it was made: no two
interfering resources overlap, alignment, pool bounds and classes,
statuses, stats, the execution order, and barrier coverage (hazards,
layout changes, aliasing). Plans made under the execution or budget
ordering list their serializations (aliased pairs the DAG leaves
unordered): each must be ordered by the execution order and by the alias
barrier before the second resource's first use. When the plan's requirements came from a
built-in profile, the ones the graph does not give are estimated again
and compared. Every violation is listed, up to the cap.
The file formats: docs/formats.md.

Flags:
  --max-violations N  list at most N violations (default 20; 0: all)

Exit status: 0 when the plan holds, 1 with the violations listed on
stderr, 2 when a file is unreadable or malformed (not JSON, unknown
names, a plan for another graph).
`

// defaultMaxViolations is how many violations check lists by default.
const defaultMaxViolations = 20

func checkCommand() *command {
	cmd := newCommand("check", checkHelp)
	max := cmd.fs.Int("max-violations", defaultMaxViolations, "")
	cmd.run = func(files []string, stdout, stderr io.Writer) error {
		if *max < 0 {
			return usageErrorf("check", "--max-violations %d: want 0 (no cap) or more", *max)
		}
		return check(files, *max, stdout, stderr)
	}
	return cmd
}

func check(files []string, max int, stdout, stderr io.Writer) error {
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
	errs := checkEstimates(g, plan)
	if max == 0 || len(errs) < max {
		rest := 0
		if max > 0 {
			rest = max - len(errs)
		}
		errs = append(errs, verify.All(c, plan, rest)...)
	} else {
		errs = errs[:max]
	}
	if len(errs) > 0 {
		return &violationsError{file: planName, violations: errs, capped: max > 0 && len(errs) >= max}
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
	if len(plan.Submissions) > 0 {
		ordering += fmt.Sprintf(", %s with %s", plural(len(plan.Submissions), "submission"), plural(plan.Semaphores, "semaphore"))
	}
	fmt.Fprintf(stdout, "%s: ok: %s (%d pooled) in %s of %s, %s%s\n", planName, plural(len(plan.Resources), "resource"),
		pooled, plural(len(plan.Pools), "pool"), mib(plan.Stats.PooledBytes), plural(len(plan.Barriers), "barrier"), ordering)
	return nil
}

// checkEstimates re-estimates, with the built-in profile the plan names
// (requirementsSource "profile NAME" or "graph + profile NAME"), the
// requirements of the placed resources the graph gives none for, and lists
// those the profile cannot estimate (an image beyond its limits, a size
// that does not fit in 64 bits) or estimates otherwise. Verify cannot: it
// compares only the graph's explicit requirements. A plan from a device
// or another source is left to Verify.
func checkEstimates(g *planner.Graph, plan *planner.Plan) []error {
	_, name, ok := strings.Cut(plan.Requirements, "profile ")
	if !ok {
		return nil
	}
	var prof *planner.Profile
	for _, p := range planner.Profiles {
		if p.Name == name {
			prof = p
		}
	}
	if prof == nil {
		return nil
	}
	var errs []error
	for r := range g.Resources {
		res, rp := &g.Resources[r], &plan.Resources[r]
		switch rp.Status {
		case planner.StatusPooled, planner.StatusDedicated, planner.StatusHostVisible:
		default:
			continue
		}
		if res.Requirements != nil {
			continue
		}
		q, err := prof.Requirements(res)
		switch {
		case err != nil:
			errs = append(errs, err)
		case q != rp.Requirements:
			errs = append(errs, fmt.Errorf("planner: resource %q: requirements (%s) differ from %s's estimate (%s)",
				res.Name, requirementsWords(rp.Requirements), prof.Describe(), requirementsWords(q)))
		}
	}
	return errs
}

// requirementsWords writes requirements as the plan file names them.
func requirementsWords(q planner.Requirements) string {
	s := fmt.Sprintf("size %d, alignment %d, memoryTypeBits %#x", q.Size, q.Alignment, q.MemoryTypeBits)
	if q.PrefersDedicated {
		s += ", prefersDedicated"
	}
	if q.RequiresDedicated {
		s += ", requiresDedicated"
	}
	return s
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
