package verify

import (
	"fmt"
	"unsafe"

	"github.com/aliasplan/aliasplan/planner"
)

// Resized verifies p, a plan that planner.Resize made for c from anchor, a
// plan that passed Plan for anchorC. It checks p's placement in full
// (Placement: statuses, requirements within each slot, alignment, bounds,
// no interfering overlap, stats) and proves the rest by identity instead
// of re-checking it (the stats' lowerBound and executionBound too):
//
//   - c.Graph has anchorC.Graph's structure (names, kinds, usages,
//     formats, mips, layers, samples, flags, commands and accesses: all
//     but sizes), so Compile gives both the same analysis — it reads no
//     size — and c may carry anchorC's;
//   - p shares anchor's Order, Pools, Serializations and Barriers (the
//     same arrays), and every resource has anchor's status and, when
//     pooled, anchor's pool, offset, slot size and Aliased flag.
//
// What Plan's barrier checks read of a plan is the analysis, the order,
// the serializations, the barriers, the statuses and the slots (which
// resources share which bytes); all are anchor's, so anchor's passing
// check is p's. Cost O(R + A) for R resources and A accesses, against
// Plan's O(A + B + alias pairs) barrier checks.
func Resized(c *planner.Compiled, p *planner.Plan, anchorC *planner.Compiled, anchor *planner.Plan) error {
	if c == nil || c.Graph == nil || p == nil || anchorC == nil || anchorC.Graph == nil || anchor == nil {
		return &Error{Pool: -1, Detail: "resized: nil compiled graph or plan"}
	}
	fail := func(format string, args ...any) error {
		return &Error{Pool: -1, Detail: "resized: " + fmt.Sprintf(format, args...)}
	}
	if !planner.SameStructure(c.Graph, anchorC.Graph) {
		return fail("the graph is not the anchor's but for sizes")
	}
	if !sameArray(p.Order, anchor.Order) || !sameArray(p.Pools, anchor.Pools) ||
		!sameArray(p.Serializations, anchor.Serializations) || !sameArray(p.Barriers, anchor.Barriers) ||
		!sameArray(p.FinalBarriers, anchor.FinalBarriers) ||
		!sameArray(p.Submissions, anchor.Submissions) || p.Semaphores != anchor.Semaphores ||
		p.Ordering != anchor.Ordering || p.Budget != anchor.Budget || len(p.Resources) != len(anchor.Resources) {
		return fail("the order, pools, serializations, barriers, submissions or ordering are not the anchor's")
	}
	for r := range p.Resources {
		rp, ap := &p.Resources[r], &anchor.Resources[r]
		if rp.Status != ap.Status {
			return &Error{Resource: c.Graph.Resources[r].Name, Pool: -1, Detail: fmt.Sprintf("resized: status %s, the anchor's %s", rp.Status, ap.Status)}
		}
		if rp.Queues != ap.Queues {
			return &Error{Resource: c.Graph.Resources[r].Name, Pool: -1, Detail: "resized: the queues that use it are not the anchor's"}
		}
		if rp.Status == planner.StatusPooled {
			x, y := rp.Placement, ap.Placement
			if x.Pool != y.Pool || x.Offset != y.Offset || x.Size != y.Size || x.Aliased != y.Aliased {
				return &Error{Resource: c.Graph.Resources[r].Name, Pool: x.Pool, Detail: fmt.Sprintf("resized: placement %+v, the anchor's %+v", x, y)}
			}
		}
	}
	// The stats' bounds read the analysis, the statuses, the pools'
	// memory types and classes, the slot sizes and the order (alignment
	// padding is not counted): all anchor's, checked above, so anchor's
	// bounds, which passed Plan, are p's. Recomputing them was 93% of a
	// resized frame's planning time (a max-flow per pool group).
	if p.Stats.LowerBound != anchor.Stats.LowerBound || p.Stats.ExecutionBound != anchor.Stats.ExecutionBound {
		return fail("stats: lowerBound %d and executionBound %d are not the anchor's %d and %d",
			p.Stats.LowerBound, p.Stats.ExecutionBound, anchor.Stats.LowerBound, anchor.Stats.ExecutionBound)
	}
	errs := &errList{max: 1}
	if verifyPlacementBounds(c, p, errs, false); len(errs.errs) > 0 {
		return errs.errs[0]
	}
	return nil
}

// sameArray reports whether a and b are the same slice: one array, one
// length (both empty counts).
func sameArray[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}
