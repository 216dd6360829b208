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
// (their cover runs) and merged into the subtree runs of those nodes and of
// all their ancestors. The rectangles overlapping a lifetime are then
// exactly those in the subtree runs of its canonical nodes and in the cover
// runs of their ancestors: a query reads O(log T) run sets through cursors.
// A run set is a sorted slice while small, a btree when large. Nodes are
// allocated in chunks on first use, so a sparse timeline (one of many
// pools) costs little.
//
// A Timeline is not safe for concurrent use: queries reuse scratch space.
type Timeline struct {
	slots, leaves int
	chunks        []*[chunkSize]node // node v is chunks[v/chunkSize][v%chunkSize]; 1 is the root
	n             int

	cs      []cursor // query scratch: one per run set looked at
	u       union
	free    *btree.FreeListG[Range] // shared by the run sets' trees
	scratch []Range
	slab    []Range // the run sets' first runs (takeSlab)
}

// node holds the runs of the rectangles stored at a node (cover) and of
// those stored in its subtree (sub).
type node struct{ cover, sub runSet }

const chunkSize = 256

// NewTimeline returns an empty timeline over the time slots [0, slots).
// Memory O(slots / 256) up front, then O(log slots) runs per rectangle.
func NewTimeline(slots int) *Timeline {
	if slots <= 0 {
		panic(fmt.Sprintf("interval: NewTimeline(%d): need at least one slot", slots))
	}
	leaves := 1 << bits.Len(uint(slots-1))
	return &Timeline{
		slots: slots, leaves: leaves,
		chunks: make([]*[chunkSize]node, (2*leaves+chunkSize-1)/chunkSize),
		free:   btree.NewFreeListG[Range](btree.DefaultFreeListSize),
	}
}

// Slots returns the number of time slots. O(1).
func (t *Timeline) Slots() int { return t.slots }

// Len returns the number of rectangles inserted. O(1).
func (t *Timeline) Len() int { return t.n }

func (t *Timeline) checkLife(life Range) {
	if life.Empty() || life.End > uint64(t.slots) {
		panic(fmt.Sprintf("interval: lifetime %v is empty or outside the timeline's %d slots", life, t.slots))
	}
}

// at returns node v, or nil when its chunk was never written.
func (t *Timeline) at(v int) *node {
	c := t.chunks[v/chunkSize]
	if c == nil {
		return nil
	}
	return &c[v%chunkSize]
}

// mut returns node v, allocating its chunk if needed.
func (t *Timeline) mut(v int) *node {
	c := t.chunks[v/chunkSize]
	if c == nil {
		c = new([chunkSize]node)
		t.chunks[v/chunkSize] = c
	}
	return &c[v%chunkSize]
}

// visit calls fn(v, true) for each canonical node of life (the nodes whose
// leaves partition it) and fn(v, false) for each strict ancestor of one,
// each node once. The ancestors are the nodes on the paths from the leaves
// life.Start and life.End-1 to the root whose leaves are not all within
// life.
func (t *Timeline) visit(life Range, fn func(v int, canonical bool)) {
	for l, r := int(life.Start)+t.leaves, int(life.End)+t.leaves; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			fn(l, true)
			l++
		}
		if r&1 == 1 {
			r--
			fn(r, true)
		}
	}
	inside := func(v, h int) bool {
		first := uint64(v<<h - t.leaves)
		return life.Start <= first && first+1<<h <= life.End
	}
	a, b := int(life.Start)+t.leaves, int(life.End)-1+t.leaves
	for h := 0; a >= 1; h++ {
		if !inside(a, h) {
			fn(a, false)
		}
		if b != a && !inside(b, h) {
			fn(b, false)
		}
		a, b = a>>1, b>>1
	}
}

// Insert adds the rectangle life × r: offsets r occupied during the slots
// of life. An empty r is ignored; life must be a non-empty range within
// [0, Slots) or Insert panics. O(log T) run-set inserts, each O(log n + m)
// for m merged runs.
func (t *Timeline) Insert(life, r Range) {
	t.checkLife(life)
	if r.Empty() {
		return
	}
	t.n++
	t.visit(life, func(v int, canonical bool) {
		nd := t.mut(v)
		if canonical {
			nd.cover.insert(r, &t.scratch, t.free, &t.slab)
		}
		nd.sub.insert(r, &t.scratch, t.free, &t.slab)
	})
}

// cursors points t.cs at the run sets whose union is the offsets occupied
// by rectangles overlapping life.
func (t *Timeline) cursors(life Range) []cursor {
	t.checkLife(life)
	n := 0
	add := func(s *runSet) {
		if s.empty() {
			return
		}
		if n == len(t.cs) {
			t.cs = append(t.cs, cursor{})
		}
		t.cs[n].reset(s.small, s.big)
		t.cs[n].set = s
		n++
	}
	t.visit(life, func(v int, canonical bool) {
		if nd := t.at(v); nd == nil {
		} else if canonical {
			add(&nd.sub)
		} else {
			add(&nd.cover)
		}
	})
	return t.cs[:n]
}

// LowestFit returns the lowest offset off, a multiple of align, such that
// [off, off+size) lies within w and intersects no rectangle whose lifetime
// overlaps life; false when none does. Argument rules as Runs.LowestFit.
//
// Cost: a query reads k = O(log T) run sets, each through a cursor. Each
// pass of the walk asks every cursor for its run at the candidate offset
// and moves past the runs in the way, so a query costs O(k) per pass, plus
// O(log n) per cursor that jumps far ahead in a large set.
func (t *Timeline) LowestFit(life Range, size, align uint64, w Range) (uint64, bool) {
	return lowestFitAll(t.cursors(life), size, align, w)
}

// BestFit is LowestFit with the best-fit rule of Runs.BestFit: the smallest
// sufficient gap, the top gap last. It finds the lowest fit as LowestFit
// does (no gap below it holds the block), then walks every run of the k run
// sets above it up to the top, unless a gap of exactly size bytes ends the
// walk, merging them through a heap: O(log k) per run.
func (t *Timeline) BestFit(life Range, size, align uint64, w Range) (uint64, bool) {
	cs := t.cursors(life)
	// No gap below the lowest fit holds the block: walk from there. The
	// gap holding the lowest fit starts at the last run ending at or
	// before it.
	off, ok := lowestFitAll(cs, size, align, w)
	if !ok {
		return 0, false
	}
	start := w.Start
	for i := range cs {
		start = max(start, cs[i].set.endBefore(off))
	}
	t.u.reset(cs)
	return bestFitFrom(&t.u, size, align, w, off, start)
}

// AscendOccupied calls fn, in offset order, for each maximal occupied run
// within w (clipped to w) of the rectangles whose lifetimes overlap life,
// until fn returns false. It walks the runs as BestFit does: O(log k) per
// run of the k run sets it reads.
func (t *Timeline) AscendOccupied(life, w Range, fn func(r Range) bool) {
	t.u.reset(t.cursors(life))
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
