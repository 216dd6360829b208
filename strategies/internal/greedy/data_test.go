package greedy_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/strategies/internal/greedy"
)

// strategies are the strategies built on this engine, each with the
// targets it is held to on the test data (internal/datadir).
var strategies = []struct {
	name string
	new  func() planner.Strategy
	// idealloc is the most the peak may be, as a multiple of the max-load
	// bound, on each idealloc instance (TestIdealloc).
	idealloc float64
	// frames is the most the pooled bytes may be, as a multiple of the
	// exact lower bound, on each frame (TestFrames).
	frames float64
}{
	{name: "firstfit", new: firstfit.New, idealloc: 1.035, frames: 1.05}, // the default strategy
	{name: "bestfit", new: bestfit.New, idealloc: 1.035, frames: 1.05},
}

// dataFiles lists the test data's files of the kinds (the repository's,
// then the held-out set's).
func dataFiles(tb testing.TB, kinds ...datadir.Kind) []datadir.File {
	var files []datadir.File
	for _, k := range kinds {
		files = append(files, datadir.Files(tb, k)...)
	}
	return files
}

// tooBig reports whether placing file takes too long for -short (over a
// second: the iopddl S_1 and Y_1 files) or for the race detector, which
// slows placement about tenfold (the larger SOMAS traces too).
func tooBig(f datadir.File) bool {
	limit := int64(-1)
	switch {
	case raceEnabled:
		limit = 100 << 10
	case testing.Short():
		limit = 500 << 10
	}
	fi, err := os.Stat(f.Path)
	return limit >= 0 && err == nil && fi.Size() > limit
}

// TestIdealloc holds each strategy to its idealloc target (within 3.5% of
// the max-load bound) on the idealloc instances.
func TestIdealloc(t *testing.T) {
	files := dataFiles(t, datadir.Traces)
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			for _, file := range files {
				t.Run(file.Test(), func(t *testing.T) {
					if tooBig(file) {
						t.Skip("large instance: skipped with -short and -race")
					}
					p := greedy.ReadCSV(t, file.Path)
					sol, err := s.new().Place(p)
					if err != nil {
						t.Fatal(err)
					}
					if err := planner.CheckSolution(p, sol); err != nil {
						t.Fatal(err)
					}
					lb := greedy.MaxLoad(p.Items)
					r := float64(sol.Peak()) / float64(lb)
					t.Logf("%s: peak %d, max load %d, ratio %.4f", file.Test(), sol.Peak(), lb, r)
					if r > s.idealloc {
						t.Errorf("peak %d is %.4f × the max load %d, want at most %g", sol.Peak(), r, lb, s.idealloc)
					}
				})
			}
		})
	}
}

// TestPerfect reports how far each strategy is from the known optimum (the
// capacity in the file name); greedy placement has no target there.
func TestPerfect(t *testing.T) {
	files := dataFiles(t, datadir.Perfect)
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			for _, file := range files {
				p := greedy.ReadCSV(t, file.Path)
				sol, err := s.new().Place(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := planner.CheckSolution(p, sol); err != nil {
					t.Fatal(err)
				}
				var opt uint64
				fmt.Sscanf(strings.SplitN(file.Name, ".", 2)[1], "%d", &opt)
				if opt == 0 || opt != greedy.MaxLoad(p.Items) {
					t.Errorf("%s: optimum %d from the name, max load %d", file.Test(), opt, greedy.MaxLoad(p.Items))
					continue
				}
				t.Logf("%s: peak %d = %.4f × optimum", file.Test(), sol.Peak(), float64(sol.Peak())/float64(opt))
			}
		})
	}
}

var sink uint64

// BenchmarkIdealloc places each idealloc and perfect instance with each
// strategy and reports the peak above the max-load bound, in percent:
//
//	go test -run '^$' -bench 'Idealloc/strategy=firstfit/file=S_1' ./strategies/internal/greedy
func BenchmarkIdealloc(b *testing.B) {
	files := dataFiles(b, datadir.Traces, datadir.Perfect)
	for _, s := range strategies {
		b.Run("strategy="+s.name, func(b *testing.B) {
			for _, file := range files {
				p := greedy.ReadCSV(b, file.Path)
				lb := greedy.MaxLoad(p.Items)
				b.Run("file="+file.Test(), func(b *testing.B) {
					b.ReportAllocs()
					st := s.new()
					var peak uint64
					for b.Loop() {
						sol, err := st.Place(p)
						if err != nil {
							b.Fatal(err)
						}
						peak = sol.Peak()
					}
					sink += peak
					b.ReportMetric(100*(float64(peak)/float64(lb)-1), "%over")
				})
			}
		})
	}
}
