package planner

import (
	"errors"
	"slices"
)

// ErrNoFit is Resize's answer when the new requirements do not fit the
// anchor's placement: the caller plans afresh.
var ErrNoFit = errors.New("planner: the requirements do not fit the anchor's placement")

// Resize plans c by keeping anchor's placement: the same statuses, pools,
// offsets, order, serializations and barriers, for a graph that differs
// from anchor's only in sizes (the same resources, commands and accesses,
// in the same order; buffer sizes, image extents and explicit
// requirements may differ). It is what a renderer under dynamic
// resolution needs: a frame whose resources all shrank keeps the memory
// layout of the largest frame, with no strategy run and no new pool.
//
// Each pooled resource keeps its anchor slot: Placement.Size stays the
// anchor's (the bytes reserved, at least the new required size), so every
// byte two resources share now they shared in the anchor, and the
// anchor's barriers, which covered every shared byte, still do. It fits
// when every resource gets the status Place would give it, and each
// pooled one's new size is at most its slot, its alignment divides the
// slot's offset and its memoryTypeBits contain the pool's type (a
// resource the anchor dedicated stays dedicated). Otherwise
// Resize returns ErrNoFit. Stats are those of the new sizes, except
// LowerBound and ExecutionBound, which are the anchor's: bounds of the
// slots as placed.
//
// The result shares the anchor's Order, Pools, Serializations, Barriers
// and FinalBarriers (read-only, as every plan). The caller must make sure the
// structure matches and verify the result (verify.Resized, or
// verify.Plan): Resize checks the sizes, not the structure. Cost: O(R + B) for R resources and
// B barriers, plus one requirements query per resource without explicit
// requirements.
func Resize(c *Compiled, anchor *Plan, opts Options) (*Plan, error) {
	if anchor == nil || len(anchor.Resources) != len(c.Graph.Resources) {
		return nil, ErrNoFit
	}
	opts.Order, opts.Budget = anchor.Ordering, anchor.Budget
	p, _, err := decide(c, &opts)
	if err != nil {
		return nil, err
	}
	for r := range p.Resources {
		rp, ap := &p.Resources[r], &anchor.Resources[r]
		if rp.Status == StatusPooled && ap.Status == StatusDedicated {
			// The anchor dedicated it for a size or padding it no longer
			// has: it stays alone (Verify accepts that; Place would pool it).
			rp.Status = StatusDedicated
		}
		if rp.Status != ap.Status {
			return nil, ErrNoFit
		}
		if rp.Status != StatusPooled {
			rp.Reason = ap.Reason
			continue
		}
		q, slot := &rp.Requirements, ap.Placement
		pool := &anchor.Pools[slot.Pool]
		if q.Size > slot.Size || q.Alignment == 0 || slot.Offset%q.Alignment != 0 ||
			pool.MemoryTypeIndex >= 32 || q.MemoryTypeBits&(1<<pool.MemoryTypeIndex) == 0 {
			return nil, ErrNoFit
		}
		rp.Placement = slot
		rp.Placement.Alignment = q.Alignment
	}
	// Shared with the anchor, read-only like every plan: verify.Resized
	// proves the barriers' coverage by this identity.
	p.Strategy = anchor.Strategy
	p.Order, p.Pools, p.Serializations, p.Barriers = anchor.Order, anchor.Pools, anchor.Serializations, anchor.Barriers
	p.FinalBarriers, p.Warnings = anchor.FinalBarriers, anchor.Warnings
	p.Submissions, p.Semaphores = anchor.Submissions, anchor.Semaphores
	for r := range p.Resources {
		p.Resources[r].Queues = anchor.Resources[r].Queues
	}
	if err := sumStats(c.Graph, p); err != nil {
		return nil, err
	}
	p.Stats.LowerBound, p.Stats.ExecutionBound = anchor.Stats.LowerBound, anchor.Stats.ExecutionBound
	return p, nil
}

// SameStructure reports whether a and b differ at most in sizes — buffer
// sizes, image extents and explicit requirements (given or not) — so that
// Compile analyses both alike (it reads no size). O(R + A), no allocation.
func SameStructure(a, b *Graph) bool {
	if len(a.Resources) != len(b.Resources) || len(a.Commands) != len(b.Commands) {
		return false
	}
	for i := range a.Commands {
		x, y := &a.Commands[i], &b.Commands[i]
		if x.Name != y.Name || x.Queue != y.Queue || !slices.Equal(x.Accesses, y.Accesses) {
			return false
		}
	}
	for i := range a.Resources {
		x, y := &a.Resources[i], &b.Resources[i]
		xi, yi := x.Image, y.Image
		xi.Width, xi.Height, xi.Depth = yi.Width, yi.Height, yi.Depth
		if x.Name != y.Name || x.Kind != y.Kind || x.Buffer.Usage != y.Buffer.Usage || xi != yi ||
			x.Imported != y.Imported || x.Memory != y.Memory || x.Dedicated != y.Dedicated {
			return false
		}
	}
	return true
}
