package bestfit

// This file is kept identical, but for the package clause, in firstfit and
// bestfit (bestfit's TestGreedyInSync checks): the two strategies differ
// only in the fit rule they pass to place.

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// fitMode chooses an offset among the free gaps that fit an item: the
// lowest (first fit) or the lowest in the smallest gap (best fit).
type fitMode uint8

const (
	lowest fitMode = iota
	best
)

// An order is a permutation of the item indexes, a function of the problem
// alone (ties broken by index), so that the result is deterministic.
type order struct {
	name string
	perm func(p *planner.Problem) []int32
}

// orders are the item orders Place tries. Each is the best of the orders
// measured (see the package doc) on some of the data set, and none of the
// others is: size on the frames and the iopddl S_1 and SOMAS PanGu traces,
// load on the other ML traces, sizeclass on the perfect packings and
// ResNet-50.
var orders = []order{
	byItem("size", bySize),
	{"load", byLoad},
	byItem("sizeclass", bySizeClass),
}

// byItem makes an order from a comparison of items (0 on a tie).
func byItem(name string, c func(a, b *planner.Item) int) order {
	return order{name, func(p *planner.Problem) []int32 {
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
		for i, it := range p.Items {
			load[i] = it.Size
			for _, j := range p.Neighbors(i) {
				if s := load[i] + p.Items[j].Size; s >= load[i] {
					load[i] = s
				} else {
					load[i] = math.MaxUint64
				}
			}
		}
	}
	return sortedBy(len(p.Items), func(a, b int32) int {
		if c := cmp.Compare(load[b], load[a]); c != 0 {
			return c
		}
		return bySize(&p.Items[a], &p.Items[b])
	})
}

// place runs the greedy once per order and keeps the solution with the
// smallest total pool size, ties to the earlier order. The runs share only
// read-only data and run on up to GOMAXPROCS goroutines, joined before
// place returns; the choice does not depend on which finishes first.
func place(name string, p *planner.Problem, ords []order, mode fitMode) (*planner.Solution, error) {
	n := len(p.Items)
	if n == 0 {
		return &planner.Solution{Pool: []int32{}, Offset: []uint64{}}, nil
	}
	g := newGreedy(name, p, mode)
	sols := make([]*planner.Solution, len(ords))
	errs := make([]error, len(ords))
	run := func(k int) { sols[k], errs[k] = g.run(ords[k].perm(p)) }
	workers := min(len(ords), runtime.GOMAXPROCS(0))
	if workers <= 1 || n < 256 { // small problems: goroutines cost more than they save
		for k := range ords {
			run(k)
		}
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				for k := range next {
					run(k)
				}
			})
		}
		for k := range ords {
			next <- k
		}
		close(next)
		wg.Wait()
	}
	bestK := -1
	for k, s := range sols {
		if errs[k] != nil {
			return nil, errs[k]
		}
		if bestK < 0 || s.Peak() < sols[bestK].Peak() {
			bestK = k
		}
	}
	return sols[bestK], nil
}

// greedy holds what the runs of one problem share (read-only).
type greedy struct {
	name   string
	p      *planner.Problem
	mode   fitMode
	window interval.Range // the offsets a pool may use: [0, MaxPoolSize)
	// Interval problems: lifetimes as ranges of elementary time slots.
	life  []interval.Range
	slots int
}

func newGreedy(name string, p *planner.Problem, mode fitMode) *greedy {
	g := &greedy{name: name, p: p, mode: mode, window: interval.Everything}
	if p.MaxPoolSize != 0 {
		g.window.End = p.MaxPoolSize
	}
	if p.Intervals() {
		g.life, g.slots = compress(p)
	}
	return g
}

// compress maps the lifetimes of an interval problem's items to ranges of
// elementary time slots (the spans between consecutive distinct times).
// Lifetimes overlap exactly when their slot ranges do. O(n log n).
func compress(p *planner.Problem) (life []interval.Range, slots int) {
	ts := make([]int64, 0, 2*len(p.Items))
	for _, it := range p.Items {
		ts = append(ts, it.Start, it.End)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	life = make([]interval.Range, len(p.Items))
	for i, it := range p.Items {
		s, _ := slices.BinarySearch(ts, it.Start)
		e, _ := slices.BinarySearch(ts, it.End)
		life[i] = interval.Range{Start: uint64(s), End: uint64(e)}
	}
	return life, len(ts) - 1
}

// run places the items in order, each in the lowest-numbered pool where it
// fits (opening a pool when none does), at the offset the mode picks among
// the ranges of the already placed items that interfere with it.
func (g *greedy) run(ord []int32) (*planner.Solution, error) {
	p := g.p
	n := len(p.Items)
	sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	placed := make([]bool, n)
	var lines []*interval.Timeline // interval problems: one per pool
	var nb []poolRange             // graph problems: scratch
	var runs []interval.Range
	for _, i := range ord {
		it := &p.Items[i]
		var off uint64
		var k int
		var ok bool
		if p.Intervals() {
			off, k, ok = g.fitIntervals(&lines, i)
		} else {
			nb = nb[:0]
			for _, j := range p.Neighbors(int(i)) {
				if placed[j] {
					nb = append(nb, poolRange{sol.Pool[j], interval.Range{Start: sol.Offset[j], End: sol.Offset[j] + p.Items[j].Size}})
				}
			}
			off, k, ok = g.fitGraph(nb, &runs, it)
		}
		if !ok {
			// NewGraphProblem and NewIntervalProblem check that every item
			// fits in an empty pool, so this is a broken Problem.
			return nil, fmt.Errorf("%s: item %d (%d bytes, alignment %d) fits in no empty pool of at most %d bytes", g.name, i, it.Size, it.Alignment, g.window.End)
		}
		sol.Pool[i], sol.Offset[i] = int32(k), off
		placed[i] = true
		if k == len(sol.PoolSizes) {
			sol.PoolSizes = append(sol.PoolSizes, 0)
		}
		sol.PoolSizes[k] = max(sol.PoolSizes[k], off+it.Size)
	}
	return sol, nil
}

// fitIntervals places interval item i in the first pool with room during
// its lifetime, opening a pool when none has.
func (g *greedy) fitIntervals(lines *[]*interval.Timeline, i int32) (off uint64, k int, ok bool) {
	it := &g.p.Items[i]
	life := g.life[i]
	for k = 0; ; k++ {
		if k == len(*lines) {
			*lines = append(*lines, interval.NewTimeline(g.slots))
		}
		tl := (*lines)[k]
		if g.mode == lowest {
			off, ok = tl.LowestFit(life, it.Size, it.Alignment, g.window)
		} else {
			off, ok = tl.BestFit(life, it.Size, it.Alignment, g.window)
		}
		if ok {
			tl.Insert(life, interval.Range{Start: off, End: off + it.Size})
			return off, k, true
		}
		if tl.Len() == 0 {
			return 0, 0, false
		}
	}
}

type poolRange struct {
	pool int32
	r    interval.Range
}

// fitGraph finds the first pool with room for it among the ranges nb of its
// placed neighbours, and the offset there. A pool that holds none of them
// (a new one included) takes it at offset 0.
func (g *greedy) fitGraph(nb []poolRange, runs *[]interval.Range, it *planner.Item) (uint64, int, bool) {
	slices.SortFunc(nb, func(a, b poolRange) int { return cmp.Compare(a.pool, b.pool) })
	lo := 0
	for k := 0; ; k++ {
		hi := lo
		for hi < len(nb) && int(nb[hi].pool) == k {
			hi++
		}
		rs := (*runs)[:0]
		for _, q := range nb[lo:hi] {
			rs = append(rs, q.r)
		}
		*runs = rs
		m := interval.Merge(rs)
		var off uint64
		var ok bool
		if g.mode == lowest {
			off, ok = m.LowestFit(it.Size, it.Alignment, g.window)
		} else {
			off, ok = m.BestFit(it.Size, it.Alignment, g.window)
		}
		if ok || lo == hi {
			return off, k, ok
		}
		lo = hi
	}
}
