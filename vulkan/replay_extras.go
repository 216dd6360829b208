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
)

// asStages are the stages whose frames need acceleration structures and
// ray queries.
const asStages = avk.StageAccelerationStructureBuild | avk.StageAccelerationStructureCopy

// replayExtras is what Config.ReplayStages asked for and what Open
// enabled of it.
type replayExtras struct {
	stages     avk.Stage
	task, mesh bool // VK_EXT_mesh_shader's taskShader, meshShader enabled
	as         bool // VK_KHR_acceleration_structure, VK_KHR_ray_query, bufferDeviceAddress enabled
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
		}
	}
	if x.stages&asStages != 0 {
		if have := deviceExtensions(d.physical); have[extAS] && have[extRayQuery] && have[extDeferred] {
			as, rq, bda := d.ext.RaySupport(unsafe.Pointer(d.physical))
			if !(as && rq && bda) {
				return out
			}
			x.as = true
			out = append(out, extAS+"\x00", extRayQuery+"\x00", extDeferred+"\x00")
		}
	}
	return out
}

// extraChain puts the chosen extensions' feature structures before next.
func (d *Device) extraChain(next unsafe.Pointer) vkext.Chain {
	return vkext.ExtraChain(next, d.extras.features())
}

func (x *replayExtras) features() vkext.ExtraFeatures {
	return vkext.ExtraFeatures{Task: x.task, Mesh: x.mesh, AS: x.as}
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
// VK_KHR_acceleration_structure, VK_KHR_ray_query and bufferDeviceAddress
// enabled (Config.ReplayStages naming acceleration-structure build or copy
// stages, on a device that has them).
func (h ReplayHooks) RayQueries() bool { return h.d.extras.as }

// RaySupport reports what the device has of what RayQueries needs: the
// extensions (acceleration structure, ray query, deferred host
// operations) and, where it has them all, the features
// (accelerationStructure, rayQuery, bufferDeviceAddress), as queried.
func (h ReplayHooks) RaySupport() (exts map[string]bool, as, rq, bda bool) {
	have := deviceExtensions(h.d.physical)
	exts = map[string]bool{extAS: have[extAS], extRayQuery: have[extRayQuery], extDeferred: have[extDeferred]}
	if have[extAS] && have[extRayQuery] && have[extDeferred] {
		as, rq, bda = h.d.ext.RaySupport(unsafe.Pointer(h.d.physical))
	}
	return exts, as, rq, bda
}
