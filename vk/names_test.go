package vk

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
)

func TestNamesVulkanValues(t *testing.T) {
	tests := []struct {
		kind, name string
		got        func(string) (uint64, bool)
		want       uint64
	}{
		{"stage", "COMPUTE_SHADER", parseStageU, 0x800},
		{"stage", "NONE", parseStageU, 0},
		{"stage", "TOP_OF_PIPE", parseStageU, 0x1},
		{"stage", "ALL_TRANSFER", parseStageU, 0x1000},
		{"stage", "TRANSFER", parseStageU, 0x1000},
		{"stage", "COPY", parseStageU, 0x100000000},
		{"stage", "CLEAR", parseStageU, 0x800000000},
		{"stage", "VERTEX_ATTRIBUTE_INPUT", parseStageU, 0x2000000000},
		{"stage", "PRE_RASTERIZATION_SHADERS", parseStageU, 0x4000000000},
		{"access", "SHADER_STORAGE_WRITE", parseAccessU, 0x400000000},
		{"access", "SHADER_STORAGE_READ", parseAccessU, 0x200000000},
		{"access", "SHADER_SAMPLED_READ", parseAccessU, 0x100000000},
		{"access", "COLOR_ATTACHMENT_WRITE", parseAccessU, 0x100},
		{"access", "MEMORY_WRITE", parseAccessU, 0x10000},
		{"access", "NONE", parseAccessU, 0},
		{"layout", "UNDEFINED", parseLayoutU, 0},
		{"layout", "SHADER_READ_ONLY_OPTIMAL", parseLayoutU, 5},
		{"layout", "DEPTH_READ_ONLY_OPTIMAL", parseLayoutU, 1000241001},
		{"layout", "DEPTH_ATTACHMENT_OPTIMAL", parseLayoutU, 1000241000},
		{"layout", "READ_ONLY_OPTIMAL", parseLayoutU, 1000314000},
		{"layout", "ATTACHMENT_OPTIMAL", parseLayoutU, 1000314001},
		{"layout", "PRESENT_SRC", parseLayoutU, 1000001002},
		{"format", "UNDEFINED", parseFormatU, 0},
		{"format", "B10G11R11_UFLOAT_PACK32", parseFormatU, 122},
		{"format", "R8G8B8A8_UNORM", parseFormatU, 37},
		{"format", "D32_SFLOAT", parseFormatU, 126},
		{"format", "D24_UNORM_S8_UINT", parseFormatU, 129},
		{"format", "ASTC_12x12_SRGB_BLOCK", parseFormatU, 184},
		{"format", "G8_B8R8_2PLANE_420_UNORM", parseFormatU, 1000156003},
		{"format", "A4B4G4R4_UNORM_PACK16", parseFormatU, 1000340001},
		{"buffer usage", "STORAGE_BUFFER", parseBufferUsageU, 0x20},
		{"buffer usage", "TRANSFER_DST", parseBufferUsageU, 0x2},
		{"buffer usage", "SHADER_DEVICE_ADDRESS", parseBufferUsageU, 0x20000},
		{"image usage", "COLOR_ATTACHMENT", parseImageUsageU, 0x10},
		{"image usage", "SAMPLED", parseImageUsageU, 0x4},
		{"image usage", "INPUT_ATTACHMENT", parseImageUsageU, 0x80},
		{"tiling", "OPTIMAL", parseTilingU, 0},
		{"tiling", "LINEAR", parseTilingU, 1},
	}
	for _, tc := range tests {
		got, ok := tc.got(tc.name)
		if !ok || got != tc.want {
			t.Errorf("%s %s = %#x, %v; want %#x, true", tc.kind, tc.name, got, ok, tc.want)
		}
	}

	// The constants are the same values.
	if StageComputeShader != 0x800 || StageTransfer != StageAllTransfer ||
		AccessShaderStorageWrite != 0x400000000 || LayoutShaderReadOnlyOptimal != 5 ||
		LayoutPresentSrc != 1000001002 || FormatB10G11R11UfloatPack32 != 122 ||
		FormatR8G8B8A8Unorm != 37 || BufferUsageStorageBuffer != 0x20 ||
		ImageUsageColorAttachment != 0x10 || TilingLinear != 1 {
		t.Error("constant values differ from Vulkan's")
	}
}

func parseStageU(n string) (uint64, bool)       { v, ok := ParseStage(n); return uint64(v), ok }
func parseAccessU(n string) (uint64, bool)      { v, ok := ParseAccess(n); return uint64(v), ok }
func parseLayoutU(n string) (uint64, bool)      { v, ok := ParseLayout(n); return uint64(v), ok }
func parseFormatU(n string) (uint64, bool)      { v, ok := ParseFormat(n); return uint64(v), ok }
func parseBufferUsageU(n string) (uint64, bool) { v, ok := ParseBufferUsage(n); return uint64(v), ok }
func parseImageUsageU(n string) (uint64, bool)  { v, ok := ParseImageUsage(n); return uint64(v), ok }
func parseTilingU(n string) (uint64, bool)      { v, ok := ParseTiling(n); return uint64(v), ok }

// checkTable checks a name table: sorted by value, names unique, every name
// parses to its value, and value -> name gives the first (canonical) name of
// the value, which parses back to the same value.
func checkTable[T maskValue](t *testing.T, kind string, table []nameValue[T],
	parse func(string) (T, bool), name func(T) string) {
	t.Helper()
	seen := map[string]bool{}
	for i, e := range table {
		if seen[e.name] {
			t.Errorf("%s: duplicate name %s", kind, e.name)
		}
		seen[e.name] = true
		if i > 0 && table[i-1].value > e.value {
			t.Errorf("%s: table not sorted at %s", kind, e.name)
		}
		if v, ok := parse(e.name); !ok || v != e.value {
			t.Errorf("%s: parse %s = %#x, %v; want %#x", kind, e.name, uint64(v), ok, uint64(e.value))
		}
		canonical := e.name
		for j := i - 1; j >= 0 && table[j].value == e.value; j-- {
			canonical = table[j].name
		}
		if got := name(e.value); got != canonical {
			t.Errorf("%s: name of %s (%#x) = %q; want %q", kind, e.name, uint64(e.value), got, canonical)
		}
		if strings.HasSuffix(e.name, "_BIT") || strings.Contains(e.name, "_BIT_") || strings.HasPrefix(e.name, "VK_") {
			t.Errorf("%s: name %s keeps a prefix or suffix", kind, e.name)
		}
	}
}

func maskName[T interface{ Names() []string }](v T) string {
	n := v.Names()
	if len(n) == 0 {
		return "NONE"
	}
	return strings.Join(n, "|")
}

func TestNamesRoundTrip(t *testing.T) {
	checkTable(t, "stage", stageTable, ParseStage, maskName[Stage])
	checkTable(t, "access", accessTable, ParseAccess, maskName[AccessFlags])
	checkTable(t, "layout", layoutTable, ParseLayout, Layout.String)
	checkTable(t, "buffer usage", bufferUsageTable, ParseBufferUsage, BufferUsage.String)
	checkTable(t, "image usage", imageUsageTable, ParseImageUsage, ImageUsage.String)
	checkTable(t, "tiling", tilingTable, ParseTiling, Tiling.String)

	formats := make([]nameValue[Format], len(formatTable))
	for i, e := range formatTable {
		formats[i] = nameValue[Format]{e.name, e.value}
	}
	checkTable(t, "format", formats, ParseFormat, Format.String)
	if len(formatTable) != 239 { // 185 + 14 ASTC SFLOAT + 34 YCbCr + 4 444 + 2 A4
		t.Errorf("only %d formats", len(formatTable))
	}

	// Masks are single bits, or zero for NONE.
	for _, e := range stageTable {
		if e.value&(e.value-1) != 0 || (e.value == 0) != (e.name == "NONE") {
			t.Errorf("stage %s = %#x is not one bit", e.name, uint64(e.value))
		}
	}
	for _, e := range accessTable {
		if e.value&(e.value-1) != 0 || (e.value == 0) != (e.name == "NONE") {
			t.Errorf("access %s = %#x is not one bit", e.name, uint64(e.value))
		}
	}

	// A whole mask round-trips through Names.
	for _, m := range []Stage{0, StageComputeShader | StageTransfer | StageClear, StageAllCommands | StagePreRasterizationShaders} {
		var back Stage
		for _, n := range m.Names() {
			v, ok := ParseStage(n)
			if !ok {
				t.Fatalf("stage name %q of %v does not parse", n, m)
			}
			back |= v
		}
		if back != m {
			t.Errorf("stage mask %#x round-trips to %#x", uint64(m), uint64(back))
		}
	}
}

func TestNamesStrings(t *testing.T) {
	tests := []struct{ got, want string }{
		{Stage(0).String(), "NONE"},
		{StageTransfer.String(), "ALL_TRANSFER"},
		{(StageClear | StageComputeShader | StageTopOfPipe).String(), "TOP_OF_PIPE|COMPUTE_SHADER|CLEAR"},
		{(StageComputeShader | 1<<60).String(), "COMPUTE_SHADER|0x1000000000000000"},
		{AccessFlags(0).String(), "NONE"},
		{(AccessShaderStorageWrite | AccessShaderSampledRead).String(), "SHADER_SAMPLED_READ|SHADER_STORAGE_WRITE"},
		{BufferUsage(0).String(), "0"},
		{(BufferUsageStorageBuffer | BufferUsageTransferDst).String(), "TRANSFER_DST|STORAGE_BUFFER"},
		{ImageUsage(0).String(), "0"},
		{(ImageUsageSampled | ImageUsageColorAttachment).String(), "SAMPLED|COLOR_ATTACHMENT"},
		{(ImageUsageSampled | 1<<31).String(), "SAMPLED|0x80000000"},
		{LayoutDepthReadOnlyOptimal.String(), "DEPTH_READ_ONLY_OPTIMAL"},
		{Layout(123).String(), "Layout(123)"},
		{FormatB10G11R11UfloatPack32.String(), "B10G11R11_UFLOAT_PACK32"},
		{Format(999).String(), "Format(999)"},
		{TilingOptimal.String(), "OPTIMAL"},
		{Tiling(7).String(), "Tiling(7)"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if n := Stage(0).Names(); n == nil || len(n) != 0 {
		t.Errorf("Stage(0).Names() = %#v, want empty", n)
	}
	if n := (StageTransfer | StageCopy).Names(); !slices.Equal(n, []string{"ALL_TRANSFER", "COPY"}) {
		t.Errorf("names = %v", n)
	}
	if n := (AccessTransferWrite).Names(); !slices.Equal(n, []string{"TRANSFER_WRITE"}) {
		t.Errorf("names = %v", n)
	}
	if n := (BufferUsageVertexBuffer | BufferUsageIndexBuffer).Names(); !slices.Equal(n, []string{"INDEX_BUFFER", "VERTEX_BUFFER"}) {
		t.Errorf("names = %v", n)
	}
	if n := (ImageUsageStorage).Names(); !slices.Equal(n, []string{"STORAGE"}) {
		t.Errorf("names = %v", n)
	}
}

func TestNamesUnknown(t *testing.T) {
	for _, n := range []string{"", "compute_shader", "COMPUTE_SHADER_BIT", "VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT",
		"COMPUTE_SHADER_KHR", " COMPUTE_SHADER", "COMPUTE", "0x800"} {
		if _, ok := ParseStage(n); ok {
			t.Errorf("ParseStage(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "WRITE", "shader_storage_write", "SHADER_STORAGE_WRITE_BIT", "SHADER_STORAGE_WRITE_KHR"} {
		if _, ok := ParseAccess(n); ok {
			t.Errorf("ParseAccess(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "PRESENT_SRC_KHR_KHR", "undefined", "DEPTH_READ_ONLY_OPTIMAL_KHR"} {
		if _, ok := ParseLayout(n); ok {
			t.Errorf("ParseLayout(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "RGBA8", "r8g8b8a8_unorm", "R8G8B8A8", "ASTC_4X4_UNORM_BLOCK", "PVRTC1_2BPP_UNORM_BLOCK_IMG"} {
		if _, ok := ParseFormat(n); ok {
			t.Errorf("ParseFormat(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "STORAGE", "STORAGE_BUFFER_BIT", "storage_buffer"} {
		if _, ok := ParseBufferUsage(n); ok {
			t.Errorf("ParseBufferUsage(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "STORAGE_BUFFER", "SAMPLED_BIT", "sampled"} {
		if _, ok := ParseImageUsage(n); ok {
			t.Errorf("ParseImageUsage(%q) succeeded", n)
		}
	}
	for _, n := range []string{"", "optimal", "DRM_FORMAT_MODIFIER_EXT"} {
		if _, ok := ParseTiling(n); ok {
			t.Errorf("ParseTiling(%q) succeeded", n)
		}
	}
}

func TestNamesWriteAccess(t *testing.T) {
	var want AccessFlags
	for _, e := range accessTable {
		if strings.Contains(e.name, "WRITE") {
			want |= e.value
		}
	}
	if WriteAccess != want {
		t.Errorf("WriteAccess = %v, want %v", WriteAccess, want)
	}
	for _, e := range accessTable {
		if !strings.Contains(e.name, "WRITE") && e.value&WriteAccess != 0 {
			t.Errorf("%s is in WriteAccess", e.name)
		}
	}
	for _, n := range []string{"SHADER_STORAGE_WRITE", "COLOR_ATTACHMENT_WRITE", "TRANSFER_WRITE", "MEMORY_WRITE",
		"HOST_WRITE", "DEPTH_STENCIL_ATTACHMENT_WRITE", "SHADER_WRITE", "ACCELERATION_STRUCTURE_WRITE"} {
		v, _ := ParseAccess(n)
		if v == 0 || v.Writes() != v {
			t.Errorf("%s is not a write", n)
		}
	}
	for _, n := range []string{"SHADER_STORAGE_READ", "SHADER_SAMPLED_READ", "SHADER_READ", "COLOR_ATTACHMENT_READ",
		"TRANSFER_READ", "MEMORY_READ", "HOST_READ", "DEPTH_STENCIL_ATTACHMENT_READ", "UNIFORM_READ",
		"INDIRECT_COMMAND_READ", "INDEX_READ", "VERTEX_ATTRIBUTE_READ", "INPUT_ATTACHMENT_READ", "NONE"} {
		v, ok := ParseAccess(n)
		if !ok || v.Writes() != 0 {
			t.Errorf("%s is a write (or unknown)", n)
		}
	}
	if got := (AccessShaderStorageRead | AccessShaderStorageWrite | AccessTransferWrite).Writes(); got != AccessShaderStorageWrite|AccessTransferWrite {
		t.Errorf("Writes = %v", got)
	}
}

func TestNamesFormatInfo(t *testing.T) {
	tests := []struct {
		f            Format
		bytes        uint64
		w, h         uint32
		depth, stenc bool
	}{
		{FormatUndefined, 0, 1, 1, false, false},
		{Format(999), 0, 1, 1, false, false},
		{FormatR8Unorm, 1, 1, 1, false, false},
		{FormatR8G8B8A8Unorm, 4, 1, 1, false, false},
		{FormatB8G8R8A8Srgb, 4, 1, 1, false, false},
		{FormatR8G8B8Unorm, 3, 1, 1, false, false},
		{FormatR16G16B16A16Sfloat, 8, 1, 1, false, false},
		{FormatR32G32B32A32Sfloat, 16, 1, 1, false, false},
		{FormatR64G64B64A64Sfloat, 32, 1, 1, false, false},
		{FormatB10G11R11UfloatPack32, 4, 1, 1, false, false},
		{FormatE5B9G9R9UfloatPack32, 4, 1, 1, false, false},
		{FormatA2B10G10R10UnormPack32, 4, 1, 1, false, false},
		{FormatR4G4UnormPack8, 1, 1, 1, false, false},
		{FormatR5G6B5UnormPack16, 2, 1, 1, false, false},
		{FormatD16Unorm, 2, 1, 1, true, false},
		{FormatX8D24UnormPack32, 4, 1, 1, true, false},
		{FormatD32Sfloat, 4, 1, 1, true, false},
		{FormatS8Uint, 1, 1, 1, false, true},
		{FormatD16UnormS8Uint, 4, 1, 1, true, true},
		{FormatD24UnormS8Uint, 4, 1, 1, true, true},
		{FormatD32SfloatS8Uint, 8, 1, 1, true, true},
		{FormatBc1RgbUnormBlock, 8, 4, 4, false, false},
		{FormatBc3SrgbBlock, 16, 4, 4, false, false},
		{FormatBc4UnormBlock, 8, 4, 4, false, false},
		{FormatBc7UnormBlock, 16, 4, 4, false, false},
		{FormatEtc2R8G8B8A1UnormBlock, 8, 4, 4, false, false},
		{FormatEtc2R8G8B8A8SrgbBlock, 16, 4, 4, false, false},
		{FormatEacR11G11SnormBlock, 16, 4, 4, false, false},
		{FormatAstc4x4UnormBlock, 16, 4, 4, false, false},
		{FormatAstc10x8SrgbBlock, 16, 10, 8, false, false},
		{FormatAstc12x12SfloatBlock, 16, 12, 12, false, false},
		{FormatG8B8G8R8422Unorm, 4, 2, 1, false, false},
		{FormatG8B8R82Plane420Unorm, 6, 2, 2, false, false},
		{FormatG16B16R163Plane444Unorm, 6, 1, 1, false, false},
		{FormatR10X6G10X6Unorm2Pack16, 4, 1, 1, false, false},
		{FormatA4B4G4R4UnormPack16, 2, 1, 1, false, false},
	}
	for _, tc := range tests {
		w, h := tc.f.BlockExtent()
		if b := tc.f.BytesPerBlock(); b != tc.bytes || w != tc.w || h != tc.h {
			t.Errorf("%v: %d bytes per %dx%d; want %d per %dx%d", tc.f, b, w, h, tc.bytes, tc.w, tc.h)
		}
		if tc.f.HasDepth() != tc.depth || tc.f.HasStencil() != tc.stenc || tc.f.IsDepthStencil() != (tc.depth || tc.stenc) {
			t.Errorf("%v: depth %v stencil %v", tc.f, tc.f.HasDepth(), tc.f.HasStencil())
		}
	}
	for _, e := range formatTable {
		w, h := e.value.BlockExtent()
		if e.value != FormatUndefined && (e.value.BytesPerBlock() == 0 || w == 0 || h == 0) {
			t.Errorf("%s has no size", e.name)
		}
	}
}

// TestNamesFrames parses every enum name used in the sample frames.
func TestNamesFrames(t *testing.T) {
	var files []string
	for _, f := range datadir.Files(t, datadir.Frames) {
		files = append(files, f.Path)
	}
	type anyMap = map[string]any
	strs := func(v any) []string {
		switch x := v.(type) {
		case nil:
			return nil
		case string:
			return []string{x}
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					t.Fatalf("non-string name %v", e)
				}
				out = append(out, s)
			}
			return out
		}
		t.Fatalf("unexpected name value %#v", v)
		return nil
	}
	check := func(file, kind string, v any, parse func(string) (uint64, bool)) int {
		n := 0
		for _, s := range strs(v) {
			n++
			if _, ok := parse(s); !ok {
				t.Errorf("%s: %s name %q does not parse", file, kind, s)
			}
		}
		return n
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var g anyMap
		if err := json.Unmarshal(data, &g); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		count := 0
		resources, _ := g["resources"].([]any)
		for _, r := range resources {
			r, _ := r.(anyMap)
			if b, ok := r["buffer"].(anyMap); ok {
				count += check(file, "buffer usage", b["usage"], parseBufferUsageU)
			}
			if im, ok := r["image"].(anyMap); ok {
				count += check(file, "format", im["format"], parseFormatU)
				count += check(file, "tiling", im["tiling"], parseTilingU)
				count += check(file, "image usage", im["usage"], parseImageUsageU)
				count += check(file, "layout", im["initialLayout"], parseLayoutU)
			}
		}
		commands, _ := g["commands"].([]any)
		for _, c := range commands {
			c, _ := c.(anyMap)
			accesses, _ := c["accesses"].([]any)
			for _, a := range accesses {
				a, _ := a.(anyMap)
				count += check(file, "stage", a["stages"], parseStageU)
				count += check(file, "access", a["access"], parseAccessU)
				count += check(file, "layout", a["layout"], parseLayoutU)
			}
		}
		if count == 0 {
			t.Errorf("%s: no names found", file)
		}
	}
}

// Issue 12 item 5: Vulkan's own names, with their extension suffix, are
// accepted and written; the name without _KHR is still read.
func TestNamesKHRSuffix(t *testing.T) {
	for _, tc := range []struct {
		kind, name string
		parse      func(string) (uint64, bool)
		want       uint64
	}{
		{"layout", "PRESENT_SRC_KHR", parseLayoutU, 1000001002},
		{"layout", "PRESENT_SRC", parseLayoutU, 1000001002},
		{"layout", "SHARED_PRESENT_KHR", parseLayoutU, 1000111000},
		{"layout", "FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR", parseLayoutU, 1000164003},
		{"stage", "RAY_TRACING_SHADER_KHR", parseStageU, 0x200000},
		{"stage", "RAY_TRACING_SHADER", parseStageU, 0x200000},
		{"stage", "ACCELERATION_STRUCTURE_BUILD_KHR", parseStageU, 0x2000000},
		{"stage", "ACCELERATION_STRUCTURE_COPY_KHR", parseStageU, 0x10000000},
		{"stage", "FRAGMENT_SHADING_RATE_ATTACHMENT_KHR", parseStageU, 0x400000},
		{"stage", "VIDEO_DECODE_KHR", parseStageU, 0x4000000},
		{"access", "ACCELERATION_STRUCTURE_READ_KHR", parseAccessU, 0x200000},
		{"access", "SHADER_BINDING_TABLE_READ_KHR", parseAccessU, 0x10000000000},
		{"access", "VIDEO_DECODE_WRITE_KHR", parseAccessU, 0x1000000000},
		{"buffer usage", "ACCELERATION_STRUCTURE_STORAGE_KHR", parseBufferUsageU, 0x100000},
		{"buffer usage", "SHADER_BINDING_TABLE_KHR", parseBufferUsageU, 0x400},
		{"image usage", "FRAGMENT_SHADING_RATE_ATTACHMENT_KHR", parseImageUsageU, 0x100},
	} {
		if got, ok := tc.parse(tc.name); !ok || got != tc.want {
			t.Errorf("%s %s = %#x, %v; want %#x", tc.kind, tc.name, got, ok, tc.want)
		}
	}
	if got := LayoutPresentSrc.String(); got != "PRESENT_SRC_KHR" {
		t.Errorf("LayoutPresentSrc writes as %s; want PRESENT_SRC_KHR", got)
	}
	if got := StageRayTracingShader.String(); got != "RAY_TRACING_SHADER_KHR" {
		t.Errorf("StageRayTracingShader writes as %s; want RAY_TRACING_SHADER_KHR", got)
	}
	// Core names have no suffix, and a suffix Vulkan does not give is
	// still an error.
	for _, n := range []string{"COMPUTE_SHADER_KHR", "SHADER_STORAGE_WRITE_KHR", "COPY_KHR"} {
		if _, ok := ParseStage(n); ok {
			t.Errorf("ParseStage(%q) succeeded", n)
		}
	}
	// Dropping _KHR is never ambiguous: no table has X and X_KHR.
	check := func(kind string, names []string) {
		seen := map[string]bool{}
		for _, n := range names {
			seen[n] = true
		}
		for _, n := range names {
			if base, ok := strings.CutSuffix(n, "_KHR"); ok && seen[base] {
				t.Errorf("%s: both %s and %s", kind, base, n)
			}
		}
	}
	check("stage", tableNames(stageTable))
	check("access", tableNames(accessTable))
	check("layout", tableNames(layoutTable))
	check("buffer usage", tableNames(bufferUsageTable))
	check("image usage", tableNames(imageUsageTable))
}

func tableNames[T any](table []nameValue[T]) []string {
	var out []string
	for _, e := range table {
		out = append(out, e.name)
	}
	return out
}

// TestNamesGeneratedAsBefore compares the generated tables (names_gen.go)
// with the tables as they were written by hand (names_old_test.go): the
// same names in the same order, the same Go constants (the old table names
// each one, so a renamed constant does not compile) with the same values,
// the same format facts and WriteAccess.
func TestNamesGeneratedAsBefore(t *testing.T) {
	checkOld(t, "stage", stageTable, oldStageTable)
	checkOld(t, "access", accessTable, oldAccessTable)
	checkOld(t, "layout", layoutTable, oldLayoutTable)
	checkOld(t, "buffer usage", bufferUsageTable, oldBufferUsageTable)
	checkOld(t, "image usage", imageUsageTable, oldImageUsageTable)
	checkOld(t, "tiling", tilingTable, oldTilingTable)
	if len(formatTable) != len(oldFormatTable) {
		t.Errorf("format: %d names, want %d", len(formatTable), len(oldFormatTable))
	}
	for i := range min(len(formatTable), len(oldFormatTable)) {
		g, w := formatTable[i], oldFormatTable[i]
		if g.name != w.name || g.value != w.value || uint64(g.value) != w.lit ||
			g.bytes != w.bytes || g.blockWidth != w.blockWidth || g.blockHeight != w.blockHeight || g.aspects != w.aspects {
			t.Errorf("format %d: %+v, want %+v", i, g, w)
		}
	}
	if WriteAccess != oldWriteAccess {
		t.Errorf("WriteAccess = %#x, want %#x", uint64(WriteAccess), uint64(oldWriteAccess))
	}
}

func checkOld[T maskValue](t *testing.T, kind string, got []nameValue[T], want []oldName[T]) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d names, want %d", kind, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.name != w.name || g.value != w.value || uint64(g.value) != w.lit {
			t.Errorf("%s %d: %s = %#x, want %s = %#x (%#x)", kind, i, g.name, uint64(g.value), w.name, uint64(w.value), w.lit)
		}
	}
}

func TestNamesSuggest(t *testing.T) {
	for _, tc := range []struct {
		kind, name string
		suggest    func(string) (string, bool)
		want       string
	}{
		{"stage", "COMPUTE_SHADERR", SuggestStage, "COMPUTE_SHADER"},
		{"stage", "compute_shader", SuggestStage, "COMPUTE_SHADER"},
		{"access", "SHADER_STORGE_WRITE", SuggestAccess, "SHADER_STORAGE_WRITE"},
		{"layout", "SHADER_READ_ONLY_OPTIMAl", SuggestLayout, "SHADER_READ_ONLY_OPTIMAL"},
		{"layout", "PRESENT_SRC_KHRR", SuggestLayout, "PRESENT_SRC_KHR"},
		{"format", "R8G8B8A8_UNROM", SuggestFormat, "R8G8B8A8_UNORM"},
		{"buffer usage", "STORAGE_BUFER", SuggestBufferUsage, "STORAGE_BUFFER"},
		{"image usage", "COLOR_ATACHMENT", SuggestImageUsage, "COLOR_ATTACHMENT"},
		{"tiling", "OPTIMAl", SuggestTiling, "OPTIMAL"},
		{"stage", "RASTERIZATION", SuggestStage, ""},
	} {
		got, ok := tc.suggest(tc.name)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s %q: suggested %q, %v; want %q", tc.kind, tc.name, got, ok, tc.want)
		}
	}
}
