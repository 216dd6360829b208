package vkext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestABIFSR is TestABI for fsr.h: every hand-declared structure has the
// size and field offsets of its Vulkan twin, every constant its value
// (vulkan_core.h as goki/vulkan bundles it).
func TestABIFSR(t *testing.T) {
	abi := []struct {
		ap, vk string
		fields []string
	}{
		{"apFSRExtent2D", "VkExtent2D", []string{"width", "height"}},
		{"apPhysicalDeviceFragmentShadingRateFeatures", "VkPhysicalDeviceFragmentShadingRateFeaturesKHR",
			[]string{"sType", "pNext", "pipelineFragmentShadingRate", "primitiveFragmentShadingRate", "attachmentFragmentShadingRate"}},
		{"apPhysicalDeviceFragmentShadingRateProperties", "VkPhysicalDeviceFragmentShadingRatePropertiesKHR",
			[]string{"sType", "pNext", "minFragmentShadingRateAttachmentTexelSize", "maxFragmentShadingRateAttachmentTexelSize",
				"maxFragmentShadingRateAttachmentTexelSizeAspectRatio", "primitiveFragmentShadingRateWithMultipleViewports",
				"layeredShadingRateAttachments", "fragmentShadingRateNonTrivialCombinerOps", "maxFragmentSize", "maxFragmentSizeAspectRatio",
				"maxFragmentShadingRateCoverageSamples", "maxFragmentShadingRateRasterizationSamples", "fragmentShadingRateWithShaderDepthStencilWrites",
				"fragmentShadingRateWithSampleMask", "fragmentShadingRateWithShaderSampleMask", "fragmentShadingRateWithConservativeRasterization",
				"fragmentShadingRateWithFragmentShaderInterlock", "fragmentShadingRateWithCustomSampleLocations", "fragmentShadingRateStrictMultiplyCombiner"}},
		{"apPhysicalDeviceFragmentShadingRate", "VkPhysicalDeviceFragmentShadingRateKHR", []string{"sType", "pNext", "sampleCounts", "fragmentSize"}},
		{"apPipelineFragmentShadingRateStateCreateInfo", "VkPipelineFragmentShadingRateStateCreateInfoKHR", []string{"sType", "pNext", "fragmentSize", "combinerOps"}},
		{"apRenderingFragmentShadingRateAttachmentInfo", "VkRenderingFragmentShadingRateAttachmentInfoKHR",
			[]string{"sType", "pNext", "imageView", "imageLayout", "shadingRateAttachmentTexelSize"}},
	}
	consts := [][2]string{
		{"apSTypePipelineFSRState", "VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR"},
		{"apSTypeFSRProperties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_PROPERTIES_KHR"},
		{"apSTypeFSRFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR"},
		{"apSTypeFSRRate", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_KHR"},
		{"apSTypeRenderingFSRAttachment", "VK_STRUCTURE_TYPE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR"},
		{"apFSRCombinerKeep", "VK_FRAGMENT_SHADING_RATE_COMBINER_OP_KEEP_KHR"},
		{"apFSRCombinerReplace", "VK_FRAGMENT_SHADING_RATE_COMBINER_OP_REPLACE_KHR"},
		{"apPipelineCreateFSRAttachment", "VK_PIPELINE_CREATE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR"},
		{"sizeof(int32_t)", "sizeof(VkFragmentShadingRateCombinerOpKHR)"},
		{"sizeof(uint32_t)", "sizeof(VkSampleCountFlagBits)"},
		{"0x40000000", "VK_FORMAT_FEATURE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR"},
		{"0x100", "VK_IMAGE_USAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR"},
		{"1000164003", "VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR"},
		{"0x00400000", "VK_PIPELINE_STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR"},
		{"0x00800000", "VK_ACCESS_FRAGMENT_SHADING_RATE_ATTACHMENT_READ_BIT_KHR"},
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
	src.WriteString("#include <stddef.h>\n#include \"vulkan/vulkan_core.h\"\n#include \"fsr.h\"\n")
	for _, s := range abi {
		fmt.Fprintf(&src, "_Static_assert(sizeof(%s) == sizeof(%s), \"size of %s\");\n", s.ap, s.vk, s.ap)
		for _, f := range s.fields {
			fmt.Fprintf(&src, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"%s.%s\");\n", s.ap, f, s.vk, f, s.ap, f)
			fmt.Fprintf(&src, "_Static_assert(sizeof(((%s*)0)->%s) == sizeof(((%s*)0)->%s), \"size of %s.%s\");\n", s.ap, f, s.vk, f, s.ap, f)
		}
	}
	for _, c := range consts {
		fmt.Fprintf(&src, "_Static_assert((long long)%s == (long long)%s, \"%s\");\n", c[0], c[1], c[1])
	}
	file := filepath.Join(t.TempDir(), "abi.c")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cc, "-std=c11", "-fsyntax-only", "-DVK_NO_PROTOTYPES", "-I", goki, "-I", wd, file)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
}
