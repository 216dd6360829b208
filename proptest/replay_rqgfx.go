package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// GfxRayReplayKinds are the kinds of use with ray queries in graphics
// shader stages (ACCELERATION_STRUCTURE_READ of a top-level structure in
// a vertex, tessellation, geometry, fragment, task or mesh stage;
// VK_KHR_ray_query, vulkan/replay/rqgfx.go); GfxRayReplayFrame draws
// from them.
var GfxRayReplayKinds = []string{
	"vertex-rq",   // a draw whose vertex stage traces a top-level structure and reads a storage buffer
	"fragment-rq", // a draw whose fragment stage traces a structure over bottom-level builds, with sampled reads and depth
	"prerast-rq",  // a tessellation control, tessellation evaluation or geometry stage traces a structure
	"multi-rq",    // two structures traced by one draw: one in vertex and fragment stages, one in the fragment stage, the draw writing a buffer
	"mesh-rq",     // a task or mesh stage (or both) traces a structure, beside vertex-stage storage reads (VK_EXT_mesh_shader too; session 13)
}

// GfxRayReplayFrame is RayReplayFrame for GfxRayReplayKinds: a sink
// buffer, then kind seed mod len(GfxRayReplayKinds) and one more at
// random.
func GfxRayReplayFrame(seed uint64) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(GfxRayReplayKinds))), rng.IntN(len(GfxRayReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, GfxRayReplayKinds[k])
		b.first = true
		b.gfxRayKind(GfxRayReplayKinds[k])
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

func (b *rgen) gfxRayKind(k string) {
	s := b.size()
	build := vk.StageAccelerationStructureBuild
	asr, asw := vk.AccessAccelerationStructureRead, vk.AccessAccelerationStructureWrite
	cs, vs, fs := vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader
	as := func(name string) planner.ResourceID {
		return b.g.AddBuffer(b.prefix+name, planner.BufferDesc{Size: uint64(65536 * (1 + b.rng.IntN(2))), Usage: vk.BufferUsageAccelerationStructureStorage})
	}
	tlas := func(name string) planner.ResourceID {
		t := as(name)
		b.cmd(name+".build", planner.Access{Resource: t, Stages: build, Access: asw})
		return t
	}
	trace := func(r planner.ResourceID, st vk.Stage) planner.Access {
		return planner.Access{Resource: r, Stages: st, Access: asr}
	}
	col := func() planner.ResourceID {
		return b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	}
	switch k {
	case "vertex-rq":
		t := tlas("tlas")
		verts := b.buffer("verts", uint64(256*(1+b.rng.IntN(8))), 0)
		b.cmd("verts.write", b.storageWrite(verts))
		c := col()
		b.cmd("rq.draw", trace(t, vs), planner.Access{Resource: verts, Stages: vs, Access: vk.AccessShaderStorageRead}, colorWrite(c))
		b.toSink("rq.read", sampled(c, cs, vk.LayoutShaderReadOnlyOptimal))
	case "fragment-rq":
		t := as("tlas")
		var reads []planner.Access
		for i := 0; i < 1+b.rng.IntN(2); i++ {
			bl := as(fmt.Sprintf("blas%d", i))
			b.cmd(fmt.Sprintf("blas%d.build", i), planner.Access{Resource: bl, Stages: build, Access: asw})
			reads = append(reads, planner.Access{Resource: bl, Stages: build, Access: asr})
		}
		b.cmd("tlas.build", append(reads, planner.Access{Resource: t, Stages: build, Access: asw})...)
		tex := b.image("albedo", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("albedo.write", b.storageWrite(tex))
		c := col()
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
		b.cmd("shadow.draw", trace(t, fs), sampled(tex, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(c), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.toSink("shadow.read", sampled(c, cs, vk.LayoutShaderReadOnlyOptimal), sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal))
	case "prerast-rq":
		t := tlas("tlas")
		st := []vk.Stage{vk.StageTessellationControlShader, vk.StageTessellationEvaluationShader, vk.StageGeometryShader}[b.rng.IntN(3)]
		c := col()
		b.cmd("prerast.draw", trace(t, st), colorWrite(c))
		b.toSink("prerast.read", sampled(c, cs, vk.LayoutShaderReadOnlyOptimal))
	case "multi-rq":
		t, u := tlas("tlas"), tlas("tlas2")
		out := b.buffer("hits", uint64(256*(1+b.rng.IntN(4))), 0)
		b.cmd("multi.draw", trace(t, vs|fs), trace(u, fs), planner.Access{Resource: out, Stages: fs, Access: vk.AccessShaderStorageWrite})
		b.toSink("multi.read", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead})
	case "mesh-rq":
		t := tlas("tlas")
		st := []vk.Stage{vk.StageTaskShaderEXT, vk.StageMeshShaderEXT, vk.StageTaskShaderEXT | vk.StageMeshShaderEXT}[b.rng.IntN(3)]
		verts := b.buffer("verts", uint64(256*(1+b.rng.IntN(8))), 0)
		b.cmd("verts.write", b.storageWrite(verts))
		c := col()
		b.cmd("mesh.draw", trace(t, st), planner.Access{Resource: verts, Stages: vs, Access: vk.AccessShaderStorageRead}, colorWrite(c))
		b.toSink("mesh.read", sampled(c, cs, vk.LayoutShaderReadOnlyOptimal))
	default:
		panic("proptest: unknown graphics ray-query replay kind " + k)
	}
}
