package greedy

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// listWalk is first fit as it was before the blocks (the reference the
// block walk must agree with): each pool's items concatenated in offset
// order and walked one by one with walkFirst.
func (gs *graphState) listWalk(i int32) (uint64, int, bool) {
	it := &gs.e.p.Items[i]
	row := gs.e.p.Row(int(i))
	for k := 0; ; k++ {
		var items []int32
		var rs []interval.Range
		if k < len(gs.pools) {
			for _, id := range gs.pools[k].ids {
				b := &gs.blocks[id]
				items = append(items, b.items[:b.n]...)
				rs = append(rs, b.rs[:b.n]...)
			}
		}
		s := newLowestScan(it, gs.e.window)
		if !s.ok {
			return 0, k, false
		}
		var seen bool
		s.x, s.ok, seen = walkFirst(items, rs, row, s.x, s.size, s.align, s.w)
		if s.ok || !seen {
			return s.x, k, s.ok
		}
	}
}

// walkFirst is the list walk of commit 40a2e48 (graph.go), unchanged but
// for taking the list as two slices.
func walkFirst(items []int32, rs []interval.Range, row []uint64, x, size, align uint64, w interval.Range) (uint64, bool, bool) {
	limit := w.End - size // x fits while x <= limit
	mask := align - 1
	var any uint64
	rs = rs[:len(items)]
	for k, j := range items {
		nb := -(row[j>>6] >> (uint(j) & 63) & 1) // all ones for a neighbour
		any |= nb
		q := rs[k]
		e := q.End & nb
		var blocks, past uint64
		if e > x {
			blocks = 1
		}
		if q.Start >= x+size {
			past = 1
		}
		if blocks&past != 0 {
			break // a neighbour starting above the gap [x, x+size)
		}
		y, carry := bits.Add64(e, mask, 0)
		x = max(x, y&^mask)
		if carry != 0 || x > limit {
			return x, false, true // only a neighbour moves x
		}
	}
	return x, true, any != 0
}

// denseGraph is a random graph problem shaped like a render graph's group:
// interference of density about dense (a pair interferes when the
// lifetimes overlap, and otherwise with probability dense), sizes over
// three orders of magnitude with power-of-two alignments, and a pool cap
// that holds on the order of a hundred items, so that pools fill up and
// their lists span many blocks.
func denseGraph(seed uint64, n int, dense float64) (*planner.Problem, error) {
	rng := rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3))
	items := make([]planner.Item, n)
	for i := range items {
		align := uint64(1) << rng.IntN(10)
		size := uint64(1) << (4 + rng.IntN(10))
		size += rng.Uint64N(size)
		if rng.IntN(2) == 0 {
			size = (size + align - 1) &^ (align - 1)
		}
		start := rng.Int64N(1000)
		items[i] = planner.Item{Size: size, Alignment: align, Start: start, End: start + 1 + rng.Int64N(300)}
	}
	maxPool := uint64(1) << (15 + rng.IntN(6))
	return planner.NewGraphProblem(items, maxPool, func(i, j int) bool {
		a, b := &items[i], &items[j]
		return a.Start < b.End && b.Start < a.End || rng.Float64() < dense
	})
}

// TestBlockWalkAgreesWithListWalk places random dense problems with first
// fit in several orders and checks, item by item, that the walk over the
// blocks gives the pool and offset of the list walk it replaces (and of
// plainFit), and that the problems exercise what the blocks skip: blocks
// passed by their summary, blocks walked item by item, and pools proven
// full.
func TestBlockWalkAgreesWithListWalk(t *testing.T) {
	var walks, full int
	for seed := range uint64(8) {
		n := 800 + int(seed)*100
		if testing.Short() {
			n /= 3
		}
		dense := []float64{0.99, 0.95, 0.8, 0.5}[seed%4]
		p, err := denseGraph(seed, n, dense)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Order{Size, SizeClass, byItem("start", byStart)} {
			e := newEngine("test", p, FirstFit)
			sol := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
			gs := newGraphState(e, sol)
			for _, i := range o.perm(p) {
				wOff, wK, wOK := gs.listWalk(i)
				off, k, ok := gs.fitWalk(i)
				if ok != wOK || off != wOff || k != wK {
					t.Fatalf("seed %d, %s: item %d: block walk gave pool %d offset %d (%v), list walk pool %d offset %d (%v)", seed, o.name, i, k, off, ok, wK, wOff, wOK)
				}
				if i%8 != 0 {
					// plainFit, the slowest, on an eighth of the items
				} else if pOff, pK, pOK := e.plainFit(sol, gs.isPlaced, i); ok != pOK || off != pOff || k != pK {
					t.Fatalf("seed %d, %s: item %d: block walk gave pool %d offset %d (%v), plainFit pool %d offset %d (%v)", seed, o.name, i, k, off, ok, pK, pOff, pOK)
				}
				if !ok {
					t.Fatalf("seed %d: item %d fits nowhere", seed, i)
				}
				walks++
				full += k
				sol.Pool[i], sol.Offset[i] = int32(k), off
				if k == len(sol.PoolSizes) {
					sol.PoolSizes = append(sol.PoolSizes, 0)
				}
				sol.PoolSizes[k] = max(sol.PoolSizes[k], off+p.Items[i].Size)
				gs.record(i)
			}
			if err := planner.CheckSolution(p, sol); err != nil {
				t.Fatalf("seed %d, %s: %v", seed, o.name, err)
			}
			if o.name == "size" {
				t.Logf("%d items, %d pools, %d blocks", n, len(gs.pools), len(gs.blocks))
			}
		}
	}
	t.Logf("%d fits, %d full pools passed", walks, full)
	if full < walks {
		t.Errorf("%d full pools over %d fits: the problems do not fill pools", full, walks)
	}
}

// TestBlockSummary checks a block's summary against its definition on
// random blocks.
func TestBlockSummary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 1000 {
		var b block
		b.n = int32(1 + rng.IntN(blockCap))
		var start uint64
		for q := range b.n {
			start += rng.Uint64N(100)
			b.rs[q] = interval.Range{Start: start, End: start + 1 + rng.Uint64N(200)}
		}
		b.summarize()
		var wantEnd, wantSlack uint64
		for q := range b.n {
			wantEnd = max(wantEnd, b.rs[q].End)
			var before uint64
			for r := range q {
				before = max(before, b.rs[r].End)
			}
			if q > 0 && b.rs[q].Start > before {
				wantSlack = max(wantSlack, b.rs[q].Start-before)
			}
		}
		if b.maxEnd != wantEnd || b.slack != wantSlack {
			t.Fatalf("trial %d: %s: maxEnd %d slack %d, want %d %d", trial, fmt.Sprint(b.rs[:b.n]), b.maxEnd, b.slack, wantEnd, wantSlack)
		}
	}
}
