package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/vk"
)

// Status says how a resource's memory is provided.
type Status uint8

const (
	StatusPooled      Status = iota // placed in a pool at an offset
	StatusDedicated                 // its own allocation (required, preferred, marked or large)
	StatusHostVisible               // host-visible memory: its own allocation, never pooled
	StatusImported                  // owned by the caller; tracked for hazards only
	StatusUnused                    // a transient no command uses: never created
)

var statusNames = [...]string{"pooled", "dedicated", "host_visible", "imported", "unused"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// ParseStatus maps a plan-file status name to its Status.
func ParseStatus(name string) (Status, bool) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), true
		}
	}
	return 0, false
}

// Placement is where a pooled resource lives.
type Placement struct {
	Pool   int    // index into Plan.Pools
	Offset uint64 // a multiple of Alignment
	// Size is the bytes reserved for the resource: its required size, or
	// more in a plan that keeps a larger frame's layout (Resize).
	Size      uint64
	Alignment uint64
	// Aliased is true when the resource shares at least one byte with
	// another resource of its pool.
	Aliased bool
}

// ResourcePlan is the plan's decision for one resource.
type ResourcePlan struct {
	Status Status
	// Reason says in words why a resource is not pooled ("requiresDedicated",
	// "at or above the dedicated threshold", ...); empty when pooled.
	Reason string
	// Requirements are the memory requirements used (zero for imported and
	// unused resources).
	Requirements Requirements
	Placement    Placement // meaningful when Status == StatusPooled
	// Queues is the set of queues whose commands use the resource (0 for
	// an unused one). When it holds more than one (Queues.Concurrent), the
	// contents cross queues without ownership transfers: the Vulkan side
	// creates the resource VK_SHARING_MODE_CONCURRENT over the families
	// of those queues, or EXCLUSIVE when they map to one family. It is
	// set only in plans with submissions.
	Queues QueueSet
	// Exclusive is set in plans with Sharing exclusive for a resource
	// whose contents cross queues and that Transfers hand over: the Vulkan
	// side creates it EXCLUSIVE whatever Queues holds.
	Exclusive bool
}

// Pool is one aliasable device-memory allocation.
type Pool struct {
	Index           int
	MemoryTypeIndex uint32
	Class           Class
	Size            uint64
}

// Stats sums up a plan's memory.
type Stats struct {
	TransientBytes uint64 // sum of the pooled resources' required sizes: the cost without aliasing
	PooledBytes    uint64 // sum of the pool sizes
	LowerBound     uint64 // sum over pool groups of the exact lower bound
	DedicatedBytes uint64 // sum of the required sizes of dedicated and host-visible resources
	// ExecutionBound is the lower bound under execution-order aliasing:
	// per pool group, the largest total size live at one position of the
	// execution order, summed. It is at most LowerBound.
	ExecutionBound uint64
}

// Ordering is the rule that decides which uses are ordered for aliasing.
type Ordering uint8

const (
	// OrderDAG lets two resources share bytes only when the dependency
	// DAG orders all uses of one before all uses of the other.
	OrderDAG Ordering = iota
	// OrderExecution lets them share bytes when the plan's execution
	// order does: the alias barrier before the later one's first use is
	// then the dependency.
	OrderExecution
	// OrderBudget keeps the DAG rule and adds only the serializations
	// needed to fit a byte budget.
	OrderBudget
)

var orderingNames = [...]string{"dag", "execution", "budget"}

func (o Ordering) String() string {
	if int(o) < len(orderingNames) {
		return orderingNames[o]
	}
	return fmt.Sprintf("Ordering(%d)", uint8(o))
}

// ParseOrdering maps an ordering name (dag, execution, budget) to its
// Ordering.
func ParseOrdering(name string) (Ordering, bool) {
	for i, n := range orderingNames {
		if n == name {
			return Ordering(i), true
		}
	}
	return 0, false
}

// Serialization is an aliased pair that the DAG leaves unordered: the plan
// orders all uses of First before all uses of Second through the alias
// barrier before Second's first use.
type Serialization struct {
	First, Second ResourceID
	// Last is First's last use and Next is Second's first use in execution
	// order: the two commands the serialization orders.
	Last, Next CommandID
	// Bytes is what it saved: the bytes First and Second share.
	Bytes uint64
}

// BarrierKind says why a barrier exists.
type BarrierKind uint8

const (
	Hazard BarrierKind = iota // orders conflicting uses of one resource (a DAG edge)
	Alias                     // orders an old occupant's last uses before a new occupant's first use
	// Entry orders the previous frame's last uses of the pools' bytes
	// before this frame's first uses (Plan.Entry; Resource is NoResource).
	Entry
)

// NoResource is the Resource of a barrier that names none (Entry).
const NoResource ResourceID = -1

func (k BarrierKind) String() string {
	switch k {
	case Hazard:
		return "hazard"
	case Alias:
		return "alias"
	case Entry:
		return "entry"
	}
	return fmt.Sprintf("BarrierKind(%d)", uint8(k))
}

// BarrierType is the Vulkan structure a barrier is recorded as.
type BarrierType uint8

const (
	MemoryBarrier BarrierType = iota // VkMemoryBarrier2 (buffer alias barriers)
	BufferBarrier                    // VkBufferMemoryBarrier2 over the whole buffer
	ImageBarrier                     // VkImageMemoryBarrier2 over the whole image
)

func (t BarrierType) String() string {
	switch t {
	case MemoryBarrier:
		return "memory"
	case BufferBarrier:
		return "buffer"
	case ImageBarrier:
		return "image"
	}
	return fmt.Sprintf("BarrierType(%d)", uint8(t))
}

// Barrier is one synchronization2 barrier recorded before command Before.
type Barrier struct {
	Before   CommandID
	Kind     BarrierKind
	Type     BarrierType
	Resource ResourceID // the resource made safe to use (the new occupant for alias barriers)
	// Previous lists the old occupants an alias barrier protects against,
	// ascending; nil for hazard barriers.
	Previous             []ResourceID
	SrcStages, DstStages vk.Stage
	SrcAccess, DstAccess vk.AccessFlags
	// OldLayout and NewLayout are set for image barriers (equal when the
	// barrier changes no layout).
	OldLayout, NewLayout vk.Layout
	// Mips, Layers and Aspects are an image barrier's subresource range
	// (SPEC §5); the zero values are the whole image. Barriers on images
	// that some access names only part of carry the range that needs them.
	Mips    MipRange
	Layers  LayerRange
	Aspects vk.Aspect
	// Call is the vkCmdPipelineBarrier2 of its command that records it:
	// 0, or 1 for an image's alias barrier that chains after the memory
	// barrier (call 0) making its old occupants' writes available (SPEC §4).
	Call uint8
}

// Plan is the complete memory plan of a frame: where every resource lives,
// the pools to allocate, the execution order and the barriers to record.
// It is a value: the vulkan package (or the caller) applies it.
type Plan struct {
	Strategy string
	// Requirements names where the requirements came from ("graph",
	// "profile h200", "device NVIDIA H200", ...).
	Requirements string
	Order        []CommandID    // execution order: a topological order of the DAG
	Pools        []Pool         // Pools[i].Index == i
	Resources    []ResourcePlan // indexed by ResourceID
	Barriers     []Barrier      // grouped by position of Before in Order, then as recorded
	// FinalBarriers are recorded after the last command of Order: the
	// transitions of imported images into their final layouts
	// (ImageDesc.FinalLayout), one per image, Before == EndOfFrame.
	FinalBarriers []Barrier
	// Entry is the frame-entry barrier (barriers.EntryBarrier), recorded
	// in call 0 before the first command of Order: nil, or one memory
	// barrier of Kind Entry. Plans of aliasplan.Frames carry one; their
	// pooled images' UNDEFINED transitions chain after it
	// (barriers.ChainFirstUses).
	Entry []Barrier
	// FrameWaits order the frames before this one on other queues (and
	// on a queue other than the entry barrier's, its own) before this
	// frame's batches (FrameWait): Frames sets them on frames of a
	// sequence that uses more than one queue; nil otherwise.
	FrameWaits []FrameWait
	// Ordering is the rule the placement was made under; Budget is the
	// pooled-byte budget of an OrderBudget plan (0 otherwise).
	Ordering Ordering
	Budget   uint64
	// Serializations lists the aliased pairs the DAG leaves unordered
	// (execution and budget orders only), ascending by (First, Second).
	Serializations []Serialization
	// Submissions groups the commands into per-queue batches, in
	// submission order, with the semaphores between them; nil when every
	// command runs on the graphics queue (one queue, no semaphores).
	// Semaphores is the number of binary semaphores they use.
	Submissions []Submission
	Semaphores  int
	// Sharing is Options.Sharing; with SharingExclusive, Transfers lists
	// the queue family ownership transfers, grouped by resource, in use
	// order (queue_sharing.go).
	Sharing   Sharing
	Transfers []OwnershipTransfer
	Stats     Stats
	// Warnings lists what the plan does as asked but the caller likely
	// did not mean (an imported image left in another layout than it
	// arrived in), by resource.
	Warnings []Warning
}

// PlacedAt returns, for an overlap sweep (interval.Overlaps) over the
// pooled resources ids, the pool and byte range of ids[i].
func (p *Plan) PlacedAt(ids []ResourceID) func(i int) interval.Placed {
	return func(i int) interval.Placed {
		pl := &p.Resources[ids[i]].Placement
		return interval.Placed{Group: pl.Pool, Range: interval.Range{Start: pl.Offset, End: pl.Offset + pl.Size}}
	}
}
