package verify_test

import (
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// planFrame plans a random frame under an ordering, with barriers.
func planFrame(t *testing.T, order planner.Ordering) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	c, err := planner.Compile(proptest.RandomFrame(5, 120))
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), Order: order})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatalf("the planner's own plan: %v", err)
	}
	return c, p
}

// Issue 19, Why 2(a): stats.lowerBound was never recomputed: any value
// between the execution bound and the pooled bytes passed. Now every stat
// is recomputed, under every ordering (a DAG plan may leave
// executionBound 0, as files from before it do).
func TestVerifyRecomputesStats(t *testing.T) {
	for _, order := range []planner.Ordering{planner.OrderDAG, planner.OrderExecution} {
		c, p := planFrame(t, order)
		st := p.Stats
		if st.ExecutionBound == 0 || st.ExecutionBound >= st.LowerBound || st.LowerBound+1 >= st.PooledBytes && order == planner.OrderDAG {
			t.Fatalf("%s: the frame leaves no room to tamper: %+v", order, st)
		}
		for _, tc := range []struct {
			name string
			set  func(*planner.Stats)
			want string
		}{
			{"lowerBound one byte less", func(s *planner.Stats) { s.LowerBound-- }, "lowerBound is"},
			{"lowerBound one byte more", func(s *planner.Stats) { s.LowerBound++ }, "lowerBound is"},
			{"lowerBound halfway to pooledBytes", func(s *planner.Stats) { s.LowerBound = (s.LowerBound + s.PooledBytes) / 2 }, "lowerBound is"},
			{"lowerBound at the execution bound", func(s *planner.Stats) { s.LowerBound = s.ExecutionBound }, "lowerBound is"},
			{"executionBound lower", func(s *planner.Stats) { s.ExecutionBound-- }, "executionBound is"},
			{"executionBound 1", func(s *planner.Stats) { s.ExecutionBound = 1 }, "executionBound is"},
			{"transientBytes", func(s *planner.Stats) { s.TransientBytes++ }, "transientBytes is"},
			{"pooledBytes", func(s *planner.Stats) { s.PooledBytes-- }, "pooledBytes is"},
			{"dedicatedBytes", func(s *planner.Stats) { s.DedicatedBytes++ }, "dedicatedBytes is"},
		} {
			q := *p
			tc.set(&q.Stats)
			if tc.name == "executionBound 1" && order != planner.OrderDAG {
				q.Stats.ExecutionBound = 0 // only a DAG plan may leave it unrecorded
			}
			err := verify.Plan(c, &q)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: Verify = %v; want an error containing %q", order, tc.name, err, tc.want)
			}
		}
	}
}
