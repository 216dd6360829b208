package vulkan

import (
	"fmt"
	"unsafe"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Extensions the replay enables only where a frame needs them
// (Config.ReplayStages) and the device has them.
const (
	extMeshShader = "VK_EXT_mesh_shader"
	extAS         = "VK_KHR_acceleration_structure"
	extRayQuery   = "VK_KHR_ray_query"
	extDeferred   = "VK_KHR_deferred_host_operations" // VK_KHR_acceleration_structure requires it
	extRTPipeline = "VK_KHR_ray_tracing_pipeline"
	// extRTM1 defines the ACCELERATION_STRUCTURE_COPY stage that plans
	// name for acceleration-structure copies (replay_rtm1.go).
	extRTM1 = "VK_KHR_ray_tracing_maintenance1"
	// extDrawIndirectCount: vkCmdDrawMeshTasksIndirectCountEXT (mesh.go).
	extDrawIndirectCount = "VK_KHR_draw_indirect_count"
)

// asStages are the stages whose frames need acceleration structures and
// ray queries.
const asStages = avk.StageAccelerationStructureBuild | avk.StageAccelerationStructureCopy | avk.StageRayTracingShader

// replayExtras is what Config.ReplayStages asked for and what Open
// enabled of it.
type replayExtras struct {
	stages     avk.Stage
	task, mesh bool // VK_EXT_mesh_shader's taskShader, meshShader enabled
	as         bool // VK_KHR_acceleration_structure (with deferred host operations) and bufferDeviceAddress enabled
	rq, rtp    bool // VK_KHR_ray_query, VK_KHR_ray_tracing_pipeline enabled (with as)
	rtm1       bool // VK_KHR_ray_tracing_maintenance1 enabled (with as)
	meshCount  bool // VK_KHR_draw_indirect_count enabled (with mesh)
	asIndirect bool // accelerationStructureIndirectBuild enabled (with as; raytrace.go's indirect builds)
	fsr        bool // VK_KHR_fragment_shading_rate enabled (replay_fsr.go)
	fns        *vkext.Extras
}

// chooseExtras decides which extensions to enable (createDevice appends
// the names it returns).
func (d *Device) chooseExtras() []string {
	var out []string
	x := &d.extras
	if x.stages&(avk.StageTaskShaderEXT|avk.StageMeshShaderEXT) != 0 && deviceExtensions(d.physical)[extMeshShader] {
		task, mesh := d.ext.MeshSupport(unsafe.Pointer(d.physical))
		if mesh {
			x.mesh = true
			x.task = task && x.stages&avk.StageTaskShaderEXT != 0
			out = append(out, extMeshShader+"\x00")
			if deviceExtensions(d.physical)[extDrawIndirectCount] {
				x.meshCount = true
				out = append(out, extDrawIndirectCount+"\x00")
			}
		}
	}
	if x.stages&asStages != 0 {
		have := deviceExtensions(d.physical)
		if have[extAS] && have[extDeferred] {
			q := vkext.ExtraFeatures{AS: true, RQ: have[extRayQuery], RTP: have[extRTPipeline]}
			as, rq, rtp, bda := d.ext.RaySupport(unsafe.Pointer(d.physical), q)
			if as && bda {
				x.as = true
				out = append(out, extAS+"\x00", extDeferred+"\x00")
				if rq && q.RQ {
					x.rq = true
					out = append(out, extRayQuery+"\x00")
				}
				if rtp && q.RTP {
					x.rtp = true
					out = append(out, extRTPipeline+"\x00")
				}
				if d.ext.ASIndirectSupport(unsafe.Pointer(d.physical)) {
					x.asIndirect = true
				}
				if have[extRTM1] && !noRTM1 && d.ext.RTMaintenance1Support(unsafe.Pointer(d.physical)) {
					x.rtm1 = true
					out = append(out, extRTM1+"\x00")
				}
			}
		}
	}
	return out
}

// extraChain puts the chosen extensions' feature structures before next.
func (d *Device) extraChain(next unsafe.Pointer) vkext.Chain {
	return vkext.ExtraChain(next, d.extras.features())
}

func (x *replayExtras) features() vkext.ExtraFeatures {
	return vkext.ExtraFeatures{Task: x.task, Mesh: x.mesh, AS: x.as, RQ: x.rq, RTP: x.rtp, RTM1: x.rtm1, MeshCount: x.meshCount, ASIndirect: x.asIndirect}
}

func (d *Device) loadExtras() error {
	fns, err := d.ext.LoadExtras(unsafe.Pointer(d.device), d.extras.features())
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
	}
	d.extras.fns = fns
	return nil
}

// MeshShaders says whether the device was opened with VK_EXT_mesh_shader's
// meshShader (and taskShader) enabled (Config.ReplayStages naming task or
// mesh stages, on a device that has them).
func (h ReplayHooks) MeshShaders() (task, mesh bool) { return h.d.extras.task, h.d.extras.mesh }

// ReplayStagesAsked is Config.ReplayStages as the device was opened with.
func (h ReplayHooks) ReplayStagesAsked() avk.Stage { return h.d.extras.stages }

// Extras are the enabled extensions' entry points.
func (h ReplayHooks) Extras() *vkext.Extras { return h.d.extras.fns }

// RayQueries says whether the device was opened with
// VK_KHR_acceleration_structure and bufferDeviceAddress (as), and of
// VK_KHR_ray_query (rq) and VK_KHR_ray_tracing_pipeline (rtp) those it has
// (Config.ReplayStages naming acceleration-structure or ray tracing
// stages).
func (h ReplayHooks) RayQueries() (as, rq, rtp bool) {
	return h.d.extras.as, h.d.extras.rq, h.d.extras.rtp
}

// ASIndirect says whether the device has accelerationStructureIndirectBuild
// (queried; false without VK_KHR_acceleration_structure) and whether it
// was opened with it enabled (with the acceleration-structure extensions,
// Config.ReplayStages naming their stages).
func (h ReplayHooks) ASIndirect() (has, enabled bool) {
	if deviceExtensions(h.d.physical)[extAS] {
		has = h.d.ext.ASIndirectSupport(unsafe.Pointer(h.d.physical))
	}
	return has, h.d.extras.asIndirect
}

// RaySupport reports what the device has of the ray extensions
// (acceleration structure, deferred host operations, ray query, ray
// tracing pipeline) and their features, as queried (a feature of an
// extension the device lacks reads false).
func (h ReplayHooks) RaySupport() (exts map[string]bool, as, rq, rtp, bda bool) {
	have := deviceExtensions(h.d.physical)
	exts = map[string]bool{}
	for _, e := range []string{extAS, extDeferred, extRayQuery, extRTPipeline} {
		exts[e] = have[e]
	}
	q := vkext.ExtraFeatures{AS: have[extAS], RQ: have[extRayQuery], RTP: have[extRTPipeline]}
	as, rq, rtp, bda = h.d.ext.RaySupport(unsafe.Pointer(h.d.physical), q)
	return exts, as, rq, rtp, bda
}

// RTProperties are the ray tracing pipeline's shaderGroupHandleSize,
// shaderGroupHandleAlignment and shaderGroupBaseAlignment.
func (h ReplayHooks) RTProperties() (size, align, base uint32) {
	return h.d.ext.RTProperties(unsafe.Pointer(h.d.physical))
}
