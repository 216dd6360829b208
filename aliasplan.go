package aliasplan

import (
	"fmt"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// The graph model and plan types, re-exported so that most callers import
// this package only. Their fields are documented on the planner types
// (go doc planner.Plan); ExamplePlan prints every part of a plan.
type (
	// Graph is a frame: Resources and Commands in recorded order, built
	// with AddBuffer, AddImage, AddResource (imported, host-visible,
	// dedicated, explicit requirements) and AddCommand.
	Graph = planner.Graph
	// Resource is a buffer or image: Name, Kind, Buffer or Image, Imported
	// (the caller's own memory, never placed), Memory, Dedicated,
	// Requirements (explicit; nil asks the Options' Source).
	Resource = planner.Resource
	// BufferDesc is Size and Usage.
	BufferDesc = planner.BufferDesc
	// ImageDesc is Format, Width, Height, Depth, MipLevels, ArrayLayers,
	// Samples, Tiling, Usage and InitialLayout.
	ImageDesc = planner.ImageDesc
	// Access is one use by a command: Resource, Stages, Access, Layout.
	Access = planner.Access
	// Command is Name and Accesses.
	Command = planner.Command
	// ResourceID indexes Graph.Resources and Plan.Resources.
	ResourceID = planner.ResourceID
	// CommandID indexes Graph.Commands; Plan.Order lists them.
	CommandID = planner.CommandID
	// Requirements are Size, Alignment, MemoryTypeBits, PrefersDedicated
	// and RequiresDedicated.
	Requirements = planner.Requirements
	// Plan is what Planner.Plan returns: Resources[id] (a ResourcePlan per
	// resource), Pools to allocate, Order (the execution order), Barriers
	// to record before commands, Stats, and Strategy and Requirements
	// naming how it was made.
	Plan = planner.Plan
	// ResourcePlan is one resource's decision: Status, Reason (why it is
	// not pooled), Requirements used, and Placement when pooled.
	ResourcePlan = planner.ResourcePlan
	// Placement is where a pooled resource lives: Pool (index into
	// Plan.Pools), Offset, Size, Alignment, Aliased (shares bytes with
	// another resource).
	Placement = planner.Placement
	// Pool is one allocation: Index, MemoryTypeIndex, Class, Size.
	Pool = planner.Pool
	// Stats are TransientBytes (pooled resources' sizes: the cost without
	// aliasing), PooledBytes (the pools' sizes), LowerBound and
	// DedicatedBytes.
	Stats = planner.Stats
	// Barrier is a synchronization2 barrier recorded before command
	// Before: Kind (hazard or alias), Type (memory, buffer, image),
	// Resource, Previous (an alias barrier's old occupants), SrcStages,
	// SrcAccess, DstStages, DstAccess, OldLayout, NewLayout.
	Barrier = planner.Barrier
	// Compiled is a validated graph with its dependency DAG.
	Compiled = planner.Compiled
	// Strategy places one pool group (firstfit, bestfit, exact).
	Strategy    = planner.Strategy
	Kind        = planner.Kind
	Memory      = planner.Memory
	Class       = planner.Class
	Status      = planner.Status
	BarrierKind = planner.BarrierKind
	BarrierType = planner.BarrierType
)

// Options configure a Planner. The zero value plans with first fit, no pool
// size cap, the default 64 MiB dedicated threshold and requirements
// estimated by the H200 profile for resources that carry none.
type Options struct {
	// Strategy places each pool group; nil means first fit.
	Strategy Strategy
	// MaxPoolSize caps each pool, e.g. the device's
	// maxMemoryAllocationSize; 0 means no cap.
	MaxPoolSize uint64
	// DedicatedThreshold: resources of at least this many bytes get their
	// own allocation. 0 means planner.DefaultDedicatedThreshold (64 MiB);
	// NoDedicatedThreshold turns the rule off.
	DedicatedThreshold uint64
	// PoolPrefersDedicated pools resources whose driver merely prefers a
	// dedicated allocation; see planner.Options.
	PoolPrefersDedicated bool
	// Source supplies requirements and memory types: a device (package
	// vulkan) or a planner.Profile. Nil means planner.ProfileH200.
	Source planner.RequirementsSource
}

// NoDedicatedThreshold, as Options.DedicatedThreshold, never dedicates a
// resource for its size alone.
const NoDedicatedThreshold = ^uint64(0)

// Planner turns frames into verified plans. It holds no per-frame state and
// is safe for concurrent use if its Strategy is.
type Planner struct {
	opts planner.Options
}

// New returns a Planner with the given options.
func New(opts Options) *Planner {
	po := planner.Options{
		Strategy:           opts.Strategy,
		MaxPoolSize:        opts.MaxPoolSize,
		DedicatedThreshold: opts.DedicatedThreshold,
		Source:             opts.Source,

		PoolPrefersDedicated: opts.PoolPrefersDedicated,
	}
	if po.Strategy == nil {
		po.Strategy = firstfit.New()
	}
	switch po.DedicatedThreshold {
	case 0:
		po.DedicatedThreshold = planner.DefaultDedicatedThreshold
	case NoDedicatedThreshold:
		po.DedicatedThreshold = 0
	}
	return &Planner{opts: po}
}

// Plan compiles g, places its transient resources, builds the barriers and
// verifies the result. The returned plan has passed planner.Verify; a
// verification failure is returned as an error (it is a bug). g must not
// change while the plan is in use: the plan refers to it by IDs.
func (p *Planner) Plan(g *Graph) (*Plan, error) {
	_, plan, err := p.PlanCompiled(g)
	return plan, err
}

// PlanCompiled is Plan that also returns the compiled graph, for callers
// that record the frame (they need uses and the DAG).
func (p *Planner) PlanCompiled(g *Graph) (*Compiled, *Plan, error) {
	if g == nil {
		return nil, nil, fmt.Errorf("aliasplan: Plan: the graph is nil")
	}
	c, err := planner.Compile(g)
	if err != nil {
		return nil, nil, err
	}
	plan, err := planner.Place(c, p.opts)
	if err != nil {
		return nil, nil, err
	}
	if err := barriers.Build(c, plan); err != nil {
		return nil, nil, err
	}
	if err := planner.Verify(c, plan); err != nil {
		return nil, nil, fmt.Errorf("aliasplan: plan failed verification (a bug; please report it with the graph): %w", err)
	}
	return c, plan, nil
}
