package firstfit

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

// New returns the first-fit strategy.
func New() planner.Strategy { return strategy{orders: orders, mode: lowest} }

type strategy struct {
	orders []order
	mode   fitMode
}

func (strategy) Name() string { return "firstfit" }

// Place runs the greedy once per item order (see the package doc) and
// keeps the solution with the smallest total pool size; ties go to the
// earlier order. The runs share nothing and run on up to GOMAXPROCS
// goroutines, joined before Place returns, so the result does not depend
// on scheduling.
func (s strategy) Place(p *planner.Problem) (*planner.Solution, error) {
	return place(p, s.orders, s.mode)
}

// fitMode chooses an offset among the gaps that fit: the lowest (first
// fit) or the smallest gap's (best fit).
type fitMode uint8

const (
	lowest fitMode = iota
	best
)

// An order sorts the item indexes; it must be a total order (ties broken
// by index) so that the result is deterministic.
type order struct {
	name string
	less func(a, b *planner.Item) int // 0 on a tie; the index breaks it
}

func place(p *planner.Problem, ords []order, mode fitMode) (*planner.Solution, error) {
	n := len(p.Items)
	if n == 0 {
		return &planner.Solution{Pool: []int32{}, Offset: []uint64{}}, nil
	}
	g := newGreedy(p, mode)
	sols := make([]*planner.Solution, len(ords))
	errs := make([]error, len(ords))
	run := func(k int) { sols[k], errs[k] = g.run(sortedBy(p, ords[k])) }
	workers := min(len(ords), runtime.GOMAXPROCS(0))
	if workers <= 1 || n < 64 {
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

func sortedBy(p *planner.Problem, o order) []int32 {
	idx := make([]int32, len(p.Items))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := o.less(&p.Items[a], &p.Items[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return idx
}

// The orders Place tries; see the package doc for why these.
var orders = []order{
	{"size", bySize},
	{"area", byArea},
	{"length", byLength},
	{"start", byStart},
}

// bySize: larger first; then earlier start, then longer.
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

// byLength: longer lifetime first; then larger.
func byLength(a, b *planner.Item) int {
	if c := cmp.Compare(length(b), length(a)); c != 0 {
		return c
	}
	return bySize(a, b)
}

// byArea: larger size × lifetime first (compared exactly in 128 bits);
// then larger.
func byArea(a, b *planner.Item) int {
	ah, al := bits.Mul64(a.Size, length(a))
	bh, bl := bits.Mul64(b.Size, length(b))
	if c := cmp.Compare(bh, ah); c != 0 {
		return c
	}
	if c := cmp.Compare(bl, al); c != 0 {
		return c
	}
	return bySize(a, b)
}

func length(it *planner.Item) uint64 { return uint64(it.End) - uint64(it.Start) }

// greedy holds what every run of one problem shares.
type greedy struct {
	p      *planner.Problem
	mode   fitMode
	window interval.Range // offsets a pool may use
	// Interval problems: lifetimes as ranges of elementary time slots.
	life  []interval.Range
	slots int
}

func newGreedy(p *planner.Problem, mode fitMode) *greedy {
	g := &greedy{p: p, mode: mode, window: interval.Range{Start: 0, End: math.MaxUint64}}
	if p.MaxPoolSize != 0 {
		g.window.End = p.MaxPoolSize
	}
	if p.Intervals() {
		// Compress times to ranks: item lifetimes overlap exactly when
		// their slot ranges do.
		ts := make([]int64, 0, 2*len(p.Items))
		for _, it := range p.Items {
			ts = append(ts, it.Start, it.End)
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		g.slots = len(ts) - 1
		g.life = make([]interval.Range, len(p.Items))
		for i, it := range p.Items {
			s, _ := slices.BinarySearch(ts, it.Start)
			e, _ := slices.BinarySearch(ts, it.End)
			g.life[i] = interval.Range{Start: uint64(s), End: uint64(e)}
		}
	}
	return g
}

// run places the items in the given order, each in the lowest-numbered
// pool where it fits, at the offset the mode picks.
func (g *greedy) run(ord []int32) (*planner.Solution, error) {
	p := g.p
	n := len(p.Items)
	sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	placed := make([]bool, n)
	var lines []*interval.Timeline
	var scratch []poolRange
	for _, i := range ord {
		it := &p.Items[i]
		var off uint64
		var k int
		var ok bool
		if p.Intervals() {
			for k = 0; ; k++ {
				if k == len(lines) {
					lines = append(lines, interval.NewTimeline(g.slots))
				}
				if g.mode == lowest {
					off, ok = lines[k].LowestFit(g.life[i], it.Size, it.Alignment, g.window)
				} else {
					off, ok = lines[k].BestFit(g.life[i], it.Size, it.Alignment, g.window)
				}
				if ok || k == len(lines)-1 && lines[k].Len() == 0 {
					break
				}
			}
			if ok {
				lines[k].Insert(g.life[i], interval.Range{Start: off, End: off + it.Size})
			}
		} else {
			scratch = scratch[:0]
			for _, j := range p.Neighbors(int(i)) {
				if placed[j] {
					scratch = append(scratch, poolRange{sol.Pool[j], interval.Range{Start: sol.Offset[j], End: sol.Offset[j] + p.Items[j].Size}})
				}
			}
			off, k, ok = g.fitGraph(scratch, it)
		}
		if !ok {
			return nil, fmt.Errorf("firstfit: item %d (%d bytes, alignment %d) fits in no pool of at most %d bytes", i, it.Size, it.Alignment, p.MaxPoolSize)
		}
		sol.Pool[i], sol.Offset[i] = int32(k), off
		placed[i] = true
		end := off + it.Size
		if k == len(sol.PoolSizes) {
			sol.PoolSizes = append(sol.PoolSizes, 0)
		}
		sol.PoolSizes[k] = max(sol.PoolSizes[k], end)
	}
	return sol, nil
}

type poolRange struct {
	pool int32
	r    interval.Range
}

// fitGraph finds the first pool, and the offset in it, where it fits among
// the ranges of its placed neighbours. A pool none of them is in takes it
// at offset 0.
func (g *greedy) fitGraph(nb []poolRange, it *planner.Item) (uint64, int, bool) {
	slices.SortFunc(nb, func(a, b poolRange) int {
		if c := cmp.Compare(a.pool, b.pool); c != 0 {
			return c
		}
		return cmp.Compare(a.r.Start, b.r.Start)
	})
	rs := make([]interval.Range, len(nb))
	for k := 0; ; k++ {
		lo, hi := 0, 0
		for lo < len(nb) && int(nb[lo].pool) < k {
			lo++
		}
		for hi = lo; hi < len(nb) && int(nb[hi].pool) == k; hi++ {
		}
		if lo == hi {
			off, ok := interval.AlignUp(g.window.Start, it.Alignment)
			return off, k, ok && it.Size <= g.window.End-off
		}
		runs := rs[:0]
		for _, q := range nb[lo:hi] {
			runs = append(runs, q.r)
		}
		m := interval.Merge(runs)
		var off uint64
		var ok bool
		if g.mode == lowest {
			off, ok = m.LowestFit(it.Size, it.Alignment, g.window)
		} else {
			off, ok = m.BestFit(it.Size, it.Alignment, g.window)
		}
		if ok {
			return off, k, true
		}
	}
}
