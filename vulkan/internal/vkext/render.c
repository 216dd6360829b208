// render.c: dynamic rendering and the device features package
// vulkan/replay needs (see vkext.h).
#include <stdlib.h>
#include <string.h>

#include "vkext.h"

int apLoadRendering(const apInstanceFns *ifns, apHandle device, apRenderingFns *fns) {
	fns->begin = ifns->getDeviceProcAddr(device, "vkCmdBeginRendering");
	fns->end = ifns->getDeviceProcAddr(device, "vkCmdEndRendering");
	return fns->begin != NULL && fns->end != NULL ? 0 : -1;
}

int apRenderingSupported(const apInstanceFns *fns, apHandle physical) {
	apPhysicalDeviceRobustness2Features rob = {apSTypeRobustness2Features, NULL, 0, 0, 0};
	apPhysicalDeviceSeparateDepthStencilLayoutsFeatures sep = {apSTypeSeparateDepthStencilLayoutsFeatures, &rob, 0};
	apPhysicalDeviceDynamicRenderingFeatures dyn = {apSTypeDynamicRenderingFeatures, &sep, 0};
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &dyn;
	fns->getFeatures2(physical, &f2);
	return dyn.dynamicRendering != 0 && sep.separateDepthStencilLayouts != 0 && rob.nullDescriptor != 0;
}

// apNewReplayChain: synchronization2, dynamic rendering, separate
// depth/stencil layouts and null descriptors (VK_EXT_robustness2), in one
// allocation (free the first structure).
void *apNewReplayChain(void) {
	struct chain {
		apPhysicalDeviceSynchronization2Features sync2;
		apPhysicalDeviceDynamicRenderingFeatures dyn;
		apPhysicalDeviceSeparateDepthStencilLayoutsFeatures sep;
		apPhysicalDeviceRobustness2Features rob;
	} *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->sync2.sType = apSTypeSync2Features;
	c->sync2.synchronization2 = 1;
	c->sync2.pNext = &c->dyn;
	c->dyn.sType = apSTypeDynamicRenderingFeatures;
	c->dyn.dynamicRendering = 1;
	c->dyn.pNext = &c->sep;
	c->sep.sType = apSTypeSeparateDepthStencilLayoutsFeatures;
	c->sep.separateDepthStencilLayouts = 1;
	c->sep.pNext = &c->rob;
	c->rob.sType = apSTypeRobustness2Features;
	c->rob.nullDescriptor = 1;
	return c;
}

void *apNewPipelineRendering(uint32_t n, const int32_t *formats, int32_t depth, int32_t stencil) {
	struct pr {
		apPipelineRenderingCreateInfo info;
		int32_t formats[8];
	} *p = calloc(1, sizeof *p);
	if (p == NULL || n > 8) {
		free(p);
		return NULL;
	}
	memcpy(p->formats, formats, n * sizeof *formats);
	p->info.sType = apSTypePipelineRenderingCreateInfo;
	p->info.colorAttachmentCount = n;
	p->info.pColorAttachmentFormats = p->formats;
	p->info.depthAttachmentFormat = depth;
	p->info.stencilAttachmentFormat = stencil;
	return p;
}

void apBeginRendering(const apRenderingFns *fns, apHandle cmd, const apRect2D *area,
	uint32_t nColor, const apRenderingAttachmentInfo *color,
	const apRenderingAttachmentInfo *depth, const apRenderingAttachmentInfo *stencil) {
	apRenderingInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeRenderingInfo;
	info.renderArea = *area;
	info.layerCount = 1;
	info.colorAttachmentCount = nColor;
	info.pColorAttachments = color;
	info.pDepthAttachment = depth;
	info.pStencilAttachment = stencil;
	fns->begin(cmd, &info);
}

void apEndRendering(const apRenderingFns *fns, apHandle cmd) { fns->end(cmd); }
