package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestCommittedFileIsGenerated checks that vk/names_gen.go is what vkgen
// makes from the binding's header, so go generate ./vk reproduces it byte
// for byte. The header is in the module cache once the module is
// downloaded (building ./vulkan downloads it); without it the test skips,
// unless ALIASPLAN_REQUIRE_VKHEADER=1 (make test) makes that a failure.
func TestCommittedFileIsGenerated(t *testing.T) {
	path, module, err := findHeader()
	if err != nil {
		if os.Getenv("ALIASPLAN_REQUIRE_VKHEADER") == "1" {
			t.Fatalf("the binding's header is needed (ALIASPLAN_REQUIRE_VKHEADER=1): %v", err)
		}
		t.Skipf("the binding's header is not available (go mod download %s): %v", bindingModule, err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Generate(src, module)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../names_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("vk/names_gen.go is not what vkgen makes of %s (run go generate ./vk); line %d:\n have %q\n want %q", path, i+1, g, w)
			}
		}
	}
}

// A small header in vulkan_core.h's shapes: 64-bit static consts, a typedef
// enum with an alias by name, _KHR spellings of core names, a beta block and
// vendor suffixes.
const miniHeader = `#define VK_HEADER_VERSION 7
typedef enum VkImageLayout {
    VK_IMAGE_LAYOUT_UNDEFINED = 0,
    VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL = 1000314000,
    VK_IMAGE_LAYOUT_PRESENT_SRC_KHR = 1000001002,
#ifdef VK_ENABLE_BETA_EXTENSIONS
    VK_IMAGE_LAYOUT_VIDEO_ENCODE_DST_KHR = 1000299000,
#endif
    VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL_KHR = VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL,
    VK_IMAGE_LAYOUT_MAX_ENUM = 0x7FFFFFFF
} VkImageLayout;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_NONE = 0ULL;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_NONE_KHR = 0ULL;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT = 0x00001000ULL;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_TRANSFER_BIT = 0x00001000ULL;
#ifdef VK_ENABLE_BETA_EXTENSIONS
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_VIDEO_ENCODE_BIT_KHR = 0x08000000ULL;
#endif
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_NV = 0x00080000ULL;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR = 0x00200000ULL;
static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT = 0x00080000ULL;
static const VkAccessFlagBits2 VK_ACCESS_2_SHADER_WRITE_BIT = 0x00000040ULL;
typedef enum VkFormat {
    VK_FORMAT_UNDEFINED = 0,
    VK_FORMAT_D32_SFLOAT_S8_UINT = 130,
    VK_FORMAT_ASTC_10x8_UNORM_BLOCK = 177,
    VK_FORMAT_G8_B8R8_2PLANE_420_UNORM = 1000156003,
    VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG = 1000054000,
} VkFormat;
typedef enum VkBufferUsageFlagBits {
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT = 0x00000020,
} VkBufferUsageFlagBits;
typedef enum VkImageUsageFlagBits {
    VK_IMAGE_USAGE_SAMPLED_BIT = 0x00000004,
} VkImageUsageFlagBits;
typedef enum VkImageTiling {
    VK_IMAGE_TILING_OPTIMAL = 0,
    VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT = 1000158000,
} VkImageTiling;
`

func TestGenerateMiniHeader(t *testing.T) {
	out, err := Generate([]byte(miniHeader), "example.com/mini v0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	code := string(out)
	for _, want := range []string{
		"(VK_HEADER_VERSION 7) of example.com/mini v0.0.1; DO NOT EDIT.",
		"StageAllTransfer Stage = 0x00001000",
		"StageTransfer = StageAllTransfer // alias",
		"StageTaskShaderEXT Stage = 0x00080000", // EXT is canonical before NV, whatever the header order
		"StageTaskShaderNV = StageTaskShaderEXT // alias",
		"StageRayTracingShader Stage = 0x00200000", // KHR dropped from the Go name, kept in the file name
		`{"RAY_TRACING_SHADER_KHR", StageRayTracingShader}`,
		"LayoutReadOnlyOptimal Layout = 1000314000",
		`{"PRESENT_SRC_KHR", LayoutPresentSrc}`,
		`{"D32_SFLOAT_S8_UINT", FormatD32SfloatS8Uint, 8, 1, 1, aspectDepth | aspectStencil}`,
		`{"ASTC_10x8_UNORM_BLOCK", FormatAstc10x8UnormBlock, 16, 10, 8, 0}`,
		`{"G8_B8R8_2PLANE_420_UNORM", FormatG8B8R82Plane420Unorm, 6, 2, 2, 0}`,
		"const WriteAccess = AccessShaderWrite\n",
	} {
		if !strings.Contains(normalizeSpace(code), normalizeSpace(want)) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	for _, absent := range []string{
		"VIDEO_ENCODE", "VideoEncode", // beta
		"NONE_KHR", "READ_ONLY_OPTIMAL_KHR", // _KHR spellings of core names
		"PVRTC", "DRM_FORMAT_MODIFIER", // vendor formats and tilings
		"MAX_ENUM",
	} {
		if strings.Contains(code, absent) {
			t.Errorf("generated code has %q", absent)
		}
	}
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestGenerateErrors(t *testing.T) {
	for _, tc := range []struct{ name, header, want string }{
		{"no version", "typedef enum VkImageLayout {\n} VkImageLayout;\n", "no VK_HEADER_VERSION"},
		{"missing enum", "#define VK_HEADER_VERSION 7\n", "no VkPipelineStageFlagBits2"},
		{"unknown alias", strings.Replace(miniHeader, "= VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL,", "= VK_IMAGE_LAYOUT_NOPE,", 1), "neither a number nor an earlier name"},
		{"unknown block size", strings.Replace(miniHeader, "VK_FORMAT_UNDEFINED = 0,", "VK_FORMAT_UNDEFINED = 0,\n    VK_FORMAT_PVRTC9_UNORM_BLOCK = 9,", 1), "cannot tell its block size"},
	} {
		_, err := Generate([]byte(tc.header), "m")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
