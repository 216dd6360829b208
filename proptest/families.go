package proptest

import (
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
)

// Interval problems of the repository's test data (testdata/perfect,
// slack, traces), small members of the held-out set's families.

// PerfectTiling cuts the rectangle time [0, slots) × bytes [0, capacity)
// into n rectangles by guillotine cuts on a grid (time by slots/64, bytes
// by capacity/64; both powers of two ≥ 64): every item is one rectangle,
// so the optimum peak is exactly capacity, with no waste, and equals the
// max-load bound. Alignments are 1.
func PerfectTiling(seed uint64, n int, slots int64, capacity uint64) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0x3c6ef372fe94f82b))
	type rect struct{ t0, t1, b0, b1 uint64 }
	tq, bq := uint64(slots)/64, capacity/64
	rects := []rect{{0, uint64(slots), 0, capacity}}
	for len(rects) < n {
		// Cut a random rectangle that can be cut, along a random axis.
		k := rng.IntN(len(rects))
		r := rects[k]
		canT, canB := (r.t1-r.t0)/tq >= 2, (r.b1-r.b0)/bq >= 2
		if !canT && !canB {
			continue
		}
		a, b := r, r
		if canT && (!canB || rng.IntN(2) == 0) {
			cut := r.t0 + tq*(1+rng.Uint64N((r.t1-r.t0)/tq-1))
			a.t1, b.t0 = cut, cut
		} else {
			cut := r.b0 + bq*(1+rng.Uint64N((r.b1-r.b0)/bq-1))
			a.b1, b.b0 = cut, cut
		}
		rects[k] = a
		rects = append(rects, b)
	}
	items := make([]planner.Item, len(rects))
	for i, r := range rects {
		items[i] = planner.Item{Size: r.b1 - r.b0, Alignment: 1, Start: int64(r.t0), End: int64(r.t1)}
	}
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items
}

// SlackTiling is PerfectTiling with a fraction drop of its rectangles
// removed: it still fits in capacity, and where the removed pieces leave
// the busiest moment below capacity the optimum is unknown, between the
// max-load bound and capacity.
func SlackTiling(seed uint64, n int, slots int64, capacity uint64, drop float64) []planner.Item {
	items := PerfectTiling(seed, n, slots, capacity)
	rng := rand.New(rand.NewPCG(seed, 0xa54ff53a5f1d36f1))
	kept := items[:0]
	for _, it := range items {
		if rng.Float64() >= drop {
			kept = append(kept, it)
		}
	}
	return kept
}

// Trace builds an interval problem shaped like an ML memory trace (the
// held-out idealloc instances): layers run one per time step; each
// produces an activation of one of a few sizes (the model's widths) that
// the next one to three layers read, a workspace live for its own step,
// and now and then a skip connection read many steps later. Sizes are
// multiples of 64 bytes, alignment 64.
func Trace(seed uint64, layers int) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	widths := []uint64{64 << 10, 128 << 10, 256 << 10, 512 << 10}
	var items []planner.Item
	for t := range layers {
		w := widths[rng.IntN(len(widths))]
		end := t + 1 + 1 + rng.IntN(3)
		if rng.IntN(8) == 0 {
			end = t + 2 + rng.IntN(layers/2+1) // a skip connection
		}
		items = append(items,
			planner.Item{Size: w, Alignment: 64, Start: int64(t), End: int64(min(end, layers+1))},
			planner.Item{Size: 64 * uint64(1+rng.IntN(1024)), Alignment: 64, Start: int64(t), End: int64(t + 1)})
	}
	return items
}
