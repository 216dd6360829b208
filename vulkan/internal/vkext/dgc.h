// dgc.h: VK_EXT_device_generated_commands (package vulkan/replay, dgc.go)
// and what it needs of VK_KHR_maintenance5 (buffer usage flags 2 for the
// preprocess buffer). Vulkan headers 1.3.239 (the system's, and goki/vulkan's)
// predate the extension: the structures are declared here from the
// registry's definitions (vk.xml, extension 573; maintenance5, 471), laid
// out for LP64; TestABIDGC checks sizes and offsets against the registry's
// C layout computed by hand.

#ifndef ALIASPLAN_DGC_H
#define ALIASPLAN_DGC_H

#include "vkext.h"
#include "extras.h"

#define apSTypeDGCFeatures 1000572000
#define apSTypeDGCProperties 1000572001
#define apSTypeGeneratedCommandsMemoryRequirementsInfo 1000572002
#define apSTypeGeneratedCommandsInfo 1000572004
#define apSTypeIndirectCommandsLayoutCreateInfo 1000572006
#define apSTypeIndirectCommandsLayoutToken 1000572007
#define apSTypeGeneratedCommandsPipelineInfo 1000572013
#define apSTypeMaintenance5Features 1000470000
#define apSTypeBufferUsageFlags2CreateInfo 1000470006

#define apIndirectTokenDispatch 9                   // VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT
#define apIndirectTokenPushConstant 1               // VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT
#define apIndirectLayoutExplicitPreprocess 1        // VK_INDIRECT_COMMANDS_LAYOUT_USAGE_EXPLICIT_PREPROCESS_BIT_EXT
#define apBufferUsage2Preprocess 0x80000000ull      // VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT
#define apShaderStageCompute 0x20                   // VK_SHADER_STAGE_COMPUTE_BIT

typedef struct apPhysicalDeviceDGCFeatures {
	int32_t sType;
	void *pNext;
	apBool32 deviceGeneratedCommands;
	apBool32 dynamicGeneratedPipelineLayout;
} apPhysicalDeviceDGCFeatures;

typedef struct apPhysicalDeviceDGCProperties {
	int32_t sType;
	void *pNext;
	uint32_t maxIndirectPipelineCount;
	uint32_t maxIndirectShaderObjectCount;
	uint32_t maxIndirectSequenceCount;
	uint32_t maxIndirectCommandsTokenCount;
	uint32_t maxIndirectCommandsTokenOffset;
	uint32_t maxIndirectCommandsIndirectStride;
	uint32_t supportedIndirectCommandsInputModes;
	uint32_t supportedIndirectCommandsShaderStages;
	uint32_t supportedIndirectCommandsShaderStagesPipelineBinding;
	uint32_t supportedIndirectCommandsShaderStagesShaderBinding;
	apBool32 deviceGeneratedCommandsTransformFeedback;
	apBool32 deviceGeneratedCommandsMultiDrawIndirectCount;
} apPhysicalDeviceDGCProperties;

typedef struct apPhysicalDeviceMaintenance5Features {
	int32_t sType;
	void *pNext;
	apBool32 maintenance5;
} apPhysicalDeviceMaintenance5Features;

typedef struct apBufferUsageFlags2CreateInfo {
	int32_t sType;
	const void *pNext;
	uint64_t usage;
} apBufferUsageFlags2CreateInfo;

typedef struct apIndirectCommandsLayoutToken {
	int32_t sType;
	const void *pNext;
	int32_t type;
	const void *data; // VkIndirectCommandsTokenDataEXT: a union of pointers
	uint32_t offset;
} apIndirectCommandsLayoutToken;

// apIndirectCommandsPushConstantToken is VkIndirectCommandsPushConstantTokenEXT
// (its one member, a VkPushConstantRange, spelled out).
typedef struct apIndirectCommandsPushConstantToken {
	uint32_t stageFlags;
	uint32_t offset;
	uint32_t size;
} apIndirectCommandsPushConstantToken;

typedef struct apIndirectCommandsLayoutCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint32_t shaderStages;
	uint32_t indirectStride;
	apHandle pipelineLayout;
	uint32_t tokenCount;
	const apIndirectCommandsLayoutToken *pTokens;
} apIndirectCommandsLayoutCreateInfo;

typedef struct apGeneratedCommandsInfo {
	int32_t sType;
	const void *pNext;
	uint32_t shaderStages;
	apHandle indirectExecutionSet;
	apHandle indirectCommandsLayout;
	uint64_t indirectAddress;
	uint64_t indirectAddressSize;
	uint64_t preprocessAddress;
	uint64_t preprocessSize;
	uint32_t maxSequenceCount;
	uint64_t sequenceCountAddress;
	uint32_t maxDrawCount;
} apGeneratedCommandsInfo;

typedef struct apGeneratedCommandsMemoryRequirementsInfo {
	int32_t sType;
	const void *pNext;
	apHandle indirectExecutionSet;
	apHandle indirectCommandsLayout;
	uint32_t maxSequenceCount;
	uint32_t maxDrawCount;
} apGeneratedCommandsMemoryRequirementsInfo;

typedef struct apGeneratedCommandsPipelineInfo {
	int32_t sType;
	void *pNext;
	apHandle pipeline;
} apGeneratedCommandsPipelineInfo;

// apBufferCreateInfo is VkBufferCreateInfo (vkext.h declares none; dgc.c chains the usage flags 2 to it).
typedef struct apBufferCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint64_t size;
	uint32_t usage;
	int32_t sharingMode;
	uint32_t queueFamilyIndexCount;
	const uint32_t *pQueueFamilyIndices;
} apBufferCreateInfo;

typedef struct apDGCFns {
	void (*memReq)(apHandle, const apGeneratedCommandsMemoryRequirementsInfo *, apMemoryRequirements2 *);
	void (*cmdPreprocess)(apHandle, const apGeneratedCommandsInfo *, apHandle);
	void (*cmdExecute)(apHandle, apBool32, const apGeneratedCommandsInfo *);
	apResult (*createLayout)(apHandle, const apIndirectCommandsLayoutCreateInfo *, const void *, apHandle *);
	void (*destroyLayout)(apHandle, apHandle, const void *);
	uint64_t (*bufferAddress)(apHandle, const apBufferDeviceAddressInfo *);
	apResult (*createBuffer)(apHandle, const void *, const void *, apHandle *);
	void (*destroyBuffer)(apHandle, apHandle, const void *);
} apDGCFns;

// apDGCSupport: deviceGeneratedCommands, bufferDeviceAddress and
// maintenance5 as queried (ask only a device with the extensions), and
// the properties the replay reads.
void apDGCSupport(const apInstanceFns *fns, apHandle physical, apBool32 *dgc, apBool32 *bda, apBool32 *m5, apPhysicalDeviceDGCProperties *props);
// apNewDGCChain: the feature structures to enable (bda: also
// bufferDeviceAddress, when no other chain enables it), one allocation
// (apFree it), before next.
void *apNewDGCChain(void *next, int bda, void **head);
int apLoadDGC(const apInstanceFns *ifns, apHandle device, apDGCFns *fns, const char **missing);
// apCreateDispatchLayout: one DISPATCH token at offset 0, 12-byte stride,
// compute, explicit preprocessing.
apResult apCreateDispatchLayout(const apDGCFns *fns, apHandle device, apHandle *layout);
// apCreatePushDispatchLayout: a PUSH_CONSTANT token at offset 0 (4 bytes
// into the push constants at offset 4 of pipelineLayout, compute) and a
// DISPATCH token at offset 4, 16-byte stride, explicit preprocessing.
apResult apCreatePushDispatchLayout(const apDGCFns *fns, apHandle device, apHandle pipelineLayout, apHandle *layout);
void apDestroyDispatchLayout(const apDGCFns *fns, apHandle device, apHandle layout);
// apDGCRequirements: the preprocess buffer's requirements for maxSeq
// sequences of layout executed with the compute pipeline.
void apDGCRequirements(const apDGCFns *fns, apHandle device, apHandle layout, apHandle pipeline, uint32_t maxSeq, apMemoryRequirements *out);
// apCreatePreprocessBuffer: a buffer with PREPROCESS_BUFFER and
// SHADER_DEVICE_ADDRESS usage (VkBufferUsageFlags2CreateInfoKHR).
apResult apCreatePreprocessBuffer(const apDGCFns *fns, apHandle device, uint64_t size, apHandle *buf);
void apDestroyBuffer(const apDGCFns *fns, apHandle device, apHandle buf);
// apNewBufferUsage2: a VkBufferUsageFlags2CreateInfoKHR of usage, before
// next (apFree it).
void *apNewBufferUsage2(uint64_t usage, const void *next);
uint64_t apDGCBufferAddress(const apDGCFns *fns, apHandle device, apHandle buffer);
// apCmdDGC records vkCmdPreprocessGeneratedCommandsEXT (execute 0; the
// state is cmd's own: the compute pipeline bound there) or
// vkCmdExecuteGeneratedCommandsEXT with isPreprocessed (execute 1) of at
// most maxSeq sequences of layout: the token stream at stream
// (streamSize bytes), the count at count, preprocessing into preprocess.
void apCmdDGC(const apDGCFns *fns, apHandle cmd, int execute, apHandle layout, apHandle pipeline, uint64_t stream, uint64_t streamSize,
	uint64_t preprocess, uint64_t preprocessSize, uint32_t maxSeq, uint64_t count);

#endif
