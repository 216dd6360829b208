package vkext

/*
#include <stdlib.h>
#include "extras.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Extras holds the entry points of the device extensions the replay
// enabled (VK_EXT_mesh_shader).
type Extras struct {
	fns C.apExtrasFns
}

// MeshSupport reports the taskShader and meshShader features of
// VK_EXT_mesh_shader (false, false on a device without the extension).
func (in *Instance) MeshSupport(physical unsafe.Pointer) (task, mesh bool) {
	var t, m C.apBool32
	C.apMeshSupport(&in.fns, C.apHandle(physical), &t, &m)
	return t != 0, m != 0
}

// ExtraChain puts the extension feature structures to enable before next
// (a VkDeviceCreateInfo.pNext chain): meshShader (and taskShader) of
// VK_EXT_mesh_shader when mesh. Free it after vkCreateDevice; next is
// not freed with it.
func ExtraChain(next unsafe.Pointer, task, mesh bool) Chain {
	var head unsafe.Pointer
	alloc := C.apNewExtraChain(next, b32(task), b32(mesh), &head)
	return Chain{alloc: alloc, head: head}
}

func b32(b bool) C.apBool32 {
	if b {
		return 1
	}
	return 0
}

// LoadExtras resolves the entry points of the enabled extensions:
// vkCmdDrawMeshTasksEXT when mesh.
func (in *Instance) LoadExtras(device unsafe.Pointer, mesh bool) (*Extras, error) {
	e := new(Extras)
	m := C.int(0)
	if mesh {
		m = 1
	}
	if C.apLoadExtras(&in.fns, C.apHandle(device), m, &e.fns) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no vkCmdDrawMeshTasksEXT")
	}
	return e, nil
}

// DrawMeshTasks records vkCmdDrawMeshTasksEXT.
func (e *Extras) DrawMeshTasks(cmd unsafe.Pointer, x, y, z uint32) {
	C.apDrawMeshTasks(&e.fns, C.apHandle(cmd), C.uint32_t(x), C.uint32_t(y), C.uint32_t(z))
}
