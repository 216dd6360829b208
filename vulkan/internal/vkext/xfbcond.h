// xfbcond.h: VK_EXT_transform_feedback and VK_EXT_conditional_rendering,
// the structures and entry points package vulkan/replay records (see
// vkext.h; TestABI checks these too).

#ifndef ALIASPLAN_XFBCOND_H
#define ALIASPLAN_XFBCOND_H

enum {
	apSTypeTransformFeedbackFeatures = 1000028000,
	apSTypeTransformFeedbackProperties = 1000028001,
	apSTypeConditionalRenderingFeatures = 1000081001,
	apSTypeConditionalRenderingBeginInfo = 1000081002,
};

typedef struct apPhysicalDeviceTransformFeedbackFeatures {
	int32_t sType;
	void *pNext;
	apBool32 transformFeedback;
	apBool32 geometryStreams;
} apPhysicalDeviceTransformFeedbackFeatures;

typedef struct apPhysicalDeviceTransformFeedbackProperties {
	int32_t sType;
	void *pNext;
	uint32_t maxTransformFeedbackStreams;
	uint32_t maxTransformFeedbackBuffers;
	uint64_t maxTransformFeedbackBufferSize;
	uint32_t maxTransformFeedbackStreamDataSize;
	uint32_t maxTransformFeedbackBufferDataSize;
	uint32_t maxTransformFeedbackBufferDataStride;
	apBool32 transformFeedbackQueries;
	apBool32 transformFeedbackStreamsLinesTriangles;
	apBool32 transformFeedbackRasterizationStreamSelect;
	apBool32 transformFeedbackDraw;
} apPhysicalDeviceTransformFeedbackProperties;

typedef struct apPhysicalDeviceConditionalRenderingFeatures {
	int32_t sType;
	void *pNext;
	apBool32 conditionalRendering;
	apBool32 inheritedConditionalRendering;
} apPhysicalDeviceConditionalRenderingFeatures;

typedef struct apConditionalRenderingBeginInfo {
	int32_t sType;
	const void *pNext;
	apHandle buffer;
	uint64_t offset;
	uint32_t flags;
} apConditionalRenderingBeginInfo;

typedef struct apXfbCondFns {
	void (*bindXfbBuffers)(apHandle, uint32_t, uint32_t, const apHandle *, const uint64_t *, const uint64_t *);
	void (*beginXfb)(apHandle, uint32_t, uint32_t, const apHandle *, const uint64_t *);
	void (*endXfb)(apHandle, uint32_t, uint32_t, const apHandle *, const uint64_t *);
	void (*drawByteCount)(apHandle, uint32_t, uint32_t, apHandle, uint64_t, uint32_t, uint32_t);
	void (*beginCond)(apHandle, const apConditionalRenderingBeginInfo *);
	void (*endCond)(apHandle);
} apXfbCondFns;

void apXfbCondSupported(const apInstanceFns *fns, apHandle physical, int *xfb, int *cond,
	uint32_t *maxBuffers, uint64_t *maxBufferSize, uint32_t *maxStride, int *xfbDraw);
void *apNewXfbCondChain(int xfb, int cond, void *next, void **head);
int apLoadXfbCond(const apInstanceFns *ifns, apHandle device, int xfb, int cond, apXfbCondFns *fns);
void apCmdBindXfbBuffer(const apXfbCondFns *fns, apHandle cmd, apHandle buffer, uint64_t offset, uint64_t size);
void apCmdBeginXfb(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset);
void apCmdEndXfb(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset);
void apCmdDrawByteCount(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset, uint32_t stride);
void apCmdBeginCond(const apXfbCondFns *fns, apHandle cmd, apHandle buffer, uint64_t offset);
void apCmdEndCond(const apXfbCondFns *fns, apHandle cmd);

#endif
