package vulkan

import (
	"fmt"
	"slices"
	"strings"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
)

// QueueInfo says which device queue runs a plan's logical queue
// (planner.Queue).
type QueueInfo struct {
	Family uint32 // queue family index
	Index  uint32 // queue index within the family
	// Dedicated: the family has no graphics (an async-compute family for
	// compute). Shared: this logical queue runs on the very VkQueue of
	// another (the device had no better one, e.g. lavapipe's single
	// queue): its submissions still run in order with their semaphores,
	// but nothing overlaps.
	Dedicated, Shared bool
	// Note says why, where the choice fell back.
	Note string
}

// QueueOf returns the VkQueue that runs logical queue q.
func (d *Device) QueueOf(q planner.Queue) vk.Queue { return d.queues[q].queue }

// Queues describes the queue choice for every logical queue.
func (d *Device) Queues() [planner.NumQueues]QueueInfo { return d.info.Queues }

// Family is the queue family index of logical queue q.
func (d *Device) Family(q planner.Queue) uint32 { return d.info.Queues[q].Family }

// QueueSummary is one line describing the queue choice, for reports:
// "graphics 0.0, compute 2.0 (dedicated), transfer 2.1 (dedicated)".
func (d *Device) QueueSummary() string {
	var parts []string
	for q := planner.Queue(0); q < planner.NumQueues; q++ {
		qi := d.info.Queues[q]
		s := fmt.Sprintf("%s %d.%d", q, qi.Family, qi.Index)
		switch {
		case qi.Shared:
			s += " (shared: " + qi.Note + ")"
		case qi.Dedicated:
			s += " (dedicated)"
		case qi.Note != "":
			s += " (" + qi.Note + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// familyProps is what the queue choice reads of a family.
type familyProps struct {
	Flags      vk.QueueFlags
	Count      uint32
	Timestamps uint32 // timestampValidBits
}

func familyProperties(pd vk.PhysicalDevice) []familyProps {
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nil)
	props := make([]vk.QueueFamilyProperties, n)
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, props)
	out := make([]familyProps, n)
	for i := range props[:n] {
		props[i].Deref()
		out[i] = familyProps{Flags: props[i].QueueFlags, Count: props[i].QueueCount, Timestamps: props[i].TimestampValidBits}
	}
	return out
}

// chooseQueues maps the logical queues onto the device's families, the
// graphics queue being (graphics, 0):
//   - compute: queue 0 of the first family with compute and without
//     graphics (async compute); else another queue of the graphics family;
//     else the graphics queue itself (Shared).
//   - transfer: the next free queue of the compute queue's family when it
//     is such a dedicated family; else another queue of the graphics
//     family; else the compute queue (Shared). Transfer-only families
//     (copy engines) are not used: the replay's transfer commands may
//     clear images, which needs graphics or compute.
//
// counts[f] is how many queues to create of family f.
func chooseQueues(fams []familyProps, graphics uint32) (qs [planner.NumQueues]QueueInfo, counts map[uint32]uint32) {
	counts = map[uint32]uint32{graphics: 1}
	take := func(f uint32) (uint32, bool) {
		if counts[f] < fams[f].Count {
			counts[f]++
			return counts[f] - 1, true
		}
		return 0, false
	}
	qs[planner.QueueGraphics] = QueueInfo{Family: graphics}
	dedicated := -1
	for f, p := range fams {
		if uint32(f) != graphics && p.Count > 0 && p.Flags&vk.QueueFlags(vk.QueueComputeBit) != 0 && p.Flags&vk.QueueFlags(vk.QueueGraphicsBit) == 0 && p.Timestamps > 0 {
			dedicated = f
			break
		}
	}
	if dedicated >= 0 {
		i, _ := take(uint32(dedicated))
		qs[planner.QueueCompute] = QueueInfo{Family: uint32(dedicated), Index: i, Dedicated: true}
	} else if i, ok := take(graphics); ok {
		qs[planner.QueueCompute] = QueueInfo{Family: graphics, Index: i, Note: "no compute-only family: a second queue of the graphics family"}
	} else {
		qs[planner.QueueCompute] = QueueInfo{Family: graphics, Shared: true, Note: "the device has one queue: compute runs on the graphics queue"}
	}
	c := qs[planner.QueueCompute]
	switch {
	case c.Dedicated:
		if i, ok := take(c.Family); ok {
			qs[planner.QueueTransfer] = QueueInfo{Family: c.Family, Index: i, Dedicated: true}
		} else {
			qs[planner.QueueTransfer] = QueueInfo{Family: c.Family, Index: c.Index, Dedicated: true, Shared: true, Note: "the compute family has one queue: transfer runs on the compute queue"}
		}
	default:
		if i, ok := take(graphics); ok {
			qs[planner.QueueTransfer] = QueueInfo{Family: graphics, Index: i, Note: "no compute-only family: another queue of the graphics family"}
		} else {
			qs[planner.QueueTransfer] = QueueInfo{Family: c.Family, Index: c.Index, Shared: true, Note: "the device has one queue: transfer runs on the graphics queue"}
		}
	}
	return qs, counts
}

// queueCreateInfos lists one VkDeviceQueueCreateInfo per family counts
// names, in family order.
func queueCreateInfos(counts map[uint32]uint32) []vk.DeviceQueueCreateInfo {
	fams := make([]uint32, 0, len(counts))
	for f := range counts {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	out := make([]vk.DeviceQueueCreateInfo, 0, len(fams))
	for _, f := range fams {
		prio := make([]float32, counts[f])
		for i := range prio {
			prio[i] = 1
		}
		out = append(out, vk.DeviceQueueCreateInfo{SType: vk.StructureTypeDeviceQueueCreateInfo, QueueFamilyIndex: f, QueueCount: counts[f], PQueuePriorities: prio})
	}
	return out
}

// deviceQueue is one logical queue's VkQueue.
type deviceQueue struct {
	queue vk.Queue
}

// createQueues fetches every logical queue's VkQueue and makes one
// command pool per family beyond the graphics one (d.pool).
func (d *Device) createQueues() error {
	d.pools = map[uint32]vk.CommandPool{d.info.QueueFamily: d.pool}
	for q := range d.info.Queues {
		qi := d.info.Queues[q]
		var h vk.Queue
		vk.GetDeviceQueue(d.device, qi.Family, qi.Index, &h)
		d.queues[q] = deviceQueue{queue: h}
		if _, ok := d.pools[qi.Family]; ok {
			continue
		}
		pinfo := vk.CommandPoolCreateInfo{
			SType:            vk.StructureTypeCommandPoolCreateInfo,
			Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateTransientBit | vk.CommandPoolCreateResetCommandBufferBit),
			QueueFamilyIndex: qi.Family,
		}
		var pool vk.CommandPool
		r := vk.CreateCommandPool(d.device, &pinfo, nil, &pool)
		pinfo.Free()
		if err := check("vkCreateCommandPool", r); err != nil {
			return err
		}
		d.pools[qi.Family] = pool
	}
	return nil
}

// destroyQueuePools destroys the command pools createQueues made (not
// d.pool).
func (d *Device) destroyQueuePools() {
	for f, p := range d.pools {
		if f != d.info.QueueFamily && p != vk.NullCommandPool {
			vk.DestroyCommandPool(d.device, p, nil)
		}
	}
	d.pools = nil
}

// CommandPool returns the command pool of logical queue q's family
// (reset-able, transient command buffers).
func (d *Device) CommandPool(q planner.Queue) vk.CommandPool {
	if p, ok := d.pools[d.info.Queues[q].Family]; ok {
		return p
	}
	return d.pool
}

// Families lists the distinct queue families the logical queues use, in
// order (for VK_SHARING_MODE_CONCURRENT).
func (d *Device) Families() []uint32 {
	var out []uint32
	for _, qi := range d.info.Queues {
		if !slices.Contains(out, qi.Family) {
			out = append(out, qi.Family)
		}
	}
	slices.Sort(out)
	return out
}
