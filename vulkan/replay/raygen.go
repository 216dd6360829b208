package replay

import (
	"fmt"
	"strings"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Storage, uniform and sampled accesses in the RAY_TRACING_SHADER stage
// (VK_KHR_ray_tracing_pipeline). A command's such accesses are its ray
// generation part (stRayGen): a ray tracing pipeline whose ray generation
// shader (replay_slots.rgen: rgen_slots.spv) performs them with the slot
// machinery every other stage uses (common.glsl: the same descriptor
// arrays as the mesh stage, plus the storage-format reads; every read
// hashed into the digest, every written word a hash of what the element's
// invocation read). vkCmdTraceRaysKHR launches one invocation per element
// of the part's largest slot (at most rayGenMaxLaunch; invocation i then
// covers elements i, i+launches, ...), after the command's
// acceleration-structure work and before its compute dispatch and draws
// (with no barrier between: selfrace.go refuses one writing what another
// touches), in the command's place in the frame: the plan's barriers
// naming RAY_TRACING_SHADER order it like any other work. The variant
// with the write arrays and rarer reads is rgen_slots_x.spv (EXTRA, as
// for the graphics stages), rgen_slots_nf.spv with the format-less read
// arrays (fmtless.go). Its lanes are its own (a part), its descriptor set the kit's
// stRayGen layout (set 0 of a one-set pipeline layout), specialised by
// its masks like a compute pipeline; the pipeline's miss and hit groups
// and its shader binding table come from raytrace.go (rtPipelineSBT),
// one table per specialised pipeline. The shader traces no ray: an
// acceleration-structure read in the stage is raytrace.go's trace, by
// replay.rgen, into lanes of its own (stRayTrace).
//
// The device must have VK_KHR_ray_tracing_pipeline with its
// rayTracingPipeline feature, and be opened with RAY_TRACING_SHADER in
// vulkan.Config.ReplayStages (Stages(g) gives it); otherwise the frame is
// refused naming what is missing (rayGenDevice).

// stRayGen is the ray generation part's stage (after raytrace.go's).
const stRayGen = stRayTrace + 1

const (
	shaderStageRaygen = vkg.ShaderStageFlags(0x100) // VK_SHADER_STAGE_RAYGEN_BIT_KHR
	rayGenMaxLaunch   = 1 << 16
)

func init() { stageNames[stRayGen] = "ray generation" }

// rgPipeline is one specialised ray generation pipeline and its table.
type rgPipeline struct {
	pipe vkg.Pipeline
	sbt  [3]vkext.Region
}

// rayGenLaunches is the launch width of pt's trace: one invocation per
// element of its largest slot, at most rayGenMaxLaunch (the stride of
// replay_slots.rgen's elements).
func rayGenLaunches(pt *part) uint32 {
	return uint32(max(1, min(pt.maxCount(), rayGenMaxLaunch)))
}

func hasRayGen(ws []work) bool {
	for i := range ws {
		if ws[i].parts[stRayGen] != nil {
			return true
		}
	}
	return false
}

// rayGenStageOn says whether the kit makes stage st's descriptor set
// layout: the ray generation stage's only where the device enabled the
// ray tracing pipeline.
func (k *kit) rayGenStageOn(st stage) bool {
	if st != stRayGen {
		return true
	}
	_, _, rtp := k.hooks.RayQueries()
	return rtp
}

// rayGenDevice refuses a frame with ray generation work the device cannot
// run (or was not opened for), naming what is missing.
func (k *kit) rayGenDevice(g *p.Graph, ws []work) error {
	if _, _, rtp := k.hooks.RayQueries(); rtp {
		return nil
	}
	for i := range ws {
		w := &ws[i]
		pt := w.parts[stRayGen]
		if pt == nil {
			continue
		}
		cmd := &g.Commands[w.cmd]
		res, acc := "", "ray generation stage"
		if len(pt.slots) > 0 {
			res, acc = g.Resources[pt.slots[0].res].Name, describe(g, findAccess(cmd, pt.slots[0].res))
		}
		name := k.dev.Info().Name
		exts, _, _, frtp, _ := k.hooks.RaySupport()
		var why string
		switch {
		case !exts["VK_KHR_ray_tracing_pipeline"]:
			why = fmt.Sprintf("%s lacks VK_KHR_ray_tracing_pipeline (queried): the device cannot run ray tracing shaders (ray-related extensions: %s)", name, rayExts(exts))
		case !frtp:
			why = fmt.Sprintf("%s has VK_KHR_ray_tracing_pipeline without its rayTracingPipeline feature (queried): the device cannot run ray tracing shaders", name)
		case k.hooks.ReplayStagesAsked()&vk.StageRayTracingShader == 0:
			why = fmt.Sprintf("%s has VK_KHR_ray_tracing_pipeline, but the device was opened without RAY_TRACING_SHADER in vulkan.Config.ReplayStages (replay.Stages(graph) gives it), so it is not enabled", name)
		default:
			why = fmt.Sprintf("%s has VK_KHR_ray_tracing_pipeline, but it was not enabled (its dependencies VK_KHR_acceleration_structure, bufferDeviceAddress: %s)", name, rayExts(exts))
		}
		return &UnsupportedError{Command: cmd.Name, Resource: res, Access: acc, Reason: why}
	}
	return nil
}

// rayGenPipeline returns the ray generation pipeline specialised for m.
func (k *kit) rayGenPipeline(m specMasks) (rgPipeline, error) {
	rk := k.rt
	if rp, ok := rk.rgPipes[m]; ok {
		return rp, nil
	}
	consts := make([]uint32, len(m))
	copy(consts, m[:])
	name, _ := fmtlessGfxModule(variant("rgen_slots.spv", needsExtra(m, true)), m) // fmtless.go
	pl, sbt, err := k.rtPipelineSBT(rk.rgLay, k.modules[name], consts)
	if pl == vkg.NullPipeline {
		return rgPipeline{}, err
	}
	if rk.rgPipes == nil {
		rk.rgPipes = map[specMasks]rgPipeline{}
	}
	rp := rgPipeline{pipe: pl, sbt: sbt}
	rk.rgPipes[m] = rp // destroyed by closeRT, even after an error
	return rp, err
}

// recordRayGen records w's ray generation trace.
func (m *mode) recordRayGen(cb vkg.CommandBuffer, w *work) error {
	pt := w.parts[stRayGen]
	if pt == nil {
		return nil
	}
	k := m.r.k
	rp, err := k.rayGenPipeline(pt.masks())
	if err != nil {
		return err
	}
	vkg.CmdBindPipeline(cb, vkg.PipelineBindPointRayTracing, rp.pipe)
	vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointRayTracing, k.rt.rgLay, 0, 1, []vkg.DescriptorSet{m.sets[w.cmd][stRayGen]}, 0, nil)
	k.rt.fns.CmdTraceRays(unsafe.Pointer(cb), rp.sbt[0], rp.sbt[1], rp.sbt[2], rayGenLaunches(pt))
	return nil
}

// rtChainQuirk is meshChainQuirk for the ray tracing stage: layer 1.3.239
// reports a layout transition whose barrier chains from
// RAY_TRACING_SHADER (the stage the earlier barrier made the write
// visible to) as a write-after-write against that write, whose
// write_barriers list RAY_TRACING_SHADER accesses only. Measured on
// lavapipe 25.0.7 (TestRayGenChainQuirk): a compute-written storage image
// read in one stage, then an image aliased over it whose alias barrier's
// source stage is that stage, draws two such reports when the stage is
// RAY_TRACING_SHADER and none when it is the vertex, fragment or compute
// stage; by the spec the chain orders the write before the transition.
func rtChainQuirk(m vulkan.Message) bool {
	wb, ok := transitionWriteBarriers(m) // mesh.go
	if !ok {
		return false
	}
	for _, b := range strings.Split(wb, "|") {
		if !strings.HasPrefix(b, "SYNC_RAY_TRACING_SHADER_") {
			return false
		}
	}
	return true
}
