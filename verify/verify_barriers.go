package verify

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

func subStages(a, b vk.Stage) bool { return a&b == a }

// useStages returns a use's stages as a scope must hold them: expanded,
// without TOP_OF_PIPE and BOTTOM_OF_PIPE (which execute no work).
func useStages(s vk.Stage) vk.Stage      { return s.Expand() &^ topBottom }
func subAccess(a, b vk.AccessFlags) bool { return a&b == a }

// scope is a barrier's synchronization and access scopes, expanded, with
// TOP_OF_PIPE, BOTTOM_OF_PIPE and NONE by their synchronization2 meaning:
// in a first scope TOP_OF_PIPE is NONE and BOTTOM_OF_PIPE is ALL_COMMANDS
// in execution with no access; in a second scope BOTTOM_OF_PIPE is NONE and
// TOP_OF_PIPE is ALL_COMMANDS in execution with no access. So a
// destination of BOTTOM_OF_PIPE alone waits for nothing and chains with
// nothing after it.
type scope struct {
	srcExec, srcAcc vk.Stage // first execution scope; stages of the first access scope
	srcMask         vk.AccessFlags
	dstExec, dstAcc vk.Stage
	dstMask         vk.AccessFlags
}

const topBottom = vk.StageTopOfPipe | vk.StageBottomOfPipe

func scopeOf(x *planner.Barrier) scope {
	s := scope{srcAcc: x.SrcStages.Expand() &^ topBottom, srcMask: x.SrcAccess.Expand(),
		dstAcc: x.DstStages.Expand() &^ topBottom, dstMask: x.DstAccess.Expand()}
	s.srcExec, s.dstExec = s.srcAcc, s.dstAcc
	if x.SrcStages&vk.StageBottomOfPipe != 0 {
		s.srcExec = ^vk.Stage(0)
	}
	if x.DstStages&vk.StageTopOfPipe != 0 {
		s.dstExec = ^vk.Stage(0)
	}
	return s
}

// stageless reports whether a use's stages name no stage that executes
// work (only TOP_OF_PIPE / BOTTOM_OF_PIPE): nothing of the use itself is
// waited for; what orders it is the barrier that put the resource in its
// layout, from which a chain must continue.
func stageless(s vk.Stage) bool { return s&^topBottom == 0 }

// barrierCheck holds what verifyBarriers derives from a plan.
type barrierCheck struct {
	c     *planner.Compiled
	p     *planner.Plan
	ao    *planner.AliasOrder // the plan's aliasing order: the DAG's and the serializations
	pos   []int32             // execution position of each command
	start []int32             // barriers before the command at position k: start[k]:start[k+1]
	sc    []scope             // per barrier
	onRes [][]int32           // per resource, its buffer and image barriers, ascending
	mem   []int32             // memory barriers, ascending (they cover every resource)
	alias [][]int32           // per resource, its alias barriers
	slot  []int32             // per barrier: 2·position + call; chains need strictly increasing slots

	term    []terminalNeeds // per resource, cached by terminalNeed
	useBase []int32         // use i of resource r is trans[useBase[r]+i]
	trans   []int32         // per use, the barrier that moves the image into its layout before it, or -1

	errs *errList // where violations go

	multi  bool                    // some command is not on graphics (queues.go)
	cross  []crossEdge             // the hazard edges across queues, for queues.go
	termQ  []planner.QueueSet      // per resource, the queues of its terminal uses (queues.go)
	pairs  [][2]planner.ResourceID // pooled pairs sharing bytes, (old, new), found by aliases for queues.go
	termOn []terminalNeeds         // per resource and queue, terminalNeedOn's cache
}

// verifyBarriers checks the execution order and barriers of p against c,
// independently of the code that made them:
//
//   - structure: barriers grouped by the position of their command in the
//     order, known commands and resources, types that fit the resource
//     (memory, buffer for buffers, image for images), layouts only on image
//     barriers, no access flags with a NONE stage mask, Previous only and
//     always on alias barriers, alias barriers only for pooled resources and
//     before their initial use;
//   - layouts: executing the order, every image barrier's oldLayout is the
//     image's current layout (UNDEFINED for a transient before its first
//     use, the declared initial layout for an imported image), a layout
//     changes only before a command that uses the image in the new layout
//     and with a destination scope that includes that use, and every
//     command finds each image in the layout it needs;
//   - hazards: every DAG edge (per resource, each use after the last
//     modifying use before it, and each modifying use after every read
//     since: the edges Compile stores) is covered, see below;
//   - aliasing: every pair of pooled resources sharing bytes, A entirely
//     before B, is covered by an alias barrier before B's initial use whose
//     Previous lists A, whose source scope includes A's terminal stages and
//     write accesses and whose destination scope includes B's first use;
//     or A's shared bytes are all shared with later old occupants of B that
//     A is entirely before and that are buffers (their own alias pairs
//     order A before them, and they before B; a buffer's alias barrier is a
//     memory barrier, whose access scope is all memory, where an image
//     barrier's is the image's subresources, which may not fill the bytes
//     the image is placed in, so A's writes there would never be made
//     available).
//
// An edge from use i to use j of resource r is covered by a chain of
// barriers X1..Xn recorded after i and no later than j, in strictly
// increasing positions (barriers of one command do not chain), where X1's
// first execution scope includes i's stages, each next barrier's first
// execution scope meets the previous one's second, and Xn's second
// execution scope includes j's stages. When i writes, a barrier of the
// chain on r (or a memory barrier) makes i's writes available: its first
// scope includes i's stages directly and its source access i's writes.
// When i modifies r (a write or a layout transition), a barrier on r of the
// chain after that makes them visible to j: its second scope includes j's
// stages and its destination access j's access flags. When j changes the
// layout, the chain must end at that transition: it is a write that must
// follow i. A single barrier whose scopes include both uses is the usual
// chain of one; barriers.Build relies on chains of two only for a write
// after reads, whose barrier waits for the reads, which waited for the
// write before them. Meta stages and accesses
// (ALL_COMMANDS, SHADER_READ, MEMORY_WRITE, ...) count as what they stand
// for; logically earlier and later stages are not counted, so the check
// is conservative.
//
// Cost: O(B + U + E·W) for B barriers, U uses, E per-resource edges and W
// the barriers of one resource between an edge's ends; a chain search,
// needed only where no single barrier covers an edge, scans the barriers
// between the ends.
func verifyBarriers(c *planner.Compiled, p *planner.Plan) error {
	errs := &errList{max: 1}
	if verifyBarriersAll(c, p, errs); len(errs.errs) > 0 {
		return errs.errs[0]
	}
	return nil
}

// verifyBarriersAll is verifyBarriers sending every violation to errs; the
// checks stop at its cap. Layouts, hazards and aliases run only when the
// structure holds.
func verifyBarriersAll(c *planner.Compiled, p *planner.Plan, errs *errList) {
	v := &barrierCheck{c: c, p: p, errs: errs, ao: planner.NewAliasOrder(c, p), multi: c.Graph.MultiQueue()}
	if err := v.structure(); err != nil {
		errs.add(err)
		return
	}
	if v.layouts() || v.hazards() || v.ranges() { // ranges.go: per cell for ranged images
		return
	}
	v.aliases()
	v.queues() // queues.go
}

func (v *barrierCheck) cmdName(cmd planner.CommandID) string { return v.c.Graph.Commands[cmd].Name }
func (v *barrierCheck) resName(r planner.ResourceID) string  { return v.c.Graph.Resources[r].Name }

func (v *barrierCheck) structure() error {
	g, p := v.c.Graph, v.p
	n, nr := len(g.Commands), len(g.Resources)
	fail := func(k int, rule planner.Rule, format string, args ...any) error {
		e := &planner.BarrierError{Barrier: k, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		if k >= 0 {
			x := &p.Barriers[k]
			if x.Before >= 0 && int(x.Before) < n {
				e.Before = g.Commands[x.Before].Name
			}
			if x.Resource >= 0 && int(x.Resource) < nr {
				e.Resource = g.Resources[x.Resource].Name
			}
		}
		return e
	}
	if len(p.Order) != n {
		return fail(-1, planner.RuleOrder, "order has %d commands, graph has %d", len(p.Order), n)
	}
	if len(p.Resources) != nr {
		return fail(-1, planner.RuleBarrier, "plan has %d resources, graph has %d", len(p.Resources), nr)
	}
	v.pos = make([]int32, n)
	for i := range v.pos {
		v.pos[i] = -1
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || v.pos[cmd] >= 0 {
			return fail(-1, planner.RuleOrder, "order position %d: command %d is out of range or repeated", i, cmd)
		}
		v.pos[cmd] = int32(i)
	}
	v.start = make([]int32, n+1)
	v.sc = make([]scope, len(p.Barriers))
	v.onRes = carveLists(p.Barriers, nr, func(x *planner.Barrier) bool { return x.Type != planner.MemoryBarrier })
	v.alias = carveLists(p.Barriers, nr, func(x *planner.Barrier) bool { return x.Kind == planner.Alias })
	at := int32(0) // position of the barriers seen so far
	v.slot = make([]int32, len(p.Barriers))
	for k := range p.Barriers {
		x := &p.Barriers[k]
		if x.Before < 0 || int(x.Before) >= n {
			return fail(k, planner.RuleBarrier, "command %d does not exist", x.Before)
		}
		if x.Resource < 0 || int(x.Resource) >= nr {
			return fail(k, planner.RuleBarrier, "resource %d does not exist", x.Resource)
		}
		q := v.pos[x.Before]
		if q < at {
			return fail(k, planner.RuleBarrier, "barriers are not grouped in execution order: its command runs at position %d, an earlier barrier's at %d", q, at)
		}
		for ; at < q; at++ {
			v.start[at+1] = int32(k)
		}
		res := &g.Resources[x.Resource]
		switch {
		case x.Kind != planner.Hazard && x.Kind != planner.Alias:
			return fail(k, planner.RuleBarrier, "unknown kind %s", x.Kind)
		case x.Type == planner.BufferBarrier && res.Kind != planner.KindBuffer, x.Type == planner.ImageBarrier && res.Kind != planner.KindImage:
			return fail(k, planner.RuleBarrier, "%s barrier on %s", x.Type, article(res.Kind.String()))
		case x.Type != planner.MemoryBarrier && x.Type != planner.BufferBarrier && x.Type != planner.ImageBarrier:
			return fail(k, planner.RuleBarrier, "unknown type %s", x.Type)
		case x.Type != planner.ImageBarrier && (x.OldLayout != vk.LayoutUndefined || x.NewLayout != vk.LayoutUndefined):
			return fail(k, planner.RuleBarrier, "%s barrier with layouts %s → %s", x.Type, x.OldLayout, x.NewLayout)
		case x.Type == planner.ImageBarrier && (x.NewLayout == vk.LayoutUndefined || x.NewLayout == vk.LayoutPreinitialized):
			return fail(k, planner.RuleBarrier, "image barrier into layout %s", x.NewLayout)
		case vk.UnsupportedAccess(x.SrcStages, x.SrcAccess) != 0:
			return fail(k, planner.RuleStageAccess, "source access %s cannot be performed by source stages %s (no access scope there to make it available in)",
				vk.UnsupportedAccess(x.SrcStages, x.SrcAccess), x.SrcStages)
		case vk.UnsupportedAccess(x.DstStages, x.DstAccess) != 0:
			return fail(k, planner.RuleStageAccess, "destination access %s cannot be performed by destination stages %s (no access scope there to make it visible to)",
				vk.UnsupportedAccess(x.DstStages, x.DstAccess), x.DstStages)
		case x.Kind == planner.Hazard && len(x.Previous) > 0:
			return fail(k, planner.RuleBarrier, "hazard barrier with old occupants")
		case x.Call > 1:
			return fail(k, planner.RuleBarrier, "call %d: a command records its barriers in call 0 and call 1", x.Call)
		case x.Call == 1 && (x.Kind != planner.Alias || x.Type != planner.ImageBarrier) && !entryChained(p, x): // sequence.go
			return fail(k, planner.RuleBarrier, "only an image's alias barrier is recorded in call 1, not a %s %s barrier", x.Kind, x.Type)
		case k > 0 && p.Barriers[k-1].Before == x.Before && p.Barriers[k-1].Call > x.Call:
			return fail(k, planner.RuleBarrier, "barriers are not grouped by call: a barrier of call 0 after one of call 1 before the same command")
		}
		// Barriers chain only from one slot to a later one: the calls of
		// one command are two slots, and barriers of one call form no
		// order among themselves.
		v.slot[k] = 2*q + int32(x.Call)
		if x.Kind == planner.Alias {
			if err := v.aliasStructure(k, fail); err != nil {
				return err
			}
			v.alias[x.Resource] = append(v.alias[x.Resource], int32(k))
		}
		v.sc[k] = scopeOf(x)
		if x.Type == planner.MemoryBarrier {
			v.mem = append(v.mem, int32(k))
		} else {
			v.onRes[x.Resource] = append(v.onRes[x.Resource], int32(k))
		}
	}
	for ; int(at) < n; at++ {
		v.start[at+1] = int32(len(p.Barriers))
	}
	return nil
}

func (v *barrierCheck) aliasStructure(k int, fail func(int, planner.Rule, string, ...any) error) error {
	g, p := v.c.Graph, v.p
	x := &p.Barriers[k]
	b := x.Resource
	res := &g.Resources[b]
	switch {
	case p.Resources[b].Status != planner.StatusPooled || !v.c.Used(b):
		return fail(k, planner.RuleBarrier, "alias barrier for a resource that is %s, not pooled", p.Resources[b].Status)
	case res.Kind == planner.KindBuffer && x.Type != planner.MemoryBarrier:
		return fail(k, planner.RuleBarrier, "a buffer's alias barrier must be a memory barrier, not %s", x.Type)
	case res.Kind == planner.KindImage && x.Type == planner.BufferBarrier:
		return fail(k, planner.RuleBarrier, "an image's alias barrier must be an image barrier (or, in call 0, a memory barrier), not %s", x.Type)
	case res.Kind == planner.KindImage && x.Type == planner.MemoryBarrier && x.Call != 0:
		return fail(k, planner.RuleBarrier, "an image's alias memory barrier is recorded in call 0")
	case x.Type == planner.ImageBarrier && x.OldLayout != vk.LayoutUndefined:
		return fail(k, planner.RuleBarrier, "an image's alias barrier must transition from UNDEFINED, not %s", x.OldLayout)
	case x.Before != v.firstUse(b):
		return fail(k, planner.RuleBarrier, "alias barrier before command %q, not before the resource's initial use %q",
			g.Commands[x.Before].Name, g.Commands[v.firstUse(b)].Name)
	case len(x.Previous) == 0:
		return fail(k, planner.RuleBarrier, "alias barrier without old occupants")
	}
	for i, a := range x.Previous {
		switch {
		case a < 0 || int(a) >= len(g.Resources) || a == b:
			return fail(k, planner.RuleBarrier, "old occupant %d is not another resource of the graph", a)
		case i > 0 && a <= x.Previous[i-1]:
			return fail(k, planner.RuleBarrier, "old occupants are not ascending and distinct")
		}
	}
	return nil
}

// layouts executes the order, tracking every image's layout, and records
// the transition before each use. It reports whether the error cap is
// reached.
func (v *barrierCheck) layouts() bool {
	c, g, p := v.c, v.c.Graph, v.p
	nr := len(g.Resources)
	v.useBase = make([]int32, nr+1)
	for r := range nr {
		v.useBase[r+1] = v.useBase[r] + int32(len(c.Uses(planner.ResourceID(r))))
	}
	v.trans = make([]int32, v.useBase[nr])
	for i := range v.trans {
		v.trans[i] = -1
	}
	cur := make([]vk.Layout, nr)
	for r := range g.Resources {
		if g.Resources[r].Imported {
			cur[r] = g.Resources[r].Image.InitialLayout
		}
	}
	seen := make([]int32, nr) // position+1 of the last image barrier on the resource
	for q, cmd := range p.Order {
		for k := v.start[q]; k < v.start[q+1]; k++ {
			x := &p.Barriers[k]
			if x.Type != planner.ImageBarrier || c.Ranged(x.Resource) {
				continue
			}
			r := x.Resource
			fail := func(format string, args ...any) bool {
				return v.errs.add(&planner.BarrierError{Before: g.Commands[cmd].Name, Resource: g.Resources[r].Name, Barrier: int(k), Rule: planner.RuleLayoutBarrier,
					Detail: fmt.Sprintf(format, args...)})
			}
			if seen[r] == int32(q)+1 {
				if fail("two image barriers on one image before one command") {
					return true
				}
			}
			seen[r] = int32(q) + 1
			if x.OldLayout != cur[r] {
				if fail("oldLayout %s, but the image is in layout %s here", x.OldLayout, cur[r]) {
					return true
				}
			}
			if x.OldLayout != x.NewLayout {
				ref, ok := v.useOf(cmd, r)
				var u planner.Use
				if ok {
					u = c.Use(ref)
				}
				switch {
				case !ok:
					if fail("layout transition before a command that does not use the image") {
						return true
					}
				case u.Layout != x.NewLayout:
					if fail("transition to %s, but the command uses the image in %s", x.NewLayout, u.Layout) {
						return true
					}
				default:
					// The transition serves every reader sharing it (SPEC
					// §2): its destination includes each of their uses.
					us := c.Uses(r)
					lo, hi := ref.Index, ref.Index+1
					if t := u.Transition; t >= 0 {
						lo, hi = t, t
						for int(hi) < len(us) && us[hi].Transition == t {
							hi++
						}
					}
					for i := lo; i < hi; i++ {
						w := &us[i]
						s, a := useStages(w.Stages), w.Access.Expand()
						if sc := &v.sc[k]; !stageless(w.Stages) && (!subStages(s, sc.dstExec) || !subStages(s, sc.dstAcc)) || !subAccess(a, sc.dstMask) {
							if fail("the transition's destination scope %s / %s does not include the use %s / %s of command %q",
								x.DstStages, x.DstAccess, w.Stages, w.Access, g.Commands[w.Command].Name) {
								return true
							}
						}
						v.trans[v.useBase[r]+i] = k
					}
				}
			}
			cur[r] = x.NewLayout
		}
		for _, ref := range c.CommandUses(cmd) {
			r := ref.Resource
			if g.Resources[r].Kind != planner.KindImage || c.Ranged(r) {
				continue
			}
			if u := c.Use(ref); cur[r] != u.Layout {
				if v.errs.add(&planner.BarrierError{Before: g.Commands[cmd].Name, Resource: g.Resources[r].Name, Barrier: -1, Rule: planner.RuleLayoutBarrier,
					Detail: fmt.Sprintf("the command needs layout %s, but the image is in %s: missing layout transition", u.Layout, cur[r])}) {
					return true
				}
				cur[r] = u.Layout // report each missing transition once
			}
		}
	}
	return false
}

// useOf finds cmd's use of r.
func (v *barrierCheck) useOf(cmd planner.CommandID, r planner.ResourceID) (planner.UseRef, bool) {
	for _, ref := range v.c.CommandUses(cmd) {
		if ref.Resource == r {
			return ref, true
		}
	}
	return planner.UseRef{}, false
}

// hazards checks every per-resource DAG edge: each use after the last
// modifying use before it, each modifying use after every read since, and
// each reader sharing a layout transition after the transition's own
// predecessors (Compiled.Use's Transition, SPEC §2). It reports whether the
// error cap is reached.
func (v *barrierCheck) hazards() bool {
	for r := range v.c.Graph.Resources {
		rid := planner.ResourceID(r)
		if v.c.Ranged(rid) {
			continue // per cell: ranges.go
		}
		us := v.c.Uses(rid)
		lastMod, readsSince := -1, 0
		group, gLast, gFrom := -1, -1, 0
		check := func(i, j int) bool {
			err := v.edge(rid, us, i, j)
			return err != nil && v.errs.add(err)
		}
		for j, u := range us {
			if t := int(u.Transition); t >= 0 && t != j {
				if t != group {
					continue // Compile made no such group: other checks catch a stale plan
				}
				if gLast >= 0 && check(gLast, j) {
					return true
				}
				for i := gFrom; i < t; i++ {
					if i != gLast && check(i, j) {
						return true
					}
				}
				continue
			}
			if lastMod >= 0 && check(lastMod, j) {
				return true
			}
			if u.Modifies {
				for i := readsSince; i < j; i++ {
					if i != lastMod && check(i, j) {
						return true
					}
				}
				group = -1
				if int(u.Transition) == j {
					group, gLast, gFrom = j, lastMod, readsSince
				}
				lastMod, readsSince = j, j+1
			}
		}
	}
	return false
}

// edge checks that use i of r is ordered before use j (and its writes made
// available, and visible to it) by a barrier or a chain of barriers that
// reach r's bytes: barriers on r and memory barriers. Synchronization
// validation tracks accesses per byte and credits a barrier only where it
// reaches, so a chain through another resource's buffer or image barrier,
// valid by the spec's chaining rules for a write after read, is not
// counted (SPEC §4).
//
// A stageless earlier use (TOP/BOTTOM_OF_PIPE only) does no work to wait
// for: the chain starts at the barrier that moved r into its layout (none:
// nothing to order). A stageless later use needs no stage in a second
// scope: the chain ends at its layout transition (none: nothing to order).
func (v *barrierCheck) edge(r planner.ResourceID, us []planner.Use, i, j int) error {
	ui, uj := &us[i], &us[j]
	pi, pj := v.pos[ui.Command], v.pos[uj.Command]
	if pi >= pj {
		return &planner.BarrierError{Before: v.cmdName(uj.Command), After: v.cmdName(ui.Command), Resource: v.resName(r), Barrier: -1, Rule: planner.RuleOrder,
			Detail: "the order runs the command before one it depends on"}
	}
	if v.otherQueue(ui.Command, uj.Command) {
		v.cross = append(v.cross, crossEdge{r, int32(i), int32(j)})
		return nil // a semaphore covers it: queues.go
	}
	e := edgeNeed{
		si: useStages(ui.Stages), wi: ui.Access.Writes().Expand(),
		sj: useStages(uj.Stages), aj: uj.Access.Expand(), jStageless: stageless(uj.Stages),
		vis: ui.Modifies && uj.Access != 0, end: v.trans[v.useBase[r]+int32(j)],
	}
	if e.jStageless && e.end < 0 {
		return nil // j does nothing to r: its own successors' edges order what matters
	}
	// The chain's state: second execution scopes reached so far, and those
	// reached after the availability of i's writes.
	var reach, reachAvail vk.Stage
	from := 2*pi + 1 // chains start at barriers after i
	if stageless(ui.Stages) {
		x := v.trans[v.useBase[r]+int32(i)]
		if x < 0 {
			return nil
		}
		e.si, e.wi = 0, 0 // nothing of i itself: the chain continues from its transition
		reach, reachAvail = v.sc[x].dstExec, v.sc[x].dstExec
		from = v.slot[x] + 1
	}
	lists := [2][]int32{v.onRes[r], v.mem}
	var at, end [2]int
	for l := range lists {
		list := lists[l]
		at[l] = sort.Search(len(list), func(k int) bool { return v.slot[list[k]] >= from })
		// The barriers recorded before j's command or at it: slots up to
		// 2·pj+1 (a list is in slot order).
		end[l] = at[l] + sort.Search(len(list)-at[l], func(k int) bool { return v.slot[list[at[l]+k]] > 2*pj+1 })
	}
	// Walk the two lists merged, in slot order; barriers of one slot do not
	// chain with each other.
	cur := int32(-1)
	var nReach, nAvail vk.Stage
	for {
		l := -1
		for m := range lists {
			if at[m] < end[m] && (l < 0 || lists[m][at[m]] < lists[l][at[l]]) {
				l = m
			}
		}
		if l < 0 {
			break
		}
		k := lists[l][at[l]]
		at[l]++
		if v.multi && v.otherQueue(v.p.Barriers[k].Before, uj.Command) {
			continue // a barrier of another queue orders nothing on this one
		}
		if v.slot[k] != cur {
			reach |= nReach
			reachAvail |= nAvail
			nReach, nAvail = 0, 0
			cur = v.slot[k]
		}
		sc := &v.sc[k]
		direct := e.si != 0 && subStages(e.si, sc.srcExec)
		if !direct && sc.srcExec&reach == 0 {
			continue
		}
		afterAvail := (direct && e.avails(sc)) || sc.srcExec&reachAvail != 0
		if e.ends(k, sc, afterAvail) {
			return nil
		}
		nReach |= sc.dstExec
		if afterAvail {
			nAvail |= sc.dstExec
		}
	}
	kind := "write-after-read"
	switch {
	case ui.Modifies && uj.Modifies:
		kind = "write-after-write"
	case ui.Modifies:
		kind = "read-after-write"
	}
	detail := fmt.Sprintf("%s not covered: no barrier or chain of barriers on the resource (or memory barriers) from %s / %s to %s / %s",
		kind, ui.Stages, ui.Access.Writes(), uj.Stages, uj.Access)
	if e.end >= 0 {
		detail += fmt.Sprintf(" ending at the layout transition (barrier %d)", e.end)
	}
	if ui.Access.Writes() != 0 && uj.Modifies {
		detail += "; the earlier writes must be made available before it"
	}
	return &planner.BarrierError{Before: v.cmdName(uj.Command), After: v.cmdName(ui.Command), Resource: v.resName(r), Barrier: -1,
		Rule: planner.RuleHazardBarrier, Detail: detail}
}

// edgeNeed is what covering one edge takes.
type edgeNeed struct {
	si, sj     vk.Stage       // the earlier and later use's stages (no TOP/BOTTOM)
	wi, aj     vk.AccessFlags // the earlier use's writes, the later use's access
	jStageless bool           // the later use executes no work: only its transition counts
	vis        bool           // the later use must see the earlier one's modification
	end        int32          // the layout transition the chain must end at, or -1
}

// avails reports whether a barrier (on the resource or a memory barrier)
// whose first scope includes the earlier use makes its writes available
// (vacuous when it writes nothing).
func (e *edgeNeed) avails(sc *scope) bool {
	return e.wi == 0 || subStages(e.si, sc.srcAcc) && subAccess(e.wi, sc.srcMask)
}

// ends reports whether barrier k, reached by the chain (after the
// availability when afterAvail), completes it. The earlier writes must
// be available whatever the later use does: a read sees them, a write or
// a layout transition (even one without access flags) overwrites the same
// memory.
func (e *edgeNeed) ends(k int32, sc *scope, afterAvail bool) bool {
	if e.end >= 0 && k != e.end {
		return false
	}
	if e.wi != 0 && !afterAvail {
		return false
	}
	if e.jStageless {
		return true
	}
	if !subStages(e.sj, sc.dstExec) {
		return false
	}
	return !e.vis || afterAvail && subStages(e.sj, sc.dstAcc) && subAccess(e.aj, sc.dstMask)
}

// aliases checks every pair of pooled resources that share bytes.
func (v *barrierCheck) aliases() {
	c, g, p := v.c, v.c.Graph, v.p
	var pooled []planner.ResourceID
	for r := range p.Resources {
		if p.Resources[r].Status != planner.StatusPooled || !c.Used(planner.ResourceID(r)) {
			continue
		}
		if pl := &p.Resources[r].Placement; pl.Pool < 0 || pl.Pool >= len(p.Pools) || pl.Offset+pl.Size < pl.Offset {
			v.errs.add(&planner.BarrierError{Resource: g.Resources[r].Name, Barrier: -1, Rule: planner.RuleAliasBarrier,
				Detail: fmt.Sprintf("invalid placement: pool %d, offset %d, size %d", pl.Pool, pl.Offset, pl.Size)})
			return
		}
		pooled = append(pooled, planner.ResourceID(r))
	}
	old := make([][]planner.ResourceID, len(g.Resources))
	for ko, kr := range interval.Overlaps(len(pooled), p.PlacedAt(pooled)) {
		o, r := pooled[ko], pooled[kr]
		if v.multi && v.ao.Before(r, o) {
			v.pairs = append(v.pairs, [2]planner.ResourceID{r, o}) // for queues.go
		} else if v.multi && v.ao.Before(o, r) {
			v.pairs = append(v.pairs, [2]planner.ResourceID{o, r})
		}
		switch {
		case v.ao.Before(o, r):
			old[r] = append(old[r], o)
		case v.ao.Before(r, o):
			old[o] = append(old[o], r)
		default:
			if v.errs.add(&planner.BarrierError{Resource: g.Resources[r].Name, Previous: g.Resources[o].Name, Barrier: -1, Rule: planner.RuleAliasBarrier,
				Detail: "the two share bytes but neither is entirely before the other"}) {
				return
			}
		}
	}
	for b := range old {
		if v.aliasPairs(planner.ResourceID(b), old[b]) {
			return
		}
	}
}

// aliasPairs checks the pairs (a, b) for every old occupant a of b. It
// reports whether the error cap is reached.
func (v *barrierCheck) aliasPairs(b planner.ResourceID, olds []planner.ResourceID) bool {
	c, g, p := v.c, v.c.Graph, v.p
	xs := v.alias[b]
	for _, k := range xs {
		for _, a := range p.Barriers[k].Previous {
			if !containsResource(olds, a) {
				if v.errs.add(&planner.BarrierError{Before: v.cmdName(p.Barriers[k].Before), Resource: g.Resources[b].Name, Previous: g.Resources[a].Name, Barrier: int(k),
					Rule: planner.RuleAliasBarrier, Detail: "previous names a resource that is not an old occupant (same pool, shared bytes, entirely before)"}) {
					return true
				}
			}
		}
	}
	if len(olds) == 0 {
		return false
	}
	// Latest initial use first: a later old occupant is checked before an
	// earlier one may rely on it.
	start := func(r planner.ResourceID) int32 { return v.pos[c.Initial(r)[0]] }
	slices.SortFunc(olds, func(a, b planner.ResourceID) int {
		if sa, sb := start(a), start(b); sa != sb {
			return cmp.Compare(sb, sa)
		}
		return cmp.Compare(a, b)
	})
	ub := c.Uses(b)[v.firstUseIndex(b)]
	sb, ab := useStages(ub.Stages), ub.Access.Expand()
	image := g.Resources[b].Kind == planner.KindImage
	pb := &p.Resources[b].Placement
	rb := interval.Range{Start: pb.Offset, End: pb.Offset + pb.Size}
	clip := func(r planner.ResourceID) interval.Range {
		pr := &p.Resources[r].Placement
		return interval.Range{Start: pr.Offset, End: pr.Offset + pr.Size}.Intersect(rb)
	}
	// dstOK: barrier k's second scope includes b's first use.
	dstOK := func(sc *scope) bool {
		return subStages(sb, sc.dstExec) && subStages(sb, sc.dstAcc) && subAccess(ab, sc.dstMask)
	}
	var cover []interval.Range
	for i, a := range olds {
		tn := v.terminalNeed(a)
		if v.multi {
			if tn = v.terminalNeedOn(a, ub.Command); tn == nil {
				continue // every terminal use on another queue: a semaphore covers it (queues.go)
			}
		}
		ts, tw := tn.stages, tn.writes
		listed, direct := false, false
		// srcOK: barrier k's first scope includes every terminal use of a
		// (each one: trailing reads are all terminal), its access scope a's
		// writes when access is true, and it chains after the transitions
		// of a's stageless terminal uses.
		srcOK := func(sc *scope, access bool) bool {
			if !subStages(ts, sc.srcExec) || access && tw != 0 && (!subStages(ts, sc.srcAcc) || !subAccess(tw, sc.srcMask)) {
				return false
			}
			for _, d := range tn.chainFrom {
				if sc.srcExec&d == 0 {
					return false
				}
			}
			return true
		}
		for _, k := range xs {
			x := &p.Barriers[k]
			if !containsResource(x.Previous, a) {
				continue
			}
			listed = true
			sc := &v.sc[k]
			switch {
			case !image || tw == 0:
				// A memory barrier (buffers), or the folded image barrier
				// when a only read: an execution dependency at b's bytes.
				direct = srcOK(sc, true) && dstOK(sc)
			case x.Type == planner.MemoryBarrier && srcOK(sc, true):
				// a wrote: its writes are made available by a memory
				// barrier, and b's transition (an image barrier of a later
				// call) chains after it. An image barrier's access scopes
				// reach only its image, so the folded form makes nothing
				// of a available.
				for _, y := range xs {
					if z := &v.sc[y]; p.Barriers[y].Type == planner.ImageBarrier && v.slot[y] > v.slot[k] &&
						z.srcExec&sc.dstExec != 0 && dstOK(z) {
						direct = true
						break
					}
				}
			}
			if direct {
				break
			}
		}
		if direct {
			continue
		}
		// Chained through later old occupants that are buffers, whose
		// alias barriers (memory barriers) reach every byte of a: an image
		// barrier's access scope is the image's subresources, which may
		// not fill the bytes it is placed in. The nearest later ones are
		// tried first, which keeps long chains near-linear.
		want := clip(a)
		cover = cover[:0]
		covered := false
		for m := i - 1; m >= 0 && !covered; m-- {
			later := olds[m]
			if g.Resources[later].Kind == planner.KindBuffer && v.ao.Before(a, later) {
				sp := clip(later)
				cover = append(cover, sp)
				covered = sp.Covers(want)
			}
		}
		if covered || interval.UnionCovers(cover, want) {
			continue
		}
		e := &planner.BarrierError{Before: v.cmdName(ub.Command), Resource: g.Resources[b].Name, Previous: g.Resources[a].Name, Barrier: -1, Rule: planner.RuleAliasBarrier}
		switch {
		case len(xs) == 0:
			e.Detail = "missing alias barrier"
		case !listed:
			e.Detail = "the alias barrier does not list the old occupant, and later old occupants that are buffers do not reuse all its shared bytes (an image's barrier does not chain it)"
		case image && tw != 0:
			e.Detail = fmt.Sprintf("the old occupant wrote (%s / %s at its terminal uses): its writes must be made available by a memory barrier (call 0) that the image's transition from UNDEFINED (call 1) chains after, with the first use %s / %s in its destination; an image barrier's access scopes reach only its own image",
				tn.stages0, tn.writes0, ub.Stages, ub.Access)
		default:
			e.Detail = fmt.Sprintf("the alias barrier's scopes do not include the old occupant's terminal scope %s / %s (every terminal use) and the first use %s / %s",
				tn.stages0, tn.writes0, ub.Stages, ub.Access)
		}
		if v.errs.add(e) {
			return true
		}
	}
	return false
}

// terminalNeeds is what an alias barrier's source must cover of one old
// occupant: the stages (expanded, without TOP/BOTTOM) and writes of its
// terminal uses, and, per stageless terminal use with a transition, that
// transition's second execution scope, which the source must meet to chain.
type terminalNeeds struct {
	stages    vk.Stage
	writes    vk.AccessFlags
	chainFrom []vk.Stage
	// stages0 and writes0 are the masks as the uses name them (messages).
	stages0 vk.Stage
	writes0 vk.AccessFlags
	done    bool
}

// terminalNeed returns (and caches) r's terminal needs: every terminal use
// of r (SPEC §2: no conflicting use after it; trailing reads are all
// terminal).
func (v *barrierCheck) terminalNeed(r planner.ResourceID) *terminalNeeds {
	if v.term == nil {
		v.term = make([]terminalNeeds, len(v.c.Graph.Resources))
	}
	tn := &v.term[r]
	if tn.done {
		return tn
	}
	tn.done = true
	us := v.c.Uses(r)
	for _, t := range v.c.Terminal(r) {
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
	return tn
}

func containsResource(rs []planner.ResourceID, r planner.ResourceID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// carveLists returns one empty list per resource, with room for the
// barriers on it that keep selects, all carved from one array: the lists
// then grow by append without allocating. Barriers naming no valid
// resource get no room (structure rejects them before appending).
func carveLists(bs []planner.Barrier, nr int, keep func(x *planner.Barrier) bool) [][]int32 {
	lists := make([][]int32, nr)
	count := make([]int32, nr)
	total := 0
	for k := range bs {
		if x := &bs[k]; x.Resource >= 0 && int(x.Resource) < nr && keep(x) {
			count[x.Resource]++
			total++
		}
	}
	store := make([]int32, total)
	at := 0
	for r := range lists {
		end := at + int(count[r])
		lists[r] = store[at:at:end]
		at = end
	}
	return lists
}
