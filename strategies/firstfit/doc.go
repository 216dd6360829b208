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
// fit (area ties on G_1); under best fit only start does, on ResNet-50
// (0.30% above the bound against 0.38%). Among the three: size wins on
// every render-graph frame and on iopddl S_1; load reaches the max-load
// bound exactly on Y_1 and the BERT, PanGu-13B and TinyBERT traces, where
// size is up to 1.1% above it, but is 22–36% above on G_1 and S_1;
// sizeclass is best on most perfect packings and on ResNet-50. Each order
// is cheap next to a search, and on two cores the three cost about two
// runs of wall time. Keeping the best of several orders is what XLA's heap
// simulator does.
//
// Results (Place, peak over the lower bound): idealloc (max-load bound):
// G_1 0.00%, S_1 1.67%, Y_1 0.00%, pangu_2.6B 0.76%, resnet50 0.17%,
// the others (BERT, PanGu-13B, TinyBERT, IREE) under 0.01%. Frames (exact
// bound, through planner.Place): compute-1 0.09%, compute-120 0.61%,
// deferred-4k 0.26%, random-1000 2.77%, random-200 0.09%, the others 0%.
// Perfect packings (known optimum): 19–33% above.
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
// before Place returns. Measured medians with two cores (GOMAXPROCS=2,
// BenchmarkIdealloc/strategy=firstfit in strategies/internal/greedy):
// iopddl S_1 (28.5k buffers) 0.3 s, Y_1 (62k buffers, 180M overlapping
// pairs) 0.8–0.9 s. Frames, through planner.Place
// (BenchmarkFrames/strategy=firstfit): random-1000 60 ms, of which this
// Place takes 5.5 ms for its two problems (685 and 768 resources, 92–95%
// of pairs interfering), the rest being planner.Place's own work;
// random-200 about 2 ms, of which 0.4 ms here.
//
// # Contract
//
// Place is deterministic: the same Problem gives the same Solution,
// whatever the scheduling of its goroutines. It does not modify or retain
// the Problem; the returned Solution is new and belongs to the caller. A
// strategy value holds no state, so one may serve concurrent calls.
package firstfit
