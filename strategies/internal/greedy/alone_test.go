package greedy

import (
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// Items that overlap no other are placed without the Timeline where the
// Timeline would place them, by first fit and best fit: random lifetimes
// with isolated items among overlapping ones (touching ends included:
// [a, b) and [b, c) do not overlap), random alignments and, in some
// trials, a pool cap.
func TestAloneItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	alone := 0
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		items := make([]planner.Item, n)
		for i := range items {
			s := int64(rng.IntN(4 * n))
			l := int64(1 + rng.IntN(3))
			if rng.IntN(4) == 0 {
				l = int64(1 + rng.IntN(n))
			}
			items[i] = planner.Item{Size: uint64(1 + rng.IntN(1000)), Alignment: 1 << rng.IntN(6), Start: s, End: s + l}
		}
		var maxPool uint64
		if trial%3 == 0 {
			maxPool = 2048
		}
		p, err := planner.NewIntervalProblem(items, maxPool)
		if err != nil {
			t.Fatal(err)
		}
		for _, fit := range []Fit{FirstFit, BestFit} {
			e := newEngine("test", p, fit)
			// Pairwise: the items alone.
			for i := range items {
				want := true
				for j := range items {
					if j != i && items[i].Start < items[j].End && items[j].Start < items[i].End {
						want = false
					}
				}
				if got := e.alone != nil && e.alone[i]; got != want {
					t.Fatalf("trial %d: item %d %v alone %v, want %v", trial, i, items[i], got, want)
				}
				if want {
					alone++
				}
			}
			ord := rng.Perm(n)
			o := make([]int32, n)
			for i, x := range ord {
				o[i] = int32(x)
			}
			got, err := e.run(o)
			if err != nil {
				t.Fatal(err)
			}
			e.alone = nil
			want, err := e.run(o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if got.Pool[i] != want.Pool[i] || got.Offset[i] != want.Offset[i] {
					t.Fatalf("trial %d, fit %v: item %d at pool %d offset %d alone, pool %d offset %d through the Timeline", trial, fit, i, got.Pool[i], got.Offset[i], want.Pool[i], want.Offset[i])
				}
			}
			if len(got.PoolSizes) != len(want.PoolSizes) {
				t.Fatalf("trial %d: %d pools, want %d", trial, len(got.PoolSizes), len(want.PoolSizes))
			}
		}
	}
	if alone < 100 {
		t.Fatalf("only %d items alone: the test checks too little", alone)
	}
}
