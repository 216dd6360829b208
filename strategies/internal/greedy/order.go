package greedy

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/planner"
)

// An Order ranks a problem's items for placement. Its permutation is a
// function of the problem alone (ties broken by index), so that Place is
// deterministic.
type Order struct {
	name string
	perm func(p *planner.Problem) []int32 // a permutation of 0..len(p.Items)-1
}

// Name is the order's name as the measurements spell it.
func (o Order) Name() string { return o.name }

// The orders the strategies run. Each is the best of the six measured
// (../../firstfit/README.md) on some of the data set, and none of the
// others is: Size on the frames and the iopddl S_1 and SOMAS PanGu traces,
// Load on the other ML traces, SizeClass on the perfect packings and
// ResNet-50.
var (
	// Size: larger first; then earlier first use, then longer lifetime
	// (the "greedy by size" of TFLite and XLA).
	Size = byItem("size", bySize)
	// Load: the items of the busiest moment first (see byLoad), then as Size.
	Load = Order{"load", byLoad}
	// SizeClass: larger power-of-two size class first; within a class,
	// first use first, then larger.
	SizeClass = byItem("sizeclass", bySizeClass)
)

// byItem makes an order from a comparison of items (0 on a tie).
func byItem(name string, c func(a, b *planner.Item) int) Order {
	return Order{name, func(p *planner.Problem) []int32 {
		return sortedBy(len(p.Items), func(a, b int32) int { return c(&p.Items[a], &p.Items[b]) })
	}}
}

// sortedBy returns 0..n-1 sorted by c, ties by index.
func sortedBy(n int, c func(a, b int32) int) []int32 {
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if r := c(a, b); r != 0 {
			return r
		}
		return cmp.Compare(a, b)
	})
	return idx
}

// bySize: larger first; then earlier first use, then longer.
func bySize(a, b *planner.Item) int {
	if c := cmp.Compare(b.Size, a.Size); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Start, b.Start); c != 0 {
		return c
	}
	return cmp.Compare(b.End, a.End)
}

// byStart: first use first; then larger.
func byStart(a, b *planner.Item) int {
	if c := cmp.Compare(a.Start, b.Start); c != 0 {
		return c
	}
	return cmp.Compare(b.Size, a.Size)
}

// bySizeClass: larger power-of-two size class first; within a class, first
// use first.
func bySizeClass(a, b *planner.Item) int {
	if c := cmp.Compare(bits.Len64(b.Size), bits.Len64(a.Size)); c != 0 {
		return c
	}
	return byStart(a, b)
}

// byLoad orders items by the heaviest load they must coexist with, largest
// first, then as bySize: the items of the busiest moment are packed first,
// while their pool is empty. For an interval problem an item's load is the
// largest total size live at one time during its lifetime; for a graph
// problem, its size plus its neighbours' sizes (a bound on the heaviest set
// of pairwise interfering items that holds it). O(n log T) or O(n + edges).
func byLoad(p *planner.Problem) []int32 {
	load := make([]uint64, len(p.Items))
	if p.Intervals() {
		life, slots := compress(p)
		// Leaves: the total size live in each slot; inner nodes: maxima.
		tree := make([]uint64, 2*slots)
		for i, it := range p.Items {
			tree[slots+int(life[i].Start)] += it.Size
			if e := int(life[i].End); e < slots {
				tree[slots+e] -= it.Size // wraps, and the prefix sum wraps back
			}
		}
		for t := 1; t < slots; t++ {
			tree[slots+t] += tree[slots+t-1]
		}
		for v := slots - 1; v >= 1; v-- {
			tree[v] = max(tree[2*v], tree[2*v+1])
		}
		for i := range p.Items {
			var m uint64
			for l, r := slots+int(life[i].Start), slots+int(life[i].End); l < r; l, r = l>>1, r>>1 {
				if l&1 == 1 {
					m = max(m, tree[l])
					l++
				}
				if r&1 == 1 {
					r--
					m = max(m, tree[r])
				}
			}
			load[i] = m
		}
	} else {
		graphLoads(p, load)
	}
	return sortedBy(len(p.Items), func(a, b int32) int {
		if c := cmp.Compare(load[b], load[a]); c != 0 {
			return c
		}
		return bySize(&p.Items[a], &p.Items[b])
	})
}

// graphLoads sets load[i] to the total size of i and its neighbours,
// saturated. Render-graph problems are dense, so when the sizes' total
// fits in 64 bits, an item with more neighbours than non-neighbours sums
// the latter and subtracts: each row costs O(n/64 + min(degree, n −
// degree)).
func graphLoads(p *planner.Problem, load []uint64) {
	n := len(p.Items)
	total, overflow := uint64(0), false
	for i := range p.Items {
		s, c := bits.Add64(total, p.Items[i].Size, 0)
		total, overflow = s, overflow || c != 0
	}
	for i, it := range p.Items {
		row := p.Row(i)
		if i > 0 && sameClosedRow(row, p.Row(i-1), i) {
			// i and i−1 interfere and have the same other neighbours (a
			// clique's members, as in a pass writing many buffers): the
			// same closed neighbourhood, the same load. O(n/64).
			load[i] = load[i-1]
			continue
		}
		deg := 0
		for _, x := range row {
			deg += bits.OnesCount64(x)
		}
		if !overflow && 2*deg > n {
			// Σ over non-neighbours other than i, subtracted from the total.
			var rest uint64
			for w, x := range row {
				x = ^x
				if rem := n - w<<6; rem < 64 {
					x &= 1<<uint(rem) - 1
				}
				for ; x != 0; x &= x - 1 {
					if j := w<<6 + bits.TrailingZeros64(x); j != i {
						rest += p.Items[j].Size
					}
				}
			}
			load[i] = total - rest
			continue
		}
		l := it.Size
		for w, x := range row {
			for ; x != 0; x &= x - 1 {
				s, c := bits.Add64(l, p.Items[w<<6+bits.TrailingZeros64(x)].Size, 0)
				if c != 0 {
					s = math.MaxUint64
				}
				l = s
			}
		}
		load[i] = l
	}
}

// sameClosedRow reports whether row ∪ {i} equals prev ∪ {i−1}, for the
// interference rows of items i and i−1 (a row holds no bit for its own
// item): both then interfere and every other item is a neighbour of both
// or of neither. (The first test is a quick exit: the comparison implies it.)
func sameClosedRow(row, prev []uint64, i int) bool {
	a, b := i>>6, (i-1)>>6
	ma, mb := uint64(1)<<(uint(i)&63), uint64(1)<<(uint(i-1)&63)
	if row[b]&mb == 0 || prev[a]&ma == 0 {
		return false
	}
	for w, x := range row {
		y := prev[w]
		if w == a {
			x |= ma
		}
		if w == b {
			y |= mb
		}
		if x != y {
			return false
		}
	}
	return true
}
