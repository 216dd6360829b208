package planner

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// MaxLoad on both sides of radixEvents (the comparison sort and the
// radix sort of its events) against a reference: the load at every
// distinct start time, summed item by item. Negative and huge times
// included; it fails if the radix path loses an event's size or orders
// signed times wrongly.
func TestMaxLoadRadixEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 6))
	for _, n := range []int{10, radixEvents - 1, radixEvents, 3 * radixEvents} {
		for trial := range 3 {
			items := make([]Item, n)
			for i := range items {
				s := rng.Int64N(int64(4*n)) - int64(2*n)
				if trial == 2 {
					s = rng.Int64() >> 1
					if rng.IntN(2) == 0 {
						s = -s
					}
				}
				items[i] = Item{Size: 1 + rng.Uint64N(1000), Alignment: 1, Start: s, End: s + 1 + rng.Int64N(int64(n/4+1))}
			}
			// Reference: sort items by start; the load at a start time t is
			// the sum over items with Start <= t < End.
			ts := make([]int64, n)
			for i, it := range items {
				ts[i] = it.Start
			}
			slices.Sort(ts)
			ts = slices.Compact(ts)
			var want uint64
			if n <= 5000 {
				for _, t0 := range ts {
					var l uint64
					for _, it := range items {
						if it.Start <= t0 && t0 < it.End {
							l += it.Size
						}
					}
					want = max(want, l)
				}
			} else {
				// Too many pairs: compare with the comparison-sort path on the
				// same events instead.
				starts, ends := make([]event, n), make([]event, n)
				for i, it := range items {
					starts[i], ends[i] = event{it.Start, it.Size}, event{it.End, it.Size}
				}
				slices.SortFunc(starts, func(a, b event) int { return compareInt64(a.t, b.t) })
				slices.SortFunc(ends, func(a, b event) int { return compareInt64(a.t, b.t) })
				var l uint64
				j := 0
				for _, s := range starts {
					for ; j < n && ends[j].t <= s.t; j++ {
						l -= ends[j].size
					}
					l += s.size
					want = max(want, l)
				}
			}
			if got := MaxLoad(items); got != want {
				t.Fatalf("n=%d trial %d: MaxLoad %d, want %d", n, trial, got, want)
			}
		}
	}
}

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
