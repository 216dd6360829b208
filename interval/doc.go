// Package interval holds half-open ranges of uint64 positions (bytes of a
// pool, or slots of time) and the range sets a memory planner searches for
// free space.
//
// Every range is half-open: Range{Start, End} holds Start, Start+1, ...,
// End-1, and is empty when End <= Start. A block of Size bytes at offset
// Off is Range{Off, Off+Size}. Position math.MaxUint64 is never inside a
// range, so the largest block ends at 2⁶⁴−1; no operation overflows, for
// any size or alignment.
//
// The package owns two structures:
//
//   - Timeline: rectangles (an offset range occupied during a range of time
//     slots), insert-only, answering "lowest (or best) free offset among the
//     rectangles whose lifetimes overlap this one". A segment tree over the
//     slots whose nodes hold run sets; a query reads O(log T) of them. This
//     is the index an interval allocator (Dynamic Storage Allocation, as ML
//     compilers solve it) needs to place tens of thousands of buffers
//     without enumerating the pairs that overlap in time.
//   - Runs: a sorted slice of disjoint runs (Merge builds it from any
//     ranges), with the same fit queries: for one-off searches among a
//     handful of ranges, where building a tree costs more than sorting.
//
// And one sweep: Overlaps yields the pairs of placed items (a group and a
// range each) whose ranges share a position. Every "which resources share
// a byte" question in the project asks it (CheckSolution, Verify, the
// alias barriers, serializations, the picture, the exact strategy's time
// sections), so they cannot disagree. UnionCovers asks whether a set of
// ranges covers another.
//
// Fit queries (LowestFit, BestFit) take a size > 0, a power-of-two
// alignment and a window w: the block must lie within w. Use Everything
// for no bound, Range{0, limit} for a pool capped at limit bytes.
//
// Ownership: Merge sorts and compacts the slice it is given and returns a
// prefix of it. No other function returns a slice; callbacks receive
// Range values. Nothing retains a caller's slice.
//
// Concurrency: Runs may be read by several goroutines when none writes;
// Timeline queries reuse scratch space, so a Timeline needs one goroutine.
// Nothing here starts goroutines. All results are deterministic.
//
// Build with the invariants tag (go test -tags invariants) to check a
// Timeline's run sets after every change.
package interval
