// oflow.c: VK_NV_optical_flow queries (oflow.h).
#include <stdlib.h>
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

int apLoadOpticalFlow(const apInstanceFns *ifns, apHandle device, apOpticalFlowFns *fns) {
	memset(fns, 0, sizeof *fns);
	fns->create = ifns->getDeviceProcAddr(device, "vkCreateOpticalFlowSessionNV");
	fns->destroy = ifns->getDeviceProcAddr(device, "vkDestroyOpticalFlowSessionNV");
	fns->bind = ifns->getDeviceProcAddr(device, "vkBindOpticalFlowSessionImageNV");
	fns->execute = ifns->getDeviceProcAddr(device, "vkCmdOpticalFlowExecuteNV");
	if (fns->create == NULL || fns->destroy == NULL || fns->bind == NULL || fns->execute == NULL) {
		return -1;
	}
	return 0;
}

void *apNewOpticalFlowFeatures(void *next) {
	apPhysicalDeviceOpticalFlowFeatures *f = calloc(1, sizeof *f);
	if (f == NULL) {
		return NULL;
	}
	f->sType = apSTypeOpticalFlowFeatures;
	f->pNext = next;
	f->opticalFlow = 1;
	return f;
}

apResult apCreateOpticalFlowSession(const apOpticalFlowFns *fns, apHandle device, const apOpticalFlowSessionCreateInfo *info, apHandle *session) {
	apOpticalFlowSessionCreateInfo c = *info;
	c.sType = apSTypeOpticalFlowSessionCreateInfo;
	c.pNext = NULL;
	*session = NULL;
	return fns->create(device, &c, NULL, session);
}

void apCmdOpticalFlowExecute(const apOpticalFlowFns *fns, apHandle cmd, apHandle session, uint32_t flags) {
	apOpticalFlowExecuteInfo info = {apSTypeOpticalFlowExecuteInfo, NULL, flags, 0, NULL};
	fns->execute(cmd, session, &info);
}

void apDestroyOpticalFlowSession(const apOpticalFlowFns *fns, apHandle device, apHandle session) {
	fns->destroy(device, session, NULL);
}

apResult apBindOpticalFlowSessionImage(const apOpticalFlowFns *fns, apHandle device, apHandle session, int32_t point, apHandle view, int32_t layout) {
	return fns->bind(device, session, point, view, layout);
}

void *apNewOpticalFlowImageInfo(uint32_t usage) {
	apOpticalFlowImageFormatInfo *i = calloc(1, sizeof *i);
	if (i == NULL) {
		return NULL;
	}
	i->sType = apSTypeOpticalFlowImageFormatInfo;
	i->usage = usage;
	return i;
}
