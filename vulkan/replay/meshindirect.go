package replay

import (
	"encoding/binary"
	"unsafe"

	vkg "github.com/goki/vulkan"
)

// A mesh command's indirect reads (DRAW_INDIRECT, INDIRECT_COMMAND_READ)
// are mesh draws: vkCmdDrawMeshTasksIndirectCountEXT with the graph
// buffer as the count buffer (its first word, offset 0) and the mesh-task
// arguments in a replay-owned buffer. The arguments a frame writes or
// imports are vertex-draw arguments ({12288+3k, 1, 0, 0}, common.glsl's
// F_INDIRECT words, fillPattern): read as VkDrawMeshTasksIndirectCommandEXT
// at offset 0 they launch no workgroup (groupCountZ = 0), so a plain
// vkCmdDrawMeshTasksIndirectEXT of the graph buffer would read it and do
// nothing the digests could see. Read as a count, the same word decides how
// many draws run: the replay's argument records 0..indirectStride-1 launch
// nothing, the next meshArgSpare launch one workgroup each (of the task
// stage where the command has one, else of the mesh stage), so the draws
// that work are count-indirectStride of them (3k, 0..93, for a frame's
// written arguments; up to meshArgSpare for anything else) and their
// (quiet) mesh invocations add to the command's lanes: the digest sees the
// word read. The read is the declared access either way (a count-buffer
// read is an INDIRECT_COMMAND_READ in DRAW_INDIRECT). It needs
// VK_KHR_draw_indirect_count, enabled with VK_EXT_mesh_shader where the
// device has it (lavapipe 25.0.7 and the H200 do); without it the read
// stays a vertex-pipeline vkCmdDrawIndirect (same stage and access).

// meshArgSpare is how many argument records past indirectStride launch
// work.
const meshArgSpare = 96

// meshArgs makes the replay's mesh-task argument records (meshLayout).
func (k *kit) meshArgs() error {
	if _, mesh := k.hooks.MeshShaders(); !mesh || !k.hooks.MeshIndirectCount() {
		return nil
	}
	n := indirectStride + meshArgSpare
	b, err := k.newBuffer(uint64(12*n), vkg.BufferUsageFlags(vkg.BufferUsageIndirectBufferBit), true)
	if err != nil {
		return err
	}
	out := b.bytes()
	for j := 0; j < n; j++ {
		v := uint32(0)
		if j >= 12000 {
			v = 1
		}
		for c := 0; c < 3; c++ {
			binary.LittleEndian.PutUint32(out[12*j+4*c:], v)
		}
	}
	k.meshArgB = b.buf
	return nil
}

// meshIndirect says whether w's indirect reads are mesh draws.
func (k *kit) meshIndirect(w *work) bool { return hasMesh(w) && k.meshArgB != vkg.NullBuffer }

// drawMeshIndirect records a mesh command's indirect read of buf: the
// quiet mesh pipeline (one writing draw, gfxwrite.go), buf's first word as
// the draw count.
func (m *mode) drawMeshIndirect(cb vkg.CommandBuffer, w *work, ps *pass, buf vkg.Buffer) error {
	k, g := m.r.k, m.r.g
	quiet := quietDraw(w, ps, false)
	pl, err := k.gfxPipeline(g, w, ps, false, quiet, true)
	if err != nil {
		return err
	}
	vkg.CmdBindPipeline(cb, vkg.PipelineBindPointGraphics, pl)
	sets := m.sets[w.cmd]
	if quiet {
		sets = m.quiet[w.cmd]
	}
	bind := []vkg.DescriptorSet{sets[stMesh], sets[stFragment]}
	if w.parts[stTask] != nil {
		bind = append(bind, sets[stTask])
	}
	vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointGraphics, k.meshLay, 0, uint32(len(bind)), bind, 0, nil)
	pc := [7]uint32{ps.width, ps.width * ps.height, ps.own[0], ps.own[1], ps.own[2], ps.own[3], ps.own[4]}
	vkg.CmdPushConstants(cb, k.meshLay, vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit), 0, 28, unsafe.Pointer(&pc[0]))
	k.hooks.Extras().DrawMeshTasksIndirectCount(unsafe.Pointer(cb), unsafe.Pointer(k.meshArgB), 0, unsafe.Pointer(buf), 0, indirectStride+meshArgSpare, 12)
	return nil
}
