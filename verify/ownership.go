package verify

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Ownership (Plan.Sharing exclusive, Plan.Transfers), checked from the
// graph: a plan with concurrent sharing, or on one queue, has no
// transfers and no Exclusive resource. In a plan with exclusive sharing,
// a resource marked Exclusive is transient, used on two or more queues
// and not accessed by subresource ranges; its uses in recorded order fall
// into runs of one queue, and at every change of queue (but where a
// buffer's next run starts with a write that reads nothing: discarded
// contents) the plan lists, in that order, one transfer from the run's
// queue to the next one's whose After is the run's last use in execution
// order and whose Before is the next run's first; the release's source
// scope holds every use of the run (stages, writes), the acquire's
// destination scope Before's use; an image's old and new layouts both
// equal the layout After leaves it in; a signal→wait chain orders After
// before Before. Every transfer belongs to such a hand-over.

// ownership reports violations; it returns true when the error list is
// full. qc is nil in a plan without submissions.
func (v *barrierCheck) ownership(qc *queueCheck) bool {
	p, g := v.p, v.c.Graph
	fail := func(res string, before planner.CommandID, format string, args ...any) bool {
		e := &planner.BarrierError{Resource: res, Barrier: -1, Rule: planner.RuleOwnership, Detail: fmt.Sprintf(format, args...)}
		if before >= 0 {
			e.Before = v.cmdName(before)
		}
		return v.errs.add(e)
	}
	if p.Sharing != planner.SharingExclusive || qc == nil {
		if len(p.Transfers) > 0 {
			return fail("", -1, "%d ownership transfers in a plan with %s sharing and %d submissions", len(p.Transfers), p.Sharing, len(p.Submissions))
		}
		for r := range p.Resources {
			if p.Resources[r].Exclusive {
				return fail(g.Resources[r].Name, -1, "exclusive in a plan with %s sharing and %d submissions", p.Sharing, len(p.Submissions))
			}
		}
		return false
	}
	byRes := make(map[planner.ResourceID][]int, 8)
	for k := range p.Transfers {
		t := &p.Transfers[k]
		if t.Resource < 0 || int(t.Resource) >= len(g.Resources) || !p.Resources[t.Resource].Exclusive {
			return fail("", -1, "transfer %d: resource %d is not an exclusive resource of the plan", k, t.Resource)
		}
		byRes[t.Resource] = append(byRes[t.Resource], k)
	}
	for ri := range g.Resources {
		r := planner.ResourceID(ri)
		if !p.Resources[r].Exclusive {
			continue
		}
		res := &g.Resources[r]
		name := res.Name
		if res.Imported || v.c.Ranged(r) || p.Resources[r].Queues.Len() < 2 || !v.c.Exclusive(r) {
			if fail(name, -1, "exclusive, but it is imported, accessed by subresource ranges, used on one queue or by uses on two queues the DAG leaves unordered (it must stay concurrent)") {
				return true
			}
			continue
		}
		us := v.c.Uses(r)
		ts := byRes[r]
		j := 0
		for s := 0; s < len(us); {
			q := g.Commands[us[s].Command].Queue
			e := s + 1
			for e < len(us) && g.Commands[us[e].Command].Queue == q {
				e++
			}
			if e == len(us) {
				break
			}
			q2 := g.Commands[us[e].Command].Queue
			n := e + 1
			for n < len(us) && g.Commands[us[n].Command].Queue == q2 {
				n++
			}
			if res.Kind == planner.KindBuffer && us[e].Access&^vk.WriteAccess == 0 && us[e].Access.Writes() != 0 {
				s = e
				continue
			}
			if j == len(ts) {
				return fail(name, us[e].Command, "its contents move from the %s queue to the %s queue without an ownership transfer", q, q2)
			}
			t := &p.Transfers[ts[j]]
			j++
			if msg := v.checkTransfer(qc, t, us, s, e, n); msg != "" {
				if fail(name, t.Before, "transfer %d (%s → %s): %s", ts[j-1], t.From, t.To, msg) {
					return true
				}
			}
			s = e
		}
		if j < len(ts) {
			if fail(name, -1, "transfer %d belongs to no hand-over between queues (%d hand-overs, %d transfers)", ts[j], j, len(ts)) {
				return true
			}
		}
	}
	return false
}

// checkTransfer checks transfer t against the hand-over from run
// us[s:e] to run us[e:n]; "" when it matches.
func (v *barrierCheck) checkTransfer(qc *queueCheck, t *planner.OwnershipTransfer, us []planner.Use, s, e, n int) string {
	g := v.c.Graph
	q, q2 := g.Commands[us[s].Command].Queue, g.Commands[us[e].Command].Queue
	if t.From != q || t.To != q2 {
		return fmt.Sprintf("the hand-over is from %s to %s", q, q2)
	}
	last, first := s, e
	var src vk.Stage
	var srcAccess vk.AccessFlags
	for i := s; i < e; i++ {
		if v.pos[us[i].Command] > v.pos[us[last].Command] {
			last = i
		}
		src |= useStages(us[i].Stages)
		srcAccess |= us[i].Access.Writes()
	}
	for i := e; i < n; i++ {
		if v.pos[us[i].Command] < v.pos[us[first].Command] {
			first = i
		}
	}
	if t.After != us[last].Command {
		return fmt.Sprintf("released after command %d, want after %q (the last use on %s)", t.After, v.cmdName(us[last].Command), q)
	}
	if t.Before != us[first].Command {
		return fmt.Sprintf("acquired before command %d, want before %q (the first use on %s)", t.Before, v.cmdName(us[first].Command), q2)
	}
	if !subStages(src, useStages(t.SrcStages)) || !subAccess(srcAccess, t.SrcAccess) {
		return fmt.Sprintf("release scope %s / %s misses the uses on %s (%s / %s)", t.SrcStages, t.SrcAccess, q, src, srcAccess)
	}
	if u := us[first]; !subStages(useStages(u.Stages), useStages(t.DstStages)) || !subAccess(u.Access, t.DstAccess) {
		return fmt.Sprintf("acquire scope %s / %s misses %q's use (%s / %s)", t.DstStages, t.DstAccess, v.cmdName(u.Command), u.Stages, u.Access)
	}
	want := vk.LayoutUndefined
	if g.Resources[t.Resource].Kind == planner.KindImage {
		want = us[last].Layout
	}
	if t.OldLayout != want || t.NewLayout != want {
		return fmt.Sprintf("layouts %s → %s, want %s → %s (the layout %q leaves it in, in both barriers)", t.OldLayout, t.NewLayout, want, want, v.cmdName(t.After))
	}
	if !qc.covered(v.p, t.After, needStages(us[last].Stages), t.Before, needStages(us[first].Stages), 0) {
		return fmt.Sprintf("no semaphore orders %q before %q", v.cmdName(t.After), v.cmdName(t.Before))
	}
	return ""
}
