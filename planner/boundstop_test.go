package planner

import (
	"math/rand/v2"
	"testing"
)

// LowerBoundUntil gives LowerBound's answer when stop never says so, and
// stops (false) when it does, on both networks; the count of stop calls
// shows it is asked during the work, not only at the end.
func TestLowerBoundUntil(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 9))
	c, err := Compile(randomGraph(rng, 1500, 1.5))
	if err != nil {
		t.Fatal(err)
	}
	dag, _ := groupProblem(t, c, rng)
	for _, tc := range []struct {
		name string
		p    *Problem
	}{{"dag", dag}, {"pairs", withoutOrder(dag)}} {
		want := LowerBound(tc.p)
		calls := 0
		got, ok := LowerBoundUntil(tc.p, func() bool { calls++; return false })
		if !ok || got != want {
			t.Fatalf("%s: never stopped: %d, %v; want %d", tc.name, got, ok, want)
		}
		if calls < 3 {
			t.Fatalf("%s: stop asked %d times over %d items", tc.name, calls, len(tc.p.Items))
		}
		for _, at := range []int{1, calls / 2, calls} {
			k := 0
			if _, ok := LowerBoundUntil(tc.p, func() bool { k++; return k >= at }); ok || k != at {
				t.Fatalf("%s: stop true at call %d: ok %v after %d calls", tc.name, at, ok, k)
			}
		}
	}
}
