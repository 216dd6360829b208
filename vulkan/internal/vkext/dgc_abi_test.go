package vkext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestABIDGC checks dgc.h. Vulkan headers 1.3.239 (goki/vulkan's, the
// system's) predate VK_EXT_device_generated_commands and
// VK_KHR_maintenance5, so the hand-declared structures are checked
// against the registry's layout worked out for LP64 (vk.xml member
// order, natural alignment: 4-byte enums and flags, 8-byte pointers,
// handles and VkDeviceSize/VkDeviceAddress), and the constants against
// the registry's values; what the old header has (VkBufferCreateInfo,
// the NV names of the stage and access bits, the token structure's
// union of pointers) is checked against it.
func TestABIDGC(t *testing.T) {
	type field struct {
		name        string
		offset, siz int
	}
	layouts := []struct {
		ap     string
		size   int
		fields []field
	}{
		{"apPhysicalDeviceDGCFeatures", 24, []field{{"sType", 0, 4}, {"pNext", 8, 8}, {"deviceGeneratedCommands", 16, 4}, {"dynamicGeneratedPipelineLayout", 20, 4}}},
		{"apPhysicalDeviceDGCProperties", 64, []field{{"maxIndirectPipelineCount", 16, 4}, {"maxIndirectSequenceCount", 24, 4},
			{"supportedIndirectCommandsShaderStages", 44, 4}, {"deviceGeneratedCommandsMultiDrawIndirectCount", 60, 4}}},
		{"apPhysicalDeviceMaintenance5Features", 24, []field{{"maintenance5", 16, 4}}},
		{"apBufferUsageFlags2CreateInfo", 24, []field{{"pNext", 8, 8}, {"usage", 16, 8}}},
		{"apIndirectCommandsLayoutToken", 40, []field{{"type", 16, 4}, {"data", 24, 8}, {"offset", 32, 4}}},
		{"apIndirectCommandsLayoutCreateInfo", 56, []field{{"flags", 16, 4}, {"shaderStages", 20, 4}, {"indirectStride", 24, 4},
			{"pipelineLayout", 32, 8}, {"tokenCount", 40, 4}, {"pTokens", 48, 8}}},
		{"apGeneratedCommandsInfo", 96, []field{{"shaderStages", 16, 4}, {"indirectExecutionSet", 24, 8}, {"indirectCommandsLayout", 32, 8},
			{"indirectAddress", 40, 8}, {"indirectAddressSize", 48, 8}, {"preprocessAddress", 56, 8}, {"preprocessSize", 64, 8},
			{"maxSequenceCount", 72, 4}, {"sequenceCountAddress", 80, 8}, {"maxDrawCount", 88, 4}}},
		{"apGeneratedCommandsMemoryRequirementsInfo", 40, []field{{"indirectExecutionSet", 16, 8}, {"indirectCommandsLayout", 24, 8},
			{"maxSequenceCount", 32, 4}, {"maxDrawCount", 36, 4}}},
		{"apGeneratedCommandsPipelineInfo", 24, []field{{"pipeline", 16, 8}}},
		// VkIndirectCommandsPushConstantTokenEXT: one VkPushConstantRange.
		{"apIndirectCommandsPushConstantToken", 12, []field{{"stageFlags", 0, 4}, {"offset", 4, 4}, {"size", 8, 4}}},
	}
	consts := [][2]string{
		{"apSTypeDGCFeatures", "1000572000"},
		{"apSTypeDGCProperties", "1000572001"},
		{"apSTypeGeneratedCommandsMemoryRequirementsInfo", "1000572002"},
		{"apSTypeGeneratedCommandsInfo", "1000572004"},
		{"apSTypeIndirectCommandsLayoutCreateInfo", "1000572006"},
		{"apSTypeIndirectCommandsLayoutToken", "1000572007"},
		{"apSTypeGeneratedCommandsPipelineInfo", "1000572013"},
		{"apSTypeMaintenance5Features", "1000470000"},
		{"apSTypeBufferUsageFlags2CreateInfo", "1000470006"},
		{"apIndirectTokenDispatch", "9"},
		{"apIndirectTokenPushConstant", "1"},
		{"sizeof(apIndirectCommandsPushConstantToken)", "sizeof(VkPushConstantRange)"},
		{"offsetof(apIndirectCommandsPushConstantToken, offset)", "offsetof(VkPushConstantRange, offset)"},
		{"offsetof(apIndirectCommandsPushConstantToken, size)", "offsetof(VkPushConstantRange, size)"},
		{"apIndirectLayoutExplicitPreprocess", "1"},
		{"apBufferUsage2Preprocess", "0x80000000"},
		// In the old header: the NV names of the same bits, the compute stage.
		{"apShaderStageCompute", "VK_SHADER_STAGE_COMPUTE_BIT"},
		{"0x00020000", "VK_PIPELINE_STAGE_COMMAND_PREPROCESS_BIT_NV"},
		{"0x00020000", "VK_ACCESS_COMMAND_PREPROCESS_READ_BIT_NV"},
		{"0x00040000", "VK_ACCESS_COMMAND_PREPROCESS_WRITE_BIT_NV"},
		{"12", "VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO"},
		{"12", "sizeof(VkDispatchIndirectCommand)"},
	}
	old := []struct{ ap, vk string }{{"apBufferCreateInfo", "VkBufferCreateInfo"}}
	oldFields := []string{"sType", "pNext", "flags", "size", "usage", "sharingMode", "queueFamilyIndexCount", "pQueueFamilyIndices"}
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
	src.WriteString("#include <stddef.h>\n#include \"vulkan/vulkan_core.h\"\n#include \"dgc.h\"\n")
	src.WriteString("_Static_assert(sizeof(void *) == 8, \"LP64\");\n")
	for _, l := range layouts {
		fmt.Fprintf(&src, "_Static_assert(sizeof(%s) == %d, \"size of %s\");\n", l.ap, l.size, l.ap)
		for _, f := range l.fields {
			fmt.Fprintf(&src, "_Static_assert(offsetof(%s, %s) == %d, \"%s.%s\");\n", l.ap, f.name, f.offset, l.ap, f.name)
			fmt.Fprintf(&src, "_Static_assert(sizeof(((%s*)0)->%s) == %d, \"size of %s.%s\");\n", l.ap, f.name, f.siz, l.ap, f.name)
		}
	}
	for _, o := range old {
		fmt.Fprintf(&src, "_Static_assert(sizeof(%s) == sizeof(%s), \"size of %s\");\n", o.ap, o.vk, o.ap)
		for _, f := range oldFields {
			fmt.Fprintf(&src, "_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"%s.%s\");\n", o.ap, f, o.vk, f, o.ap, f)
		}
	}
	for _, c := range consts {
		fmt.Fprintf(&src, "_Static_assert((long long)%s == (long long)%s, \"%s\");\n", c[0], c[1], c[0])
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
