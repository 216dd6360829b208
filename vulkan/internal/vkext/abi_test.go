package vkext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// abi pairs each hand-declared structure with the Vulkan structure it
// mirrors, and the fields whose offsets must agree (ap name, Vulkan name).
var abi = []struct {
	ap, vk string
	fields [][2]string
}{
	{"apBufferMemoryRequirementsInfo2", "VkBufferMemoryRequirementsInfo2", fieldsSame("sType", "pNext", "buffer")},
	{"apImageMemoryRequirementsInfo2", "VkImageMemoryRequirementsInfo2", fieldsSame("sType", "pNext", "image")},
	{"apMemoryRequirements", "VkMemoryRequirements", fieldsSame("size", "alignment", "memoryTypeBits")},
	{"apMemoryRequirements2", "VkMemoryRequirements2", fieldsSame("sType", "pNext", "memoryRequirements")},
	{"apMemoryDedicatedRequirements", "VkMemoryDedicatedRequirements", fieldsSame("sType", "pNext", "prefersDedicatedAllocation", "requiresDedicatedAllocation")},
	{"apMemoryDedicatedAllocateInfo", "VkMemoryDedicatedAllocateInfo", fieldsSame("sType", "pNext", "image", "buffer")},
	{"apBindBufferMemoryInfo", "VkBindBufferMemoryInfo", fieldsSame("sType", "pNext", "buffer", "memory", "memoryOffset")},
	{"apBindImageMemoryInfo", "VkBindImageMemoryInfo", fieldsSame("sType", "pNext", "image", "memory", "memoryOffset")},
	{"apPhysicalDeviceFeatures2", "VkPhysicalDeviceFeatures2", [][2]string{{"sType", "sType"}, {"pNext", "pNext"}, {"features", "features"}}},
	{"apPhysicalDeviceSynchronization2Features", "VkPhysicalDeviceSynchronization2Features", fieldsSame("sType", "pNext", "synchronization2")},
	{"apPhysicalDeviceMaintenance3Properties", "VkPhysicalDeviceMaintenance3Properties", fieldsSame("sType", "pNext", "maxPerSetDescriptors", "maxMemoryAllocationSize")},
	{"apPhysicalDeviceDriverProperties", "VkPhysicalDeviceDriverProperties", fieldsSame("sType", "pNext", "driverID", "driverName", "driverInfo", "conformanceVersion")},
	{"apMemoryBarrier2", "VkMemoryBarrier2", fieldsSame("sType", "pNext", "srcStageMask", "srcAccessMask", "dstStageMask", "dstAccessMask")},
	{"apBufferMemoryBarrier2", "VkBufferMemoryBarrier2", fieldsSame("sType", "pNext", "srcStageMask", "srcAccessMask", "dstStageMask", "dstAccessMask", "srcQueueFamilyIndex", "dstQueueFamilyIndex", "buffer", "offset", "size")},
	{"apImageSubresourceRange", "VkImageSubresourceRange", fieldsSame("aspectMask", "baseMipLevel", "levelCount", "baseArrayLayer", "layerCount")},
	{"apImageMemoryBarrier2", "VkImageMemoryBarrier2", fieldsSame("sType", "pNext", "srcStageMask", "srcAccessMask", "dstStageMask", "dstAccessMask", "oldLayout", "newLayout", "srcQueueFamilyIndex", "dstQueueFamilyIndex", "image", "subresourceRange")},
	{"apDependencyInfo", "VkDependencyInfo", fieldsSame("sType", "pNext", "dependencyFlags", "memoryBarrierCount", "pMemoryBarriers", "bufferMemoryBarrierCount", "pBufferMemoryBarriers", "imageMemoryBarrierCount", "pImageMemoryBarriers")},
	{"apValidationFeatures", "VkValidationFeaturesEXT", fieldsSame("sType", "pNext", "enabledValidationFeatureCount", "pEnabledValidationFeatures", "disabledValidationFeatureCount", "pDisabledValidationFeatures")},
	{"apDebugUtilsMessengerCallbackData", "VkDebugUtilsMessengerCallbackDataEXT", fieldsSame("sType", "pNext", "flags", "pMessageIdName", "messageIdNumber", "pMessage", "queueLabelCount", "pQueueLabels", "cmdBufLabelCount", "pCmdBufLabels", "objectCount", "pObjects")},
	{"apSemaphoreSubmitInfo", "VkSemaphoreSubmitInfo", fieldsSame("sType", "pNext", "semaphore", "value", "stageMask", "deviceIndex")},
	{"apCommandBufferSubmitInfo", "VkCommandBufferSubmitInfo", fieldsSame("sType", "pNext", "commandBuffer", "deviceMask")},
	{"apSubmitInfo2", "VkSubmitInfo2", fieldsSame("sType", "pNext", "flags", "waitSemaphoreInfoCount", "pWaitSemaphoreInfos", "commandBufferInfoCount", "pCommandBufferInfos", "signalSemaphoreInfoCount", "pSignalSemaphoreInfos")},
	{"apDebugUtilsMessengerCreateInfo", "VkDebugUtilsMessengerCreateInfoEXT", fieldsSame("sType", "pNext", "flags", "messageSeverity", "messageType", "pfnUserCallback", "pUserData")},
}

func fieldsSame(names ...string) [][2]string {
	out := make([][2]string, len(names))
	for i, n := range names {
		out[i] = [2]string{n, n}
	}
	return out
}

// consts pairs the enum values of vkext.h with the header's.
var consts = [][2]string{
	{"apSTypeFeatures2", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2"},
	{"apSTypeProperties2", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2"},
	{"apSTypeDedicatedRequirements", "VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS"},
	{"apSTypeDedicatedAllocateInfo", "VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO"},
	{"apSTypeDebugUtilsCallbackData", "VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT"},
	{"apSTypeDebugUtilsMessengerCreateInfo", "VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT"},
	{"apSTypeBufferRequirementsInfo2", "VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2"},
	{"apSTypeImageRequirementsInfo2", "VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2"},
	{"apSTypeMemoryRequirements2", "VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2"},
	{"apSTypeBindBufferMemoryInfo", "VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO"},
	{"apSTypeBindImageMemoryInfo", "VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO"},
	{"apSTypeMaintenance3Properties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES"},
	{"apSTypeDriverProperties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES"},
	{"apSTypeValidationFeatures", "VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT"},
	{"apSTypeMemoryBarrier2", "VK_STRUCTURE_TYPE_MEMORY_BARRIER_2"},
	{"apSTypeBufferMemoryBarrier2", "VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2"},
	{"apSTypeImageMemoryBarrier2", "VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2"},
	{"apSTypeDependencyInfo", "VK_STRUCTURE_TYPE_DEPENDENCY_INFO"},
	{"apSTypeSync2Features", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES"},
	{"apValidationSync", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"},
	{"apValidationDisableUniqueHandles", "VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT"},
}

// TestABI compiles vkext.h next to the vulkan_core.h that goki/vulkan
// bundles and asserts, at compile time, that every hand-declared structure
// has the size and field offsets of its Vulkan twin and every constant its
// value. It needs a C compiler (cgo does too) and the module source.
func TestABI(t *testing.T) {
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
	src.WriteString("#include <stddef.h>\n#include \"vulkan/vulkan_core.h\"\n#include \"vkext.h\"\n")
	for _, s := range abi {
		fmt.Fprintf(&src, "_Static_assert(sizeof(%s) == sizeof(%s), \"size of %s\");\n", s.ap, s.vk, s.ap)
		for _, f := range s.fields {
			fmt.Fprintf(&src, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"%s.%s\");\n", s.ap, f[0], s.vk, f[1], s.ap, f[0])
			fmt.Fprintf(&src, "_Static_assert(sizeof(((%s*)0)->%s) == sizeof(((%s*)0)->%s), \"size of %s.%s\");\n", s.ap, f[0], s.vk, f[1], s.ap, f[0])
		}
	}
	for _, c := range consts {
		fmt.Fprintf(&src, "_Static_assert((long long)%s == (long long)%s, \"%s\");\n", c[0], c[1], c[0])
	}
	// The opaque properties array must hold the real structure.
	src.WriteString("_Static_assert(sizeof(((apPhysicalDeviceProperties2*)0)->properties) >= sizeof(VkPhysicalDeviceProperties), \"properties too small\");\n")
	src.WriteString("_Static_assert(offsetof(apPhysicalDeviceProperties2, properties) == offsetof(VkPhysicalDeviceProperties2, properties), \"properties offset\");\n")
	file := filepath.Join(t.TempDir(), "abi.c")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cc, "-std=c11", "-fsyntax-only", "-DVK_NO_PROTOTYPES", "-I", goki, "-I", wd, file)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
}
