package planner

import (
	"math/rand/v2"
	"testing"
)

// GroupLowerBound, which builds no interference matrix from
// pairNetworkItems members up, gives the bound of the problem Place
// builds (the DAG network) and of GroupProblem's (the item-pair
// network), below and above that size; a tampered member list or a
// network without the DAG's order would differ.
func TestGroupLowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	sizes := map[bool]int{}
	for trial := range 12 {
		n := 20 + rng.IntN(80)
		if trial%3 == 0 {
			n = 1600 + rng.IntN(400) // about 1.5 transients per command: groups above pairNetworkItems
		}
		c, err := Compile(randomGraph(rng, n, 1.5))
		if err != nil {
			t.Fatal(err)
		}
		p, members := groupProblem(t, c, rng)
		sizes[len(members) >= pairNetworkItems]++
		got, err := c.GroupLowerBound(members, p.Items)
		if err != nil {
			t.Fatal(err)
		}
		gp, err := c.GroupProblem(members, p.Items, 0)
		if err != nil {
			t.Fatal(err)
		}
		if dag, pairs := LowerBound(p), LowerBound(gp); got != dag || got != pairs {
			t.Fatalf("trial %d (%d members): GroupLowerBound %d, the DAG network %d, the item-pair network %d", trial, len(members), got, dag, pairs)
		}
	}
	if sizes[true] == 0 || sizes[false] == 0 {
		t.Fatalf("groups below and above %d members: %v; both sides must be tested", pairNetworkItems, sizes)
	}
	if _, err := (&Compiled{}).GroupLowerBound([]ResourceID{0}, nil); err == nil {
		t.Fatal("a member list longer than the items: no error")
	}
}
