package replay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// sweepOne replays g under one mode both ways: zero validation messages,
// digests equal.
func sweepOne(t *testing.T, g *p.Graph, mode string) {
	d := openDevice(t)
	r, err := New(d, g)
	if err != nil {
		t.Fatalf("replay.New: %v", err)
	}
	t.Cleanup(r.Close)
	opts := sweepOptions(t, r, d.Info().MaxMemoryAllocationSize, g, mode)
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
// (scaled further than TestFrames; random-1000 only when
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
		g := randomGraph(seed)
		for _, mode := range sweepModes {
			t.Run(fmt.Sprintf("random/seed=%d/%s", seed, mode), func(t *testing.T) { sweepOne(t, g, mode) })
		}
	}
	sample, err := Scale(&aliasplan.SampleFrame(1920, 1080).Graph, 32)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range sweepModes {
		t.Run("frame/sample/"+mode, func(t *testing.T) { sweepOne(t, sample, mode) })
	}
	entries, _ := filepath.Glob(filepath.Join(framesDir, "*.json"))
	for _, path := range entries {
		name := filepath.Base(path)
		factor := 4 * frameScale[name]
		if factor == 0 {
			factor = 128
		}
		if name == "random-1000.json" && !heavy {
			continue // about a minute per mode on lavapipe: the make target runs it
		}
		g, err := Scale(readFrame(t, name), factor)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range sweepModes {
			t.Run(fmt.Sprintf("frame/%s/%s", name, mode), func(t *testing.T) { sweepOne(t, g, mode) })
		}
	}
}
