package proptest

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// xfbCond adds transform feedback or conditional rendering
// (vulkan/replay: xfb.go, condrender.go).
func (b *rgen) xfbCond(k string, s uint32) {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	if k == "transform-feedback" {
		tf := vk.StageTransformFeedbackEXT
		capt := b.buffer("captured", uint64(256*(1+b.rng.IntN(4))), vk.BufferUsageTransformFeedbackBufferEXT)
		ctr := b.buffer("counter", 4, vk.BufferUsageTransformFeedbackCounterBufferEXT|vk.BufferUsageIndirectBuffer)
		b.cmd("xfb.capture", planner.Access{Resource: capt, Stages: tf, Access: vk.AccessTransformFeedbackWriteEXT},
			planner.Access{Resource: ctr, Stages: tf, Access: vk.AccessTransformFeedbackCounterWriteEXT})
		b.cmd("xfb.resume", planner.Access{Resource: ctr, Stages: tf, Access: vk.AccessTransformFeedbackCounterReadEXT | vk.AccessTransformFeedbackCounterWriteEXT})
		b.cmd("xfb.byte-count", planner.Access{Resource: ctr, Stages: vk.StageDrawIndirect, Access: vk.AccessTransformFeedbackCounterReadEXT}, colorWrite(out))
		b.toSink("xfb.read", planner.Access{Resource: capt, Stages: cs, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: ctr, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
		return
	}
	cr := vk.StageConditionalRenderingEXT
	pred := b.buffer("predicate", 64, vk.BufferUsageConditionalRenderingEXT)
	x := b.buffer("conditional", uint64(256*(1+b.rng.IntN(4))), 0)
	b.cmd("predicate.write", b.storageWrite(pred))
	b.cmd("cond.dispatch", planner.Access{Resource: pred, Stages: cr, Access: vk.AccessConditionalRenderingReadEXT},
		planner.Access{Resource: x, Stages: cs, Access: vk.AccessShaderStorageWrite})
	b.cmd("cond.draw", planner.Access{Resource: pred, Stages: cr, Access: vk.AccessConditionalRenderingReadEXT},
		planner.Access{Resource: x, Stages: fs, Access: vk.AccessShaderStorageRead}, colorWrite(out))
	b.toSink("cond.read", planner.Access{Resource: x, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
}
