package vkext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestABIExtras is TestABI for extras.h: every hand-declared structure
// has the size and field offsets of its Vulkan twin, every constant its
// value (vulkan_core.h as goki/vulkan bundles it).
func TestABIExtras(t *testing.T) {
	abi := []struct {
		ap, vk string
		fields [][2]string
	}{
		{"apPhysicalDeviceMeshShaderFeatures", "VkPhysicalDeviceMeshShaderFeaturesEXT", fieldsSame("sType", "pNext", "taskShader", "meshShader", "meshShaderQueries")},
		{"apPhysicalDeviceAccelerationStructureFeatures", "VkPhysicalDeviceAccelerationStructureFeaturesKHR", fieldsSame("sType", "pNext", "accelerationStructure", "accelerationStructureIndirectBuild", "descriptorBindingAccelerationStructureUpdateAfterBind")},
		{"apPhysicalDeviceRayQueryFeatures", "VkPhysicalDeviceRayQueryFeaturesKHR", fieldsSame("sType", "pNext", "rayQuery")},
		{"apPhysicalDeviceBufferDeviceAddressFeatures", "VkPhysicalDeviceBufferDeviceAddressFeatures", fieldsSame("sType", "pNext", "bufferDeviceAddress", "bufferDeviceAddressMultiDevice")},
		{"apBufferDeviceAddressInfo", "VkBufferDeviceAddressInfo", fieldsSame("sType", "pNext", "buffer")},
		{"apAccelerationStructureCreateInfo", "VkAccelerationStructureCreateInfoKHR", fieldsSame("sType", "pNext", "createFlags", "buffer", "offset", "size", "type", "deviceAddress")},
		{"apAccelerationStructureGeometryTrianglesData", "VkAccelerationStructureGeometryTrianglesDataKHR", fieldsSame("sType", "pNext", "vertexFormat", "vertexData", "vertexStride", "maxVertex", "indexType", "indexData", "transformData")},
		{"apAccelerationStructureGeometryInstancesData", "VkAccelerationStructureGeometryInstancesDataKHR", fieldsSame("sType", "pNext", "arrayOfPointers", "data")},
		{"apAccelerationStructureGeometry", "VkAccelerationStructureGeometryKHR", fieldsSame("sType", "pNext", "geometryType", "geometry", "flags")},
		{"apAccelerationStructureBuildGeometryInfo", "VkAccelerationStructureBuildGeometryInfoKHR", fieldsSame("sType", "pNext", "type", "flags", "mode", "srcAccelerationStructure", "dstAccelerationStructure", "geometryCount", "pGeometries", "ppGeometries", "scratchData")},
		{"apAccelerationStructureBuildRangeInfo", "VkAccelerationStructureBuildRangeInfoKHR", fieldsSame("primitiveCount", "primitiveOffset", "firstVertex", "transformOffset")},
		{"apAccelerationStructureBuildSizesInfo", "VkAccelerationStructureBuildSizesInfoKHR", fieldsSame("sType", "pNext", "accelerationStructureSize", "updateScratchSize", "buildScratchSize")},
		{"apAccelerationStructureDeviceAddressInfo", "VkAccelerationStructureDeviceAddressInfoKHR", fieldsSame("sType", "pNext", "accelerationStructure")},
		{"apCopyAccelerationStructureInfo", "VkCopyAccelerationStructureInfoKHR", fieldsSame("sType", "pNext", "src", "dst", "mode")},
		{"apPhysicalDeviceRayTracingPipelineFeatures", "VkPhysicalDeviceRayTracingPipelineFeaturesKHR", fieldsSame("sType", "pNext", "rayTracingPipeline", "rayTraversalPrimitiveCulling")},
		{"apPhysicalDeviceRayTracingPipelineProperties", "VkPhysicalDeviceRayTracingPipelinePropertiesKHR", fieldsSame("sType", "pNext", "shaderGroupHandleSize", "shaderGroupBaseAlignment", "shaderGroupHandleAlignment", "maxRayHitAttributeSize")},
		{"apPipelineShaderStageCreateInfo", "VkPipelineShaderStageCreateInfo", fieldsSame("sType", "pNext", "flags", "stage", "module", "pName", "pSpecializationInfo")},
		{"apSpecializationMapEntry", "VkSpecializationMapEntry", fieldsSame("constantID", "offset", "size")},
		{"apSpecializationInfo", "VkSpecializationInfo", fieldsSame("mapEntryCount", "pMapEntries", "dataSize", "pData")},
		{"apRayTracingShaderGroupCreateInfo", "VkRayTracingShaderGroupCreateInfoKHR", fieldsSame("sType", "pNext", "type", "generalShader", "closestHitShader", "anyHitShader", "intersectionShader", "pShaderGroupCaptureReplayHandle")},
		{"apRayTracingPipelineCreateInfo", "VkRayTracingPipelineCreateInfoKHR", fieldsSame("sType", "pNext", "flags", "stageCount", "pStages", "groupCount", "pGroups", "maxPipelineRayRecursionDepth", "pLibraryInfo", "pLibraryInterface", "pDynamicState", "layout", "basePipelineHandle", "basePipelineIndex")},
		{"apStridedDeviceAddressRegion", "VkStridedDeviceAddressRegionKHR", fieldsSame("deviceAddress", "stride", "size")},
		{"apPhysicalDeviceRayTracingMaintenance1Features", "VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR", fieldsSame("sType", "pNext", "rayTracingMaintenance1", "rayTracingPipelineTraceRaysIndirect2")},
		{"apWriteDescriptorSetAccelerationStructure", "VkWriteDescriptorSetAccelerationStructureKHR", fieldsSame("sType", "pNext", "accelerationStructureCount", "pAccelerationStructures")},
	}
	consts := [][2]string{
		{"apSTypeMeshShaderFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT"},
		{"apSTypeASBuildGeometryInfo", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR"},
		{"apSTypeASDeviceAddressInfo", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR"},
		{"apSTypeASGeometryInstancesData", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR"},
		{"apSTypeASGeometryTrianglesData", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR"},
		{"apSTypeASGeometry", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR"},
		{"apSTypeWriteDescriptorSetAS", "VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR"},
		{"apSTypeCopyASInfo", "VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR"},
		{"apSTypeASFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR"},
		{"apSTypeASCreateInfo", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR"},
		{"apSTypeASBuildSizesInfo", "VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR"},
		{"apSTypeRayQueryFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR"},
		{"apSTypeBufferDeviceAddressFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES"},
		{"apSTypeBufferDeviceAddressInfo", "VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO"},
		{"106", "VK_FORMAT_R32G32B32_SFLOAT"},
		{"1000165000", "VK_INDEX_TYPE_NONE_KHR"},
		{"2", "VK_GEOMETRY_TYPE_INSTANCES_KHR"},
		{"0", "VK_GEOMETRY_TYPE_TRIANGLES_KHR"},
		{"0", "VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR"},
		{"1", "VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR"},
		{"1", "VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR"},
		{"4", "VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR"},
		{"0", "VK_COPY_ACCELERATION_STRUCTURE_MODE_CLONE_KHR"},
		{"64", "sizeof(VkAccelerationStructureInstanceKHR)"},
		{"1000060000", "VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO"},
		{"apSTypeRTMaintenance1Features", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR"},
		{"apSTypeRTPipelineFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR"},
		{"apSTypeRTPipelineProperties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR"},
		{"apSTypeRTPipelineCreateInfo", "VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR"},
		{"apSTypeRTShaderGroupCreateInfo", "VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR"},
		{"18", "VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO"},
		{"0x100", "VK_SHADER_STAGE_RAYGEN_BIT_KHR"},
		{"0x800", "VK_SHADER_STAGE_MISS_BIT_KHR"},
		{"0x400", "VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR"},
		{"0", "VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR"},
		{"1", "VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR"},
		{"1000150000", "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR"},
		{"1000165000", "VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR"},
		{"0x400", "VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR"},
		{"0x00200000", "VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR"},
		{"2", "VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT"},
		{"16", "offsetof(VkMemoryAllocateFlagsInfo, flags)"},
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): %v", cc, err)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/goki/vulkan").Output()
	if err != nil {
		t.Skipf("cannot locate github.com/goki/vulkan: %v", err)
	}
	goki := strings.TrimSpace(string(out))
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("#include <stddef.h>\n#include \"vulkan/vulkan_core.h\"\n#include \"extras.h\"\n")
	for _, s := range abi {
		fmt.Fprintf(&src, "_Static_assert(sizeof(%s) == sizeof(%s), \"size of %s\");\n", s.ap, s.vk, s.ap)
		for _, f := range s.fields {
			fmt.Fprintf(&src, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"%s.%s\");\n", s.ap, f[0], s.vk, f[1], s.ap, f[0])
			fmt.Fprintf(&src, "_Static_assert(sizeof(((%s*)0)->%s) == sizeof(((%s*)0)->%s), \"size of %s.%s\");\n", s.ap, f[0], s.vk, f[1], s.ap, f[0])
		}
	}
	for _, c := range consts {
		fmt.Fprintf(&src, "_Static_assert((long long)%s == (long long)%s, \"%s\");\n", c[0], c[1], c[1])
	}
	// apExtrasFns.cmdBuildASIndirect has the parameters of
	// PFN_vkCmdBuildAccelerationStructuresIndirectKHR: the same call
	// compiles against both, VkDeviceAddress is uint64_t, and the range
	// stride apCmdBuildASIndirect uses is the range's size.
	src.WriteString(`_Static_assert(_Generic((VkDeviceAddress)0, uint64_t: 1, default: 0), "VkDeviceAddress");
_Static_assert(sizeof(VkAccelerationStructureBuildRangeInfoKHR) == 16, "range stride");
static void checkIndirect(PFN_vkCmdBuildAccelerationStructuresIndirectKHR f, const apExtrasFns *x, const uint32_t *const *pmax) {
	f((VkCommandBuffer)0, 1, (const VkAccelerationStructureBuildGeometryInfoKHR *)0, (const VkDeviceAddress *)0, (const uint32_t *)0, pmax);
	x->cmdBuildASIndirect((apHandle)0, 1, (const apAccelerationStructureBuildGeometryInfo *)0, (const uint64_t *)0, (const uint32_t *)0, pmax);
}
`)
	file := filepath.Join(t.TempDir(), "abi.c")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// goki's header keeps the ray tracing and mesh sections behind
	// GO_INCLUDE_NV_ray_tracing.
	cmd := exec.Command(cc, "-std=c11", "-fsyntax-only", "-DVK_NO_PROTOTYPES", "-DGO_INCLUDE_NV_ray_tracing", "-I", goki, "-I", wd, file)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
}
