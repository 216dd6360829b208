package planner

import (
	"cmp"
	"slices"

	"github.com/aliasplan/aliasplan/internal/radix"
)

// event is a lifetime's start or end, for MaxLoad's sweep.
type event struct {
	t    int64
	size uint64
}

// radixEvents is the number of events from which sortEvents sorts by
// radix: below it a comparison sort in place allocates nothing (a frame's
// few hundred items), above it (a million lifetimes) the radix sort's
// linear passes beat a comparison sort's cache misses.
const radixEvents = 1 << 12

// sortEvents sorts events by time (the order of equal times is free:
// MaxLoad handles all the ends at a time before the start there).
func sortEvents(es []event) {
	if len(es) < radixEvents {
		slices.SortFunc(es, func(a, b event) int { return cmp.Compare(a.t, b.t) })
		return
	}
	keys, sizes := make([]uint64, len(es)), make([]uint64, len(es))
	for i, e := range es {
		keys[i], sizes[i] = radix.Int64(e.t), e.size
	}
	radix.Sort(keys, sizes)
	for i := range es {
		es[i] = event{int64(keys[i] ^ 1<<63), sizes[i]}
	}
}
