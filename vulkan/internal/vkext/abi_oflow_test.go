package vkext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestABIOpticalFlow is TestABI for oflow.h: the VK_NV_optical_flow
// structures have their Vulkan twins' sizes and field offsets, and the
// constants their values (vulkan_core.h as goki/vulkan bundles it).
func TestABIOpticalFlow(t *testing.T) {
	abi := []struct {
		ap, vk string
		fields [][2]string
	}{
		{"apPhysicalDeviceOpticalFlowFeatures", "VkPhysicalDeviceOpticalFlowFeaturesNV", fieldsSame("sType", "pNext", "opticalFlow")},
		{"apPhysicalDeviceOpticalFlowProperties", "VkPhysicalDeviceOpticalFlowPropertiesNV", fieldsSame("sType", "pNext", "supportedOutputGridSizes",
			"supportedHintGridSizes", "hintSupported", "costSupported", "bidirectionalFlowSupported", "globalFlowSupported",
			"minWidth", "minHeight", "maxWidth", "maxHeight", "maxNumRegionsOfInterest")},
		{"apOpticalFlowImageFormatInfo", "VkOpticalFlowImageFormatInfoNV", fieldsSame("sType", "pNext", "usage")},
		{"apOpticalFlowImageFormatProperties", "VkOpticalFlowImageFormatPropertiesNV", fieldsSame("sType", "pNext", "format")},
		{"apOpticalFlowSessionCreateInfo", "VkOpticalFlowSessionCreateInfoNV", fieldsSame("sType", "pNext", "width", "height", "imageFormat",
			"flowVectorFormat", "costFormat", "outputGridSize", "hintGridSize", "performanceLevel", "flags")},
		{"apOpticalFlowExecuteInfo", "VkOpticalFlowExecuteInfoNV", fieldsSame("sType", "pNext", "flags", "regionCount", "pRegions")},
	}
	consts := [][2]string{
		{"apSTypeOpticalFlowFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_OPTICAL_FLOW_FEATURES_NV"},
		{"apSTypeOpticalFlowProperties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_OPTICAL_FLOW_PROPERTIES_NV"},
		{"apSTypeOpticalFlowImageFormatInfo", "VK_STRUCTURE_TYPE_OPTICAL_FLOW_IMAGE_FORMAT_INFO_NV"},
		{"apSTypeOpticalFlowImageFormatProperties", "VK_STRUCTURE_TYPE_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_NV"},
		{"apOpticalFlowUsageInput", "VK_OPTICAL_FLOW_USAGE_INPUT_BIT_NV"},
		{"apOpticalFlowUsageOutput", "VK_OPTICAL_FLOW_USAGE_OUTPUT_BIT_NV"},
		{"apOpticalFlowUsageHint", "VK_OPTICAL_FLOW_USAGE_HINT_BIT_NV"},
		{"apOpticalFlowUsageCost", "VK_OPTICAL_FLOW_USAGE_COST_BIT_NV"},
		{"apOpticalFlowUsageGlobalFlow", "VK_OPTICAL_FLOW_USAGE_GLOBAL_FLOW_BIT_NV"},
		{"apQueueOpticalFlow", "VK_QUEUE_OPTICAL_FLOW_BIT_NV"},
		{"apSTypeOpticalFlowSessionCreateInfo", "VK_STRUCTURE_TYPE_OPTICAL_FLOW_SESSION_CREATE_INFO_NV"},
		{"apSTypeOpticalFlowExecuteInfo", "VK_STRUCTURE_TYPE_OPTICAL_FLOW_EXECUTE_INFO_NV"},
		{"apOpticalFlowBindInput", "VK_OPTICAL_FLOW_SESSION_BINDING_POINT_INPUT_NV"},
		{"apOpticalFlowBindReference", "VK_OPTICAL_FLOW_SESSION_BINDING_POINT_REFERENCE_NV"},
		{"apOpticalFlowBindFlowVector", "VK_OPTICAL_FLOW_SESSION_BINDING_POINT_FLOW_VECTOR_NV"},
		{"apOpticalFlowBindCost", "VK_OPTICAL_FLOW_SESSION_BINDING_POINT_COST_NV"},
		{"apOpticalFlowSessionEnableCost", "VK_OPTICAL_FLOW_SESSION_CREATE_ENABLE_COST_BIT_NV"},
		{"apOpticalFlowExecuteDisableTemporalHints", "VK_OPTICAL_FLOW_EXECUTE_DISABLE_TEMPORAL_HINTS_BIT_NV"},
		{"apOpticalFlowPerformanceMedium", "VK_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_NV"},
		{"sizeof(void *)", "sizeof(VkOpticalFlowSessionNV)"},
		// The format value package vulkan/replay names (oflow.go there).
		{"1000464000", "VK_FORMAT_R16G16_S10_5_NV"},
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
	src.WriteString("#include <stddef.h>\n#include \"vulkan/vulkan_core.h\"\n#include \"oflow.h\"\n")
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
	file := filepath.Join(t.TempDir(), "abi.c")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// goki's header keeps VK_NV_optical_flow (with other late sections)
	// behind GO_INCLUDE_NV_ray_tracing.
	cmd := exec.Command(cc, "-std=c11", "-fsyntax-only", "-DVK_NO_PROTOTYPES", "-DGO_INCLUDE_NV_ray_tracing", "-I", goki, "-I", wd, file)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
}
