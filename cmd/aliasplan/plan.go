package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/cmd/aliasplan/internal/picture"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

const planHelp = `Usage: aliasplan plan [flags] [GRAPH.json]

Plans a graph file (- reads stdin), or without one the embedded sample
deferred frame, and prints a summary: resources by status, pools, bytes
without aliasing, pooled bytes, lower bound, saving, strategy, time. The
graph and plan file formats: docs/formats.md.

Flags:
  -o FILE                   write the plan file (JSON, version 1)
  --svg FILE                write the picture of memory over time (SVG)
  --html FILE               write the memory viewer: one self-contained HTML page
                            (zoom, pan, search, details, live bytes, barriers)
  --compare LIST            the --html page shows the plans of these strategies
                            (comma-separated, e.g. firstfit,bestfit,exact) one
                            above the other on one time axis, with their pooled
                            bytes, peaks and bounds; -o, --svg and the summary
                            stay those of --strategy; an entry may name an
                            ordering, e.g. firstfit:dag,firstfit:execution
  --strategy NAME           firstfit (default), bestfit or exact
  --order dag|execution     which resources may share bytes: only those the
                            dependency DAG orders (dag, default), or those the
                            execution order orders, each such pair then
                            ordered by its alias barrier (execution)
  --budget SIZE             keep the DAG order and serialize only the pairs
                            needed to pool at most SIZE bytes; fails, stating
                            the smallest size reachable, when nothing fits
  --sharing concurrent|exclusive
                            resources used on several queues: CONCURRENT
                            (default), or EXCLUSIVE with queue family
                            ownership transfers (release/acquire barriers,
                            listed in the plan file's "transfers")
  --format text|json        summary format (default text)
  --max-pool-size SIZE      cap each pool, e.g. 256MiB (default 0: no cap, or
                            the device's maxMemoryAllocationSize)
  --dedicated-threshold SIZE
                            resources this large get their own allocation
                            (default 64MiB; 0: never for size alone)
  --pool-prefers-dedicated  pool resources whose driver only prefers a dedicated
                            allocation (default: give them their own)
  --profile h200|lavapipe   estimate requirements the graph lacks (default h200)
  --device none|vulkan      take requirements from the Vulkan device instead
  --resolution WxH          size of the sample frame (default 1920x1080); an
                            error with a graph file, which has its own extents
  --time-limit DURATION     exact: search each pool group at most this long
                            (default 10s; 0: no limit)
  --node-limit N            exact: at most N search nodes per pool group
                            (default 0: no limit)

Sizes are bytes or a number with KiB, MiB, GiB (or KB, MB, GB).
`

// planArgs are plan's flags.
type planArgs struct {
	out, svg, html, format, strategy, resolution string
	compare, sharing                             string
	maxPool, threshold                           sizeValue
	poolPrefers                                  bool
	src                                          sourceFlags
	ex                                           exactFlags
	ord                                          orderFlags
}

func planCommand() *command {
	cmd := newCommand("plan", planHelp)
	a := registerPlanFlags(cmd.fs)
	cmd.run = a.run
	return cmd
}

// registerPlanFlags defines plan's flags on fs. replay defines the same
// ones (then its own), so a planning option added here applies to both.
func registerPlanFlags(fs *flag.FlagSet) *planArgs {
	a := &planArgs{threshold: sizeValue(planner.DefaultDedicatedThreshold)}
	fs.StringVar(&a.out, "o", "", "")
	fs.StringVar(&a.svg, "svg", "", "")
	fs.StringVar(&a.html, "html", "", "")
	fs.StringVar(&a.compare, "compare", "", "")
	fs.StringVar(&a.strategy, "strategy", "firstfit", "")
	fs.StringVar(&a.format, "format", "text", "")
	fs.Var(&a.maxPool, "max-pool-size", "")
	fs.Var(&a.threshold, "dedicated-threshold", "")
	fs.BoolVar(&a.poolPrefers, "pool-prefers-dedicated", false, "")
	fs.StringVar(&a.sharing, "sharing", "concurrent", "")
	// "" is the default, 1920x1080: so that run can tell a --resolution
	// given with a graph file, which has extents of its own.
	fs.StringVar(&a.resolution, "resolution", "", "")
	a.src.register(fs, true)
	a.ex.register(fs, 10*time.Second)
	a.ord.register(fs)
	return a
}

// options turns the planning flags into the planner's options for
// source; plan and replay both plan through it.
func (a *planArgs) options(cmd string, source *requirementsSource, stderr io.Writer) (aliasplan.Options, error) {
	order, budget, err := a.ord.resolve(cmd)
	if err != nil {
		return aliasplan.Options{}, err
	}
	strat, err := newStrategy(a.strategy, a.ex, stderr)
	if err != nil {
		return aliasplan.Options{}, usageErrorf(cmd, "--strategy: %v", err)
	}
	sharing, ok := planner.ParseSharing(a.sharing)
	if !ok {
		return aliasplan.Options{}, usageErrorf(cmd, "--sharing %q: want concurrent or exclusive", a.sharing)
	}
	opts := aliasplan.Options{Strategy: strat, MaxPoolSize: uint64(a.maxPool), DedicatedThreshold: thresholdOption(a.threshold), Source: source,
		PoolPrefersDedicated: a.poolPrefers, Order: order, Budget: budget, Sharing: sharing}
	if opts.MaxPoolSize == 0 {
		opts.MaxPoolSize = source.maxAllocation
	}
	return opts, nil
}

func (a *planArgs) run(files []string, stdout, stderr io.Writer) error {
	out, svg, html, summaryFormat := a.out, a.svg, a.html, a.format
	if len(files) > 1 {
		return usageErrorf("plan", "want at most one graph file, got %d", len(files))
	}
	if summaryFormat != "text" && summaryFormat != "json" {
		return usageErrorf("plan", "--format %q: want text or json", summaryFormat)
	}
	w, h, err := a.sampleResolution("plan", files)
	if err != nil {
		return err
	}
	order, _, err := a.ord.resolve("plan")
	if err != nil {
		return err
	}
	var compare []string
	if a.compare != "" {
		if html == "" {
			return usageErrorf("plan", "--compare shows plans side by side in the --html page: give --html FILE too")
		}
		if compare, err = parseCompare(a.compare); err != nil {
			return usageErrorf("plan", "--compare: %v", err)
		}
	}
	for _, o := range []string{out, svg, html} {
		if err := checkOutputDir(o); err != nil {
			return err
		}
	}

	var g *planner.Graph
	var input, file string
	if len(files) == 1 {
		file = files[0]
		if g, err = readGraphFile(file); err != nil {
			return err
		}
		input = displayName(file)
	} else {
		g = &aliasplan.SampleFrame(w, h).Graph
		input = fmt.Sprintf("embedded sample frame %dx%d", w, h)
	}
	source, err := a.src.source("plan", g)
	if err != nil {
		return err
	}
	defer source.close()
	opts, err := a.options("plan", source, stderr)
	if err != nil {
		return err
	}
	strat := opts.Strategy
	start := time.Now()
	c, plan, err := aliasplan.New(opts).PlanCompiled(&aliasplan.Graph{Graph: *g})
	elapsed := time.Since(start)
	if err != nil {
		return inFile(file, err)
	}
	// What the serializations bought: the same frame under the DAG order.
	var dagPooled uint64
	if order != planner.OrderDAG {
		o := opts
		o.Order, o.Budget = planner.OrderDAG, 0
		if o.Strategy, err = newStrategy(a.strategy, a.ex, io.Discard); err != nil {
			return usageErrorf("plan", "--strategy: %v", err)
		}
		dag, err := aliasplan.New(o).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			return inFile(file, err)
		}
		dagPooled = dag.Stats.PooledBytes
	}

	var compared []*planner.Plan
	if compare != nil {
		if compared, err = planEach(g, opts, compare, strat.Name(), plan, a.ex, stderr); err != nil {
			return inFile(file, err)
		}
	}

	var outs outputs
	defer outs.abort()
	title := "aliasplan: " + input
	if out != "" {
		if err := outs.add(out, func(w io.Writer) error { return format.WritePlan(w, g, plan) }); err != nil {
			return err
		}
	}
	if svg != "" {
		if err := outs.add(svg, func(w io.Writer) error { return picture.SVG(w, c, plan, picture.Options{Title: title}) }); err != nil {
			return err
		}
	}
	if html != "" {
		write := func(w io.Writer) error { return picture.HTML(w, c, plan, picture.Options{Title: title}) }
		if compared != nil {
			write = func(w io.Writer) error {
				return picture.Compare(w, c, compared, compare, picture.Options{Title: title})
			}
		}
		if err := outs.add(html, write); err != nil {
			return err
		}
	}
	written := outs.paths()
	if err := outs.commit(); err != nil {
		return err
	}
	s := summarize(input, g, plan, source.MemoryTypes(), elapsed)
	s.Ordering = summarizeOrdering(c, plan, dagPooled)
	// Under a budget the exact strategy solves relaxed problems whose
	// optimality says nothing of the plan's: no claim then.
	if e, ok := strat.(*exactRun); ok && order != planner.OrderBudget {
		s.Exact = &exactSummary{Optimal: e.optimal(), Nodes: e.nodes()}
	}
	if summaryFormat == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return err
		}
	} else {
		s.text(stdout)
		if compared != nil {
			compareText(stdout, compare, compared)
		}
	}
	for _, p := range written {
		fmt.Fprintf(stderr, "wrote %s\n", p)
	}
	return nil
}

// sampleResolution is --resolution, the size of the embedded sample
// frame (1920x1080 when not given). With a graph file it is an error: the
// file's images have extents of their own, which a resolution cannot
// rescale without guessing which ones follow the screen (replay's --scale
// divides them all).
func (a *planArgs) sampleResolution(cmd string, files []string) (uint32, uint32, error) {
	if a.resolution != "" && len(files) > 0 {
		hint := "drop --resolution"
		if cmd == "replay" {
			hint += ", or divide them with --scale"
		}
		return 0, 0, usageErrorf(cmd, "--resolution %s sizes the embedded sample frame; %s has its own extents (%s)", a.resolution, files[0], hint)
	}
	w, h, err := parseResolution(cmp.Or(a.resolution, "1920x1080"))
	if err != nil {
		return 0, 0, usageErrorf(cmd, "--resolution: %v", err)
	}
	return w, h, nil
}

// parseResolution reads "1920x1080".
func parseResolution(s string) (uint32, uint32, error) {
	ws, hs, ok := strings.Cut(s, "x")
	if !ok {
		return 0, 0, fmt.Errorf("%q: want WIDTHxHEIGHT, e.g. 1920x1080", s)
	}
	w, err1 := strconv.ParseUint(ws, 10, 32)
	h, err2 := strconv.ParseUint(hs, 10, 32)
	if err1 != nil || err2 != nil || w == 0 || h == 0 || w > 16384 || h > 16384 {
		return 0, 0, fmt.Errorf("%q: want WIDTHxHEIGHT, each from 1 to 16384", s)
	}
	return uint32(w), uint32(h), nil
}

// checkOutputDir fails early, before any work, when an output file's
// directory does not exist.
func checkOutputDir(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: cannot write: directory %s does not exist", path, dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: cannot write: %s is not a directory", path, dir)
	}
	return nil
}

// readGraphFile reads and validates a graph file; "-" is stdin.
func readGraphFile(path string) (*planner.Graph, error) {
	if path == "-" {
		return format.ReadGraph(os.Stdin, "stdin")
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return format.ReadGraph(f, path)
}

// openFile opens an input file, refusing directories.
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(path, err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: cannot read: is a directory", path)
	}
	return f, nil
}

// openError words an open failure as "FILE: cannot read: REASON".
func openError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot read: %v", path, err)
}

// compileFile compiles a graph read from file, naming the file in errors.
func compileFile(file string, g *planner.Graph) (*planner.Compiled, error) {
	c, err := planner.Compile(g)
	if err != nil {
		return nil, inFile(file, err)
	}
	return c, nil
}

// inFile names file in an error about its content: *GraphError gets the
// file in its own field; other errors are prefixed.
func inFile(file string, err error) error {
	if file == "" {
		return err
	}
	file = displayName(file)
	var ge *planner.GraphError
	if errors.As(err, &ge) {
		if ge.File == "" {
			ge.File = file
		}
		return err
	}
	if strings.Contains(err.Error(), file) {
		return err
	}
	return fmt.Errorf("%s: %s", file, trimPkg(err.Error()))
}
