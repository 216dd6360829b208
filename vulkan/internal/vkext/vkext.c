// vkext.c: loads libvulkan.so.1 and calls the entry points goki/vulkan does
// not wrap. See vkext.h.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkext.h"
#include "_cgo_export.h"

typedef void *(*apGetInstanceProcAddrFn)(apHandle, const char *);

static void *libvulkan;
static apGetInstanceProcAddrFn getInstanceProcAddr;

int apLoad(char *err, size_t errlen) {
	if (getInstanceProcAddr != NULL) {
		return 0;
	}
	// libvulkan.so.1, not libvulkan.so: the unversioned name only exists
	// with the -dev package.
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e != NULL ? e : "dlopen libvulkan.so.1 failed");
		return -1;
	}
	apGetInstanceProcAddrFn f = (apGetInstanceProcAddrFn)dlsym(lib, "vkGetInstanceProcAddr");
	if (f == NULL) {
		snprintf(err, errlen, "libvulkan.so.1 has no vkGetInstanceProcAddr");
		dlclose(lib);
		return -1;
	}
	libvulkan = lib;
	getInstanceProcAddr = f;
	return 0;
}

void *apGetInstanceProcAddr(void) { return (void *)getInstanceProcAddr; }

uint32_t apInstanceVersion(void) {
	apResult (*enumerate)(uint32_t *) = (apResult(*)(uint32_t *))getInstanceProcAddr(NULL, "vkEnumerateInstanceVersion");
	if (enumerate == NULL) {
		return 1u << 22; // a Vulkan 1.0 loader
	}
	uint32_t v = 0;
	if (enumerate(&v) != 0) {
		return 1u << 22;
	}
	return v;
}

int apLoadInstance(apHandle instance, apInstanceFns *fns) {
	memset(fns, 0, sizeof *fns);
	fns->instance = instance;
	fns->getDeviceProcAddr = getInstanceProcAddr(instance, "vkGetDeviceProcAddr");
	fns->getFeatures2 = getInstanceProcAddr(instance, "vkGetPhysicalDeviceFeatures2");
	fns->getProperties2 = getInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2");
	fns->createMessenger = getInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
	fns->destroyMessenger = getInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
	if (fns->getDeviceProcAddr == NULL || fns->getFeatures2 == NULL || fns->getProperties2 == NULL) {
		return -1;
	}
	return 0;
}

int apLoadDevice(const apInstanceFns *ifns, apHandle device, int sync2KHR, apDeviceFns *fns, const char **missing) {
	memset(fns, 0, sizeof *fns);
	fns->device = device;
#define LOAD(field, name)                                   \
	fns->field = ifns->getDeviceProcAddr(device, name); \
	if (fns->field == NULL) {                           \
		*missing = name;                            \
		return -1;                                  \
	}
	LOAD(bufferRequirements2, "vkGetBufferMemoryRequirements2");
	LOAD(imageRequirements2, "vkGetImageMemoryRequirements2");
	LOAD(bindBufferMemory2, "vkBindBufferMemory2");
	LOAD(bindImageMemory2, "vkBindImageMemory2");
	if (sync2KHR) {
		LOAD(cmdPipelineBarrier2, "vkCmdPipelineBarrier2KHR");
	} else {
		LOAD(cmdPipelineBarrier2, "vkCmdPipelineBarrier2");
	}
#undef LOAD
	return 0;
}

int apSync2Supported(const apInstanceFns *fns, apHandle physical) {
	apPhysicalDeviceSynchronization2Features sync2 = {apSTypeSync2Features, NULL, 0};
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &sync2;
	fns->getFeatures2(physical, &f2);
	return sync2.synchronization2 != 0;
}

void apDeviceProperties(const apInstanceFns *fns, apHandle physical, int driverProps,
	uint64_t *maxAllocation, char *driverName, char *driverInfo) {
	apPhysicalDeviceDriverProperties drv;
	memset(&drv, 0, sizeof drv);
	drv.sType = apSTypeDriverProperties;
	apPhysicalDeviceMaintenance3Properties m3;
	memset(&m3, 0, sizeof m3);
	m3.sType = apSTypeMaintenance3Properties;
	if (driverProps) {
		m3.pNext = &drv;
	}
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = &m3;
	fns->getProperties2(physical, &p2);
	*maxAllocation = m3.maxMemoryAllocationSize;
	memcpy(driverName, drv.driverName, sizeof drv.driverName);
	driverName[sizeof drv.driverName - 1] = 0;
	memcpy(driverInfo, drv.driverInfo, sizeof drv.driverInfo);
	driverInfo[sizeof drv.driverInfo - 1] = 0;
}

// apDebugCallback hands every message to Go, which copies the strings: the
// layer frees them when the callback returns.
static apBool32 apDebugCallback(uint32_t severity, uint32_t types,
	const apDebugUtilsMessengerCallbackData *data, void *user) {
	apGoDebugMessage((uintptr_t)user, severity, types,
		(char *)(data->pMessageIdName != NULL ? data->pMessageIdName : ""),
		data->messageIdNumber,
		(char *)(data->pMessage != NULL ? data->pMessage : ""));
	return 0; // VK_FALSE: never abort the call
}

// Warnings and errors of the general, validation and performance kinds.
static const uint32_t apSeverities = 0x00000100 | 0x00001000;
static const uint32_t apTypes = 0x1 | 0x2 | 0x4;

static void apMessengerInfo(apDebugUtilsMessengerCreateInfo *info, uintptr_t user) {
	memset(info, 0, sizeof *info);
	info->sType = apSTypeDebugUtilsMessengerCreateInfo;
	info->messageSeverity = apSeverities;
	info->messageType = apTypes;
	info->pfnUserCallback = apDebugCallback;
	info->pUserData = (void *)user;
}

// A validation chain for VkInstanceCreateInfo.pNext, in one allocation:
// VkValidationFeaturesEXT (when syncValidation or noUniqueHandles) then a
// messenger create info, which reports the messages of vkCreateInstance
// and vkDestroyInstance themselves. The allocation is returned for apFree;
// the chain's head goes to *head.
typedef struct apValidationChain {
	apValidationFeatures features;
	int32_t enables[1];
	int32_t disables[1];
	apDebugUtilsMessengerCreateInfo messenger;
} apValidationChain;

void *apNewValidationChain(int syncValidation, int noUniqueHandles, uintptr_t user, void **head) {
	apValidationChain *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	apMessengerInfo(&c->messenger, user);
	*head = &c->messenger;
	if (syncValidation || noUniqueHandles) {
		c->features.sType = apSTypeValidationFeatures;
		c->features.pNext = &c->messenger;
		if (syncValidation) {
			c->enables[0] = apValidationSync;
			c->features.enabledValidationFeatureCount = 1;
			c->features.pEnabledValidationFeatures = c->enables;
		}
		if (noUniqueHandles) {
			c->disables[0] = apValidationDisableUniqueHandles;
			c->features.disabledValidationFeatureCount = 1;
			c->features.pDisabledValidationFeatures = c->disables;
		}
		*head = &c->features;
	}
	return c;
}

void *apNewSync2Chain(void) {
	apPhysicalDeviceSynchronization2Features *f = calloc(1, sizeof *f);
	if (f == NULL) {
		return NULL;
	}
	f->sType = apSTypeSync2Features;
	f->synchronization2 = 1;
	return f;
}

void *apNewDedicatedAllocateInfo(apHandle buffer, apHandle image) {
	apMemoryDedicatedAllocateInfo *d = calloc(1, sizeof *d);
	if (d == NULL) {
		return NULL;
	}
	d->sType = apSTypeDedicatedAllocateInfo;
	d->buffer = buffer;
	d->image = image;
	return d;
}

void apFree(void *p) { free(p); }

apResult apCreateMessenger(const apInstanceFns *fns, uintptr_t user, apHandle *out) {
	if (fns->createMessenger == NULL) {
		return -7; // VK_ERROR_EXTENSION_NOT_PRESENT
	}
	apDebugUtilsMessengerCreateInfo info;
	apMessengerInfo(&info, user);
	return fns->createMessenger(fns->instance, &info, NULL, out);
}

void apDestroyMessenger(const apInstanceFns *fns, apHandle messenger) {
	if (fns->destroyMessenger != NULL && messenger != NULL) {
		fns->destroyMessenger(fns->instance, messenger, NULL);
	}
}

void apBufferRequirements(const apDeviceFns *fns, apHandle buffer, apMemoryRequirements *req, apBool32 *prefers, apBool32 *requires) {
	apBufferMemoryRequirementsInfo2 info = {apSTypeBufferRequirementsInfo2, NULL, buffer};
	apMemoryDedicatedRequirements ded = {apSTypeDedicatedRequirements, NULL, 0, 0};
	apMemoryRequirements2 r2 = {apSTypeMemoryRequirements2, &ded, {0, 0, 0}};
	fns->bufferRequirements2(fns->device, &info, &r2);
	*req = r2.memoryRequirements;
	*prefers = ded.prefersDedicatedAllocation;
	*requires = ded.requiresDedicatedAllocation;
}

void apImageRequirements(const apDeviceFns *fns, apHandle image, apMemoryRequirements *req, apBool32 *prefers, apBool32 *requires) {
	apImageMemoryRequirementsInfo2 info = {apSTypeImageRequirementsInfo2, NULL, image};
	apMemoryDedicatedRequirements ded = {apSTypeDedicatedRequirements, NULL, 0, 0};
	apMemoryRequirements2 r2 = {apSTypeMemoryRequirements2, &ded, {0, 0, 0}};
	fns->imageRequirements2(fns->device, &info, &r2);
	*req = r2.memoryRequirements;
	*prefers = ded.prefersDedicatedAllocation;
	*requires = ded.requiresDedicatedAllocation;
}

apResult apBindBuffers(const apDeviceFns *fns, uint32_t n, const apBindBufferMemoryInfo *infos) {
	return fns->bindBufferMemory2(fns->device, n, infos);
}

apResult apBindImages(const apDeviceFns *fns, uint32_t n, const apBindImageMemoryInfo *infos) {
	return fns->bindImageMemory2(fns->device, n, infos);
}

void apPipelineBarrier2(const apDeviceFns *fns, apHandle cmd,
	uint32_t nm, const apMemoryBarrier2 *m,
	uint32_t nb, const apBufferMemoryBarrier2 *b,
	uint32_t ni, const apImageMemoryBarrier2 *i) {
	apDependencyInfo dep;
	memset(&dep, 0, sizeof dep);
	dep.sType = apSTypeDependencyInfo;
	dep.memoryBarrierCount = nm;
	dep.pMemoryBarriers = m;
	dep.bufferMemoryBarrierCount = nb;
	dep.pBufferMemoryBarriers = b;
	dep.imageMemoryBarrierCount = ni;
	dep.pImageMemoryBarriers = i;
	fns->cmdPipelineBarrier2(cmd, &dep);
}
