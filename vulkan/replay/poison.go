package replay

import (
	"os"

	vk "github.com/goki/vulkan"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// The pool poison (issue 21, session 10). A read of bytes that no
// command of the frame wrote sees whatever the memory held: in the
// aliased run the previous occupant's bytes, in the unaliased run fresh
// memory, which some drivers zero (lavapipe) and others need not. Such a
// read makes the digests differ on one device and agree on another, so a
// replay defect (a transfer that leaves part of its destination unwritten,
// like a driver's resolve into a 3D image that skips slices) showed only
// on the H200. Before every run (Compare, RunPlan, CompareQueues) the
// replay fills every pool of the bound plan with a 32-bit pattern of that
// run (vkCmdFillBuffer through buffers of its own bound over the pool's
// memory, in a submission of its own, waited for), different from run to
// run: any read of memory no command wrote then differs between runs, on
// every device. ALIASPLAN_REPLAY_POISON=0 turns it off.
//
// Only pools are poisoned: the resources in memory of their own
// (dedicated and host-visible placements) cannot share it with a buffer
// (VkMemoryDedicatedAllocateInfo), and imported resources get the
// replay's initial contents before every run anyway. A pool whose memory
// type a transfer-destination buffer cannot use stays unpoisoned
// (poisonBufs skips it).

// poisonDefault is whether New's replayers poison pools.
var poisonDefault = os.Getenv("ALIASPLAN_REPLAY_POISON") != "0"

// poisonChunk bounds each poison buffer (under every device's
// maxBufferSize, a multiple of any buffer alignment).
const poisonChunk = 256 << 20

// poisonBufs makes m's poison buffers: for every allocated pool of the
// bound plan, buffers over its whole memory in chunks.
func (m *mode) poisonBufs() error {
	k := m.r.k
	m.poisoned = true
	for i, pool := range m.plan.Pools {
		mem := m.res.PoolMemory(i)
		if mem == vk.NullDeviceMemory {
			continue
		}
		for off := uint64(0); off < pool.Size; off += poisonChunk {
			size := min(poisonChunk, pool.Size-off) &^ 3
			if size == 0 {
				break
			}
			info := vk.BufferCreateInfo{SType: vk.StructureTypeBufferCreateInfo, Size: vk.DeviceSize(size), Usage: vk.BufferUsageFlags(vk.BufferUsageTransferDstBit)}
			info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
			var b vk.Buffer
			r := vk.CreateBuffer(k.vd, &info, nil, &b)
			info.Free()
			if err := vkCheck("vkCreateBuffer (poison)", r); err != nil {
				return err
			}
			var req vk.MemoryRequirements
			vk.GetBufferMemoryRequirements(k.vd, b, &req)
			req.Deref()
			if req.MemoryTypeBits&(1<<pool.MemoryTypeIndex) == 0 || off+uint64(req.Size) > pool.Size || off%uint64(req.Alignment) != 0 {
				vk.DestroyBuffer(k.vd, b, nil)
				m.unpoisoned += pool.Size - off
				break
			}
			if err := vkCheck("vkBindBufferMemory (poison)", vk.BindBufferMemory(k.vd, b, mem, vk.DeviceSize(off))); err != nil {
				vk.DestroyBuffer(k.vd, b, nil)
				return err
			}
			m.poison = append(m.poison, b)
		}
	}
	return nil
}

// closePoison destroys m's poison buffers.
func (m *mode) closePoison() {
	for _, b := range m.poison {
		vk.DestroyBuffer(m.r.k.vd, b, nil)
	}
	m.poison, m.poisoned = nil, false
}

// poisonPools fills m's pools with the next run's pattern, in a
// submission of its own on the graphics queue, waited for.
func (r *Replayer) poisonPools(m *mode) error {
	if !r.poison {
		return nil
	}
	if !m.poisoned {
		if err := m.poisonBufs(); err != nil {
			return err
		}
	}
	if len(m.poison) == 0 {
		return nil
	}
	r.poisonRun++
	pat := poisonPattern(r.poisonRun)
	return r.k.dev.Run(func(cb vk.CommandBuffer) error {
		r.k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryRead | avk.AccessMemoryWrite),
			DstStages: uint64(avk.StageAllTransfer), DstAccess: uint64(avk.AccessTransferWrite)}}})
		for _, b := range m.poison {
			vk.CmdFillBuffer(cb, b, 0, vk.DeviceSize(vk.WholeSize), pat)
		}
		r.k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllTransfer), SrcAccess: uint64(avk.AccessTransferWrite),
			DstStages: uint64(avk.StageAllCommands), DstAccess: uint64(avk.AccessMemoryRead | avk.AccessMemoryWrite)}}})
		return nil
	})
}

// poisonPattern is run n's 32-bit pattern, never 0: a bijective mix of n
// (0xdeadbeef stands in for 0), so consecutive runs never share one.
func poisonPattern(n uint64) uint32 {
	x := uint32(n) * 0x9e3779b1
	x ^= x >> 15
	x *= 0x85ebca77
	x ^= x >> 13
	if x == 0 {
		x = 0xdeadbeef
	}
	return x
}
