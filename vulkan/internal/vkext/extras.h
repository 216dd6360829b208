// extras.h: the structures and entry points of the device extensions the
// replay uses where a device has them and a frame needs them
// (VK_EXT_mesh_shader; package vulkan/replay, mesh.go), declared by hand
// like vkext.h (layouts of vulkan_core.h 1.3.239).

#ifndef ALIASPLAN_EXTRAS_H
#define ALIASPLAN_EXTRAS_H

#include "vkext.h"

#define apSTypeMeshShaderFeatures 1000328000

typedef struct apPhysicalDeviceMeshShaderFeatures {
	int32_t sType;
	void *pNext;
	apBool32 taskShader;
	apBool32 meshShader;
	apBool32 multiviewMeshShader;
	apBool32 primitiveFragmentShadingRateMeshShader;
	apBool32 meshShaderQueries;
} apPhysicalDeviceMeshShaderFeatures;

typedef struct apExtrasFns {
	void (*drawMeshTasks)(apHandle, uint32_t, uint32_t, uint32_t);
} apExtrasFns;

void apMeshSupport(const apInstanceFns *fns, apHandle physical, apBool32 *task, apBool32 *mesh);
void *apNewExtraChain(void *next, apBool32 task, apBool32 mesh, void **head);
int apLoadExtras(const apInstanceFns *ifns, apHandle device, int mesh, apExtrasFns *fns);
void apDrawMeshTasks(const apExtrasFns *fns, apHandle cmd, uint32_t x, uint32_t y, uint32_t z);

#endif
