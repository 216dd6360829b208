package interval

import (
	"cmp"
	"iter"
	"slices"
)

// Placed is one item of an overlap sweep: its range within a group (a
// pool's bytes, or one timeline). Items of different groups never overlap.
type Placed struct {
	Group int
	Range Range
}

// Overlaps yields every pair of the n items whose ranges overlap within
// one group, once: (a, b) with a before b in (group, start, index) order.
// Pairs come in that order of b, and for one b in that order of a. at
// gives item i; it is called once per item, before the first pair. The
// sweep keeps the items whose range is still open at the current start,
// so it costs O(n log n + pairs + n) time and O(n) memory. Empty ranges
// overlap nothing.
//
// It is the one sweep behind every "which placed resources share a byte"
// question in the project (placement checks, Verify, alias barriers,
// serializations, the picture), so they agree by construction.
func Overlaps(n int, at func(i int) Placed) iter.Seq2[int, int] {
	return func(yield func(a, b int) bool) {
		items := make([]Placed, n)
		order := make([]int32, n)
		for i := range items {
			items[i] = at(i)
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(i, j int32) int {
			x, y := &items[i], &items[j]
			if x.Group != y.Group {
				return cmp.Compare(x.Group, y.Group)
			}
			if x.Range.Start != y.Range.Start {
				return cmp.Compare(x.Range.Start, y.Range.Start)
			}
			return cmp.Compare(i, j)
		})
		var active []int32 // items of the current group still open
		for k, i := range order {
			cur := &items[i]
			if k > 0 && items[order[k-1]].Group != cur.Group {
				active = active[:0]
			}
			if cur.Range.Empty() {
				continue
			}
			w := 0
			for _, j := range active {
				if items[j].Range.End <= cur.Range.Start {
					continue
				}
				active[w] = j
				w++
				if !yield(int(j), int(i)) {
					return
				}
			}
			active = append(active[:w], i)
		}
	}
}

// UnionCovers reports whether the union of rs includes every point of
// want (an empty want is covered). It sorts rs by Start.
func UnionCovers(rs []Range, want Range) bool {
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	at := want.Start
	for _, r := range rs {
		if at >= want.End || r.Start > at {
			break
		}
		at = max(at, r.End)
	}
	return at >= want.End
}
