package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// RayShaderReplayKinds are the kinds of storage, uniform and sampled use
// in the RAY_TRACING_SHADER stage (VK_KHR_ray_tracing_pipeline; the ray
// generation part of vulkan/replay/raygen.go). RayShaderReplayFrame draws
// from them; the replay tests run those frames where the device has the
// ray tracing pipeline.
var RayShaderReplayKinds = []string{
	"rt-storage",    // a ray tracing command reading a storage buffer, writing a buffer and a storage image, read by compute
	"rt-sampled",    // sampled image and uniform buffer reads in the ray tracing stage, a buffer written
	"rt-chain",      // two ray tracing commands, the second reading (and rewriting) what the first wrote
	"rt-beside",     // one command with compute and ray tracing work on resources of their own, and fragment reads
	"rt-and-trace",  // a top-level build, then one command that traces it and writes a buffer in the ray tracing stage
	"rt-formatless", // storage reads of formats without a format-qualified array in the ray tracing stage (shaderStorageImageReadWithoutFormat; session 13)
}

// RayShaderReplayFrame is MeshReplayFrame for RayShaderReplayKinds.
func RayShaderReplayFrame(seed uint64) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(RayShaderReplayKinds))), rng.IntN(len(RayShaderReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, RayShaderReplayKinds[k])
		b.first = true
		b.rayShaderKind(RayShaderReplayKinds[k])
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

func (b *rgen) rayShaderKind(k string) {
	s := b.size()
	cs, fs, rts := vk.StageComputeShader, vk.StageFragmentShader, vk.StageRayTracingShader
	sr, sw := vk.AccessShaderStorageRead, vk.AccessShaderStorageWrite
	words := func(n int) uint64 { return uint64(256 * (1 + b.rng.IntN(n))) }
	if k == "rt-formatless" {
		reads := b.formatlessImages("nf", s, 2, rts)
		out := b.buffer("nf-out", words(4), 0)
		b.cmd("nf.trace", append(reads, planner.Access{Resource: out, Stages: rts, Access: sw})...)
		b.toSink("nf.read", planner.Access{Resource: out, Stages: cs, Access: sr})
		return
	}
	switch k {
	case "rt-storage":
		src := b.buffer("rays", words(8), 0)
		b.cmd("rays.write", b.storageWrite(src))
		out := b.buffer("hits", words(8), 0)
		img := b.image("shadow", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("rays.trace", planner.Access{Resource: src, Stages: rts, Access: sr}, planner.Access{Resource: out, Stages: rts, Access: sw},
			planner.Access{Resource: img, Stages: rts, Access: sw, Layout: vk.LayoutGeneral})
		b.toSink("hits.read", planner.Access{Resource: out, Stages: cs, Access: sr}, sampled(img, cs, vk.LayoutShaderReadOnlyOptimal))
	case "rt-sampled":
		tex := b.image("env", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, MipLevels: 2, Usage: colorUsage})
		ub := b.buffer("camera", 1024, vk.BufferUsageUniformBuffer)
		b.cmd("env.write", b.storageWrite(tex), b.storageWrite(ub))
		out := b.buffer("radiance", words(4), 0)
		b.cmd("env.trace", sampled(tex, rts, vk.LayoutShaderReadOnlyOptimal), planner.Access{Resource: ub, Stages: rts, Access: vk.AccessUniformRead},
			planner.Access{Resource: out, Stages: rts, Access: sw})
		b.toSink("radiance.read", planner.Access{Resource: out, Stages: cs, Access: sr})
	case "rt-chain":
		a := b.buffer("first", words(8), 0)
		c := b.buffer("second", words(8), 0)
		b.cmd("first.trace", planner.Access{Resource: a, Stages: rts, Access: sw})
		b.cmd("second.trace", planner.Access{Resource: a, Stages: rts, Access: sr | sw}, planner.Access{Resource: c, Stages: rts, Access: sw})
		b.toSink("chain.read", planner.Access{Resource: a, Stages: cs, Access: sr}, planner.Access{Resource: c, Stages: cs, Access: sr})
	case "rt-beside":
		in := b.buffer("shared-in", words(4), 0)
		rc := b.buffer("rt-side", words(4), 0)
		b.cmd("in.write", b.storageWrite(in), b.storageWrite(rc))
		cc := b.buffer("compute-side", words(4), 0)
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("beside.run", planner.Access{Resource: in, Stages: rts | cs | fs, Access: sr}, planner.Access{Resource: rc, Stages: rts, Access: sr | sw},
			planner.Access{Resource: cc, Stages: cs, Access: sw}, colorWrite(col))
		b.toSink("beside.read", planner.Access{Resource: rc, Stages: cs, Access: sr}, planner.Access{Resource: cc, Stages: cs, Access: sr},
			sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "rt-and-trace":
		t := b.g.AddBuffer(b.prefix+"tlas", planner.BufferDesc{Size: 65536, Usage: vk.BufferUsageAccelerationStructureStorage})
		b.cmd("tlas.build", planner.Access{Resource: t, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureWrite})
		out := b.buffer("visibility", words(4), 0)
		b.cmd("tlas.trace", planner.Access{Resource: t, Stages: rts, Access: vk.AccessAccelerationStructureRead}, planner.Access{Resource: out, Stages: rts, Access: sw})
		b.toSink("visibility.read", planner.Access{Resource: out, Stages: cs, Access: sr})
	default:
		panic("proptest: unknown ray shader replay kind " + k)
	}
}
