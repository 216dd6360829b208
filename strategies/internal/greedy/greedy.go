package greedy

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"

	"github.com/aliasplan/aliasplan/internal/radix"
	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// Fit is the rule that picks an item's offset among the free gaps that
// hold it.
type Fit uint8

const (
	// FirstFit takes the lowest free aligned offset.
	FirstFit Fit = iota
	// BestFit takes the lowest aligned offset of the smallest free gap
	// that holds the item (ties: the lowest gap). The space above the
	// highest interfering item counts as an unbounded gap, taken only when
	// no other gap holds the item, so a pool grows only when it must.
	BestFit
)

// parallelItems is the problem size from which Place runs its orders on
// several goroutines: below it, starting them costs more than it saves.
const parallelItems = 256

// Place places p's items with the fit rule once per order and returns the
// solution with the smallest total pool size (ties: the earlier order), or
// planner.NoAliasing's when that costs strictly less. name prefixes its
// errors (the strategy's name). It panics when orders is empty. Cost and
// concurrency: see the package doc.
func Place(name string, p *planner.Problem, fit Fit, orders ...Order) (*planner.Solution, error) {
	if len(orders) == 0 {
		panic("greedy: Place without an order")
	}
	n := len(p.Items)
	if n == 0 {
		return &planner.Solution{Pool: []int32{}, Offset: []uint64{}}, nil
	}
	e := newEngine(name, p, fit)
	if e.allAlone() {
		orders = orders[:1] // every order gives the same solution (alone_orders.go)
	}
	sols := make([]*planner.Solution, len(orders))
	errs := make([]error, len(orders))
	run := func(k int) { sols[k], errs[k] = e.run(e.orderOf(orders[k])) }
	workers := min(len(orders), runtime.GOMAXPROCS(0))
	if workers <= 1 || n < parallelItems {
		for k := range orders {
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
		for k := range orders {
			next <- k
		}
		close(next)
		wg.Wait()
	}
	best, bestPeak := (*planner.Solution)(nil), uint64(0)
	for k, s := range sols {
		if errs[k] != nil {
			return nil, errs[k]
		}
		if z := s.Peak(); best == nil || z < bestPeak {
			best, bestPeak = s, z
		}
	}
	// Aliasing must never cost more than not aliasing, but alignment
	// padding can make the greedy's peak exceed the sum of the sizes.
	// NoAliasing never costs less than that sum, so it is tried only then.
	if bestPeak > sizeSum(p) {
		if alt := planner.NoAliasing(p); alt.Peak() < bestPeak {
			return alt, nil
		}
	}
	return best, nil
}

// sizeSum is the sum of p's item sizes, saturated at math.MaxUint64.
func sizeSum(p *planner.Problem) uint64 {
	var t uint64
	for i := range p.Items {
		t = addSat(t, p.Items[i].Size)
	}
	return t
}

func addSat(a, b uint64) uint64 {
	if s, carry := bits.Add64(a, b, 0); carry == 0 {
		return s
	}
	return math.MaxUint64
}

// engine holds what the runs of one problem share (read-only).
type engine struct {
	name   string
	p      *planner.Problem
	fit    Fit
	window interval.Range // the offsets a pool may use: [0, MaxPoolSize)
	// Interval problems: lifetimes as ranges of elementary time slots.
	life  []interval.Range
	slots int
	alone []bool       // interval problems: the items that overlap no other (alone.go)
	deg   []int32      // graph problems: each item's number of neighbours
	tw    *twinClasses // graph problems: twin classes, when few (classes.go)
}

func newEngine(name string, p *planner.Problem, fit Fit) *engine {
	e := &engine{name: name, p: p, fit: fit, window: interval.Everything}
	if p.MaxPoolSize != 0 {
		e.window.End = p.MaxPoolSize
	}
	if p.Intervals() {
		e.life, e.slots = compress(p)
		e.alone = aloneItems(e.life, e.slots)
	} else {
		e.deg = make([]int32, len(p.Items))
		for i := range e.deg {
			e.deg[i] = int32(p.Degree(i))
		}
		if fit == FirstFit {
			e.tw = newTwinClasses(p)
		}
	}
	return e
}

// compress maps the lifetimes of an interval problem's items to ranges of
// time slots: slot k runs from the k-th distinct Start to the next one, an
// item's range starts at its Start's slot and ends before the first Start
// at or after its End. Two half-open lifetimes overlap exactly when one
// starts before the other ends, and a Start is before an End exactly when
// its slot is below the End's count of earlier Starts, so lifetimes
// overlap exactly when their slot ranges do (and what is live during a
// slot is what is live at its Start). Counting Starts only, not Ends,
// makes at most n slots: n buffers with disjoint lifetimes get n, not 2n−1.
// O(n): two radix sorts and a merge.
func compress(p *planner.Problem) (life []interval.Range, slots int) {
	n := len(p.Items)
	// Starts and Ends sorted by radix (internal/radix), each with its
	// item; a merge then counts the distinct Starts below each End.
	keys, idx := make([]uint64, n), make([]int32, n)
	for i, it := range p.Items {
		keys[i], idx[i] = radix.Int64(it.Start), int32(i)
	}
	radix.Sort(keys, idx)
	life = make([]interval.Range, n)
	starts := keys[:0] // the distinct Starts, ascending, over keys
	for x, k := range keys {
		if x == 0 || k != starts[len(starts)-1] {
			starts = append(starts, k)
		}
		life[idx[x]].Start = uint64(len(starts) - 1)
	}
	ends := make([]uint64, n)
	for i, it := range p.Items {
		ends[i], idx[i] = radix.Int64(it.End), int32(i)
	}
	radix.Sort(ends, idx)
	s := 0
	for x, k := range ends {
		for s < len(starts) && starts[s] < k {
			s++
		}
		life[idx[x]].End = uint64(s) // the Starts before End
	}
	return life, len(starts)
}

// run places the items in order, each in the lowest-numbered pool where it
// fits (opening a pool when none does), at the offset the fit rule picks
// among the ranges of the already placed items that interfere with it.
func (e *engine) run(ord []int32) (*planner.Solution, error) {
	p := e.p
	n := len(p.Items)
	sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	var lines []*interval.Timeline // interval problems: one per pool
	var gs *graphState
	if !p.Intervals() {
		gs = newGraphState(e, sol)
	}
	for _, i := range ord {
		it := &p.Items[i]
		var off uint64
		var k int
		var ok bool
		if e.alone != nil && e.alone[i] {
			off, ok = alignUp(e.window.Start, it.Alignment)
			ok = ok && fitsAt(off, it.Size, e.window)
		} else if p.Intervals() {
			off, k, ok = e.fitIntervals(&lines, i)
		} else {
			off, k, ok = gs.fit(i)
		}
		if !ok {
			// NewGraphProblem and NewIntervalProblem check that every item
			// fits in an empty pool, so this is a broken Problem.
			return nil, fmt.Errorf("%s: item %d (%d bytes, alignment %d) fits in no empty pool of at most %d bytes", e.name, i, it.Size, it.Alignment, e.window.End)
		}
		sol.Pool[i], sol.Offset[i] = int32(k), off
		if k == len(sol.PoolSizes) {
			sol.PoolSizes = append(sol.PoolSizes, 0)
		}
		sol.PoolSizes[k] = max(sol.PoolSizes[k], off+it.Size)
		if gs != nil {
			gs.record(i)
		}
	}
	return sol, nil
}

// fitIntervals places interval item i in the first pool with room during
// its lifetime, opening a pool when none has.
func (e *engine) fitIntervals(lines *[]*interval.Timeline, i int32) (off uint64, k int, ok bool) {
	it := &e.p.Items[i]
	life := e.life[i]
	for k = 0; ; k++ {
		if k == len(*lines) {
			*lines = append(*lines, interval.NewTimeline(e.slots))
		}
		tl := (*lines)[k]
		if e.fit == FirstFit {
			off, ok = tl.LowestFit(life, it.Size, it.Alignment, e.window)
		} else {
			off, ok = tl.BestFit(life, it.Size, it.Alignment, e.window)
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
