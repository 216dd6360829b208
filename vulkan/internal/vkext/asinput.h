// asinput.h: bottom-level builds over graph buffers (vulkan/replay's
// asinput.go): geometries of R16G16B16A16_SNORM triangles, 8-byte stride,
// no index, no transform, at device addresses of their own.
#ifndef AP_ASINPUT_H
#define AP_ASINPUT_H
#include "extras.h"

#define apGeomMax 8

// apGeomASSizes: the size and build scratch of a bottom-level structure of
// n geometries of count[i] triangles.
void apGeomASSizes(const apExtrasFns *fns, apHandle device, uint32_t n, const uint32_t *count, uint64_t *size, uint64_t *scratch);
// apCmdBuildGeomAS records its build into dst: geometry i is count[i]
// triangles at data[i].
void apCmdBuildGeomAS(const apExtrasFns *fns, apHandle cmd, apHandle dst, uint32_t n, const uint64_t *data, const uint32_t *count, uint64_t scratch);
// apNewAllocateFlagsNext: apNewAllocateFlags with pNext next (apFree it).
void *apNewAllocateFlagsNext(const void *next);
#endif
