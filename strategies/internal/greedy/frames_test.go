package greedy_test

import (
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/internal/greedy"
)

// planFrame compiles and places a frame of the test data with the
// default options (64 MiB dedicated threshold, no pool cap).
func planFrame(tb testing.TB, file string, s planner.Strategy) *planner.Plan {
	tb.Helper()
	plan, err := planner.Place(greedy.CompileFrame(tb, file), planner.Options{Strategy: s, DedicatedThreshold: planner.DefaultDedicatedThreshold})
	if err != nil {
		tb.Fatal(err)
	}
	return plan
}

func frameFiles(tb testing.TB) []datadir.File { return datadir.Files(tb, datadir.Frames) }

// TestFrames holds each strategy to its frames target (within 5% of the
// exact lower bound) on every frame of the test data.
func TestFrames(t *testing.T) {
	files := frameFiles(t)
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			for _, file := range files {
				name := file.Test()
				plan := planFrame(t, file.Path, s.new())
				st := plan.Stats
				r := float64(st.PooledBytes) / float64(st.LowerBound)
				t.Logf("%s: pooled %d, bound %d, ratio %.4f, %d pools", name, st.PooledBytes, st.LowerBound, r, len(plan.Pools))
				if r > s.frames {
					t.Errorf("%s: pooled bytes %d are %.4f × the lower bound %d, want at most %g", name, st.PooledBytes, r, st.LowerBound, s.frames)
				}
			}
		})
	}
}

// BenchmarkFrames times Place (grouping, the strategy, the bound) on each
// frame with each strategy and reports the pooled bytes above the bound, in
// percent:
//
//	go test -run '^$' -bench 'Frames/strategy=firstfit' ./strategies/internal/greedy
func BenchmarkFrames(b *testing.B) {
	files := frameFiles(b)
	for _, s := range strategies {
		b.Run("strategy="+s.name, func(b *testing.B) {
			for _, file := range files {
				c := greedy.CompileFrame(b, file.Path)
				b.Run("frame="+file.Test(), func(b *testing.B) {
					b.ReportAllocs()
					var plan *planner.Plan
					var err error
					for b.Loop() {
						plan, err = planner.Place(c, planner.Options{Strategy: s.new(), DedicatedThreshold: planner.DefaultDedicatedThreshold})
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(100*(float64(plan.Stats.PooledBytes)/float64(plan.Stats.LowerBound)-1), "%over")
				})
			}
		})
	}
}
