package barriers

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Barriers of ranged images (planner.Compiled.Ranged: some access names
// only part of the image). Their uses are walked per subresource cell in
// execution order, with a state machine per cell:
//
//   - The first use (in execution order) gets the first-use or alias
//     barrier, which covers the whole image: image barriers from UNDEFINED,
//     one per layout, the cells the first use touches in the layout it
//     needs there and every other cell in the layout of the first use's
//     first cell (an imported image keeps its initial layout per cell and
//     gets no such barrier).
//   - A use that needs another layout than a cell's transitions it, after
//     the cell's last modification and the reads since.
//   - A write after a write or reads waits for them (same layout).
//   - A read after a write waits for it; later reads extend the first
//     one's barrier (its destination) instead of getting their own, like
//     the readers sharing a transition, and so do the first accesses, in
//     the first barrier's layout, of cells that only the first barrier
//     touched: the four cascades of one shadow-map array, four commands
//     that the DAG leaves unordered, need one barrier between them all.
//
// The barriers one use needs on one image are merged where they are equal
// (scopes and layouts) and their cells form one box of mips × layers ×
// aspects: merging loses no overlap, since the box is exactly the cells
// that need the barrier. A box of every cell is written as the whole image
// (no range).

// cellState is one cell of a ranged image during the walk.
type cellState struct {
	layout vk.Layout
	modS   vk.Stage       // stages of the last modification (0: none)
	modW   vk.AccessFlags // its writes
	rS     vk.Stage       // stages of the reads since
	open   int32          // index in out of the barrier that later reads extend; -1
	fresh  bool           // only the first barrier's transition is before: open extends to any access in its layout
}

// rangedBuild is the builder's state for ranged images.
type rangedBuild struct {
	cells   [][]cellState // per resource; nil for the others
	begun   []bool        // per resource: its first use is walked
	pending []pendingRanged
	opens   []int32 // cells of the pending barriers that later reads extend
	protos  []proto
	at      []int32 // mergeProtos' scratch
	done    []bool
}

// pendingRanged is a ranged barrier in the command's batch: when it is
// appended to out, the cells opens[from:to] of r remember its index.
type pendingRanged struct {
	r        planner.ResourceID
	from, to int
}

// proto is one cell's barrier before merging. It holds no pointer (so
// that appending one costs no write barrier while the collector runs):
// what the barriers of one merge share (Before, Resource, Previous) is
// mergeProtos' argument.
type proto struct {
	cell  int32
	key   protoKey
	opens bool
}

// protoKey is what merged cells' barriers have equal: all but Before,
// Resource, Previous and the range.
type protoKey struct {
	Kind                 planner.BarrierKind
	Type                 planner.BarrierType
	SrcStages, DstStages vk.Stage
	SrcAccess, DstAccess vk.AccessFlags
	OldLayout, NewLayout vk.Layout
	Call                 uint8
}

// keyOf returns x's protoKey.
func keyOf(x *planner.Barrier) protoKey {
	return protoKey{Kind: x.Kind, Type: x.Type, SrcStages: x.SrcStages, DstStages: x.DstStages, SrcAccess: x.SrcAccess, DstAccess: x.DstAccess,
		OldLayout: x.OldLayout, NewLayout: x.NewLayout, Call: x.Call}
}

func (b *builder) ranged(r planner.ResourceID) bool {
	return b.rg.cells != nil && b.rg.cells[r] != nil
}

// initRanged sizes the cell states of the ranged images (none: no work).
func (b *builder) initRanged() {
	g := b.c.Graph
	total := 0
	for r := range g.Resources {
		total += b.c.NumCells(planner.ResourceID(r))
	}
	if total == 0 {
		return
	}
	store := make([]cellState, total)
	b.rg.cells = make([][]cellState, len(g.Resources))
	b.rg.begun = make([]bool, len(g.Resources))
	bound := 0
	for r := range g.Resources {
		if n := b.c.NumCells(planner.ResourceID(r)); n > 0 {
			b.rg.cells[r], store = store[:n:n], store[n:]
			bound += b.barrierBound(planner.ResourceID(r))
		}
	}
	// Every ranged barrier is one pending entry, every cell of one at most
	// one open: sized once instead of growing.
	b.rg.pending, b.rg.opens = make([]pendingRanged, 0, bound), make([]int32, 0, bound)
}

// barrierBound bounds the hazard barriers that build records on resource
// r: one per use (build.go), and for a ranged image one per cell of each
// use (needRanged merges one proto per cell at most) and one per cell of
// the first use's (rangedFirst's pieces).
func (b *builder) barrierBound(r planner.ResourceID) int {
	if !b.ranged(r) {
		return len(b.c.Uses(r))
	}
	return b.c.NumCellUses(r) + b.c.NumCells(r)
}

// rangedAppended is called when the batch's ranged barrier id lands at
// out[k].
func (b *builder) rangedAppended(id int, k int32) {
	pr := b.rg.pending[id]
	cells := b.rg.cells[pr.r]
	for _, c := range b.rg.opens[pr.from:pr.to] {
		cells[c].open = k
	}
}

// needRanged appends to b.batch the barriers that use ref of command cmd
// needs on its ranged image, and extends earlier barriers in out.
func (b *builder) needRanged(out []planner.Barrier, cmd planner.CommandID, ref planner.UseRef) {
	r := ref.Resource
	res := &b.c.Graph.Resources[r]
	cells := b.rg.cells[r]
	base := b.useBase[r]
	i := int(ref.Index)
	u := b.c.Uses(r)[i]
	ents := b.c.CellUses(r, i)
	// Per cell, the use's own stages and access on it (a stageless one
	// stands for what stageScopes gives the use).
	cellScope := func(e *planner.CellUse) (E, D vk.Stage, A vk.AccessFlags) {
		if s := e.Stages(); !stageless(s) {
			return s, s, e.Access()
		}
		return b.eff[base+int32(i)], b.dst[base+int32(i)], e.Access()
	}
	D := b.dst[base+int32(i)]
	b.rg.protos = b.rg.protos[:0]
	tmpl := planner.Barrier{Before: cmd, Kind: planner.Hazard, Type: planner.ImageBarrier, Resource: r, DstStages: D, DstAccess: u.Access}
	if !b.rg.begun[r] {
		b.rg.begun[r] = true
		if res.Imported {
			for k := range cells {
				cells[k] = cellState{layout: res.Image.InitialLayout, open: -1}
			}
		} else {
			b.rangedFirst(cmd, r, tmpl, ents, cellScope)
			return
		}
	}
	for k := range ents {
		e := &ents[k]
		st := &cells[e.Cell()]
		L, w := e.Layout(), e.Access().Writes()
		write := w != 0
		E, D, A := cellScope(e)
		tmpl.DstStages, tmpl.DstAccess = D, A
		switch {
		case L != st.layout:
			x := tmpl
			x.SrcStages, x.SrcAccess, x.OldLayout, x.NewLayout = st.modS|st.rS, st.modW, st.layout, L
			if st.fresh {
				x.SrcStages, x.SrcAccess = out[st.open].DstStages, 0
			}
			if x.SrcStages == 0 {
				x.SrcStages = D // no predecessor (an imported image): chain with the caller's own synchronization
			}
			b.rg.protos = append(b.rg.protos, proto{cell: e.Cell(), key: keyOf(&x), opens: !write})
			*st = cellState{layout: L, open: -1}
			if write {
				st.modS, st.modW = E, w
			} else {
				st.rS = E
			}
		case st.fresh:
			widen(&out[st.open], D, A)
			st.fresh = false
			if write {
				*st = cellState{layout: L, modS: E, modW: w, open: -1}
			} else {
				st.modS, st.rS = 0, E
			}
		case write:
			if st.modS|st.rS != 0 || st.modW != 0 {
				x := tmpl
				x.SrcStages, x.SrcAccess, x.OldLayout, x.NewLayout = st.modS|st.rS, st.modW, L, L
				b.rg.protos = append(b.rg.protos, proto{cell: e.Cell(), key: keyOf(&x)})
			}
			*st = cellState{layout: L, modS: E, modW: w, open: -1}
		default:
			switch {
			case st.open >= 0:
				widen(&out[st.open], D, A)
			case st.modS != 0 || st.modW != 0:
				x := tmpl
				x.SrcStages, x.SrcAccess, x.OldLayout, x.NewLayout = st.modS, st.modW, L, L
				b.rg.protos = append(b.rg.protos, proto{cell: e.Cell(), key: keyOf(&x), opens: true})
			}
			st.rS |= E
		}
	}
	b.mergeProtos(r, &tmpl)
}

// rangedFirst makes the first-use (or alias) barrier of a transient ranged
// image: the whole image from UNDEFINED, in pieces per layout.
func (b *builder) rangedFirst(cmd planner.CommandID, r planner.ResourceID, x planner.Barrier, ents []planner.CellUse,
	cellScope func(*planner.CellUse) (E, D vk.Stage, A vk.AccessFlags)) {
	D := x.DstStages // the whole use's: every piece's destination
	cells := b.rg.cells[r]
	x.OldLayout = vk.LayoutUndefined
	if prev := b.prev[r]; len(prev) > 0 {
		x.Kind, x.Previous = planner.Alias, prev
		for _, a := range prev {
			s, w := b.terminalScope(a)
			x.SrcStages |= s
			x.SrcAccess |= w
		}
		if x.SrcAccess != 0 {
			// As need: call 0 makes the old occupants' writes available,
			// call 1 transitions after it.
			m := x
			m.Type, m.OldLayout, m.NewLayout = planner.MemoryBarrier, vk.LayoutUndefined, vk.LayoutUndefined
			m.DstStages, m.DstAccess = x.SrcStages, 0
			b.batch = append(b.batch, candidate{Barrier: m, last: -1})
			x.Call = 1
		}
	}
	L0 := ents[0].Layout()
	for k := range cells {
		cells[k] = cellState{layout: L0, modS: D, open: -1, fresh: true}
	}
	for k := range ents {
		e := &ents[k]
		st := &cells[e.Cell()]
		st.layout, st.fresh, st.modS = e.Layout(), false, 0
		E, _, _ := cellScope(e)
		if w := e.Access().Writes(); w != 0 {
			st.modS, st.modW = E, w
		} else {
			st.rS = E
		}
	}
	b.rg.protos = b.rg.protos[:0]
	key := keyOf(&x)
	for k := range cells {
		st := &cells[k]
		key.NewLayout = st.layout
		b.rg.protos = append(b.rg.protos, proto{cell: int32(k), key: key, opens: st.modW == 0})
	}
	b.mergeProtos(r, &x)
}

// widen extends barrier x's destination to a later use.
func widen(x *planner.Barrier, s vk.Stage, a vk.AccessFlags) {
	x.DstStages |= s
	x.DstAccess |= a
}

// mergeProtos merges b.rg.protos (one image, ascending cell) into boxes
// and appends them to the batch, with base's Before, Resource and
// Previous.
func (b *builder) mergeProtos(r planner.ResourceID, base *planner.Barrier) {
	ps := b.rg.protos
	if len(ps) == 0 {
		return
	}
	nm, nl, na := b.c.CellGrid(r)
	ncell := nm * nl * na
	if cap(b.rg.at) < ncell {
		b.rg.at, b.rg.done = make([]int32, ncell), make([]bool, ncell)
	}
	at, done := b.rg.at[:ncell], b.rg.done[:ncell] // at: index+1 in ps, 0: no barrier for the cell
	clear(at)
	clear(done)
	for k := range ps {
		at[ps[k].cell] = int32(k) + 1
	}
	idx := func(m, l, a int) int { return (m*nl+l)*na + a }
	fits := func(key *protoKey, m1, m2, l1, l2, a1, a2 int) bool {
		for m := m1; m <= m2; m++ {
			for l := l1; l <= l2; l++ {
				for a := a1; a <= a2; a++ {
					c := idx(m, l, a)
					if done[c] || at[c] == 0 || ps[at[c]-1].key != *key {
						return false
					}
				}
			}
		}
		return true
	}
	for k := range ps {
		c := int(ps[k].cell)
		if done[c] {
			continue
		}
		key := &ps[k].key
		m, l, a := c/(na*nl), c/na%nl, c%na
		a2, l2, m2 := a, l, m
		for a2+1 < na && fits(key, m, m, l, l, a2+1, a2+1) {
			a2++
		}
		for l2+1 < nl && fits(key, m, m, l2+1, l2+1, a, a2) {
			l2++
		}
		for m2+1 < nm && fits(key, m2+1, m2+1, l, l2, a, a2) {
			m2++
		}
		x := planner.Barrier{Before: base.Before, Kind: key.Kind, Type: key.Type, Resource: base.Resource, Previous: base.Previous,
			SrcStages: key.SrcStages, DstStages: key.DstStages, SrcAccess: key.SrcAccess, DstAccess: key.DstAccess,
			OldLayout: key.OldLayout, NewLayout: key.NewLayout, Call: key.Call}
		if m != 0 || l != 0 || a != 0 || m2 != nm-1 || l2 != nl-1 || a2 != na-1 {
			x.Mips, x.Layers, x.Aspects = b.c.BoxRange(r, planner.CellBox{M0: m, M1: m2, L0: l, L1: l2, Aspects: uint8(1<<(a2+1) - 1<<a)})
		}
		from := len(b.rg.opens)
		for mm := m; mm <= m2; mm++ {
			for ll := l; ll <= l2; ll++ {
				for aa := a; aa <= a2; aa++ {
					cc := idx(mm, ll, aa)
					done[cc] = true
					if ps[at[cc]-1].opens {
						b.rg.opens = append(b.rg.opens, int32(cc))
					}
				}
			}
		}
		b.rg.pending = append(b.rg.pending, pendingRanged{r: r, from: from, to: len(b.rg.opens)})
		b.batch = append(b.batch, candidate{Barrier: x, last: int32(-1 - len(b.rg.pending))})
	}
}

// rangedTerminalScope is terminalScope for a ranged image whose walk is
// complete: the stages and writes of every cell's last modification and
// the reads since.
func (b *builder) rangedTerminalScope(r planner.ResourceID) (vk.Stage, vk.AccessFlags) {
	var s vk.Stage
	var w vk.AccessFlags
	for k := range b.rg.cells[r] {
		st := &b.rg.cells[r][k]
		s |= st.modS | st.rS
		w |= st.modW
	}
	return s, w
}

// rangedFinal appends the final barriers of an imported ranged image: the
// cells not in its final layout, per box, and the warnings.
func (b *builder) rangedFinal(out []planner.Barrier, warn []planner.Warning, r planner.ResourceID) ([]planner.Barrier, []planner.Warning) {
	res := &b.c.Graph.Resources[r]
	cells := b.rg.cells[r]
	if !b.rg.begun[r] {
		return out, warn // unused: as any image (not reached: a ranged image has uses)
	}
	fin, init := res.Image.FinalLayout, res.Image.InitialLayout
	if fin == vk.LayoutUndefined {
		for k := range cells {
			if cells[k].layout != init && init != vk.LayoutUndefined {
				warn = append(warn, planner.Warning{Resource: res.Name, Rule: planner.RuleFinalLayout,
					Detail: fmt.Sprintf("the frame leaves part of it in %s but it arrives in %s (initialLayout), which the next frame would declare: give it a finalLayout",
						cells[k].layout, init)})
				break
			}
		}
		return out, warn
	}
	b.rg.protos = b.rg.protos[:0]
	for k := range cells {
		st := &cells[k]
		if st.layout == fin {
			continue
		}
		x := planner.Barrier{Before: planner.EndOfFrame, Kind: planner.Hazard, Type: planner.ImageBarrier, Resource: r,
			SrcStages: st.modS | st.rS, SrcAccess: st.modW, DstStages: vk.StageAllCommands, DstAccess: vk.AccessMemoryRead | vk.AccessMemoryWrite,
			OldLayout: st.layout, NewLayout: fin}
		if x.SrcStages == 0 {
			x.SrcStages = vk.StageAllCommands
		}
		b.rg.protos = append(b.rg.protos, proto{cell: int32(k), key: keyOf(&x)})
	}
	b.batch = b.batch[:0]
	b.mergeProtos(r, &planner.Barrier{Before: planner.EndOfFrame, Resource: r})
	for i := range b.batch {
		out = append(out, b.batch[i].Barrier)
	}
	b.batch = b.batch[:0]
	return out, warn
}

// SubresourceRangeOf is the VkImageSubresourceRange of image barrier x on
// image im: its range (SPEC §5), the whole image where it names none (the
// format's aspects, VK_REMAINING_MIP_LEVELS, VK_REMAINING_ARRAY_LAYERS).
func SubresourceRangeOf(x *planner.Barrier, im *planner.ImageDesc) ImageSubresourceRange {
	sr := ImageSubresourceRange{AspectMask: AspectOf(im.Format), LevelCount: RemainingMipLevels, LayerCount: RemainingArrayLayers}
	if x.Aspects != 0 {
		sr.AspectMask = ImageAspect(x.Aspects) // the same bits as VK_IMAGE_ASPECT_*
	}
	if x.Mips != (planner.MipRange{}) {
		sr.BaseMipLevel, sr.LevelCount = uint32(x.Mips.Base), uint32(x.Mips.Count)
		if x.Mips.Count == 0 {
			sr.LevelCount = RemainingMipLevels
		}
	}
	if x.Layers != (planner.LayerRange{}) {
		sr.BaseArrayLayer, sr.LayerCount = uint32(x.Layers.Base), uint32(x.Layers.Count)
		if x.Layers.Count == 0 {
			sr.LayerCount = RemainingArrayLayers
		}
	}
	return sr
}
