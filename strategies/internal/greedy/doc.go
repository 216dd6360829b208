// Package greedy is the placement engine behind the firstfit and bestfit
// strategies: it places a planner.Problem's items one at a time, in a few
// item orders, and keeps the best result. The two strategies differ only in
// the Fit rule they pass to Place.
//
// # Algorithm
//
// Items are placed in an Order. Each goes to the lowest-numbered pool where
// it fits below Problem.MaxPoolSize, opening a pool when none has room, at
// the offset the Fit rule picks (a multiple of the item's alignment) among
// the free gaps that the already placed items that interfere with it leave
// in that pool. Pools are independent address spaces; without a cap a pool
// spans [0, 2⁶⁴−1). Byte ranges are half-open: an item at Offset occupies
// [Offset, Offset+Size).
//
//   - Graph problems (Problem.Row): each pool keeps its placed items
//     sorted by offset. An item with few neighbours sorts their ranges; one
//     with many walks the pool's list and skips the items that are not its
//     neighbours, tested in its row of the problem's interference bit
//     matrix: no sort, and no work per neighbour. First fit takes the
//     ranges in offset order, unmerged, and stops at the first gap that
//     holds the item; the list is kept as blocks of up to 32 items, and a
//     block holding none of the item's non-neighbours is passed by its
//     summary (largest End, slack) in O(1) (blocks.go). Best fit merges
//     the neighbours' ranges into interval.Runs and searches them all. Under first fit, a problem of 1,024 items or more made of
//     few twin classes (runs of consecutive items with one closed
//     neighbourhood, at most one class per 16 items: a pass writing many
//     buffers) keeps each class's placed ranges per pool as merged runs,
//     and an item whose neighbour classes are few takes the lowest gap
//     from those runs (a binary search per class and move) instead of
//     walking the list (classes.go).
//   - Interval problems (Problem.Intervals): lifetimes are compressed to
//     time slots and each pool is an interval.Timeline, so that the
//     overlapping pairs (hundreds of millions in the largest ML traces)
//     are never enumerated. An item whose lifetime overlaps no other's
//     goes to the first pool's lowest aligned offset without a Timeline
//     (alone.go); the orders rank only the other items, and when every
//     item is alone one run answers for all orders (alone_orders.go).
//
// Place runs the greedy once per order and keeps the solution with the
// smallest total pool size (ties: the earlier order). If planner.NoAliasing
// (every item in its own bytes) costs strictly less, which alignment
// padding can cause on small problems, it returns that instead: aliasing
// never costs more than not aliasing.
//
// # Orders
//
// Size (larger first), Load (the items of the busiest moment first) and
// SizeClass (power-of-two class, then first use) are the orders the
// strategies run. ../../firstfit/README.md has the measurements of these
// and three others under both fit rules (BenchmarkOrders).
//
// # Cost
//
// Per order, with n items: O(n log n) to sort. Graph problems: once per
// problem, O(n²/64) to count each item's neighbours (the Load order sums
// the sizes on the sparser side of each row); then per item, with d
// neighbours, O(n/64 + d log d) to gather and sort their ranges, or O(m)
// to walk the m items placed in each pool searched, the walk being chosen
// when d·log₂d ≥ the items placed so far (first fit: O(n/64) to mark the
// non-neighbours' blocks, then per pool O(m/32) summaries and 32 items per
// marked block); O(log m + 32) to insert the item in its pool's blocks. Memory O(n) per order; the
// interference matrix belongs to the Problem. Interval problems: O(n)
// to compress T slots (radix sorts); then per item a query that reads O(log T) run
// sets and an insert into O(log T) run
// sets; memory O(n log T) per pool. The orders of a
// problem of 256 items or more run on up to GOMAXPROCS goroutines, joined
// before Place returns; smaller ones run on the caller's goroutine, where
// starting goroutines would cost more than it saves. The NoAliasing check
// costs O(n log n) only when the greedy's peak exceeds the sum of the
// sizes.
//
// # Contract
//
// Place is deterministic: the same Problem, Fit and orders give the same
// Solution, whatever the scheduling of its goroutines. It does not modify
// or retain the Problem; the returned Solution is new and belongs to the
// caller. The package holds no mutable state: concurrent calls are safe.
//
// Build with the invariants tag to check every graph placement against a
// plain merge-and-search of the neighbours' ranges (plainFit).
package greedy
