// extras.c: VK_EXT_mesh_shader where a device has it (see extras.h).
#include <stdlib.h>
#include <string.h>

#include "extras.h"

void apMeshSupport(const apInstanceFns *fns, apHandle physical, apBool32 *task, apBool32 *mesh) {
	apPhysicalDeviceMeshShaderFeatures m;
	memset(&m, 0, sizeof m);
	m.sType = apSTypeMeshShaderFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &m;
	fns->getFeatures2(physical, &f2);
	*task = m.taskShader;
	*mesh = m.meshShader;
}

void apRaySupport(const apInstanceFns *fns, apHandle physical, uint32_t flags, apBool32 *as, apBool32 *rq, apBool32 *rtp, apBool32 *bda) {
	apPhysicalDeviceBufferDeviceAddressFeatures b;
	memset(&b, 0, sizeof b);
	b.sType = apSTypeBufferDeviceAddressFeatures;
	apPhysicalDeviceRayQueryFeatures q;
	memset(&q, 0, sizeof q);
	q.sType = apSTypeRayQueryFeatures;
	apPhysicalDeviceRayTracingPipelineFeatures r;
	memset(&r, 0, sizeof r);
	r.sType = apSTypeRTPipelineFeatures;
	apPhysicalDeviceAccelerationStructureFeatures a;
	memset(&a, 0, sizeof a);
	a.sType = apSTypeASFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &b;
	if (flags & apExtraAS) {
		a.pNext = f2.pNext;
		f2.pNext = &a;
	}
	if (flags & apExtraRQ) {
		q.pNext = f2.pNext;
		f2.pNext = &q;
	}
	if (flags & apExtraRTP) {
		r.pNext = f2.pNext;
		f2.pNext = &r;
	}
	fns->getFeatures2(physical, &f2);
	*as = a.accelerationStructure;
	*rq = q.rayQuery;
	*rtp = r.rayTracingPipeline;
	*bda = b.bufferDeviceAddress;
}

apBool32 apASIndirectSupport(const apInstanceFns *fns, apHandle physical) {
	apPhysicalDeviceAccelerationStructureFeatures a;
	memset(&a, 0, sizeof a);
	a.sType = apSTypeASFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &a;
	fns->getFeatures2(physical, &f2);
	return a.accelerationStructureIndirectBuild;
}

apBool32 apRTMaintenance1Support(const apInstanceFns *fns, apHandle physical) {
	apPhysicalDeviceRayTracingMaintenance1Features m;
	memset(&m, 0, sizeof m);
	m.sType = apSTypeRTMaintenance1Features;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &m;
	fns->getFeatures2(physical, &f2);
	return m.rayTracingMaintenance1;
}

void apRTProperties(const apInstanceFns *fns, apHandle physical, uint32_t *size, uint32_t *align, uint32_t *base) {
	apPhysicalDeviceRayTracingPipelineProperties r;
	memset(&r, 0, sizeof r);
	r.sType = apSTypeRTPipelineProperties;
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = &r;
	fns->getProperties2(physical, &p2);
	*size = r.shaderGroupHandleSize;
	*align = r.shaderGroupHandleAlignment;
	*base = r.shaderGroupBaseAlignment;
}

apResult apCreateRTPipeline(const apExtrasFns *fns, apHandle device, apHandle layout, apHandle rgen, apHandle rmiss, apHandle rchit,
	const uint32_t *consts, uint32_t nconsts, apHandle *pipe) {
	apSpecializationMapEntry ents[apMaxSpecConsts];
	apSpecializationInfo spec;
	if (nconsts > apMaxSpecConsts) {
		nconsts = apMaxSpecConsts;
	}
	for (uint32_t i = 0; i < nconsts; i++) {
		ents[i].constantID = i;
		ents[i].offset = 4 * i;
		ents[i].size = 4;
	}
	spec.mapEntryCount = nconsts;
	spec.pMapEntries = ents;
	spec.dataSize = 4 * (size_t)nconsts;
	spec.pData = consts;
	apPipelineShaderStageCreateInfo st[3];
	memset(st, 0, sizeof st);
	apHandle mods[3] = {rgen, rmiss, rchit};
	uint32_t stages[3] = {0x100, 0x800, 0x400}; // RAYGEN, MISS, CLOSEST_HIT
	for (int i = 0; i < 3; i++) {
		st[i].sType = 18; // VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
		st[i].stage = stages[i];
		st[i].module = mods[i];
		st[i].pName = "main";
	}
	if (nconsts > 0) {
		st[0].pSpecializationInfo = &spec;
	}
	apRayTracingShaderGroupCreateInfo gr[3];
	memset(gr, 0, sizeof gr);
	for (int i = 0; i < 3; i++) {
		gr[i].sType = apSTypeRTShaderGroupCreateInfo;
		gr[i].generalShader = gr[i].closestHitShader = gr[i].anyHitShader = gr[i].intersectionShader = ~0u; // VK_SHADER_UNUSED_KHR
	}
	gr[0].type = 0; // GENERAL
	gr[0].generalShader = 0;
	gr[1].type = 0;
	gr[1].generalShader = 1;
	gr[2].type = 1; // TRIANGLES_HIT_GROUP
	gr[2].closestHitShader = 2;
	apRayTracingPipelineCreateInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeRTPipelineCreateInfo;
	info.stageCount = 3;
	info.pStages = st;
	info.groupCount = 3;
	info.pGroups = gr;
	info.maxPipelineRayRecursionDepth = 1;
	info.layout = layout;
	info.basePipelineIndex = -1;
	return fns->createRTPipelines(device, NULL, NULL, 1, &info, NULL, pipe);
}

apResult apGroupHandles(const apExtrasFns *fns, apHandle device, apHandle pipe, uint32_t n, size_t size, void *out) {
	return fns->groupHandles(device, pipe, 0, n, size, out);
}

void apCmdTraceRays(const apExtrasFns *fns, apHandle cmd, const apStridedDeviceAddressRegion *rgen, const apStridedDeviceAddressRegion *miss,
	const apStridedDeviceAddressRegion *hit, uint32_t w) {
	apStridedDeviceAddressRegion none = {0, 0, 0};
	fns->cmdTraceRays(cmd, rgen, miss, hit, &none, w, 1, 1);
}

// apNewExtraChain: the extension feature structures to enable (flags), in
// one allocation (free it), chained before next; *head is the first
// (next when nothing is enabled).
void *apNewExtraChain(void *next, uint32_t flags, void **head) {
	struct chain {
		apPhysicalDeviceMeshShaderFeatures mesh;
		apPhysicalDeviceAccelerationStructureFeatures as;
		apPhysicalDeviceRayQueryFeatures rq;
		apPhysicalDeviceBufferDeviceAddressFeatures bda;
		apPhysicalDeviceRayTracingPipelineFeatures rtp;
		apPhysicalDeviceRayTracingMaintenance1Features rtm1;
	} *c = calloc(1, sizeof *c);
	*head = next;
	if (c == NULL) {
		return NULL;
	}
	if (flags & apExtraMesh) {
		c->mesh.sType = apSTypeMeshShaderFeatures;
		c->mesh.pNext = *head;
		c->mesh.meshShader = 1;
		c->mesh.taskShader = (flags & apExtraTask) != 0;
		*head = &c->mesh;
	}
	if (flags & apExtraAS) {
		c->as.sType = apSTypeASFeatures;
		c->as.accelerationStructure = 1;
		c->as.accelerationStructureIndirectBuild = (flags & apExtraASIndirect) != 0;
		c->bda.sType = apSTypeBufferDeviceAddressFeatures;
		c->bda.bufferDeviceAddress = 1;
		c->bda.pNext = *head;
		c->as.pNext = &c->bda;
		*head = &c->as;
	}
	if (flags & apExtraRQ) {
		c->rq.sType = apSTypeRayQueryFeatures;
		c->rq.rayQuery = 1;
		c->rq.pNext = *head;
		*head = &c->rq;
	}
	if (flags & apExtraRTP) {
		c->rtp.sType = apSTypeRTPipelineFeatures;
		c->rtp.rayTracingPipeline = 1;
		c->rtp.pNext = *head;
		*head = &c->rtp;
	}
	if (flags & apExtraRTM1) {
		c->rtm1.sType = apSTypeRTMaintenance1Features;
		c->rtm1.rayTracingMaintenance1 = 1;
		c->rtm1.pNext = *head;
		*head = &c->rtm1;
	}
	return c;
}

int apLoadExtras(const apInstanceFns *ifns, apHandle device, uint32_t flags, apExtrasFns *fns, const char **missing) {
	memset(fns, 0, sizeof *fns);
#define XLOAD(field, name)                                   \
	fns->field = ifns->getDeviceProcAddr(device, name); \
	if (fns->field == NULL) {                           \
		*missing = name;                            \
		return -1;                                  \
	}
	if (flags & apExtraMesh) {
		XLOAD(drawMeshTasks, "vkCmdDrawMeshTasksEXT");
	}
	if (flags & apExtraMeshCount) {
		XLOAD(drawMeshTasksIndirectCount, "vkCmdDrawMeshTasksIndirectCountEXT");
	}
	if (flags & apExtraAS) {
		XLOAD(bufferAddress, "vkGetBufferDeviceAddress");
		XLOAD(createAS, "vkCreateAccelerationStructureKHR");
		XLOAD(destroyAS, "vkDestroyAccelerationStructureKHR");
		XLOAD(buildSizes, "vkGetAccelerationStructureBuildSizesKHR");
		XLOAD(cmdBuildAS, "vkCmdBuildAccelerationStructuresKHR");
		XLOAD(asAddress, "vkGetAccelerationStructureDeviceAddressKHR");
		XLOAD(cmdCopyAS, "vkCmdCopyAccelerationStructureKHR");
		if (flags & apExtraASIndirect) {
			XLOAD(cmdBuildASIndirect, "vkCmdBuildAccelerationStructuresIndirectKHR");
		}
	}
	if (flags & apExtraRTP) {
		XLOAD(createRTPipelines, "vkCreateRayTracingPipelinesKHR");
		XLOAD(groupHandles, "vkGetRayTracingShaderGroupHandlesKHR");
		XLOAD(cmdTraceRays, "vkCmdTraceRaysKHR");
	}
#undef XLOAD
	return 0;
}

uint64_t apBufferAddress(const apExtrasFns *fns, apHandle device, apHandle buffer) {
	apBufferDeviceAddressInfo info = {apSTypeBufferDeviceAddressInfo, NULL, buffer};
	return fns->bufferAddress(device, &info);
}

// geometry fills one geometry of a build: opaque triangles or instances.
static void geometry(apAccelerationStructureGeometry *g, int top, uint64_t data, uint32_t count) {
	memset(g, 0, sizeof *g);
	g->sType = apSTypeASGeometry;
	g->flags = 1; // VK_GEOMETRY_OPAQUE_BIT_KHR
	if (top) {
		g->geometryType = 2; // VK_GEOMETRY_TYPE_INSTANCES_KHR
		g->geometry.instances.sType = apSTypeASGeometryInstancesData;
		g->geometry.instances.data = data;
		return;
	}
	g->geometryType = 0; // VK_GEOMETRY_TYPE_TRIANGLES_KHR
	g->geometry.triangles.sType = apSTypeASGeometryTrianglesData;
	g->geometry.triangles.vertexFormat = 106; // VK_FORMAT_R32G32B32_SFLOAT
	g->geometry.triangles.vertexData = data;
	g->geometry.triangles.vertexStride = 12;
	g->geometry.triangles.maxVertex = count * 3 - 1;
	g->geometry.triangles.indexType = 1000165000; // VK_INDEX_TYPE_NONE_KHR
}

static void buildInfo(apAccelerationStructureBuildGeometryInfo *b, const apAccelerationStructureGeometry *g, int top, int allowUpdate) {
	memset(b, 0, sizeof *b);
	b->sType = apSTypeASBuildGeometryInfo;
	b->type = top ? 0 : 1;                   // VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, BOTTOM_LEVEL
	b->flags = 4 | (allowUpdate ? 1 : 0);    // PREFER_FAST_TRACE, ALLOW_UPDATE
	b->mode = 0;                             // BUILD
	b->geometryCount = 1;
	b->pGeometries = g;
}

void apASSizes(const apExtrasFns *fns, apHandle device, int top, uint32_t count, uint64_t *size, uint64_t *scratch) {
	uint64_t update;
	apASSizesUpdatable(fns, device, top, count, 0, size, scratch, &update);
}

void apASSizesUpdatable(const apExtrasFns *fns, apHandle device, int top, uint32_t count, int allowUpdate, uint64_t *size, uint64_t *scratch, uint64_t *update) {
	apAccelerationStructureGeometry g;
	geometry(&g, top, 0, count);
	apAccelerationStructureBuildGeometryInfo b;
	buildInfo(&b, &g, top, allowUpdate);
	apAccelerationStructureBuildSizesInfo s;
	memset(&s, 0, sizeof s);
	s.sType = apSTypeASBuildSizesInfo;
	fns->buildSizes(device, 1, &b, &count, &s); // VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR
	*size = s.accelerationStructureSize;
	*scratch = s.buildScratchSize;
	*update = s.updateScratchSize;
}

apResult apCreateAS(const apExtrasFns *fns, apHandle device, apHandle buffer, uint64_t offset, uint64_t size, int top, apHandle *as) {
	apAccelerationStructureCreateInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeASCreateInfo;
	info.buffer = buffer;
	info.offset = offset;
	info.size = size;
	info.type = top ? 0 : 1;
	return fns->createAS(device, &info, NULL, as);
}

void apDestroyAS(const apExtrasFns *fns, apHandle device, apHandle as) { fns->destroyAS(device, as, NULL); }

uint64_t apASAddress(const apExtrasFns *fns, apHandle device, apHandle as) {
	apAccelerationStructureDeviceAddressInfo info = {apSTypeASDeviceAddressInfo, NULL, as};
	return fns->asAddress(device, &info);
}

void apCmdBuildAS(const apExtrasFns *fns, apHandle cmd, apHandle dst, int top, uint64_t data, uint32_t count, uint64_t scratch) {
	apCmdUpdateAS(fns, cmd, NULL, dst, top, data, count, scratch, 0);
}

void apCmdUpdateAS(const apExtrasFns *fns, apHandle cmd, apHandle src, apHandle dst, int top, uint64_t data, uint32_t count, uint64_t scratch, int allowUpdate) {
	apAccelerationStructureGeometry g;
	geometry(&g, top, data, count);
	apAccelerationStructureBuildGeometryInfo b;
	buildInfo(&b, &g, top, allowUpdate || src != NULL);
	if (src != NULL) {
		b.mode = 1; // VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR
		b.srcAccelerationStructure = src;
	}
	b.dstAccelerationStructure = dst;
	b.scratchData = scratch;
	apAccelerationStructureBuildRangeInfo r = {count, 0, 0, 0};
	const apAccelerationStructureBuildRangeInfo *pr = &r;
	fns->cmdBuildAS(cmd, 1, &b, &pr);
}

void apCmdBuildASIndirect(const apExtrasFns *fns, apHandle cmd, apHandle dst, uint64_t data, uint32_t maxCount, uint64_t scratch, uint64_t indirect) {
	apAccelerationStructureGeometry g;
	geometry(&g, 0, data, maxCount);
	apAccelerationStructureBuildGeometryInfo b;
	buildInfo(&b, &g, 0, 0);
	b.dstAccelerationStructure = dst;
	b.scratchData = scratch;
	uint32_t stride = 16; // sizeof(VkAccelerationStructureBuildRangeInfoKHR)
	const uint32_t *pmax = &maxCount;
	fns->cmdBuildASIndirect(cmd, 1, &b, &indirect, &stride, &pmax);
}

void apCmdCopyAS(const apExtrasFns *fns, apHandle cmd, apHandle src, apHandle dst) {
	apCopyAccelerationStructureInfo info = {apSTypeCopyASInfo, NULL, src, dst, 0}; // VK_COPY_ACCELERATION_STRUCTURE_MODE_CLONE_KHR
	fns->cmdCopyAS(cmd, &info);
}

void *apNewASWrite(const apHandle *as, uint32_t n) {
	struct w {
		apWriteDescriptorSetAccelerationStructure info;
		apHandle as[8];
	} *p = calloc(1, sizeof *p);
	if (p == NULL || n > 8) {
		free(p);
		return NULL;
	}
	memcpy(p->as, as, n * sizeof *as);
	p->info.sType = apSTypeWriteDescriptorSetAS;
	p->info.accelerationStructureCount = n;
	p->info.pAccelerationStructures = p->as;
	return p;
}

void apDrawMeshTasks(const apExtrasFns *fns, apHandle cmd, uint32_t x, uint32_t y, uint32_t z) { fns->drawMeshTasks(cmd, x, y, z); }

void apDrawMeshTasksIndirectCount(const apExtrasFns *fns, apHandle cmd, apHandle buffer, uint64_t offset, apHandle count, uint64_t countOffset, uint32_t maxDraws,
	uint32_t stride) {
	fns->drawMeshTasksIndirectCount(cmd, buffer, offset, count, countOffset, maxDraws, stride);
}

void *apNewAllocateFlags(void) {
	struct flags {
		int32_t sType;
		const void *pNext;
		uint32_t flags;
		uint32_t deviceMask;
	} *p = calloc(1, sizeof *p);
	if (p == NULL) {
		return NULL;
	}
	p->sType = 1000060000; // VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO
	p->flags = 2;          // VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT
	return p;
}
