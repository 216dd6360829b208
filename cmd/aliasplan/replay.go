package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/replay"
)

const replayHelp = `Usage: aliasplan replay [flags] [GRAPH.json]

Runs a graph's real work on the Vulkan device through its plan: every
command becomes a compute dispatch, a draw with dynamic rendering, a clear
or a copy matching its declared accesses, and records a digest of what it
read. It runs the aliased plan and the same frame with every transient in
an allocation of its own (same hazard barriers, no alias barriers), Runs
times each, and compares every command's digest and the final contents
of the imported and host-visible resources. Without a file it replays the
embedded sample frame. Requirements always come from the device.

Planning flags, as for 'aliasplan plan' (replay defines the same ones):
  --strategy NAME           firstfit (default), bestfit or exact
  --max-pool-size SIZE      cap each pool (default: the device's
                            maxMemoryAllocationSize)
  --dedicated-threshold SIZE
                            resources this large get their own allocation
                            (default 64MiB; 0: never for size alone)
  --pool-prefers-dedicated  pool resources whose driver only prefers a
                            dedicated allocation
  --resolution WxH          size of the sample frame (default 1920x1080); an
                            error with a graph file (--scale divides its sizes)
  --format text|json        report format (default text)
  --time-limit DURATION     exact: per pool group (default 10s)
  --node-limit N            exact: search nodes per pool group
  --order dag|execution     which resources may share bytes (default dag;
                            see 'aliasplan plan -h')
  --budget SIZE             serialize only the pairs needed to pool at most
                            SIZE bytes
  --sharing concurrent|exclusive
                            resources used on several queues (default
                            concurrent); exclusive creates them EXCLUSIVE and
                            records the plan's ownership transfers
  --profile NAME, --device none, -o FILE, --svg FILE, --html FILE, --compare LIST
                            plan's; replay takes requirements from the
                            device and writes no file

Replay flags:
  --scale N          divide image extents and buffer sizes by the integer N
                     from 1 to 65536 (default 1), keeping the graph's
                     structure; a fraction 1/N (0.25 or 1/4) means the same
                     as N
  --runs N           timed runs per mode (default 20); GPU times are medians
  --per-command      also time every command (N more runs per mode)
  --validation       enable the validation layer with synchronization
                     validation (default true)
  --vk-device NAME   pick the Vulkan device whose name contains NAME

Prints the report (text, or --format json: digestsEqual, validationMessages,
transientBytes, pooledBytes, gpuNsAliased, gpuNsUnaliased, ...).
Exit status: 0 digests equal and no validation message, 1 otherwise,
2 bad input or no usable device.
`

type replayArgs struct {
	plan       *planArgs
	scale      string
	runs       int
	perCommand bool
	validation bool
	vkDevice   string
}

func replayCommand() *command {
	cmd := newCommand("replay", replayHelp)
	a := &replayArgs{plan: registerPlanFlags(cmd.fs)}
	cmd.fs.StringVar(&a.scale, "scale", "1", "")
	cmd.fs.IntVar(&a.runs, "runs", 20, "")
	cmd.fs.BoolVar(&a.perCommand, "per-command", false, "")
	cmd.fs.BoolVar(&a.validation, "validation", true, "")
	cmd.fs.StringVar(&a.vkDevice, "vk-device", "", "")
	cmd.run = a.run
	return cmd
}

// replayFailedError: the replay ran, but digests differed or the layer
// reported something (exit status 1).
type replayFailedError struct{ msg string }

func (e *replayFailedError) Error() string { return e.msg }

func (a *replayArgs) run(files []string, stdout, stderr io.Writer) error {
	pa := a.plan
	if len(files) > 1 {
		return usageErrorf("replay", "want at most one graph file, got %d", len(files))
	}
	if pa.format != "text" && pa.format != "json" {
		return usageErrorf("replay", "--format %q: want text or json", pa.format)
	}
	scale, err := parseScale(a.scale)
	if err != nil {
		return usageErrorf("replay", "--scale %q: %v", a.scale, err)
	}
	if a.runs < 1 {
		return usageErrorf("replay", "--runs %d: want at least 1", a.runs)
	}
	if pa.src.device != "none" {
		return usageErrorf("replay", "--device: replay always takes requirements from the Vulkan device")
	}
	if pa.out != "" || pa.svg != "" || pa.html != "" || pa.compare != "" {
		return usageErrorf("replay", "-o, --svg, --html and --compare are plan's outputs; replay writes none")
	}
	w, h, err := pa.sampleResolution("replay", files)
	if err != nil {
		return err
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
	if g, err = replay.Scale(g, scale); err != nil {
		return usageErrorf("replay", "--scale: %v", err)
	}
	if xdg := os.Getenv("XDG_RUNTIME_DIR"); xdg == "" {
		// Mesa wants a runtime directory for its caches.
		os.Setenv("XDG_RUNTIME_DIR", os.TempDir())
	}
	dev, err := vulkan.Open(vulkan.Config{Validation: a.validation, Replay: true, Device: a.vkDevice, ReplayStages: replay.Stages(g)})
	if err != nil {
		return fmt.Errorf("replay: no usable Vulkan device: %s", trimPkg(err.Error()))
	}
	defer dev.Close()
	r, err := replay.New(dev, g)
	if err != nil {
		return inFile(file, err)
	}
	defer r.Close()
	source := &requirementsSource{RequirementsSource: r.Source(), maxAllocation: dev.Info().MaxMemoryAllocationSize, close: func() {}}
	opts, err := pa.options("replay", source, stderr)
	if err != nil {
		return err
	}
	if opts.Sharing == planner.SharingExclusive {
		if err := r.Source().SetSharing(vulkan.SharingExclusive); err != nil {
			return fmt.Errorf("replay: --sharing exclusive: %s", trimPkg(err.Error()))
		}
	}
	plan, err := aliasplan.New(opts).Plan(&aliasplan.Graph{Graph: *g})
	if err != nil {
		return inFile(file, err)
	}
	out := replayOutput{Input: input, Scale: uint(scale), Strategy: plan.Strategy}
	if len(plan.Submissions) > 0 {
		// Commands on several queues: submissions with semaphores, each
		// queue's batches timed (no per-command timestamps there).
		if a.perCommand {
			fmt.Fprintf(stderr, "aliasplan: replay: --per-command: the plan runs on several queues; per-command GPU times are measured on one queue only, so each queue's busy time is reported instead\n")
		}
		qr, err := r.CompareQueues(plan, replay.Config{Runs: a.runs})
		if err != nil {
			return inFile(file, err)
		}
		out.Report, out.Queues = &qr.Report, &queueInfo{qr.Queues, qr.Batches, qr.Semaphores, qr.BusyNs}
	} else {
		rep, err := r.Compare(plan, replay.Config{Runs: a.runs, PerCommand: a.perCommand})
		if err != nil {
			return inFile(file, err)
		}
		out.Report = rep
	}
	rep := out.Report
	if pa.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		out.text(stdout)
	}
	switch {
	case !rep.DigestsEqual && rep.ValidationMessages > 0:
		return &replayFailedError{fmt.Sprintf("replay: %d digest or content differences and %d validation messages", len(rep.Mismatches), rep.ValidationMessages)}
	case !rep.DigestsEqual:
		return &replayFailedError{fmt.Sprintf("replay: %d digest or content differences between runs", len(rep.Mismatches))}
	case rep.ValidationMessages > 0:
		return &replayFailedError{fmt.Sprintf("replay: %d validation messages", rep.ValidationMessages)}
	}
	return nil
}

type replayOutput struct {
	Input    string `json:"input"`
	Scale    uint   `json:"scale"`
	Strategy string `json:"strategy"`
	*replay.Report
	// Queues is set for a plan on several queues (CompareQueues).
	Queues *queueInfo `json:"queues,omitempty"`
}

// queueInfo is what CompareQueues reports beyond a Report.
type queueInfo struct {
	Queues     string            `json:"queues"`
	Batches    int               `json:"batches"`
	Semaphores int               `json:"semaphores"`
	BusyNs     map[string]uint64 `json:"busyNs"`
}

func (o *replayOutput) text(w io.Writer) {
	r := o.Report
	fmt.Fprintf(w, "replay: %s (scale 1/%d) on %s\n", o.Input, o.Scale, r.Device)
	fmt.Fprintf(w, "  %d commands, %d resources, strategy %s, %d alias and %d hazard barriers\n", r.Commands, r.Resources, o.Strategy, r.AliasBarriers, r.HazardBarriers)
	saved := 0.0
	if r.TransientBytes > 0 {
		saved = 100 * (1 - float64(r.PooledBytes)/float64(r.TransientBytes))
	}
	fmt.Fprintf(w, "  memory: %s unaliased, %s pooled (%.1f%% saved)\n", mib(r.TransientBytes), mib(r.PooledBytes), saved)
	ratio := 0.0
	if r.GPUNsUnaliased > 0 {
		ratio = float64(r.GPUNsAliased) / float64(r.GPUNsUnaliased)
	}
	fmt.Fprintf(w, "  GPU time (median of %d): aliased %.3f ms, unaliased %.3f ms, ratio %.3f\n", r.Runs, float64(r.GPUNsAliased)/1e6, float64(r.GPUNsUnaliased)/1e6, ratio)
	if q := o.Queues; q != nil {
		fmt.Fprintf(w, "  queues: %s; %d batches, %d semaphores\n", q.Queues, q.Batches, q.Semaphores)
		for _, name := range slices.Sorted(maps.Keys(q.BusyNs)) {
			fmt.Fprintf(w, "  %s queue busy (median): %.3f ms\n", name, float64(q.BusyNs[name])/1e6)
		}
	}
	verdict := "bit-identical"
	if !r.DigestsEqual {
		verdict = fmt.Sprintf("DIFFER (%d)", len(r.Mismatches))
	}
	fmt.Fprintf(w, "  digests (%d commands, imported and host-visible contents, every run): %s\n", len(r.Digests), verdict)
	fmt.Fprintf(w, "  validation messages: %d", r.ValidationMessages)
	if len(r.LayerQuirks) > 0 {
		names := slices.Sorted(maps.Keys(r.LayerQuirks))
		quirks := make([]string, len(names))
		for i, n := range names {
			quirks[i] = fmt.Sprintf("%s %d", n, r.LayerQuirks[n])
		}
		fmt.Fprintf(w, " (known layer false positives set aside: %s)", strings.Join(quirks, ", "))
	}
	fmt.Fprintln(w)
	for i, m := range r.Mismatches {
		if i == 10 {
			fmt.Fprintf(w, "  ... %d more differences\n", len(r.Mismatches)-10)
			break
		}
		fmt.Fprintf(w, "  difference: %s\n", m)
	}
	for _, m := range r.Messages {
		fmt.Fprintf(w, "  validation: %s\n", m)
	}
	for _, c := range r.PerCommand {
		fmt.Fprintf(w, "  %-32s aliased %9.3f µs  unaliased %9.3f µs\n", c.Command, float64(c.NsAliased)/1e3, float64(c.NsUnaliased)/1e3)
	}
}

// parseScale reads --scale: an integer divisor N from 1 to 65536, or the
// fraction 1/N it stands for (0.25, 1/4), which divides by N too.
func parseScale(s string) (uint32, error) {
	const want = "want an integer divisor from 1 to 65536 (4 divides extents and sizes by 4), or its fraction 1/N (0.25 or 1/4 mean 4)"
	s = strings.TrimSpace(s)
	var f float64
	if num, den, ok := strings.Cut(s, "/"); ok {
		n, err1 := strconv.ParseFloat(num, 64)
		d, err2 := strconv.ParseFloat(den, 64)
		if err1 != nil || err2 != nil || d == 0 {
			return 0, fmt.Errorf("not a number: %s", want)
		}
		f = n / d
	} else {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("not a number: %s", want)
		}
		f = v
	}
	if math.IsNaN(f) || f <= 0 {
		return 0, fmt.Errorf("%s", want)
	}
	if f < 1 {
		f = 1 / f // a fraction 1/N
	}
	n := math.Round(f)
	if math.Abs(f-n) > 1e-6*n || n > 1<<16 {
		return 0, fmt.Errorf("%s", want)
	}
	return uint32(n), nil
}
