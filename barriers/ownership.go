package barriers

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Queue family ownership (issue 24, item 4, Options.Sharing exclusive).
// A transient resource whose uses change queue is handed over at each
// change: the uses of r in recorded order fall into runs of one queue;
// between run k (queue A) and run k+1 (queue B) a release after the last
// of run k in execution order and an acquire before the first of run
// k+1, with the layout run k leaves the image in (old == new in both: a
// layout change run k+1 needs is its own barrier, which chains after the
// acquire). A buffer whose run k+1 starts with a write that reads nothing
// discards its contents: no transfer there. The two must be ordered by
// the DAG (a semaphore then orders them; ownership asks for it directly).
// A resource that cannot be handed over so (planner.Compiled.Exclusive:
// imported, the caller's other frames own it on families the plan cannot
// know; accessed by subresource ranges; uses on two queues that the DAG
// leaves unordered, e.g. reads, which EXCLUSIVE cannot share) stays
// CONCURRENT.

// ownership fills p.Transfers and the resources' Exclusive flags in a
// plan with exclusive sharing, and returns the semaphore needs of the
// hand-overs.
func (b *builder) ownership(stages func(planner.CommandID) vk.Stage) []planner.SyncNeed {
	p, c := b.p, b.c
	g := c.Graph
	p.Transfers = p.Transfers[:0]
	if p.Sharing != planner.SharingExclusive {
		p.Transfers = nil
		return nil
	}
	var needs []planner.SyncNeed
	for ri := range g.Resources {
		r := planner.ResourceID(ri)
		res := &g.Resources[r]
		if p.Resources[r].Queues.Len() < 2 || !c.Exclusive(r) {
			continue
		}
		us := c.Uses(r)
		for s := 0; s < len(us); {
			q := g.Commands[us[s].Command].Queue
			e := s + 1
			for e < len(us) && g.Commands[us[e].Command].Queue == q {
				e++
			}
			if e == len(us) {
				break
			}
			n := e + 1
			for n < len(us) && g.Commands[us[n].Command].Queue == g.Commands[us[e].Command].Queue {
				n++
			}
			if planner.HandoverDiscards(res, us[e]) {
				s = e // discarded: the new queue takes the buffer as is
				continue
			}
			last, first := s, e
			var src vk.Stage
			var srcAccess vk.AccessFlags
			for i := s; i < e; i++ {
				if b.pos[us[i].Command] > b.pos[us[last].Command] {
					last = i
				}
				src |= us[i].Stages
				srcAccess |= us[i].Access.Writes()
			}
			for i := e; i < n; i++ {
				if b.pos[us[i].Command] < b.pos[us[first].Command] {
					first = i
				}
			}
			after, before := us[last].Command, us[first].Command // c.Exclusive: ordered
			t := planner.OwnershipTransfer{Resource: r, From: q, To: g.Commands[before].Queue, After: after, Before: before,
				SrcStages: src, SrcAccess: srcAccess, DstStages: us[first].Stages, DstAccess: us[first].Access}
			if res.Kind == planner.KindImage {
				t.OldLayout, t.NewLayout = us[last].Layout, us[last].Layout
			}
			p.Transfers = append(p.Transfers, t)
			s = e
		}
		p.Resources[r].Exclusive = true
	}
	for _, t := range p.Transfers {
		needs = append(needs, planner.SyncNeed{From: t.After, To: t.Before, FromStages: stages(t.After), ToStages: stages(t.Before)})
	}
	if len(p.Transfers) == 0 {
		p.Transfers = nil
	}
	return needs
}
