#include <stdlib.h>
#include <string.h>
#include "asinput.h"

// snormGeometries fills n triangle geometries over data (0 addresses for a
// size query) and their build info.
static void snormGeometries(apAccelerationStructureGeometry *g, apAccelerationStructureBuildGeometryInfo *b, uint32_t n, const uint64_t *data,
	const uint32_t *count) {
	memset(g, 0, n * sizeof *g);
	for (uint32_t i = 0; i < n; i++) {
		g[i].sType = apSTypeASGeometry;
		g[i].flags = 1;        // VK_GEOMETRY_OPAQUE_BIT_KHR
		g[i].geometryType = 0; // VK_GEOMETRY_TYPE_TRIANGLES_KHR
		g[i].geometry.triangles.sType = apSTypeASGeometryTrianglesData;
		g[i].geometry.triangles.vertexFormat = 91; // VK_FORMAT_R16G16B16A16_SNORM
		g[i].geometry.triangles.vertexData = data ? data[i] : 0;
		g[i].geometry.triangles.vertexStride = 8;
		g[i].geometry.triangles.maxVertex = count[i] * 3 - 1;
		g[i].geometry.triangles.indexType = 1000165000; // VK_INDEX_TYPE_NONE_KHR
	}
	memset(b, 0, sizeof *b);
	b->sType = apSTypeASBuildGeometryInfo;
	b->type = 1;  // BOTTOM_LEVEL
	b->flags = 4; // PREFER_FAST_TRACE
	b->geometryCount = n;
	b->pGeometries = g;
}

void apGeomASSizes(const apExtrasFns *fns, apHandle device, uint32_t n, const uint32_t *count, uint64_t *size, uint64_t *scratch) {
	apAccelerationStructureGeometry g[apGeomMax];
	apAccelerationStructureBuildGeometryInfo b;
	if (n > apGeomMax) {
		n = apGeomMax;
	}
	snormGeometries(g, &b, n, NULL, count);
	apAccelerationStructureBuildSizesInfo s;
	memset(&s, 0, sizeof s);
	s.sType = apSTypeASBuildSizesInfo;
	fns->buildSizes(device, 1, &b, count, &s); // VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR
	*size = s.accelerationStructureSize;
	*scratch = s.buildScratchSize;
}

void apCmdBuildGeomAS(const apExtrasFns *fns, apHandle cmd, apHandle dst, uint32_t n, const uint64_t *data, const uint32_t *count, uint64_t scratch) {
	apAccelerationStructureGeometry g[apGeomMax];
	apAccelerationStructureBuildGeometryInfo b;
	apAccelerationStructureBuildRangeInfo r[apGeomMax];
	if (n > apGeomMax) {
		n = apGeomMax;
	}
	snormGeometries(g, &b, n, data, count);
	b.dstAccelerationStructure = dst;
	b.scratchData = scratch;
	memset(r, 0, sizeof r);
	for (uint32_t i = 0; i < n; i++) {
		r[i].primitiveCount = count[i];
	}
	const apAccelerationStructureBuildRangeInfo *pr = r;
	fns->cmdBuildAS(cmd, 1, &b, &pr);
}

void *apNewAllocateFlagsNext(const void *next) {
	struct flags {
		int32_t sType;
		const void *pNext;
		uint32_t flags;
		uint32_t deviceMask;
	} *p = apNewAllocateFlags();
	if (p != NULL) {
		p->pNext = next;
	}
	return p;
}
