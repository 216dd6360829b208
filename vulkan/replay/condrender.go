package replay

import (
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Conditional rendering (VK_EXT_conditional_rendering). A
// CONDITIONAL_RENDERING_READ of a buffer in the CONDITIONAL_RENDERING
// stage is the predicate of the command's work: the command is recorded
// between vkCmdBeginConditionalRenderingEXT (the buffer's first 32-bit
// word, the model having no buffer ranges) and
// vkCmdEndConditionalRenderingEXT, outside any render pass, so its draws
// and dispatches (and its transform feedback draws, xfb.go) run only
// where the word the earlier writer left is not zero; clears and copies
// are not conditional in Vulkan and run either way. A command with no
// draw or dispatch of its own gets a compute dispatch that reads nothing:
// replay.comp adds 1 per invocation to the lanes, so the digest says
// whether the predicate let it run. The predicate is whatever the writer
// wrote (a hash word, almost never zero): a race changes the result when
// it changes whether that word is zero.

// addConditional records a as the command's predicate.
func addConditional(g *p.Graph, w *work, a *p.Access, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindBuffer || r.Buffer.Usage&vk.BufferUsageConditionalRenderingEXT == 0 || r.Buffer.Size < 4 {
		return bad("a conditional-rendering read needs a buffer with CONDITIONAL_RENDERING usage holding a 32-bit predicate (Vulkan)")
	}
	if w.conditional && w.cond != a.Resource {
		return bad("a second conditional-rendering predicate in one command: Vulkan has one active at a time (the command's work is conditional on %s)", g.Resources[w.cond].Name)
	}
	w.cond, w.conditional = a.Resource, true
	return nil
}

// conditionalWork gives a conditional command with no draw or dispatch
// of its own a dispatch for the predicate to decide (called once the
// command's accesses are analysed).
func conditionalWork(w *work) {
	if !w.conditional || w.graphics || w.parts[stCompute] != nil || len(w.xfb) > 0 {
		return
	}
	w.parts[stCompute] = &part{stage: stCompute}
}

// beginConditional starts w's conditional rendering, if it has a
// predicate; the returned function ends it.
func (m *mode) beginConditional(cb vkg.CommandBuffer, w *work) func() {
	if !w.conditional {
		return nil
	}
	x := m.r.k.hooks.XfbCond()
	buf, _ := m.handle(w.cond)
	x.BeginConditional(unsafe.Pointer(cb), unsafe.Pointer(buf), 0)
	return func() { x.EndConditional(unsafe.Pointer(cb)) }
}

// xfbCondFeatures refuses, naming the extension as queried, a frame that
// needs conditional rendering or transform feedback on a device that
// lacks it (vulkan.Config.Replay enables both where the device has them).
func (k *kit) xfbCondFeatures(g *p.Graph, ws []work) error {
	x := k.hooks.XfbCond()
	s := k.hooks.XfbCondSupport()
	name := k.dev.Info().Name
	for i := range ws {
		w := &ws[i]
		cmd := &g.Commands[w.cmd]
		if w.conditional && !x.ConditionalRendering() {
			a := findAccess(cmd, w.cond)
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.cond].Name, Access: describe(g, a),
				Reason: fmt.Sprintf("%s lacks VK_EXT_conditional_rendering or its conditionalRendering feature (queried): the device cannot run conditional rendering", name)}
		}
		for _, op := range w.xfb {
			id := op.resource()
			a := findAccess(cmd, id)
			bad := func(format string, args ...any) error {
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[id].Name, Access: describe(g, a), Reason: fmt.Sprintf(format, args...)}
			}
			switch {
			case !x.TransformFeedback():
				return bad("%s lacks VK_EXT_transform_feedback or its transformFeedback feature (queried): the device cannot run transform feedback", name)
			case op.byteCount && !s.Draw:
				return bad("%s lacks transformFeedbackDraw (queried): vkCmdDrawIndirectByteCountEXT, the draw that reads a counter in DRAW_INDIRECT, is not supported", name)
			case op.buf >= 0 && g.Resources[op.buf].Buffer.Size > s.MaxBufferSize:
				return bad("%s's maxTransformFeedbackBufferSize is %d bytes (queried), below the buffer's %d", name, s.MaxBufferSize, g.Resources[op.buf].Buffer.Size)
			}
		}
	}
	return nil
}
