package greedy

import (
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// graphLoads gives each item its own size plus its neighbours' on
// problems made of cliques (consecutive members share their closed
// neighbourhood, the case it reuses the previous load for) with pairs
// that break the pattern: one pair of a clique not interfering, one
// outside item interfering with part of a clique, members of another
// clique interleaved.
func TestGraphLoadsCliques(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	reused := 0
	for trial := range 200 {
		n := 2 + rng.IntN(200)
		group := make([]int, n)
		for i := range group {
			group[i] = i * (1 + rng.IntN(4)) / n // runs of equal groups
			if rng.IntN(20) == 0 {
				group[i] = rng.IntN(4) // an interleaved member
			}
		}
		odd := map[[2]int]bool{}
		for range rng.IntN(4) {
			a, b := rng.IntN(n), rng.IntN(n)
			odd[[2]int{min(a, b), max(a, b)}] = true
		}
		interferes := func(i, j int) bool {
			return (group[i] == group[j]) != odd[[2]int{min(i, j), max(i, j)}]
		}
		items := make([]planner.Item, n)
		for i := range items {
			items[i] = planner.Item{Size: uint64(1 + rng.IntN(1<<20)), Alignment: 1, Start: 0, End: 1}
			if trial%10 == 0 {
				items[i].Size = 1<<63 + uint64(rng.IntN(8)) // totals overflow: the saturated sums
			}
		}
		p, err := planner.NewGraphProblem(items, 0, interferes)
		if err != nil {
			t.Fatal(err)
		}
		load := make([]uint64, n)
		graphLoads(p, load)
		for i := range n {
			want := items[i].Size
			for j := range n {
				if j != i && p.Interferes(i, j) {
					if want += items[j].Size; want < items[j].Size {
						want = ^uint64(0)
						break
					}
				}
			}
			if load[i] != want {
				t.Fatalf("trial %d, item %d of %d: load %d, want %d", trial, i, n, load[i], want)
			}
			if i > 0 && sameClosedRow(p.Row(i), p.Row(i-1), i) {
				reused++
			}
		}
	}
	if reused == 0 {
		t.Fatal("no item reused its predecessor's load")
	}
}
