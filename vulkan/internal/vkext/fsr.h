// fsr.h: VK_KHR_fragment_shading_rate's attachment path for the replay's
// shading-rate passes (package vulkan/replay, fsr.go), declared by hand
// like vkext.h (layouts of vulkan_core.h 1.3.239; fsr_abi_test.go checks
// them).

#ifndef ALIASPLAN_FSR_H
#define ALIASPLAN_FSR_H

#include "vkext.h"

#define apSTypePipelineFSRState 1000226001
#define apSTypeFSRProperties 1000226002
#define apSTypeFSRFeatures 1000226003
#define apSTypeFSRRate 1000226004
#define apSTypeRenderingFSRAttachment 1000044006

typedef struct apFSRExtent2D {
	uint32_t width;
	uint32_t height;
} apFSRExtent2D;

typedef struct apPhysicalDeviceFragmentShadingRateFeatures {
	int32_t sType;
	void *pNext;
	apBool32 pipelineFragmentShadingRate;
	apBool32 primitiveFragmentShadingRate;
	apBool32 attachmentFragmentShadingRate;
} apPhysicalDeviceFragmentShadingRateFeatures;

typedef struct apPhysicalDeviceFragmentShadingRateProperties {
	int32_t sType;
	void *pNext;
	apFSRExtent2D minFragmentShadingRateAttachmentTexelSize;
	apFSRExtent2D maxFragmentShadingRateAttachmentTexelSize;
	uint32_t maxFragmentShadingRateAttachmentTexelSizeAspectRatio;
	apBool32 primitiveFragmentShadingRateWithMultipleViewports;
	apBool32 layeredShadingRateAttachments;
	apBool32 fragmentShadingRateNonTrivialCombinerOps;
	apFSRExtent2D maxFragmentSize;
	uint32_t maxFragmentSizeAspectRatio;
	uint32_t maxFragmentShadingRateCoverageSamples;
	uint32_t maxFragmentShadingRateRasterizationSamples;
	apBool32 fragmentShadingRateWithShaderDepthStencilWrites;
	apBool32 fragmentShadingRateWithSampleMask;
	apBool32 fragmentShadingRateWithShaderSampleMask;
	apBool32 fragmentShadingRateWithConservativeRasterization;
	apBool32 fragmentShadingRateWithFragmentShaderInterlock;
	apBool32 fragmentShadingRateWithCustomSampleLocations;
	apBool32 fragmentShadingRateStrictMultiplyCombiner;
} apPhysicalDeviceFragmentShadingRateProperties;

typedef struct apPhysicalDeviceFragmentShadingRate {
	int32_t sType;
	void *pNext;
	uint32_t sampleCounts;
	apFSRExtent2D fragmentSize;
} apPhysicalDeviceFragmentShadingRate;

typedef struct apPipelineFragmentShadingRateStateCreateInfo {
	int32_t sType;
	const void *pNext;
	apFSRExtent2D fragmentSize;
	int32_t combinerOps[2];
} apPipelineFragmentShadingRateStateCreateInfo;

typedef struct apRenderingFragmentShadingRateAttachmentInfo {
	int32_t sType;
	const void *pNext;
	apHandle imageView;
	int32_t imageLayout;
	apFSRExtent2D shadingRateAttachmentTexelSize;
} apRenderingFragmentShadingRateAttachmentInfo;

// VkFragmentShadingRateCombinerOpKHR values the replay uses.
#define apFSRCombinerKeep 0
#define apFSRCombinerReplace 1
// VK_PIPELINE_CREATE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR.
#define apPipelineCreateFSRAttachment 0x00200000

#define apMaxFSRRates 32

// apFSRSupport: the extension's three features (query only where the
// device lists VK_KHR_fragment_shading_rate).
void apFSRSupport(const apInstanceFns *fns, apHandle physical, apBool32 *pipeline, apBool32 *primitive, apBool32 *attachment);
void apFSRProperties(const apInstanceFns *fns, apHandle physical, apPhysicalDeviceFragmentShadingRateProperties *out);
// apFSRRates: vkGetPhysicalDeviceFragmentShadingRatesKHR, at most
// apMaxFSRRates entries into out; *n their number. Returns the VkResult
// (-7, VK_ERROR_EXTENSION_NOT_PRESENT, when the entry point is missing).
apResult apFSRRates(const apInstanceFns *fns, apHandle physical, uint32_t *n, apPhysicalDeviceFragmentShadingRate *out);
// apNewFSRChain: pipelineFragmentShadingRate and attachmentFragmentShadingRate
// enabled, before next (free it).
void *apNewFSRChain(void *next);
// apNewFSRPipelineChain: VkPipelineRenderingCreateInfo without attachments
// followed by VkPipelineFragmentShadingRateStateCreateInfoKHR (fragment
// size 1x1, combiner ops KEEP and REPLACE: the attachment's rate), for
// VkGraphicsPipelineCreateInfo.pNext (free it).
void *apNewFSRPipelineChain(void);
// apBeginRenderingFSR: vkCmdBeginRendering over [0,w)x[0,h), one layer,
// no colour, depth or stencil attachment, view the shading-rate
// attachment in layout with texel size tw x th.
void apBeginRenderingFSR(const apRenderingFns *fns, apHandle cmd, uint32_t w, uint32_t h, apHandle view, int32_t layout, uint32_t tw, uint32_t th);

#endif
