#include <stdlib.h>
#include <string.h>

#include "dgc.h"

void apDGCSupport(const apInstanceFns *fns, apHandle physical, apBool32 *dgc, apBool32 *bda, apBool32 *m5, apPhysicalDeviceDGCProperties *props) {
	apPhysicalDeviceDGCFeatures d;
	memset(&d, 0, sizeof d);
	d.sType = apSTypeDGCFeatures;
	apPhysicalDeviceMaintenance5Features m;
	memset(&m, 0, sizeof m);
	m.sType = apSTypeMaintenance5Features;
	m.pNext = &d;
	apPhysicalDeviceBufferDeviceAddressFeatures b;
	memset(&b, 0, sizeof b);
	b.sType = apSTypeBufferDeviceAddressFeatures;
	b.pNext = &m;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &b;
	fns->getFeatures2(physical, &f2);
	*dgc = d.deviceGeneratedCommands;
	*bda = b.bufferDeviceAddress;
	*m5 = m.maintenance5;
	memset(props, 0, sizeof *props);
	props->sType = apSTypeDGCProperties;
	apPhysicalDeviceProperties2 p2;
	memset(&p2, 0, sizeof p2);
	p2.sType = apSTypeProperties2;
	p2.pNext = props;
	fns->getProperties2(physical, &p2);
	props->pNext = NULL;
}

void *apNewDGCChain(void *next, int bda, void **head) {
	struct chain {
		apPhysicalDeviceDGCFeatures dgc;
		apPhysicalDeviceMaintenance5Features m5;
		apPhysicalDeviceBufferDeviceAddressFeatures bda;
	} *c = calloc(1, sizeof *c);
	*head = next;
	if (c == NULL) {
		return NULL;
	}
	c->dgc.sType = apSTypeDGCFeatures;
	c->dgc.deviceGeneratedCommands = 1;
	c->m5.sType = apSTypeMaintenance5Features;
	c->m5.maintenance5 = 1;
	c->m5.pNext = next;
	c->dgc.pNext = &c->m5;
	if (bda) {
		c->bda.sType = apSTypeBufferDeviceAddressFeatures;
		c->bda.bufferDeviceAddress = 1;
		c->bda.pNext = next;
		c->m5.pNext = &c->bda;
	}
	*head = &c->dgc;
	return c;
}

int apLoadDGC(const apInstanceFns *ifns, apHandle device, apDGCFns *fns, const char **missing) {
	memset(fns, 0, sizeof *fns);
#define DLOAD(field, name)                                   \
	fns->field = ifns->getDeviceProcAddr(device, name); \
	if (fns->field == NULL) {                           \
		*missing = name;                            \
		return -1;                                  \
	}
	DLOAD(memReq, "vkGetGeneratedCommandsMemoryRequirementsEXT");
	DLOAD(cmdPreprocess, "vkCmdPreprocessGeneratedCommandsEXT");
	DLOAD(cmdExecute, "vkCmdExecuteGeneratedCommandsEXT");
	DLOAD(createLayout, "vkCreateIndirectCommandsLayoutEXT");
	DLOAD(destroyLayout, "vkDestroyIndirectCommandsLayoutEXT");
	DLOAD(bufferAddress, "vkGetBufferDeviceAddress");
	DLOAD(createBuffer, "vkCreateBuffer");
	DLOAD(destroyBuffer, "vkDestroyBuffer");
#undef DLOAD
	return 0;
}

apResult apCreateDispatchLayout(const apDGCFns *fns, apHandle device, apHandle *layout) {
	apIndirectCommandsLayoutToken tok;
	memset(&tok, 0, sizeof tok);
	tok.sType = apSTypeIndirectCommandsLayoutToken;
	tok.type = apIndirectTokenDispatch;
	tok.offset = 0;
	apIndirectCommandsLayoutCreateInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeIndirectCommandsLayoutCreateInfo;
	info.flags = apIndirectLayoutExplicitPreprocess;
	info.shaderStages = apShaderStageCompute;
	info.indirectStride = 12; // VkDispatchIndirectCommand
	info.tokenCount = 1;
	info.pTokens = &tok;
	return fns->createLayout(device, &info, NULL, layout);
}

apResult apCreatePushDispatchLayout(const apDGCFns *fns, apHandle device, apHandle pipelineLayout, apHandle *layout) {
	apIndirectCommandsPushConstantToken push = {apShaderStageCompute, 4, 4};
	apIndirectCommandsLayoutToken tok[2];
	memset(tok, 0, sizeof tok);
	tok[0].sType = apSTypeIndirectCommandsLayoutToken;
	tok[0].type = apIndirectTokenPushConstant;
	tok[0].data = &push;
	tok[0].offset = 0;
	tok[1].sType = apSTypeIndirectCommandsLayoutToken;
	tok[1].type = apIndirectTokenDispatch;
	tok[1].offset = 4;
	apIndirectCommandsLayoutCreateInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeIndirectCommandsLayoutCreateInfo;
	info.flags = apIndirectLayoutExplicitPreprocess;
	info.shaderStages = apShaderStageCompute;
	info.indirectStride = 16; // the pushed word, VkDispatchIndirectCommand
	info.pipelineLayout = pipelineLayout;
	info.tokenCount = 2;
	info.pTokens = tok;
	return fns->createLayout(device, &info, NULL, layout);
}

void apDestroyDispatchLayout(const apDGCFns *fns, apHandle device, apHandle layout) { fns->destroyLayout(device, layout, NULL); }

void apDGCRequirements(const apDGCFns *fns, apHandle device, apHandle layout, apHandle pipeline, uint32_t maxSeq, apMemoryRequirements *out) {
	apGeneratedCommandsPipelineInfo pi = {apSTypeGeneratedCommandsPipelineInfo, NULL, pipeline};
	apGeneratedCommandsMemoryRequirementsInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeGeneratedCommandsMemoryRequirementsInfo;
	info.pNext = &pi;
	info.indirectCommandsLayout = layout;
	info.maxSequenceCount = maxSeq;
	apMemoryRequirements2 r;
	memset(&r, 0, sizeof r);
	r.sType = apSTypeMemoryRequirements2;
	fns->memReq(device, &info, &r);
	*out = r.memoryRequirements;
}


apResult apCreatePreprocessBuffer(const apDGCFns *fns, apHandle device, uint64_t size, apHandle *buf) {
	apBufferUsageFlags2CreateInfo u2 = {apSTypeBufferUsageFlags2CreateInfo, NULL, apBufferUsage2Preprocess | 0x00020000ull /* SHADER_DEVICE_ADDRESS */};
	apBufferCreateInfo info;
	memset(&info, 0, sizeof info);
	info.sType = 12; // VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
	info.pNext = &u2;
	info.size = size;
	info.usage = 0x00020000; // ignored where VkBufferUsageFlags2CreateInfoKHR is chained
	return fns->createBuffer(device, &info, NULL, buf);
}

void apDestroyBuffer(const apDGCFns *fns, apHandle device, apHandle buf) { fns->destroyBuffer(device, buf, NULL); }

void *apNewBufferUsage2(uint64_t usage, const void *next) {
	apBufferUsageFlags2CreateInfo *u = calloc(1, sizeof *u);
	if (u == NULL) {
		return NULL;
	}
	u->sType = apSTypeBufferUsageFlags2CreateInfo;
	u->pNext = next;
	u->usage = usage;
	return u;
}

uint64_t apDGCBufferAddress(const apDGCFns *fns, apHandle device, apHandle buffer) {
	apBufferDeviceAddressInfo info = {apSTypeBufferDeviceAddressInfo, NULL, buffer};
	return fns->bufferAddress(device, &info);
}

void apCmdDGC(const apDGCFns *fns, apHandle cmd, int execute, apHandle layout, apHandle pipeline, uint64_t stream, uint64_t streamSize,
	uint64_t preprocess, uint64_t preprocessSize, uint32_t maxSeq, uint64_t count) {
	apGeneratedCommandsPipelineInfo pi = {apSTypeGeneratedCommandsPipelineInfo, NULL, pipeline};
	apGeneratedCommandsInfo info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeGeneratedCommandsInfo;
	info.pNext = &pi;
	info.shaderStages = apShaderStageCompute;
	info.indirectCommandsLayout = layout;
	info.indirectAddress = stream;
	info.indirectAddressSize = streamSize;
	info.preprocessAddress = preprocess;
	info.preprocessSize = preprocessSize;
	info.maxSequenceCount = maxSeq;
	info.sequenceCountAddress = count;
	if (execute) {
		fns->cmdExecute(cmd, 1, &info);
	} else {
		fns->cmdPreprocess(cmd, &info, cmd);
	}
}
