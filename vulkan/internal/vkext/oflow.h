// oflow.h: the VK_NV_optical_flow queries (features, properties, the
// formats reported per optical-flow usage) that package vulkan/replay
// reads to name what a device lacks for an OPTICAL_FLOW_NV use (see
// vkext.h; TestABIOpticalFlow checks these against vulkan_core.h
// 1.3.239). The session, bind and execute entry points are not declared:
// the replay records no optical flow work (docs/replay.md, what is left).

#ifndef ALIASPLAN_OFLOW_H
#define ALIASPLAN_OFLOW_H

#include "vkext.h"

enum {
	apSTypeOpticalFlowFeatures = 1000464000,
	apSTypeOpticalFlowProperties = 1000464001,
	apSTypeOpticalFlowImageFormatInfo = 1000464002,
	apSTypeOpticalFlowImageFormatProperties = 1000464003,
};

// VkOpticalFlowUsageFlagBitsNV.
enum {
	apOpticalFlowUsageInput = 0x1,
	apOpticalFlowUsageOutput = 0x2,
	apOpticalFlowUsageHint = 0x4,
	apOpticalFlowUsageCost = 0x8,
	apOpticalFlowUsageGlobalFlow = 0x10,
};

// VK_QUEUE_OPTICAL_FLOW_BIT_NV.
enum { apQueueOpticalFlow = 0x100 };

// apOpticalFlowMaxFormats bounds the formats read per usage.
enum { apOpticalFlowMaxFormats = 32 };

typedef struct apPhysicalDeviceOpticalFlowFeatures {
	int32_t sType;
	void *pNext;
	apBool32 opticalFlow;
} apPhysicalDeviceOpticalFlowFeatures;

typedef struct apPhysicalDeviceOpticalFlowProperties {
	int32_t sType;
	void *pNext;
	uint32_t supportedOutputGridSizes;
	uint32_t supportedHintGridSizes;
	apBool32 hintSupported;
	apBool32 costSupported;
	apBool32 bidirectionalFlowSupported;
	apBool32 globalFlowSupported;
	uint32_t minWidth;
	uint32_t minHeight;
	uint32_t maxWidth;
	uint32_t maxHeight;
	uint32_t maxNumRegionsOfInterest;
} apPhysicalDeviceOpticalFlowProperties;

typedef struct apOpticalFlowImageFormatInfo {
	int32_t sType;
	const void *pNext;
	uint32_t usage;
} apOpticalFlowImageFormatInfo;

typedef struct apOpticalFlowImageFormatProperties {
	int32_t sType;
	const void *pNext;
	int32_t format;
} apOpticalFlowImageFormatProperties;

// apOpticalFlowSupport fills *feat and *props (zeroed first) from
// vkGetPhysicalDeviceFeatures2/Properties2; call it only for a device that
// lists VK_NV_optical_flow.
void apOpticalFlowSupport(const apInstanceFns *fns, apHandle physical,
	apPhysicalDeviceOpticalFlowFeatures *feat, apPhysicalDeviceOpticalFlowProperties *props);

// apOpticalFlowFormats writes up to apOpticalFlowMaxFormats formats that
// vkGetPhysicalDeviceOpticalFlowImageFormatsNV reports for usage into
// formats and their number into *n; it returns the call's VkResult, or 1
// when the instance has no such entry point (*n is 0 then).
apResult apOpticalFlowFormats(const apInstanceFns *fns, apHandle physical, uint32_t usage, int32_t *formats, uint32_t *n);

#endif
