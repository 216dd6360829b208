package greedy

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// randomFrameProblems returns the graph problems of proptest.RandomFrame(1, n)
// as planner.Place groups them under a 4 GiB pool cap (the H200
// profile's maxMemoryAllocationSize, which the CLI applies): one per
// memory class, dense interference, pools that fill up.
func randomFrameProblems(tb testing.TB, n int) []*planner.Problem {
	tb.Helper()
	c, err := planner.Compile(proptest.RandomFrame(1, n))
	if err != nil {
		tb.Fatal(err)
	}
	var probs []*planner.Problem
	if _, err := planner.Place(c, planner.Options{Strategy: recorder{&probs}, MaxPoolSize: 4 << 30, DedicatedThreshold: planner.DefaultDedicatedThreshold}); err != nil {
		tb.Fatal(err)
	}
	var ps []*planner.Problem
	for _, p := range probs {
		if !p.Intervals() {
			ps = append(ps, p)
		}
	}
	return ps
}

// walkScaleSizes are BenchmarkFrameFirstFit's frame sizes (commands);
// ALIASPLAN_WALK_SCALE (a comma-separated list, e.g. 30000,60000)
// overrides them for the large runs of docs/performance.md.
var walkScaleSizes = func() []int {
	s := os.Getenv("ALIASPLAN_WALK_SCALE")
	if s == "" {
		return []int{3000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}()

// BenchmarkFrameFirstFit places the groups of large random frames with
// first fit and the strategies' orders, pools capped at 4 GiB: the walk
// over full pools that dominates planning such frames.
func BenchmarkFrameFirstFit(b *testing.B) {
	for _, n := range walkScaleSizes {
		for k, p := range randomFrameProblems(b, n) {
			b.Run(fmt.Sprintf("commands=%d/group=%d", n, k), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := Place("bench", p, FirstFit, Size, Load, SizeClass); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime is the process's CPU time (user and system, every thread): Place
// runs its orders on several goroutines, and the machine is shared, so
// CPU time says more than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
