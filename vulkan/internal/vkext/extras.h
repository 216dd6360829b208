// extras.h: the structures and entry points of the device extensions the
// replay uses where a device has them and a frame needs them
// (VK_EXT_mesh_shader; package vulkan/replay, mesh.go), declared by hand
// like vkext.h (layouts of vulkan_core.h 1.3.239).

#ifndef ALIASPLAN_EXTRAS_H
#define ALIASPLAN_EXTRAS_H

#include "vkext.h"

#define apSTypeMeshShaderFeatures 1000328000

typedef struct apPhysicalDeviceMeshShaderFeatures {
	int32_t sType;
	void *pNext;
	apBool32 taskShader;
	apBool32 meshShader;
	apBool32 multiviewMeshShader;
	apBool32 primitiveFragmentShadingRateMeshShader;
	apBool32 meshShaderQueries;
} apPhysicalDeviceMeshShaderFeatures;

// Acceleration structures and ray queries (VK_KHR_acceleration_structure,
// VK_KHR_ray_query; raytrace.go) and buffer device addresses (core 1.2).
#define apSTypeASBuildGeometryInfo 1000150000
#define apSTypeASDeviceAddressInfo 1000150002
#define apSTypeASGeometryInstancesData 1000150004
#define apSTypeASGeometryTrianglesData 1000150005
#define apSTypeASGeometry 1000150006
#define apSTypeWriteDescriptorSetAS 1000150007
#define apSTypeCopyASInfo 1000150010
#define apSTypeASFeatures 1000150013
#define apSTypeASCreateInfo 1000150017
#define apSTypeASBuildSizesInfo 1000150020
#define apSTypeRayQueryFeatures 1000348013
#define apSTypeBufferDeviceAddressFeatures 1000257000
#define apSTypeBufferDeviceAddressInfo 1000244001

typedef struct apPhysicalDeviceAccelerationStructureFeatures {
	int32_t sType;
	void *pNext;
	apBool32 accelerationStructure;
	apBool32 accelerationStructureCaptureReplay;
	apBool32 accelerationStructureIndirectBuild;
	apBool32 accelerationStructureHostCommands;
	apBool32 descriptorBindingAccelerationStructureUpdateAfterBind;
} apPhysicalDeviceAccelerationStructureFeatures;

typedef struct apPhysicalDeviceRayQueryFeatures {
	int32_t sType;
	void *pNext;
	apBool32 rayQuery;
} apPhysicalDeviceRayQueryFeatures;

typedef struct apPhysicalDeviceBufferDeviceAddressFeatures {
	int32_t sType;
	void *pNext;
	apBool32 bufferDeviceAddress;
	apBool32 bufferDeviceAddressCaptureReplay;
	apBool32 bufferDeviceAddressMultiDevice;
} apPhysicalDeviceBufferDeviceAddressFeatures;

typedef struct apBufferDeviceAddressInfo {
	int32_t sType;
	const void *pNext;
	apHandle buffer;
} apBufferDeviceAddressInfo;

typedef struct apAccelerationStructureCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t createFlags;
	apHandle buffer;
	uint64_t offset;
	uint64_t size;
	int32_t type;
	uint64_t deviceAddress;
} apAccelerationStructureCreateInfo;

typedef struct apAccelerationStructureGeometryTrianglesData {
	int32_t sType;
	const void *pNext;
	int32_t vertexFormat;
	uint64_t vertexData;
	uint64_t vertexStride;
	uint32_t maxVertex;
	int32_t indexType;
	uint64_t indexData;
	uint64_t transformData;
} apAccelerationStructureGeometryTrianglesData;

typedef struct apAccelerationStructureGeometryInstancesData {
	int32_t sType;
	const void *pNext;
	apBool32 arrayOfPointers;
	uint64_t data;
} apAccelerationStructureGeometryInstancesData;

typedef struct apAccelerationStructureGeometry {
	int32_t sType;
	const void *pNext;
	int32_t geometryType;
	union {
		apAccelerationStructureGeometryTrianglesData triangles;
		apAccelerationStructureGeometryInstancesData instances;
	} geometry;
	uint32_t flags;
} apAccelerationStructureGeometry;

typedef struct apAccelerationStructureBuildGeometryInfo {
	int32_t sType;
	const void *pNext;
	int32_t type;
	uint32_t flags;
	int32_t mode;
	apHandle srcAccelerationStructure;
	apHandle dstAccelerationStructure;
	uint32_t geometryCount;
	const apAccelerationStructureGeometry *pGeometries;
	const apAccelerationStructureGeometry *const *ppGeometries;
	uint64_t scratchData;
} apAccelerationStructureBuildGeometryInfo;

typedef struct apAccelerationStructureBuildRangeInfo {
	uint32_t primitiveCount;
	uint32_t primitiveOffset;
	uint32_t firstVertex;
	uint32_t transformOffset;
} apAccelerationStructureBuildRangeInfo;

typedef struct apAccelerationStructureBuildSizesInfo {
	int32_t sType;
	const void *pNext;
	uint64_t accelerationStructureSize;
	uint64_t updateScratchSize;
	uint64_t buildScratchSize;
} apAccelerationStructureBuildSizesInfo;

typedef struct apAccelerationStructureDeviceAddressInfo {
	int32_t sType;
	const void *pNext;
	apHandle accelerationStructure;
} apAccelerationStructureDeviceAddressInfo;

typedef struct apCopyAccelerationStructureInfo {
	int32_t sType;
	const void *pNext;
	apHandle src;
	apHandle dst;
	int32_t mode;
} apCopyAccelerationStructureInfo;

typedef struct apWriteDescriptorSetAccelerationStructure {
	int32_t sType;
	const void *pNext;
	uint32_t accelerationStructureCount;
	const apHandle *pAccelerationStructures;
} apWriteDescriptorSetAccelerationStructure;

#define apSTypeRTPipelineFeatures 1000347000
#define apSTypeRTPipelineProperties 1000347001
#define apSTypeRTPipelineCreateInfo 1000150015
#define apSTypeRTShaderGroupCreateInfo 1000150016

typedef struct apPhysicalDeviceRayTracingPipelineFeatures {
	int32_t sType;
	void *pNext;
	apBool32 rayTracingPipeline;
	apBool32 rayTracingPipelineShaderGroupHandleCaptureReplay;
	apBool32 rayTracingPipelineShaderGroupHandleCaptureReplayMixed;
	apBool32 rayTracingPipelineTraceRaysIndirect;
	apBool32 rayTraversalPrimitiveCulling;
} apPhysicalDeviceRayTracingPipelineFeatures;

typedef struct apPhysicalDeviceRayTracingPipelineProperties {
	int32_t sType;
	void *pNext;
	uint32_t shaderGroupHandleSize;
	uint32_t maxRayRecursionDepth;
	uint32_t maxShaderGroupStride;
	uint32_t shaderGroupBaseAlignment;
	uint32_t shaderGroupHandleCaptureReplaySize;
	uint32_t maxRayDispatchInvocationCount;
	uint32_t shaderGroupHandleAlignment;
	uint32_t maxRayHitAttributeSize;
} apPhysicalDeviceRayTracingPipelineProperties;

typedef struct apPipelineShaderStageCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint32_t stage;
	apHandle module;
	const char *pName;
	const void *pSpecializationInfo;
} apPipelineShaderStageCreateInfo;

typedef struct apSpecializationMapEntry {
	uint32_t constantID;
	uint32_t offset;
	size_t size;
} apSpecializationMapEntry;

typedef struct apSpecializationInfo {
	uint32_t mapEntryCount;
	const apSpecializationMapEntry *pMapEntries;
	size_t dataSize;
	const void *pData;
} apSpecializationInfo;

typedef struct apRayTracingShaderGroupCreateInfo {
	int32_t sType;
	const void *pNext;
	int32_t type;
	uint32_t generalShader;
	uint32_t closestHitShader;
	uint32_t anyHitShader;
	uint32_t intersectionShader;
	const void *pShaderGroupCaptureReplayHandle;
} apRayTracingShaderGroupCreateInfo;

typedef struct apRayTracingPipelineCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint32_t stageCount;
	const apPipelineShaderStageCreateInfo *pStages;
	uint32_t groupCount;
	const apRayTracingShaderGroupCreateInfo *pGroups;
	uint32_t maxPipelineRayRecursionDepth;
	const void *pLibraryInfo;
	const void *pLibraryInterface;
	const void *pDynamicState;
	apHandle layout;
	apHandle basePipelineHandle;
	int32_t basePipelineIndex;
} apRayTracingPipelineCreateInfo;

typedef struct apStridedDeviceAddressRegion {
	uint64_t deviceAddress;
	uint64_t stride;
	uint64_t size;
} apStridedDeviceAddressRegion;

// VK_KHR_ray_tracing_maintenance1: the ACCELERATION_STRUCTURE_COPY stage
// (raytrace.go) and the mesh indirect draws (mesh.go).
#define apSTypeRTMaintenance1Features 1000386000

typedef struct apPhysicalDeviceRayTracingMaintenance1Features {
	int32_t sType;
	void *pNext;
	apBool32 rayTracingMaintenance1;
	apBool32 rayTracingPipelineTraceRaysIndirect2;
} apPhysicalDeviceRayTracingMaintenance1Features;

typedef struct apExtrasFns {
	void (*drawMeshTasks)(apHandle, uint32_t, uint32_t, uint32_t);
	uint64_t (*bufferAddress)(apHandle, const apBufferDeviceAddressInfo *);
	apResult (*createAS)(apHandle, const apAccelerationStructureCreateInfo *, const void *, apHandle *);
	void (*destroyAS)(apHandle, apHandle, const void *);
	void (*buildSizes)(apHandle, int32_t, const apAccelerationStructureBuildGeometryInfo *, const uint32_t *, apAccelerationStructureBuildSizesInfo *);
	void (*cmdBuildAS)(apHandle, uint32_t, const apAccelerationStructureBuildGeometryInfo *, const apAccelerationStructureBuildRangeInfo *const *);
	uint64_t (*asAddress)(apHandle, const apAccelerationStructureDeviceAddressInfo *);
	void (*cmdCopyAS)(apHandle, const apCopyAccelerationStructureInfo *);
	apResult (*createRTPipelines)(apHandle, apHandle, apHandle, uint32_t, const apRayTracingPipelineCreateInfo *, const void *, apHandle *);
	apResult (*groupHandles)(apHandle, apHandle, uint32_t, uint32_t, size_t, void *);
	void (*cmdTraceRays)(apHandle, const apStridedDeviceAddressRegion *, const apStridedDeviceAddressRegion *, const apStridedDeviceAddressRegion *,
		const apStridedDeviceAddressRegion *, uint32_t, uint32_t, uint32_t);
	void (*drawMeshTasksIndirectCount)(apHandle, apHandle, uint64_t, apHandle, uint64_t, uint32_t, uint32_t);
	// vkCmdBuildAccelerationStructuresIndirectKHR (apExtraASIndirect):
	// command buffer, infoCount, pInfos, pIndirectDeviceAddresses,
	// pIndirectStrides, ppMaxPrimitiveCounts.
	void (*cmdBuildASIndirect)(apHandle, uint32_t, const apAccelerationStructureBuildGeometryInfo *, const uint64_t *, const uint32_t *, const uint32_t *const *);
} apExtrasFns;

// Extra features to enable (apNewExtraChain's flags).
enum {
	apExtraTask = 1,
	apExtraMesh = 2,
	apExtraAS = 4,  // accelerationStructure, bufferDeviceAddress
	apExtraRQ = 8,  // rayQuery
	apExtraRTP = 16, // rayTracingPipeline
	apExtraRTM1 = 32, // rayTracingMaintenance1
	apExtraMeshCount = 64, // vkCmdDrawMeshTasksIndirectCountEXT (VK_KHR_draw_indirect_count enabled)
	apExtraASIndirect = 128, // accelerationStructureIndirectBuild (with apExtraAS), vkCmdBuildAccelerationStructuresIndirectKHR
};

void apMeshSupport(const apInstanceFns *fns, apHandle physical, apBool32 *task, apBool32 *mesh);
// apRaySupport queries the features of the extensions in flags (apExtraAS,
// apExtraRQ, apExtraRTP): chain only what the device has.
void apRaySupport(const apInstanceFns *fns, apHandle physical, uint32_t flags, apBool32 *as, apBool32 *rq, apBool32 *rtp, apBool32 *bda);
// apASIndirectSupport: accelerationStructureIndirectBuild (query only
// where the device has VK_KHR_acceleration_structure).
apBool32 apASIndirectSupport(const apInstanceFns *fns, apHandle physical);
// apRTMaintenance1Support: rayTracingMaintenance1 (query only where the device has the extension).
apBool32 apRTMaintenance1Support(const apInstanceFns *fns, apHandle physical);
// apRTProperties: shaderGroupHandleSize, shaderGroupHandleAlignment, shaderGroupBaseAlignment.
void apRTProperties(const apInstanceFns *fns, apHandle physical, uint32_t *size, uint32_t *align, uint32_t *base);
// apCreateRTPipeline: raygen, miss and triangle closest-hit, three groups;
// the raygen stage specialised with constants 0..nconsts-1 (none when
// nconsts is 0; at most apMaxSpecConsts).
#define apMaxSpecConsts 64
apResult apCreateRTPipeline(const apExtrasFns *fns, apHandle device, apHandle layout, apHandle rgen, apHandle rmiss, apHandle rchit,
	const uint32_t *consts, uint32_t nconsts, apHandle *pipe);
apResult apGroupHandles(const apExtrasFns *fns, apHandle device, apHandle pipe, uint32_t n, size_t size, void *out);
void apCmdTraceRays(const apExtrasFns *fns, apHandle cmd, const apStridedDeviceAddressRegion *rgen, const apStridedDeviceAddressRegion *miss,
	const apStridedDeviceAddressRegion *hit, uint32_t w);
void *apNewExtraChain(void *next, uint32_t flags, void **head);
int apLoadExtras(const apInstanceFns *ifns, apHandle device, uint32_t flags, apExtrasFns *fns, const char **missing);
void apDrawMeshTasks(const apExtrasFns *fns, apHandle cmd, uint32_t x, uint32_t y, uint32_t z);
void apDrawMeshTasksIndirectCount(const apExtrasFns *fns, apHandle cmd, apHandle buffer, uint64_t offset, apHandle count, uint64_t countOffset, uint32_t maxDraws,
	uint32_t stride);

uint64_t apBufferAddress(const apExtrasFns *fns, apHandle device, apHandle buffer);
// apASSizes: the size and build scratch of a bottom-level structure of
// count opaque triangles (top: a top-level one of count instances).
void apASSizes(const apExtrasFns *fns, apHandle device, int top, uint32_t count, uint64_t *size, uint64_t *scratch);
apResult apCreateAS(const apExtrasFns *fns, apHandle device, apHandle buffer, uint64_t offset, uint64_t size, int top, apHandle *as);
void apDestroyAS(const apExtrasFns *fns, apHandle device, apHandle as);
uint64_t apASAddress(const apExtrasFns *fns, apHandle device, apHandle as);
// apCmdBuildAS records one build: count triangles (R32G32B32_SFLOAT,
// 12-byte stride, no index) at data, or count instances at data (top).
void apCmdBuildAS(const apExtrasFns *fns, apHandle cmd, apHandle dst, int top, uint64_t data, uint32_t count, uint64_t scratch);
// apASSizesUpdatable is apASSizes for a build with ALLOW_UPDATE where
// allowUpdate is set, with the update scratch size too.
void apASSizesUpdatable(const apExtrasFns *fns, apHandle device, int top, uint32_t count, int allowUpdate, uint64_t *size, uint64_t *scratch, uint64_t *update);
// apCmdUpdateAS is apCmdBuildAS with ALLOW_UPDATE where allowUpdate is
// set, or, with src, an update (mode UPDATE) of src into dst (which may
// be src).
void apCmdUpdateAS(const apExtrasFns *fns, apHandle cmd, apHandle src, apHandle dst, int top, uint64_t data, uint32_t count, uint64_t scratch, int allowUpdate);
// apCmdBuildASIndirect records the bottom-level build of apCmdBuildAS
// (maxCount triangles at data: the geometry and ppMaxPrimitiveCounts)
// with vkCmdBuildAccelerationStructuresIndirectKHR: its one
// VkAccelerationStructureBuildRangeInfoKHR is read from device address
// indirect (stride 16).
void apCmdBuildASIndirect(const apExtrasFns *fns, apHandle cmd, apHandle dst, uint64_t data, uint32_t maxCount, uint64_t scratch, uint64_t indirect);
void apCmdCopyAS(const apExtrasFns *fns, apHandle cmd, apHandle src, apHandle dst);
// apNewAllocateFlags: a VkMemoryAllocateFlagsInfo with DEVICE_ADDRESS (apFree it).
void *apNewAllocateFlags(void);
// apNewASWrite: a VkWriteDescriptorSetAccelerationStructureKHR of n
// structures, in one allocation (apFree it).
void *apNewASWrite(const apHandle *as, uint32_t n);

#endif
