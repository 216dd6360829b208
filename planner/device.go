package planner

import "fmt"

// MemoryProperty holds VkMemoryPropertyFlags bits.
type MemoryProperty uint32

const (
	MemoryDeviceLocal  MemoryProperty = 0x1
	MemoryHostVisible  MemoryProperty = 0x2
	MemoryHostCoherent MemoryProperty = 0x4
	MemoryHostCached   MemoryProperty = 0x8
)

// MemoryType is one of a device's memory types (VkMemoryType).
type MemoryType struct {
	Flags MemoryProperty
	Heap  uint32
	// HeapSize is the size of memory heap Heap (VkMemoryHeap.size): no
	// allocation of this type can be larger, and Place refuses resources
	// and pools that would be (RuleHeapSize). 0 means unknown.
	HeapSize uint64
}

// RequirementsSource supplies memory requirements for resources that carry
// none: a device (exact) or a profile (estimates). A source that also
// implements LimitsSource has every placed image checked against its
// limits.
type RequirementsSource interface {
	// Describe names the source for reports ("profile h200",
	// "device NVIDIA H200 (Vulkan 1.4.312)").
	Describe() string
	// MemoryTypes returns the device's memory types, index = memory type index.
	MemoryTypes() []MemoryType
	// Requirements returns r's requirements. It is called at most once per
	// resource per Place.
	Requirements(r *Resource) (Requirements, error)
}

func (o *Options) source() RequirementsSource {
	if o.Source == nil {
		return ProfileH200
	}
	return o.Source
}

// PlacementError reports a resource that cannot be placed (no memory type
// fits, requirements unavailable, a strategy failure).
type PlacementError struct {
	Resource string
	Detail   string
	Err      error
}

func (e *PlacementError) Error() string {
	s := "planner: "
	if e.Resource != "" {
		s += fmt.Sprintf("resource %q: ", e.Resource)
	}
	s += e.Detail
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *PlacementError) Unwrap() error { return e.Err }
