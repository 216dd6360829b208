package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/vk"
)

// SyncNeed is an ordering across queues that the submissions must realise:
// command From (on one queue) happens-before command To (on another),
// From's work in FromStages before To's in ToStages. BuildSubmissions
// derives the DAG's own needs; callers add the others (an alias whose old
// occupant's terminal use is on another queue than the new occupant's
// first use: barriers.Build).
type SyncNeed struct {
	From, To             CommandID
	FromStages, ToStages vk.Stage
}

// CommandStages returns the OR of the stages of cmd's uses, a stageless
// use (only TOP_OF_PIPE/BOTTOM_OF_PIPE) counting as ALL_COMMANDS: the
// mask a semaphore signal after cmd, or a wait before it, names for it.
func (c *Compiled) CommandStages(cmd CommandID) vk.Stage {
	var s vk.Stage
	for _, ref := range c.CommandUses(cmd) {
		u := c.Use(ref)
		if u.Stages&^(vk.StageTopOfPipe|vk.StageBottomOfPipe) == 0 {
			s |= vk.StageAllCommands
		} else {
			s |= u.Stages
		}
	}
	if s == 0 {
		s = vk.StageAllCommands
	}
	return s
}

// BuildSubmissions groups the commands into per-queue batches in the
// execution order order (a topological order of the DAG that keeps each
// queue's commands in recorded order) and realises, with binary
// semaphores, every stored DAG edge between commands of different queues
// and every need in extra (which must be ordered by order). It returns the
// submissions, in submission order, and the number of semaphores.
//
// Walking order, each command joins its queue's open batch. Before it, each
// need from a command of another queue is looked up: a semaphore already
// signalled on that queue at or after the earlier command's batch and
// waited on this queue at or before the current batch (directly, or
// through the third queue: waited there before a batch that signals one
// waited here) covers it, and only has its masks widened. Otherwise the
// earlier command's batch is closed (submitted) if still open and signals
// a new semaphore, and this queue's open batch is closed if it has
// commands, so that a new batch starts with the wait. A batch is submitted
// when it is closed and waits only on batches closed before it was opened:
// submitting in order never waits on a signal not yet submitted.
//
// Cost: O(V + E + N·S) for V commands, E stored edges, N needs across
// queues and S the semaphores between one pair of queues.
func BuildSubmissions(c *Compiled, order []CommandID, extra []SyncNeed) ([]Submission, int, error) {
	g := c.Graph
	n := len(g.Commands)
	if len(order) != n {
		return nil, 0, fmt.Errorf("planner: submissions: order has %d commands, graph has %d", len(order), n)
	}
	// One allocation for the per-command arrays: positions, the needs'
	// CSR starts and fill cursors, and each command's batch.
	buf := make([]int32, 4*n+1)
	pos, inStart, fill, batchOf := buf[:n], buf[n:2*n+1], buf[2*n+1:3*n+1], buf[3*n+1:]
	for i := range pos {
		pos[i] = -1
	}
	last := [NumQueues]CommandID{-1, -1, -1}
	for i, cmd := range order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			return nil, 0, fmt.Errorf("planner: submissions: order position %d: command %d is out of range or repeated", i, cmd)
		}
		pos[cmd] = int32(i)
		q := g.Commands[cmd].Queue
		if q >= NumQueues {
			return nil, 0, &GraphError{Command: g.Commands[cmd].Name, Access: -1, Rule: RuleQueue, Detail: fmt.Sprintf("unknown queue %d", uint8(q))}
		}
		if cmd < last[q] {
			return nil, 0, &GraphError{Command: g.Commands[cmd].Name, Access: -1, Rule: RuleQueue,
				Detail: fmt.Sprintf("the order runs it after %q, recorded later on the %s queue: commands of one queue keep their recorded order", g.Commands[last[q]].Name, q)}
		}
		last[q] = cmd
	}
	// Needs into each command, bucketed by the later command.
	for a := range n {
		qa := g.Commands[a].Queue
		for _, b := range c.Successors(CommandID(a)) {
			if g.Commands[b].Queue != qa {
				inStart[b+1]++
			}
		}
	}
	for _, x := range extra {
		if x.From < 0 || int(x.From) >= n || x.To < 0 || int(x.To) >= n || pos[x.From] >= pos[x.To] {
			return nil, 0, fmt.Errorf("planner: submissions: need %d → %d is not ordered by the execution order", x.From, x.To)
		}
		inStart[x.To+1]++
	}
	for i := range n {
		inStart[i+1] += inStart[i]
	}
	in := make([]SyncNeed, inStart[n])
	copy(fill, inStart[:n])
	stages := make([]vk.Stage, n) // computed for the commands with needs only; CommandStages is never 0
	stage := func(cmd CommandID) vk.Stage {
		if stages[cmd] == 0 {
			stages[cmd] = c.CommandStages(cmd)
		}
		return stages[cmd]
	}
	for a := range n {
		qa := g.Commands[a].Queue
		for _, b := range c.Successors(CommandID(a)) {
			if g.Commands[b].Queue != qa {
				in[fill[b]] = SyncNeed{From: CommandID(a), To: b, FromStages: stage(CommandID(a)), ToStages: stage(b)}
				fill[b]++
			}
		}
	}
	for _, x := range extra {
		in[fill[x.To]] = x
		fill[x.To]++
	}

	s := subBuilder{batchOf: batchOf}
	for q := range s.open {
		s.open[q] = -1
	}
	for _, cmd := range order {
		q := g.Commands[cmd].Queue
		for _, x := range in[inStart[cmd]:inStart[cmd+1]] {
			s.need(x, g.Commands[x.From].Queue, q)
		}
		ob := s.openBatch(q)
		s.batches[ob].n++
		s.batchOf[cmd] = ob
	}
	for q := range Queue(NumQueues) {
		if s.open[q] >= 0 && s.batches[s.open[q]].n > 0 {
			s.close(q)
		}
	}
	// The submissions' lists, carved from one array each.
	rank := make([]int32, len(s.batches)) // batch → submission
	for i, b := range s.submitted {
		rank[b] = int32(i)
	}
	subs := make([]Submission, len(s.submitted))
	cmds := make([]CommandID, 0, n)
	for i, b := range s.submitted {
		subs[i].Queue = s.batches[b].queue
		at := len(cmds)
		cmds = cmds[:at+int(s.batches[b].n)]
		subs[i].Commands = cmds[at:at:len(cmds)]
	}
	for _, cmd := range order {
		sb := &subs[rank[s.batchOf[cmd]]]
		sb.Commands = append(sb.Commands, cmd) // within its carved capacity
	}
	ops := make([]SemaphoreOp, 2*len(s.sems))
	nw, ns := make([]int32, len(subs)), make([]int32, len(subs))
	for _, sm := range s.sems {
		nw[rank[sm.waitBatch]]++
		ns[rank[sm.sigBatch]]++
	}
	at := 0
	for i := range subs {
		subs[i].Wait = ops[at : at : at+int(nw[i])]
		at += int(nw[i])
		subs[i].Signal = ops[at : at : at+int(ns[i])]
		at += int(ns[i])
		if len(subs[i].Wait) == cap(subs[i].Wait) {
			subs[i].Wait = nil
		}
		if len(subs[i].Signal) == cap(subs[i].Signal) {
			subs[i].Signal = nil
		}
	}
	for k, sm := range s.sems { // in semaphore order: each list ascending
		w, sg := &subs[rank[sm.waitBatch]], &subs[rank[sm.sigBatch]]
		w.Wait = append(w.Wait, SemaphoreOp{Semaphore: k, Stages: sm.wait})
		sg.Signal = append(sg.Signal, SemaphoreOp{Semaphore: k, Stages: sm.signal})
	}
	return subs, len(s.sems), nil
}

type subBatch struct {
	queue Queue
	seq   int32 // its position among its queue's batches
	n     int32 // its commands
}

type subSem struct {
	from, to            Queue
	sigBatch, waitBatch int32 // batch indices
	signal, wait        vk.Stage
}

type subBuilder struct {
	batches   []subBatch
	submitted []int32                       // batch indices in submission order
	open      [NumQueues]int32              // per queue, its open batch (-1: none)
	nseq      [NumQueues]int32              // per queue, batches opened so far
	batchOf   []int32                       // per command, its batch
	sems      []subSem                      // semaphores, by number
	between   [NumQueues][NumQueues][]int32 // semaphores from one queue to another
}

// openBatch returns q's open batch, opening one if there is none.
func (s *subBuilder) openBatch(q Queue) int32 {
	if s.open[q] < 0 {
		s.batches = append(s.batches, subBatch{queue: q, seq: s.nseq[q]})
		s.nseq[q]++
		s.open[q] = int32(len(s.batches) - 1)
	}
	return s.open[q]
}

// close submits q's open batch.
func (s *subBuilder) close(q Queue) {
	s.submitted = append(s.submitted, s.open[q])
	s.open[q] = -1
}

// need makes sure x (from queue p to queue q) is covered.
func (s *subBuilder) need(x SyncNeed, p, q Queue) {
	ia := s.batches[s.batchOf[x.From]].seq
	// Directly: the semaphore from p to q signalled latest.
	if list := s.between[p][q]; len(list) > 0 {
		best := list[0]
		for _, k := range list[1:] {
			if s.batches[s.sems[k].sigBatch].seq > s.batches[s.sems[best].sigBatch].seq {
				best = k
			}
		}
		if sm := &s.sems[best]; s.batches[sm.sigBatch].seq >= ia {
			sm.signal |= x.FromStages
			sm.wait |= x.ToStages
			return
		}
	}
	// Through the third queue r: p → r waited at some batch of r, then a
	// semaphore r → q signalled at or after that batch.
	r := Queue(NumQueues) - p - q // the queues are 0, 1, 2
	if r < NumQueues && r != p && r != q {
		first := int32(-1) // the p → r semaphore waited earliest on r, signalled at or after ia
		for _, k := range s.between[p][r] {
			if sm := &s.sems[k]; s.batches[sm.sigBatch].seq >= ia && (first < 0 || s.batches[sm.waitBatch].seq < s.batches[s.sems[first].waitBatch].seq) {
				first = k
			}
		}
		if first >= 0 {
			w := s.batches[s.sems[first].waitBatch].seq
			for _, k := range s.between[r][q] {
				if sm := &s.sems[k]; s.batches[sm.sigBatch].seq >= w {
					s.sems[first].signal |= x.FromStages
					sm.wait |= x.ToStages
					if sm.signal&s.sems[first].wait == 0 {
						sm.signal |= s.sems[first].wait
					}
					return
				}
			}
		}
	}
	// A new semaphore: close the earlier command's batch if it is still
	// open, and start a new batch here if this one has commands.
	fb := s.batchOf[x.From]
	if s.open[p] == fb {
		s.close(p)
	}
	if ob := s.open[q]; ob >= 0 && s.batches[ob].n > 0 {
		s.close(q)
	}
	wb := s.openBatch(q)
	k := len(s.sems)
	s.sems = append(s.sems, subSem{from: p, to: q, sigBatch: fb, waitBatch: wb, signal: x.FromStages, wait: x.ToStages})
	s.between[p][q] = append(s.between[p][q], int32(k))
}
