package replay

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
)

// sweepModes are the four flag sets of issue 18's sweep: the DAG order,
// the execution order, a budget halfway between the two, and pooling the
// resources whose driver only prefers a dedicated allocation.
var sweepModes = []string{"dag", "execution", "budget", "pool-prefers-dedicated"}

// sweepOptions returns the planner options of one mode for g. The budget
// is halfway between the execution-order and the DAG-order pooled bytes
// (planned first with the same source).
func sweepOptions(t testing.TB, r *Replayer, maxPool uint64, g *p.Graph, mode string) aliasplan.Options {
	t.Helper()
	base := aliasplan.Options{Source: r.Source(), MaxPoolSize: maxPool}
	switch mode {
	case "execution":
		base.Order = p.OrderExecution
	case "pool-prefers-dedicated":
		base.PoolPrefersDedicated = true
	case "budget":
		pooled := func(o aliasplan.Options) uint64 {
			plan, err := aliasplan.New(o).Plan(&aliasplan.Graph{Graph: *g})
			if err != nil {
				t.Fatalf("Plan (%v): %v", o.Order, err)
			}
			return plan.Stats.PooledBytes
		}
		dag := pooled(base)
		ex := base
		ex.Order = p.OrderExecution
		base.Order, base.Budget = p.OrderBudget, (dag+pooled(ex))/2
		if base.Budget == 0 {
			base.Budget = 1
		}
	}
	return base
}

// sweepGraph replays g under each mode both ways, on one device and one
// Replayer (a second Replayer on one lavapipe device crashed its pipeline
// creation: docs/replay.md): zero validation messages, digests equal.
func sweepGraph(t *testing.T, name string, g *p.Graph) {
	t.Run(name, func(t *testing.T) {
		d := sharedDevice(t)
		r, err := New(d, g)
		if err != nil {
			t.Fatalf("replay.New: %v", err)
		}
		t.Cleanup(r.Close)
		for _, mode := range sweepModes {
			t.Run(mode, func(t *testing.T) { sweepOne(t, d.Info().MaxMemoryAllocationSize, r, g, mode) })
		}
	})
}

func sweepOne(t *testing.T, maxPool uint64, r *Replayer, g *p.Graph, mode string) {
	opts := sweepOptions(t, r, maxPool, g, mode)
	plan, err := aliasplan.New(opts).Plan(&aliasplan.Graph{Graph: *g})
	var be *p.BudgetError
	if errors.As(err, &be) && mode == "budget" {
		// The halfway budget is out of reach: plan at the smallest size
		// the error states instead, still a budget plan.
		opts.Budget = be.Reachable
		plan, err = aliasplan.New(opts).Plan(&aliasplan.Graph{Graph: *g})
	}
	if err != nil {
		t.Fatalf("Plan (%s): %v", mode, err)
	}
	rep, err := r.Compare(plan, Config{Runs: 1})
	if err != nil {
		t.Fatalf("Compare: %v", err)
	}
	for _, m := range rep.Mismatches {
		t.Errorf("mismatch: %s", m)
	}
	for _, m := range rep.Messages {
		t.Errorf("validation: %s", m)
	}
	if rep.ValidationMessages != 0 && len(rep.Messages) == 0 {
		t.Errorf("%d validation messages", rep.ValidationMessages)
	}
	if !rep.DigestsEqual {
		t.Errorf("digests differ")
	}
	t.Logf("%s: %d commands, pooled %d B, %d alias barriers, %d messages", mode, rep.Commands, rep.PooledBytes, rep.AliasBarriers, rep.ValidationMessages)
}

// TestSweep replays, under each of the four modes, random graphs of the
// replay's generator (ALIASPLAN_SWEEP_GRAPHS, default 30), the sample
// frame and the shared frames
// (scaled four times further than TestFrames; the larger ones only when
// ALIASPLAN_SWEEP_GRAPHS is set: make replay-sweep). Zero validation
// messages and equal digests in each.
func TestSweep(t *testing.T) {
	graphs := 30
	heavy := false
	if s := os.Getenv("ALIASPLAN_SWEEP_GRAPHS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			t.Fatalf("ALIASPLAN_SWEEP_GRAPHS=%q: want a count", s)
		}
		graphs, heavy = n, true
	}
	for seed := uint64(1); seed <= uint64(graphs); seed++ {
		// proptest.RandomGraph's frames carry no usage flags the replay
		// can honour (storage access without STORAGE usage), so the
		// replay's own generator (random_test.go) makes the graphs.
		sweepGraph(t, fmt.Sprintf("random/seed=%d", seed), randomGraphSized(seed, sweepScale(seed, heavy)))
	}
	sample, err := Scale(&aliasplan.SampleFrame(1920, 1080).Graph, 32)
	if err != nil {
		t.Fatal(err)
	}
	sweepGraph(t, "frame/sample", sample)
	// The held-out frames (TestFrames replays the repository's).
	for _, f := range datadir.Files(t, datadir.Frames) {
		path, name := f.Path, f.Test()
		if !strings.HasPrefix(name, "heldout/") {
			continue
		}
		factor := 4 * frameScale[name]
		if factor == 0 {
			factor = 64
		}
		if sweepHeavy[name] && !heavy {
			continue // the make target runs it (a minute or more under -race)
		}
		g, err := Scale(readFrame(t, path), factor)
		if err != nil {
			t.Fatal(err)
		}
		sweepGraph(t, "frame/"+name, g)
	}
}

// sweepHeavy are the frames TestSweep replays only under
// ALIASPLAN_SWEEP_GRAPHS (make replay-sweep): TestFrames replays them in
// make test under the default flags.
var sweepHeavy = map[string]bool{"heldout/random-1000": true, "heldout/random-200": true, "heldout/compute-1": true, "heldout/compute-120": true}
