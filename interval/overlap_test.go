package interval

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOverlapsAgainstPairs compares the sweep with every pair checked
// directly, on random placements with shared starts, empty ranges and
// several groups, and checks the documented order of the pairs.
func TestOverlapsAgainstPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := rng.IntN(40)
		items := make([]Placed, n)
		for i := range items {
			s := uint64(rng.IntN(64))
			items[i] = Placed{Group: rng.IntN(3), Range: Range{Start: s, End: s + uint64(rng.IntN(20))}}
		}
		type pair struct{ a, b int }
		var got []pair
		for a, b := range Overlaps(n, func(i int) Placed { return items[i] }) {
			got = append(got, pair{a, b})
		}
		before := func(a, b int) bool {
			x, y := items[a], items[b]
			if x.Group != y.Group {
				return x.Group < y.Group
			}
			if x.Range.Start != y.Range.Start {
				return x.Range.Start < y.Range.Start
			}
			return a < b
		}
		var want []pair
		for a := range n {
			for b := range n {
				if a != b && before(a, b) && items[a].Group == items[b].Group && items[a].Range.Overlaps(items[b].Range) {
					want = append(want, pair{a, b})
				}
			}
		}
		key := func(p pair) [2]int { return [2]int{p.a, p.b} }
		gs, ws := make([][2]int, len(got)), make([][2]int, len(want))
		for i := range got {
			gs[i] = key(got[i])
		}
		for i := range want {
			ws[i] = key(want[i])
		}
		sortPairs := func(s [][2]int) {
			slices.SortFunc(s, func(x, y [2]int) int {
				if x[0] != y[0] {
					return x[0] - y[0]
				}
				return x[1] - y[1]
			})
		}
		for k := 1; k < len(got); k++ {
			if p, q := got[k-1], got[k]; p.b != q.b && before(q.b, p.b) {
				t.Fatalf("trial %d: pairs not in order of b: %v then %v", trial, p, q)
			}
		}
		sortPairs(gs)
		sortPairs(ws)
		if !slices.Equal(gs, ws) {
			t.Fatalf("trial %d: sweep %v, all pairs %v (items %v)", trial, gs, ws, items)
		}
	}
}

// TestOverlapsStops checks that breaking out of the loop stops the sweep.
func TestOverlapsStops(t *testing.T) {
	items := []Placed{{0, Range{0, 10}}, {0, Range{1, 10}}, {0, Range{2, 10}}}
	count := 0
	for range Overlaps(len(items), func(i int) Placed { return items[i] }) {
		count++
		break
	}
	if count != 1 {
		t.Fatalf("yielded %d pairs after break, want 1", count)
	}
}

// TestUnionCovers checks the union test against a point-by-point check.
func TestUnionCovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		var rs []Range
		for range rng.IntN(5) {
			s := uint64(rng.IntN(30))
			rs = append(rs, Range{Start: s, End: s + uint64(rng.IntN(10))})
		}
		s := uint64(rng.IntN(30))
		want := Range{Start: s, End: s + uint64(rng.IntN(10))}
		exp := true
		for x := want.Start; x < want.End; x++ {
			in := false
			for _, r := range rs {
				in = in || r.Contains(x)
			}
			exp = exp && in
		}
		if got := UnionCovers(slices.Clone(rs), want); got != exp {
			t.Fatalf("trial %d: UnionCovers(%v, %v) = %v, want %v", trial, rs, want, got, exp)
		}
	}
}
