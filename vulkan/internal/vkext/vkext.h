// vkext.h: the few Vulkan structures and entry points that
// github.com/goki/vulkan does not wrap (the promoted *2 calls,
// synchronization2, debug utils, validation features), declared by hand so
// that building needs no Vulkan headers.
//
// Every ap* structure has the layout of the Vulkan structure it is named
// after (vulkan_core.h 1.3.239); TestABI checks this against the header
// goki/vulkan bundles. Handles are pointers: this file targets 64-bit
// platforms, where non-dispatchable handles are pointers too.

#ifndef ALIASPLAN_VKEXT_H
#define ALIASPLAN_VKEXT_H

#include <stddef.h>
#include <stdint.h>

_Static_assert(sizeof(void *) == 8, "aliasplan/vulkan needs a 64-bit target");

typedef void *apHandle;
typedef int32_t apResult;
typedef uint32_t apBool32;

// VkStructureType values.
enum {
	apSTypeFeatures2 = 1000059000,
	apSTypeProperties2 = 1000059001,
	apSTypeDedicatedRequirements = 1000127000,
	apSTypeDedicatedAllocateInfo = 1000127001,
	apSTypeDebugUtilsCallbackData = 1000128003,
	apSTypeDebugUtilsMessengerCreateInfo = 1000128004,
	apSTypeBufferRequirementsInfo2 = 1000146000,
	apSTypeImageRequirementsInfo2 = 1000146001,
	apSTypeMemoryRequirements2 = 1000146003,
	apSTypeBindBufferMemoryInfo = 1000157000,
	apSTypeBindImageMemoryInfo = 1000157001,
	apSTypeMaintenance3Properties = 1000168000,
	apSTypeDriverProperties = 1000196000,
	apSTypeValidationFeatures = 1000247000,
	apSTypeMemoryBarrier2 = 1000314000,
	apSTypeBufferMemoryBarrier2 = 1000314001,
	apSTypeImageMemoryBarrier2 = 1000314002,
	apSTypeDependencyInfo = 1000314003,
	apSTypeSync2Features = 1000314007,
};

// VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
enum { apValidationSync = 4 };
enum { apValidationDisableUniqueHandles = 6 };

typedef struct apBufferMemoryRequirementsInfo2 {
	int32_t sType;
	const void *pNext;
	apHandle buffer;
} apBufferMemoryRequirementsInfo2;

typedef struct apImageMemoryRequirementsInfo2 {
	int32_t sType;
	const void *pNext;
	apHandle image;
} apImageMemoryRequirementsInfo2;

typedef struct apMemoryRequirements {
	uint64_t size;
	uint64_t alignment;
	uint32_t memoryTypeBits;
} apMemoryRequirements;

typedef struct apMemoryRequirements2 {
	int32_t sType;
	void *pNext;
	apMemoryRequirements memoryRequirements;
} apMemoryRequirements2;

typedef struct apMemoryDedicatedRequirements {
	int32_t sType;
	void *pNext;
	apBool32 prefersDedicatedAllocation;
	apBool32 requiresDedicatedAllocation;
} apMemoryDedicatedRequirements;

typedef struct apMemoryDedicatedAllocateInfo {
	int32_t sType;
	const void *pNext;
	apHandle image;
	apHandle buffer;
} apMemoryDedicatedAllocateInfo;

typedef struct apBindBufferMemoryInfo {
	int32_t sType;
	const void *pNext;
	apHandle buffer;
	apHandle memory;
	uint64_t memoryOffset;
} apBindBufferMemoryInfo;

typedef struct apBindImageMemoryInfo {
	int32_t sType;
	const void *pNext;
	apHandle image;
	apHandle memory;
	uint64_t memoryOffset;
} apBindImageMemoryInfo;

typedef struct apPhysicalDeviceFeatures2 {
	int32_t sType;
	void *pNext;
	apBool32 features[55]; // VkPhysicalDeviceFeatures: 55 VkBool32
} apPhysicalDeviceFeatures2;

typedef struct apPhysicalDeviceSynchronization2Features {
	int32_t sType;
	void *pNext;
	apBool32 synchronization2;
} apPhysicalDeviceSynchronization2Features;

typedef struct apPhysicalDeviceMaintenance3Properties {
	int32_t sType;
	void *pNext;
	uint32_t maxPerSetDescriptors;
	uint64_t maxMemoryAllocationSize;
} apPhysicalDeviceMaintenance3Properties;

typedef struct apPhysicalDeviceDriverProperties {
	int32_t sType;
	void *pNext;
	int32_t driverID;
	char driverName[256];
	char driverInfo[256];
	uint8_t conformanceVersion[4];
} apPhysicalDeviceDriverProperties;

// apPhysicalDeviceProperties2 keeps VkPhysicalDeviceProperties as opaque
// bytes: only the chained structures are read. The array is larger than
// the real structure (TestABI checks that), which is harmless: the driver
// writes the real size.
typedef struct apPhysicalDeviceProperties2 {
	int32_t sType;
	void *pNext;
	uint64_t properties[128];
} apPhysicalDeviceProperties2;

typedef struct apMemoryBarrier2 {
	int32_t sType;
	const void *pNext;
	uint64_t srcStageMask;
	uint64_t srcAccessMask;
	uint64_t dstStageMask;
	uint64_t dstAccessMask;
} apMemoryBarrier2;

typedef struct apBufferMemoryBarrier2 {
	int32_t sType;
	const void *pNext;
	uint64_t srcStageMask;
	uint64_t srcAccessMask;
	uint64_t dstStageMask;
	uint64_t dstAccessMask;
	uint32_t srcQueueFamilyIndex;
	uint32_t dstQueueFamilyIndex;
	apHandle buffer;
	uint64_t offset;
	uint64_t size;
} apBufferMemoryBarrier2;

typedef struct apImageSubresourceRange {
	uint32_t aspectMask;
	uint32_t baseMipLevel;
	uint32_t levelCount;
	uint32_t baseArrayLayer;
	uint32_t layerCount;
} apImageSubresourceRange;

typedef struct apImageMemoryBarrier2 {
	int32_t sType;
	const void *pNext;
	uint64_t srcStageMask;
	uint64_t srcAccessMask;
	uint64_t dstStageMask;
	uint64_t dstAccessMask;
	int32_t oldLayout;
	int32_t newLayout;
	uint32_t srcQueueFamilyIndex;
	uint32_t dstQueueFamilyIndex;
	apHandle image;
	apImageSubresourceRange subresourceRange;
} apImageMemoryBarrier2;

typedef struct apDependencyInfo {
	int32_t sType;
	const void *pNext;
	uint32_t dependencyFlags;
	uint32_t memoryBarrierCount;
	const apMemoryBarrier2 *pMemoryBarriers;
	uint32_t bufferMemoryBarrierCount;
	const apBufferMemoryBarrier2 *pBufferMemoryBarriers;
	uint32_t imageMemoryBarrierCount;
	const apImageMemoryBarrier2 *pImageMemoryBarriers;
} apDependencyInfo;

typedef struct apValidationFeatures {
	int32_t sType;
	const void *pNext;
	uint32_t enabledValidationFeatureCount;
	const int32_t *pEnabledValidationFeatures;
	uint32_t disabledValidationFeatureCount;
	const int32_t *pDisabledValidationFeatures;
} apValidationFeatures;

typedef struct apDebugUtilsMessengerCallbackData {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	const char *pMessageIdName;
	int32_t messageIdNumber;
	const char *pMessage;
	uint32_t queueLabelCount;
	const void *pQueueLabels;
	uint32_t cmdBufLabelCount;
	const void *pCmdBufLabels;
	uint32_t objectCount;
	const void *pObjects;
} apDebugUtilsMessengerCallbackData;

typedef apBool32 (*apDebugUtilsCallback)(uint32_t severity, uint32_t types,
	const apDebugUtilsMessengerCallbackData *data, void *user);

typedef struct apDebugUtilsMessengerCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint32_t messageSeverity;
	uint32_t messageType;
	apDebugUtilsCallback pfnUserCallback;
	void *pUserData;
} apDebugUtilsMessengerCreateInfo;

// Entry points of one instance.
typedef struct apInstanceFns {
	apHandle instance;
	void *(*getDeviceProcAddr)(apHandle, const char *);
	void (*getFeatures2)(apHandle, apPhysicalDeviceFeatures2 *);
	void (*getProperties2)(apHandle, apPhysicalDeviceProperties2 *);
	apResult (*createMessenger)(apHandle, const apDebugUtilsMessengerCreateInfo *, const void *, apHandle *);
	void (*destroyMessenger)(apHandle, apHandle, const void *);
} apInstanceFns;

// Entry points of one device.
typedef struct apDeviceFns {
	apHandle device;
	void (*bufferRequirements2)(apHandle, const apBufferMemoryRequirementsInfo2 *, apMemoryRequirements2 *);
	void (*imageRequirements2)(apHandle, const apImageMemoryRequirementsInfo2 *, apMemoryRequirements2 *);
	apResult (*bindBufferMemory2)(apHandle, uint32_t, const apBindBufferMemoryInfo *);
	apResult (*bindImageMemory2)(apHandle, uint32_t, const apBindImageMemoryInfo *);
	void (*cmdPipelineBarrier2)(apHandle, const apDependencyInfo *);
} apDeviceFns;

int apLoad(char *err, size_t errlen);
void *apGetInstanceProcAddr(void);
uint32_t apInstanceVersion(void);

int apLoadInstance(apHandle instance, apInstanceFns *fns);
int apLoadDevice(const apInstanceFns *ifns, apHandle device, int sync2KHR, apDeviceFns *fns, const char **missing);

int apSync2Supported(const apInstanceFns *fns, apHandle physical);
void apDeviceProperties(const apInstanceFns *fns, apHandle physical, int driverProps,
	uint64_t *maxAllocation, char *driverName, char *driverInfo);

void *apNewValidationChain(int syncValidation, int noUniqueHandles, uintptr_t user, void **head);
void *apNewSync2Chain(void);
void *apNewDedicatedAllocateInfo(apHandle buffer, apHandle image);
void apFree(void *p);

apResult apCreateMessenger(const apInstanceFns *fns, uintptr_t user, apHandle *out);
void apDestroyMessenger(const apInstanceFns *fns, apHandle messenger);

void apBufferRequirements(const apDeviceFns *fns, apHandle buffer, apMemoryRequirements *req, apBool32 *prefers, apBool32 *requires);
void apImageRequirements(const apDeviceFns *fns, apHandle image, apMemoryRequirements *req, apBool32 *prefers, apBool32 *requires);
apResult apBindBuffers(const apDeviceFns *fns, uint32_t n, const apBindBufferMemoryInfo *infos);
apResult apBindImages(const apDeviceFns *fns, uint32_t n, const apBindImageMemoryInfo *infos);
void apPipelineBarrier2(const apDeviceFns *fns, apHandle cmd,
	uint32_t nm, const apMemoryBarrier2 *m,
	uint32_t nb, const apBufferMemoryBarrier2 *b,
	uint32_t ni, const apImageMemoryBarrier2 *i);

// Dynamic rendering (core 1.3) and the device features replay enables;
// used by package vulkan/replay.
enum {
	apSTypeRenderingInfo = 1000044000,
	apSTypeRenderingAttachmentInfo = 1000044001,
	apSTypePipelineRenderingCreateInfo = 1000044002,
	apSTypeDynamicRenderingFeatures = 1000044003,
	apSTypeSeparateDepthStencilLayoutsFeatures = 1000241000,
	apSTypeRobustness2Features = 1000286000,
};

typedef union apClearValue {
	float color[4];
	uint32_t ucolor[4];
	struct {
		float depth;
		uint32_t stencil;
	} ds;
} apClearValue;

typedef struct apRenderingAttachmentInfo {
	int32_t sType;
	const void *pNext;
	apHandle imageView;
	int32_t imageLayout;
	uint32_t resolveMode;
	apHandle resolveImageView;
	int32_t resolveImageLayout;
	int32_t loadOp;
	int32_t storeOp;
	apClearValue clearValue;
} apRenderingAttachmentInfo;

typedef struct apRect2D {
	int32_t x, y;
	uint32_t width, height;
} apRect2D;

typedef struct apRenderingInfo {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	apRect2D renderArea;
	uint32_t layerCount;
	uint32_t viewMask;
	uint32_t colorAttachmentCount;
	const apRenderingAttachmentInfo *pColorAttachments;
	const apRenderingAttachmentInfo *pDepthAttachment;
	const apRenderingAttachmentInfo *pStencilAttachment;
} apRenderingInfo;

typedef struct apPipelineRenderingCreateInfo {
	int32_t sType;
	const void *pNext;
	uint32_t viewMask;
	uint32_t colorAttachmentCount;
	const int32_t *pColorAttachmentFormats;
	int32_t depthAttachmentFormat;
	int32_t stencilAttachmentFormat;
} apPipelineRenderingCreateInfo;

typedef struct apPhysicalDeviceDynamicRenderingFeatures {
	int32_t sType;
	void *pNext;
	apBool32 dynamicRendering;
} apPhysicalDeviceDynamicRenderingFeatures;

typedef struct apPhysicalDeviceSeparateDepthStencilLayoutsFeatures {
	int32_t sType;
	void *pNext;
	apBool32 separateDepthStencilLayouts;
} apPhysicalDeviceSeparateDepthStencilLayoutsFeatures;

typedef struct apPhysicalDeviceRobustness2Features {
	int32_t sType;
	void *pNext;
	apBool32 robustBufferAccess2;
	apBool32 robustImageAccess2;
	apBool32 nullDescriptor;
} apPhysicalDeviceRobustness2Features;

typedef struct apRenderingFns {
	void (*begin)(apHandle, const apRenderingInfo *);
	void (*end)(apHandle);
} apRenderingFns;

int apLoadRendering(const apInstanceFns *ifns, apHandle device, apRenderingFns *fns);
int apRenderingSupported(const apInstanceFns *fns, apHandle physical);
void *apNewReplayChain(void);
void *apNewPipelineRendering(uint32_t n, const int32_t *formats, int32_t depth, int32_t stencil);
void apBeginRendering(const apRenderingFns *fns, apHandle cmd, const apRect2D *area,
	uint32_t nColor, const apRenderingAttachmentInfo *color,
	const apRenderingAttachmentInfo *depth, const apRenderingAttachmentInfo *stencil);
void apEndRendering(const apRenderingFns *fns, apHandle cmd);

// Queue submission (submit.c): vkQueueSubmit2 with binary semaphores.
typedef struct apSemaphoreSubmitInfo {
	int32_t sType;
	const void *pNext;
	apHandle semaphore;
	uint64_t value;
	uint64_t stageMask;
	uint32_t deviceIndex;
} apSemaphoreSubmitInfo;

typedef struct apCommandBufferSubmitInfo {
	int32_t sType;
	const void *pNext;
	apHandle commandBuffer;
	uint32_t deviceMask;
} apCommandBufferSubmitInfo;

typedef struct apSubmitInfo2 {
	int32_t sType;
	const void *pNext;
	uint32_t flags;
	uint32_t waitSemaphoreInfoCount;
	const apSemaphoreSubmitInfo *pWaitSemaphoreInfos;
	uint32_t commandBufferInfoCount;
	const apCommandBufferSubmitInfo *pCommandBufferInfos;
	uint32_t signalSemaphoreInfoCount;
	const apSemaphoreSubmitInfo *pSignalSemaphoreInfos;
} apSubmitInfo2;

#define apSTypeSubmitInfo2 1000314004
#define apSTypeSemaphoreSubmitInfo 1000314005
#define apSTypeCommandBufferSubmitInfo 1000314006

typedef struct apSubmitFns {
	apResult (*queueSubmit2)(apHandle, uint32_t, const apSubmitInfo2 *, apHandle);
} apSubmitFns;

int apLoadSubmit(const apInstanceFns *ifns, apHandle device, int sync2KHR, apSubmitFns *fns);
apResult apQueueSubmit2(const apSubmitFns *fns, apHandle queue, apHandle cmd,
	uint32_t nw, const apSemaphoreSubmitInfo *w, uint32_t ns, const apSemaphoreSubmitInfo *s, apHandle fence);

#include "xfbcond.h" // transform feedback, conditional rendering

#endif
