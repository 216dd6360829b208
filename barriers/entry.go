package barriers

import (
	"slices"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Scope is one side of a dependency: stages and access flags.
type Scope struct {
	Stages vk.Stage
	Access vk.AccessFlags
}

// useStages are a use's stages for a frame-boundary scope: a use without
// stages of its own (only TOP_OF_PIPE or BOTTOM_OF_PIPE, which are NONE
// in one of the two scopes) counts as ALL_COMMANDS.
func useStages(s vk.Stage) vk.Stage {
	if stageless(s) {
		return vk.StageAllCommands
	}
	return s
}

// FrameScopes returns, over p's pooled resources, the scope of their
// initial uses (first: what a frame-entry barrier must make wait; stages
// and every access flag) and of their terminal uses (last: what the next
// frame's entry barrier must wait for; stages and write accesses). A use
// without stages counts as ALL_COMMANDS. They depend only on c's
// structure and the statuses, so a resized plan has its anchor's. O(A).
func FrameScopes(c *planner.Compiled, p *planner.Plan) (first, last Scope) {
	for r := range p.Resources {
		if p.Resources[r].Status != planner.StatusPooled {
			continue
		}
		id := planner.ResourceID(r)
		us := c.Uses(id)
		for _, cmd := range c.Initial(id) {
			u := &us[useIndex(c, id, cmd)]
			first.Stages |= useStages(u.Stages)
			first.Access |= u.Access
		}
		for _, cmd := range c.Terminal(id) {
			u := &us[useIndex(c, id, cmd)]
			last.Stages |= useStages(u.Stages)
			last.Access |= u.Access.Writes()
		}
	}
	return first, last
}

// FullScope is a frame-entry barrier's source when the previous frame on
// the queue is unknown: every earlier command and write.
var FullScope = Scope{Stages: vk.StageAllCommands, Access: vk.AccessMemoryWrite}

// EntryBarrier returns the frame-entry barrier of p: a VkMemoryBarrier2 in
// call 0 before p's first command, source src (the previous frame's
// terminal scope on this queue, see EntrySource; FullScope when unknown),
// destination first (FrameScopes). It orders every earlier use of the
// pool bytes before this frame's first uses and makes earlier writes
// available and visible to them. ok is false when p pools nothing.
func EntryBarrier(p *planner.Plan, src, first Scope) (x planner.Barrier, ok bool) {
	if len(p.Order) == 0 || first.Stages == 0 {
		return planner.Barrier{}, false
	}
	return planner.Barrier{Before: p.Order[0], Kind: planner.Entry, Type: planner.MemoryBarrier, Resource: planner.NoResource,
		SrcStages: src.Stages, SrcAccess: src.Access, DstStages: first.Stages, DstAccess: first.Access}, true
}

// EntrySource is the source scope of the entry barrier of the frame that
// follows one whose pooled resources' terminal scope is last and whose own
// entry barrier's destination is prevFirst (zero when it had none): its
// terminal stages and writes, and prevFirst's stages, through which the
// uses of frames before it that it did not touch chain (their writes the
// earlier entry barrier made available).
func EntrySource(last, prevFirst Scope) Scope {
	return Scope{Stages: last.Stages | prevFirst.Stages, Access: last.Access}
}

// ChainFirstUses prepares p (its barriers from Build) for a frame-entry
// barrier: every pooled image's transition out of UNDEFINED (a first use,
// fresh or alias) gets its own destination stages in its source, so that
// it chains after the entry barrier (whose destination holds them) and
// follows the availability of the previous frame's writes; one before the
// first command of the order moves to call 1, after the entry barrier's
// call 0 (barriers of one call are not ordered among themselves). It
// changes p.Barriers in place (call it before sharing them) and returns
// how many barriers it changed. O(B).
func ChainFirstUses(p *planner.Plan) int {
	n := 0
	for i := range p.Barriers {
		x := &p.Barriers[i]
		if x.Type != planner.ImageBarrier || x.OldLayout != vk.LayoutUndefined || x.Resource < 0 ||
			p.Resources[x.Resource].Status != planner.StatusPooled {
			continue
		}
		changed := false
		if x.SrcStages&x.DstStages != x.DstStages {
			x.SrcStages |= x.DstStages
			changed = true
		}
		if len(p.Order) > 0 && x.Before == p.Order[0] && x.Call == 0 {
			x.Call = 1
			changed = true
		}
		if changed {
			n++
		}
	}
	// Barriers are grouped by call within their command: the first
	// command's come first (grouped by position in the order).
	k := 0
	for k < len(p.Barriers) && len(p.Order) > 0 && p.Barriers[k].Before == p.Order[0] {
		k++
	}
	slices.SortStableFunc(p.Barriers[:k], func(a, b planner.Barrier) int { return int(a.Call) - int(b.Call) })
	return n
}

// appendEntry adds p's entry barrier to the first command's call 0.
func appendEntry(call0 []*planner.Barrier, p *planner.Plan) []*planner.Barrier {
	for i := range p.Entry {
		call0 = append(call0, &p.Entry[i])
	}
	return call0
}
