package vulkan

import (
	"unsafe"

	"github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Memory for buffers with SHADER_DEVICE_ADDRESS usage (acceleration-
// structure build inputs the replay reads through device addresses:
// vulkan/replay/asinput.go). Vulkan binds such a buffer only to memory
// allocated with VkMemoryAllocateFlagsInfo's DEVICE_ADDRESS bit, which
// needs the bufferDeviceAddress feature. On a device opened with it (the
// acceleration-structure replay stages enable it), a plan pool gets the
// bit where one of its members is such a buffer, a resource of its own
// memory where it is one, and every Held allocation (its graph is not
// known). Other memory is allocated as before: the bit is not free on
// every driver (addresses are reserved), and most pools need none.

// deviceAddresses says whether memory may carry DEVICE_ADDRESS.
func (d *Device) deviceAddresses() bool { return d.extras.as || d.dgc.on } // replay_dgc.go too

// addressed says whether res is a buffer read through device addresses.
func addressed(res *planner.Resource) bool {
	return res.Kind == planner.KindBuffer && res.Buffer.Usage&avk.BufferUsageShaderDeviceAddress != 0
}

// addressedPools says, per plan pool, whether it holds a buffer with
// SHADER_DEVICE_ADDRESS usage, on a device that can allocate for it
// (every entry false on one that cannot).
func (r *Resources) addressedPools(plan *planner.Plan) []bool {
	out := make([]bool, len(plan.Pools))
	if !r.dev.deviceAddresses() {
		return out
	}
	for id := range plan.Resources {
		if rp := &plan.Resources[id]; rp.Status == planner.StatusPooled && addressed(&r.g.Resources[id]) {
			out[rp.Placement.Pool] = true
		}
	}
	return out
}

// addressChain puts VkMemoryAllocateFlagsInfo (DEVICE_ADDRESS) before
// next where on is set; the returned chain is to be freed after
// vkAllocateMemory (next is not: its owner frees it).
func addressChain(on bool, next unsafe.Pointer) (head unsafe.Pointer, free func()) {
	if !on {
		return next, func() {}
	}
	c := vkext.AllocateFlagsNext(next)
	return c.Head(), c.Free
}
