package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

const solveHelp = `Usage: aliasplan solve [flags] PROBLEM.csv

Places an interval problem in MiniMalloc's CSV format (columns id, lower,
upper, size and optionally alignment; lifetime [lower, upper); an offset
column is ignored; - reads stdin) in one address space. Writes the CSV with
an offset column on stdout; peak, lower bound and time on stderr. The CSV
formats: docs/formats.md.

Flags:
  -o FILE                write the CSV to FILE instead of stdout
  --strategy NAME        firstfit (default), bestfit or exact
  --time-limit DURATION  exact: search at most this long (default 10s; 0: no limit)
  --node-limit N         exact: at most N search nodes (default 0: no limit)
`

// solveArgs are solve's flags.
type solveArgs struct {
	out, strategy string
	ex            exactFlags
}

func solveCommand() *command {
	cmd := newCommand("solve", solveHelp)
	a := &solveArgs{}
	cmd.fs.StringVar(&a.out, "o", "", "")
	cmd.fs.StringVar(&a.strategy, "strategy", "firstfit", "")
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
	strat, err := newStrategy(strategy, a.ex, stderr)
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
	proof := ""
	if e, ok := strat.(*exactRun); ok {
		if e.optimal() {
			proof = ", proven optimal"
		} else {
			proof = ", not proven optimal (a limit stopped the search)"
		}
	}
	fmt.Fprintf(stderr, "%s: %d buffers, peak %d bytes (%s), lower bound %d bytes (%s), gap %s, %s%s, %s\n",
		displayName(file), len(bufs), peak, mib(peak), bound, mib(bound), gap, strat.Name(), proof, duration(elapsed.Seconds()))
	return nil
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
