package barriers

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Queues (SPEC §2, §4). Barriers are per queue: a pipeline barrier orders
// only its own queue's commands. A predecessor on another queue is ordered
// by a semaphore (Plan.Submissions), which is a full memory dependency; the
// barrier before the later command then names only predecessors on its
// queue, and where it changes a layout (or starts an aliased image from
// UNDEFINED) after work of another queue its source stages include the
// command's own stages, which the semaphore wait's stage mask holds, so the
// transition chains after the wait.

// otherQueue reports whether commands a and b run on different queues.
func (b *builder) otherQueue(a, cmd planner.CommandID) bool {
	if !b.multi || a < 0 || cmd < 0 {
		return false
	}
	cs := b.c.Graph.Commands
	return cs[a].Queue != cs[cmd].Queue
}

// terminalScopeOn is terminalScope restricted to the terminal uses on the
// queue of cmd, and whether r has a terminal use on another queue.
func (b *builder) terminalScopeOn(r planner.ResourceID, cmd planner.CommandID) (vk.Stage, vk.AccessFlags, bool) {
	if !b.multi {
		s, w := b.terminalScope(r)
		return s, w, false
	}
	var s vk.Stage
	var w vk.AccessFlags
	cross := false
	us := b.c.Uses(r)
	for _, t := range b.c.Terminal(r) {
		if b.otherQueue(t, cmd) {
			cross = true
			continue
		}
		i := useIndex(b.c, r, t)
		s |= b.eff[b.useBase[r]+int32(i)]
		w |= us[i].Access.Writes()
	}
	return s, w, cross
}

// submissions fills p.Submissions, p.Semaphores and the resources' queue
// sets when some command is not on graphics, and clears them otherwise.
// Besides the DAG's edges across queues it asks the semaphores to order
// every terminal use of an old occupant on another queue than the new
// occupant's initial use (every pair that shares bytes, so that no alias
// relies on a chain through a third resource's barrier on another queue),
// and every terminal use of an imported image with a final barrier on
// another queue than the last command (final barriers are recorded after
// it, on its queue).
func (b *builder) submissions() error {
	p, c := b.p, b.c
	g := c.Graph
	p.Submissions, p.Semaphores = nil, 0
	p.Transfers = nil
	for r := range p.Resources {
		p.Resources[r].Queues = 0
		p.Resources[r].Exclusive = false
	}
	if !b.multi {
		return nil
	}
	if p.Ordering != planner.OrderDAG {
		return &planner.BarrierError{Barrier: -1, Rule: planner.RuleQueue,
			Detail: fmt.Sprintf("ordering %s with several queues: only dag is supported (execution and budget order through pipeline barriers, which do not cross queues)", p.Ordering)}
	}
	for r := range g.Resources {
		var qs planner.QueueSet
		for _, u := range c.Uses(planner.ResourceID(r)) {
			qs = qs.Add(g.Commands[u.Command].Queue)
		}
		p.Resources[r].Queues = qs
	}
	var needs []planner.SyncNeed
	cmdStages := make([]vk.Stage, len(g.Commands))
	stages := func(cmd planner.CommandID) vk.Stage {
		if cmdStages[cmd] == 0 {
			cmdStages[cmd] = c.CommandStages(cmd)
		}
		return cmdStages[cmd]
	}
	termQ := make([]planner.QueueSet, len(g.Resources))
	for r := range g.Resources {
		for _, t := range c.Terminal(planner.ResourceID(r)) {
			termQ[r] = termQ[r].Add(g.Commands[t].Queue)
		}
	}
	// Aliases: every overlapping pair of pooled resources (oldOccupants
	// found them, ordered by the DAG).
	for _, pr := range b.pairs {
		o, r := pr[0], pr[1]
		if in := c.Initial(r); len(in) == 1 && termQ[o] == planner.QueueSet(0).Add(g.Commands[in[0]].Queue) {
			continue // one queue: the alias barrier's business
		}
		for _, i := range c.Initial(r) {
			for _, t := range c.Terminal(o) {
				if g.Commands[t].Queue != g.Commands[i].Queue {
					needs = append(needs, planner.SyncNeed{From: t, To: i, FromStages: stages(t), ToStages: stages(i)})
				}
			}
		}
	}
	// Final barriers: recorded after the last command, on its queue.
	if len(p.FinalBarriers) > 0 && len(p.Order) > 0 {
		end := p.Order[len(p.Order)-1]
		for _, x := range p.FinalBarriers {
			for _, t := range c.Terminal(x.Resource) {
				if g.Commands[t].Queue != g.Commands[end].Queue {
					needs = append(needs, planner.SyncNeed{From: t, To: end, FromStages: stages(t), ToStages: vk.StageAllCommands})
				}
			}
		}
	}
	needs = append(needs, b.ownership(stages)...) // ownership.go
	subs, n, err := planner.BuildSubmissions(c, p.Order, needs)
	if err != nil {
		return err
	}
	p.Submissions, p.Semaphores = subs, n
	return nil
}

// crossReads reports whether one of the reads is on another queue than
// cmd: a write after them then waits for the last modification itself
// (a barrier on its queue, or a semaphore) instead of relying on the reads
// to chain it across queues.
func (b *builder) crossReads(reads []planner.Use, cmd planner.CommandID) bool {
	if !b.multi {
		return false
	}
	for _, r := range reads {
		if b.otherQueue(r.Command, cmd) {
			return true
		}
	}
	return false
}

// waitVisible is the source access of an image barrier that chains after
// a semaphore wait at the use's stages (a transition after work of
// another queue): the use's own access flags, which the wait made
// visible (or MEMORY_READ|MEMORY_WRITE for a use without any). Vulkan
// needs no source access there: the signal made every write available
// and the source stages chain after the wait. The Khronos layer
// (1.3.239, submit-time validation) credits a write of another queue to
// the transition only when the barrier's source access meets what the
// wait made visible; with NONE it reported 24 write-after-write hazards
// on the H200 for the async sample frame and random queue graphs.
func waitVisible(dstA vk.AccessFlags) vk.AccessFlags {
	if dstA == 0 {
		return vk.AccessMemoryRead | vk.AccessMemoryWrite
	}
	return dstA
}

// crossScope is what a layout change after another queue's last write to
// the image (or to an old occupant of its memory) adds to its source
// scope: that write's own stages and write access, as far as the barrier's
// queue may name them. Vulkan needs none of it (the semaphore wait made
// the write available and visible to the wait's stages, and the
// transition chains after the wait); Khronos layer 1.3.239 credits a
// transition against a write made visible by an EARLIER batch's wait on
// this queue only when the barrier's source access scope holds the
// write's own stage and access (H200, random queue graph 97: a GENERAL to
// SHADER_READ_ONLY transition whose source was the sampled read alone
// drew WRITE_AFTER_WRITE against the other queue's storage write).
func (b *builder) crossScope(cmd planner.CommandID, stages vk.Stage, writes vk.AccessFlags) (vk.Stage, vk.AccessFlags) {
	s := stages & planner.QueueStages(b.c.Graph.Commands[cmd].Queue)
	if s == 0 || writes == 0 {
		return 0, 0
	}
	return s, writes &^ vk.UnsupportedAccess(s, writes)
}
