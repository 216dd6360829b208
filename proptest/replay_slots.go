package proptest

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// graphicsSlots adds a draw with more vertex and fragment slots of one
// kind than the replay's shaders declare (vulkan/replay/gfxsplit.go:
// extra draws): nine storage buffers read by the vertex shader, a
// uniform buffer of five 64 KiB ranges and five written storage buffers
// in the fragment shader.
func (b *rgen) graphicsSlots(s uint32) {
	cs, vs, fs := vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader
	ub := b.buffer("uniforms", 5*65536, vk.BufferUsageUniformBuffer)
	w := []planner.Access{b.storageWrite(ub)}
	draw := []planner.Access{{Resource: ub, Stages: fs, Access: vk.AccessUniformRead}}
	for i := 0; i < 9; i++ {
		in := b.buffer(fmt.Sprintf("in%d", i), uint64(128*(1+b.rng.IntN(4))), 0)
		w = append(w, b.storageWrite(in))
		draw = append(draw, planner.Access{Resource: in, Stages: vs, Access: vk.AccessShaderStorageRead})
	}
	var read []planner.Access
	for i := 0; i < 5; i++ {
		out := b.buffer(fmt.Sprintf("out%d", i), uint64(256*(1+b.rng.IntN(4))), 0)
		draw = append(draw, planner.Access{Resource: out, Stages: fs, Access: vk.AccessShaderStorageWrite})
		read = append(read, planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead})
	}
	col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	b.cmd("slots.write", w...)
	b.cmd("slots.draw", append(draw, colorWrite(col))...)
	b.toSink("slots.read", append(read, sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))...)
}
