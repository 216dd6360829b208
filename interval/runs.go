package interval

import "sort"

// Runs is a sorted list of disjoint, non-adjacent ranges: the form that
// Merge returns and LowestFit and BestFit read.
type Runs []Range

// Merge sorts rs by Start and coalesces overlapping and touching ranges in
// place, dropping empty ones. It returns the prefix of rs that holds the
// result, so rs's storage is reused. O(n log n).
func Merge(rs []Range) Runs {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	w := 0
	for _, r := range rs {
		if r.Empty() {
			continue
		}
		if w > 0 && r.Start <= rs[w-1].End {
			rs[w-1].End = max(rs[w-1].End, r.End)
			continue
		}
		rs[w] = r
		w++
	}
	return Runs(rs[:w])
}

// LowestFit returns the lowest offset off, a multiple of align, such that
// [off, off+size) lies within w and intersects no run of rs; false when
// there is none. size must be > 0 and align a power of two (else it
// panics). O(log n + g) for g runs skipped.
func (rs Runs) LowestFit(size, align uint64, w Range) (uint64, bool) {
	return lowestFit(&cursor{ahead: rs}, size, align, w)
}

// BestFit returns the lowest aligned offset in the smallest gap between
// runs of rs (within w) that holds size bytes; the gap above the last run
// ranks last, as if unbounded, so that the top of a pool grows only when
// no gap below holds the block. O(n).
func (rs Runs) BestFit(size, align uint64, w Range) (uint64, bool) {
	return bestFit(&cursor{ahead: rs}, size, align, w)
}
