package picture

import (
	"fmt"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// Queues (issue 24): plans with submissions get a lane per queue under
// the pools — each command a cell in its queue's lane at its column,
// each submission an outline, each semaphore a line from the end of the
// submission that signals it to the start of the one that waits — and
// every alias across queues (an old occupant whose last use is on another
// queue than the new occupant's first) a purple link in the lanes and a
// purple mark on the new occupant.

const (
	laneH       = 16
	semColour   = "#7b3294" // semaphores, and aliases across queues
	xaliasTitle = "alias across queues"
)

var laneColours = [planner.NumQueues]string{"#4e79a7", "#f28e2b", "#59a14f"}

// crossAlias is an alias across queues: Old's last use (command Last, on
// one queue) before New's first use (command First, on another).
type crossAlias struct {
	Old, New    planner.ResourceID
	Last, First planner.CommandID
}

// lastUse and firstUse are the commands at a resource's last and first
// positions in the execution order.
func (m *model) lastUse(r planner.ResourceID) planner.CommandID  { return m.p.Order[m.last[r]] }
func (m *model) firstUse(r planner.ResourceID) planner.CommandID { return m.p.Order[m.first[r]] }

// crossAliases lists the pooled pairs sharing bytes, one entirely before
// the other in execution positions, whose last and first uses are on
// different queues.
func (m *model) crossAliases() []crossAlias {
	if len(m.p.Submissions) == 0 {
		return nil
	}
	var out []crossAlias
	for r := range m.alias {
		nr := planner.ResourceID(r)
		for _, o := range m.alias[r] {
			if m.last[o] >= m.first[r] {
				continue // o is not before r (or r before o: listed from o)
			}
			l, f := m.lastUse(o), m.firstUse(nr)
			if m.g.Commands[l].Queue != m.g.Commands[f].Queue {
				out = append(out, crossAlias{Old: o, New: nr, Last: l, First: f})
			}
		}
	}
	return out
}

// lanes is the number of queue lanes drawn (0 without submissions).
func (m *model) lanes() int {
	if len(m.p.Submissions) == 0 {
		return 0
	}
	return int(planner.NumQueues)
}

func (m *model) laneY(q planner.Queue) int { return m.laneTop + int(q)*laneH }

// queueLanes draws the lanes, the submissions and the semaphores.
func (m *model) queueLanes(b *strings.Builder) {
	if m.lanes() == 0 {
		return
	}
	p := m.p
	b.WriteString(`<g id="queues">` + "\n")
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">queues · %s, %s</text>`+"\n", leftW, m.laneTop-5,
		plural(len(p.Submissions), "submission"), plural(p.Semaphores, "semaphore"))
	for q := planner.Queue(0); q < planner.NumQueues; q++ {
		y := m.laneY(q)
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#f6f6f6" stroke="#ddd"/><text x="%d" y="%d" text-anchor="end" fill="#555">%s</text>`+"\n",
			leftW, y, m.plotW, laneH-2, leftW-6, y+11, q)
	}
	// Signal and wait points, per semaphore.
	sigAt := make([]float64, p.Semaphores)
	sigQ := make([]planner.Queue, p.Semaphores)
	for si, s := range p.Submissions {
		if len(s.Commands) == 0 || s.Queue >= planner.NumQueues {
			continue
		}
		y := m.laneY(s.Queue)
		lo, hi := m.n, -1
		for _, c := range s.Commands {
			if c < 0 || int(c) >= m.n {
				continue
			}
			at := m.pos[c]
			lo, hi = min(lo, at), max(hi, at)
			fmt.Fprintf(b, `<g class="cmd"><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" fill="%s"/></g>`,
				esc(fmt.Sprintf("#%d %s\n%s queue, submission %d", at, m.g.Commands[c].Name, s.Queue, si)),
				m.columnX(at)+1, y+2, max(1, m.colW-2), laneH-6, laneColours[s.Queue])
		}
		if hi < 0 {
			continue
		}
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333" stroke-width="0.8"/>`+"\n",
			m.columnX(lo), y+1, m.columnX(hi+1)-m.columnX(lo), laneH-4)
		for _, op := range s.Signal {
			if op.Semaphore >= 0 && op.Semaphore < p.Semaphores {
				sigAt[op.Semaphore], sigQ[op.Semaphore] = float64(m.columnX(hi+1)), s.Queue
			}
		}
		for _, op := range s.Wait {
			if op.Semaphore < 0 || op.Semaphore >= p.Semaphores {
				continue
			}
			x0, y0 := sigAt[op.Semaphore], float64(m.laneY(sigQ[op.Semaphore])+laneH/2)
			x1, y1 := float64(m.columnX(lo)), float64(y+laneH/2)
			fmt.Fprintf(b, `<g class="sem"><title>%s</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/><circle cx="%s" cy="%s" r="2.5" fill="%s"/></g>`+"\n",
				esc(fmt.Sprintf("semaphore %d: %s signals %s → %s waits %s", op.Semaphore, sigQ[op.Semaphore], stagesOf(p, op.Semaphore), s.Queue, op.Stages)),
				num(x0), num(y0), num(x1), num(y1), semColour, num(x1), num(y1), semColour)
		}
	}
	for _, x := range m.crossAliases() {
		ql, qf := m.g.Commands[x.Last].Queue, m.g.Commands[x.First].Queue
		x0, y0 := float64(m.columnX(m.pos[x.Last]+1)), float64(m.laneY(ql)+laneH-3)
		x1, y1 := float64(m.columnX(m.pos[x.First])), float64(m.laneY(qf)+laneH-3)
		fmt.Fprintf(b, `<g class="xalias"><title>%s</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="3 2"/></g>`+"\n",
			esc(fmt.Sprintf("%s: %s (last use %s, %s) → %s (first use %s, %s), ordered by the semaphores", xaliasTitle,
				m.g.Resources[x.Old].Name, m.g.Commands[x.Last].Name, ql, m.g.Resources[x.New].Name, m.g.Commands[x.First].Name, qf)),
			num(x0), num(y0), num(x1), num(y1), semColour)
	}
	b.WriteString("</g>\n")
}

// crossAliasMarks draws, in pool i, a purple mark at the first-use column
// of each new occupant of an alias across queues.
func (m *model) crossAliasMarks(b *strings.Builder, i int) {
	for _, x := range m.crossAliases() {
		if m.p.Resources[x.New].Placement.Pool != i {
			continue
		}
		_, y, _, h := m.resourceRect(x.New)
		cx := float64(m.columnX(m.first[x.New])) + 2
		fmt.Fprintf(b, `<g class="xalias"><title>%s</title><rect x="%s" y="%s" width="3" height="%s" fill="%s"/></g>`+"\n",
			esc(fmt.Sprintf("%s: %s after %s", xaliasTitle, m.g.Resources[x.New].Name, m.g.Resources[x.Old].Name)),
			num(cx), num(y), num(h), semColour)
	}
}

// stagesOf is the signal stage mask of semaphore k.
func stagesOf(p *planner.Plan, k int) string {
	for _, s := range p.Submissions {
		for _, op := range s.Signal {
			if op.Semaphore == k {
				return op.Stages.String()
			}
		}
	}
	return "?"
}

// queueData is the page's data for the lanes: per command its queue, per
// semaphore (signalling command = last of its submission, waiting command
// = first of its submission), per alias across queues (old, new, last use,
// first use).
func queueData(m *model) (queues, sems, xalias []int) {
	p := m.p
	if len(p.Submissions) == 0 {
		return nil, nil, nil
	}
	queues = make([]int, len(m.g.Commands))
	for i := range m.g.Commands {
		queues[i] = int(m.g.Commands[i].Queue)
	}
	sems = make([]int, 2*p.Semaphores)
	for _, s := range p.Submissions {
		if len(s.Commands) == 0 {
			continue
		}
		for _, op := range s.Signal {
			if op.Semaphore >= 0 && op.Semaphore < p.Semaphores {
				sems[2*op.Semaphore] = int(s.Commands[len(s.Commands)-1])
			}
		}
		for _, op := range s.Wait {
			if op.Semaphore >= 0 && op.Semaphore < p.Semaphores {
				sems[2*op.Semaphore+1] = int(s.Commands[0])
			}
		}
	}
	for _, x := range m.crossAliases() {
		xalias = append(xalias, int(x.Old), int(x.New), int(x.Last), int(x.First))
	}
	return queues, sems, xalias
}
