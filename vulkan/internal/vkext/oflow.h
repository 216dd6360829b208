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
	apSTypeOpticalFlowSessionCreateInfo = 1000464004,
	apSTypeOpticalFlowExecuteInfo = 1000464005,
};

// VkOpticalFlowSessionBindingPointNV, VkOpticalFlowSessionCreateFlagBitsNV,
// VkOpticalFlowExecuteFlagBitsNV, VkOpticalFlowPerformanceLevelNV values.
enum {
	apOpticalFlowBindInput = 1,
	apOpticalFlowBindReference = 2,
	apOpticalFlowBindFlowVector = 4,
	apOpticalFlowBindCost = 6,
	apOpticalFlowSessionEnableCost = 0x2,
	apOpticalFlowExecuteDisableTemporalHints = 0x1,
	apOpticalFlowPerformanceMedium = 2,
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

typedef struct apOpticalFlowSessionCreateInfo {
	int32_t sType;
	void *pNext;
	uint32_t width;
	uint32_t height;
	int32_t imageFormat;
	int32_t flowVectorFormat;
	int32_t costFormat;
	uint32_t outputGridSize;
	uint32_t hintGridSize;
	int32_t performanceLevel;
	uint32_t flags;
} apOpticalFlowSessionCreateInfo;

typedef struct apOpticalFlowExecuteInfo {
	int32_t sType;
	void *pNext;
	uint32_t flags;
	uint32_t regionCount;
	const void *pRegions; // VkRect2D
} apOpticalFlowExecuteInfo;

typedef struct apOpticalFlowFns {
	apResult (*create)(apHandle, const apOpticalFlowSessionCreateInfo *, const void *, apHandle *);
	void (*destroy)(apHandle, apHandle, const void *);
	apResult (*bind)(apHandle, apHandle, int32_t, apHandle, int32_t);
	void (*execute)(apHandle, apHandle, const apOpticalFlowExecuteInfo *);
} apOpticalFlowFns;

// apLoadOpticalFlow resolves the session entry points of device (0, or
// -1 when one is missing).
int apLoadOpticalFlow(const apInstanceFns *ifns, apHandle device, apOpticalFlowFns *fns);
// apNewOpticalFlowFeatures is VkPhysicalDeviceOpticalFlowFeaturesNV with
// opticalFlow on, ahead of next (free it after vkCreateDevice).
void *apNewOpticalFlowFeatures(void *next);
// apNewOpticalFlowImageInfo is VkOpticalFlowImageFormatInfoNV of usage,
// for VkImageCreateInfo.pNext (free it after vkCreateImage).
void *apNewOpticalFlowImageInfo(uint32_t usage);
apResult apCreateOpticalFlowSession(const apOpticalFlowFns *fns, apHandle device, const apOpticalFlowSessionCreateInfo *info, apHandle *session);
void apDestroyOpticalFlowSession(const apOpticalFlowFns *fns, apHandle device, apHandle session);
apResult apBindOpticalFlowSessionImage(const apOpticalFlowFns *fns, apHandle device, apHandle session, int32_t point, apHandle view, int32_t layout);
void apCmdOpticalFlowExecute(const apOpticalFlowFns *fns, apHandle cmd, apHandle session, uint32_t flags);

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
