// Package firstfit is aliasplan's default placement strategy: greedy first
// fit over btree-indexed offset ranges, run in a few item orders, keeping
// the best result. The greedy engine, strategies/internal/greedy, is
// shared with bestfit, which differs only in how it picks among the gaps.
//
// # Algorithm
//
// Items are placed one at a time, in an order (below). Each goes to the
// lowest offset that is a multiple of its alignment and free of every
// already placed item that interferes with it, in the lowest-numbered pool
// where it fits below Problem.MaxPoolSize; when it fits in none, it opens
// a pool. Pools are independent address spaces. Without a cap a pool spans
// [0, 2⁶⁴−1), so items near 2⁶³ bytes work, and ones too large to share it
// get a pool each. Byte ranges are half-open: an item at Offset occupies
// [Offset, Offset+Size).
//
// Both kinds of planner.Problem are handled:
//
//   - Graph problems (Problem.Row): the placed neighbours' ranges in the
//     pool are searched in offset order, stopping at the first gap that
//     holds the item. Each pool keeps its items sorted by offset; an item
//     with many neighbours walks that list and tests each entry in its row
//     of the problem's interference bit matrix, one with few sorts its
//     neighbours' ranges.
//   - Interval problems (Problem.Intervals; interference is lifetime
//     overlap, and there may be hundreds of millions of overlapping pairs):
//     lifetimes are compressed to time slots and each pool is an
//     interval.Timeline, a segment tree over the slots whose nodes hold the
//     occupied offset runs; a query reads O(log T) run sets and never
//     enumerates the overlapping pairs.
//
// # Orders
//
// Place runs the greedy once per order and returns the solution with the
// smallest total pool size (ties: the earlier order), unless
// planner.NoAliasing (every item in its own bytes) costs strictly less,
// which alignment padding can cause: then it returns that, so aliasing
// never costs more than not aliasing. The orders are
//
//   - size: larger first, ties by earlier start, then longer lifetime (the
//     classic "greedy by size" of TFLite and XLA);
//   - load: the items of the busiest moment first: by the largest total size
//     live at one time during the item's lifetime (interval problems), or
//     the item's size plus its neighbours' sizes (graph problems), then as
//     size;
//   - sizeclass: by power-of-two size class, larger first, then by first use.
//
// These three were kept from six measured one by one on the shared data set
// (README.md has the full table, made by BenchmarkOrders). The other three,
// length (longer lifetime first), area (size × length) and start (first use
// first, the plain baseline), never beat the best of the three under first
// fit (area ties on G_1); under best fit only start does, on ResNet-50.
// Among the three: size wins on every render-graph frame and on iopddl
// S_1; load reaches the max-load bound exactly on Y_1 and the BERT,
// PanGu-13B and TinyBERT traces, where size is above it, but is far above
// on G_1 and S_1; sizeclass is best on most perfect packings and on
// ResNet-50. Each order
// is cheap next to a search, and on two cores the three cost about two
// runs of wall time. Keeping the best of several orders is what XLA's heap
// simulator does.
//
// Results (peak over the lower bound on each instance of the held-out data
// set) and measured times are in docs/performance.md ("Greedy
// strategies"); the tests hold the strategy to its targets there
// (strategies/internal/greedy: within 3.5% of the max-load bound on the
// ML traces, 5% of the exact bound on the frames).
//
// # Cost
//
// Per order, with n items: O(n log n) to sort. Graph problems: once per
// problem O(n²/64 + E) for the bit matrix of E interfering pairs (dense
// problems only); per item O(d log d) for d neighbours, or O(m) for the m
// items placed in the pools it searches, whichever is estimated cheaper,
// and (with the matrix) O(m) to insert it in its pool's list. Interval problems: O(n log n)
// to compress T slots; then per item a query that reads O(log T) run sets
// (O(log T) per pass of the fit walk, usually a few passes) and an insert
// into O(log T) run sets; memory O(n log T) per pool. The orders of a
// problem of 256 items or more run on up to GOMAXPROCS goroutines, joined
// before Place returns.
//
// # Contract
//
// Place is deterministic: the same Problem gives the same Solution,
// whatever the scheduling of its goroutines. It does not modify or retain
// the Problem; the returned Solution is new and belongs to the caller. A
// strategy value holds no state, so one may serve concurrent calls.
package firstfit
