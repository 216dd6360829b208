// extras.c: VK_EXT_mesh_shader where a device has it (see extras.h).
#include <stdlib.h>
#include <string.h>

#include "extras.h"

void apMeshSupport(const apInstanceFns *fns, apHandle physical, apBool32 *task, apBool32 *mesh) {
	apPhysicalDeviceMeshShaderFeatures m;
	memset(&m, 0, sizeof m);
	m.sType = apSTypeMeshShaderFeatures;
	apPhysicalDeviceFeatures2 f2;
	memset(&f2, 0, sizeof f2);
	f2.sType = apSTypeFeatures2;
	f2.pNext = &m;
	fns->getFeatures2(physical, &f2);
	*task = m.taskShader;
	*mesh = m.meshShader;
}

// apNewExtraChain: the extension feature structures to enable, in one
// allocation (free it), chained before next; *head is the first (next
// when nothing is enabled).
void *apNewExtraChain(void *next, apBool32 task, apBool32 mesh, void **head) {
	struct chain {
		apPhysicalDeviceMeshShaderFeatures mesh;
	} *c = calloc(1, sizeof *c);
	*head = next;
	if (c == NULL) {
		return NULL;
	}
	if (mesh) {
		c->mesh.sType = apSTypeMeshShaderFeatures;
		c->mesh.pNext = *head;
		c->mesh.meshShader = 1;
		c->mesh.taskShader = task;
		*head = &c->mesh;
	}
	return c;
}

int apLoadExtras(const apInstanceFns *ifns, apHandle device, int mesh, apExtrasFns *fns) {
	memset(fns, 0, sizeof *fns);
	if (mesh) {
		fns->drawMeshTasks = ifns->getDeviceProcAddr(device, "vkCmdDrawMeshTasksEXT");
		if (fns->drawMeshTasks == NULL) {
			return -1;
		}
	}
	return 0;
}

void apDrawMeshTasks(const apExtrasFns *fns, apHandle cmd, uint32_t x, uint32_t y, uint32_t z) { fns->drawMeshTasks(cmd, x, y, z); }
