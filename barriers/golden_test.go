package barriers_test

import (
	"bytes"
	"flag"
	"github.com/aliasplan/aliasplan/verify"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

var update = flag.Bool("update", false, "rewrite the golden plan files")

// goldenDir holds one plan file per frame of the shared corpus.
const goldenDir = "../format/testdata/plans"

// sharedFrames returns the frame files of the shared corpus, or skips.
func sharedFrames(t *testing.T) []string {
	t.Helper()
	for _, d := range []string{"../../shared/data/frames", "../shared/data/frames"} {
		files, _ := filepath.Glob(filepath.Join(d, "*.json"))
		if len(files) > 0 {
			return files
		}
	}
	t.Skip("shared/data/frames not found")
	return nil
}

// planFrame runs the library's pipeline with its defaults: Compile, Place
// (first fit, 64 MiB dedicated threshold), Build, Verify.
func planFrame(t *testing.T, path string) (*planner.Graph, *planner.Compiled, *planner.Plan) {
	t.Helper()
	return planFrameOrdered(t, path, planner.OrderDAG, 0)
}

// planFrameOrdered is planFrame under an ordering (and budget).
func planFrameOrdered(t *testing.T, path string, order planner.Ordering, budget uint64) (*planner.Graph, *planner.Compiled, *planner.Plan) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), DedicatedThreshold: planner.DefaultDedicatedThreshold, Order: order, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	return g, c, p
}

// TestGoldenPlans plans every shared frame and compares the plan file with
// format/testdata/plans/FRAME.plan.json (go test -update rewrites them).
// The plan file reads back to the same plan, which passes Verify again.
func TestGoldenPlans(t *testing.T) {
	for _, path := range sharedFrames(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			g, c, p := planFrame(t, path)
			checkGolden(t, filepath.Join(goldenDir, name+".plan.json"), g, c, p)
		})
	}
}

// TestGoldenOrderings plans one frame under the execution order and under
// a budget halfway between the DAG and execution plans' pooled bytes, and
// compares them with FRAME.execution.plan.json and FRAME.budget.plan.json.
func TestGoldenOrderings(t *testing.T) {
	var path string
	for _, f := range sharedFrames(t) {
		if filepath.Base(f) == "deferred-1080p.json" {
			path = f
		}
	}
	if path == "" {
		t.Skip("deferred-1080p.json not among the shared frames")
	}
	_, _, dag := planFrame(t, path)
	g, c, exec := planFrameOrdered(t, path, planner.OrderExecution, 0)
	if len(exec.Serializations) == 0 || exec.Stats.PooledBytes >= dag.Stats.PooledBytes {
		t.Errorf("execution order: %d serializations, pooled %d against %d under the DAG order", len(exec.Serializations), exec.Stats.PooledBytes, dag.Stats.PooledBytes)
	}
	checkGolden(t, filepath.Join(goldenDir, "deferred-1080p.execution.plan.json"), g, c, exec)
	budget := (dag.Stats.PooledBytes + exec.Stats.PooledBytes) / 2
	g, c, bud := planFrameOrdered(t, path, planner.OrderBudget, budget)
	if bud.Stats.PooledBytes > budget || len(bud.Serializations) == 0 || len(bud.Serializations) >= len(exec.Serializations) {
		t.Errorf("budget %d: pooled %d with %d serializations (execution order: %d)", budget, bud.Stats.PooledBytes, len(bud.Serializations), len(exec.Serializations))
	}
	checkGolden(t, filepath.Join(goldenDir, "deferred-1080p.budget.plan.json"), g, c, bud)
}

// checkGolden compares p's plan file with golden (or rewrites it with
// -update), reads it back and verifies what it read.
func checkGolden(t *testing.T, golden string, g *planner.Graph, c *planner.Compiled, p *planner.Plan) {
	t.Helper()
	var b bytes.Buffer
	if err := format.WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./barriers -update writes it)", err)
		}
		if !bytes.Equal(want, b.Bytes()) {
			t.Errorf("%s differs from the plan made now; review and run go test ./barriers -update\n%s", golden, firstLineDiff(string(want), b.String()))
		}
	}
	back, err := format.ReadPlan(bytes.NewReader(b.Bytes()), golden, g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Error("the plan file does not read back to the plan")
	}
	if err := verify.Plan(c, back); err != nil {
		t.Error(err)
	}
}

// firstLineDiff shows the first line where want and got differ.
func firstLineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  golden: " + a + "\n  now:    " + b
		}
	}
	return ""
}
