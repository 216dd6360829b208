package bestfit_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
)

// dataDir is the shared data set (see its READMEs), or $ALIASPLAN_DATA;
// tests skip what is absent.
var dataDir = cmp.Or(os.Getenv("ALIASPLAN_DATA"), "/work/shared/data")

// readProblem reads a MiniMalloc CSV as an interval problem without a pool
// cap (an offset column is a reference solution and is ignored).
func readProblem(tb testing.TB, file string) *planner.Problem {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	bufs, err := planner.ReadIntervals(f, file)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := planner.NewIntervalProblem(planner.IntervalItems(bufs), 0)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// maxLoad is the largest total size live at one time: a lower bound of
// any interval placement. Computed here, independently of planner.
func maxLoad(items []planner.Item) uint64 {
	type event struct {
		t     int64
		delta int64 // ends (-1) sort before starts (+1) at equal times: half-open
		size  uint64
	}
	evs := make([]event, 0, 2*len(items))
	for _, it := range items {
		evs = append(evs, event{it.Start, 1, it.Size}, event{it.End, -1, it.Size})
	}
	slices.SortFunc(evs, func(a, b event) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	var live, peak uint64
	for _, e := range evs {
		if e.delta > 0 {
			live += e.size
			peak = max(peak, live)
		} else {
			live -= e.size
		}
	}
	return peak
}

// dataFiles lists the interval problems under dir/pattern, skipping the
// test when there are none.
func dataFiles(tb testing.TB, patterns ...string) []string {
	var files []string
	for _, pat := range patterns {
		m, _ := filepath.Glob(filepath.Join(dataDir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		tb.Skipf("no data under %s", dataDir)
	}
	return files
}

func short(file string) string {
	return strings.TrimSuffix(filepath.Base(file), ".csv")
}

// tooBig reports whether placing file takes too long for -short (over a
// second: the iopddl S_1 and Y_1 files) or for the race detector, which
// slows placement about tenfold (the larger SOMAS traces too).
func tooBig(file string) bool {
	limit := int64(-1)
	switch {
	case raceEnabled:
		limit = 100 << 10
	case testing.Short():
		limit = 500 << 10
	}
	fi, err := os.Stat(file)
	return limit >= 0 && err == nil && fi.Size() > limit
}

// TestIdealloc holds best fit to within 3.5% of the max-load bound on the
// idealloc instances.
func TestIdealloc(t *testing.T) {
	for _, file := range dataFiles(t, "idealloc/*/*.csv") {
		t.Run(short(file), func(t *testing.T) {
			if tooBig(file) {
				t.Skip("large instance: skipped with -short and -race")
			}
			p := readProblem(t, file)
			sol, err := bestfit.New().Place(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := planner.CheckSolution(p, sol); err != nil {
				t.Fatal(err)
			}
			lb := maxLoad(p.Items)
			r := float64(sol.Peak()) / float64(lb)
			t.Logf("%s: peak %d, max load %d, ratio %.4f", short(file), sol.Peak(), lb, r)
			if r > 1.035 {
				t.Errorf("peak %d is %.4f × the max load %d, want at most 1.035", sol.Peak(), r, lb)
			}
		})
	}
}

// TestPerfect reports how far best fit is from the known optimum (the
// capacity in the file name); greedy placement has no target there.
func TestPerfect(t *testing.T) {
	for _, file := range dataFiles(t, "perfect/*.csv") {
		p := readProblem(t, file)
		sol, err := bestfit.New().Place(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		var opt uint64
		fmt.Sscanf(strings.SplitN(short(file), ".", 2)[1], "%d", &opt)
		if opt == 0 || opt != maxLoad(p.Items) {
			t.Errorf("%s: optimum %d from the name, max load %d", short(file), opt, maxLoad(p.Items))
			continue
		}
		t.Logf("%s: peak %d = %.4f × optimum", short(file), sol.Peak(), float64(sol.Peak())/float64(opt))
	}
}

var sink uint64

// BenchmarkIdealloc places each idealloc and perfect instance and reports
// the peak above the max-load bound, in percent.
func BenchmarkIdealloc(b *testing.B) {
	files := dataFiles(b, "idealloc/*/*.csv", "perfect/*.csv")
	for _, file := range files {
		p := readProblem(b, file)
		lb := maxLoad(p.Items)
		b.Run("file="+short(file), func(b *testing.B) {
			b.ReportAllocs()
			s := bestfit.New()
			var peak uint64
			for b.Loop() {
				sol, err := s.Place(p)
				if err != nil {
					b.Fatal(err)
				}
				peak = sol.Peak()
			}
			sink += peak
			b.ReportMetric(100*(float64(peak)/float64(lb)-1), "%over")
		})
	}
}
