package barriers

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan/planner"
)

// Build fills p.Barriers for the compiled graph c: hazard, first-use and
// alias barriers, grouped by the position of their command in p.Order and,
// within one command, in the order the command first names each resource.
//
// p.Order is the execution order. When it is nil, Build sets it to the
// recorded order; otherwise it must be a topological order of the DAG (a
// permutation of the commands that runs every command after its
// predecessors), or Build returns a *planner.BarrierError with rule
// planner.RuleOrder. p.Resources must hold the placement (statuses, and
// pool, offset and size of pooled resources); two pooled resources that
// share bytes must be ordered: by the DAG, or as a serialization the plan
// lists (p.Serializations, execution and budget orderings), which the
// alias barrier before the second one's first use then orders.
//
// Build replaces any barriers p already has, reusing the slice's storage.
func Build(c *planner.Compiled, p *planner.Plan) error {
	g := c.Graph
	if len(p.Resources) != len(g.Resources) {
		return fmt.Errorf("barriers: plan has %d resources, graph has %d", len(p.Resources), len(g.Resources))
	}
	pos, err := executionOrder(c, p)
	if err != nil {
		return err
	}
	b := builder{c: c, p: p, pos: pos, multi: g.MultiQueue()}
	var pairs *[][2]planner.ResourceID
	if b.multi {
		pairs = &b.pairs // every ordered pair sharing bytes, for queues.go
	}
	prev, err := oldOccupants(c, p, pos, pairs)
	if err != nil {
		return err
	}
	b.prev = prev
	b.hazardSources()
	p.Barriers = b.build(p.Barriers[:0])
	p.FinalBarriers, p.Warnings = b.finalBarriers(p.FinalBarriers[:0], p.Warnings)
	p.Warnings = append(slices.DeleteFunc(p.Warnings, func(w planner.Warning) bool { return w.Rule == planner.RuleStructureRefs }), c.StructureWarnings()...)
	return b.submissions() // queues.go
}

// executionOrder sets p.Order to the recorded order when it is nil, checks
// it, and returns each command's position in it.
func executionOrder(c *planner.Compiled, p *planner.Plan) ([]int32, error) {
	g := c.Graph
	n := len(g.Commands)
	if p.Order == nil {
		p.Order = make([]planner.CommandID, n)
		for i := range p.Order {
			p.Order[i] = planner.CommandID(i)
		}
	}
	if len(p.Order) != n {
		return nil, &planner.BarrierError{Barrier: -1, Rule: planner.RuleOrder,
			Detail: fmt.Sprintf("order has %d commands, graph has %d", len(p.Order), n)}
	}
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			return nil, &planner.BarrierError{Barrier: -1, Rule: planner.RuleOrder,
				Detail: fmt.Sprintf("order position %d: command %d is out of range or repeated", i, cmd)}
		}
		pos[cmd] = int32(i)
	}
	for a := range n {
		for _, b := range c.Successors(planner.CommandID(a)) {
			if pos[b] < pos[a] {
				return nil, &planner.BarrierError{Before: g.Commands[b].Name, After: g.Commands[a].Name, Barrier: -1, Rule: planner.RuleOrder,
					Detail: "the order runs a command before one it depends on: not a topological order of the DAG"}
			}
		}
	}
	return pos, nil
}

// useIndex returns the index in c.Uses(r) of command cmd's use (which must
// exist).
func useIndex(c *planner.Compiled, r planner.ResourceID, cmd planner.CommandID) int {
	us := c.Uses(r)
	return sort.Search(len(us), func(i int) bool { return us[i].Command >= cmd })
}

// terminalScope returns the OR of the stages and of the write access flags
// of r's terminal uses (every one of them: trailing reads are all
// terminal, SPEC §2): the source scope that orders all of r's uses before
// a later occupant of its memory. A use without stages of its own (only
// TOP_OF_PIPE or BOTTOM_OF_PIPE) counts as the stages the barrier before
// it waits in (effective), so that the scope chains with that barrier.
func (b *builder) terminalScope(r planner.ResourceID) (vk.Stage, vk.AccessFlags) {
	if b.ranged(r) {
		return b.rangedTerminalScope(r) // ranges.go
	}
	var s vk.Stage
	var w vk.AccessFlags
	us := b.c.Uses(r)
	for _, t := range b.c.Terminal(r) {
		i := useIndex(b.c, r, t)
		s |= b.eff[b.useBase[r]+int32(i)]
		w |= us[i].Access.Writes()
	}
	return s, w
}

// oldOccupants returns, per pooled resource, the old occupants its alias
// barrier names (ascending), nil for the others. An old occupant of B is a
// pooled resource of B's pool whose bytes meet B's and that is before B in
// the plan's aliasing order (planner.AliasOrder: entirely before in the
// DAG, or serialized before it). One whose shared bytes are all reused by
// later old occupants that it is before, all of them buffers, is left
// out: their alias barriers (memory barriers) order it before them, and
// theirs before B. (A later occupant that covers some of those bytes
// shares them with it, so a serialized one has its own alias barrier
// covering it.) Images never stand in for an older occupant: an image
// barrier's access scope is the image's subresources, which may leave
// out padding that its placement (the required size) covers, so the old
// occupant's writes there would never be made available (see prune).
func oldOccupants(c *planner.Compiled, p *planner.Plan, pos []int32, pairs *[][2]planner.ResourceID) ([][]planner.ResourceID, error) {
	g := c.Graph
	ao := planner.NewAliasOrder(c, p)
	var pooled []planner.ResourceID
	for r := range p.Resources {
		if p.Resources[r].Status == planner.StatusPooled && c.Used(planner.ResourceID(r)) {
			pl := &p.Resources[r].Placement
			if pl.Pool < 0 || pl.Pool >= len(p.Pools) || pl.Size == 0 || pl.Offset+pl.Size < pl.Offset {
				return nil, fmt.Errorf("barriers: resource %q: invalid placement: pool %d, offset %d, size %d", g.Resources[r].Name, pl.Pool, pl.Offset, pl.Size)
			}
			pooled = append(pooled, planner.ResourceID(r))
		}
	}
	place := func(r planner.ResourceID) *planner.Placement { return &p.Resources[r].Placement }
	old := make([][]planner.ResourceID, len(g.Resources))
	for ko, kr := range interval.Overlaps(len(pooled), p.PlacedAt(pooled)) {
		o, r := pooled[ko], pooled[kr]
		if pairs != nil && ao.Before(r, o) {
			o, r = r, o
		}
		if pairs != nil && ao.Before(o, r) {
			*pairs = append(*pairs, [2]planner.ResourceID{o, r})
		}
		switch {
		case ao.Before(o, r):
			old[r] = append(old[r], o)
		case ao.Before(r, o):
			old[o] = append(old[o], r)
		default:
			return nil, fmt.Errorf("barriers: resources %q and %q share bytes in pool %d but interfere (an invalid placement)",
				g.Resources[o].Name, g.Resources[r].Name, place(r).Pool)
		}
	}
	for b := range old {
		if len(old[b]) > 0 {
			old[b] = prune(c, ao, p, pos, planner.ResourceID(b), old[b])
		}
	}
	return old, nil
}

// prune drops from olds (the old occupants of b) those whose bytes shared
// with b are all shared with later old occupants they are entirely before
// and that are buffers, and returns the rest, ascending. Old occupants are
// taken latest initial use first, so every later one is decided (kept or
// itself covered) when an earlier one is looked at.
//
// Only buffers cover: a buffer's alias barrier is a VkMemoryBarrier2,
// whose access scope is all memory. An image's alias barrier is an image
// barrier, whose access scope is the image's subresources only, and those
// may be smaller than the bytes its placement holds (lavapipe: a 1×1
// R32G32B32A32 image has 16 bytes of texels and requires 256): an older
// occupant's writes in that padding would never be made available before
// b's first use (or layout transition) writes the same bytes. The Khronos
// layer 1.3.239 also applies an image barrier's execution dependency only
// to the image's own bytes, so it reports even read-only older occupants
// chained through an image (docs/replay.md, random-1000 at 1/64).
func prune(c *planner.Compiled, ao *planner.AliasOrder, p *planner.Plan, pos []int32, b planner.ResourceID, olds []planner.ResourceID) []planner.ResourceID {
	start := func(r planner.ResourceID) int32 { return pos[c.Initial(r)[0]] }
	slices.SortFunc(olds, func(a, b planner.ResourceID) int {
		if sa, sb := start(a), start(b); sa != sb {
			return cmp.Compare(sb, sa)
		}
		return cmp.Compare(a, b)
	})
	pb := &p.Resources[b].Placement
	rb := interval.Range{Start: pb.Offset, End: pb.Offset + pb.Size}
	clip := func(r planner.ResourceID) interval.Range {
		pr := &p.Resources[r].Placement
		return interval.Range{Start: pr.Offset, End: pr.Offset + pr.Size}.Intersect(rb)
	}
	keep := olds[:0:0]
	var cover []interval.Range
	for i, a := range olds {
		// The nearest later occupants first: on long chains (ping-pong
		// buffers) the next one usually covers a alone, which keeps this
		// near-linear instead of quadratic in the old occupants.
		cover = cover[:0]
		want := clip(a)
		covered := false
		for k := i - 1; k >= 0 && !covered; k-- {
			later := olds[k]
			if c.Graph.Resources[later].Kind == planner.KindBuffer && ao.Before(a, later) {
				sp := clip(later)
				cover = append(cover, sp)
				covered = sp.Covers(want)
			}
		}
		if !covered && !interval.UnionCovers(cover, want) {
			keep = append(keep, a)
		}
	}
	slices.Sort(keep)
	return keep
}

// hazardSource is the source scope of the hazard barrier before one use:
// the OR of its predecessors' stages and write access flags on the
// resource, and the latest execution position among them (-1: none).
type hazardSource struct {
	stages vk.Stage
	writes vk.AccessFlags
	last   int32
	cross  bool // a predecessor is on another queue: a semaphore orders it (queues.go)
	// crossWrite: the last modification was on another queue (reads on
	// this queue may follow it); a layout change then carries waitVisible
	// and crossScope(crossStages, crossWrites) (queues.go).
	crossWrite  bool
	crossStages vk.Stage
	crossWrites vk.AccessFlags
}

type builder struct {
	c    *planner.Compiled
	p    *planner.Plan
	pos  []int32
	prev [][]planner.ResourceID

	useBase []int32        // use i of resource r has its source at src[useBase[r]+i]
	src     []hazardSource // per use
	eff     []vk.Stage     // per use: its stages as a neighbouring barrier's scope names them (see stageScopes)
	dst     []vk.Stage     // per use: the destination stages of the barrier before it
	lead    []int32        // per use: for readers sharing a transition, the index of the one first in execution order; else -1
	gStages []vk.Stage     // per lead: the destination of the group's transition, all its readers
	gAccess []vk.AccessFlags
	onRes   [][]int32               // per resource, indices of its emitted hazard barriers, in order
	memory  []int32                 // indices of the emitted memory barriers, in order
	batch   []candidate             // the barriers one command needs
	rg      rangedBuild             // ranged images (ranges.go)
	multi   bool                    // some command is not on graphics (queues.go)
	pairs   [][2]planner.ResourceID // (old, new) pooled pairs sharing bytes, when multi (queues.go)
}

// candidate is a barrier a command needs, before merging.
type candidate struct {
	planner.Barrier
	// last is the latest execution position of the hazard predecessors,
	// -1 when the barrier is not a hazard barrier that another may imply
	// (a first-use or alias barrier, or a layout transition).
	last int32
}

// stageless reports whether a use's stages name no stage that executes
// work: only TOP_OF_PIPE and BOTTOM_OF_PIPE (or none). In synchronization2
// TOP_OF_PIPE is NONE in a first scope and BOTTOM_OF_PIPE is NONE in a
// second one, so such a use copied into a barrier's scope could break the
// chain from the barrier before it to the barrier after it.
func stageless(s vk.Stage) bool { return s&^(vk.StageTopOfPipe|vk.StageBottomOfPipe) == 0 }

// stageScopes sets, per use, the stages that stand for it in barrier
// scopes. A use with stages of its own is itself. A stageless use (a
// present-like use at BOTTOM_OF_PIPE, a top-of-pipe use) stands for the
// stages of the resource's next use that has stages (ALL_COMMANDS when
// none follows, for a pooled resource whose later occupants' alias barriers
// name it): the barrier before it gets those as destination stages besides
// its own, and the barrier after it names them as source stages, so the two
// chain (SPEC §4, TOP/BOTTOM by their synchronization2 meaning). A
// stageless last use of a resource that is not pooled keeps its stages.
func (b *builder) stageScopes() {
	g := b.c.Graph
	for r := range g.Resources {
		us := b.c.Uses(planner.ResourceID(r))
		base := b.useBase[r]
		pooled := b.p.Resources[r].Status == planner.StatusPooled
		var next vk.Stage
		for i := len(us) - 1; i >= 0; i-- {
			s := us[i].Stages
			e, d := s, s
			if stageless(s) {
				switch {
				case next != 0:
					e, d = next, s|next
				case i < len(us)-1 || pooled:
					e, d = vk.StageAllCommands, s|vk.StageAllCommands
				}
			} else {
				next = s
			}
			b.eff[base+int32(i)], b.dst[base+int32(i)] = e, d
		}
	}
}

// hazardSources computes the source scope of every use's hazard barrier
// from its predecessors on the resource, the edges Compile stores: the
// last modifying use before it and, for a modifying use, every read since
// that one. A modifying use after such reads waits for the reads only: the
// barriers before them already order the last modification before them and
// make its writes available, and the reads' stages chain this barrier to
// theirs. (When the last modification is a read whose transition those
// reads share, it is one of the reads and is waited for too.) Readers
// sharing a transition share its predecessors, and one barrier, before the
// one of them that runs first, makes the transition with a destination
// that covers them all. The predecessors of one use share a layout (reads
// never change it), so one barrier serves them all.
func (b *builder) hazardSources() {
	g := b.c.Graph
	b.useBase = make([]int32, len(g.Resources)+1)
	for r := range g.Resources {
		b.useBase[r+1] = b.useBase[r] + int32(len(b.c.Uses(planner.ResourceID(r))))
	}
	n := b.useBase[len(g.Resources)]
	b.src = make([]hazardSource, n)
	b.eff = make([]vk.Stage, n)
	b.dst = make([]vk.Stage, n)
	b.lead = make([]int32, n)
	b.gStages = make([]vk.Stage, n)
	b.gAccess = make([]vk.AccessFlags, n)
	b.stageScopes()
	b.initRanged() // ranges.go
	for r := range g.Resources {
		us := b.c.Uses(planner.ResourceID(r))
		base := b.useBase[r]
		hs := b.src[base:b.useBase[r+1]]
		lastMod, readsSince := -1, 0
		for i, u := range us {
			b.lead[base+int32(i)] = -1
			if t := u.Transition; t >= 0 && int(t) != i {
				hs[i] = hs[t]
				continue
			}
			h := hazardSource{last: -1}
			add := func(k int) {
				if b.otherQueue(us[k].Command, u.Command) {
					h.cross = true
					return
				}
				h.stages |= b.eff[base+int32(k)]
				h.writes |= us[k].Access.Writes()
				h.last = max(h.last, b.pos[us[k].Command])
			}
			if lastMod >= 0 && b.otherQueue(us[lastMod].Command, u.Command) {
				h.crossWrite = true
				h.crossStages, h.crossWrites = b.eff[base+int32(lastMod)], us[lastMod].Access.Writes()
			}
			if lastMod >= 0 && (!(u.Modifies && readsSince < i) || us[lastMod].Transition == int32(lastMod) || b.crossReads(us[readsSince:i], u.Command)) {
				add(lastMod)
			}
			if u.Modifies {
				for k := readsSince; k < i; k++ {
					add(k)
				}
				lastMod, readsSince = i, i+1
			}
			hs[i] = h
		}
		// Each group of readers sharing a transition: the lead (first in
		// execution order) and the destination covering them all.
		for i := 0; i < len(us); {
			t := us[i].Transition
			if int(t) != i {
				i++
				continue
			}
			j, lead := i, i
			var ds vk.Stage
			var da vk.AccessFlags
			for ; j < len(us) && us[j].Transition == t; j++ {
				ds |= b.dst[base+int32(j)]
				da |= us[j].Access
				if b.pos[us[j].Command] < b.pos[us[lead].Command] {
					lead = j
				}
			}
			for k := i; k < j; k++ {
				b.lead[base+int32(k)] = int32(lead)
			}
			b.gStages[base+int32(lead)], b.gAccess[base+int32(lead)] = ds, da
			i = j
		}
	}
}

// build appends the barriers of every command, in execution order, to out.
func (b *builder) build(out []planner.Barrier) []planner.Barrier {
	// A command needs at most one barrier per resource it uses (two for
	// an image alias after writes): the barriers, and each resource's
	// list of them, are carved from allocations of that bound instead of
	// growing.
	nr := len(b.c.Graph.Resources)
	b.onRes = make([][]int32, nr)
	uses := 0
	for r := range nr {
		uses += b.barrierBound(planner.ResourceID(r)) // ranges.go
	}
	store := make([]int32, uses)
	at := 0
	for r := range nr {
		end := at + b.barrierBound(planner.ResourceID(r))
		b.onRes[r] = store[at:at:end]
		at = end
	}
	out = slices.Grow(out, uses)
	for _, cmd := range b.p.Order {
		b.batch = b.batch[:0]
		for _, ref := range b.c.CommandUses(cmd) {
			if b.ranged(ref.Resource) {
				b.needRanged(out, cmd, ref) // ranges.go
				continue
			}
			b.need(cmd, ref)
		}
		// Call 0 first: the barriers of call 1 chain after them.
		for call := uint8(0); call < 2; call++ {
			for i := range b.batch {
				x := &b.batch[i]
				if x.Call != call || x.last >= 0 && b.implied(out, x) {
					continue
				}
				out = append(out, x.Barrier)
				k := int32(len(out) - 1)
				if x.last < -1 {
					b.rangedAppended(int(-2-x.last), k) // ranges.go
				}
				switch {
				case x.Type == planner.MemoryBarrier:
					b.memory = append(b.memory, k)
				case x.Kind == planner.Hazard:
					b.onRes[x.Resource] = append(b.onRes[x.Resource], k)
				}
			}
		}
	}
	return out
}

// need appends to b.batch the barriers that use ref of command cmd needs,
// if any.
func (b *builder) need(cmd planner.CommandID, ref planner.UseRef) {
	r := ref.Resource
	res := &b.c.Graph.Resources[r]
	us := b.c.Uses(r)
	base := b.useBase[r]
	i := ref.Index
	u := us[i]
	dstS, dstA := b.dst[base+i], u.Access
	t := i // the use whose layout change the barrier makes
	if u.Transition >= 0 {
		if b.lead[base+i] != i {
			return // the group's lead records the transition for every reader
		}
		t = u.Transition
		dstS, dstA = b.gStages[base+i], b.gAccess[base+i]
	}
	ut := us[t]
	image := res.Kind == planner.KindImage
	x := candidate{Barrier: planner.Barrier{Before: cmd, Kind: planner.Hazard, Type: planner.BufferBarrier, Resource: r,
		DstStages: dstS, DstAccess: dstA}, last: -1}
	if image {
		x.Type, x.OldLayout, x.NewLayout = planner.ImageBarrier, ut.PrevLayout, ut.Layout
	}
	if t > 0 {
		h := b.src[base+t]
		if h.last < 0 && (!h.cross || !image || ut.PrevLayout == ut.Layout) {
			return // no predecessor on this queue: a read that changes no layout, or the semaphore orders it
		}
		x.SrcStages, x.SrcAccess = h.stages, h.writes
		if (h.cross || h.crossWrite) && image && ut.PrevLayout != ut.Layout {
			// The transition chains after the semaphore wait (queues.go).
			x.SrcStages |= dstS
			x.SrcAccess |= waitVisible(dstA)
			if h.crossWrite {
				s, a := b.crossScope(cmd, h.crossStages, h.crossWrites)
				x.SrcStages |= s
				x.SrcAccess |= a
			}
		} else if !image || ut.PrevLayout == ut.Layout {
			x.last = h.last
		}
		b.batch = append(b.batch, x)
		return
	}
	// The first use (or the group of readers sharing the first transition).
	if res.Imported {
		if !image || ut.PrevLayout == ut.Layout {
			return
		}
		// Chain with the caller's own synchronization at the use's stages.
		x.SrcStages = dstS
		b.batch = append(b.batch, x)
		return
	}
	if image {
		x.OldLayout = vk.LayoutUndefined // reused or fresh memory: no contents to keep
	}
	prev := b.prev[r]
	if len(prev) == 0 {
		if image { // a fresh image still leaves UNDEFINED; a fresh buffer needs nothing
			b.batch = append(b.batch, x)
		}
		return
	}
	x.Kind, x.Previous = planner.Alias, prev
	cross := false
	for _, a := range prev {
		s, w, cr := b.terminalScopeOn(a, cmd)
		x.SrcStages |= s
		x.SrcAccess |= w
		cross = cross || cr
	}
	crossW := false // an old occupant's last modification on another queue (reads here may follow it)
	var crossS vk.Stage
	var crossA vk.AccessFlags
	if image && b.multi {
		for _, a := range prev {
			us := b.c.Uses(a)
			for k := len(us) - 1; k >= 0; k-- {
				if us[k].Modifies {
					if b.otherQueue(us[k].Command, cmd) {
						crossW = true
						s, w := b.crossScope(cmd, b.eff[b.useBase[a]+int32(k)], us[k].Access.Writes())
						crossS, crossA = crossS|s, crossA|w
					}
					break
				}
			}
		}
		if crossW && !cross {
			x.SrcStages |= dstS
		}
	}
	if cross { // an old occupant's terminal use on another queue: a semaphore orders it (queues.go)
		if !image {
			if x.SrcStages == 0 {
				return
			}
		} else {
			x.SrcStages |= dstS
		}
	}
	switch {
	case !image:
		x.Type = planner.MemoryBarrier
	case x.SrcAccess != 0:
		// An image barrier's access scopes reach only the image, and its
		// transition must follow the availability of every earlier write
		// to its memory: call 0 makes the old occupants' writes available
		// (a memory barrier, dst S = their stages), call 1 chains after it
		// through S and transitions from UNDEFINED. Call 1 repeats the
		// writes in its source access: the Khronos layer 1.3.239 reports a
		// false write-after-write on the transition otherwise.
		m := x
		m.Type, m.OldLayout, m.NewLayout = planner.MemoryBarrier, vk.LayoutUndefined, vk.LayoutUndefined
		m.DstStages, m.DstAccess = x.SrcStages, 0
		b.batch = append(b.batch, m)
		x.Call = 1
	}
	if (cross || crossW) && image {
		x.SrcAccess |= waitVisible(dstA) // chained after the semaphore wait
		x.SrcStages |= crossS
		x.SrcAccess |= crossA
	}
	b.batch = append(b.batch, x)
}

// implied reports whether a barrier already in out (one on the same
// resource, or a memory barrier, recorded after every predecessor of x)
// or a memory barrier of x's own command implies the hazard barrier x.
func (b *builder) implied(out []planner.Barrier, x *candidate) bool {
	for i := range b.batch {
		if m := &b.batch[i]; m.Type == planner.MemoryBarrier && includes(&m.Barrier, &x.Barrier) {
			return true
		}
	}
	for _, list := range [][]int32{b.onRes[x.Resource], b.memory} {
		for k := len(list) - 1; k >= 0; k-- {
			y := &out[list[k]]
			if b.pos[y.Before] <= x.last {
				break // recorded before a predecessor: it orders nothing of x
			}
			if b.otherQueue(y.Before, x.Before) {
				continue // a barrier of another queue orders nothing there
			}
			if includes(y, &x.Barrier) {
				return true
			}
		}
	}
	return false
}

// includes reports whether barrier y's scopes include x's and y leaves
// the resource in the layout x needs without changing it (x changes none).
func includes(y, x *planner.Barrier) bool {
	if !scopeIncludes(y, x) {
		return false
	}
	switch y.Type {
	case planner.MemoryBarrier:
		return true
	case planner.ImageBarrier:
		return x.Type == planner.ImageBarrier && y.OldLayout == y.NewLayout && y.NewLayout == x.NewLayout
	}
	return x.Type == planner.BufferBarrier
}
