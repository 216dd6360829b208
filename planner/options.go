package planner

import "fmt"

// Options configure planning. It is the one options type of the project:
// the root package's aliasplan.Options is this type, and the CLI's flags
// fill it in. Every zero value means the documented default.
type Options struct {
	// Strategy places each pool group. Nil means first fit: aliasplan.New
	// and the CLI supply it; Place itself, which cannot import a strategy
	// (strategies import planner), returns an error for nil.
	Strategy Strategy
	// MaxPoolSize caps each pool (e.g. the device's
	// maxMemoryAllocationSize); 0 means no cap.
	MaxPoolSize uint64
	// DedicatedThreshold: a resource larger than this many bytes gets its
	// own allocation. 0 means DefaultDedicatedThreshold (64 MiB, so a
	// resource of exactly 64 MiB is still pooled); NoDedicatedThreshold
	// turns the rule off.
	DedicatedThreshold uint64
	// PoolPrefersDedicated pools resources whose requirements merely
	// prefer a dedicated allocation (VkMemoryDedicatedRequirements
	// prefersDedicatedAllocation). Off by default, as SPEC §3 says; real
	// drivers (NVIDIA) prefer dedicated memory for most render targets,
	// which then never alias. requiresDedicated is always honoured.
	PoolPrefersDedicated bool
	// Source supplies requirements for resources without explicit ones and
	// the memory types used to choose each pool group's type: a device
	// (package vulkan) or a Profile. Nil means ProfileH200.
	Source RequirementsSource
	// Order is the rule that decides which resources may share bytes:
	// OrderDAG (the zero value), OrderExecution or OrderBudget. The plan
	// lists every pair it aliases that the DAG leaves unordered
	// (Plan.Serializations).
	Order Ordering
	// Sharing chooses CONCURRENT sharing (the zero value) or EXCLUSIVE
	// resources with ownership transfers for contents that cross queues.
	Sharing Sharing
	// Budget is OrderBudget's pooled-byte budget: required (> 0) there,
	// and an error with any other Order (a budget never silently changes
	// the ordering). When even the execution order cannot fit it, Place
	// returns a *BudgetError that states the smallest size reachable.
	Budget uint64
	// BudgetPilot is the strategy OrderBudget's search probes with (it
	// places the same group many times); Strategy then places the result.
	// Nil means first fit in aliasplan.New and the CLI, and Strategy in
	// Place. A fast pilot keeps a slow strategy (exact) to a few runs.
	BudgetPilot Strategy
	// Reuse is how many distinct graphs an aliasplan.Planner remembers
	// with their plans. 0 means DefaultReuse; NoReuse turns reuse off.
	// Place ignores it.
	Reuse int
	// ReuseBytes caps the estimated memory of an aliasplan.Planner's
	// remembered graphs, compiled graphs and plans together. 0 means
	// DefaultReuseBytes. Place ignores it.
	ReuseBytes uint64
}

// DefaultDedicatedThreshold is the size above which a resource gets its
// own allocation unless Options say otherwise.
const DefaultDedicatedThreshold = 64 << 20

// NoDedicatedThreshold, as Options.DedicatedThreshold, never dedicates a
// resource for its size alone.
const NoDedicatedThreshold = ^uint64(0)

// DefaultReuse is how many graphs an aliasplan.Planner remembers by
// default: a renderer that alternates between a few frame shapes (a menu,
// the game, a capture) still hits.
const DefaultReuse = 4

// NoReuse, as Options.Reuse, plans every graph afresh.
const NoReuse = -1

// DefaultReuseBytes is the default cap on the memory of remembered plans.
const DefaultReuseBytes = 64 << 20

// dedicatedThreshold is the threshold in force: above it, dedicated.
func (o *Options) dedicatedThreshold() uint64 {
	if o.DedicatedThreshold == 0 {
		return DefaultDedicatedThreshold
	}
	return o.DedicatedThreshold
}

// checkOrdering rejects options whose ordering cannot be planned.
func checkOrdering(opts *Options) error {
	if opts.Sharing > SharingExclusive {
		return &PlacementError{Detail: fmt.Sprintf("unknown Options.Sharing %s (concurrent or exclusive)", opts.Sharing)}
	}
	switch opts.Order {
	case OrderDAG, OrderExecution:
		if opts.Budget != 0 {
			return &PlacementError{Detail: fmt.Sprintf("Options.Budget is %d but Order is %s: a budget applies only with OrderBudget", opts.Budget, opts.Order)}
		}
		return nil
	case OrderBudget:
		if opts.Budget == 0 {
			return &PlacementError{Detail: "OrderBudget needs Options.Budget, the pooled-byte budget (> 0)"}
		}
		return nil
	}
	return &PlacementError{Detail: fmt.Sprintf("unknown ordering %s", opts.Order)}
}
