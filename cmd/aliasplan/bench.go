package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/exact"
)

const benchHelp = `Usage: aliasplan bench [flags] FILES...

Runs every strategy on every file, graphs (.json) and interval problems
(.csv), and prints peak bytes (sum of pool sizes), lower bound, the
execution-order bound (what --order execution could reach; an interval
problem's is its lower bound), gap (% above the bound of the order used:
the execution-order bound under --order execution or --budget), median time
and whether the peak is proven optimal. A graph's time is placement
(requirements, grouping, strategy, bounds), not compile.

Flags:
  --strategy LIST        comma-separated strategies (default firstfit,bestfit,exact)
  --runs N               runs per file and strategy, median time reported
                         (default 5; a run over a second is not repeated)
  --format text|csv|markdown
                         table format (default text)
  --time-limit DURATION  exact: at most this long per pool group (default 10s;
                         0: no limit): a graph of k groups may take k times as
                         long, and the greedy start of each group (first fit,
                         best fit) comes on top; the text output says how many
                         groups each graph has
  --node-limit N         exact: at most N search nodes, per pool group of a
                         graph (default 0: no limit)
  --capacity SIZE        exact: answer "does each pool group fit in SIZE bytes?"
                         instead of minimising; the last column then says
                         fits, no (proven) or unknown
  --max-pool-size SIZE   graphs: cap each pool (default 0: no cap)
  --dedicated-threshold SIZE
                         graphs: dedicate resources this large (default 64MiB)
  --profile h200|lavapipe
                         graphs: estimate requirements they lack (default h200)
  --order dag|execution  graphs: which resources may share bytes (default dag)
  --budget SIZE          graphs: keep the DAG order, serialize only what pooling
                         at most SIZE bytes needs
`

// benchRow is one file × strategy.
type benchRow struct {
	file, strategy string
	peak, bound    uint64
	execBound      uint64 // the execution-order bound
	gapBound       uint64 // the bound of the order used, for the gap
	median         time.Duration
	runs           int
	optimal        string // "yes", "no" (exact stopped by a limit) or "-" (not known); under --capacity: fits, no, unknown
	groups         int    // pool groups exact placed (graphs: one Solve each)
}

// benchArgs are bench's flags.
type benchArgs struct {
	list, format       string
	runs               int
	maxPool, threshold sizeValue
	capacity           sizeValue
	src                sourceFlags
	ex                 exactFlags
	ord                orderFlags
}

func benchCommand() *command {
	cmd := newCommand("bench", benchHelp)
	fs := cmd.fs
	a := &benchArgs{threshold: sizeValue(planner.DefaultDedicatedThreshold)}
	fs.StringVar(&a.list, "strategy", strings.Join(strategyNames, ","), "")
	fs.IntVar(&a.runs, "runs", 5, "")
	fs.StringVar(&a.format, "format", "text", "")
	fs.Var(&a.maxPool, "max-pool-size", "")
	fs.Var(&a.threshold, "dedicated-threshold", "")
	fs.Var(&a.capacity, "capacity", "")
	a.src.register(fs, false)
	a.ex.register(fs, 10*time.Second)
	a.ord.register(fs)
	cmd.run = a.run
	return cmd
}

func (a *benchArgs) run(files []string, stdout, stderr io.Writer) error {
	list, format, runs, src, ex := a.list, a.format, a.runs, a.src, a.ex
	ex.capacity = uint64(a.capacity)
	if len(files) == 0 {
		return usageErrorf("bench", "want at least one file")
	}
	if runs < 1 {
		return usageErrorf("bench", "--runs %d: want at least 1", runs)
	}
	if format != "text" && format != "csv" && format != "markdown" {
		return usageErrorf("bench", "--format %q: want text, csv or markdown", format)
	}
	var strategies []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if _, err := newStrategy(s, ex, nil); err != nil {
			return usageErrorf("bench", "--strategy: %v", err)
		}
		if !slices.Contains(strategies, s) {
			strategies = append(strategies, s)
		}
	}
	order, budget, err := a.ord.resolve("bench")
	if err != nil {
		return err
	}
	source, err := src.source("bench", nil)
	if err != nil {
		return err
	}
	defer source.close()
	opts := planner.Options{MaxPoolSize: uint64(a.maxPool), DedicatedThreshold: thresholdOption(a.threshold), Source: source.RequirementsSource,
		Order: order, Budget: budget}

	// Read every file first: bad input fails before any time is spent.
	type input struct {
		file  string
		c     *planner.Compiled
		prob  *planner.Problem
		bound uint64
	}
	var inputs []input
	for _, f := range files {
		in := input{file: f}
		switch strings.ToLower(filepath.Ext(f)) {
		case ".json":
			g, err := readGraphFile(f)
			if err != nil {
				return err
			}
			if in.c, err = compileFile(f, g); err != nil {
				return err
			}
		case ".csv":
			if _, in.prob, err = readProblemFile(f); err != nil {
				return err
			}
			in.bound = planner.LowerBound(in.prob)
		default:
			return fmt.Errorf("%s: unknown file type %q (want .json for a graph, .csv for an interval problem)", f, filepath.Ext(f))
		}
		inputs = append(inputs, in)
	}

	var rows []benchRow
	for _, in := range inputs {
		for _, name := range strategies {
			row := benchRow{file: in.file, strategy: name, optimal: "-"}
			var times []time.Duration
			for run := 0; run < runs; run++ {
				strat, _ := newStrategy(name, ex, nil)
				start := time.Now()
				if in.c != nil {
					o := opts
					o.Strategy = strat
					plan, err := planner.Place(in.c, o)
					if err != nil {
						return inFile(in.file, err)
					}
					row.peak, row.bound, row.execBound = plan.Stats.PooledBytes, plan.Stats.LowerBound, plan.Stats.ExecutionBound
					row.gapBound = row.bound
					if order != planner.OrderDAG {
						row.gapBound = row.execBound
					}
				} else {
					sol, err := strat.Place(in.prob)
					if err != nil {
						return inFile(in.file, err)
					}
					if err := planner.CheckSolution(in.prob, sol); err != nil {
						return fmt.Errorf("%s: strategy %s produced an invalid solution (a bug): %s", in.file, name, trimPkg(err.Error()))
					}
					row.peak, row.bound = sol.Peak(), in.bound
					row.execBound, row.gapBound = in.bound, in.bound
				}
				d := time.Since(start)
				times = append(times, d)
				if e, ok := strat.(*exactRun); ok && order != planner.OrderBudget {
					// (Under a budget the exact strategy solves several
					// relaxed problems; their optimality says nothing of
					// the plan's.)
					row.optimal = "no"
					if e.optimal() {
						row.optimal = "yes"
					}
					row.groups = len(e.results)
					if ex.capacity != 0 {
						row.optimal = verdictOf(e.results)
					}
				}
				if d > time.Second {
					break
				}
			}
			if row.optimal == "-" && row.peak == row.gapBound {
				row.optimal = "yes"
			}
			slices.Sort(times)
			row.median, row.runs = times[len(times)/2], len(times)
			rows = append(rows, row)
		}
	}
	last := "optimal" // the last column's name
	if ex.capacity != 0 {
		last = "fits " + formatSize(ex.capacity)
	}
	switch format {
	case "csv":
		if ex.capacity != 0 {
			last = "fits_" + strconv.FormatUint(ex.capacity, 10)
		}
		return benchCSV(stdout, rows, last)
	case "markdown":
		benchMarkdown(stdout, rows, last)
	default:
		benchText(stdout, rows, last)
		for _, r := range rows {
			if r.groups > 1 {
				fmt.Fprintf(stderr, "note: %s: exact placed %d pool groups, each under its own limit\n", r.file, r.groups)
			}
		}
	}
	return nil
}

// verdictOf combines the groups' answers to --capacity: fits when every
// group fits, no when one is proven not to, else unknown.
func verdictOf(rs []exact.Result) string {
	v := "fits"
	for _, r := range rs {
		switch r.Verdict {
		case exact.DoesNotFit:
			return "no"
		case exact.Unknown:
			v = "unknown"
		}
	}
	return v
}

func (r *benchRow) gap() float64 {
	if r.gapBound == 0 {
		return 0
	}
	return 100 * (float64(r.peak) - float64(r.gapBound)) / float64(r.gapBound)
}

func benchText(w io.Writer, rows []benchRow, last string) {
	table := [][]string{{"file", "strategy", "peak", "lower bound", "exec bound", "gap", "median time", "runs", last}}
	for _, r := range rows {
		table = append(table, []string{r.file, r.strategy, commas(r.peak), commas(r.bound), commas(r.execBound), fmt.Sprintf("%.2f%%", r.gap()),
			duration(r.median.Seconds()), strconv.Itoa(r.runs), r.optimal})
	}
	right := []bool{false, false, true, true, true, true, true, true, false}
	width := make([]int, len(right))
	for _, row := range table {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range table {
		var b strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func benchMarkdown(w io.Writer, rows []benchRow, last string) {
	fmt.Fprintf(w, "| file | strategy | peak (bytes) | lower bound (bytes) | exec bound (bytes) | gap | median time | runs | %s |\n", last)
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f%% | %s | %d | %s |\n",
			strings.ReplaceAll(r.file, "|", `\|`), r.strategy, commas(r.peak), commas(r.bound), commas(r.execBound), r.gap(), duration(r.median.Seconds()), r.runs, r.optimal)
	}
}

func benchCSV(w io.Writer, rows []benchRow, last string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"file", "strategy", "peak", "lower_bound", "execution_bound", "gap_percent", "median_seconds", "runs", last})
	for _, r := range rows {
		cw.Write([]string{r.file, r.strategy, strconv.FormatUint(r.peak, 10), strconv.FormatUint(r.bound, 10), strconv.FormatUint(r.execBound, 10),
			strconv.FormatFloat(r.gap(), 'f', 4, 64), strconv.FormatFloat(r.median.Seconds(), 'f', 6, 64), strconv.Itoa(r.runs), r.optimal})
	}
	cw.Flush()
	return cw.Error()
}
