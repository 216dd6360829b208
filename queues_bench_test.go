package aliasplan_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// BenchmarkFrameQueues is BenchmarkFrame's stage=all with and without
// queues (issue 24's target: planning with queues at most 1.2× the single
// queue): the held-out frames with proptest.AssignQueues(seed 1), and the
// async sample frame, each planned as is (queues=async) and with every
// command on graphics (queues=one). Compare with benchstat -col /queues.
func BenchmarkFrameQueues(b *testing.B) {
	type frame struct {
		name string
		g    *planner.Graph
	}
	var frames []frame
	for _, name := range []string{"deferred-1080p", "random-200", "random-1000"} {
		g := readGraph(b, frameFile(b, "heldout/"+name)).Graph
		proptest.AssignQueues(&g, 1)
		frames = append(frames, frame{name, &g})
	}
	frames = append(frames, frame{"async-1080p", &aliasplan.AsyncSampleFrame(1920, 1080).Graph})
	for _, f := range frames {
		one := &planner.Graph{Resources: f.g.Resources}
		for _, c := range f.g.Commands {
			c.Queue = planner.QueueGraphics
			one.Commands = append(one.Commands, c)
		}
		for _, v := range []struct {
			name string
			g    *planner.Graph
		}{{"one", one}, {"async", f.g}} {
			b.Run("frame="+f.name+"/queues="+v.name, func(b *testing.B) {
				pl := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
				g := &aliasplan.Graph{Graph: *v.g}
				plan, err := pl.Plan(g)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if _, err := pl.Plan(g); err != nil {
						b.Fatal(err)
					}
				}
				// CPU time per plan (user + system, all threads): steadier
				// than wall time on a shared machine.
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(len(plan.Submissions)), "submissions")
				b.ReportMetric(float64(plan.Semaphores), "semaphores")
			})
		}
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
