package interval

import (
	"math"

	"github.com/google/btree"
)

// source yields the occupied positions of a structure, lowest first.
type source interface {
	// next returns an occupied range r with r.End > x such that no
	// position in [x, r.Start) is occupied, or false when no position
	// >= x is occupied. r need not be a maximal occupied run. Sources may
	// require x not to decrease between calls.
	next(x uint64) (Range, bool)
}

// lowestFit returns the lowest multiple of align, off, such that
// [off, off+size) lies within w and holds no occupied position of src.
// Each step skips at least one occupied range of src.
func lowestFit(src source, size, align uint64, w Range) (uint64, bool) {
	checkSize(size)
	x, ok := AlignUp(w.Start, align)
	for ok && fitsAt(x, size, w) {
		r, occupied := src.next(x)
		if !occupied || r.Start >= x+size { // x+size cannot overflow: fitsAt
			return x, true
		}
		x, ok = AlignUp(r.End, align)
	}
	return 0, false
}

// lowestFitAll is lowestFit over the union of several cursors. Each pass
// asks every cursor whether a run blocks [x, x+size) and moves x past the
// blocking runs; it ends when a pass moves nothing. A move jumps past a
// whole run of one cursor, skipping at once the runs of the others that
// end below it, which makes it cheaper than walking the union run by run.
func lowestFitAll(cs []cursor, size, align uint64, w Range) (uint64, bool) {
	checkSize(size)
	x, ok := AlignUp(w.Start, align)
	for ok && fitsAt(x, size, w) {
		moved := false
		for j := range cs {
			r, occupied := cs[j].next(x)
			if occupied && r.Start < x+size {
				if x, ok = AlignUp(r.End, align); !ok || !fitsAt(x, size, w) {
					return 0, false
				}
				moved = true
			}
		}
		if !moved {
			return x, true
		}
	}
	return 0, false
}

// bestFit returns the lowest aligned offset of the smallest free gap of src
// within w that holds an aligned block of size bytes. The top gap (the one
// that reaches w.End with nothing occupied above it) ranks after every
// other gap, as if it were unbounded; ties go to the lowest gap. It walks
// every gap of src within w, and stops early on a gap of exactly size
// bytes.
func bestFit(src source, size, align uint64, w Range) (uint64, bool) {
	return bestFitFrom(src, size, align, w, w.Start, w.Start)
}

// bestFitFrom is bestFit for a walk that starts at from, a free position
// (or w.Start) whose gap starts at gapStart <= from.
func bestFitFrom(src source, size, align uint64, w Range, from, gapStart uint64) (uint64, bool) {
	checkSize(size)
	var best, bestLen uint64
	found := false
	x := from
	for x < w.End {
		r, occupied := src.next(x)
		if occupied && r.Start <= x {
			x = r.End
			continue
		}
		gap, top := Range{x, w.End}, !occupied
		if occupied && r.Start < w.End {
			gap.End = r.Start
		}
		if x == from { // the walk began inside this gap
			gap.Start = gapStart
		}
		if off, ok := AlignUp(gap.Start, align); ok && fitsAt(off, size, gap) {
			if top {
				if found {
					return best, true
				}
				return off, true
			}
			if l := gap.Len(); !found || l < bestLen {
				best, bestLen, found = off, l, true
				if l == size {
					return best, true
				}
			}
		}
		x = gap.End
	}
	return best, found
}

// cursor walks one sorted list of disjoint runs for non-decreasing x: a
// slice, or a btree keyed by End that it reads in batches, so that walking
// n runs in order costs O(n + (n/batch) log n), not n btree descents.
type cursor struct {
	set   *runSet              // the runs, for a Timeline's cursors
	ahead []Range              // known runs, in order
	t     *btree.BTreeG[Range] // holds the runs after ahead, if more
	more  bool
	store []Range // backing array of batches
	n     int     // size of the next batch
}

// A cursor's first batch is small, as most queries stop at the first run
// or two past the candidate offset; each further batch doubles, up to
// maxBatch, for the walks that go far.
const (
	firstBatch = 4
	maxBatch   = 64
)

// reset points c at a slice of runs, or at a btree of them, keeping its
// batch storage.
func (c *cursor) reset(rs []Range, t *btree.BTreeG[Range]) {
	c.ahead, c.t, c.more, c.n = rs, t, t != nil, firstBatch
}

// next implements source: the first run ending after x. O(1) when that is
// the current run or one of the next few; O(log n) otherwise.
func (c *cursor) next(x uint64) (Range, bool) {
	for {
		a := c.ahead
		k := 0
		for k < len(a) && k < 4 && a[k].End <= x {
			k++
		}
		if k == 4 {
			k += firstEndAfter(a[k:], x)
		}
		if k < len(a) {
			c.ahead = a[k:]
			return a[k], true
		}
		c.ahead = nil
		if !c.more || x == math.MaxUint64 {
			return Range{}, false
		}
		if c.store == nil {
			c.store = make([]Range, 0, maxBatch)
		}
		buf, n := c.store[:0], c.n
		c.t.AscendGreaterOrEqual(Range{End: x + 1}, func(q Range) bool {
			buf = append(buf, q)
			return len(buf) < n
		})
		c.ahead, c.more = buf, len(buf) == n
		c.n = min(2*n, maxBatch)
	}
}

// firstEndAfter returns the index of the first run of rs that ends after
// x (len(rs) when none does); rs is sorted.
func firstEndAfter(rs []Range, x uint64) int {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rs[m].End > x {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

func checkSize(size uint64) {
	if size == 0 {
		panic("interval: fit query for size 0")
	}
}
