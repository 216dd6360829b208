package vulkan

import (
	"fmt"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
)

// Held is device memory held across frames: the allocations an
// aliasplan.Frames keeps (FramePlan.Held), by their stable IDs. A frame's
// Resources binds into them (BindHeld) and never frees them; Held frees
// an allocation when the plan says so (PoolFree) or at Close.
//
// The renderer's loop, K frames in flight (FrameOptions.InFlight):
//
//	wait frame N-K's fence; close its Resources (its objects, not the memory)
//	fp := frames.Plan(graph)
//	for _, h := range fp.Held: PoolNew → held.Allocate; PoolFree → held.Free
//	res := dev.NewResources(&graph.Graph); res.BindHeld(fp.Plan, held.Pools(ids))
//	res.Record(cb, work)  // the entry barrier first, then every command
//	submit cb with frame N's fence, no semaphore between frames
//
// A Held is not safe for concurrent use.
type Held struct {
	dev *Device
	ids []int
	mem []vk.DeviceMemory
}

// NewHeld returns an empty Held on d.
func (d *Device) NewHeld() *Held { return &Held{dev: d} }

// Allocate allocates allocation id: size bytes of memory type typeIndex.
// An id already held is an error.
func (h *Held) Allocate(id int, typeIndex uint32, size uint64) error {
	if h.index(id) >= 0 {
		return fmt.Errorf("vulkan: held allocation %d is already allocated", id)
	}
	if int(typeIndex) >= len(h.dev.types) {
		return fmt.Errorf("vulkan: held allocation %d: memory type %d; the device has %d", id, typeIndex, len(h.dev.types))
	}
	head, free := addressChain(h.dev.deviceAddresses(), nil) // address.go
	info := vk.MemoryAllocateInfo{SType: vk.StructureTypeMemoryAllocateInfo, PNext: head, AllocationSize: vk.DeviceSize(size), MemoryTypeIndex: typeIndex}
	var m vk.DeviceMemory
	ret := vk.AllocateMemory(h.dev.device, &info, nil, &m)
	info.Free()
	free()
	if err := check("vkAllocateMemory", ret); err != nil {
		return fmt.Errorf("vulkan: held allocation %d (%d bytes of memory type %d): %w", id, size, typeIndex, err)
	}
	h.dev.live.Memory++
	h.ids, h.mem = append(h.ids, id), append(h.mem, m)
	return nil
}

// Free frees allocation id (no-op when not held). The GPU must be done
// with it: every frame that used it has retired.
func (h *Held) Free(id int) {
	k := h.index(id)
	if k < 0 {
		return
	}
	vk.FreeMemory(h.dev.device, h.mem[k], nil)
	h.dev.live.Memory--
	h.ids = append(h.ids[:k], h.ids[k+1:]...)
	h.mem = append(h.mem[:k], h.mem[k+1:]...)
}

// Memory returns allocation id's memory, NullDeviceMemory when not held.
func (h *Held) Memory(id int) vk.DeviceMemory {
	if k := h.index(id); k >= 0 {
		return h.mem[k]
	}
	return vk.NullDeviceMemory
}

// Len returns how many allocations are held.
func (h *Held) Len() int { return len(h.ids) }

// Close frees every held allocation.
func (h *Held) Close() {
	for len(h.ids) > 0 {
		h.Free(h.ids[len(h.ids)-1])
	}
}

func (h *Held) index(id int) int {
	for k, x := range h.ids {
		if x == id {
			return k
		}
	}
	return -1
}

// BindHeld is Bind into memory the caller holds: plan pool i is bound
// into memory[i] (an allocation at least Pools[i].Size bytes of its
// memory type, e.g. Held.Memory of FramePlan.Held[FramePlan.PoolOf[i]].ID),
// which Destroy and Close leave allocated. Everything else is Bind's:
// the objects are created for this frame (Vulkan binds an object once, so
// a frame's objects are new; they are destroyed with Close once the frame
// has retired), dedicated and host-visible resources get their own
// memory, and Record records the plan's entry barrier before the first
// command.
func (r *Resources) BindHeld(plan *planner.Plan, memory []vk.DeviceMemory) error {
	if r.bound {
		return &BindError{Step: "validate", Rule: RulePlan, Detail: "this Resources is already bound"}
	}
	if len(memory) != len(plan.Pools) {
		return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("%d held allocations for %d plan pools", len(memory), len(plan.Pools))}
	}
	for i, m := range memory {
		if m == vk.NullDeviceMemory {
			return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("plan pool %d has no held allocation", i)}
		}
	}
	r.held = memory
	return r.Bind(plan)
}

// borrowPool gives plan pool i its held memory instead of an allocation.
func (r *Resources) borrowPool(i int, plan *planner.Plan) error {
	if i >= len(r.held) || r.held[i] == vk.NullDeviceMemory {
		return &BindError{Step: fmt.Sprintf("allocate pool %d", i), Rule: RulePlan, Detail: fmt.Sprintf("no held allocation for pool %d of %d bytes", i, plan.Pools[i].Size)}
	}
	r.pools[i].memory, r.pools[i].borrowed = r.held[i], true
	return nil
}
