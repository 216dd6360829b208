package interval

import (
	"fmt"
	"math/bits"

	"github.com/google/btree"
)

// Timeline is a set of rectangles: each is an offset range occupied during
// a lifetime, a range of time slots within [0, Slots). It answers the
// question an interval allocator asks for every item: where is the lowest
// (or best) free offset range among the rectangles whose lifetimes overlap
// a given one? Rectangles whose lifetimes are disjoint may share offsets.
// Rectangles are only added, never removed.
//
// A Timeline is a segment tree over the slots (a power of two of leaves).
// A rectangle is stored in the O(log T) canonical nodes of its lifetime
// (cover runs) and merged into the runs of every ancestor of those nodes
// (subtree runs). The rectangles overlapping a lifetime are then exactly
// those in the subtree runs of its canonical nodes and the cover runs of
// their ancestors: a query looks at O(log T) run sets, each a btree of
// maximal occupied runs, through a merging cursor.
//
// A Timeline is not safe for concurrent use: queries reuse scratch space.
type Timeline struct {
	slots, leaves int
	cover, sub    []*runSet // by node: 1 is the root, leaves start at leaves
	stamp         []uint32   // visit marks for the current operation
	op            uint32
	n             int

	srcs []*runSet // query scratch
	u    union
	free    *btree.FreeListG[Range] // shared by the run sets' trees
	scratch []Range
}

// NewTimeline returns an empty timeline over the time slots [0, slots).
// Memory O(slots) up front, plus O(log slots) runs per rectangle.
func NewTimeline(slots int) *Timeline {
	if slots <= 0 {
		panic(fmt.Sprintf("interval: NewTimeline(%d): need at least one slot", slots))
	}
	leaves := 1 << bits.Len(uint(slots-1))
	return &Timeline{
		slots: slots, leaves: leaves,
		cover: make([]*runSet, 2*leaves),
		sub:   make([]*runSet, 2*leaves),
		stamp: make([]uint32, 2*leaves),
		free:  btree.NewFreeListG[Range](btree.DefaultFreeListSize),
	}
}

// Slots returns the number of time slots.
func (t *Timeline) Slots() int { return t.slots }

// Len returns the number of rectangles inserted. O(1).
func (t *Timeline) Len() int { return t.n }

func (t *Timeline) checkLife(life Range) {
	if life.Empty() || life.End > uint64(t.slots) {
		panic(fmt.Sprintf("interval: lifetime %v is empty or outside the timeline's %d slots", life, t.slots))
	}
}

// nextOp starts a new visit epoch for the stamps.
func (t *Timeline) nextOp() uint32 {
	t.op++
	if t.op == 0 { // wrapped: old stamps could collide
		clear(t.stamp)
		t.op = 1
	}
	return t.op
}

// canonical calls fn for the nodes whose leaves partition life.
func (t *Timeline) canonical(life Range, fn func(v int)) {
	l, r := int(life.Start)+t.leaves, int(life.End)+t.leaves
	for l < r {
		if l&1 == 1 {
			fn(l)
			l++
		}
		if r&1 == 1 {
			r--
			fn(r)
		}
		l >>= 1
		r >>= 1
	}
}

// Insert adds the rectangle life × r: offsets r occupied during the slots
// of life. An empty r is ignored; life must be a non-empty range within
// [0, Slots) or Insert panics. O(log² T + m log n) for m merged runs.
func (t *Timeline) Insert(life, r Range) {
	t.checkLife(life)
	if r.Empty() {
		return
	}
	t.n++
	op := t.nextOp()
	t.canonical(life, func(v int) {
		if t.cover[v] == nil {
			t.cover[v] = new(runSet)
		}
		t.cover[v].insert(r, &t.scratch, t.free)
		for u := v; u >= 1 && t.stamp[u] != op; u >>= 1 {
			t.stamp[u] = op
			if t.sub[u] == nil {
				t.sub[u] = new(runSet)
			}
			t.sub[u].insert(r, &t.scratch, t.free)
		}
	})
}

// sources fills t.srcs with the run sets whose union is the offsets
// occupied by rectangles overlapping life.
func (t *Timeline) sources(life Range) []*runSet {
	t.checkLife(life)
	t.srcs = t.srcs[:0]
	op := t.nextOp()
	t.canonical(life, func(v int) {
		if s := t.sub[v]; s != nil {
			t.srcs = append(t.srcs, s)
		}
		for u := v >> 1; u >= 1 && t.stamp[u] != op; u >>= 1 {
			t.stamp[u] = op
			if c := t.cover[u]; c != nil {
				t.srcs = append(t.srcs, c)
			}
		}
	})
	return t.srcs
}

// LowestFit returns the lowest offset off, a multiple of align, such that
// [off, off+size) lies within w and intersects no rectangle whose lifetime
// overlaps life; false when none does. Argument rules as Set.LowestFit.
//
// Cost: O(log T) run sets are merged; each step of the fit walk costs
// O(log T) plus O(log n) per run set whose current run it passes.
func (t *Timeline) LowestFit(life Range, size, align uint64, w Range) (uint64, bool) {
	t.u.reset(t.sources(life))
	Stats.Queries++
	Stats.Sources += len(t.srcs)
	return lowestFit(&t.u, size, align, w)
}

// BestFit is LowestFit with the best-fit rule of Set.BestFit: the smallest
// sufficient gap, the top gap last. It walks every gap below the top among
// the rectangles overlapping life.
func (t *Timeline) BestFit(life Range, size, align uint64, w Range) (uint64, bool) {
	t.u.reset(t.sources(life))
	return bestFit(&t.u, size, align, w)
}

// AscendOccupied calls fn, in offset order, for each maximal occupied run
// within w (clipped to w) of the rectangles whose lifetimes overlap life,
// until fn returns false.
func (t *Timeline) AscendOccupied(life, w Range, fn func(r Range) bool) {
	t.u.reset(t.sources(life))
	for x := w.Start; x < w.End; {
		r, ok := t.u.next(x)
		if !ok || r.Start >= w.End {
			return
		}
		for r.End < w.End {
			q, ok := t.u.next(r.End)
			if !ok || q.Start > r.End {
				break
			}
			r.End = q.End
		}
		x = r.End
		if !fn(r.Intersect(w)) {
			return
		}
	}
}
