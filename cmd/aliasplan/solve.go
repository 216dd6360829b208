package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/exact"
)

const solveHelp = `Usage: aliasplan solve [flags] PROBLEM.csv

Places an interval problem in MiniMalloc's CSV format (columns id, lower,
upper, size and optionally alignment; lifetime [lower, upper); an offset
column is ignored; - reads stdin) in one address space. Writes the CSV with
an offset column on stdout; peak, lower bound and time on stderr. The CSV
formats: docs/formats.md.

Flags:
  -o FILE                write the CSV to FILE instead of stdout
  --strategy NAME        firstfit (default; exact with --capacity), bestfit or exact
  --capacity SIZE        exact: answer "does it fit in SIZE bytes?" instead of
                         minimising: stop at the first placement of peak <= SIZE,
                         or prove that none exists. Exit status 0 fits, 1 proven
                         not to fit, 3 unknown within the limit; the CSV is the
                         best placement found in every case
  --time-limit DURATION  exact: at most this long in all (default 10s; 0: no limit).
                         It covers the model and the search, not the greedy start
                         (first fit and best fit, which exact needs first; best fit
                         is skipped when first fit alone used the limit); stderr
                         states the greedy start's time
  --node-limit N         exact: at most N search nodes (default 0: no limit); with
                         it the result depends only on the problem and N
`

// solveArgs are solve's flags.
type solveArgs struct {
	out, strategy string
	capacity      sizeValue
	ex            exactFlags
}

// capacityError ends solve --capacity when the answer is not "fits": the
// summary is printed and the CSV written; only the exit status remains.
type capacityError struct{ status int }

func (e *capacityError) Error() string { return "capacity not met" }

func solveCommand() *command {
	cmd := newCommand("solve", solveHelp)
	a := &solveArgs{}
	cmd.fs.StringVar(&a.out, "o", "", "")
	cmd.fs.StringVar(&a.strategy, "strategy", "", "")
	cmd.fs.Var(&a.capacity, "capacity", "")
	a.ex.register(cmd.fs, 10*time.Second)
	cmd.run = a.run
	return cmd
}

func (a *solveArgs) run(files []string, stdout, stderr io.Writer) error {
	out, strategy := a.out, a.strategy
	if len(files) != 1 {
		return usageErrorf("solve", "want one problem file, got %d", len(files))
	}
	if err := checkOutputDir(out); err != nil {
		return err
	}
	switch {
	case strategy == "" && a.capacity != 0:
		strategy = "exact"
	case strategy == "":
		strategy = "firstfit"
	case a.capacity != 0 && strategy != "exact":
		return usageErrorf("solve", "--capacity is answered by --strategy exact, not %s", strategy)
	}
	ex := a.ex
	ex.capacity = uint64(a.capacity)
	strat, err := newStrategy(strategy, ex, stderr)
	if err != nil {
		return usageErrorf("solve", "--strategy: %v", err)
	}
	file := files[0]
	bufs, prob, err := readProblemFile(file)
	if err != nil {
		return err
	}
	start := time.Now()
	sol, err := strat.Place(prob)
	elapsed := time.Since(start)
	if err != nil {
		return inFile(file, err)
	}
	if err := planner.CheckSolution(prob, sol); err != nil {
		return fmt.Errorf("%s: strategy %s produced an invalid solution (a bug): %s", file, strategy, trimPkg(err.Error()))
	}
	if len(sol.PoolSizes) > 1 {
		// No maximum pool size is given: a strategy opens another pool
		// only when the next offset would not fit in 64 bits.
		return fmt.Errorf("%s: the buffers do not fit in one 64-bit address space: %s places them in %d pools, more than 2^64-1 bytes in all, and MiniMalloc CSV has one address space",
			displayName(file), strategy, len(sol.PoolSizes))
	}
	write := func(w io.Writer) error { return format.WriteSolution(w, bufs, sol) }
	if out == "" {
		if err := write(stdout); err != nil {
			return err
		}
	} else {
		var outs outputs
		defer outs.abort()
		if err := outs.add(out, write); err != nil {
			return err
		}
		if err := outs.commit(); err != nil {
			return err
		}
	}
	peak, bound := sol.Peak(), planner.LowerBound(prob)
	gap := "0.00%"
	if bound > 0 {
		gap = fmt.Sprintf("%.2f%%", 100*(float64(peak)-float64(bound))/float64(bound))
	}
	proof, greedy := "", ""
	var res exact.Result
	if e, ok := strat.(*exactRun); ok && len(e.results) == 1 {
		res = e.results[0]
		proof = ", " + exactOutcome(res, ex)
		greedy = fmt.Sprintf(" (greedy start %s)", duration(res.Greedy.Seconds()))
	}
	fmt.Fprintf(stderr, "%s: %d buffers, peak %d bytes (%s), lower bound %d bytes (%s), gap %s, %s%s, %s%s\n",
		displayName(file), len(bufs), peak, mib(peak), bound, mib(bound), gap, strat.Name(), proof, duration(elapsed.Seconds()), greedy)
	switch res.Verdict {
	case exact.DoesNotFit:
		return &capacityError{exitViolations}
	case exact.Unknown:
		return &capacityError{exitUnknown}
	}
	return nil
}

// exactOutcome says in words what an exact result proved, and why it
// stopped where it is not proven.
func exactOutcome(r exact.Result, ex exactFlags) string {
	limit := "the node limit"
	if ex.nodeLimit == 0 {
		limit = "the time limit of " + ex.timeLimit.String()
	}
	var why string
	switch r.Stopped {
	case "greedy":
		why = limit + " ran out in the greedy start: first fit's placement"
	case "bound":
		why = limit + " ran out while computing the lower bound: the greedy placement, and the largest buffer as the bound"
	case "model":
		why = limit + " ran out while building the search model: the greedy placement"
	case "dives":
		why = limit + " ran out in the greedy dives"
	case "search":
		why = limit + " stopped the search"
	case "size":
		why = "the problem is beyond the search's size limits: greedy and dive placements only"
	case "pools":
		why = "it needs more than one pool of the maximum pool size: the greedy placement"
	}
	switch r.Verdict {
	case exact.Fits:
		return fmt.Sprintf("fits in capacity %d", ex.capacity)
	case exact.DoesNotFit:
		return fmt.Sprintf("proven not to fit in capacity %d (lower bound %d)", ex.capacity, r.Bound)
	case exact.Unknown:
		return fmt.Sprintf("capacity %d unknown, neither fits nor proven not to: %s", ex.capacity, why)
	}
	if r.Optimal {
		return "proven optimal"
	}
	return "not proven optimal: " + why
}

// readProblemFile reads a MiniMalloc CSV into an interval problem; "-" is
// stdin.
func readProblemFile(path string) ([]format.IntervalBuffer, *planner.Problem, error) {
	var r io.Reader = os.Stdin
	name := "stdin"
	if path != "-" {
		f, err := openFile(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	bufs, err := format.ReadIntervals(r, name)
	if err != nil {
		return nil, nil, err
	}
	prob, err := planner.NewIntervalProblem(format.IntervalItems(bufs), 0)
	if err != nil {
		return nil, nil, inFile(name, err)
	}
	return bufs, prob, nil
}
