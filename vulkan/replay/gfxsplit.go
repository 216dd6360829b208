package replay

import (
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// More slots of one kind in a vertex, fragment, tessellation or geometry
// stage than the shaders declare (a ninth storage buffer in a vertex
// stage, a fifth 64 KiB uniform range, a ninth sampled image in a
// fragment stage, ...) go to extra draws, as the compute stage's go to
// extra dispatches (split.go). The command's first draws (every pass's
// full-screen draw, its indirect, vertex and index draws) keep the slots
// that fit the arrays; each extra draw is a full-screen draw of its own,
// once per command, in an attachment-less rendering pass of its own after
// the command's passes (no attachment is loaded, stored or tested there,
// so every fragment runs and no depth test discards a read or a write),
// with its own descriptor sets, Params records and lanes, folded into the
// command's digest. The draws of one command follow one another with no
// barrier between them, so they keep the one-writing-draw rule
// (gfxwrite.go) by resource:
//
//   - every slot of a resource that some graphics stage of the command
//     writes (its reads and its writes, in every stage) is in one draw
//     group: the first draws (where shapeWrites gives the write to one
//     draw and quiet sets to the others) or one extra draw (drawn once,
//     it is the only draw that binds the resource);
//   - read-only slots go wherever they fit, each in one group, so every
//     element is read (and digested) exactly as often as without the
//     split;
//   - own-pixel reads (selfrace.go) stay in the first draws: they are
//     tied to the pass that renders into their subresource.
//
// selfRace checks the extra draws' touches with the rest of the command's
// work. Mesh pipelines do not split (mesh.go's full-screen draw is a mesh
// draw): such a command is still refused naming the array.

// gfxGroup is one extra draw of a command.
type gfxGroup struct {
	parts [numStages]*part // vertex and fragment always; tessellation (both) and geometry when it has their slots
	pass  pass             // attachment-less; the render area covers its fragment slots
}

// splitsGraphics says whether slots of stage st beyond the arrays go to
// extra draws.
func splitsGraphics(st stage) bool {
	switch st {
	case stVertex, stFragment, stTessControl, stTessEval, stGeometry:
		return true
	}
	return false
}

// gfxMoreParts lists the extra draws' parts (allParts, split.go).
func (w *work) gfxMoreParts() []*part {
	var out []*part
	for _, grp := range w.gfxMore {
		for _, st := range gfxStages {
			if pt := grp.parts[st]; pt != nil {
				out = append(out, pt)
			}
		}
	}
	return out
}

// gfxSlot is a slot of one stage, being placed.
type gfxSlot struct {
	st stage
	s  slot
}

// splitGraphics moves w's graphics slots beyond the arrays' sizes into
// extra draws (w.gfxMore), numbering each part's slots of a kind from 0.
// It runs after ownReads (which adds own-pixel slots) and before
// preRasterVertices and shapeWrites (which take the first draws' parts).
func splitGraphics(g *p.Graph, w *work) error {
	over := false
	for _, st := range gfxStages {
		pt := w.parts[st]
		if pt == nil {
			continue
		}
		var n [numCategories]int
		for _, s := range pt.slots {
			n[s.cat]++
			over = over || n[s.cat] > s.cat.size(st)
		}
	}
	if !over {
		return nil
	}
	cmd := &g.Commands[w.cmd]
	refuse := func(u gfxSlot, why string) error {
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[u.s.res].Name, Access: describe(g, findAccess(cmd, u.s.res)), Reason: why}
	}
	if hasMesh(w) {
		for _, st := range gfxStages {
			if pt := w.parts[st]; pt != nil {
				var n [numCategories]int
				for _, s := range pt.slots {
					if n[s.cat]++; n[s.cat] > s.cat.size(st) {
						return refuse(gfxSlot{st, s}, fmt.Sprintf("the %s part of a mesh-shader command needs more than %d %s slots (extra draws split vertex pipelines only: gfxsplit.go)", stageNames[st], s.cat.size(st), cats[s.cat].name))
					}
				}
			}
		}
	}
	// Units: every slot of a resource some graphics stage writes, in every
	// stage; each other slot alone. Own-pixel units are pinned to the first
	// draws.
	written := map[p.ResourceID]bool{}
	for _, st := range gfxStages {
		if pt := w.parts[st]; pt != nil {
			for _, s := range pt.slots {
				if s.flags&fWrite != 0 {
					written[s.res] = true
				}
			}
		}
	}
	type unit struct {
		slots  []gfxSlot
		pinned bool
	}
	var units []*unit
	unitOf := map[p.ResourceID]*unit{}
	for _, st := range gfxStages {
		pt := w.parts[st]
		if pt == nil {
			continue
		}
		for _, s := range pt.slots {
			gs := gfxSlot{st, s}
			if written[s.res] {
				if u, ok := unitOf[s.res]; ok {
					u.slots = append(u.slots, gs)
					u.pinned = u.pinned || s.flags&fOwn != 0
					continue
				}
			}
			u := &unit{slots: []gfxSlot{gs}, pinned: s.flags&fOwn != 0}
			if written[s.res] {
				unitOf[s.res] = u
			}
			units = append(units, u)
		}
	}
	type group struct {
		n     [numStages][numCategories]int
		slots []gfxSlot
	}
	fits := func(q *group, u *unit) bool {
		n := q.n
		for _, gs := range u.slots {
			n[gs.st][gs.s.cat]++
			if n[gs.st][gs.s.cat] > gs.s.cat.size(gs.st) {
				return false
			}
		}
		return true
	}
	put := func(q *group, u *unit) {
		for _, gs := range u.slots {
			q.n[gs.st][gs.s.cat]++
		}
		q.slots = append(q.slots, u.slots...)
	}
	groups := []*group{{}}
	for _, u := range units { // own-pixel units first: they must fit the first draws
		if !u.pinned {
			continue
		}
		if !fits(groups[0], u) {
			return refuse(u.slots[0], fmt.Sprintf("the %s part needs more than %d %s slots for reads the command's own attachments write (own-pixel reads stay in the pass that renders them: selfrace.go)",
				stageNames[u.slots[0].st], u.slots[0].s.cat.size(u.slots[0].st), cats[u.slots[0].s.cat].name))
		}
		put(groups[0], u)
	}
	for _, u := range units {
		if u.pinned {
			continue
		}
		i := 0
		for i < len(groups) && !fits(groups[i], u) {
			i++
		}
		if i == len(groups) {
			q := &group{}
			if !fits(q, u) {
				gs := u.slots[0]
				var n [numStages][numCategories]int
				for _, y := range u.slots {
					if n[y.st][y.s.cat]++; n[y.st][y.s.cat] > y.s.cat.size(y.st) {
						gs = y
						break
					}
				}
				return refuse(gs, fmt.Sprintf("one written resource needs more than %d %s slots of the %s stage (its slots stay in one draw: gfxsplit.go)", gs.s.cat.size(gs.st), cats[gs.s.cat].name, stageNames[gs.st]))
			}
			groups = append(groups, q)
		}
		put(groups[i], u)
	}
	// The first group keeps w's parts (slots in their original order);
	// the others become extra draws.
	fill := func(parts *[numStages]*part, q *group) {
		for _, st := range gfxStages {
			if parts[st] != nil {
				parts[st].slots = nil
			}
		}
		var n [numStages][numCategories]int
		for _, gs := range q.slots {
			if parts[gs.st] == nil {
				parts[gs.st] = &part{stage: gs.st}
			}
			s := gs.s
			s.index = n[gs.st][s.cat]
			n[gs.st][s.cat]++
			parts[gs.st].slots = append(parts[gs.st].slots, s)
		}
	}
	fill(&w.parts, groups[0])
	for _, q := range groups[1:] {
		grp := &gfxGroup{}
		fill(&grp.parts, q)
		for _, st := range []stage{stVertex, stFragment} {
			if grp.parts[st] == nil {
				grp.parts[st] = &part{stage: st}
			}
		}
		if grp.parts[stTessControl] != nil || grp.parts[stTessEval] != nil {
			for _, st := range []stage{stTessControl, stTessEval} {
				if grp.parts[st] == nil {
					grp.parts[st] = &part{stage: st}
				}
			}
		}
		n := max(1, grp.parts[stFragment].maxCount())
		aw := uint32(min(uint64(4096), n))
		ah := uint32(min(uint64(4096), (n+uint64(aw)-1)/uint64(aw)))
		grp.pass = pass{depth: sub{att: -1}, width: aw, height: ah, samples: 1, writes: true}
		w.gfxMore = append(w.gfxMore, grp)
	}
	return nil
}

// drawVertices is the vertex count of an extra draw: the vertex stride
// writeParams gives every vertex-stage part of w (replayer.go), so vertex
// v reads elements v, v+V, ... and every element once.
func drawVertices(w *work) uint32 {
	if len(w.indirect) > 0 {
		return indirectStride
	}
	return w.vertices
}

// shadow is w with an extra draw's parts in place of the first draws'
// (for the pipeline key and layout): no quiet sets, no mesh stages.
func (grp *gfxGroup) shadow(w *work) *work {
	sw := *w
	sw.parts = grp.parts
	sw.gfxWritten = nil
	sw.quiet = [numStages]specMasks{}
	return &sw
}

// gfxMoreTouches adds the extra draws' shader touches (selfrace.go's
// touches: the vertex and fragment stages, as for the first draws).
func gfxMoreTouches(w *work, next func() int, shader func(pc, pass int, s *slot, stride uint32, what string)) {
	for gi, grp := range w.gfxMore {
		for _, st := range []stage{stVertex, stFragment} {
			pc := next()
			stride := drawVertices(w)
			if st == stFragment {
				stride = grp.pass.width * grp.pass.height
			}
			pt := grp.parts[st]
			for i := range pt.slots {
				shader(pc, -1, &pt.slots[i], stride, fmt.Sprintf("extra draw %d (%s)", gi+1, stageNames[st]))
			}
		}
	}
}

// writeGfxMoreSets writes the extra draws' descriptor sets (prepare,
// through writeMoreSets).
func (m *mode) writeGfxMoreSets(stride uint64) error {
	m.gfxSets = make([][][numStages]vkg.DescriptorSet, len(m.r.works))
	for i := range m.r.works {
		for _, grp := range m.r.works[i].gfxMore {
			var sets [numStages]vkg.DescriptorSet
			for _, st := range gfxStages {
				pt := grp.parts[st]
				if pt == nil {
					continue
				}
				set, err := m.writeSet(pt, st, stride, nil)
				if err != nil {
					return fmt.Errorf("replay: command %q: %w", m.r.works[i].name, err)
				}
				sets[st] = set
			}
			m.gfxSets[i] = append(m.gfxSets[i], sets)
		}
	}
	return nil
}

// recordGfxMore records w's extra draws, each in an attachment-less
// rendering pass of its own, after the command's passes (recordWork).
func (m *mode) recordGfxMore(cb vkg.CommandBuffer, w *work) error {
	k, g := m.r.k, m.r.g
	for i, grp := range w.gfxMore {
		ps := &grp.pass
		sw := grp.shadow(w)
		pl, err := k.gfxPipeline(g, sw, ps, false, false, false)
		if err != nil {
			return err
		}
		k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), ps.width, ps.height, []vkext.Attachment{}, nil, nil)
		vkg.CmdSetViewport(cb, 0, 1, []vkg.Viewport{{Width: float32(ps.width), Height: float32(ps.height), MaxDepth: 1}})
		vkg.CmdSetScissor(cb, 0, 1, []vkg.Rect2D{{Extent: vkg.Extent2D{Width: ps.width, Height: ps.height}}})
		vkg.CmdSetStencilReference(cb, vkg.StencilFaceFlags(vkg.StencilFrontAndBack), w.seed&0xff)
		vkg.CmdBindPipeline(cb, vkg.PipelineBindPointGraphics, pl)
		sets := m.gfxSets[w.cmd][i]
		lay := k.gfxLayFor(sw)
		vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointGraphics, lay, 0, 2, []vkg.DescriptorSet{sets[stVertex], sets[stFragment]}, 0, nil)
		for _, st := range preRasterStages {
			if grp.parts[st] != nil {
				vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointGraphics, lay, uint32(st-numBaseStages+2), 1, []vkg.DescriptorSet{sets[st]}, 0, nil)
			}
		}
		pc := [7]uint32{ps.width, ps.width * ps.height}
		vkg.CmdPushConstants(cb, lay, vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit), 0, 28, unsafe.Pointer(&pc[0]))
		vkg.CmdDraw(cb, drawVertices(w), 1, 0, 0)
		k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
	}
	return nil
}
