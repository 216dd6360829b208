package planner

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// bruteOverlap reports whether two interfering items of p share a byte
// in s, testing every pair.
func bruteOverlap(p *Problem, s *Solution) bool {
	for i := range p.Items {
		for j := range i {
			if s.Pool[i] == s.Pool[j] && s.Offset[i] < s.Offset[j]+p.Items[j].Size &&
				s.Offset[j] < s.Offset[i]+p.Items[i].Size && p.Interferes(i, j) {
				return true
			}
		}
	}
	return false
}

// withPoolSizes sets s.PoolSizes to the pools' exact extents.
func withPoolSizes(p *Problem, s *Solution, pools int) *Solution {
	s.PoolSizes = make([]uint64, pools)
	for i, it := range p.Items {
		s.PoolSizes[s.Pool[i]] = max(s.PoolSizes[s.Pool[i]], s.Offset[i]+it.Size)
	}
	return s
}

// checkAgainstBrute checks that CheckSolution rejects s exactly when two
// interfering items share a byte, and that the pair it names does.
func checkAgainstBrute(t *testing.T, what string, p *Problem, s *Solution) (rejected bool) {
	t.Helper()
	err := CheckSolution(p, s)
	var ov *OverlapError
	if err != nil && !errors.As(err, &ov) {
		if !bruteOverlap(p, s) {
			return false // a pool-size or bounds complaint, not this test's business
		}
		t.Fatalf("%s: CheckSolution = %v; want an overlap", what, err)
	}
	if want := bruteOverlap(p, s); (ov != nil) != want {
		t.Fatalf("%s: CheckSolution = %v; brute force finds an overlap: %v", what, err, want)
	}
	if ov != nil {
		a, b := ov.A, ov.B
		if a == b || !p.Interferes(a, b) || s.Pool[a] != s.Pool[b] ||
			s.Offset[a] >= s.Offset[b]+p.Items[b].Size || s.Offset[b] >= s.Offset[a]+p.Items[a].Size {
			t.Fatalf("%s: CheckSolution names items %d and %d, which do not overlap: %v", what, a, b, err)
		}
	}
	return ov != nil
}

// The interval sweep rejects a solution exactly when a pairwise check
// does: random solutions (offsets from a few values, so that many pairs
// share bytes), and valid stacks with one item moved onto another.
func TestCheckSolutionIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	rejected, accepted := 0, 0
	for trial := range 3000 {
		n := 1 + rng.IntN(24)
		items := make([]Item, n)
		for i := range items {
			st := int64(rng.IntN(3 * n))
			items[i] = Item{Size: uint64(1+rng.IntN(4)) * 4, Alignment: 4, Start: st, End: st + 1 + int64(rng.IntN(n))}
		}
		p, err := NewIntervalProblem(items, 0)
		if err != nil {
			t.Fatal(err)
		}
		pools := 1 + rng.IntN(2)
		s := &Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
		for i := range items {
			s.Pool[i], s.Offset[i] = int32(rng.IntN(pools)), 4*uint64(rng.IntN(2+n/2))
		}
		// No empty pool (CheckSolution rejects one before any overlap).
		if n < pools {
			pools = n
		}
		for k := 0; k < pools; k++ {
			s.Pool[k] = int32(k)
		}
		for i := range s.Pool {
			s.Pool[i] = min(s.Pool[i], int32(pools-1))
		}
		if checkAgainstBrute(t, fmt.Sprintf("trial %d, random offsets", trial), p, withPoolSizes(p, s, pools)) {
			rejected++
		} else {
			accepted++
		}
		// Tampered: a stack without sharing, then one item moved to
		// another's offset (or just above it).
		s = NoAliasing(p)
		i, j := rng.IntN(n), rng.IntN(n)
		s.Offset[i] = s.Offset[j] + 4*uint64(rng.IntN(2))
		if checkAgainstBrute(t, fmt.Sprintf("trial %d, item %d moved onto %d", trial, i, j), p, withPoolSizes(p, s, len(s.PoolSizes))) {
			rejected++
		} else {
			accepted++
		}
	}
	if rejected < 1000 || accepted < 1000 {
		t.Fatalf("%d solutions rejected, %d accepted: the cases do not exercise both", rejected, accepted)
	}
}

// Disjoint lifetimes: every item at offset 0 is right, any two items
// moved to overlap in time and bytes are caught, whichever two.
func TestCheckSolutionDisjointLifetimes(t *testing.T) {
	const n = 2000
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{Size: 256 * uint64(1+i%17), Alignment: 256, Start: int64(2 * i), End: int64(2*i + 1)}
	}
	p, _ := NewIntervalProblem(items, 0)
	s := withPoolSizes(p, &Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}, 1)
	if err := CheckSolution(p, s); err != nil {
		t.Fatalf("all at offset 0, lifetimes disjoint: %v", err)
	}
	rng := rand.New(rand.NewPCG(19, 3))
	for range 200 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		q := *p
		q.Items = append([]Item(nil), items...)
		q.Items[i].End = q.Items[j].End + 1 // i now lives through j's lifetime
		if q.Items[i].Start > q.Items[j].Start {
			q.Items[i].Start = q.Items[j].Start
		}
		var ov *OverlapError
		if err := CheckSolution(&q, s); !errors.As(err, &ov) {
			t.Fatalf("item %d stretched over item %d: CheckSolution = %v; want an overlap", i, j, err)
		}
	}
}

// BenchmarkCheckSolution checks placements in which every pair shares
// bytes: n buffers with disjoint lifetimes, all at offset 0 (the solve
// shape of issue 19). The pairwise sweep cost O(n²) here.
func BenchmarkCheckSolution(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			items := make([]Item, n)
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			for i := range items {
				items[i] = Item{Size: 256 * uint64(1+rng.IntN(16384)), Alignment: 256, Start: int64(2 * i), End: int64(2*i + 1)}
			}
			p, _ := NewIntervalProblem(items, 0)
			s := withPoolSizes(p, &Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}, 1)
			b.ReportAllocs()
			for b.Loop() {
				if err := CheckSolution(p, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
