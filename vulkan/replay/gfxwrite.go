package replay

import p "github.com/aliasplan/aliasplan/planner"

// Storage writes from vertex and fragment shaders (the device features
// vertexPipelineStoresAndAtomics and fragmentStoresAndAtomics, which
// vulkan.Config{Replay: true} requires and enables): vertex v writes
// elements v, v+V, ... and fragment p elements p, p+P, ... of every slot
// its stage writes, with values derived from what it read, like compute.
//
// A command draws several times (a full-screen draw per pass, one per
// indirect, vertex and index buffer), and synchronization validation
// takes every bound descriptor as accessed by every draw. So exactly one
// draw writes: the full-screen draw of the command's write pass, which
// has no attachments (no depth test can discard a fragment before it
// writes; the render area covers every element). Every other draw of the
// command binds quiet descriptor sets and pipelines: the slots of every
// resource the vertex or fragment part writes are null and masked off, so
// those draws neither read nor write them (no hazard inside the command,
// and nothing the plan does not order). A command with a single
// attachment-less pass and no extra draws writes in that pass.
func shapeWrites(w *work) {
	written := map[p.ResourceID]bool{}
	for _, st := range gfxStages { // prerast.go
		if pt := w.parts[st]; pt != nil {
			for _, s := range pt.slots {
				if s.flags&fWrite != 0 {
					written[s.res] = true
				}
			}
		}
	}
	if len(written) == 0 {
		return
	}
	w.gfxWritten = written
	for _, st := range gfxStages {
		if pt := w.parts[st]; pt != nil {
			for _, s := range pt.slots {
				if !written[s.res] {
					w.quiet[st][s.cat] |= 1 << s.index
				}
			}
		}
	}
	ps := &w.passes[0]
	if len(w.passes) == 1 && len(ps.colors) == 0 && ps.depth.att < 0 && len(w.indirect)+len(w.index)+len(w.vertex) == 0 {
		ps.writes = true
		return
	}
	n := uint64(1)
	if f := w.parts[stFragment]; f != nil {
		n = max(1, f.maxCount())
	}
	aw := uint32(min(uint64(4096), n))
	ah := uint32(min(uint64(4096), (n+uint64(aw)-1)/uint64(aw)))
	w.passes = append([]pass{{depth: sub{att: -1}, width: aw, height: ah, samples: 1, writes: true}}, w.passes...)
}

// quietDraw says whether a draw of w in ps binds the quiet sets.
func quietDraw(w *work, ps *pass, fullScreen bool) bool {
	return w.gfxWritten != nil && !(ps.writes && fullScreen)
}
