package planner

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/bits"
)

// Profile estimates memory requirements from resource descriptions, for
// planning without a device. Its figures model one device's rules; the
// plan says "profile NAME" so nobody mistakes them for measured ones.
type Profile struct {
	Name  string
	Types []MemoryType
	// Buffers: size rounded up to BufferAlignment, aligned to it.
	BufferAlignment uint64
	BufferTypeBits  uint32
	// Optimal-tiled images: size rounded up to ImagePage (when the raw size
	// is at least ImagePage) and aligned to it; smaller images are rounded
	// to and aligned at SmallImageAlignment.
	ImagePage           uint64
	SmallImageAlignment uint64
	ImageTypeBits       uint32
	// Linear-tiled images: like buffers.

	// ImageLimits are the device's limits (images, and
	// maxMemoryAllocationSize); images beyond them are rejected before
	// any size is estimated. Limits returns them.
	ImageLimits Limits
}

// Limits are the device limits an image description must respect
// (VkPhysicalDeviceLimits). A zero field means "unknown": not checked.
type Limits struct {
	MaxImageDimension1D uint32
	MaxImageDimension2D uint32
	MaxImageDimension3D uint32
	MaxImageArrayLayers uint32
	// SampleCounts has bit k set when 2^k samples are supported
	// (VkSampleCountFlags): the union of the framebuffer and sampled-image
	// sample counts, since the planner does not know which use decides.
	SampleCounts uint32
	// MaxMemoryAllocationSize (VkPhysicalDeviceMaintenance3Properties) is
	// the largest allocation the device promises: Place refuses a
	// resource larger than it (RuleMaxAllocation) and caps every pool at
	// it (Options.MaxPoolSize, when that is 0 or larger).
	MaxMemoryAllocationSize uint64
}

// LimitsSource is implemented by a RequirementsSource that knows its
// device's limits (a Profile, the vulkan package's Resources). Place checks
// every placed image against them, and every resource and pool against
// MaxMemoryAllocationSize. It is a separate interface so that sources
// written before it keep working.
type LimitsSource interface {
	Limits() Limits
}

// CheckImage checks r's image description against l: every extent against
// maxImageDimension1D/2D/3D (an image with depth > 1 is 3D; one with
// height and depth 1 may be 1D, so its width is held to the larger of the
// 1D and 2D limits; the rest are 2D), its layers against
// maxImageArrayLayers, its sample count against SampleCounts. Buffers pass.
// It returns a *GraphError with RuleImageLimit.
func (l Limits) CheckImage(r *Resource) error {
	if r.Kind != KindImage {
		return nil
	}
	im := &r.Image
	fail := func(format string, args ...any) error {
		return &GraphError{Resource: r.Name, Access: -1, Rule: RuleImageLimit, Detail: fmt.Sprintf(format, args...)}
	}
	over := func(v, limit uint32) bool { return limit != 0 && v > limit }
	switch {
	case im.Depth > 1:
		if m := max(im.Width, im.Height, im.Depth); over(m, l.MaxImageDimension3D) {
			return fail("3D image extent %dx%dx%d exceeds maxImageDimension3D %d", im.Width, im.Height, im.Depth, l.MaxImageDimension3D)
		}
	case im.Height == 1:
		if lim := max(l.MaxImageDimension1D, l.MaxImageDimension2D); over(im.Width, lim) {
			return fail("image width %d exceeds maxImageDimension1D/2D %d", im.Width, lim)
		}
	default:
		if m := max(im.Width, im.Height); over(m, l.MaxImageDimension2D) {
			return fail("image extent %dx%d exceeds maxImageDimension2D %d", im.Width, im.Height, l.MaxImageDimension2D)
		}
	}
	if over(im.ArrayLayers, l.MaxImageArrayLayers) {
		return fail("%d array layers exceed maxImageArrayLayers %d", im.ArrayLayers, l.MaxImageArrayLayers)
	}
	if l.SampleCounts != 0 && (!isPow2(uint64(im.Samples)) || im.Samples > 1<<31 || l.SampleCounts&im.Samples == 0) {
		return fail("sample count %d is not one the device supports (sample counts mask %#x)", im.Samples, l.SampleCounts)
	}
	return nil
}

// CheckAllocation checks one allocation's size against the device: a
// resource of size bytes whose memoryTypeBits are bits, over types, must
// fit in the largest heap it can be allocated from (RuleHeapSize) and in
// MaxMemoryAllocationSize (when known; RuleMaxAllocation). The heaps
// considered are those of its types that suit its memory kind
// (device-local ones for gpu_only, host-visible ones for the others, as
// pools and the vulkan package's own allocations choose them; all its
// types when none suits), and only when all their sizes are known. It
// returns a *GraphError naming r.
func (l Limits) CheckAllocation(r *Resource, size uint64, bits uint32, types []MemoryType) error {
	fail := func(rule Rule, format string, args ...any) error {
		return &GraphError{Resource: r.Name, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	want := MemoryDeviceLocal
	if r.Memory.HostVisible() {
		want = MemoryHostVisible
	}
	var suits uint32
	for t := range min(len(types), 32) {
		if bits&(1<<t) != 0 && types[t].Flags&want != 0 {
			suits |= 1 << t
		}
	}
	if suits != 0 {
		bits = suits
	}
	var largest uint64
	known := false
	for t := range min(len(types), 32) {
		if bits&(1<<t) == 0 {
			continue
		}
		if types[t].HeapSize == 0 {
			known = false
			break
		}
		known = true
		largest = max(largest, types[t].HeapSize)
	}
	if known && size > largest {
		return fail(RuleHeapSize, "%d bytes do not fit in any memory heap it can use (memory types %#x; the largest heap has %d bytes)", size, bits, largest)
	}
	if m := l.MaxMemoryAllocationSize; m != 0 && size > m {
		return fail(RuleMaxAllocation, "%d bytes exceed maxMemoryAllocationSize %d", size, m)
	}
	return nil
}

// ProfileH200 models an NVIDIA H200 (driver 580): five memory types,
// 64 KiB image pages, 256-byte buffer rounding.
var ProfileH200 = &Profile{
	Name: "h200",
	// Heap 0 is the GPU's 143,771 MiB of HBM3e (nvidia-smi's total; 141
	// GB); heap 1, host memory, depends on the machine and is left
	// unknown.
	Types: []MemoryType{
		{Flags: 0, Heap: 1},
		{Flags: MemoryDeviceLocal, Heap: 0, HeapSize: h200Heap},
		{Flags: MemoryHostVisible | MemoryHostCoherent, Heap: 1},
		{Flags: MemoryHostVisible | MemoryHostCoherent | MemoryHostCached, Heap: 1},
		{Flags: MemoryDeviceLocal | MemoryHostVisible | MemoryHostCoherent, Heap: 0, HeapSize: h200Heap},
	},
	BufferAlignment:     256,
	BufferTypeBits:      0x1f,
	ImagePage:           64 << 10,
	SmallImageAlignment: 1 << 10,
	ImageTypeBits:       0x3,
	// NVIDIA's limits on recent GPUs (public vulkaninfo reports): 32768
	// per 1D/2D dimension, 16384 per 3D dimension, 2048 layers, 1 to 8
	// samples.
	// maxMemoryAllocationSize 0xffe00000 was measured on the H200 (driver
	// 580.159, shared/VULKAN-NOTES.md).
	ImageLimits: Limits{MaxImageDimension1D: 32768, MaxImageDimension2D: 32768, MaxImageDimension3D: 16384,
		MaxImageArrayLayers: 2048, SampleCounts: 0xf, MaxMemoryAllocationSize: 0xffe00000},
}

// h200Heap is the H200's device-local heap: 143,771 MiB.
const h200Heap = 143771 << 20

// ProfileLavapipe models Mesa's lavapipe: one memory type that is
// everything at once, tight packing.
var ProfileLavapipe = &Profile{
	Name:                "lavapipe",
	Types:               []MemoryType{{Flags: MemoryDeviceLocal | MemoryHostVisible | MemoryHostCoherent | MemoryHostCached, HeapSize: 2 << 30}},
	BufferAlignment:     64,
	BufferTypeBits:      0x1,
	ImagePage:           16,
	SmallImageAlignment: 16,
	ImageTypeBits:       0x1,
	// Measured with vulkaninfo on lavapipe (Mesa 22.3.6): 1 and 4 samples;
	// heap and maxMemoryAllocationSize 2 GiB (TestDeviceLimits).
	ImageLimits: Limits{MaxImageDimension1D: 16384, MaxImageDimension2D: 16384, MaxImageDimension3D: 4096,
		MaxImageArrayLayers: 2048, SampleCounts: 0x5, MaxMemoryAllocationSize: 2 << 30},
}

// Profiles lists the built-in profiles by name.
var Profiles = []*Profile{ProfileH200, ProfileLavapipe}

// Describe implements RequirementsSource.
func (p *Profile) Describe() string { return "profile " + p.Name }

// MemoryTypes implements RequirementsSource.
func (p *Profile) MemoryTypes() []MemoryType { return p.Types }

// Limits implements LimitsSource: ImageLimits, so that resources with
// explicit requirements are held to them too.
func (p *Profile) Limits() Limits { return p.ImageLimits }

// Requirements implements RequirementsSource with estimates. An image
// beyond the profile's limits, or a size that does not fit in 64 bits once
// rounded, is a *GraphError (RuleImageLimit, RuleMipLevels,
// RuleSizeOverflow): an estimate never wraps.
func (p *Profile) Requirements(r *Resource) (Requirements, error) {
	overflow := func(what string, n uint64, a uint64) error {
		return &GraphError{Resource: r.Name, Access: -1, Rule: RuleSizeOverflow,
			Detail: fmt.Sprintf("%s %d rounded up to %d bytes does not fit in 64 bits", what, n, a)}
	}
	switch r.Kind {
	case KindBuffer:
		size, ok := roundUpChecked(r.Buffer.Size, p.BufferAlignment)
		if !ok {
			return Requirements{}, overflow("buffer size", r.Buffer.Size, p.BufferAlignment)
		}
		return Requirements{Size: size, Alignment: p.BufferAlignment, MemoryTypeBits: p.BufferTypeBits}, nil
	case KindImage:
		if err := p.ImageLimits.CheckImage(r); err != nil {
			return Requirements{}, err
		}
		raw, err := ImageBytes(&r.Image)
		if err != nil {
			var ge *GraphError
			if errors.As(err, &ge) {
				ge.Resource = r.Name
				return Requirements{}, ge
			}
			return Requirements{}, &PlacementError{Resource: r.Name, Detail: "cannot estimate image size", Err: err}
		}
		if r.Image.Tiling == vk.TilingLinear {
			size, ok := roundUpChecked(raw, p.BufferAlignment)
			if !ok {
				return Requirements{}, overflow("image size", raw, p.BufferAlignment)
			}
			return Requirements{Size: size, Alignment: p.BufferAlignment, MemoryTypeBits: p.BufferTypeBits}, nil
		}
		align := p.SmallImageAlignment
		if raw >= p.ImagePage {
			align = p.ImagePage
		}
		size, ok := roundUpChecked(raw, align)
		if !ok {
			return Requirements{}, overflow("image size", raw, align)
		}
		return Requirements{Size: size, Alignment: align, MemoryTypeBits: p.ImageTypeBits}, nil
	}
	return Requirements{}, &PlacementError{Resource: r.Name, Detail: fmt.Sprintf("unknown kind %d", r.Kind)}
}

// ImageBytes is the tightly packed size of an image: every mip level of
// every layer and sample. Every product and sum is checked: a size that
// does not fit in 64 bits is a *GraphError with RuleSizeOverflow (its
// Resource left empty for the caller to fill). The work is at most 33
// steps whatever MipLevels says: once every extent is 1, the remaining
// levels are one multiplication.
func ImageBytes(im *ImageDesc) (uint64, error) {
	bpb := im.Format.BytesPerBlock()
	if bpb == 0 {
		return 0, fmt.Errorf("format %s has no known block size", im.Format)
	}
	overflow := func() error {
		return &GraphError{Access: -1, Rule: RuleSizeOverflow,
			Detail: fmt.Sprintf("image of %dx%dx%d %s, %d mip levels, %d layers, %d samples: its size does not fit in 64 bits",
				im.Width, im.Height, im.Depth, im.Format, im.MipLevels, im.ArrayLayers, im.Samples)}
	}
	bw32, bh32 := im.Format.BlockExtent()
	bw, bh := max(1, uint64(bw32)), max(1, uint64(bh32))
	var total uint64
	ok := true
	w, h, d := uint64(im.Width), uint64(im.Height), uint64(im.Depth)
	for m := uint64(0); m < uint64(im.MipLevels); m++ {
		blocks := mulChecked(mulChecked((w+bw-1)/bw, (h+bh-1)/bh, &ok), d, &ok)
		level := mulChecked(blocks, bpb, &ok)
		if w == 1 && h == 1 && d == 1 {
			// Every remaining level is this one.
			level = mulChecked(level, uint64(im.MipLevels)-m, &ok)
			total = addChecked(total, level, &ok)
			break
		}
		total = addChecked(total, level, &ok)
		w, h, d = max(1, w/2), max(1, h/2), max(1, d/2)
	}
	total = mulChecked(mulChecked(total, uint64(im.ArrayLayers), &ok), uint64(im.Samples), &ok)
	if !ok {
		return 0, overflow()
	}
	return total, nil
}

// mulChecked returns a·b, clearing *ok when it does not fit in 64 bits.
func mulChecked(a, b uint64, ok *bool) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		*ok = false
	}
	return lo
}

// addChecked returns a+b, clearing *ok when it does not fit in 64 bits.
func addChecked(a, b uint64, ok *bool) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		*ok = false
	}
	return s
}

// roundUpChecked rounds x up to a multiple of a (a power of two) and
// reports whether the result fits in 64 bits.
func roundUpChecked(x, a uint64) (uint64, bool) {
	if a == 0 {
		return x, true
	}
	r := (x + a - 1) &^ (a - 1)
	return r, r >= x
}

// roundUp rounds x up to a multiple of a (a power of two); it saturates
// instead of wrapping.
func roundUp(x, a uint64) uint64 {
	r := (x + a - 1) &^ (a - 1)
	if r < x {
		return ^(a - 1)
	}
	return r
}
