package greedy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// Ranking only the items that are not alone (orderOf) places every item
// where the order's full permutation does, for each of the three orders
// and both fits, on random lifetimes mixing isolated and overlapping
// items (some trials with every item alone, where Place runs one order);
// and Place's answer equals the best of the full permutations'. It fails
// if orderOf maps the sub-problem's indexes back wrongly or leaves an
// item out.
func TestOrderOfAloneItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 8))
	orders := []Order{Size, Load, SizeClass}
	mixed := 0
	for trial := range 200 {
		n := 1 + rng.IntN(80)
		items := make([]planner.Item, n)
		allAlone := trial%5 == 0
		for i := range items {
			s := int64(rng.IntN(4 * n))
			l := int64(1 + rng.IntN(3))
			if allAlone {
				s, l = int64(3*i), int64(1+rng.IntN(3))
			} else if rng.IntN(4) == 0 {
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
			if allAlone && !e.allAlone() {
				t.Fatalf("trial %d: disjoint lifetimes, but not all alone", trial)
			}
			if e.alone != nil && !e.allAlone() {
				mixed++
			}
			var best *planner.Solution
			for _, o := range orders {
				ord := e.orderOf(o)
				s := slices.Sorted(slices.Values(ord))
				for k := range s {
					if s[k] != int32(k) {
						t.Fatalf("trial %d, order %s: orderOf is not a permutation: %v", trial, o.Name(), ord)
					}
				}
				if len(s) != n {
					t.Fatalf("trial %d, order %s: orderOf is not a permutation: %v", trial, o.Name(), ord)
				}
				got, err := e.run(ord)
				if err != nil {
					t.Fatal(err)
				}
				want, err := e.run(o.perm(p))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Pool, want.Pool) || !slices.Equal(got.Offset, want.Offset) || !slices.Equal(got.PoolSizes, want.PoolSizes) {
					t.Fatalf("trial %d, fit %v, order %s: placed %v %v, the full permutation %v %v", trial, fit, o.Name(), got.Pool, got.Offset, want.Pool, want.Offset)
				}
				if best == nil || want.Peak() < best.Peak() {
					best = want
				}
			}
			sol, err := Place("test", p, fit, orders...)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Peak() != best.Peak() && sol.Peak() > sizeSum(p) {
				t.Fatalf("trial %d: Place's peak %d, the orders' best %d", trial, sol.Peak(), best.Peak())
			}
		}
	}
	if mixed < 100 {
		t.Fatalf("only %d mixed problems: the test checks too little", mixed)
	}
}
