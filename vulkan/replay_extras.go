package vulkan

import (
	"fmt"
	"unsafe"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Extensions the replay enables only where a frame needs them
// (Config.ReplayStages) and the device has them.
const extMeshShader = "VK_EXT_mesh_shader"

// replayExtras is what Config.ReplayStages asked for and what Open
// enabled of it.
type replayExtras struct {
	stages     avk.Stage
	task, mesh bool // VK_EXT_mesh_shader's taskShader, meshShader enabled
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
	return out
}

// extraChain puts the chosen extensions' feature structures before next.
func (d *Device) extraChain(next unsafe.Pointer) vkext.Chain {
	return vkext.ExtraChain(next, d.extras.task, d.extras.mesh)
}

func (d *Device) loadExtras() error {
	fns, err := d.ext.LoadExtras(unsafe.Pointer(d.device), d.extras.mesh)
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
