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
// enabled: VK_EXT_mesh_shader, VK_KHR_acceleration_structure with
// VK_KHR_ray_query and buffer device addresses.
type Extras struct {
	fns    C.apExtrasFns
	device C.apHandle
}

// ExtraFeatures are the extension features to enable.
type ExtraFeatures struct {
	Task, Mesh bool // VK_EXT_mesh_shader taskShader, meshShader
	// AS: VK_KHR_acceleration_structure's accelerationStructure and
	// bufferDeviceAddress (core 1.2); RQ: VK_KHR_ray_query's rayQuery;
	// RTP: VK_KHR_ray_tracing_pipeline's rayTracingPipeline.
	AS, RQ, RTP bool
	// RTM1: VK_KHR_ray_tracing_maintenance1's rayTracingMaintenance1 (the
	// ACCELERATION_STRUCTURE_COPY stage).
	RTM1 bool
	// MeshCount: vkCmdDrawMeshTasksIndirectCountEXT (VK_KHR_draw_indirect_count
	// enabled with Mesh).
	MeshCount bool
	// ASIndirect: VK_KHR_acceleration_structure's
	// accelerationStructureIndirectBuild (with AS):
	// vkCmdBuildAccelerationStructuresIndirectKHR.
	ASIndirect bool
}

func (f ExtraFeatures) flags() C.uint32_t {
	var x C.uint32_t
	if f.Task {
		x |= C.apExtraTask
	}
	if f.Mesh {
		x |= C.apExtraMesh
	}
	if f.AS {
		x |= C.apExtraAS
	}
	if f.RQ {
		x |= C.apExtraRQ
	}
	if f.RTP {
		x |= C.apExtraRTP
	}
	if f.RTM1 {
		x |= C.apExtraRTM1
	}
	if f.MeshCount {
		x |= C.apExtraMeshCount
	}
	if f.ASIndirect {
		x |= C.apExtraASIndirect
	}
	return x
}

// MeshSupport reports the taskShader and meshShader features of
// VK_EXT_mesh_shader (false, false on a device without the extension).
func (in *Instance) MeshSupport(physical unsafe.Pointer) (task, mesh bool) {
	var t, m C.apBool32
	C.apMeshSupport(&in.fns, C.apHandle(physical), &t, &m)
	return t != 0, m != 0
}

// RaySupport reports accelerationStructure, rayQuery,
// rayTracingPipeline and bufferDeviceAddress, querying only the
// extensions has names (the device has them).
func (in *Instance) RaySupport(physical unsafe.Pointer, has ExtraFeatures) (as, rq, rtp, bda bool) {
	var a, q, r, b C.apBool32
	C.apRaySupport(&in.fns, C.apHandle(physical), has.flags(), &a, &q, &r, &b)
	return a != 0, q != 0, r != 0, b != 0
}

// ASIndirectSupport reports accelerationStructureIndirectBuild (ask only
// a device that has VK_KHR_acceleration_structure).
func (in *Instance) ASIndirectSupport(physical unsafe.Pointer) bool {
	return C.apASIndirectSupport(&in.fns, C.apHandle(physical)) != 0
}

// RTMaintenance1Support reports rayTracingMaintenance1 (ask only a device
// that has VK_KHR_ray_tracing_maintenance1).
func (in *Instance) RTMaintenance1Support(physical unsafe.Pointer) bool {
	return C.apRTMaintenance1Support(&in.fns, C.apHandle(physical)) != 0
}

// RTProperties are shaderGroupHandleSize, shaderGroupHandleAlignment and
// shaderGroupBaseAlignment.
func (in *Instance) RTProperties(physical unsafe.Pointer) (size, align, base uint32) {
	var s, a, b C.uint32_t
	C.apRTProperties(&in.fns, C.apHandle(physical), &s, &a, &b)
	return uint32(s), uint32(a), uint32(b)
}

// CreateRTPipeline is vkCreateRayTracingPipelinesKHR of a raygen, a miss
// and a triangle closest-hit shader (groups 0, 1, 2); the raygen shader's
// specialization constants 0, 1, ... take the values of consts (none when
// empty; at most 64).
func (e *Extras) CreateRTPipeline(layout, rgen, rmiss, rchit unsafe.Pointer, consts []uint32) (unsafe.Pointer, int32) {
	var pl C.apHandle
	var cp *C.uint32_t
	if len(consts) > 0 {
		cp = (*C.uint32_t)(C.malloc(C.size_t(4 * len(consts))))
		defer C.free(unsafe.Pointer(cp))
		copy(unsafe.Slice((*uint32)(unsafe.Pointer(cp)), len(consts)), consts)
	}
	r := C.apCreateRTPipeline(&e.fns, e.device, C.apHandle(layout), C.apHandle(rgen), C.apHandle(rmiss), C.apHandle(rchit), cp, C.uint32_t(len(consts)), &pl)
	return unsafe.Pointer(pl), int32(r)
}

// GroupHandles is vkGetRayTracingShaderGroupHandlesKHR of n groups.
func (e *Extras) GroupHandles(pipe unsafe.Pointer, n, size uint32) ([]byte, int32) {
	buf := C.malloc(C.size_t(size))
	defer C.free(buf)
	r := C.apGroupHandles(&e.fns, e.device, C.apHandle(pipe), C.uint32_t(n), C.size_t(size), buf)
	return C.GoBytes(buf, C.int(size)), int32(r)
}

// Region is a VkStridedDeviceAddressRegionKHR.
type Region struct{ Address, Stride, Size uint64 }

// CmdTraceRays records vkCmdTraceRaysKHR(w, 1, 1) with no callable table.
func (e *Extras) CmdTraceRays(cmd unsafe.Pointer, rgen, miss, hit Region, w uint32) {
	c := func(r Region) C.apStridedDeviceAddressRegion {
		return C.apStridedDeviceAddressRegion{deviceAddress: C.uint64_t(r.Address), stride: C.uint64_t(r.Stride), size: C.uint64_t(r.Size)}
	}
	a, b, h := c(rgen), c(miss), c(hit)
	C.apCmdTraceRays(&e.fns, C.apHandle(cmd), &a, &b, &h, C.uint32_t(w))
}

// ExtraChain puts the feature structures of f before next (a
// VkDeviceCreateInfo.pNext chain). Free it after vkCreateDevice; next is
// not freed with it.
func ExtraChain(next unsafe.Pointer, f ExtraFeatures) Chain {
	var head unsafe.Pointer
	alloc := C.apNewExtraChain(next, f.flags(), &head)
	return Chain{alloc: alloc, head: head}
}

// LoadExtras resolves the entry points of the enabled extensions.
func (in *Instance) LoadExtras(device unsafe.Pointer, f ExtraFeatures) (*Extras, error) {
	e := &Extras{device: C.apHandle(device)}
	var missing *C.char
	if C.apLoadExtras(&in.fns, C.apHandle(device), f.flags(), &e.fns, &missing) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no " + C.GoString(missing))
	}
	return e, nil
}

// DrawMeshTasks records vkCmdDrawMeshTasksEXT.
func (e *Extras) DrawMeshTasks(cmd unsafe.Pointer, x, y, z uint32) {
	C.apDrawMeshTasks(&e.fns, C.apHandle(cmd), C.uint32_t(x), C.uint32_t(y), C.uint32_t(z))
}

// DrawMeshTasksIndirectCount records vkCmdDrawMeshTasksIndirectCountEXT:
// min(maxDraws, the count at countBuffer+countOffset) draws whose
// arguments are at buffer+offset, stride bytes apart.
func (e *Extras) DrawMeshTasksIndirectCount(cmd, buffer unsafe.Pointer, offset uint64, countBuffer unsafe.Pointer, countOffset uint64, maxDraws, stride uint32) {
	C.apDrawMeshTasksIndirectCount(&e.fns, C.apHandle(cmd), C.apHandle(buffer), C.uint64_t(offset), C.apHandle(countBuffer), C.uint64_t(countOffset),
		C.uint32_t(maxDraws), C.uint32_t(stride))
}

// BufferAddress is vkGetBufferDeviceAddress.
func (e *Extras) BufferAddress(buffer unsafe.Pointer) uint64 {
	return uint64(C.apBufferAddress(&e.fns, e.device, C.apHandle(buffer)))
}

// ASSizes is vkGetAccelerationStructureBuildSizesKHR for a bottom-level
// structure of count opaque triangles, or (top) a top-level one of count
// instances: the structure's size and its build scratch.
func (e *Extras) ASSizes(top bool, count uint32) (size, scratch uint64) {
	var s, sc C.uint64_t
	C.apASSizes(&e.fns, e.device, cbool(top), C.uint32_t(count), &s, &sc)
	return uint64(s), uint64(sc)
}

// CreateAS is vkCreateAccelerationStructureKHR on buffer at offset.
func (e *Extras) CreateAS(buffer unsafe.Pointer, offset, size uint64, top bool) (unsafe.Pointer, int32) {
	var as C.apHandle
	r := C.apCreateAS(&e.fns, e.device, C.apHandle(buffer), C.uint64_t(offset), C.uint64_t(size), cbool(top), &as)
	return unsafe.Pointer(as), int32(r)
}

// DestroyAS is vkDestroyAccelerationStructureKHR.
func (e *Extras) DestroyAS(as unsafe.Pointer) { C.apDestroyAS(&e.fns, e.device, C.apHandle(as)) }

// ASAddress is vkGetAccelerationStructureDeviceAddressKHR.
func (e *Extras) ASAddress(as unsafe.Pointer) uint64 {
	return uint64(C.apASAddress(&e.fns, e.device, C.apHandle(as)))
}

// CmdBuildAS records vkCmdBuildAccelerationStructuresKHR of one
// structure: count triangles (R32G32B32_SFLOAT, packed, no index) at the
// device address data, or (top) count VkAccelerationStructureInstanceKHR
// there; scratch is the build's scratch address.
func (e *Extras) CmdBuildAS(cmd, dst unsafe.Pointer, top bool, data uint64, count uint32, scratch uint64) {
	C.apCmdBuildAS(&e.fns, C.apHandle(cmd), C.apHandle(dst), cbool(top), C.uint64_t(data), C.uint32_t(count), C.uint64_t(scratch))
}

// ASSizesUpdatable is ASSizes for a build with ALLOW_UPDATE where
// allowUpdate is set; update is the scratch an update of it needs.
func (e *Extras) ASSizesUpdatable(top bool, count uint32, allowUpdate bool) (size, scratch, update uint64) {
	var s, sc, u C.uint64_t
	C.apASSizesUpdatable(&e.fns, e.device, cbool(top), C.uint32_t(count), cbool(allowUpdate), &s, &sc, &u)
	return uint64(s), uint64(sc), uint64(u)
}

// CmdUpdateAS is CmdBuildAS with ALLOW_UPDATE where allowUpdate is set,
// or, where src is not nil, an update (VK_BUILD_ACCELERATION_STRUCTURE_
// MODE_UPDATE_KHR) of src into dst (src itself for an in-place update)
// from the same count of triangles or instances at data.
func (e *Extras) CmdUpdateAS(cmd, src, dst unsafe.Pointer, top bool, data uint64, count uint32, scratch uint64, allowUpdate bool) {
	C.apCmdUpdateAS(&e.fns, C.apHandle(cmd), C.apHandle(src), C.apHandle(dst), cbool(top), C.uint64_t(data), C.uint32_t(count), C.uint64_t(scratch), cbool(allowUpdate))
}

// CmdBuildASIndirect records CmdBuildAS's bottom-level build of up to
// maxCount triangles at data with vkCmdBuildAccelerationStructuresIndirectKHR,
// its range (VkAccelerationStructureBuildRangeInfoKHR) read at device
// address indirect (a device opened with ExtraFeatures.ASIndirect).
func (e *Extras) CmdBuildASIndirect(cmd, dst unsafe.Pointer, data uint64, maxCount uint32, scratch, indirect uint64) {
	C.apCmdBuildASIndirect(&e.fns, C.apHandle(cmd), C.apHandle(dst), C.uint64_t(data), C.uint32_t(maxCount), C.uint64_t(scratch), C.uint64_t(indirect))
}

// CmdCopyAS records vkCmdCopyAccelerationStructureKHR (CLONE).
func (e *Extras) CmdCopyAS(cmd, src, dst unsafe.Pointer) {
	C.apCmdCopyAS(&e.fns, C.apHandle(cmd), C.apHandle(src), C.apHandle(dst))
}

// ASWrite is a VkWriteDescriptorSetAccelerationStructureKHR naming as
// (at most 8), for VkWriteDescriptorSet.pNext.
func ASWrite(as []unsafe.Pointer) Chain {
	hs := (*C.apHandle)(C.malloc(C.size_t(8 * max(1, len(as)))))
	defer C.free(unsafe.Pointer(hs))
	copy(unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(hs)), len(as)), as)
	p := C.apNewASWrite(hs, C.uint32_t(len(as)))
	return Chain{alloc: p, head: p}
}

// AllocateFlags is VkMemoryAllocateFlagsInfo with
// VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, for VkMemoryAllocateInfo.pNext.
func AllocateFlags() Chain {
	p := C.apNewAllocateFlags()
	return Chain{alloc: p, head: p}
}
