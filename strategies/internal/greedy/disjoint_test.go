package greedy

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// BenchmarkDisjointScale places n buffers whose lifetimes never overlap
// (proptest.DisjointIntervals, the `solve` shape of issue 19): every
// buffer goes to offset 0, and each query meets an empty timeline.
// ALIASPLAN_DISJOINT_SCALE (a comma-separated list, e.g. 1000000)
// overrides the sizes.
func BenchmarkDisjointScale(b *testing.B) {
	for _, n := range envSizes("ALIASPLAN_DISJOINT_SCALE", []int{100000}) {
		p, err := planner.NewIntervalProblem(proptest.DisjointIntervals(1, n), 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/fit=first", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Place("bench", p, FirstFit, Size, Load, SizeClass); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// envSizes reads a comma-separated list of sizes from the environment
// variable name, or returns def.
func envSizes(name string, def []int) []int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}
