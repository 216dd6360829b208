// oflow.c: VK_NV_optical_flow queries (oflow.h).
#include <string.h>

#include "oflow.h"

typedef apResult (*apOpticalFlowFormatsFn)(apHandle, const apOpticalFlowImageFormatInfo *, uint32_t *, apOpticalFlowImageFormatProperties *);
typedef void *(*apInstanceProcFn)(apHandle, const char *);

void apOpticalFlowSupport(const apInstanceFns *fns, apHandle physical,
	apPhysicalDeviceOpticalFlowFeatures *feat, apPhysicalDeviceOpticalFlowProperties *props) {
	memset(feat, 0, sizeof *feat);
	feat->sType = apSTypeOpticalFlowFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = feat;
	fns->getFeatures2(physical, &f2);
	feat->pNext = NULL;
	memset(props, 0, sizeof *props);
	props->sType = apSTypeOpticalFlowProperties;
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = props;
	fns->getProperties2(physical, &p2);
	props->pNext = NULL;
}

apResult apOpticalFlowFormats(const apInstanceFns *fns, apHandle physical, uint32_t usage, int32_t *formats, uint32_t *n) {
	*n = 0;
	apInstanceProcFn gipa = (apInstanceProcFn)apGetInstanceProcAddr();
	if (gipa == NULL) {
		return 1;
	}
	apOpticalFlowFormatsFn get = (apOpticalFlowFormatsFn)gipa(fns->instance, "vkGetPhysicalDeviceOpticalFlowImageFormatsNV");
	if (get == NULL) {
		return 1;
	}
	apOpticalFlowImageFormatInfo info = {apSTypeOpticalFlowImageFormatInfo, NULL, usage};
	apOpticalFlowImageFormatProperties props[apOpticalFlowMaxFormats];
	memset(props, 0, sizeof props);
	for (int i = 0; i < apOpticalFlowMaxFormats; i++) {
		props[i].sType = apSTypeOpticalFlowImageFormatProperties;
	}
	uint32_t count = apOpticalFlowMaxFormats;
	apResult r = get(physical, &info, &count, props);
	if (r < 0) {
		return r;
	}
	for (uint32_t i = 0; i < count && i < apOpticalFlowMaxFormats; i++) {
		formats[i] = props[i].format;
	}
	*n = count < apOpticalFlowMaxFormats ? count : apOpticalFlowMaxFormats;
	return r;
}
