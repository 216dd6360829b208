package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// MeshReplayKinds are the kinds of use that need a device extension
// (VK_EXT_mesh_shader; vulkan/replay/mesh.go): not in ReplayKinds, whose
// frames every Vulkan 1.3 device replays (CI's lavapipe 22.3.6 has no
// mesh shaders). MeshReplayFrame draws from them; the replay tests run
// those frames where the device has the extension.
var MeshReplayKinds = []string{
	"mesh",         // mesh shader reads (storage, sampled) beside fragment reads, colour and depth attachments
	"task-mesh",    // a task stage reading and writing a buffer, the mesh stage reading an image it launches
	"mesh-storage", // attachment-less mesh draws writing storage buffers and images, read by compute
	"mesh-extra",   // a mesh command that also reads an indirect and an index buffer (their own vertex-pipeline draws)
	"mesh-vertex",  // one command with mesh and vertex or geometry shader work, each side writing its own buffer (two writing draws)
	// storage reads of formats without a format-qualified array in a task
	// or mesh shader (shaderStorageImageReadWithoutFormat; session 13)
	"mesh-formatless",
}

// MeshReplayFrame is ReplayFrame's counterpart for MeshReplayKinds: a
// sink buffer, then kind seed mod len(MeshReplayKinds) and one more at
// random, a few commands each (extents 8 to 32).
func MeshReplayFrame(seed uint64) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0x3c6ef372fe94f82b))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(MeshReplayKinds))), rng.IntN(len(MeshReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, MeshReplayKinds[k])
		b.first = true
		b.meshKind(MeshReplayKinds[k])
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

func (b *rgen) meshKind(k string) {
	s := b.size()
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	ms, ts := vk.StageMeshShaderEXT, vk.StageTaskShaderEXT
	switch k {
	case "mesh":
		meshlets := b.buffer("meshlets", uint64(256*(1+b.rng.IntN(8))), 0)
		tex := b.image("albedo", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, MipLevels: 2, Usage: colorUsage})
		b.cmd("scene.upload", b.storageWrite(meshlets), b.storageWrite(tex))
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		dep := b.image("depth", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: s, Height: s, Usage: depthUsage})
		b.cmd("meshlets.draw", planner.Access{Resource: meshlets, Stages: ms | fs, Access: vk.AccessShaderStorageRead},
			sampled(tex, ms, vk.LayoutShaderReadOnlyOptimal), colorWrite(col), depthWrite(dep, vk.LayoutDepthAttachmentOptimal))
		b.toSink("mesh.read", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal), sampled(dep, cs, vk.LayoutShaderReadOnlyOptimal))
	case "task-mesh":
		in := b.buffer("instances", uint64(256*(1+b.rng.IntN(8))), 0)
		vis := b.buffer("visible", uint64(256*(1+b.rng.IntN(4))), 0)
		hz := b.image("hiz", planner.ImageDesc{Format: vk.FormatR32Sfloat, Width: s, Height: s, Usage: colorUsage})
		b.cmd("cull.prepare", b.storageWrite(in), b.storageWrite(hz))
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, Usage: colorUsage})
		b.cmd("amplified.draw", planner.Access{Resource: in, Stages: ts, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: vis, Stages: ts, Access: vk.AccessShaderStorageWrite},
			sampled(hz, ms, vk.LayoutShaderReadOnlyOptimal), colorWrite(col))
		b.toSink("task.read", planner.Access{Resource: vis, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "mesh-storage":
		src := b.buffer("src", uint64(256*(1+b.rng.IntN(8))), 0)
		b.cmd("src.write", b.storageWrite(src))
		out := b.buffer("mesh-out", uint64(256*(1+b.rng.IntN(8))), 0)
		img := b.image("mesh-img", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("mesh.scatter", planner.Access{Resource: src, Stages: ms, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: out, Stages: ms, Access: vk.AccessShaderStorageWrite},
			planner.Access{Resource: img, Stages: ms, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		b.toSink("scatter.read", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(img, cs, vk.LayoutShaderReadOnlyOptimal))
	case "mesh-extra":
		ind := b.buffer("args", 64, vk.BufferUsageIndirectBuffer)
		idx := b.g.AddBuffer(b.prefix+"indices", planner.BufferDesc{Size: uint64(12 * (1 + b.rng.IntN(16))), Usage: vk.BufferUsageIndexBuffer | vk.BufferUsageStorageBuffer})
		b.cmd("args.write", b.storageWrite(ind), b.storageWrite(idx))
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("mixed.draw", planner.Access{Resource: ind, Stages: vk.StageDrawIndirect, Access: vk.AccessIndirectCommandRead},
			planner.Access{Resource: idx, Stages: vk.StageIndexInput | ms, Access: vk.AccessIndexRead | vk.AccessShaderStorageRead}, colorWrite(col))
		b.toSink("mixed.read", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "mesh-vertex":
		a := b.buffer("mesh-side", uint64(256*(1+b.rng.IntN(8))), 0)
		v := b.buffer("vertex-side", uint64(256*(1+b.rng.IntN(8))), 0)
		b.cmd("sides.write", b.storageWrite(a), b.storageWrite(v))
		vs := []vk.Stage{vk.StageVertexShader, vk.StageGeometryShader}[b.rng.IntN(2)]
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("both.draw", planner.Access{Resource: a, Stages: ms, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite},
			planner.Access{Resource: v, Stages: vs, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}, colorWrite(col))
		b.toSink("both.read", planner.Access{Resource: a, Stages: cs, Access: vk.AccessShaderStorageRead},
			planner.Access{Resource: v, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "mesh-formatless":
		st := []vk.Stage{ms, ts}[b.rng.IntN(2)]
		reads := b.formatlessImages("nf", s, 2, st)
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("nf.draw", append(reads, colorWrite(col))...)
		b.toSink("nf.read", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	default:
		panic("proptest: unknown mesh replay kind " + k)
	}
}

// RayReplayKinds are the kinds of use that need acceleration structures
// and ray queries (VK_KHR_acceleration_structure, VK_KHR_ray_query;
// vulkan/replay/raytrace.go); RayReplayFrame draws from them.
var RayReplayKinds = []string{
	"tlas",       // a top-level build (over the replay's own triangles) traced by a compute pass that also writes a buffer
	"blas-tlas",  // bottom-level builds instanced by a top-level build, traced
	"as-copy",    // a structure copied into another, both traced
	"as-input",   // compute-written buffers a build reads as vertex data (SHADER_READ or ACCELERATION_STRUCTURE_READ), into a top level or a bottom level it instances, traced
	"as-scratch", // top-level builds (one over a graph bottom level or the replay's own) whose scratch is a transient graph buffer (one shared by two builds, or one each), which a later transient may take
	"as-update",  // a bottom level refitted in place or updated into another (mode UPDATE), instanced by a top level (refitted in place in half the frames), traced
}

// IndirectBuildReplayKinds are the kinds of use that need
// accelerationStructureIndirectBuild (vkCmdBuildAccelerationStructuresIndirectKHR;
// vulkan/replay/asindirect.go), kept apart from RayReplayKinds: no device
// measured has the feature (lavapipe 25.0.7 and NVIDIA's drivers lack
// it), and RayReplayFrame's frames replay on lavapipe 25.
// IndirectBuildReplayFrame draws from them.
var IndirectBuildReplayKinds = []string{
	"as-indirect",        // a bottom-level build whose range a compute shader wrote (INDIRECT_COMMAND_READ in the build stage), instanced by a traced top level
	"as-indirect-shared", // one command's two bottom-level builds read one range buffer, both instanced
}

// IndirectBuildReplayFrame is RayReplayFrame for IndirectBuildReplayKinds.
func IndirectBuildReplayFrame(seed uint64, trace vk.Stage) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0x1f83d9abfb41bd6b))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(IndirectBuildReplayKinds))), rng.IntN(len(IndirectBuildReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, IndirectBuildReplayKinds[k])
		b.first = true
		b.rayKind(IndirectBuildReplayKinds[k], trace)
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

// RayReplayFrame is MeshReplayFrame for RayReplayKinds; traces are in
// stage trace (COMPUTE_SHADER: ray queries, RAY_TRACING_SHADER: a ray
// tracing pipeline).
func RayReplayFrame(seed uint64, trace vk.Stage) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0xa54ff53a5f1d36f1))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(RayReplayKinds))), rng.IntN(len(RayReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, RayReplayKinds[k])
		b.first = true
		b.rayKind(RayReplayKinds[k], trace)
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

func (b *rgen) rayKind(k string, cs vk.Stage) {
	build, copyStage := vk.StageAccelerationStructureBuild, vk.StageAccelerationStructureCopy
	asr, asw := vk.AccessAccelerationStructureRead, vk.AccessAccelerationStructureWrite
	as := func(name string) planner.ResourceID {
		return b.g.AddBuffer(b.prefix+name, planner.BufferDesc{Size: uint64(65536 * (1 + b.rng.IntN(2))), Usage: vk.BufferUsageAccelerationStructureStorage})
	}
	trace := func(r planner.ResourceID) planner.Access { return planner.Access{Resource: r, Stages: cs, Access: asr} }
	switch k {
	case "tlas":
		t := as("tlas")
		b.cmd("tlas.build", planner.Access{Resource: t, Stages: build, Access: asw})
		b.toSink("tlas.trace", trace(t))
	case "blas-tlas":
		t := as("tlas")
		var reads []planner.Access
		for i := 0; i < 1+b.rng.IntN(3); i++ {
			bl := as(fmt.Sprintf("blas%d", i))
			b.cmd(fmt.Sprintf("blas%d.build", i), planner.Access{Resource: bl, Stages: build, Access: asw})
			reads = append(reads, planner.Access{Resource: bl, Stages: build, Access: asr})
		}
		b.cmd("tlas.build", append(reads, planner.Access{Resource: t, Stages: build, Access: asw})...)
		b.toSink("tlas.trace", trace(t))
	case "as-copy":
		t, c := as("tlas"), as("copy")
		b.cmd("tlas.build", planner.Access{Resource: t, Stages: build, Access: asw})
		b.cmd("tlas.copy", planner.Access{Resource: t, Stages: copyStage, Access: asr}, planner.Access{Resource: c, Stages: copyStage, Access: asw})
		b.toSink("copies.trace", trace(t), trace(c))
	case "as-input":
		usage := vk.BufferUsageShaderDeviceAddress | vk.BufferUsageAccelerationStructureBuildInputReadOnly
		var writes, reads []planner.Access
		for i := 0; i < 1+b.rng.IntN(3); i++ {
			in := b.buffer(fmt.Sprintf("verts%d", i), uint64(24*(1+b.rng.IntN(400))), usage)
			writes = append(writes, b.storageWrite(in))
			acc := []vk.AccessFlags{vk.AccessShaderRead, asr}[b.rng.IntN(2)]
			reads = append(reads, planner.Access{Resource: in, Stages: build, Access: acc})
		}
		b.cmd("verts.write", writes...)
		t := as("tlas")
		if b.rng.IntN(2) == 0 {
			// The inputs in a bottom level the top level instances.
			bl := as("blas")
			b.cmd("blas.build", append(reads, planner.Access{Resource: bl, Stages: build, Access: asw})...)
			reads = []planner.Access{{Resource: bl, Stages: build, Access: asr}}
		}
		b.cmd("tlas.build", append(reads, planner.Access{Resource: t, Stages: build, Access: asw})...)
		b.toSink("tlas.trace", trace(t))
	case "as-indirect", "as-indirect-shared":
		rg := b.buffer("range", uint64(16*(1+b.rng.IntN(4))), vk.BufferUsageIndirectBuffer|vk.BufferUsageShaderDeviceAddress)
		b.cmd("range.write", b.storageWrite(rg))
		n := 1
		if k == "as-indirect-shared" {
			n = 2
		}
		builds := []planner.Access{{Resource: rg, Stages: build, Access: vk.AccessIndirectCommandRead}}
		var reads []planner.Access
		for i := 0; i < n; i++ {
			bl := as(fmt.Sprintf("blas%d", i))
			builds = append(builds, planner.Access{Resource: bl, Stages: build, Access: asw})
			reads = append(reads, planner.Access{Resource: bl, Stages: build, Access: asr})
		}
		b.cmd("blas.build", builds...)
		t := as("tlas")
		b.cmd("tlas.build", append(reads, planner.Access{Resource: t, Stages: build, Access: asw})...)
		b.toSink("tlas.trace", trace(t))
	case "as-scratch":
		usage := vk.BufferUsageStorageBuffer | vk.BufferUsageShaderDeviceAddress
		size := uint64(1<<20) * uint64(1+b.rng.IntN(2))
		scratch := func(r planner.ResourceID) planner.Access {
			return planner.Access{Resource: r, Stages: build, Access: asr | asw}
		}
		s1 := b.buffer("scratch", size, usage)
		s2 := s1
		if b.rng.IntN(2) == 0 {
			s2 = b.buffer("scratch2", size, usage)
		}
		// Two top levels, the first over a graph bottom level built with
		// the same scratch in half the frames (else over the replay's own):
		// the trace reads it through the top level (the planner's implied
		// read), so post must not take its memory before the trace.
		t1, t2 := as("tlas1"), as("tlas2")
		build1 := []planner.Access{{Resource: t1, Stages: build, Access: asw}, scratch(s1)}
		if b.rng.IntN(2) == 0 {
			bl := as("blas")
			b.cmd("blas.build", planner.Access{Resource: bl, Stages: build, Access: asw}, scratch(s1))
			build1 = append(build1, planner.Access{Resource: bl, Stages: build, Access: asr})
		}
		b.cmd("tlas1.build", build1...)
		b.cmd("tlas2.build", planner.Access{Resource: t2, Stages: build, Access: asw}, scratch(s2))
		b.toSink("tlas.trace", trace(t1), trace(t2))
		// After the trace (through the sink), a transient that can take
		// the scratch's memory.
		post := b.buffer("post", size, vk.BufferUsageStorageBuffer)
		b.cmd("post.write", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}, b.storageWrite(post))
		b.cmd("post.read", planner.Access{Resource: post, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	case "as-update":
		bl := as("blas")
		b.cmd("blas.build", planner.Access{Resource: bl, Stages: build, Access: asw})
		out := bl
		if b.rng.IntN(2) == 0 {
			b.cmd("blas.refit", planner.Access{Resource: bl, Stages: build, Access: asr | asw})
		} else {
			out = as("blas.updated")
			b.cmd("blas.update", planner.Access{Resource: bl, Stages: build, Access: asr}, planner.Access{Resource: out, Stages: build, Access: asw})
		}
		t := as("tlas")
		b.cmd("tlas.build", planner.Access{Resource: t, Stages: build, Access: asw}, planner.Access{Resource: out, Stages: build, Access: asr})
		if b.rng.IntN(2) == 0 {
			b.cmd("tlas.refit", planner.Access{Resource: t, Stages: build, Access: asr | asw}, planner.Access{Resource: out, Stages: build, Access: asr})
		}
		b.toSink("tlas.trace", trace(t))
	default:
		panic("proptest: unknown ray replay kind " + k)
	}
}
