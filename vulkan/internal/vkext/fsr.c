// fsr.c: VK_KHR_fragment_shading_rate queries, feature chain, pipeline
// state and rendering (see fsr.h).
#include <stdlib.h>
#include <string.h>

#include "fsr.h"

typedef void *(*apGIPA)(apHandle, const char *);

void apFSRSupport(const apInstanceFns *fns, apHandle physical, apBool32 *pipeline, apBool32 *primitive, apBool32 *attachment) {
	apPhysicalDeviceFragmentShadingRateFeatures f;
	memset(&f, 0, sizeof f);
	f.sType = apSTypeFSRFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &f;
	fns->getFeatures2(physical, &f2);
	*pipeline = f.pipelineFragmentShadingRate;
	*primitive = f.primitiveFragmentShadingRate;
	*attachment = f.attachmentFragmentShadingRate;
}

void apFSRProperties(const apInstanceFns *fns, apHandle physical, apPhysicalDeviceFragmentShadingRateProperties *out) {
	memset(out, 0, sizeof *out);
	out->sType = apSTypeFSRProperties;
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = out;
	fns->getProperties2(physical, &p2);
	out->pNext = NULL;
}

apResult apFSRRates(const apInstanceFns *fns, apHandle physical, uint32_t *n, apPhysicalDeviceFragmentShadingRate *out) {
	apGIPA gipa = (apGIPA)apGetInstanceProcAddr();
	*n = 0;
	if (gipa == NULL) {
		return -7;
	}
	apResult (*get)(apHandle, uint32_t *, apPhysicalDeviceFragmentShadingRate *) =
		(apResult(*)(apHandle, uint32_t *, apPhysicalDeviceFragmentShadingRate *))gipa(fns->instance, "vkGetPhysicalDeviceFragmentShadingRatesKHR");
	if (get == NULL) {
		return -7;
	}
	for (uint32_t i = 0; i < apMaxFSRRates; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].sType = apSTypeFSRRate;
	}
	uint32_t count = apMaxFSRRates;
	apResult r = get(physical, &count, out);
	*n = count;
	return r; // VK_INCOMPLETE (5) when the device lists more
}

void *apNewFSRChain(void *next) {
	apPhysicalDeviceFragmentShadingRateFeatures *f = calloc(1, sizeof *f);
	if (f == NULL) {
		return NULL;
	}
	f->sType = apSTypeFSRFeatures;
	f->pNext = next;
	// The attachment path needs pipelineFragmentShadingRate too (a device
	// with any of the three features has that one).
	f->pipelineFragmentShadingRate = 1;
	f->attachmentFragmentShadingRate = 1;
	return f;
}

void *apNewFSRPipelineChain(void) {
	struct chain {
		apPipelineRenderingCreateInfo pr;
		apPipelineFragmentShadingRateStateCreateInfo st;
	} *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->pr.sType = apSTypePipelineRenderingCreateInfo;
	c->pr.pNext = &c->st;
	c->pr.depthAttachmentFormat = 0;   // VK_FORMAT_UNDEFINED
	c->pr.stencilAttachmentFormat = 0;
	c->st.sType = apSTypePipelineFSRState;
	c->st.fragmentSize.width = 1;
	c->st.fragmentSize.height = 1;
	c->st.combinerOps[0] = apFSRCombinerKeep;    // the pipeline's 1x1 (no primitive rate)
	c->st.combinerOps[1] = apFSRCombinerReplace; // the attachment's rate
	return c;
}

void apBeginRenderingFSR(const apRenderingFns *fns, apHandle cmd, uint32_t w, uint32_t h, apHandle view, int32_t layout, uint32_t tw, uint32_t th) {
	apRenderingFragmentShadingRateAttachmentInfo fsr;
	memset(&fsr, 0, sizeof fsr);
	fsr.sType = apSTypeRenderingFSRAttachment;
	fsr.imageView = view;
	fsr.imageLayout = layout;
	fsr.shadingRateAttachmentTexelSize.width = tw;
	fsr.shadingRateAttachmentTexelSize.height = th;
	apRenderingInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeRenderingInfo;
	info.pNext = &fsr;
	info.renderArea.width = w;
	info.renderArea.height = h;
	info.layerCount = 1;
	fns->begin(cmd, &info);
}
