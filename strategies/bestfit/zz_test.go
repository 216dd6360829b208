package bestfit

import (
	"os"
	"testing"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

func TestZZ(t *testing.T) {
	f, _ := os.Open("/work/shared/data/idealloc/iopddl/Y_1.csv")
	bufs, _ := planner.ReadIntervals(f, "")
	p, _ := planner.NewIntervalProblem(planner.IntervalItems(bufs), 0)
	for _, o := range orders {
		interval.Stats = [4]int{}
		place("x", p, []order{o}, best)
		t.Log(o.name, interval.Stats)
	}
}

func BenchmarkZZ(b *testing.B) {
	f, _ := os.Open("/work/shared/data/idealloc/iopddl/Y_1.csv")
	bufs, _ := planner.ReadIntervals(f, "")
	p, _ := planner.NewIntervalProblem(planner.IntervalItems(bufs), 0)
	for b.Loop() {
		place("x", p, orders[:1], best)
	}
}
