package planner

import "fmt"

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
}

// ProfileH200 models an NVIDIA H200 (driver 580): five memory types,
// 64 KiB image pages, 256-byte buffer rounding.
var ProfileH200 = &Profile{
	Name: "h200",
	Types: []MemoryType{
		{Flags: 0, Heap: 1},
		{Flags: MemoryDeviceLocal, Heap: 0},
		{Flags: MemoryHostVisible | MemoryHostCoherent, Heap: 1},
		{Flags: MemoryHostVisible | MemoryHostCoherent | MemoryHostCached, Heap: 1},
		{Flags: MemoryDeviceLocal | MemoryHostVisible | MemoryHostCoherent, Heap: 0},
	},
	BufferAlignment:     256,
	BufferTypeBits:      0x1f,
	ImagePage:           64 << 10,
	SmallImageAlignment: 1 << 10,
	ImageTypeBits:       0x3,
}

// ProfileLavapipe models Mesa's lavapipe: one memory type that is
// everything at once, tight packing.
var ProfileLavapipe = &Profile{
	Name:                "lavapipe",
	Types:               []MemoryType{{Flags: MemoryDeviceLocal | MemoryHostVisible | MemoryHostCoherent | MemoryHostCached}},
	BufferAlignment:     64,
	BufferTypeBits:      0x1,
	ImagePage:           16,
	SmallImageAlignment: 16,
	ImageTypeBits:       0x1,
}

// Profiles lists the built-in profiles by name.
var Profiles = []*Profile{ProfileH200, ProfileLavapipe}

// Describe implements RequirementsSource.
func (p *Profile) Describe() string { return "profile " + p.Name }

// MemoryTypes implements RequirementsSource.
func (p *Profile) MemoryTypes() []MemoryType { return p.Types }

// Requirements implements RequirementsSource with estimates.
func (p *Profile) Requirements(r *Resource) (Requirements, error) {
	switch r.Kind {
	case KindBuffer:
		return Requirements{Size: roundUp(r.Buffer.Size, p.BufferAlignment), Alignment: p.BufferAlignment, MemoryTypeBits: p.BufferTypeBits}, nil
	case KindImage:
		raw, err := ImageBytes(&r.Image)
		if err != nil {
			return Requirements{}, &PlacementError{Resource: r.Name, Detail: "cannot estimate image size", Err: err}
		}
		if r.Image.Tiling == TilingLinear {
			return Requirements{Size: roundUp(raw, p.BufferAlignment), Alignment: p.BufferAlignment, MemoryTypeBits: p.BufferTypeBits}, nil
		}
		align := p.SmallImageAlignment
		if raw >= p.ImagePage {
			align = p.ImagePage
		}
		return Requirements{Size: roundUp(raw, align), Alignment: align, MemoryTypeBits: p.ImageTypeBits}, nil
	}
	return Requirements{}, &PlacementError{Resource: r.Name, Detail: fmt.Sprintf("unknown kind %d", r.Kind)}
}

// ImageBytes is the tightly packed size of an image: every mip level of
// every layer and sample.
func ImageBytes(im *ImageDesc) (uint64, error) {
	bpb := im.Format.BytesPerBlock()
	if bpb == 0 {
		return 0, fmt.Errorf("format %s has no known block size", im.Format)
	}
	bw, bh := im.Format.BlockExtent()
	var total uint64
	w, h, d := uint64(im.Width), uint64(im.Height), uint64(im.Depth)
	for m := uint32(0); m < im.MipLevels; m++ {
		blocks := ((w + uint64(bw) - 1) / uint64(bw)) * ((h + uint64(bh) - 1) / uint64(bh)) * d
		total += blocks * bpb
		w, h, d = max(1, w/2), max(1, h/2), max(1, d/2)
	}
	return total * uint64(im.ArrayLayers) * uint64(im.Samples), nil
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
