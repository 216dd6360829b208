package vk

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

//go:generate go run ./internal/vkgen -o names_gen.go

// The names and values of the Vulkan enums that graph files use (SPEC §5).
// The constants and name tables are generated (names_gen.go, by
// internal/vkgen) from vulkan_core.h of the binding (github.com/goki/vulkan
// v1.0.8: Vulkan 1.3.239), so each name is written once, in the header.
//
// A name is the Vulkan enum name without its prefix (VK_PIPELINE_STAGE_2_,
// VK_ACCESS_2_, VK_IMAGE_LAYOUT_, VK_FORMAT_, VK_BUFFER_USAGE_,
// VK_IMAGE_USAGE_, VK_IMAGE_TILING_) and without the _BIT suffix:
// COMPUTE_SHADER, SHADER_STORAGE_WRITE. Extension suffixes are part of the
// name and are written so (PRESENT_SRC_KHR, RAY_TRACING_SHADER_KHR,
// TRANSFORM_FEEDBACK_EXT); names promoted to core have none
// (SHADER_STORAGE_WRITE, DEPTH_READ_ONLY_OPTIMAL), and their _KHR spelling
// is left out. The parsers also accept a name without its _KHR suffix
// (PRESENT_SRC), which earlier versions wrote: no two names differ only by
// it, so that is never ambiguous. Every value is Vulkan's own (names of beta
// extensions left out), so a Vulkan backend passes them through unchanged.
// Formats and tilings are those of core Vulkan 1.3. The Go constant drops a
// _KHR suffix and keeps the others (StageRayTracingShader,
// StageTaskShaderNV).

// Stage is a mask of pipeline stages (VkPipelineStageFlags2).
type Stage uint64

// AccessFlags is a mask of memory access types (VkAccessFlags2).
type AccessFlags uint64

// Layout is an image layout (VkImageLayout).
type Layout uint32

// Format is an image format (VkFormat).
type Format uint32

// BufferUsage is a mask of buffer usages (VkBufferUsageFlags).
type BufferUsage uint32

// ImageUsage is a mask of image usages (VkImageUsageFlags).
type ImageUsage uint32

// Tiling is an image tiling (VkImageTiling).
type Tiling uint32

// nameValue is one entry of a name table.
type nameValue[T any] struct {
	name  string
	value T
}

// formatInfo describes one format for size estimates: the bytes of one texel
// block and the block's extent in texels. Multi-planar formats count one block
// of all planes together (G8_B8R8_2PLANE_420_UNORM: 6 bytes per 2x2 texels).
type formatInfo struct {
	name        string
	value       Format
	bytes       uint8
	blockWidth  uint8
	blockHeight uint8
	aspects     uint8
}

// Aspect bits of formatInfo.aspects.
const (
	aspectDepth   = 1 << 0
	aspectStencil = 1 << 1
)

type maskValue interface{ ~uint32 | ~uint64 }

// nameIndex maps every name of a table to its value.
func nameIndex[T any](table []nameValue[T]) map[string]T {
	m := make(map[string]T, len(table))
	for _, e := range table {
		m[e.name] = e.value
	}
	return m
}

// bitNames returns the canonical name of each bit position of a mask table
// (the first name of the table with that bit); "" where no name exists.
func bitNames[T maskValue](table []nameValue[T], width int) []string {
	names := make([]string, width)
	for _, e := range table {
		if e.value == 0 {
			continue
		}
		b := bits.TrailingZeros64(uint64(e.value))
		if names[b] == "" {
			names[b] = e.name
		}
	}
	return names
}

// maskNames returns the canonical names of the bits of m in ascending bit
// order; a bit without a name is written in hex (0x...).
func maskNames(m uint64, canonical []string) []string {
	if m == 0 {
		return []string{}
	}
	out := make([]string, 0, bits.OnesCount64(m))
	for m != 0 {
		b := bits.TrailingZeros64(m)
		m &= m - 1
		if b < len(canonical) && canonical[b] != "" {
			out = append(out, canonical[b])
		} else {
			out = append(out, fmt.Sprintf("%#x", uint64(1)<<b))
		}
	}
	return out
}

// maskString joins the names of m with |, or returns zero for an empty mask.
func maskString(m uint64, canonical []string, zero string) string {
	if m == 0 {
		return zero
	}
	return strings.Join(maskNames(m, canonical), "|")
}

// enumName returns the canonical name of v from a table sorted by value.
func enumName[T maskValue](table []nameValue[T], v T) (string, bool) {
	i := sort.Search(len(table), func(i int) bool { return table[i].value >= v })
	if i < len(table) && table[i].value == v {
		return table[i].name, true
	}
	return "", false
}

var (
	stageByName       = nameIndex(stageTable)
	stageBitNames     = bitNames(stageTable, 64)
	accessByName      = nameIndex(accessTable)
	accessBitNames    = bitNames(accessTable, 64)
	layoutByName      = nameIndex(layoutTable)
	bufferUsageByName = nameIndex(bufferUsageTable)
	bufferUsageBits   = bitNames(bufferUsageTable, 32)
	imageUsageByName  = nameIndex(imageUsageTable)
	imageUsageBits    = bitNames(imageUsageTable, 32)
	tilingByName      = nameIndex(tilingTable)
	formatByName      = func() map[string]Format {
		m := make(map[string]Format, len(formatTable))
		for _, e := range formatTable {
			m[e.name] = e.value
		}
		return m
	}()
)

// lookupName finds name in m, or name with the _KHR suffix it lacks
// (PRESENT_SRC for PRESENT_SRC_KHR).
func lookupName[T any](m map[string]T, name string) (T, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	if strings.HasSuffix(name, "_KHR") {
		var zero T
		return zero, false
	}
	v, ok := m[name+"_KHR"]
	return v, ok
}

// ParseStage returns the stage bit of a name (NONE is 0). Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseStage(name string) (Stage, bool) {
	return lookupName(stageByName, name)
}

// Names returns the names of the bits of s in ascending bit order (empty for
// NONE), one canonical name per bit (ALL_TRANSFER, not TRANSFER).
func (s Stage) Names() []string { return maskNames(uint64(s), stageBitNames) }

// String returns the names of s joined with |, or NONE.
func (s Stage) String() string { return maskString(uint64(s), stageBitNames, "NONE") }

// ParseAccess returns the access bit of a name (NONE is 0). Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseAccess(name string) (AccessFlags, bool) {
	return lookupName(accessByName, name)
}

// Writes returns the write bits of a.
func (a AccessFlags) Writes() AccessFlags { return a & WriteAccess }

// Names returns the names of the bits of a in ascending bit order (empty for
// NONE).
func (a AccessFlags) Names() []string { return maskNames(uint64(a), accessBitNames) }

// String returns the names of a joined with |, or NONE.
func (a AccessFlags) String() string { return maskString(uint64(a), accessBitNames, "NONE") }

// ParseLayout returns the layout of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseLayout(name string) (Layout, bool) {
	return lookupName(layoutByName, name)
}

// String returns the name of l, or Layout(n) for an unknown value.
func (l Layout) String() string {
	if n, ok := enumName(layoutTable, l); ok {
		return n
	}
	return fmt.Sprintf("Layout(%d)", uint32(l))
}

// ParseFormat returns the format of a name. Matching is exact.
func ParseFormat(name string) (Format, bool) {
	v, ok := formatByName[name]
	return v, ok
}

func (f Format) info() *formatInfo {
	i := sort.Search(len(formatTable), func(i int) bool { return formatTable[i].value >= f })
	if i < len(formatTable) && formatTable[i].value == f {
		return &formatTable[i]
	}
	return nil
}

// String returns the name of f, or Format(n) for an unknown value.
func (f Format) String() string {
	if e := f.info(); e != nil {
		return e.name
	}
	return fmt.Sprintf("Format(%d)", uint32(f))
}

// BytesPerBlock returns the bytes of one texel block of f, for size
// estimates: 0 for UNDEFINED and unknown formats. Combined depth/stencil
// formats count padded storage (D16_UNORM_S8_UINT and D24_UNORM_S8_UINT 4,
// D32_SFLOAT_S8_UINT 8). A block of a multi-planar format holds all planes.
func (f Format) BytesPerBlock() uint64 {
	if e := f.info(); e != nil {
		return uint64(e.bytes)
	}
	return 0
}

// BlockExtent returns the texel block extent of f: 4x4 for BC, ETC2 and EAC,
// the block size for ASTC, 2x1 for 422 and 2x2 for 420 formats, else 1x1
// (also for UNDEFINED and unknown formats, so it never divides by zero).
func (f Format) BlockExtent() (w, h uint32) {
	if e := f.info(); e != nil {
		return uint32(e.blockWidth), uint32(e.blockHeight)
	}
	return 1, 1
}

// HasDepth reports whether f has a depth aspect.
func (f Format) HasDepth() bool {
	e := f.info()
	return e != nil && e.aspects&aspectDepth != 0
}

// HasStencil reports whether f has a stencil aspect.
func (f Format) HasStencil() bool {
	e := f.info()
	return e != nil && e.aspects&aspectStencil != 0
}

// IsDepthStencil reports whether f has a depth or a stencil aspect.
func (f Format) IsDepthStencil() bool {
	e := f.info()
	return e != nil && e.aspects != 0
}

// ParseBufferUsage returns the usage bit of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseBufferUsage(name string) (BufferUsage, bool) {
	return lookupName(bufferUsageByName, name)
}

// Names returns the names of the bits of u in ascending bit order.
func (u BufferUsage) Names() []string { return maskNames(uint64(u), bufferUsageBits) }

// String returns the names of u joined with |, or 0.
func (u BufferUsage) String() string { return maskString(uint64(u), bufferUsageBits, "0") }

// ParseImageUsage returns the usage bit of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseImageUsage(name string) (ImageUsage, bool) {
	return lookupName(imageUsageByName, name)
}

// Names returns the names of the bits of u in ascending bit order.
func (u ImageUsage) Names() []string { return maskNames(uint64(u), imageUsageBits) }

// String returns the names of u joined with |, or 0.
func (u ImageUsage) String() string { return maskString(uint64(u), imageUsageBits, "0") }

// ParseTiling returns the tiling of a name. Matching is exact.
func ParseTiling(name string) (Tiling, bool) {
	v, ok := tilingByName[name]
	return v, ok
}

// String returns the name of t, or Tiling(n) for an unknown value.
func (t Tiling) String() string {
	if n, ok := enumName(tilingTable, t); ok {
		return n
	}
	return fmt.Sprintf("Tiling(%d)", uint32(t))
}
