package aliasplan

import (
	"errors"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// oneQueue returns a copy of g with every command on graphics.
func oneQueue(g *Graph) *Graph {
	h := &Graph{}
	h.Resources = append(h.Resources, g.Resources...)
	for _, c := range g.Commands {
		c.Queue = planner.QueueGraphics
		h.Commands = append(h.Commands, c)
	}
	return h
}

func TestAsyncSampleFrame(t *testing.T) {
	g := AsyncSampleFrame(1920, 1080)
	pl := New(Options{})
	plan, err := pl.Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Submissions) < 2 || plan.Semaphores == 0 {
		t.Fatalf("async frame: %d submissions, %d semaphores", len(plan.Submissions), plan.Semaphores)
	}
	for _, s := range plan.Submissions {
		names := []string{}
		for _, c := range s.Commands {
			names = append(names, g.Commands[c].Name)
		}
		t.Logf("%s wait %v signal %v: %v", s.Queue, s.Wait, s.Signal, names)
	}
	one, err := New(Options{}).Plan(oneQueue(g))
	if err != nil {
		t.Fatal(err)
	}
	if one.Submissions != nil {
		t.Fatalf("one queue: submissions %v", one.Submissions)
	}
	t.Logf("pooled bytes: async %d, one queue %d (%.3f×); barriers %d vs %d",
		plan.Stats.PooledBytes, one.Stats.PooledBytes, float64(plan.Stats.PooledBytes)/float64(one.Stats.PooledBytes), len(plan.Barriers), len(one.Barriers))
}

// TestQueuesRefuseOtherOrderings: execution and budget orderings order
// through pipeline barriers, which do not cross queues: refused with rule
// queue.
func TestQueuesRefuseOtherOrderings(t *testing.T) {
	g := AsyncSampleFrame(320, 180)
	for _, o := range []planner.Ordering{planner.OrderExecution, planner.OrderBudget} {
		opts := Options{Order: o}
		if o == planner.OrderBudget {
			opts.Budget = 1 << 40
		}
		_, err := New(opts).Plan(g)
		var be *planner.BarrierError
		if !errors.As(err, &be) || be.Rule != planner.RuleQueue || !strings.Contains(err.Error(), "only dag") {
			t.Errorf("%s ordering with queues: %v, want a %s error", o, err, planner.RuleQueue)
		}
	}
}
