package vulkan

import (
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// The ACCELERATION_STRUCTURE_COPY stage (VK_PIPELINE_STAGE_2_ACCELERATION_
// STRUCTURE_COPY_BIT_KHR) that plans name for acceleration-structure
// copies is VK_KHR_ray_tracing_maintenance1's. vkCmdCopyAccelerationStructureKHR's
// accesses "must be synchronized with the ACCELERATION_STRUCTURE_COPY
// pipeline stage or the ACCELERATION_STRUCTURE_BUILD pipeline stage"
// (without the extension: BUILD only), so:
//
//   - opened without the extension (a device that lacks it), a barrier's
//     AS_COPY stage is recorded as ACCELERATION_STRUCTURE_BUILD, where
//     the copy runs: the same dependency, and no stage bit the device
//     does not know;
//   - opened with it (Config.ReplayStages naming acceleration-structure
//     stages, on a device that has it and its rayTracingMaintenance1
//     feature), a scope with AS_COPY and acceleration-structure access
//     gets ACCELERATION_STRUCTURE_BUILD added (AS_COPY stays): valid by
//     the spec either way, and layer 1.3.239 (whose VUID-...-03927/03928
//     tables predate Vulkan-Docs PR #1997, which added AS_COPY to them)
//     accepts the access only with BUILD in the mask. A superset of
//     stages: never less synchronization than the plan's.

// noRTM1 keeps VK_KHR_ray_tracing_maintenance1 disabled (tests of the
// fallback on a device that has it: SetRTMaintenance1ForTest).
var noRTM1 bool

// SetRTMaintenance1ForTest makes later Opens leave
// VK_KHR_ray_tracing_maintenance1 disabled (off = true) or enable it where
// the device has it (off = false, the default), so that the fallback
// above can be tested on a device that has the extension. Not for
// concurrent use with Open.
func SetRTMaintenance1ForTest(off bool) { noRTM1 = off }

// asCopyStages applies the rule above to s's barriers.
func (d *Device) asCopyStages(s *vkext.Barriers) {
	const copyStage, build = uint64(avk.StageAccelerationStructureCopy), uint64(avk.StageAccelerationStructureBuild)
	const asAccess = uint64(avk.AccessAccelerationStructureRead | avk.AccessAccelerationStructureWrite)
	fix := func(sc *vkext.Scope) {
		for _, x := range []struct {
			st     *uint64
			access uint64
		}{{&sc.SrcStages, sc.SrcAccess}, {&sc.DstStages, sc.DstAccess}} {
			switch {
			case *x.st&copyStage == 0:
			case !d.extras.rtm1:
				*x.st = *x.st&^copyStage | build
			case x.access&asAccess != 0:
				*x.st |= build
			}
		}
	}
	for i := range s.Memory {
		fix(&s.Memory[i])
	}
	for i := range s.Buffer {
		fix(&s.Buffer[i].Scope)
	}
	for i := range s.Image {
		fix(&s.Image[i].Scope)
	}
}

// RTMaintenance1 says whether the device was opened with
// VK_KHR_ray_tracing_maintenance1 (the ACCELERATION_STRUCTURE_COPY
// stage); without it, barriers naming that stage are recorded with
// ACCELERATION_STRUCTURE_BUILD (replay_rtm1.go).
func (h ReplayHooks) RTMaintenance1() bool { return h.d.extras.rtm1 }

// MeshIndirectCount says whether VK_KHR_draw_indirect_count was enabled
// with VK_EXT_mesh_shader (vkCmdDrawMeshTasksIndirectCountEXT).
func (h ReplayHooks) MeshIndirectCount() bool { return h.d.extras.meshCount }
