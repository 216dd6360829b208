package verify

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// frameScopes recomputes, over p's pooled resources, the stages and
// accesses of their initial uses (first) and the stages and writes of
// their terminal uses (last); a use without stages (TOP/BOTTOM_OF_PIPE
// only) counts as ALL_COMMANDS. Independent of barriers.FrameScopes.
func frameScopes(c *planner.Compiled, p *planner.Plan) (firstS vk.Stage, firstA vk.AccessFlags, lastS vk.Stage, lastW vk.AccessFlags) {
	stages := func(s vk.Stage) vk.Stage {
		if s&^(vk.StageTopOfPipe|vk.StageBottomOfPipe) == 0 {
			return vk.StageAllCommands
		}
		return s
	}
	for r := range p.Resources {
		if r >= len(c.Graph.Resources) || p.Resources[r].Status != planner.StatusPooled {
			continue
		}
		id := planner.ResourceID(r)
		for _, u := range c.Uses(id) {
			for _, cmd := range c.Initial(id) {
				if cmd == u.Command {
					firstS |= stages(u.Stages)
					firstA |= u.Access
				}
			}
			for _, cmd := range c.Terminal(id) {
				if cmd == u.Command {
					lastS |= stages(u.Stages)
					lastW |= u.Access.Writes()
				}
			}
		}
	}
	return
}

func includesStages(a, b vk.Stage) bool { return b.Expand()&^a.Expand() == 0 }

func includesAccess(a, b vk.AccessFlags) bool { return b.Expand()&^a.Expand() == 0 }

// verifyEntry checks p's entry barrier within the frame: one memory
// barrier of Kind Entry in call 0 before the first command, naming no
// resource, its destination covering every pooled resource's initial
// uses (stages and accesses), access flags its stages can perform, and
// every pooled image's UNDEFINED transition chained after it (source
// stages meeting its destination, and in call 1 when before the first
// command).
func verifyEntry(c *planner.Compiled, p *planner.Plan, errs *errList) {
	g := c.Graph
	fail := func(r planner.ResourceID, k int, format string, args ...any) bool {
		e := &planner.BarrierError{Barrier: k, Rule: planner.RuleEntryBarrier, Detail: fmt.Sprintf(format, args...)}
		if r >= 0 && int(r) < len(g.Resources) {
			e.Resource = g.Resources[r].Name
		}
		if len(p.Order) > 0 && int(p.Order[0]) < len(g.Commands) {
			e.Before = g.Commands[p.Order[0]].Name
		}
		return errs.add(e)
	}
	if len(p.Entry) != 1 || len(p.Order) == 0 {
		fail(-1, -1, "a plan has at most one entry barrier, before its first command; this one has %d and %d commands", len(p.Entry), len(p.Order))
		return
	}
	x := &p.Entry[0]
	if x.Kind != planner.Entry || x.Type != planner.MemoryBarrier || x.Resource != planner.NoResource || x.Call != 0 ||
		x.Before != p.Order[0] || len(x.Previous) != 0 || x.OldLayout != vk.LayoutUndefined || x.NewLayout != vk.LayoutUndefined {
		fail(-1, -1, "the entry barrier must be a memory barrier of kind entry in call 0 before the first command of the order, naming no resource; it is %s %s in call %d before command %d",
			x.Kind, x.Type, x.Call, x.Before)
		return
	}
	firstS, firstA, _, _ := frameScopes(c, p)
	if !includesStages(x.DstStages, firstS) || !includesAccess(x.DstAccess, firstA) {
		if fail(-1, -1, "the entry barrier's destination %s / %s does not cover the pooled resources' first uses %s / %s",
			x.DstStages, x.DstAccess, firstS, firstA) {
			return
		}
	}
	if bad := vk.UnsupportedAccess(x.SrcStages, x.SrcAccess); bad != 0 {
		if fail(-1, -1, "source access %s is performed by none of the source stages %s", bad, x.SrcStages) {
			return
		}
	}
	if bad := vk.UnsupportedAccess(x.DstStages, x.DstAccess); bad != 0 {
		if fail(-1, -1, "destination access %s is performed by none of the destination stages %s", bad, x.DstStages) {
			return
		}
	}
	dst := x.DstStages.Expand()
	for k := range p.Barriers {
		y := &p.Barriers[k]
		if y.Type != planner.ImageBarrier || y.OldLayout != vk.LayoutUndefined || y.Resource < 0 || int(y.Resource) >= len(p.Resources) ||
			p.Resources[y.Resource].Status != planner.StatusPooled {
			continue
		}
		if y.SrcStages.Expand()&dst == 0 {
			if fail(y.Resource, k, "the transition out of UNDEFINED does not chain after the entry barrier: its source stages %s meet none of the entry's destination %s (the previous frame's writes to its bytes would not be available to it)",
				y.SrcStages, x.DstStages) {
				return
			}
		}
		if y.Before == p.Order[0] && y.Call == 0 {
			if fail(y.Resource, k, "the transition out of UNDEFINED is in the entry barrier's call 0 before the first command: barriers of one call are not ordered among themselves; it belongs in call 1") {
				return
			}
		}
	}
}

// SequenceState checks frames submitted one after another into the same
// memory (aliasplan.Frames' plans): each frame's entry barrier must order
// every earlier frame's uses of pooled bytes on its queue before its first
// uses, and on several queues its FrameWaits the earlier frames' batches
// on the other queues (sequence_queues.go). The zero value knows nothing of what ran before the
// first frame, which must then wait for the full scope (ALL_COMMANDS,
// MEMORY_WRITE).
type SequenceState struct {
	started bool
	// needS and needW are what the next frame's entry source must hold:
	// the last frame's terminal stages and writes and its entry's
	// destination stages (through which the frames before chain).
	needS vk.Stage
	needW vk.AccessFlags
	q     queueSeq // sequence_queues.go
}

// Check checks plan p of c (verified alone with Plan) as the next frame
// of the sequence and records it. A frame that pools nothing may have no
// entry barrier; what it must wait for passes on to the next frame. O(A).
func (s *SequenceState) Check(c *planner.Compiled, p *planner.Plan) error {
	if c == nil || c.Graph == nil || p == nil {
		return &Error{Pool: -1, Detail: "nil compiled graph or plan"}
	}
	needS, needW := s.needS, s.needW
	if !s.started {
		needS, needW = vk.StageAllCommands, vk.AccessMemoryWrite
	}
	firstS, _, lastS, lastW := frameScopes(c, p)
	if len(p.Entry) == 0 {
		if firstS != 0 {
			return &planner.BarrierError{Barrier: -1, Rule: planner.RuleEntryBarrier,
				Detail: "the frame pools resources but has no entry barrier: its first uses are not ordered after the previous frame's last uses of the same bytes"}
		}
		if err := s.q.check(p, false); err != nil {
			return err
		}
		s.started, s.needS, s.needW = true, needS|lastS, needW|lastW
		return nil
	}
	errs := &errList{max: 1}
	if verifyEntry(c, p, errs); len(errs.errs) > 0 {
		return errs.errs[0]
	}
	x := &p.Entry[0]
	if !includesStages(x.SrcStages, needS) || !includesAccess(x.SrcAccess, needW) {
		return &planner.BarrierError{Barrier: -1, Rule: planner.RuleEntryBarrier,
			Detail: fmt.Sprintf("the entry barrier's source %s / %s does not cover the frames before it on the queue: %s / %s (the previous frame's terminal scope of its pooled resources and its entry's destination)",
				x.SrcStages, x.SrcAccess, needS, needW)}
	}
	if err := s.q.check(p, true); err != nil {
		return err
	}
	s.started, s.needS, s.needW = true, lastS|firstS, lastW
	return nil
}

// Sequence checks frames (plans of compiled graphs, verified alone)
// submitted in this order on one queue into the same memory, the first
// with nothing known before it: SequenceState.Check over each.
func Sequence(cs []*planner.Compiled, ps []*planner.Plan) error {
	if len(cs) != len(ps) {
		return &Error{Pool: -1, Detail: fmt.Sprintf("%d compiled graphs for %d plans", len(cs), len(ps))}
	}
	var s SequenceState
	for i := range ps {
		if err := s.Check(cs[i], ps[i]); err != nil {
			return fmt.Errorf("frame %d: %w", i+1, err)
		}
	}
	return nil
}

// entryChained reports whether x is a first-use transition that a plan
// with an entry barrier records in call 1 of its first command, after the
// entry barrier (barriers.ChainFirstUses).
func entryChained(p *planner.Plan, x *planner.Barrier) bool {
	return len(p.Entry) > 0 && len(p.Order) > 0 && x.Before == p.Order[0] && x.Type == planner.ImageBarrier && x.OldLayout == vk.LayoutUndefined
}
