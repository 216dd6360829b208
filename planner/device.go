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

// DefaultDedicatedThreshold is the size at or above which a resource gets
// its own allocation unless Options say otherwise.
const DefaultDedicatedThreshold = 64 << 20

// Options configure Place.
type Options struct {
	// Strategy places each pool group. Required.
	Strategy Strategy
	// MaxPoolSize caps each pool (e.g. the device's
	// maxMemoryAllocationSize); 0 means no cap.
	MaxPoolSize uint64
	// DedicatedThreshold: resources of at least this many bytes get their
	// own allocation; 0 disables the rule. Use DefaultDedicatedThreshold for
	// the default.
	DedicatedThreshold uint64
	// PoolPrefersDedicated pools resources whose requirements merely
	// prefer a dedicated allocation (VkMemoryDedicatedRequirements
	// prefersDedicatedAllocation). Off by default, as SPEC §3 says; real
	// drivers (NVIDIA) prefer dedicated memory for most render targets,
	// which then never alias. requiresDedicated is always honoured.
	PoolPrefersDedicated bool
	// Source supplies requirements for resources without explicit ones and
	// the memory types used to choose each pool group's type. Nil means
	// ProfileH200.
	Source RequirementsSource
	// Order is the rule that decides which resources may share bytes:
	// OrderDAG (the zero value), OrderExecution or OrderBudget.
	Order Ordering
	// Budget is the pooled-byte budget of OrderBudget (required there,
	// > 0); other orders ignore it.
	Budget uint64
	// BudgetPilot, when set, is the strategy OrderBudget's search probes
	// with (it places the same group many times); Strategy then places
	// the result. Nil means Strategy throughout. A fast pilot keeps a slow
	// strategy (exact) to a few runs per group.
	BudgetPilot Strategy
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
