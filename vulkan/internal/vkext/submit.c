// submit.c: vkQueueSubmit2 (core 1.3, or VK_KHR_synchronization2's KHR
// name), one command buffer per submission (see vkext.h).
#include <string.h>

#include "vkext.h"

int apLoadSubmit(const apInstanceFns *ifns, apHandle device, int sync2KHR, apSubmitFns *fns) {
	fns->queueSubmit2 = ifns->getDeviceProcAddr(device, sync2KHR ? "vkQueueSubmit2KHR" : "vkQueueSubmit2");
	return fns->queueSubmit2 != NULL ? 0 : -1;
}

apResult apQueueSubmit2(const apSubmitFns *fns, apHandle queue, apHandle cmd,
	uint32_t nw, const apSemaphoreSubmitInfo *w, uint32_t ns, const apSemaphoreSubmitInfo *s, apHandle fence) {
	apCommandBufferSubmitInfo cb;
	memset(&cb, 0, sizeof cb);
	cb.sType = apSTypeCommandBufferSubmitInfo;
	cb.commandBuffer = cmd;
	apSubmitInfo2 info;
	memset(&info, 0, sizeof info);
	info.sType = apSTypeSubmitInfo2;
	info.waitSemaphoreInfoCount = nw;
	info.pWaitSemaphoreInfos = w;
	info.commandBufferInfoCount = cmd != NULL ? 1 : 0;
	info.pCommandBufferInfos = cmd != NULL ? &cb : NULL;
	info.signalSemaphoreInfoCount = ns;
	info.pSignalSemaphoreInfos = s;
	return fns->queueSubmit2(queue, 1, &info, fence);
}
