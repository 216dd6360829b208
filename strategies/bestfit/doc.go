// Package bestfit is the best-fit placement strategy: each item goes to the
// smallest free gap that holds it, so that large gaps stay whole for large
// items. It is firstfit's greedy (the engine both share,
// strategies/internal/greedy) with another rule for choosing among the
// gaps that fit.
//
// # Algorithm
//
// Items are placed one at a time, in an order (below). Among the already
// placed items that interfere with an item, in one pool, the free gaps are
// the maximal ranges that none of them occupies; an item goes to the
// lowest offset, a multiple of its alignment, of the smallest gap that
// holds it (ties: the lowest gap). The space above the highest of them
// counts as an unbounded gap, taken only when no other gap holds the item,
// so a pool grows only when it must. The item goes to the lowest-numbered
// pool where it fits below Problem.MaxPoolSize, opening a pool when none
// has room; pools are independent address spaces of up to 2⁶⁴−1 bytes.
// Byte ranges are half-open: an item at Offset occupies [Offset,
// Offset+Size).
//
// Graph problems search the merged ranges of the placed neighbours
// (interval.Runs), gathered in offset order from the pool's sorted list of
// items or by sorting the neighbours, whichever is cheaper; interval
// problems use an interval.Timeline per pool, so that the overlapping
// pairs (hundreds of millions in the largest ML traces) are never
// enumerated.
//
// # Orders
//
// As firstfit: Place runs the greedy with the orders size (larger first),
// load (the items of the busiest moment first) and sizeclass (power-of-two
// class, then first use), and returns the solution with the smallest total
// pool size (ties: the earlier order), or planner.NoAliasing's when that
// costs strictly less (alignment padding can cause it): aliasing never
// costs more than not aliasing. ../firstfit/README.md has the
// measurements of six orders under both fit rules. On the held-out data
// set best fit is no better than first fit overall: closer to the bound
// on S_1, further on ResNet-50 and the random-1000 frame; the other ML
// traces are equal, and on the perfect packings each wins some. The
// figures, and measured times, are in docs/performance.md ("Greedy
// strategies").
//
// # Cost
//
// As firstfit's, except that an interval query, after finding the lowest
// gap that fits as first fit does, walks every occupied run above it up to
// the top of the overlapping items, merging O(log T) run sets through a
// heap: O(log log T) per run. The orders run on up to GOMAXPROCS goroutines, joined
// before Place returns.
//
// # Contract
//
// Place is deterministic: the same Problem gives the same Solution. It does
// not modify or retain the Problem; the returned Solution is new and
// belongs to the caller. A strategy value holds no state, so one may serve
// concurrent calls.
package bestfit
