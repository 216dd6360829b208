package planner

import (
	"fmt"

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
		s.aspects = im.Format.Aspects()
	}
	return s
}

// wholeSpan is the span of every subresource of im.
func wholeSpan(im *ImageDesc) span {
	return span{mip1: im.MipLevels, layer1: im.ArrayLayers, aspects: im.Format.Aspects()}
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
	return resolve(a, &r.Image) != wholeSpan(&r.Image)
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
	if has := im.Format.Aspects(); a.Aspects&^has != 0 {
		return fail(RuleAspects, "aspects %s: format %s has only %s", a.Aspects, im.Format, has)
	}
	return nil
}

// sameSubresource reports whether two accesses of image res touch a
// common subresource. Both ranges have been validated.
func sameSubresource(a, b *Access, res *Resource) bool {
	if !a.HasRange() && !b.HasRange() {
		return true
	}
	return resolve(a, &res.Image).intersects(resolve(b, &res.Image))
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

// RuleRangesUnsupported: a graph with subresource ranges (less than a
// whole image) reached Place, but barriers.Build and verify.Plan do not yet
// serve ranges: no plan is made rather than one with whole-image barriers.
const RuleRangesUnsupported Rule = "ranges-unsupported-in-barriers"

// rangesServed reports a graph with a partial subresource range: until the
// barriers serve ranges, Place plans none.
func (c *Compiled) rangesServed() error {
	g := c.Graph
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		for ai := range cmd.Accesses {
			a := &cmd.Accesses[ai]
			if a.HasRange() && partial(a, &g.Resources[a.Resource]) {
				return &GraphError{Command: cmd.Name, Access: ai, Resource: g.Resources[a.Resource].Name, Rule: RuleRangesUnsupported,
					Detail: "subresource ranges are compiled, but barriers and verify do not serve them yet: no plan is made"}
			}
		}
	}
	return nil
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
	ent                []cellUse
	from, to           []CommandID // the DAG edges of this resource
	terminal           []CommandID // ascending
}

// cellUse is one use's aggregated access to one cell.
type cellUse struct {
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
// buildDAG.
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
				c.ranged[a.Resource] = &ranged{}
			}
		}
	}
	for r, rr := range c.ranged {
		if rr != nil {
			if err := c.analyseRanged(ResourceID(r), rr); err != nil {
				return err
			}
		}
	}
	return nil
}

// cuts returns the sorted distinct values of v (which holds 0 and the end).
func cuts(v []uint32) []uint32 {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
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

// cellsOf calls f with every cell index that span s covers.
func (rr *ranged) cellsOf(s span, f func(cell int32)) {
	nl, na := len(rr.layerCuts)-1, len(rr.aspects)
	m0, m1 := cutIndex(rr.mipCuts, s.mip0), cutIndex(rr.mipCuts, s.mip1-1)
	l0, l1 := cutIndex(rr.layerCuts, s.layer0), cutIndex(rr.layerCuts, s.layer1-1)
	for m := m0; m <= m1; m++ {
		for l := l0; l <= l1; l++ {
			for k, bit := range rr.aspects {
				if s.aspects&bit != 0 {
					f(int32((m*nl+l)*na + k))
				}
			}
		}
	}
}

// cellSpan is the span of one cell.
func (rr *ranged) cellSpan(cell int32) span {
	nl, na := len(rr.layerCuts)-1, len(rr.aspects)
	k := int(cell) % na
	l := int(cell) / na % nl
	m := int(cell) / na / nl
	return span{mip0: rr.mipCuts[m], mip1: rr.mipCuts[m+1], layer0: rr.layerCuts[l], layer1: rr.layerCuts[l+1], aspects: rr.aspects[k]}
}

func (c *Compiled) analyseRanged(r ResourceID, rr *ranged) error {
	g := c.Graph
	res := &g.Resources[r]
	im := &res.Image
	us := c.uses[c.useStart[r]:c.useStart[r+1]]
	// Accesses of r by each use's command, resolved.
	type acc struct {
		use int
		s   span
		a   *Access
	}
	var accs []acc
	mips := []uint32{0, im.MipLevels}
	layers := []uint32{0, im.ArrayLayers}
	for i := range us {
		cmd := &g.Commands[us[i].Command]
		for ai := range cmd.Accesses {
			a := &cmd.Accesses[ai]
			if a.Resource != r {
				continue
			}
			s := resolve(a, im)
			accs = append(accs, acc{use: i, s: s, a: a})
			mips = append(mips, s.mip0, s.mip1)
			layers = append(layers, s.layer0, s.layer1)
		}
	}
	rr.mipCuts, rr.layerCuts = cuts(mips), cuts(layers)
	for _, bit := range []vk.Aspect{vk.AspectColor, vk.AspectDepth, vk.AspectStencil} {
		if im.Format.Aspects()&bit != 0 {
			rr.aspects = append(rr.aspects, bit)
		}
	}
	ncell := (len(rr.mipCuts) - 1) * (len(rr.layerCuts) - 1) * len(rr.aspects)
	// Entries per use, aggregated per cell (accesses of one command to one
	// cell share a layout: Validate's two-layouts rule).
	rr.entStart = make([]int32, len(us)+1)
	at := make([]int32, ncell) // at[cell]-1: the current use's entry for cell
	for k := 0; k < len(accs); {
		i := accs[k].use
		first := int32(len(rr.ent))
		for ; k < len(accs) && accs[k].use == i; k++ {
			a := accs[k].a
			rr.cellsOf(accs[k].s, func(cell int32) {
				if at[cell] > first {
					e := &rr.ent[at[cell]-1]
					e.stages |= a.Stages
					e.access |= a.Access
					return
				}
				rr.ent = append(rr.ent, cellUse{cell: cell, layout: a.Layout, stages: a.Stages, access: a.Access})
				at[cell] = int32(len(rr.ent))
			})
		}
		sortEntries(rr.ent[first:])
		rr.entStart[i+1] = int32(len(rr.ent))
	}
	for i := range us {
		rr.entStart[i+1] = max(rr.entStart[i+1], rr.entStart[i])
	}
	// The walk in recorded order.
	cells := make([]cellState, ncell)
	for k := range cells {
		cells[k].layout = im.InitialLayout
	}
	seen := make([]int32, len(us)) // seen[j] == i+1: edge us[j] -> us[i] emitted
	edge := func(j int32, i int) {
		if seen[j] != int32(i)+1 {
			seen[j] = int32(i) + 1
			rr.from = append(rr.from, us[j].Command)
			rr.to = append(rr.to, us[i].Command)
		}
	}
	for i := range us {
		u := &us[i]
		u.Modifies = false
		ents := rr.ent[rr.entStart[i]:rr.entStart[i+1]]
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
				for _, j := range st.mods {
					edge(j, i)
				}
				for _, j := range st.readers {
					edge(j, i)
				}
				if write {
					st.group, st.preds = false, st.preds[:0]
				} else {
					preds := make([]int32, 0, len(st.mods)+len(st.readers))
					st.group, st.preds = true, append(append(preds, st.mods...), st.readers...)
				}
				st.layout = e.layout
				st.mods = append(st.mods[:0:0], int32(i))
				st.readers = st.readers[:0]
			case st.group:
				for _, j := range st.preds {
					edge(j, i)
				}
				st.mods = append(st.mods, int32(i))
			default:
				for _, j := range st.mods {
					edge(j, i)
				}
				st.readers = append(st.readers, int32(i))
			}
			u.Modifies = u.Modifies || e.modifies
		}
		if len(ents) > 0 {
			u.Layout, u.PrevLayout = ents[0].layout, ents[0].prevLayout
		}
	}
	// Terminal: in the last epoch of every cell it touches.
	hits := seen // reuse: count of cells where the use is terminal
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
	for i := range us {
		if n := rr.entStart[i+1] - rr.entStart[i]; n > 0 && hits[i] == n {
			rr.terminal = append(rr.terminal, us[i].Command)
		}
	}
	return nil
}

// sortEntries sorts one use's entries by cell (insertion sort: cellsOf
// emits them ascending per access, so runs are already sorted).
func sortEntries(s []cellUse) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].cell < s[j-1].cell; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
