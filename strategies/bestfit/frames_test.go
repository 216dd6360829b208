package bestfit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
)

// planFrame compiles and places a frame of the shared data set with the
// default options (64 MiB dedicated threshold, no pool cap).
func planFrame(tb testing.TB, file string, s planner.Strategy) *planner.Plan {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	g, err := planner.ReadGraph(f, file)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := planner.Compile(g)
	if err != nil {
		tb.Fatal(err)
	}
	plan, err := planner.Place(c, planner.Options{Strategy: s, DedicatedThreshold: planner.DefaultDedicatedThreshold})
	if err != nil {
		tb.Fatal(err)
	}
	return plan
}

func frameFiles(tb testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(dataDir, "frames/*.json"))
	if len(files) == 0 {
		tb.Skipf("no frames under %s", dataDir)
	}
	return files
}

// TestFrames holds best fit to within 5% of the
// exact lower bound on every frame of the data set.
func TestFrames(t *testing.T) {
	for _, file := range frameFiles(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		plan := planFrame(t, file, bestfit.New())
		st := plan.Stats
		r := float64(st.PooledBytes) / float64(st.LowerBound)
		t.Logf("%s: pooled %d, bound %d, ratio %.4f, %d pools", name, st.PooledBytes, st.LowerBound, r, len(plan.Pools))
		if r > 1.05 {
			t.Errorf("%s: pooled bytes %d are %.4f × the lower bound %d, want at most 1.05", name, st.PooledBytes, r, st.LowerBound)
		}
	}
}

// BenchmarkFrames times Place (grouping, the strategy, the bound) on each
// frame and reports the pooled bytes above the bound, in percent.
func BenchmarkFrames(b *testing.B) {
	for _, file := range frameFiles(b) {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		f, err := os.Open(file)
		if err != nil {
			b.Fatal(err)
		}
		g, err := planner.ReadGraph(f, file)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		c, err := planner.Compile(g)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("frame="+name, func(b *testing.B) {
			b.ReportAllocs()
			var plan *planner.Plan
			for b.Loop() {
				plan, err = planner.Place(c, planner.Options{Strategy: bestfit.New(), DedicatedThreshold: planner.DefaultDedicatedThreshold})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(100*(float64(plan.Stats.PooledBytes)/float64(plan.Stats.LowerBound)-1), "%over")
		})
	}
}
