package replay

import (
	"fmt"
	"os"
	"sort"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
)

// Races inside one command. The pieces of one command's work (each clear
// and copy, the compute dispatch, each rendering pass's draws and its
// attachments' load operations) follow one another in the command buffer
// with no barrier between them, so the GPU may run them at once; and the
// invocations of one dispatch or draw run in no order. No barrier of the
// plan can order them, and synchronization validation (layer 1.3.239)
// does not see it. So the replay's work keeps one rule (docs/replay.md,
// "One command's reads and writes"):
//
//	an element (buffer word, or texel of one subresource) that the
//	command writes is written and read by one invocation or operation
//	alone, and read only before it is written: element e of a dispatch
//	by invocation e (compute reads and writes the same element), fragment
//	p's reads and writes of one pass, a pass's attachment through its
//	load operation and the fragments' outputs (render-pass order), or one
//	transfer; an element the command does not write may be read by any.
//
// The replay's own mapping keeps it for shader reads and writes of one
// resource in one stage (invocation e reads element e, then writes it).
// A fragment read of a subresource that a colour attachment of the same
// command writes (a whole-image GENERAL sampled read and attachment
// write, as the GENERAL twin of the bloom chain declares it) would break
// it: every pass reads every mip, while the other passes write them, and
// a cleared attachment is written by its load operation, which no order
// puts before the fragment shader. ownReads makes such reads own-pixel
// reads: one slot per (mip, layer), read only in the pass that renders
// into it, only at the fragment's own pixel (the read feeds the value the
// fragment outputs there, so it comes first), and the attachment is
// loaded (read-write) or not touched before the draw (LOAD_OP_NONE,
// write-only). selfRace then checks every command's work against the
// rule and refuses what still breaks it, by name.

// subKey is one subresource of an image (a 3D image's slice counts as a
// layer), or a whole buffer (level and layer 0).
type subKey struct {
	res          p.ResourceID
	level, layer uint32
}

type touchKind uint8

const (
	tShader    touchKind = iota // shader invocations, element e by the invocation inv names
	tOwn                        // a fragment's read of its own pixel, before its output writes it
	tOutput                     // colour output of a pass's fragments
	tLoadRead                   // LOAD_OP_LOAD
	tLoadWrite                  // LOAD_OP_CLEAR
	tLoadNone                   // LOAD_OP_NONE
	tDepth                      // depth/stencil attachment (tests, load and store)
	tResolve                    // an attachment resolve's write
	tTransfer                   // a clear, copy, blit or resolve command
	tFixedRead                  // indirect, vertex or index input
)

// touch is one piece of work's access to one subresource.
type touch struct {
	piece int // pieces are unordered with one another
	pass  int // the rendering pass (index into work.passes), -1 outside
	kind  touchKind
	write bool
	inv   [4]uint32 // tShader: slot width, height, first layer and the stage's element stride
	what  string
}

// rawWork (tests only) makes analyzeCommand skip ownReads and selfRace:
// the work the replay did before them, which races in the bloom twin.
var rawWork bool

// ownReads turns fragment reads of subresources that the command's colour
// attachments write into own-pixel reads (above). It runs after shapeDraw
// (the passes) and before shapeWrites (which takes the slots' indices).
func ownReads(g *p.Graph, w *work) error {
	pt := w.parts[stFragment]
	if pt == nil || len(w.colors) == 0 || rawWork {
		return nil
	}
	drawn := map[subKey]bool{} // single-sampled colour subresources the fragments output
	for _, a := range w.colors {
		if a.resolved || a.samples > 1 {
			continue
		}
		for _, sr := range subresourcesOf(&g.Resources[a.res].Image, a.sp) {
			drawn[subKey{a.res, sr.level, sr.layer}] = true
		}
	}
	var out []slot
	changed := false
	for _, s := range pt.slots {
		r := &g.Resources[s.res]
		if r.Kind != p.KindImage || s.flags&fRead == 0 || s.view3D || s.layer >= 0 || r.Image.Samples > 1 {
			out = append(out, s)
			continue
		}
		keys := slotKeys(g, &s)
		hit := false
		for _, k := range keys {
			hit = hit || drawn[k]
		}
		if !hit {
			out = append(out, s)
			continue
		}
		changed = true
		for _, k := range keys {
			n := s
			n.lv, n.d = layerView{k.layer, 1}, 1
			n.flags = fRead | (hash32(hashString(r.Name)^s.level^s.aspect<<20^(k.layer+1)<<12^0x5bd1e995)&0xffffff)<<8
			if drawn[k] {
				n.flags |= fOwn
				if w.ownSubs == nil {
					w.ownSubs = map[subKey]bool{}
				}
				w.ownSubs[k] = true
			}
			out = append(out, n)
		}
	}
	if !changed {
		return nil
	}
	var n [numCategories]int
	for i := range out {
		c := out[i].cat
		out[i].index = n[c] // splitGraphics (gfxsplit.go) moves slots beyond the arrays to extra draws; own-pixel ones stay
		n[c]++
	}
	pt.slots = out
	return nil
}

// ownMasks sets each pass's own-pixel slots: those of the subresources it
// renders into. It runs after shapeWrites (which may add a pass).
func ownMasks(w *work) {
	pt := w.parts[stFragment]
	if pt == nil || w.ownSubs == nil {
		return
	}
	for k := range w.passes {
		ps := &w.passes[k]
		for _, s := range pt.slots {
			if s.flags&fOwn == 0 {
				continue
			}
			for _, c := range ps.colors {
				if w.colors[c.att].res == s.res && c.level == s.level && c.layer == s.lv.layer0 {
					i := cats[s.cat].offset + s.index
					ps.own[i>>5] |= 1 << (i & 31)
				}
			}
		}
	}
}

// slotKeys lists the subresources (or the buffer) a slot's view covers.
func slotKeys(g *p.Graph, s *slot) []subKey {
	r := &g.Resources[s.res]
	if r.Kind == p.KindBuffer {
		return []subKey{{s.res, 0, 0}}
	}
	im := &r.Image
	l0, n := uint32(0), max(im.ArrayLayers, 1)
	switch {
	case s.layer >= 0:
		l0, n = uint32(s.layer), 1
	case im.Depth > 1:
		n = max(1, im.Depth>>s.level)
	case s.lv.layers > 0:
		l0, n = s.lv.layer0, s.lv.layers
	}
	out := make([]subKey, 0, n)
	for l := l0; l < l0+n; l++ {
		out = append(out, subKey{s.res, s.level, l})
	}
	return out
}

// spanKeys lists the subresources of span s of image id (every one for a
// zero span), or the buffer.
func spanKeys(g *p.Graph, id p.ResourceID, s span) []subKey {
	r := &g.Resources[id]
	if r.Kind == p.KindBuffer {
		return []subKey{{id, 0, 0}}
	}
	if s.mips == 0 {
		s = accessSpan(&r.Image, &p.Access{})
	}
	var out []subKey
	for l := s.mip0; l < s.mip0+s.mips; l++ {
		k0, n := s.layer0, s.layers
		if r.Image.Depth > 1 {
			k0, n = 0, max(1, r.Image.Depth>>l)
		}
		for k := k0; k < k0+n; k++ {
			out = append(out, subKey{id, l, k})
		}
	}
	return out
}

// touches lists what every piece of w's work does to each subresource.
func touches(g *p.Graph, w *work) (map[subKey][]touch, []subKey) {
	m := map[subKey][]touch{}
	var order []subKey
	add := func(k subKey, t touch) {
		if _, ok := m[k]; !ok {
			order = append(order, k)
		}
		m[k] = append(m[k], t)
	}
	piece := 0
	next := func() int { piece++; return piece }
	for _, op := range w.clears {
		pc := next()
		for _, k := range spanKeys(g, op.dst, op.sp) {
			add(k, touch{piece: pc, pass: -1, kind: tTransfer, write: true, what: "a clear"})
		}
	}
	for _, op := range w.copies {
		pc := next()
		for _, k := range spanKeys(g, op.src, op.srcSpan) {
			add(k, touch{piece: pc, pass: -1, kind: tTransfer, what: "a transfer's source"})
		}
		for _, k := range spanKeys(g, op.dst, op.dstSpan) {
			add(k, touch{piece: pc, pass: -1, kind: tTransfer, write: true, what: "a transfer's destination"})
		}
	}
	shader := func(pc, pass int, s *slot, stride uint32, what string) {
		for _, k := range slotKeys(g, s) {
			first := uint32(0)
			if s.layer >= 0 {
				first = uint32(s.layer)
			} else if s.lv.layers > 0 {
				first = s.lv.layer0
			}
			add(k, touch{piece: pc, pass: pass, kind: tShader, write: s.flags&fWrite != 0, inv: [4]uint32{s.w, s.h, first, stride}, what: what})
		}
	}
	if pt := w.parts[stCompute]; pt != nil {
		pc := next()
		for i := range pt.slots {
			shader(pc, -1, &pt.slots[i], 0, "the compute dispatch")
		}
	}
	if pt := w.parts[stRayGen]; pt != nil { // raygen.go
		pc := next()
		for i := range pt.slots {
			shader(pc, -1, &pt.slots[i], rayGenLaunches(pt), "the ray generation trace")
		}
	}
	if !w.graphics {
		return m, order
	}
	extra := len(w.indirect)+len(w.index)+len(w.vertex) > 0
	for k := range w.passes {
		ps := &w.passes[k]
		draws := []bool{true} // full screen
		if k == 0 && extra {
			draws = append(draws, false)
		}
		for _, full := range draws {
			quiet := quietDraw(w, ps, full)
			name := fmt.Sprintf("pass %d's full-screen draw", k)
			if !full {
				name = fmt.Sprintf("pass %d's indirect/vertex/index draws", k)
			}
			vp, fp := next(), next()
			if pt := w.parts[stVertex]; pt != nil {
				stride := w.vertices
				if len(w.indirect) > 0 {
					stride = indirectStride
				}
				for i := range pt.slots {
					s := &pt.slots[i]
					if quiet && w.gfxWritten[s.res] {
						continue
					}
					shader(vp, k, s, stride, name+" (vertex)")
				}
			}
			if pt := w.parts[stFragment]; pt != nil {
				for i := range pt.slots {
					s := &pt.slots[i]
					if quiet && w.gfxWritten[s.res] {
						continue
					}
					if s.flags&fOwn != 0 {
						j := cats[s.cat].offset + s.index
						if ps.own[j>>5]&(1<<(j&31)) != 0 {
							for _, key := range slotKeys(g, s) {
								add(key, touch{piece: fp, pass: k, kind: tOwn, what: name + " (fragment, own pixel)"})
							}
						}
						continue
					}
					shader(fp, k, s, ps.width*ps.height, name+" (fragment)")
				}
			}
			for _, c := range ps.colors {
				add(subKey{w.colors[c.att].res, c.level, c.layer}, touch{piece: fp, pass: k, kind: tOutput, write: true, what: name + "'s colour output"})
			}
			if !full {
				for _, ids := range [][]p.ResourceID{w.indirect, w.index, w.vertex} {
					for _, id := range ids {
						add(subKey{id, 0, 0}, touch{piece: fp, pass: k, kind: tFixedRead, what: name + " (input)"})
					}
				}
			}
		}
		ap := next()
		for _, c := range ps.colors {
			a := w.colors[c.att]
			key := subKey{a.res, c.level, c.layer}
			t := touch{piece: ap, pass: k, kind: tLoadWrite, write: true, what: fmt.Sprintf("pass %d's clear (load operation)", k)}
			switch {
			case w.ownSubs[key] && !a.read:
				t.kind, t.write, t.what = tLoadNone, false, fmt.Sprintf("pass %d's LOAD_OP_NONE", k)
			case a.read && !a.clear:
				t.kind, t.write, t.what = tLoadRead, false, fmt.Sprintf("pass %d's load", k)
			}
			add(key, t)
			if a.resolve >= 0 {
				add(subKey{w.colors[a.resolve].res, c.level, c.layer}, touch{piece: ap, pass: k, kind: tResolve, write: true, what: fmt.Sprintf("pass %d's resolve", k)})
			}
		}
		if ps.depth.att >= 0 {
			a := w.depths[ps.depth.att]
			add(subKey{a.res, ps.depth.level, ps.depth.layer}, touch{piece: ap, pass: k, kind: tDepth, write: a.write || a.sWrite || !a.read || a.clear,
				what: fmt.Sprintf("pass %d's depth/stencil attachment", k)})
		}
	}
	gfxMoreTouches(w, next, shader) // gfxsplit.go: the extra draws
	return m, order
}

// raceIn says which two touches of one subresource break the rule, or ""
// when none do.
func raceIn(ts []touch) (a, b *touch) {
	var wr *touch
	for i := range ts {
		if ts[i].write {
			wr = &ts[i]
			break
		}
	}
	if wr == nil {
		return nil, nil
	}
	// One piece whose invocations each keep to their own elements, or
	// one transfer (a buffer copied onto itself copies between halves).
	same := true
	for i := range ts {
		t := &ts[i]
		if t.piece != ts[0].piece || t.kind != ts[0].kind || t.inv != ts[0].inv {
			same = false
		}
	}
	if same && ts[0].kind != tOwn {
		return nil, nil
	}
	// A pass's attachment: its load, then each fragment's own read and
	// its output (one draw), in render-pass order.
	has := map[touchKind]int{}
	ownPiece := -1
	for i := range ts {
		t := &ts[i]
		switch {
		case t.pass != wr.pass || t.pass < 0, t.kind == tShader, t.kind == tFixedRead, t.kind == tTransfer, t.kind == tResolve:
			return wr, other(ts, wr)
		case t.kind == tOwn && ownPiece >= 0 && t.piece != ownPiece:
			return t, &ts[ownPiece]
		case t.kind == tOwn:
			ownPiece = i
		}
		has[t.kind]++
	}
	if has[tOwn] > 0 && (has[tOutput] == 0 || has[tLoadWrite] > 0 || has[tDepth] > 0) {
		return &ts[ownPiece], wr
	}
	return nil, nil
}

// other is a touch of ts that is not wr's own invocation (a different
// piece, kind or element mapping): the one to name beside wr.
func other(ts []touch, wr *touch) *touch {
	for j := range ts {
		if t := &ts[j]; t.piece != wr.piece || t.kind != wr.kind || t.inv != wr.inv {
			return t
		}
	}
	return wr
}

// selfRace refuses w when two pieces of its work, or two invocations of
// one, touch an element one of them writes with no order between them.
func selfRace(g *p.Graph, w *work) error {
	if rawWork {
		return nil
	}
	m, order := touches(g, w)
	sortKeys(order)
	for _, k := range order {
		x, y := raceIn(m[k])
		if x == nil {
			continue
		}
		cmd := &g.Commands[w.cmd]
		r := &g.Resources[k.res]
		where := ""
		if r.Kind == p.KindImage {
			where = fmt.Sprintf(" (mip %d, layer %d)", k.level, k.layer)
		}
		return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, findAccess(cmd, k.res)),
			Reason: fmt.Sprintf("%s and %s touch the same elements%s, one writing, with no order between them inside one command (no barrier can order them: docs/replay.md, one command's reads and writes)", x.what, y.what, where)}
	}
	return nil
}

// ownLoadOp is the load operation of a write-only colour attachment
// whose subresource the command's fragments read at their own pixels:
// LOAD_OP_NONE where the device has it (the attachment is not touched
// before the draws), else LOAD_OP_LOAD (ALIASPLAN_REPLAY_OWN_LOAD=1 forces
// it): a read, at the attachment's own stage, of the texels the pass then
// overwrites, ordered before the fragments' outputs by the render pass
// and no write, so it races with neither the own-pixel read nor the
// output. The graph declares the attachment write-only, so ownLoadPlan
// adds COLOR_ATTACHMENT_READ to the destination access of the plan's
// barriers that make the command's write possible (docs/decisions.md,
// "Own-pixel reads without LOAD_OP_NONE").
func (k *kit) ownLoadOp() int32 {
	if k.hooks.LoadOpNone() && !forceOwnLoad {
		return loadOpNone
	}
	return int32(vk.AttachmentLoadOpLoad)
}

var forceOwnLoad = os.Getenv("ALIASPLAN_REPLAY_OWN_LOAD") == "1"

// ownLoadPlan is plan with COLOR_ATTACHMENT_READ added to the destination
// access of every barrier before a command that loads a write-only colour
// attachment for its own-pixel reads (ownLoadOp's LOAD_OP_LOAD), on that
// attachment's image and with COLOR_ATTACHMENT_WRITE there: the load is
// a read in the stage the write already waits in, of the texels the
// write then overwrites. Nothing else is widened, so a barrier the plan
// lacks, or scopes to the wrong stage, is lacking or wrong in the replay
// too. plan itself when no command loads so.
func (r *Replayer) ownLoadPlan(plan *p.Plan) *p.Plan {
	if r.k.ownLoadOp() != int32(vk.AttachmentLoadOpLoad) {
		return plan
	}
	loads := map[[2]int]bool{} // (command, resource) that load for own-pixel reads
	for i := range r.works {
		w := &r.works[i]
		for _, a := range w.colors {
			if a.read {
				continue
			}
			for key := range w.ownSubs {
				if key.res == a.res {
					loads[[2]int{int(w.cmd), int(a.res)}] = true
				}
			}
		}
	}
	if len(loads) == 0 {
		return plan
	}
	fix := func(bs []p.Barrier) []p.Barrier {
		out := bs
		for i := range bs {
			b := &bs[i]
			if !loads[[2]int{int(b.Before), int(b.Resource)}] || b.DstAccess&avk.AccessColorAttachmentWrite == 0 {
				continue
			}
			if &out[0] == &bs[0] {
				out = append([]p.Barrier(nil), bs...)
			}
			out[i].DstAccess |= avk.AccessColorAttachmentRead
		}
		return out
	}
	c := *plan
	c.Barriers = fix(plan.Barriers)
	return &c
}

// ownDefined refuses an own-pixel read of a subresource the frame has not
// written before the command (its contents would be undefined).
func ownDefined(g *p.Graph, w *work, subs subWritten, written []bool) error {
	keys := make([]subKey, 0, len(w.ownSubs))
	for key := range w.ownSubs {
		keys = append(keys, key)
	}
	sortKeys(keys)
	for _, key := range keys {
		r := &g.Resources[key.res]
		if r.Imported && written[key.res] || subs[[3]uint32{uint32(key.res), key.level, key.layer}] {
			continue
		}
		cmd := &g.Commands[w.cmd]
		return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, findAccess(cmd, key.res)),
			Reason: fmt.Sprintf("mip %d, layer %d is sampled and rendered into by the command before the frame writes it: its contents are undefined, so runs could not be compared", key.level, key.layer)}
	}
	return nil
}

func sortKeys(ks []subKey) {
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.res != b.res {
			return a.res < b.res
		}
		if a.level != b.level {
			return a.level < b.level
		}
		return a.layer < b.layer
	})
}
