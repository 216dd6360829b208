package replay

import (
	"fmt"
	"strings"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Task and mesh shaders (VK_EXT_mesh_shader). A command whose accesses
// name TASK_SHADER_EXT or MESH_SHADER_EXT draws its full-screen draw of
// every pass with a mesh pipeline (replay.task, replay.mesh and the
// command's fragment shader) instead of a vertex one:
// vkCmdDrawMeshTasksEXT. Each stage performs its reads and writes like
// the vertex stage does (same descriptor arrays, the same digest scheme:
// lanes of its own): workgroups of 32 invocations, invocation i (the
// global invocation index) reads and writes elements i, i+S, ... (S:
// every invocation of that stage in the draw). Without a task stage the
// draw launches G mesh workgroups; with one, T task workgroups that each
// launch M mesh workgroups (its payload gives them their base, so mesh
// invocation i is still global). Mesh workgroup 0 emits the full-screen
// triangle (so the fragment stage and the attachments see the same work
// as a vertex draw's), every other workgroup emits nothing. The mesh
// descriptor set is set 0, the fragment's set 1, the task's set 2 of a
// three-set pipeline layout.
//
// The command's vertex and index reads stay draws of their own with the
// (quiet) vertex pipeline; its indirect reads are mesh draws
// (meshindirect.go). A command with both mesh work and vertex,
// tessellation or geometry shader work draws with both pipelines
// (meshShape).
//
// The device must have VK_EXT_mesh_shader with meshShader (and taskShader
// for a task stage), and the device be opened with
// vulkan.Config{ReplayStages} naming the stages (Stages(g) gives them):
// the extension is enabled only for frames that use it. Otherwise the
// frame is refused naming what is missing.

const (
	stTask stage = stGeometry + 1 + iota
	stMesh
)

const (
	meshLocal    = 32 // workgroup size of replay.task and replay.mesh
	meshMaxInvoc = 1 << 20
	// VkShaderStageFlagBits (VK_EXT_mesh_shader).
	shaderStageTaskEXT = 0x40
	shaderStageMeshEXT = 0x80
)

func init() {
	stageNames[stTask], stageNames[stMesh] = "task", "mesh"
	gfxStages = append(gfxStages, stTask, stMesh)
}

// Stages is every stage g's accesses name (for vulkan.Config.ReplayStages).
func Stages(g *p.Graph) vk.Stage {
	var s vk.Stage
	for i := range g.Commands {
		for _, a := range g.Commands[i].Accesses {
			s |= a.Stages
		}
	}
	return s
}

// hasMesh says whether w draws with a mesh pipeline.
func hasMesh(w *work) bool { return w.parts[stTask] != nil || w.parts[stMesh] != nil }

// meshShape gives a command with a task part a mesh part. A command
// with both mesh/task work and vertex, tessellation or geometry shader
// work (mixedMesh) draws twice: the mesh draw (task, mesh and fragment
// stages) and a full-screen vertex-pipeline draw (vertex, tessellation,
// geometry and a fragment stage that binds its quiet set). Following
// gfxwrite.go's one-writing-draw rule, each resource the command's shaders
// write is written by exactly one of the two (the side whose stages
// access it), in the write pass; every other draw binds quiet sets. A
// written resource that both sides access is refused: the two draws of
// one render pass are unordered, so neither could access it without
// racing the other (a command whose two pipelines share a resource they
// write needs an order inside the command, which the model does not give).
func meshShape(g *p.Graph, w *work) error {
	if !hasMesh(w) {
		return nil
	}
	if w.parts[stMesh] == nil {
		w.parts[stMesh] = &part{stage: stMesh}
	}
	if !mixedMesh(w) {
		return nil
	}
	meshSide := map[p.ResourceID]bool{}
	written := map[p.ResourceID]bool{}
	for _, st := range gfxStages {
		if pt := w.parts[st]; pt != nil {
			for _, sl := range pt.slots {
				if st == stTask || st == stMesh || st == stFragment {
					meshSide[sl.res] = true
				}
				if sl.flags&fWrite != 0 {
					written[sl.res] = true
				}
			}
		}
	}
	for _, st := range append([]stage{stVertex}, preRasterStages...) {
		pt := w.parts[st]
		if pt == nil {
			continue
		}
		for _, sl := range pt.slots {
			if written[sl.res] && meshSide[sl.res] {
				cmd := &g.Commands[w.cmd]
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[sl.res].Name, Access: describe(g, findAccess(cmd, sl.res)),
					Reason: fmt.Sprintf("a resource written by one command in both its mesh draw (task, mesh, fragment stages) and its vertex-pipeline draw (%s stage): the two draws of one render pass are unordered, so one would race the other (mesh.go)", stageNames[st])}
			}
		}
	}
	return nil
}

// mixedMesh says whether w draws with both a mesh and a vertex pipeline
// (meshShape).
func mixedMesh(w *work) bool {
	vp := w.parts[stVertex]
	return hasMesh(w) && (vp != nil && len(vp.slots) > 0 || hasPreRaster(w))
}

// mixedFragQuiet says whether w's full-screen vertex-pipeline draw of the
// write pass binds the fragment stage's quiet set and masks: the mesh draw
// performs the fragment stage's writes (meshShape).
func mixedFragQuiet(w *work) bool { return mixedMesh(w) && w.gfxWritten != nil }

// meshGroups is w's mesh draw: task workgroups t (0: no task stage) each
// launching m mesh workgroups, or g mesh workgroups without a task stage.
func meshGroups(w *work) (t, m uint32) {
	groups := func(pt *part) uint64 {
		n := uint64(1)
		if pt != nil {
			n = max(1, pt.maxCount())
		}
		return min((n+meshLocal-1)/meshLocal, meshMaxInvoc/meshLocal)
	}
	mg := groups(w.parts[stMesh])
	if w.parts[stTask] == nil {
		return 0, uint32(mg)
	}
	tg := groups(w.parts[stTask])
	return uint32(tg), uint32(max(1, min((mg+tg-1)/tg, meshMaxInvoc/meshLocal/tg)))
}

// meshParams writes a task or mesh part's Params fields: its element
// stride (every invocation of its stage) and, for the task stage, the
// mesh workgroups each task workgroup launches (Params.width).
func meshParams(w *work, st stage, put func(int, uint32)) {
	t, m := meshGroups(w)
	switch {
	case st == stTask:
		put(4, m)
		put(8, t*meshLocal)
	case t > 0:
		put(8, t*m*meshLocal)
	default:
		put(8, m*meshLocal)
	}
}

// meshStageFlags is the shader stage of a task or mesh part.
func meshStageFlags(st stage) (vkg.ShaderStageFlags, bool) {
	switch st {
	case stTask:
		return shaderStageTaskEXT, true
	case stMesh:
		return shaderStageMeshEXT, true
	}
	return 0, false
}

// meshStageOn says whether the kit makes stage st's descriptor set
// layout: a task or mesh stage only where the device enabled it.
func (k *kit) meshStageOn(st stage) bool {
	task, mesh := k.hooks.MeshShaders()
	switch st {
	case stTask:
		return task
	case stMesh:
		return mesh
	}
	return true
}

// skipMeshModule says whether the device cannot take the shader module.
func (k *kit) skipMeshModule(name string) bool {
	task, mesh := k.hooks.MeshShaders()
	return !mesh && len(name) >= 4 && name[:4] == "mesh" || !task && (len(name) >= 4 && name[:4] == "task" || len(name) >= 6 && name[:6] == "mesh_t")
}

// meshLayout makes the three-set pipeline layout of mesh draws.
func (k *kit) meshLayout() error {
	task, mesh := k.hooks.MeshShaders()
	if !mesh {
		return nil
	}
	tl := k.setsLay[stTask]
	if !task {
		tl = k.setsLay[stMesh]
	}
	var err error
	if k.meshLay, err = k.pipelineLayout(k.setsLay[stMesh], k.setsLay[stFragment], tl); err != nil {
		return err
	}
	return k.meshArgs() // meshindirect.go
}

// meshDevice refuses a frame with task or mesh work the device cannot
// run (or was not opened for), naming what is missing.
func (k *kit) meshDevice(g *p.Graph, ws []work) error {
	for i := range ws {
		w := &ws[i]
		if !hasMesh(w) {
			continue
		}
		st, why := k.meshWhy(w.parts[stTask] != nil)
		if why == "" {
			continue
		}
		cmd := &g.Commands[w.cmd]
		res, acc := "", stageNames[st]+" stage"
		for _, s := range []stage{st, stMesh, stTask} {
			if pt := w.parts[s]; pt != nil && len(pt.slots) > 0 {
				res, acc = g.Resources[pt.slots[0].res].Name, describe(g, findAccess(cmd, pt.slots[0].res))
				break
			}
		}
		return &UnsupportedError{Command: cmd.Name, Resource: res, Access: acc, Reason: why}
	}
	return nil
}

// meshWhy says why the device cannot draw with a mesh pipeline (with a
// task stage when task), naming what is missing as queried, and the
// stage that lacks it; "" where it can.
func (k *kit) meshWhy(task bool) (stage, string) {
	hasTask, mesh := k.hooks.MeshShaders()
	if mesh && (hasTask || !task) {
		return stMesh, ""
	}
	st := stMesh
	if mesh {
		st = stTask
	}
	name := k.dev.Info().Name
	have := deviceExtensionSet(k.dev)["VK_EXT_mesh_shader"]
	want := vk.StageMeshShaderEXT
	feature := "meshShader"
	if st == stTask {
		want, feature = vk.StageTaskShaderEXT, "taskShader"
	}
	switch {
	case !have:
		return st, fmt.Sprintf("%s lacks VK_EXT_mesh_shader (queried): the device cannot run %s shaders", name, stageNames[st])
	case k.hooks.ReplayStagesAsked()&want == 0:
		return st, fmt.Sprintf("%s has VK_EXT_mesh_shader, but the device was opened without %s in vulkan.Config.ReplayStages (replay.Stages(graph) gives them), so it is not enabled", name, want)
	}
	return st, fmt.Sprintf("%s has VK_EXT_mesh_shader without the %s feature (queried): the device cannot run %s shaders", name, feature, stageNames[st])
}

// meshKey puts w's task and mesh parts into a mesh pipeline's key.
func meshKey(key *gfxKey, w *work, quiet bool) {
	for i, st := range []stage{stMesh, stTask} {
		if w.parts[st] == nil {
			continue
		}
		key.mesh |= 1 << i
		key.mmask[i] = w.parts[st].masks()
		if quiet {
			key.mmask[i] = w.quiet[st]
		}
	}
}

// meshShaders are a mesh pipeline's task and mesh stages (free releases
// their specialization data after pipeline creation).
func (k *kit) meshShaders(key gfxKey) ([]vkg.PipelineShaderStageCreateInfo, func()) {
	var out []vkg.PipelineShaderStageCreateInfo
	var frees []func()
	for i, st := range []stage{stMesh, stTask} {
		if key.mesh&(1<<i) == 0 {
			continue
		}
		spec, free := specialization(key.mmask[i])
		frees = append(frees, free)
		name := "task.spv"
		if st == stMesh {
			name = "mesh.spv"
			if key.mesh&2 != 0 {
				name = "mesh_t.spv"
			}
		}
		flags, _ := meshStageFlags(st)
		name, _ = fmtlessGfxModule(variant(name, needsExtra(key.mmask[i], true)), key.mmask[i]) // fmtless.go
		out = append(out, vkg.PipelineShaderStageCreateInfo{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageFlagBits(flags),
			Module: k.modules[name], PName: "main\x00", PSpecializationInfo: spec})
	}
	return out, func() {
		for _, f := range frees {
			f()
		}
	}
}

// drawMesh records a pass's full-screen draw of a mesh command.
func (m *mode) drawMesh(cb vkg.CommandBuffer, w *work, ps *pass) error {
	k, g := m.r.k, m.r.g
	quiet := quietDraw(w, ps, true) // gfxwrite.go
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
	pc := [7]uint32{ps.width, ps.width * ps.height, ps.own[0], ps.own[1], ps.own[2], ps.own[3], ps.own[4]} // replay.frag, selfrace.go
	vkg.CmdPushConstants(cb, k.meshLay, vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit), 0, 28, unsafe.Pointer(&pc[0]))
	t, mg := meshGroups(w)
	if t == 0 {
		t = mg
	}
	k.hooks.Extras().DrawMeshTasks(unsafe.Pointer(cb), t, 1, 1)
	return nil
}

// meshChainQuirk: layer 1.3.239 reports a layout transition whose barrier
// chains from a task or mesh shader stage (its source stage is the stage
// the earlier barrier made the write visible to) as a write-after-write
// against that write, which its own message lists as visible only to task
// or mesh stages (write_barriers): it does not chain execution
// dependencies through those stages (measured with lavapipe 25.0.7: the
// same frame with the read in the vertex stage draws no message). Nor
// does it check the descriptor accesses of vkCmdDrawMeshTasksEXT at all
// (a barrier to the wrong stage before a mesh read raises nothing), so
// the mesh tests' negative controls are digest controls (mesh_test.go).
func meshChainQuirk(m vulkan.Message) bool {
	wb, ok := transitionWriteBarriers(m)
	if !ok {
		return false
	}
	for _, b := range strings.Split(wb, "|") {
		if !strings.HasPrefix(b, "SYNC_MESH_SHADER_EXT_") && !strings.HasPrefix(b, "SYNC_TASK_SHADER_EXT_") && !strings.HasPrefix(b, "SYNC_FRAGMENT_SHADER_") {
			return false
		}
	}
	return strings.Contains(wb, "SYNC_MESH_SHADER_EXT_") || strings.Contains(wb, "SYNC_TASK_SHADER_EXT_")
}

// transitionWriteBarriers is the write_barriers list of a layout
// transition's write-after-write report (false for any other message).
func transitionWriteBarriers(m vulkan.Message) (string, bool) {
	if !strings.HasPrefix(m.ID, "SYNC-HAZARD-WRITE-AFTER-WRITE") || !strings.Contains(m.Text, "(usage: SYNC_IMAGE_LAYOUT_TRANSITION,") {
		return "", false
	}
	i := strings.Index(m.Text, "write_barriers: ")
	if i < 0 {
		return "", false
	}
	wb := m.Text[i+len("write_barriers: "):]
	if j := strings.IndexAny(wb, ",)"); j >= 0 {
		wb = wb[:j]
	}
	return wb, true
}
