// Package stubsubmit fills a single-queue plan's Submissions for the
// Vulkan tests of issue 24 until the planner's own submissions exist: a
// conservative builder, not the planner's (it does not minimise
// semaphores or batches and waits at ALL_COMMANDS).
//
// It walks the plan's order; a command joins the last batch when that
// batch is on its queue and every wait it needs is already implied, else
// it opens a batch. A command needs a wait on the latest earlier batch of
// each other queue holding a command it conflicts with: one that shares a
// resource with it, or whose pooled resources overlap its pooled
// resources' bytes. Every wait has a semaphore of its own, signalled by
// the batch it waits on; signal and wait stages are ALL_COMMANDS, so any
// barrier after the wait chains with it. The last submission is a
// graphics batch that waits on every other queue's last batch (the
// plan's final barriers are recorded there).
package stubsubmit

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Fill sets plan.Submissions and plan.Semaphores for g.
func Fill(g *planner.Graph, plan *planner.Plan) {
	type batch struct {
		q    planner.Queue
		cmds []planner.CommandID
	}
	var bs []batch
	var subs []planner.Submission
	// seen[q][Q]: the latest batch of Q that q's batches already wait on
	// (or -1); last[Q]: Q's latest batch.
	var seen [planner.NumQueues][planner.NumQueues]int
	var last [planner.NumQueues]int
	for i := range seen {
		last[i] = -1
		for j := range seen[i] {
			seen[i][j] = -1
		}
	}
	sem := 0
	wait := func(k, on int) {
		subs[on].Signal = append(subs[on].Signal, planner.SemaphoreOp{Semaphore: sem, Stages: vk.StageAllCommands})
		subs[k].Wait = append(subs[k].Wait, planner.SemaphoreOp{Semaphore: sem, Stages: vk.StageAllCommands})
		sem++
		seen[bs[k].q][bs[on].q] = on
	}
	open := func(q planner.Queue) int {
		bs = append(bs, batch{q: q})
		subs = append(subs, planner.Submission{Queue: q})
		k := len(bs) - 1
		last[q] = k
		return k
	}
	for _, c := range plan.Order {
		q := g.Commands[c].Queue
		var need [planner.NumQueues]int
		newWait := false
		for Q := range need {
			need[Q] = -1
			if planner.Queue(Q) == q {
				continue
			}
			for k := last[Q]; k >= 0 && k > seen[q][Q]; k-- {
				if bs[k].q != planner.Queue(Q) {
					continue
				}
				if conflictsAny(g, plan, c, bs[k].cmds) {
					need[Q] = k
					newWait = true
					break
				}
			}
		}
		k := len(bs) - 1
		if k < 0 || bs[k].q != q || newWait {
			k = open(q)
			for _, on := range need {
				if on >= 0 {
					wait(k, on)
				}
			}
		}
		bs[k].cmds = append(bs[k].cmds, c)
		subs[k].Commands = append(subs[k].Commands, c)
	}
	// A closing graphics batch that waits on every other queue.
	k := len(bs) - 1
	needClose := k < 0 || bs[k].q != planner.QueueGraphics
	for Q := range last {
		if planner.Queue(Q) != planner.QueueGraphics && last[Q] >= 0 && seen[planner.QueueGraphics][Q] < last[Q] {
			needClose = true
		}
	}
	if needClose {
		k = open(planner.QueueGraphics)
		for Q := range last {
			if planner.Queue(Q) != planner.QueueGraphics && last[Q] >= 0 && seen[planner.QueueGraphics][Q] < last[Q] {
				wait(k, last[Q])
			}
		}
	}
	plan.Submissions, plan.Semaphores = subs, sem
}

func conflictsAny(g *planner.Graph, plan *planner.Plan, c planner.CommandID, cmds []planner.CommandID) bool {
	for _, x := range cmds {
		if conflicts(g, plan, c, x) {
			return true
		}
	}
	return false
}

func conflicts(g *planner.Graph, plan *planner.Plan, a, b planner.CommandID) bool {
	for _, x := range g.Commands[a].Accesses {
		for _, y := range g.Commands[b].Accesses {
			if x.Resource == y.Resource || overlap(plan, x.Resource, y.Resource) {
				return true
			}
		}
	}
	return false
}

func overlap(plan *planner.Plan, a, b planner.ResourceID) bool {
	pa, pb := &plan.Resources[a], &plan.Resources[b]
	if pa.Status != planner.StatusPooled || pb.Status != planner.StatusPooled || pa.Placement.Pool != pb.Placement.Pool {
		return false
	}
	x, y := pa.Placement, pb.Placement
	return x.Offset < y.Offset+y.Size && y.Offset < x.Offset+x.Size
}
