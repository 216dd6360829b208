package vkext

/*
#include <stdlib.h>
#include "asinput.h"
*/
import "C"

import "unsafe"

// GeomMax is the most geometries one GeomASSizes or CmdBuildGeomAS takes.
const GeomMax = C.apGeomMax

// GeomASSizes is vkGetAccelerationStructureBuildSizesKHR for a
// bottom-level structure of len(counts) geometries (at most GeomMax) of
// counts[i] R16G16B16A16_SNORM triangles: its size and build scratch.
func (e *Extras) GeomASSizes(counts []uint32) (size, scratch uint64) {
	var s, sc C.uint64_t
	cc := make([]C.uint32_t, GeomMax)
	for i, c := range counts[:min(len(counts), GeomMax)] {
		cc[i] = C.uint32_t(c)
	}
	C.apGeomASSizes(&e.fns, e.device, C.uint32_t(min(len(counts), GeomMax)), &cc[0], &s, &sc)
	return uint64(s), uint64(sc)
}

// CmdBuildGeomAS records vkCmdBuildAccelerationStructuresKHR of one
// bottom-level structure: geometry i is counts[i] triangles of
// R16G16B16A16_SNORM vertices (8-byte stride, no index, no transform) at
// the device address data[i]; scratch is the build's scratch address.
func (e *Extras) CmdBuildGeomAS(cmd, dst unsafe.Pointer, data []uint64, counts []uint32, scratch uint64) {
	n := min(len(data), len(counts), GeomMax)
	// Go memory without pointers: the C side keeps no reference to it.
	dd := make([]C.uint64_t, GeomMax)
	cc := make([]C.uint32_t, GeomMax)
	for i := 0; i < n; i++ {
		dd[i], cc[i] = C.uint64_t(data[i]), C.uint32_t(counts[i])
	}
	C.apCmdBuildGeomAS(&e.fns, C.apHandle(cmd), C.apHandle(dst), C.uint32_t(n), &dd[0], &cc[0], C.uint64_t(scratch))
}

// AllocateFlagsNext is AllocateFlags followed by next (a pNext chain
// head, or nil).
func AllocateFlagsNext(next unsafe.Pointer) Chain {
	p := C.apNewAllocateFlagsNext(next)
	return Chain{alloc: p, head: p}
}
