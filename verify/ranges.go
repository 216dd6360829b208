package verify

import (
	"fmt"
	"slices"
	"sort"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Ranged images (planner.Compiled.Ranged: some access names only part of
// the image) are checked per subresource cell, independently of Compile's
// per-resource edges and of barriers.Build: a state machine per cell
// executes the order, the barriers that reach the cell (image barriers on
// the image whose range includes it, and memory barriers) and the cell's
// uses, the way synchronization validation tracks accesses:
//
//   - every prior access the cell holds (its last write, which may be a
//     layout transition, and the reads since) records the second execution
//     scopes of the barriers chained after it (a barrier chains after an
//     access when its first execution scope includes the access's stages
//     or meets a barrier already chained after it) and, for a write, the
//     access a barrier whose first access scope includes it (or that
//     chains after one that did) made it visible to;
//   - a use needs the cell in the layout it names (a missing or wrong
//     transition is reported), and is ordered after every prior access
//     that conflicts with it (a write, or any access when the use writes)
//     and sees every write;
//   - a layout transition is a write: it must be ordered after every prior
//     access and find every write available, and it leaves only itself
//     on the cell (from UNDEFINED only while the cell holds no write of the
//     frame: otherwise it would discard contents a later use reads);
//   - barriers of one call do not chain with each other; a range that
//     cuts a cell (includes part of it) is reported;
//   - the first-use barriers of a transient ranged image cover the whole
//     image (pieces before one command, in one call, with equal scopes),
//     so that an alias barrier's checks (aliases) hold for every cell;
//   - an imported image's final barriers take every cell to the final
//     layout (verifyFinal leaves ranged images to this check).
//
// Errors use the rules of the per-resource checks (layout-barrier, barrier,
// and the hazard rules) and name the cell's range.

// tracked is a prior access held by a cell.
type tracked struct {
	stages    vk.Stage       // expanded, without TOP/BOTTOM; 0: stageless
	writes    vk.AccessFlags // expanded
	write     bool
	trans     bool     // a layout transition (it waits for nothing of its own)
	chain     vk.Stage // second execution scopes of the barriers chained after it
	avail     bool     // a write made available
	vis       vk.AccessFlags
	visStages vk.Stage
	cmd       planner.CommandID // EndOfFrame for none
}

// effect is one barrier's effect on one cell, applied with its call. It
// holds no pointer (writing one to the heap costs a write barrier while
// the collector runs): the barrier and its scope are rangeWork.bars[b].
type effect struct {
	k     int
	bar   int
	b     int32
	trans bool
}

// barRef is a barrier of the call being gathered and its scope.
type barRef struct {
	x  *planner.Barrier
	sc *scope
}

// upd is a chain or visibility update of one tracked access.
type upd struct {
	k, i  int
	chain vk.Stage
	vis   vk.AccessFlags
	visS  vk.Stage
	avail bool
}

// rangeWork is the scratch the ranged images of one check share.
type rangeWork struct {
	cells []rcell
	spans []planner.SubresourceRange
	arena []tracked
	qs    []int32
	stamp []int32
	hit   []int8
	effs  []effect
	bars  []barRef
	upds  []upd
	cover []bool // uncovered's
}

// grow returns s with length n and zeroed elements, reusing its storage.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// rcell is one cell's state.
type rcell struct {
	layout vk.Layout
	wrote  bool // holds a write of the frame (not only transitions)
	acc    []tracked
}

func (v *barrierCheck) firstUseIndex(b planner.ResourceID) int {
	if !v.c.Ranged(b) {
		return 0
	}
	us := v.c.Uses(b)
	best := 0
	for i := range us {
		if v.pos[us[i].Command] < v.pos[us[best].Command] {
			best = i
		}
	}
	return best
}

func (v *barrierCheck) firstUse(b planner.ResourceID) planner.CommandID {
	if !v.c.Ranged(b) {
		return v.c.Initial(b)[0]
	}
	return v.c.Uses(b)[v.firstUseIndex(b)].Command
}

// ranges checks every ranged image; it reports whether the error cap is
// reached.
func (v *barrierCheck) ranges() bool {
	g := v.c.Graph
	for _, list := range [][]planner.Barrier{v.p.Barriers, v.p.FinalBarriers} {
		for k := range list {
			x := &list[k]
			if x.Mips == (planner.MipRange{}) && x.Layers == (planner.LayerRange{}) && x.Aspects == 0 {
				continue
			}
			if x.Resource < 0 || int(x.Resource) >= len(g.Resources) {
				continue // reported by structure or verifyFinal
			}
			res := &g.Resources[x.Resource]
			msg := ""
			switch im := &res.Image; {
			case x.Type != planner.ImageBarrier || res.Kind != planner.KindImage:
				msg = fmt.Sprintf("a %s barrier on %s with a subresource range: only image barriers have one", x.Type, describe(res))
			case uint32(x.Mips.Base) >= im.MipLevels || uint32(x.Mips.Base)+uint32(x.Mips.Count) > im.MipLevels,
				uint32(x.Layers.Base) >= im.ArrayLayers || uint32(x.Layers.Base)+uint32(x.Layers.Count) > im.ArrayLayers:
				msg = fmt.Sprintf("mips %v layers %v are not inside the image's %d mip levels and %d layers", x.Mips, x.Layers, im.MipLevels, im.ArrayLayers)
			case x.Aspects&^im.Format.Aspects() != 0:
				msg = fmt.Sprintf("aspects %s: format %s has only %s", x.Aspects, im.Format, im.Format.Aspects())
			case !v.c.Ranged(x.Resource) && !planner.BarrierRange(x, im).Covers(planner.BarrierRange(&planner.Barrier{}, im)):
				// The per-resource checks take a barrier for the whole image.
				msg = fmt.Sprintf("mips %v layers %v aspects %s: less than the whole image, which no access names part of", x.Mips, x.Layers, x.Aspects)
			}
			if msg != "" && v.errs.add(&planner.BarrierError{Resource: res.Name, Barrier: k, Rule: planner.RuleBarrier, Detail: msg}) {
				return true
			}
		}
	}
	var w rangeWork
	for r := range v.c.Graph.Resources {
		if id := planner.ResourceID(r); v.c.Ranged(id) && v.rangedImage(id, &w) {
			return true
		}
	}
	return false
}

func (v *barrierCheck) rangedImage(r planner.ResourceID, w *rangeWork) bool {
	c, g, p := v.c, v.c.Graph, v.p
	res := &g.Resources[r]
	im := &res.Image
	n := c.NumCells(r)
	_, nl, na := c.CellGrid(r)
	w.cells, w.spans, w.arena = grow(w.cells, n), grow(w.spans, n), grow(w.arena, 4*n) // arena: each cell's first accesses
	cells, spans, arena := w.cells, w.spans, w.arena
	for k := range cells {
		cells[k].acc = arena[4*k : 4*k : 4*k+4]
		m, l, a := c.CellRange(r, int32(k))
		spans[k] = planner.SubresourceRange{Mips: m, Layers: l, Aspects: a}
		if res.Imported {
			cells[k].layout = im.InitialLayout
		}
	}
	where := func(k int) string {
		s := spans[k]
		return fmt.Sprintf("mips [%d, %d] layers [%d, %d] aspects %s", s.Mips.Base, s.Mips.Count, s.Layers.Base, s.Layers.Count, s.Aspects)
	}
	fail := func(before string, k int, bar int, rule planner.Rule, format string, args ...any) bool {
		return v.errs.add(&planner.BarrierError{Before: before, Resource: res.Name, Barrier: bar, Rule: rule,
			Detail: fmt.Sprintf("on %s: ", where(k)) + fmt.Sprintf(format, args...)})
	}
	us := c.Uses(r)
	// The positions where something happens to r: its uses, its barriers
	// and the memory barriers (the others leave its cells alone).
	w.qs = w.qs[:0]
	for i := range us {
		w.qs = append(w.qs, v.pos[us[i].Command])
	}
	for _, list := range [][]int32{v.onRes[r], v.mem} {
		for _, k := range list {
			w.qs = append(w.qs, v.pos[p.Barriers[k].Before])
		}
	}
	slices.Sort(w.qs)
	w.qs = slices.Compact(w.qs)
	qs := w.qs
	useOf := func(cmd planner.CommandID) int {
		i := sort.Search(len(us), func(i int) bool { return us[i].Command >= cmd })
		if i < len(us) && us[i].Command == cmd {
			return i
		}
		return -1
	}
	w.stamp = grow(w.stamp, n) // per cell: the slot+1 of its last transition
	stamp := w.stamp
	slots := int32(0)
	first := v.firstUse(r)
	w.hit = grow(w.hit, n) // per cell: 0 no, 1 yes, 2 cut
	hit := w.hit
	reach := func(x *planner.Barrier) {
		if x.Type == planner.MemoryBarrier {
			for k := range hit {
				hit[k] = 1
			}
			return
		}
		br := planner.BarrierRange(x, im)
		for k := range hit {
			switch {
			case br.Covers(spans[k]):
				hit[k] = 1
			case br.Intersects(spans[k]):
				hit[k] = 2
			default:
				hit[k] = 0
			}
		}
	}
	w.effs, w.bars = w.effs[:0], w.bars[:0]
	// slot applies one call's barriers (effs) to the cells, from the state
	// before the call.
	slot := func(before string) bool {
		effs, bars := w.effs, w.bars
		if len(effs) == 0 {
			return false // no barrier of the call reaches the image
		}
		slots++
		for _, e := range effs {
			if e.trans {
				if stamp[e.k] == slots {
					if fail(before, e.k, e.bar, planner.RuleLayoutBarrier, "two layout transitions of one subresource in one call") {
						return true
					}
				}
				stamp[e.k] = slots
			}
		}
		// Chains and visibility from the state before the call.
		ups := w.upds[:0]
		for _, e := range effs {
			st := &cells[e.k]
			sc := bars[e.b].sc
			for i := range st.acc {
				a := &st.acc[i]
				chained := a.stages&sc.srcExec != 0 || a.chain&sc.srcExec != 0
				if !chained {
					continue
				}
				u := upd{k: e.k, i: i, chain: sc.dstExec}
				if a.write && (a.avail || subStages(a.stages, sc.srcAcc) && subAccess(a.writes, sc.srcMask)) {
					u.avail, u.vis, u.visS = true, sc.dstMask, sc.dstAcc
				}
				ups = append(ups, u)
			}
		}
		// Transitions: ordered after every prior access, writes available.
		for _, e := range effs {
			if !e.trans {
				continue
			}
			st := &cells[e.k]
			x, sc := bars[e.b].x, bars[e.b].sc
			if x.OldLayout != st.layout && !(x.OldLayout == vk.LayoutUndefined && !st.wrote) {
				if fail(before, e.k, e.bar, planner.RuleLayoutBarrier, "oldLayout %s, but the subresource is in layout %s here", x.OldLayout, st.layout) {
					return true
				}
			}
			for i := range st.acc {
				a := &st.acc[i]
				ok := a.stages == 0 && !a.trans || a.stages&sc.srcExec != 0 || a.chain&sc.srcExec != 0
				if ok && a.write && !(a.avail || subStages(a.stages, sc.srcAcc) && subAccess(a.writes, sc.srcMask)) {
					ok = false
				}
				if !ok {
					if fail(before, e.k, e.bar, planner.RuleHazardBarrier, "the layout transition %s → %s is not ordered after the %s of command %q (a transition is a write)",
						x.OldLayout, x.NewLayout, kindOf(a), v.cmdLabel(a.cmd)) {
						return true
					}
				}
			}
		}
		for _, u := range ups {
			a := &cells[u.k].acc[u.i]
			a.chain |= u.chain
			if u.avail {
				a.avail = true
				a.vis |= u.vis
				a.visStages |= u.visS
			}
		}
		for _, e := range effs {
			if e.trans {
				st := &cells[e.k]
				x, sc := bars[e.b].x, bars[e.b].sc
				st.layout = x.NewLayout
				st.acc = st.acc[:0] // (not append(st.acc[:0], ...): that stores the pointer again)
				st.acc = append(st.acc, tracked{write: true, trans: true, chain: sc.dstExec, avail: true, vis: sc.dstMask, visStages: sc.dstAcc, cmd: planner.EndOfFrame})
			}
		}
		w.effs, w.bars, w.upds = effs[:0], bars[:0], ups[:0]
		return false
	}
	// apply gathers barrier k's effects on the cells.
	apply := func(before string, bar int, x *planner.Barrier, sc *scope) bool {
		if x.Type != planner.MemoryBarrier && x.Resource != r {
			return false
		}
		trans := x.Type == planner.ImageBarrier && x.OldLayout != x.NewLayout
		w.bars = append(w.bars, barRef{x: x, sc: sc})
		b := int32(len(w.bars) - 1)
		if x.Type == planner.MemoryBarrier {
			for k := range n {
				w.effs = append(w.effs, effect{k: k, bar: bar, b: b, trans: trans})
			}
			return false
		}
		if box, ok := c.CellBoxOf(r, planner.BarrierRange(x, im)); ok && !rangesByCell {
			// The range is a union of whole cells (the usual case): its
			// cells, ascending, without comparing it with every cell.
			w.effs = appendBox(w.effs, box, nl, na, effect{bar: bar, b: b, trans: trans})
			return false
		}
		reach(x)
		for k := range hit {
			switch hit[k] {
			case 2:
				if fail(before, k, bar, planner.RuleBarrier, "the barrier's range includes part of a subresource cell of the graph (mips %v layers %v aspects %s)", x.Mips, x.Layers, x.Aspects) {
					return true
				}
			case 1:
				w.effs = append(w.effs, effect{k: k, bar: bar, b: b, trans: trans})
			}
		}
		return false
	}
	for _, q := range qs {
		cmd := p.Order[q]
		name := g.Commands[cmd].Name
		lo, hi := v.start[q], v.start[q+1]
		var firsts []int32
		for call := uint8(0); call < 2; call++ {
			for k := lo; k < hi; k++ {
				x := &p.Barriers[k]
				if x.Call != call {
					continue
				}
				if x.Resource == r && x.Type == planner.ImageBarrier && cmd == first && !res.Imported && x.OldLayout == vk.LayoutUndefined {
					firsts = append(firsts, k)
				}
				if apply(name, int(k), x, &v.sc[k]) {
					return true
				}
			}
			if slot(name) {
				return true
			}
		}
		if cmd == first && !res.Imported && v.firstCover(r, firsts, spans, w, fail, name) {
			return true
		}
		i := useOf(cmd)
		if i < 0 {
			continue
		}
		for _, e := range c.CellUses(r, i) {
			k := int(e.Cell())
			st := &cells[k]
			if e.Layout() != st.layout {
				if fail(name, k, -1, planner.RuleLayoutBarrier, "the command needs layout %s, but the subresource is in %s: missing layout transition", e.Layout(), st.layout) {
					return true
				}
				st.layout = e.Layout()
			}
			qs, qa := useStages(e.Stages()), e.Access().Expand()
			write := e.Access().Writes() != 0
			for ai := range st.acc {
				a := &st.acc[ai]
				if !a.write && !write {
					continue
				}
				if a.stages == 0 && !a.trans {
					continue // a stageless access: nothing to wait for
				}
				if !stageless(e.Stages()) && !subStages(qs, a.chain) {
					if fail(name, k, -1, hazardRule(a.write, write), "the use %s / %s is not ordered after the %s of command %q",
						e.Stages(), e.Access(), kindOf(a), v.cmdLabel(a.cmd)) {
						return true
					}
					continue
				}
				if a.write && (!subAccess(qa, a.vis) || !stageless(e.Stages()) && !subStages(qs, a.visStages)) {
					if fail(name, k, -1, hazardRule(a.write, write), "the %s of command %q is not made visible to the use %s / %s",
						kindOf(a), v.cmdLabel(a.cmd), e.Stages(), e.Access()) {
						return true
					}
				}
			}
			t := tracked{stages: qs, writes: e.Access().Writes().Expand(), write: write, cmd: cmd}
			if stageless(e.Stages()) {
				t.stages = 0
			}
			if write {
				st.acc = st.acc[:0]
				st.acc = append(st.acc, t)
				st.wrote = true
			} else {
				st.acc = append(st.acc, t)
			}
		}
	}
	// Final barriers of an imported image: every cell in the final layout.
	if res.Imported {
		fin := im.FinalLayout
		for k := range p.FinalBarriers {
			x := &p.FinalBarriers[k]
			if x.Resource != r {
				continue
			}
			if x.Type != planner.ImageBarrier || x.Kind != planner.Hazard || x.Before != planner.EndOfFrame || fin == vk.LayoutUndefined || x.NewLayout != fin {
				if v.errs.add(&planner.BarrierError{Resource: res.Name, Barrier: -1, Rule: planner.RuleFinalLayout,
					Detail: fmt.Sprintf("final barrier %d: an image hazard barrier after the last command into the final layout %s", k, fin)}) {
					return true
				}
				continue
			}
			sc := scopeOf(x)
			if apply("end of frame", -1, x, &sc) {
				return true
			}
		}
		if slot("end of frame") {
			return true
		}
		if fin != vk.LayoutUndefined {
			for k := range cells {
				if cells[k].layout != fin {
					if v.errs.add(&planner.BarrierError{Resource: res.Name, Barrier: -1, Rule: planner.RuleFinalLayout,
						Detail: fmt.Sprintf("on %s: the frame leaves the subresource in %s and no final barrier takes it to its final layout %s", where(k), cells[k].layout, fin)}) {
						return true
					}
				}
			}
		}
	}
	return false
}

// firstCover checks that the first-use barriers of a transient ranged
// image (its image barriers from UNDEFINED before its first command) cover
// the whole image, in one call, with equal scopes and old occupants.
func (v *barrierCheck) firstCover(r planner.ResourceID, ks []int32, spans []planner.SubresourceRange, w *rangeWork,
	fail func(string, int, int, planner.Rule, string, ...any) bool, name string) bool {
	p := v.p
	if cell := v.uncovered(r, ks, spans, w); cell >= 0 {
		return fail(name, cell, -1, planner.RuleBarrier, "the first-use barrier (from UNDEFINED) does not cover the whole image")
	}
	for _, k := range ks[1:] {
		x, y := &p.Barriers[ks[0]], &p.Barriers[k]
		if x.Kind != y.Kind || x.Call != y.Call || x.SrcStages != y.SrcStages || x.SrcAccess != y.SrcAccess || !equalIDs(x.Previous, y.Previous) {
			return fail(name, 0, int(k), planner.RuleBarrier, "the pieces of the first-use barrier differ in kind, call, source scope or old occupants")
		}
	}
	return false
}

func equalIDs(a, b []planner.ResourceID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func kindOf(a *tracked) string {
	switch {
	case a.trans:
		return "layout transition before"
	case a.write:
		return "write"
	}
	return "read"
}

func (v *barrierCheck) cmdLabel(cmd planner.CommandID) string {
	if cmd < 0 || int(cmd) >= len(v.c.Graph.Commands) {
		return "(a barrier)"
	}
	return v.cmdName(cmd)
}

// hazardRule is the rule of a missing dependency between a prior access
// and a use: hazard-barrier, as the per-resource edge checks.
func hazardRule(priorWrite, write bool) planner.Rule { return planner.RuleHazardBarrier }
