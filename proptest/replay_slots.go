package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// SlotReplayKinds are kinds kept out of ReplayKinds' rotation: adding a
// kind there changes which kinds every seed draws, and the new seed 41
// (indirect-vertex, generic-buffers, transform-feedback) hangs lavapipe
// in the aliased run (docs/replay.md, what is left). SlotReplayFrame
// draws them instead.
var SlotReplayKinds = []string{
	"graphics-slots", // a draw with more vertex and fragment slots of one kind than the shaders declare (vulkan/replay/gfxsplit.go)
}

// SlotReplayFrame is ReplayFrame with kind seed mod len(SlotReplayKinds),
// then ReplayKinds[seed mod len(ReplayKinds)].
func SlotReplayFrame(seed uint64) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x3c6ef372fe94f82b))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	for i, k := range []string{SlotReplayKinds[seed%uint64(len(SlotReplayKinds))], ReplayKinds[seed%uint64(len(ReplayKinds))]} {
		b.prefix = fmt.Sprintf("k%d.", i)
		b.first = true
		b.kind(k)
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g
}

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
