package aliasplan

import (
	"fmt"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// The graph model and plan types, re-exported so that most callers import
// this package only.
type (
	Graph        = planner.Graph
	Resource     = planner.Resource
	BufferDesc   = planner.BufferDesc
	ImageDesc    = planner.ImageDesc
	Access       = planner.Access
	Command      = planner.Command
	ResourceID   = planner.ResourceID
	CommandID    = planner.CommandID
	Requirements = planner.Requirements
	Plan         = planner.Plan
	Placement    = planner.Placement
	Barrier      = planner.Barrier
	Compiled     = planner.Compiled
	Strategy     = planner.Strategy
	Kind         = planner.Kind
	Memory       = planner.Memory
	Class        = planner.Class
	Status       = planner.Status
	BarrierKind  = planner.BarrierKind
	BarrierType  = planner.BarrierType
	Ordering     = planner.Ordering
	// Serialization is an aliased pair the DAG leaves unordered, ordered
	// by the plan's alias barrier (execution and budget orders).
	Serialization = planner.Serialization
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
	// Order decides which resources may share bytes: OrderDAG (the zero
	// value), OrderExecution or OrderBudget. The plan lists every pair it
	// aliases that the DAG leaves unordered (Plan.Serializations).
	Order Ordering
	// Budget is the pooled-byte budget of OrderBudget. A Budget with Order
	// left at OrderDAG selects OrderBudget. When even the execution order
	// cannot fit it, Plan returns a *planner.BudgetError that states the
	// smallest size reachable.
	Budget uint64
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
		Order:              opts.Order,
		Budget:             opts.Budget,

		PoolPrefersDedicated: opts.PoolPrefersDedicated,
	}
	if po.Strategy == nil {
		po.Strategy = firstfit.New()
	}
	if po.Budget != 0 && po.Order == planner.OrderDAG {
		po.Order = planner.OrderBudget
	}
	if po.Order == planner.OrderBudget {
		// The budget search places each group many times: first fit
		// probes, the chosen strategy places the result.
		po.BudgetPilot = firstfit.New()
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
