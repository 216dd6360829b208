package verify

import (
	"fmt"
	"sort"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Queues (SPEC §2, §4, §5): the plan's submissions, checked from the graph
// and the placement, independently of planner.BuildSubmissions.
//
//   - structure: a plan has submissions exactly when a command is off
//     graphics; each command is in exactly one submission, of its own
//     queue; a queue's submissions list its commands in execution order,
//     which is their recorded order; the ordering is dag;
//   - semaphores: each is signalled by exactly one submission and waited on
//     by exactly one later submission (binary semaphores, submitted in
//     order: no deadlock), with non-empty stage masks;
//   - sharing: each resource's Queues is the set of queues that use it;
//   - coverage: every hazard edge between commands of different queues,
//     every pair of pooled resources that share bytes whose old occupant
//     has a terminal use on another queue than the new one's initial use,
//     and every terminal use on another queue of an image transitioned by
//     a final barrier, is covered by a signal→wait chain: a semaphore
//     signalled on the earlier command's queue in its submission or a later
//     one, its signal mask holding the earlier use's stages, waited on the
//     later command's queue in its submission or an earlier one, the wait
//     mask holding the later use's stages — or through the third queue,
//     whose wait and later signal masks meet. Where the later command
//     changes a layout, or starts an aliased image from UNDEFINED, the
//     image barrier doing it must chain after the wait: its source stages
//     meet the wait's stage mask.
//
// Stage masks count meta stages as what they stand for; BOTTOM_OF_PIPE in
// a signal (a first scope) and TOP_OF_PIPE in a wait (a second scope) as
// every stage. A stageless use (TOP/BOTTOM only) needs ALL_COMMANDS.

// crossEdge is a hazard edge between uses I and J of resource R on
// different queues.
type crossEdge struct {
	R    planner.ResourceID
	I, J int32
}

func (v *barrierCheck) otherQueue(a, b planner.CommandID) bool {
	if !v.multi || a < 0 || b < 0 {
		return false
	}
	cs := v.c.Graph.Commands
	return cs[a].Queue != cs[b].Queue
}

// terminalNeedOn is terminalNeed restricted to r's terminal uses on the
// queue of cmd; nil when r has none there.
func (v *barrierCheck) terminalNeedOn(r planner.ResourceID, cmd planner.CommandID) *terminalNeeds {
	switch tq, q := v.terminalQueues(r), v.c.Graph.Commands[cmd].Queue; {
	case tq == planner.QueueSet(0).Add(q):
		return v.terminalNeed(r) // every terminal use on cmd's queue
	case !tq.Has(q):
		return nil
	}
	if v.termOn == nil {
		v.termOn = make([]terminalNeeds, len(v.c.Graph.Resources)*int(planner.NumQueues))
	}
	tn := &v.termOn[int(r)*int(planner.NumQueues)+int(v.c.Graph.Commands[cmd].Queue)]
	if tn.done {
		return tn
	}
	tn.done = true
	us := v.c.Uses(r)
	any := false
	for _, t := range v.c.Terminal(r) {
		if v.otherQueue(t, cmd) {
			continue
		}
		any = true
		i := sort.Search(len(us), func(i int) bool { return us[i].Command >= t })
		u := &us[i]
		tn.stages0 |= u.Stages
		tn.writes0 |= u.Access.Writes()
		tn.writes |= u.Access.Writes().Expand()
		if stageless(u.Stages) {
			if x := v.trans[v.useBase[r]+int32(i)]; x >= 0 {
				tn.chainFrom = append(tn.chainFrom, v.sc[x].dstExec)
			}
			continue
		}
		tn.stages |= useStages(u.Stages)
	}
	if !any {
		return nil
	}
	return tn
}

// terminalQueues returns (and caches) the queues of r's terminal uses.
func (v *barrierCheck) terminalQueues(r planner.ResourceID) planner.QueueSet {
	if v.termQ == nil {
		v.termQ = make([]planner.QueueSet, len(v.c.Graph.Resources))
		for i := range v.termQ {
			for _, t := range v.c.Terminal(planner.ResourceID(i)) {
				v.termQ[i] = v.termQ[i].Add(v.c.Graph.Commands[t].Queue)
			}
		}
	}
	return v.termQ[r]
}

// firstScope and secondScope expand a semaphore's signal and wait masks.
func firstScope(s vk.Stage) vk.Stage {
	if s&vk.StageBottomOfPipe != 0 {
		return ^vk.Stage(0)
	}
	return s.Expand() &^ topBottom
}

func secondScope(s vk.Stage) vk.Stage {
	if s&vk.StageTopOfPipe != 0 {
		return ^vk.Stage(0)
	}
	return s.Expand() &^ topBottom
}

// needStages is what a semaphore mask must hold for a use's stages.
func needStages(s vk.Stage) vk.Stage {
	if stageless(s) {
		return vk.StageAllCommands.Expand()
	}
	return useStages(s)
}

// queueCheck is what queues derives from the submissions.
type queueCheck struct {
	sub, seq       []int32 // per command: its submission, and that submission's rank among its queue's
	subSeq         []int32 // per submission: its rank among its queue's
	sigSub, waitSu []int32 // per semaphore: the submission signalling it, waiting on it
	sig, wait      []vk.Stage
	bySigQueue     [planner.NumQueues][]int32 // semaphores by the queue that signals them
}

func (v *barrierCheck) queues() {
	p, g := v.p, v.c.Graph
	fail := func(before planner.CommandID, res string, format string, args ...any) bool {
		e := &planner.BarrierError{Resource: res, Barrier: -1, Rule: planner.RuleSubmission, Detail: fmt.Sprintf(format, args...)}
		if before >= 0 {
			e.Before = v.cmdName(before)
		}
		return v.errs.add(e)
	}
	if !v.multi {
		if len(p.Submissions) > 0 || p.Semaphores != 0 {
			fail(-1, "", "every command runs on graphics, but the plan has %d submissions and %d semaphores", len(p.Submissions), p.Semaphores)
		}
		v.ownership(nil) // ownership.go
		return
	}
	if p.Ordering != planner.OrderDAG {
		fail(-1, "", "ordering %s with several queues (only dag)", p.Ordering)
		return
	}
	n := len(g.Commands)
	ibuf := make([]int32, 2*n+len(p.Submissions))
	qc := &queueCheck{sub: ibuf[:n], seq: ibuf[n : 2*n], subSeq: ibuf[2*n:]}
	for i := range qc.sub {
		qc.sub[i] = -1
	}
	if p.Semaphores < 0 || p.Semaphores > 4*n+4 {
		fail(-1, "", "%d semaphores", p.Semaphores)
		return
	}
	ns := p.Semaphores
	sbuf, stbuf := make([]int32, 2*ns), make([]vk.Stage, 2*ns)
	qc.sigSub, qc.waitSu = sbuf[:ns], sbuf[ns:]
	qc.sig, qc.wait = stbuf[:ns], stbuf[ns:]
	for k := range ns {
		qc.sigSub[k], qc.waitSu[k] = -1, -1
	}
	var nseq [planner.NumQueues]int32
	lastPos := [planner.NumQueues]int32{-1, -1, -1}
	lastCmd := [planner.NumQueues]planner.CommandID{-1, -1, -1}
	for si := range p.Submissions {
		s := &p.Submissions[si]
		if s.Queue >= planner.NumQueues {
			fail(-1, "", "submission %d: unknown queue %d", si, uint8(s.Queue))
			return
		}
		if len(s.Commands) == 0 {
			fail(-1, "", "submission %d (%s) has no commands", si, s.Queue)
			return
		}
		qc.subSeq[si] = nseq[s.Queue]
		nseq[s.Queue]++
		for _, cmd := range s.Commands {
			if cmd < 0 || int(cmd) >= n {
				fail(-1, "", "submission %d: command %d does not exist", si, cmd)
				return
			}
			switch {
			case qc.sub[cmd] >= 0:
				fail(cmd, "", "in submissions %d and %d: each command is in exactly one", qc.sub[cmd], si)
				return
			case g.Commands[cmd].Queue != s.Queue:
				fail(cmd, "", "runs on %s but is in submission %d of %s", g.Commands[cmd].Queue, si, s.Queue)
				return
			case v.pos[cmd] < lastPos[s.Queue]:
				fail(cmd, "", "the %s queue's submissions list it before a command that runs earlier in the execution order", s.Queue)
				return
			case cmd < lastCmd[s.Queue]:
				fail(cmd, "", "the %s queue runs it after %q, recorded later: commands of one queue keep their recorded order", s.Queue, v.cmdName(lastCmd[s.Queue]))
				return
			}
			lastPos[s.Queue], lastCmd[s.Queue] = v.pos[cmd], cmd
			qc.sub[cmd], qc.seq[cmd] = int32(si), qc.subSeq[si]
		}
		for _, op := range s.Signal {
			if op.Semaphore < 0 || op.Semaphore >= ns || qc.sigSub[op.Semaphore] >= 0 || op.Stages == 0 {
				fail(-1, "", "submission %d signals semaphore %d: out of range, signalled twice or with no stages", si, op.Semaphore)
				return
			}
			qc.sigSub[op.Semaphore], qc.sig[op.Semaphore] = int32(si), op.Stages
			qc.bySigQueue[s.Queue] = append(qc.bySigQueue[s.Queue], int32(op.Semaphore))
		}
		for _, op := range s.Wait {
			k := op.Semaphore
			switch {
			case k < 0 || k >= ns || qc.waitSu[k] >= 0 || op.Stages == 0:
				fail(-1, "", "submission %d waits on semaphore %d: out of range, waited twice or with no stages", si, k)
				return
			case qc.sigSub[k] < 0:
				fail(-1, "", "submission %d waits on semaphore %d, which no earlier submission signals (a deadlock: binary semaphores are signalled before they are waited)", si, k)
				return
			case p.Submissions[qc.sigSub[k]].Queue == s.Queue:
				fail(-1, "", "submission %d waits on semaphore %d signalled on its own queue", si, k)
				return
			}
			qc.waitSu[k], qc.wait[k] = int32(si), op.Stages
		}
	}
	for cmd := range n {
		if qc.sub[cmd] < 0 {
			fail(planner.CommandID(cmd), "", "in no submission")
			return
		}
	}
	for k := range ns {
		if qc.waitSu[k] < 0 {
			fail(-1, "", "semaphore %d is signalled but never waited on", k)
			return
		}
	}
	for r := range g.Resources {
		var qs planner.QueueSet
		for _, u := range v.c.Uses(planner.ResourceID(r)) {
			qs = qs.Add(g.Commands[u.Command].Queue)
		}
		if p.Resources[r].Queues != qs {
			if fail(-1, g.Resources[r].Name, "queues %q, but it is used on %q", p.Resources[r].Queues, qs) {
				return
			}
		}
	}
	if v.ownership(qc) { // ownership.go
		return
	}
	// Coverage.
	// need reports an uncovered pair; what and after (an old occupant,
	// or "") name it in the message, built only on failure.
	need := func(a planner.CommandID, sa vk.Stage, b planner.CommandID, sb vk.Stage, meet vk.Stage, res, what, after string) bool {
		want := needStages(sb)
		if meet != 0 {
			want = 0 // the image barrier chains after the wait and covers b (its destination is checked by the caller)
		}
		if qc.covered(p, a, needStages(sa), b, want, meet) {
			return false
		}
		if after != "" {
			what += fmt.Sprintf(" after %q", after)
		}
		detail := fmt.Sprintf("%s: no semaphore signalled after %q (signal mask holding %s) and waited before %q (wait mask holding %s)",
			what, v.cmdName(a), sa, v.cmdName(b), sb)
		if meet != 0 {
			detail += fmt.Sprintf(" that its image barrier (source %s) chains after", meet)
		}
		return fail(b, res, "%s", detail)
	}
	for _, e := range v.cross {
		us := v.c.Uses(e.R)
		ui, uj := &us[e.I], &us[e.J]
		b, meet := uj.Command, vk.Stage(0)
		if x := v.trans[v.useBase[e.R]+e.J]; x >= 0 {
			// The layout transition before j (or before the reader of its
			// group that runs first), after i: the wait must come before
			// it, and the barrier chain after the wait.
			if bx := &p.Barriers[x]; bx.OldLayout != bx.NewLayout && v.pos[bx.Before] > v.pos[ui.Command] && !v.otherQueue(bx.Before, uj.Command) {
				b, meet = bx.Before, v.sc[x].srcExec
				if !stageless(uj.Stages) && !subStages(useStages(uj.Stages), v.sc[x].dstExec) {
					if fail(uj.Command, v.resName(e.R), "the layout transition (barrier %d) that orders it after %q on another queue does not include its stages %s in its destination", x, v.cmdName(ui.Command), uj.Stages) {
						return
					}
					continue
				}
				if meet == 0 {
					if fail(uj.Command, v.resName(e.R), "the layout transition (barrier %d) after %q on another queue has no source stage: it cannot chain after the semaphore wait", x, v.cmdName(ui.Command)) {
						return
					}
					continue
				}
			}
		}
		if need(ui.Command, ui.Stages, b, uj.Stages, meet, v.resName(e.R), "dependency across queues", "") {
			return
		}
	}
	// The pairs sharing bytes, ordered (aliases found them; an unordered
	// pair is its error).
	for _, pr := range v.pairs {
		o, r := pr[0], pr[1]
		if in := v.c.Initial(r); len(in) == 1 && v.terminalQueues(o) == planner.QueueSet(0).Add(g.Commands[in[0]].Queue) {
			continue // one queue: the barriers' business
		}
		ur := v.c.Uses(r)
		for _, i := range v.c.Initial(r) {
			ii := sort.Search(len(ur), func(k int) bool { return ur[k].Command >= i })
			meet := vk.Stage(0)
			if g.Resources[r].Kind == planner.KindImage {
				if x := v.trans[v.useBase[r]+int32(ii)]; x >= 0 {
					meet = v.sc[x].srcExec
				} else {
					meet = ^vk.Stage(0) // layouts reports the missing transition
				}
			}
			uo := v.c.Uses(o)
			for _, t := range v.c.Terminal(o) {
				if !v.otherQueue(t, i) {
					continue
				}
				ti := sort.Search(len(uo), func(k int) bool { return uo[k].Command >= t })
				if need(t, uo[ti].Stages, i, ur[ii].Stages, meet, g.Resources[r].Name, "alias across queues", g.Resources[o].Name) {
					return
				}
			}
		}
	}
	if len(p.FinalBarriers) > 0 && len(p.Order) > 0 {
		end := p.Order[len(p.Order)-1]
		for k := range p.FinalBarriers {
			x := &p.FinalBarriers[k]
			if x.Resource < 0 || int(x.Resource) >= len(g.Resources) {
				continue // the final-barrier check reports it
			}
			us := v.c.Uses(x.Resource)
			for _, t := range v.c.Terminal(x.Resource) {
				if !v.otherQueue(t, end) {
					continue
				}
				ti := sort.Search(len(us), func(k int) bool { return us[k].Command >= t })
				if need(t, us[ti].Stages, end, vk.StageNone, scopeOf(x).srcExec, g.Resources[x.Resource].Name, "final barrier after the last command", "") {
					return
				}
			}
		}
	}
}

// covered reports whether a signal→wait chain orders a's work in stages sa
// (expanded) before b's in sb: directly, or through the third queue. When
// meet is not zero the last wait's mask must also meet it (an image
// barrier's first execution scope that chains after the wait).
func (qc *queueCheck) covered(p *planner.Plan, a planner.CommandID, sa vk.Stage, b planner.CommandID, sb vk.Stage, meet vk.Stage) bool {
	qa, qb := p.Submissions[qc.sub[a]].Queue, p.Submissions[qc.sub[b]].Queue
	ends := func(k int32) bool {
		w := secondScope(qc.wait[k])
		return p.Submissions[qc.waitSu[k]].Queue == qb && qc.subSeq[qc.waitSu[k]] <= qc.seq[b] &&
			subStages(sb, w) && (meet == 0 || meet&w != 0)
	}
	for _, k := range qc.bySigQueue[qa] {
		if qc.subSeq[qc.sigSub[k]] < qc.seq[a] || !subStages(sa, firstScope(qc.sig[k])) {
			continue
		}
		if ends(k) {
			return true
		}
		r := p.Submissions[qc.waitSu[k]].Queue
		if r == qb {
			continue
		}
		w, wm := qc.subSeq[qc.waitSu[k]], secondScope(qc.wait[k])
		for _, k2 := range qc.bySigQueue[r] {
			if qc.subSeq[qc.sigSub[k2]] >= w && firstScope(qc.sig[k2])&wm != 0 && ends(k2) {
				return true
			}
		}
	}
	return false
}
