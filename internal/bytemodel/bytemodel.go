package bytemodel

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Hazard is one access or layout transition that the model finds
// unprotected.
type Hazard struct {
	Kind string // READ_AFTER_WRITE, WRITE_AFTER_READ or WRITE_AFTER_WRITE
	// Resource and Command are the later access (Command is
	// planner.EndOfFrame for a final barrier); Transition is set when the
	// later access is a layout transition of barrier Barrier (an index
	// into Plan.Barriers, or len(Plan.Barriers)+i for FinalBarriers[i]).
	Resource   planner.ResourceID
	Command    planner.CommandID
	Transition bool
	Barrier    int
	// PriorResource and PriorCommand made the earlier access (PriorCommand
	// is -1 for an earlier layout transition, named by PriorBarrier).
	PriorResource planner.ResourceID
	PriorCommand  planner.CommandID
	PriorBarrier  int
	Stage         vk.Stage // the later access's stage (0 for a transition)
	Pool          int      // the segment's pool, -1 outside pools
	Start, End    uint64   // the segment's bytes (offsets in the pool, or in the resource)
}

func (h Hazard) String(g *planner.Graph) string {
	name := func(r planner.ResourceID) string { return g.Resources[r].Name }
	cmd := func(c planner.CommandID, barrier int) string {
		if c < 0 {
			return fmt.Sprintf("the layout transition of barrier %d", barrier)
		}
		return fmt.Sprintf("command %q", g.Commands[c].Name)
	}
	later := fmt.Sprintf("%s at %v", cmd(h.Command, -1), h.Stage)
	if h.Transition {
		later = fmt.Sprintf("the layout transition of barrier %d", h.Barrier)
		if h.Command >= 0 {
			later += fmt.Sprintf(" before %q", g.Commands[h.Command].Name)
		}
	}
	where := fmt.Sprintf("bytes [%d, %d) of pool %d", h.Start, h.End, h.Pool)
	if h.Pool < 0 {
		where = fmt.Sprintf("bytes [%d, %d) of %q's own memory", h.Start, h.End, name(h.Resource))
	}
	return fmt.Sprintf("%s: %s on %q after %s on %q, %s", h.Kind, later, name(h.Resource), cmd(h.PriorCommand, h.PriorBarrier), name(h.PriorResource), where)
}

const topBottom = vk.StageTopOfPipe | vk.StageBottomOfPipe

// rect is a set of stage×access pairs: every stage of Stages with every
// access of Access.
type rect struct {
	stages vk.Stage
	access vk.AccessFlags
}

type writePart struct {
	stage      vk.Stage // one stage; 0 for a layout transition
	access     vk.AccessFlags
	res        planner.ResourceID
	cmd        planner.CommandID // -1 for a layout transition
	barrier    int               // the transition's barrier
	visible    []rect
	chain      vk.Stage
	transition bool
}

type readPart struct {
	stage  vk.Stage // one stage
	access vk.AccessFlags
	res    planner.ResourceID
	cmd    planner.CommandID
	chain  vk.Stage
}

type segment struct {
	pool       int
	start, end uint64
	writes     []writePart
	reads      []readPart
}

// scope is one barrier's scopes, by their synchronization2 meaning.
type scope struct {
	srcExec, dstExec vk.Stage
	src, dst         rect // access scopes
	// own is the resource of a buffer or image barrier, whose access
	// scopes hold only accesses through that resource; -1 for a memory
	// barrier (all memory).
	own planner.ResourceID
}

func scopeOf(b *planner.Barrier) scope {
	src, dst := b.SrcStages.Expand(), b.DstStages.Expand()
	s := scope{srcExec: src &^ topBottom, dstExec: dst &^ topBottom,
		src: rect{src &^ topBottom, b.SrcAccess.Expand()}, dst: rect{dst &^ topBottom, b.DstAccess.Expand()}, own: -1}
	if b.Type != planner.MemoryBarrier {
		s.own = b.Resource
	}
	if src&vk.StageBottomOfPipe != 0 {
		s.srcExec = ^vk.Stage(0)
	}
	if dst&vk.StageTopOfPipe != 0 {
		s.dstExec = ^vk.Stage(0)
	}
	return s
}

// visibleTo reports whether every access of a at stage is in one of rs.
func visibleTo(rs []rect, stage vk.Stage, a vk.AccessFlags) bool {
	var got vk.AccessFlags
	for _, r := range rs {
		if r.stages&stage != 0 {
			got |= r.access
		}
	}
	return a&^got == 0
}

func addRect(rs []rect, r rect) []rect {
	if r.stages == 0 || r.access == 0 {
		return rs
	}
	for i := range rs {
		if rs[i].stages == r.stages {
			rs[i].access |= r.access
			return rs
		}
	}
	return append(rs, r)
}

func (w *writePart) inScope(s *scope) bool {
	if w.chain&s.srcExec != 0 {
		return true
	}
	if s.own >= 0 && w.res != s.own {
		return false // another resource's write: outside an image or buffer barrier's access scope
	}
	return !w.transition && w.stage&s.src.stages != 0 && w.access&^s.src.access == 0
}

func (r *readPart) inScope(s *scope) bool { return (r.stage|r.chain)&s.srcExec != 0 }

// model is one run of Check.
type model struct {
	c       *planner.Compiled
	p       *planner.Plan
	segs    []segment
	segOf   [][2]int32 // per resource, its segments [lo, hi)
	hazards []Hazard
	seen    map[Hazard]bool // reported, keyed without the segment
	max     int
}

// Check executes p's order and barriers over the byte model and returns
// the hazards found, at most max (max <= 0: all). It returns an error
// when p is not one it models (several queues).
func Check(c *planner.Compiled, p *planner.Plan, max int) ([]Hazard, error) {
	if len(p.Submissions) > 0 {
		return nil, fmt.Errorf("bytemodel: plans with several queues are not modelled (%d submissions)", len(p.Submissions))
	}
	m := &model{c: c, p: p, max: max, seen: map[Hazard]bool{}}
	m.cut()
	byPos := make([][]int, len(p.Order)) // barrier indices before each position
	pos := make([]int, len(c.Graph.Commands))
	for i, cmd := range p.Order {
		pos[cmd] = i
	}
	for i := range p.Barriers {
		k := pos[p.Barriers[i].Before]
		byPos[k] = append(byPos[k], i)
	}
	for k, cmd := range p.Order {
		m.barriers(byPos[k], cmd)
		m.command(cmd)
	}
	final := make([]int, len(p.FinalBarriers))
	for i := range final {
		final[i] = len(p.Barriers) + i
	}
	m.barriers(final, planner.EndOfFrame)
	return m.hazards, nil
}

func (m *model) barrier(i int) *planner.Barrier {
	if i < len(m.p.Barriers) {
		return &m.p.Barriers[i]
	}
	return &m.p.FinalBarriers[i-len(m.p.Barriers)]
}

// cut makes the segments: per pool the elementary ranges between
// placement boundaries, and one segment per other used resource.
func (m *model) cut() {
	g := m.c.Graph
	m.segOf = make([][2]int32, len(g.Resources))
	bounds := make([][]uint64, len(m.p.Pools))
	for r := range g.Resources {
		rp := &m.p.Resources[r]
		if rp.Status == planner.StatusPooled {
			pl := &rp.Placement
			bounds[pl.Pool] = append(bounds[pl.Pool], pl.Offset, pl.Offset+pl.Size)
		}
	}
	first := make([]int, len(m.p.Pools))
	for pool, b := range bounds {
		slices.Sort(b)
		b = slices.Compact(b)
		bounds[pool] = b
		first[pool] = len(m.segs)
		for i := 0; i+1 < len(b); i++ {
			m.segs = append(m.segs, segment{pool: pool, start: b[i], end: b[i+1]})
		}
	}
	for r := range g.Resources {
		rp := &m.p.Resources[r]
		if rp.Status == planner.StatusPooled {
			pl := &rp.Placement
			b := bounds[pl.Pool]
			lo, _ := slices.BinarySearch(b, pl.Offset)
			hi, _ := slices.BinarySearch(b, pl.Offset+pl.Size)
			m.segOf[r] = [2]int32{int32(first[pl.Pool] + lo), int32(first[pl.Pool] + hi)}
			continue
		}
		size := rp.Requirements.Size
		if size == 0 {
			size = 1
		}
		m.segOf[r] = [2]int32{int32(len(m.segs)), int32(len(m.segs) + 1)}
		m.segs = append(m.segs, segment{pool: -1, start: 0, end: size})
	}
}

func (m *model) report(h Hazard, s *segment) {
	if (m.max > 0 && len(m.hazards) >= m.max) || m.seen[h] {
		return // one report per pair of accesses, at its first segment
	}
	m.seen[h] = true
	h.Pool, h.Start, h.End = s.pool, s.start, s.end
	m.hazards = append(m.hazards, h)
}

// pending is what one barrier does to one segment, computed on the state
// before its call.
type pending struct {
	seg        int
	writes     []int // parts of the last write in its first scope
	reads      []int // reads in its first scope
	sc         *scope
	transition bool
	barrier    int
	res        planner.ResourceID
}

// barriers applies the barriers before command cmd (indices idx, in plan
// order), call by call.
func (m *model) barriers(idx []int, cmd planner.CommandID) {
	calls := map[uint8][]int{}
	var order []uint8
	for _, i := range idx {
		call := m.barrier(i).Call
		if _, ok := calls[call]; !ok {
			order = append(order, call)
		}
		calls[call] = append(calls[call], i)
	}
	slices.Sort(order)
	for _, call := range order {
		m.call(calls[call], cmd)
	}
}

func (m *model) call(idx []int, cmd planner.CommandID) {
	var ps []pending
	scopes := make([]scope, len(idx))
	for n, i := range idx {
		b := m.barrier(i)
		scopes[n] = scopeOf(b)
		sc := &scopes[n]
		transition := b.Type == planner.ImageBarrier && b.OldLayout != b.NewLayout
		lo, hi := 0, len(m.segs)
		if b.Type != planner.MemoryBarrier {
			r := m.segOf[b.Resource]
			lo, hi = int(r[0]), int(r[1])
		}
		for si := lo; si < hi; si++ {
			s := &m.segs[si]
			pd := pending{seg: si, sc: sc, transition: transition, barrier: i, res: b.Resource}
			for wi := range s.writes {
				if s.writes[wi].inScope(sc) {
					pd.writes = append(pd.writes, wi)
				}
			}
			for ri := range s.reads {
				if s.reads[ri].inScope(sc) {
					pd.reads = append(pd.reads, ri)
				}
			}
			if transition {
				m.transitionHazard(s, &pd, cmd)
			}
			if transition || len(pd.writes) > 0 || len(pd.reads) > 0 {
				ps = append(ps, pd)
			}
		}
	}
	// Apply: transitions replace their segments' state after the
	// barriers that did not transition have been applied to the old one
	// (the layer applies pending barriers on top of the transition).
	for _, pd := range ps {
		s := &m.segs[pd.seg]
		for _, wi := range pd.writes {
			w := &s.writes[wi]
			w.visible = addRect(w.visible, pd.sc.dst)
			w.chain |= pd.sc.dstExec
		}
		if !pd.transition {
			for _, ri := range pd.reads {
				s.reads[ri].chain |= pd.sc.dstExec
			}
		}
	}
	for _, pd := range ps {
		if !pd.transition {
			continue
		}
		s := &m.segs[pd.seg]
		t := writePart{res: pd.res, cmd: -1, barrier: pd.barrier, transition: true}
		t.visible = addRect(t.visible, pd.sc.dst)
		t.chain = pd.sc.dstExec
		// Other barriers of the call that had the old write in scope
		// reach the transition too (the layer's pending write barriers).
		for _, q := range ps {
			if q.seg == pd.seg && !q.transition && len(q.writes) > 0 {
				t.visible = addRect(t.visible, q.sc.dst)
				t.chain |= q.sc.dstExec
			}
		}
		s.writes = []writePart{t}
		s.reads = nil
	}
}

// transitionHazard checks a layout transition against the segment's
// state: every read since the last write in its first execution scope, or
// with no read, every part of the last write in its first scope.
func (m *model) transitionHazard(s *segment, pd *pending, cmd planner.CommandID) {
	h := Hazard{Resource: pd.res, Command: cmd, Transition: true, Barrier: pd.barrier}
	if len(s.reads) > 0 {
		for ri := range s.reads {
			r := &s.reads[ri]
			if !r.inScope(pd.sc) {
				h.Kind, h.PriorResource, h.PriorCommand, h.PriorBarrier = "WRITE_AFTER_READ", r.res, r.cmd, -1
				m.report(h, s)
				return
			}
		}
		return
	}
	for wi := range s.writes {
		w := &s.writes[wi]
		if !w.inScope(pd.sc) {
			h.Kind, h.PriorResource, h.PriorCommand, h.PriorBarrier = "WRITE_AFTER_WRITE", w.res, w.cmd, w.barrier
			m.report(h, s)
			return
		}
	}
}

// command checks and records the accesses of cmd.
func (m *model) command(cmd planner.CommandID) {
	for _, ref := range m.c.CommandUses(cmd) {
		u := m.c.Use(ref)
		stages := u.Stages.Expand() &^ topBottom
		acc := u.Access.Expand()
		reads, writes := acc&^vk.WriteAccess, acc&vk.WriteAccess
		if stages == 0 || acc == 0 {
			continue // no memory access (a layout-only or stageless use)
		}
		r := m.segOf[ref.Resource]
		for si := int(r[0]); si < int(r[1]); si++ {
			s := &m.segs[si]
			m.check(s, ref.Resource, cmd, stages, reads, writes)
			if writes != 0 {
				s.reads = nil
				s.writes = s.writes[:0:0]
				for st := stages; st != 0; st &= st - 1 {
					bit := vk.Stage(1) << bits.TrailingZeros64(uint64(st))
					s.writes = append(s.writes, writePart{stage: bit, access: writes, res: ref.Resource, cmd: cmd, barrier: -1})
				}
				continue
			}
			for st := stages; st != 0; st &= st - 1 {
				bit := vk.Stage(1) << bits.TrailingZeros64(uint64(st))
				found := false
				for ri := range s.reads {
					if s.reads[ri].stage == bit {
						// A later read at the same stage replaces the
						// earlier: it is not chained to anything yet.
						s.reads[ri] = readPart{stage: bit, access: reads, res: ref.Resource, cmd: cmd}
						found = true
					}
				}
				if !found {
					s.reads = append(s.reads, readPart{stage: bit, access: reads, res: ref.Resource, cmd: cmd})
				}
			}
		}
	}
}

func (m *model) check(s *segment, res planner.ResourceID, cmd planner.CommandID, stages vk.Stage, reads, writes vk.AccessFlags) {
	for st := stages; st != 0; st &= st - 1 {
		bit := vk.Stage(1) << bits.TrailingZeros64(uint64(st))
		h := Hazard{Resource: res, Command: cmd, Stage: bit, Barrier: -1}
		if reads != 0 {
			for wi := range s.writes {
				w := &s.writes[wi]
				if !visibleTo(w.visible, bit, reads) {
					h.Kind, h.PriorResource, h.PriorCommand, h.PriorBarrier = "READ_AFTER_WRITE", w.res, w.cmd, w.barrier
					m.report(h, s)
					return
				}
			}
		}
		if writes == 0 {
			continue
		}
		if len(s.reads) > 0 {
			for ri := range s.reads {
				r := &s.reads[ri]
				if r.chain&bit == 0 {
					h.Kind, h.PriorResource, h.PriorCommand, h.PriorBarrier = "WRITE_AFTER_READ", r.res, r.cmd, -1
					m.report(h, s)
					return
				}
			}
			continue
		}
		for wi := range s.writes {
			w := &s.writes[wi]
			if !visibleTo(w.visible, bit, writes) {
				h.Kind, h.PriorResource, h.PriorCommand, h.PriorBarrier = "WRITE_AFTER_WRITE", w.res, w.cmd, w.barrier
				m.report(h, s)
				return
			}
		}
	}
}
