package planner

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/aliasplan/aliasplan/vk"
)

// MipRange is a range of mip levels: [Base, Base+Count). Count 0 means
// every level from Base on (VK_REMAINING_MIP_LEVELS), so the zero value is
// every level.
type MipRange struct {
	Base, Count uint8
}

// LayerRange is a range of array layers: [Base, Base+Count). Count 0 means
// every layer from Base on (VK_REMAINING_ARRAY_LAYERS), so the zero value
// is every layer.
type LayerRange struct {
	Base, Count uint16
}

// Out-of-range arguments to WithMips and WithLayers are stored as these
// markers, which no image can hold, so that Validate reports them instead
// of a silently truncated range.
var (
	badMip   = MipRange{Base: 0xff, Count: 0xff}
	badLayer = LayerRange{Base: 0xffff, Count: 0xffff}
)

// Rules of subresource ranges (with the others in errors.go).
const (
	RuleSubresourceRange Rule = "subresource-range" // an access's mips or layers outside its image, or a range on a buffer
	RuleAspects          Rule = "aspects"           // an access names an aspect its image's format does not have
)

// WithMips returns a with its mip range set to [base, base+count). count 0
// means every level from base on.
func (a Access) WithMips(base, count int) Access {
	if base < 0 || count < 0 || base > 0xfe || count > 0xfe {
		a.Mips = badMip
	} else {
		a.Mips = MipRange{Base: uint8(base), Count: uint8(count)}
	}
	return a
}

// WithLayers returns a with its array-layer range set to [base,
// base+count). count 0 means every layer from base on.
func (a Access) WithLayers(base, count int) Access {
	if base < 0 || count < 0 || base > 0xfffe || count > 0xfffe {
		a.Layers = badLayer
	} else {
		a.Layers = LayerRange{Base: uint16(base), Count: uint16(count)}
	}
	return a
}

// WithAspects returns a with its aspects set (0: every aspect of the
// image's format).
func (a Access) WithAspects(aspects vk.Aspect) Access {
	a.Aspects = aspects
	return a
}

// HasRange reports whether a names a subresource range at all (any of
// Mips, Layers, Aspects set). A range may still cover the whole image.
func (a *Access) HasRange() bool {
	return a.Mips != (MipRange{}) || a.Layers != (LayerRange{}) || a.Aspects != 0
}

// span is a resolved subresource range: mips [mip0, mip1), layers
// [layer0, layer1), aspect bits. Validate has checked it lies inside the
// image.
type span struct {
	mip0, mip1     uint32
	layer0, layer1 uint32
	aspects        vk.Aspect
}

// resolve turns an access's range into a span of image im.
func resolve(a *Access, im *ImageDesc) span {
	if a.Aspects != 0 {
		return resolveAspects(a, im, 0)
	}
	return resolveAspects(a, im, im.Format.Aspects())
}

// resolveAspects is resolve with the format's aspects known (has; unused
// when a names its aspects).
func resolveAspects(a *Access, im *ImageDesc, has vk.Aspect) span {
	s := span{mip0: uint32(a.Mips.Base), layer0: uint32(a.Layers.Base), aspects: a.Aspects}
	s.mip1 = im.MipLevels
	if a.Mips.Count != 0 {
		s.mip1 = s.mip0 + uint32(a.Mips.Count)
	}
	s.layer1 = im.ArrayLayers
	if a.Layers.Count != 0 {
		s.layer1 = s.layer0 + uint32(a.Layers.Count)
	}
	if s.aspects == 0 {
		s.aspects = has
	}
	return s
}

func (s span) intersects(t span) bool {
	return s.mip0 < t.mip1 && t.mip0 < s.mip1 && s.layer0 < t.layer1 && t.layer0 < s.layer1 && s.aspects&t.aspects != 0
}

// String writes a span as the file does: mips [base, count], layers
// [base, count], aspects.
func (s span) String() string {
	return fmt.Sprintf("mips [%d, %d] layers [%d, %d] aspects %s", s.mip0, s.mip1-s.mip0, s.layer0, s.layer1-s.layer0, s.aspects)
}

// partial reports whether access a names less than the whole image of
// resource r (the fast path is an access with no range at all).
func partial(a *Access, r *Resource) bool {
	if !a.HasRange() || r.Kind != KindImage {
		return false
	}
	im := &r.Image
	return a.Mips.Base != 0 || (a.Mips.Count != 0 && uint32(a.Mips.Count) != im.MipLevels) ||
		a.Layers.Base != 0 || (a.Layers.Count != 0 && uint32(a.Layers.Count) != im.ArrayLayers) ||
		(a.Aspects != 0 && a.Aspects != im.Format.Aspects())
}

// validateRange checks an access's subresource range against its
// resource: none on a buffer, mips and layers inside the image, aspects
// the format has. It is Validate's one call for ranges.
func validateRange(cmd *Command, ai int, res *Resource) error {
	a := &cmd.Accesses[ai]
	if !a.HasRange() {
		return nil
	}
	fail := func(rule Rule, format string, args ...any) error {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if res.Kind != KindImage {
		return fail(RuleSubresourceRange, "a buffer access has no subresource range (mips, layers or aspects)")
	}
	im := &res.Image
	if m := a.Mips; m == badMip || uint32(m.Base) >= im.MipLevels || uint32(m.Base)+uint32(m.Count) > im.MipLevels {
		return fail(RuleSubresourceRange, "mips [%d, %d] are not inside the image's %d mip levels", m.Base, m.Count, im.MipLevels)
	}
	if l := a.Layers; l == badLayer || uint32(l.Base) >= im.ArrayLayers || uint32(l.Base)+uint32(l.Count) > im.ArrayLayers {
		return fail(RuleSubresourceRange, "layers [%d, %d] are not inside the image's %d array layers", l.Base, l.Count, im.ArrayLayers)
	}
	if a.Aspects != 0 {
		if has := im.Format.Aspects(); a.Aspects&^has != 0 {
			return fail(RuleAspects, "aspects %s: format %s has only %s", a.Aspects, im.Format, has)
		}
	}
	return nil
}

// sameSubresource reports whether two accesses of image res touch a
// common subresource. Both ranges have been validated.
func sameSubresource(a, b *Access, res *Resource) bool {
	if !a.HasRange() && !b.HasRange() {
		return true
	}
	// Every aspect bit stands for "all" here: a named aspect is one the
	// format has (validateRange), so the test needs no format lookup.
	return resolveAspects(a, &res.Image, 0xff).intersects(resolveAspects(b, &res.Image, 0xff))
}

// twoLayoutsWhere names the subresources two accesses share, for the
// two-layouts error; "" when neither names a range (the message stays as
// it was before ranges).
func twoLayoutsWhere(a, b *Access, res *Resource) string {
	if !a.HasRange() && !b.HasRange() {
		return ""
	}
	s, t := resolve(a, &res.Image), resolve(b, &res.Image)
	i := span{mip0: max(s.mip0, t.mip0), mip1: min(s.mip1, t.mip1), layer0: max(s.layer0, t.layer0), layer1: min(s.layer1, t.layer1), aspects: s.aspects & t.aspects}
	return " on " + i.String()
}

// Per-subresource compilation. An image that some access names only part
// of is "ranged": its subresources are cut into cells, the coarsest grid
// (mip cuts × layer cuts × aspect bits) on which every access's range is a
// union of whole cells, and each use gets one entry per cell it touches.
// Every other resource keeps the per-resource path of compile.go, with no
// per-subresource work at all.
//
// Per cell, a state machine in recorded order (SPEC §2): an entry that
// writes, or needs another layout than the cell's current one, modifies
// the cell and depends on the cell's last modification and the reads
// since; a read that makes a transition opens a group of readers sharing
// it: later reads in that layout, up to the next modification, depend on
// what the transition depends on and not on each other. A plain read
// after a write depends on the write.

// ranged is the per-subresource analysis of one ranged image.
type ranged struct {
	mipCuts, layerCuts []uint32    // ascending, from 0 to the image's count
	aspects            []vk.Aspect // the format's aspect bits, ascending
	entStart           []int32     // entries of use i: ent[entStart[i]:entStart[i+1]], ascending cell
	ent                []CellUse
	from, to           []CommandID // the DAG edges of this resource
	terminal           []CommandID // ascending
}

// CellUse is one use's aggregated access to one cell.
type CellUse struct {
	cell               int32
	layout, prevLayout vk.Layout
	stages             vk.Stage
	access             vk.AccessFlags
	modifies           bool
}

// cellState is the state of one cell during the recorded-order walk.
type cellState struct {
	layout  vk.Layout
	touched bool
	group   bool    // mods are readers sharing one transition
	mods    []int32 // use indices: the last writer, or the group
	preds   []int32 // group: what every member depends on
	readers []int32 // reads since the last writer
}

// rangedOf returns r's per-subresource analysis, nil on the fast path.
func (c *Compiled) rangedOf(r int) *ranged {
	if c.ranged == nil {
		return nil
	}
	return c.ranged[r]
}

// compileRanges finds the ranged images (one pass over the accesses; no
// allocation when there are none) and analyses each: cells, entries,
// layouts, "modifies", DAG edges, terminal uses, and the first-write rule
// per subresource of a transient. It runs after aggregate, before
// buildDAG. The ranged images share scratch and output storage, so the
// allocations do not grow with their number.
func (c *Compiled) compileRanges() error {
	g := c.Graph
	for ci := range g.Commands {
		for ai := range g.Commands[ci].Accesses {
			a := &g.Commands[ci].Accesses[ai]
			if !a.HasRange() || c.rangedOf(int(a.Resource)) != nil {
				continue
			}
			if res := &g.Resources[a.Resource]; partial(a, res) {
				if c.ranged == nil {
					c.ranged = make([]*ranged, len(g.Resources))
				}
				c.ranged[a.Resource] = &rangedMark
			}
		}
	}
	if c.ranged == nil {
		return nil
	}
	nr := 0
	for _, rr := range c.ranged {
		if rr != nil {
			nr++
		}
	}
	slab := make([]ranged, nr) // one allocation for the analyses
	for r, rr := range c.ranged {
		if rr != nil {
			c.ranged[r], slab = &slab[0], slab[1:]
		}
	}
	// Size the shared storage once: entries and edges are about two per
	// access of a ranged image.
	nacc, nuse, ncut := 0, 0, 0
	for r, rr := range c.ranged {
		if rr != nil {
			nuse += int(c.useStart[r+1] - c.useStart[r])
			ncut += int(g.Resources[r].Image.MipLevels) + 1
		}
	}
	for ci := range g.Commands {
		for ai := range g.Commands[ci].Accesses {
			if c.ranged[g.Commands[ci].Accesses[ai].Resource] != nil {
				nacc++
			}
		}
	}
	for r, rr := range c.ranged {
		if rr != nil {
			ncut += min(int(g.Resources[r].Image.ArrayLayers), 2*nacc) + 1
		}
	}
	// The outputs in a few allocations (the edges and the entries grow
	// past theirs when they must).
	ints := make([]int32, nacc+nuse+len(g.Resources))
	cmds := make([]CommandID, 4*nacc+nuse)
	w := rangeWork{
		pool: ints[:0:nacc], entStart: ints[nacc:nacc], ent: make([]CellUse, 0, 2*nacc),
		from: cmds[: 0 : 2*nacc], to: cmds[2*nacc : 2*nacc : 4*nacc], terminal: cmds[4*nacc : 4*nacc], cuts: make([]uint32, 0, ncut),
	}
	for r, rr := range c.ranged {
		if rr != nil {
			if err := c.analyseRanged(ResourceID(r), rr, &w); err != nil {
				return err
			}
		}
	}
	return nil
}

// rangedMark marks a ranged image until compileRanges gives it its own
// analysis.
var rangedMark ranged

// rangeWork is the scratch and output storage the ranged images of one
// Compile share. Each image's outputs are sub-slices, complete before the
// next image appends (a reallocation leaves them on the old array).
type rangeWork struct {
	layers   []uint32 // of an image of 64 layers or more (the others' cuts are a bit set)
	at, seen []int32
	cells    []cellState
	pool     []int32 // the preds of groups
	ent      []CellUse
	entStart []int32
	from, to []CommandID
	terminal []CommandID
	cuts     []uint32
}

// appendBits appends the positions of set's bits, ascending.
func appendBits(out []uint32, set uint64) []uint32 {
	for set != 0 {
		out = append(out, uint32(bits.TrailingZeros64(set)))
		set &= set - 1
	}
	return out
}

// cuts returns the sorted distinct values of v (which holds 0 and the end).
func cuts(v []uint32) []uint32 {
	if end := v[1]; end < 64 { // mips always, layers mostly: a bit set
		var set uint64
		for _, x := range v {
			set |= 1 << x
		}
		out := v[:0]
		for set != 0 {
			out = append(out, uint32(bits.TrailingZeros64(set)))
			set &= set - 1
		}
		return out
	}
	slices.Sort(v)
	out := v[:1]
	for _, x := range v[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// cutIndex returns the index of the cell interval of cs starting at x (x is
// a cut) or holding x.
func cutIndex(cs []uint32, x uint32) int {
	lo, hi := 0, len(cs)-1
	for lo+1 < hi {
		m := (lo + hi) / 2
		if cs[m] <= x {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// cellSpan is the span of one cell.
func (rr *ranged) cellSpan(cell int32) span {
	nl, na := len(rr.layerCuts)-1, len(rr.aspects)
	k := int(cell) % na
	l := int(cell) / na % nl
	m := int(cell) / na / nl
	return span{mip0: rr.mipCuts[m], mip1: rr.mipCuts[m+1], layer0: rr.layerCuts[l], layer1: rr.layerCuts[l+1], aspects: rr.aspects[k]}
}

func (c *Compiled) analyseRanged(r ResourceID, rr *ranged, w *rangeWork) error {
	g := c.Graph
	res := &g.Resources[r]
	im := &res.Image
	us := c.uses[c.useStart[r]:c.useStart[r+1]]
	// The cuts: bit sets (mip levels are at most 32: Validate), the
	// sorted values for an image of 64 layers or more.
	few := im.ArrayLayers < 64
	mipSet, layerSet := uint64(1)|1<<im.MipLevels, uint64(0)
	if few {
		layerSet = 1 | 1<<im.ArrayLayers
	} else {
		w.layers = append(w.layers[:0], 0, im.ArrayLayers)
	}
	has := im.Format.Aspects()
	for i := range us {
		cmd := &g.Commands[us[i].Command]
		for ai := range cmd.Accesses {
			a := &cmd.Accesses[ai]
			if a.Resource != r {
				continue
			}
			s := resolveAspects(a, im, has)
			mipSet |= 1<<s.mip0 | 1<<s.mip1
			if few {
				layerSet |= 1<<s.layer0 | 1<<s.layer1
			} else {
				w.layers = append(w.layers, s.layer0, s.layer1)
			}
		}
	}
	n0 := len(w.cuts)
	w.cuts = appendBits(w.cuts, mipSet)
	n1 := len(w.cuts)
	if few {
		w.cuts = appendBits(w.cuts, layerSet)
	} else {
		w.cuts = append(w.cuts, cuts(w.layers)...)
	}
	rr.mipCuts, rr.layerCuts = w.cuts[n0:n1:n1], w.cuts[n1:len(w.cuts):len(w.cuts)]
	switch has {
	case vk.AspectColor:
		rr.aspects = aspectsColor
	case vk.AspectDepth:
		rr.aspects = aspectsDepth
	case vk.AspectStencil:
		rr.aspects = aspectsStencil
	default:
		rr.aspects = aspectsDepthStencil
	}
	ncell := (len(rr.mipCuts) - 1) * (len(rr.layerCuts) - 1) * len(rr.aspects)
	// Entries per use, aggregated per cell (accesses of one command to one
	// cell share a layout: Validate's two-layouts rule).
	e0, s0 := len(w.ent), len(w.entStart)
	w.entStart = append(w.entStart, make([]int32, len(us)+1)...)
	entStart := w.entStart[s0:]
	w.at = resize(w.at, ncell) // at[cell]-1: the current use's entry for cell, relative to e0
	nl, na := len(rr.layerCuts)-1, len(rr.aspects)
	for i := range us {
		first := int32(len(w.ent) - e0)
		cmd := &g.Commands[us[i].Command]
		for ai := range cmd.Accesses {
			a := &cmd.Accesses[ai]
			if a.Resource != r {
				continue
			}
			// Every cell of the access's span (cellsOf, inline).
			s := resolveAspects(a, im, has)
			m0, m1 := cutIndex(rr.mipCuts, s.mip0), cutIndex(rr.mipCuts, s.mip1-1)
			l0, l1 := cutIndex(rr.layerCuts, s.layer0), cutIndex(rr.layerCuts, s.layer1-1)
			for m := m0; m <= m1; m++ {
				for l := l0; l <= l1; l++ {
					for k, bit := range rr.aspects {
						if s.aspects&bit == 0 {
							continue
						}
						cell := int32((m*nl+l)*na + k)
						if w.at[cell] > first {
							e := &w.ent[e0+int(w.at[cell])-1]
							e.stages |= a.Stages
							e.access |= a.Access
							continue
						}
						w.ent = append(w.ent, CellUse{cell: cell, layout: a.Layout, stages: a.Stages, access: a.Access})
						w.at[cell] = int32(len(w.ent) - e0)
					}
				}
			}
		}
		sortEntries(w.ent[e0+int(first):])
		entStart[i+1] = int32(len(w.ent) - e0)
	}
	for i := range us {
		entStart[i+1] = max(entStart[i+1], entStart[i])
	}
	rr.ent, rr.entStart = w.ent[e0:len(w.ent):len(w.ent)], entStart[:len(us)+1:len(us)+1]
	// The walk in recorded order. Cells keep their slices' storage from
	// image to image.
	if cap(w.cells) < ncell {
		w.cells = append(w.cells[:cap(w.cells)], make([]cellState, ncell-cap(w.cells))...)
	}
	cells := w.cells[:ncell]
	for k := range cells {
		st := &cells[k]
		*st = cellState{layout: im.InitialLayout, mods: st.mods[:0], readers: st.readers[:0]}
	}
	w.seen = resize(w.seen, len(us)) // seen[j] == i+1: edge us[j] -> us[i] emitted
	f0 := len(w.from)
	for i := range us {
		u := &us[i]
		u.Modifies = false
		ents := rr.ent[entStart[i]:entStart[i+1]]
		for k := range ents {
			e := &ents[k]
			st := &cells[e.cell]
			e.prevLayout = st.layout
			write := e.access&vk.WriteAccess != 0
			if !st.touched && !write && !res.Imported {
				return &GraphError{Resource: res.Name, Command: g.Commands[u.Command].Name, Access: -1, Rule: RuleReadBeforeWrite,
					Detail: fmt.Sprintf("transient image is first accessed on %s without a write access (%s): it would read undefined memory",
						rr.cellSpan(e.cell), e.access)}
			}
			st.touched = true
			switch {
			case write || e.layout != st.layout:
				e.modifies = true
				w.edges(us, st.mods, i)
				w.edges(us, st.readers, i)
				if write {
					st.group, st.preds = false, nil
				} else {
					p0 := len(w.pool)
					w.pool = append(append(w.pool, st.mods...), st.readers...)
					st.group, st.preds = true, w.pool[p0:len(w.pool):len(w.pool)]
				}
				st.layout = e.layout
				st.mods = append(st.mods[:0], int32(i))
				st.readers = st.readers[:0]
			case st.group:
				w.edges(us, st.preds, i)
				st.mods = append(st.mods, int32(i))
			default:
				w.edges(us, st.mods, i)
				st.readers = append(st.readers, int32(i))
			}
			u.Modifies = u.Modifies || e.modifies
		}
		if len(ents) > 0 {
			u.Layout, u.PrevLayout = ents[0].layout, ents[0].prevLayout
		}
	}
	rr.from, rr.to = w.from[f0:len(w.from):len(w.from)], w.to[f0:len(w.to):len(w.to)]
	// Terminal: in the last epoch of every cell it touches.
	hits := w.seen // reuse: count of cells where the use is terminal
	clear(hits)
	for k := range cells {
		st := &cells[k]
		last := st.mods
		if !st.group && len(st.readers) > 0 {
			last = st.readers
		}
		for _, j := range last {
			hits[j]++
		}
	}
	t0 := len(w.terminal)
	for i := range us {
		if n := entStart[i+1] - entStart[i]; n > 0 && hits[i] == n {
			w.terminal = append(w.terminal, us[i].Command)
		}
	}
	rr.terminal = w.terminal[t0:len(w.terminal):len(w.terminal)]
	return nil
}

// edges emits an edge from each of the uses js to use i, once each.
func (w *rangeWork) edges(us []Use, js []int32, i int) {
	for _, j := range js {
		if w.seen[j] != int32(i)+1 {
			w.seen[j] = int32(i) + 1
			w.from = append(w.from, us[j].Command)
			w.to = append(w.to, us[i].Command)
		}
	}
}

// resize returns s with length n, zeroed.
func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// The aspect bits of cells, per format kind.
var (
	aspectsColor        = []vk.Aspect{vk.AspectColor}
	aspectsDepth        = []vk.Aspect{vk.AspectDepth}
	aspectsStencil      = []vk.Aspect{vk.AspectStencil}
	aspectsDepthStencil = []vk.Aspect{vk.AspectDepth, vk.AspectStencil}
)

// sortEntries sorts one use's entries by cell (insertion sort: analyseRanged
// emits them ascending per access, so runs are already sorted).
func sortEntries(s []CellUse) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].cell < s[j-1].cell; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Ranged reports whether image r is compiled per subresource: some access
// names only part of it. Its barriers then carry ranges (package barriers)
// and its uses' Layout, PrevLayout and Transition describe only their first
// cell; CellUses has the whole picture.
func (c *Compiled) Ranged(r ResourceID) bool { return c.rangedOf(int(r)) != nil }

// NumCells returns the number of subresource cells of ranged image r (0
// for any other resource): the coarsest grid of mips × layers × aspects on
// which every access's range is a union of whole cells.
func (c *Compiled) NumCells(r ResourceID) int {
	rr := c.rangedOf(int(r))
	if rr == nil {
		return 0
	}
	return (len(rr.mipCuts) - 1) * (len(rr.layerCuts) - 1) * len(rr.aspects)
}

// CellRange returns the subresource range of one cell of ranged image r,
// with explicit counts. Cells are numbered mip-major, then layer, then
// aspect, so that neighbours along each axis are easy to merge.
func (c *Compiled) CellRange(r ResourceID, cell int32) (MipRange, LayerRange, vk.Aspect) {
	s := c.rangedOf(int(r)).cellSpan(cell)
	return MipRange{Base: uint8(s.mip0), Count: uint8(s.mip1 - s.mip0)}, LayerRange{Base: uint16(s.layer0), Count: uint16(s.layer1 - s.layer0)}, s.aspects
}

// CellUses returns use i (index into Uses(r)) of ranged image r per cell,
// ascending by cell: the layout, stages and access of the use on that
// cell, the layout before it (recorded order) and whether it modifies it.
// The slice is the compiled graph's: the caller must not change it.
func (c *Compiled) CellUses(r ResourceID, i int) []CellUse {
	rr := c.rangedOf(int(r))
	return rr.ent[rr.entStart[i]:rr.entStart[i+1]]
}

// Cell returns the cell the entry is about.
func (e *CellUse) Cell() int32 { return e.cell }

// Layout returns the layout the use needs on the cell.
func (e *CellUse) Layout() vk.Layout { return e.layout }

// PrevLayout returns the cell's layout before the use, in recorded order.
func (e *CellUse) PrevLayout() vk.Layout { return e.prevLayout }

// Stages returns the use's stages on the cell.
func (e *CellUse) Stages() vk.Stage { return e.stages }

// Access returns the use's access flags on the cell.
func (e *CellUse) Access() vk.AccessFlags { return e.access }

// Modifies reports whether the use writes the cell or changes its layout.
func (e *CellUse) Modifies() bool { return e.modifies }

// SubresourceRange is a subresource range with explicit counts (a
// barrier's, a cell's).
type SubresourceRange struct {
	Mips    MipRange
	Layers  LayerRange
	Aspects vk.Aspect
}

// BarrierRange returns barrier x's range resolved on image im: explicit
// counts, and the image's aspects when x names none.
func BarrierRange(x *Barrier, im *ImageDesc) SubresourceRange {
	s := SubresourceRange{Mips: x.Mips, Layers: x.Layers, Aspects: x.Aspects}
	if x.Mips.Count == 0 {
		s.Mips.Count = uint8(im.MipLevels - uint32(x.Mips.Base))
	}
	if x.Layers.Count == 0 {
		s.Layers.Count = uint16(im.ArrayLayers - uint32(x.Layers.Base))
	}
	if s.Aspects == 0 {
		s.Aspects = im.Format.Aspects()
	}
	return s
}

// Intersects reports whether two resolved ranges share a subresource.
func (s SubresourceRange) Intersects(t SubresourceRange) bool {
	return s.Mips.Base < t.Mips.Base+t.Mips.Count && t.Mips.Base < s.Mips.Base+s.Mips.Count &&
		s.Layers.Base < t.Layers.Base+t.Layers.Count && t.Layers.Base < s.Layers.Base+s.Layers.Count && s.Aspects&t.Aspects != 0
}

// Covers reports whether s includes every subresource of t.
func (s SubresourceRange) Covers(t SubresourceRange) bool {
	return s.Mips.Base <= t.Mips.Base && t.Mips.Base+t.Mips.Count <= s.Mips.Base+s.Mips.Count &&
		s.Layers.Base <= t.Layers.Base && t.Layers.Base+t.Layers.Count <= s.Layers.Base+s.Layers.Count && t.Aspects&^s.Aspects == 0
}

// CellGrid returns the shape of ranged image r's cells: mips × layers ×
// aspects (cell = (mip*layers+layer)*aspects+aspect).
func (c *Compiled) CellGrid(r ResourceID) (mips, layers, aspects int) {
	rr := c.rangedOf(int(r))
	return len(rr.mipCuts) - 1, len(rr.layerCuts) - 1, len(rr.aspects)
}
