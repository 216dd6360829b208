package greedy

import (
	"cmp"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
)

// candidates are the orders measured in ../../firstfit/README.md: the
// three the strategies run and three others.
var candidates = []Order{
	Size, Load, SizeClass,
	byItem("length", byLength),
	byItem("area", byArea),
	byItem("start", byStart),
}

// byLength: longer lifetime first; then as bySize.
func byLength(a, b *planner.Item) int {
	if c := cmp.Compare(length(b), length(a)); c != 0 {
		return c
	}
	return bySize(a, b)
}

// byArea: larger size × lifetime length first (compared exactly in 128
// bits); then as bySize.
func byArea(a, b *planner.Item) int {
	ah, al := bits.Mul64(a.Size, length(a))
	bh, bl := bits.Mul64(b.Size, length(b))
	if c := cmp.Compare(bh, ah); c != 0 {
		return c
	}
	if c := cmp.Compare(bl, al); c != 0 {
		return c
	}
	return bySize(a, b)
}

func length(it *planner.Item) uint64 { return uint64(it.End) - uint64(it.Start) }

// BenchmarkOrders runs every candidate order alone, with both fit rules,
// on every interval problem and frame of the test data (internal/datadir),
// reporting the peak
// (pooled bytes) above the lower bound in percent: the measurements behind
// the choice of orders (../../firstfit/README.md).
//
//	go test -run '^$' -bench Orders -benchtime 1x ./strategies/internal/greedy
func BenchmarkOrders(b *testing.B) {
	var files []datadir.File
	for _, k := range []datadir.Kind{datadir.Traces, datadir.Perfect, datadir.Frames} {
		files = append(files, datadir.Files(b, k)...)
	}
	for _, f := range files {
		file, name := f.Path, f.Test()
		var probs []*planner.Problem
		var bound uint64
		if strings.HasSuffix(file, ".json") {
			probs, bound = frameProblems(b, file)
		} else {
			p := readCSV(b, file)
			probs, bound = []*planner.Problem{p}, maxLoad(p.Items)
		}
		for _, fit := range []Fit{FirstFit, BestFit} {
			for _, o := range candidates {
				rule := map[Fit]string{FirstFit: "first", BestFit: "best"}[fit]
				b.Run("file="+name+"/fit="+rule+"/order="+o.Name(), func(b *testing.B) {
					var peak uint64
					for b.Loop() {
						peak = 0
						for _, p := range probs {
							s, err := Place("x", p, fit, o)
							if err != nil {
								b.Fatal(err)
							}
							peak += s.Peak()
						}
					}
					b.ReportMetric(100*(float64(peak)/float64(bound)-1), "%over")
				})
			}
		}
	}
}

// readCSV reads a MiniMalloc CSV as an interval problem without a pool cap
// (an offset column is a reference solution and is ignored).
func readCSV(tb testing.TB, file string) *planner.Problem {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	bufs, err := format.ReadIntervals(f, file)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := planner.NewIntervalProblem(format.IntervalItems(bufs), 0)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// recorder is a strategy that keeps the problems Place hands it.
type recorder struct{ probs *[]*planner.Problem }

func (recorder) Name() string { return "recorder" }

func (r recorder) Place(p *planner.Problem) (*planner.Solution, error) {
	*r.probs = append(*r.probs, p)
	return planner.NoAliasing(p), nil
}

// frameProblems returns the pool groups' problems of a frame and the sum
// of their lower bounds.
func frameProblems(tb testing.TB, file string) ([]*planner.Problem, uint64) {
	c := compileFrame(tb, file)
	var probs []*planner.Problem
	plan, err := planner.Place(c, planner.Options{Strategy: recorder{&probs}, DedicatedThreshold: planner.DefaultDedicatedThreshold})
	if err != nil {
		tb.Fatal(err)
	}
	return probs, plan.Stats.LowerBound
}

// compileFrame reads and compiles a frame (a render graph) of the data set.
func compileFrame(tb testing.TB, file string) *planner.Compiled {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, file)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := planner.Compile(g)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// maxLoad is the largest total size live at one time, the lower bound of
// an interval problem (computed here, independently of planner).
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
