// xfbcond.c: transform feedback and conditional rendering (xfbcond.h).
#include <stdlib.h>
#include <string.h>

#include "vkext.h"

void apXfbCondSupported(const apInstanceFns *fns, apHandle physical, int *xfb, int *cond,
	uint32_t *maxBuffers, uint64_t *maxBufferSize, uint32_t *maxStride, int *xfbDraw) {
	apPhysicalDeviceConditionalRenderingFeatures cr = {apSTypeConditionalRenderingFeatures, NULL, 0, 0};
	apPhysicalDeviceTransformFeedbackFeatures tf = {apSTypeTransformFeedbackFeatures, &cr, 0, 0};
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &tf;
	fns->getFeatures2(physical, &f2);
	*xfb = tf.transformFeedback != 0;
	*cond = cr.conditionalRendering != 0;
	apPhysicalDeviceTransformFeedbackProperties tp;
	memset(&tp, 0, sizeof tp);
	tp.sType = apSTypeTransformFeedbackProperties;
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = &tp;
	fns->getProperties2(physical, &p2);
	*maxBuffers = tp.maxTransformFeedbackBuffers;
	*maxBufferSize = tp.maxTransformFeedbackBufferSize;
	*maxStride = tp.maxTransformFeedbackBufferDataStride;
	*xfbDraw = tp.transformFeedbackDraw != 0;
}

// apNewXfbCondChain: the feature structures of the extensions asked for,
// ahead of next, in one allocation (free the returned pointer); *head is
// the chain's first structure (next when neither is asked for).
void *apNewXfbCondChain(int xfb, int cond, void *next, void **head) {
	struct chain {
		apPhysicalDeviceTransformFeedbackFeatures tf;
		apPhysicalDeviceConditionalRenderingFeatures cr;
	} *c = calloc(1, sizeof *c);
	*head = next;
	if (c == NULL) {
		return NULL;
	}
	if (cond) {
		c->cr.sType = apSTypeConditionalRenderingFeatures;
		c->cr.conditionalRendering = 1;
		c->cr.pNext = *head;
		*head = &c->cr;
	}
	if (xfb) {
		c->tf.sType = apSTypeTransformFeedbackFeatures;
		c->tf.transformFeedback = 1;
		c->tf.pNext = *head;
		*head = &c->tf;
	}
	return c;
}

int apLoadXfbCond(const apInstanceFns *ifns, apHandle device, int xfb, int cond, apXfbCondFns *fns) {
	memset(fns, 0, sizeof *fns);
	if (xfb) {
		fns->bindXfbBuffers = ifns->getDeviceProcAddr(device, "vkCmdBindTransformFeedbackBuffersEXT");
		fns->beginXfb = ifns->getDeviceProcAddr(device, "vkCmdBeginTransformFeedbackEXT");
		fns->endXfb = ifns->getDeviceProcAddr(device, "vkCmdEndTransformFeedbackEXT");
		fns->drawByteCount = ifns->getDeviceProcAddr(device, "vkCmdDrawIndirectByteCountEXT");
		if (fns->bindXfbBuffers == NULL || fns->beginXfb == NULL || fns->endXfb == NULL || fns->drawByteCount == NULL) {
			return -1;
		}
	}
	if (cond) {
		fns->beginCond = ifns->getDeviceProcAddr(device, "vkCmdBeginConditionalRenderingEXT");
		fns->endCond = ifns->getDeviceProcAddr(device, "vkCmdEndConditionalRenderingEXT");
		if (fns->beginCond == NULL || fns->endCond == NULL) {
			return -2;
		}
	}
	return 0;
}

void apCmdBindXfbBuffer(const apXfbCondFns *fns, apHandle cmd, apHandle buffer, uint64_t offset, uint64_t size) {
	fns->bindXfbBuffers(cmd, 0, 1, &buffer, &offset, &size);
}

void apCmdBeginXfb(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset) {
	fns->beginXfb(cmd, 0, counter != NULL ? 1 : 0, counter != NULL ? &counter : NULL, counter != NULL ? &offset : NULL);
}

void apCmdEndXfb(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset) {
	fns->endXfb(cmd, 0, counter != NULL ? 1 : 0, counter != NULL ? &counter : NULL, counter != NULL ? &offset : NULL);
}

void apCmdDrawByteCount(const apXfbCondFns *fns, apHandle cmd, apHandle counter, uint64_t offset, uint32_t stride) {
	fns->drawByteCount(cmd, 1, 0, counter, offset, 0, stride);
}

void apCmdBeginCond(const apXfbCondFns *fns, apHandle cmd, apHandle buffer, uint64_t offset) {
	apConditionalRenderingBeginInfo info = {apSTypeConditionalRenderingBeginInfo, NULL, buffer, offset, 0};
	fns->beginCond(cmd, &info);
}

void apCmdEndCond(const apXfbCondFns *fns, apHandle cmd) { fns->endCond(cmd); }
