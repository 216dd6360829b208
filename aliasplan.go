package aliasplan

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// The model and plan types, from package planner, where their fields are
// documented (go doc planner.Plan). Graph, the type a renderer builds, is
// this package's own (graph.go).
type (
	// Resource is a buffer or image described in full, for AddResource:
	// Name, Kind, Buffer or Image, Imported (the caller's own memory,
	// never placed), Memory, Dedicated, Requirements (explicit; nil asks
	// the Options' Source).
	Resource = planner.Resource
	// BufferDesc is Size and Usage (vk.BufferUsage).
	BufferDesc = planner.BufferDesc
	// ImageDesc is Format, Width, Height, Depth, MipLevels, ArrayLayers,
	// Samples (0 means 1 for these four), Tiling, Usage and InitialLayout.
	ImageDesc = planner.ImageDesc
	// Access is one use by a command: Resource, Stages, Access (flags),
	// Layout (images). Graph's preset methods fill one in.
	Access = planner.Access
	// ResourceID indexes Graph.Resources and Plan.Resources.
	ResourceID = planner.ResourceID
	// CommandID indexes Graph.Commands; Plan.Order lists them.
	CommandID = planner.CommandID
	// Requirements are Size, Alignment, MemoryTypeBits, PrefersDedicated
	// and RequiresDedicated.
	Requirements = planner.Requirements
	// Plan is what Planner.Plan returns: Resources[id] (Status, Reason,
	// Requirements, Placement{Pool, Offset, Size, Alignment, Aliased}),
	// Pools to allocate, Order (the execution order), Barriers to record
	// before commands, Serializations, Stats.
	Plan = planner.Plan
	// Barrier is a synchronization2 barrier recorded before command
	// Before: Kind (hazard or alias), Type (memory, buffer, image),
	// Resource, Previous (an alias barrier's old occupants), stages,
	// access flags and layouts.
	Barrier = planner.Barrier
	// Compiled is a validated graph with its dependency DAG.
	Compiled = planner.Compiled
	// Strategy places one pool group (firstfit, bestfit, exact).
	Strategy = planner.Strategy
	// Options configure a Planner; the zero value plans with first fit,
	// no pool size cap, the 64 MiB dedicated threshold, the DAG ordering,
	// H200 profile estimates for resources without requirements, and
	// remembers 4 graphs. Fields: go doc planner.Options.
	Options = planner.Options
	// Queue is the queue a command runs on (AddCommandOn): QueueGraphics
	// (the default), QueueCompute or QueueTransfer.
	Queue = planner.Queue
)

// Queues, for Graph.AddCommandOn.
const (
	QueueGraphics = planner.QueueGraphics
	QueueCompute  = planner.QueueCompute
	QueueTransfer = planner.QueueTransfer
)

// Resource kinds and memory kinds, for AddResource.
const (
	KindBuffer = planner.KindBuffer
	KindImage  = planner.KindImage

	GPUOnly  = planner.GPUOnly
	CPUToGPU = planner.CPUToGPU
	GPUToCPU = planner.GPUToCPU
)

// Orderings, for Options.Order.
const (
	OrderDAG       = planner.OrderDAG
	OrderExecution = planner.OrderExecution
	OrderBudget    = planner.OrderBudget
)

// Sharings, for Options.Sharing (contents that cross queues).
const (
	SharingConcurrent = planner.SharingConcurrent
	SharingExclusive  = planner.SharingExclusive
)

// Option values with a meaning of their own.
const (
	NoDedicatedThreshold = planner.NoDedicatedThreshold
	NoReuse              = planner.NoReuse
)

// Planner turns frames into verified plans. It is safe for concurrent use
// if its Strategy is.
//
// Reuse. A Planner remembers the last few graphs it planned (Options.Reuse,
// most recently used first, within Options.ReuseBytes) and, given a graph
// identical to one of them, returns the remembered plan without planning
// again. Identical means every field of every resource (names, kinds,
// descriptors, flags, explicit requirements by value) and of every command
// (names, accesses in order) is equal; names count because plans are
// reported, drawn and recorded by name. The check is one pass over the
// graph, allocates nothing and runs under the Planner's lock.
//
// A reused plan is the same *Plan (and, from PlanCompiled, the same
// *Compiled) as the first time: it is shared and read-only; a caller that
// edits a plan must copy it first. The remembered Compiled refers to the
// Planner's own copy of the graph, so it stays right when the caller
// resets or rebuilds its Graph. A Planner's options are fixed, so they
// never invalidate a remembered plan; what can is the requirements
// source answering differently for the same resource (a different device
// behind the same RequirementsSource): call Forget then.
type Planner struct {
	opts       planner.Options
	reuse      int
	reuseBytes uint64
	mu         sync.Mutex
	entries    []*entry // most recently used first
	bytes      uint64   // estimated memory of entries
}

// entry is one remembered graph: a private copy, and its verified plan.
type entry struct {
	g     planner.Graph
	c     *planner.Compiled
	plan  *planner.Plan
	bytes uint64
}

// New returns a Planner with the given options: a nil Strategy (and
// BudgetPilot) means first fit.
func New(opts Options) *Planner {
	po := opts
	if po.Strategy == nil {
		po.Strategy = firstfit.New()
	}
	if po.Order == planner.OrderBudget && po.BudgetPilot == nil {
		// The budget search places each group many times: first fit
		// probes, the chosen strategy places the result.
		po.BudgetPilot = firstfit.New()
	}
	pl := &Planner{opts: po, reuse: opts.Reuse, reuseBytes: opts.ReuseBytes}
	switch {
	case pl.reuse == 0:
		pl.reuse = planner.DefaultReuse
	case pl.reuse < 0:
		pl.reuse = 0
	}
	if pl.reuseBytes == 0 {
		pl.reuseBytes = planner.DefaultReuseBytes
	}
	return pl
}

// Plan compiles g, places its transient resources, builds the barriers and
// verifies the result, or returns the plan of an identical graph planned
// before (see Planner). The returned plan has passed verify.Plan; a
// verification failure is returned as an error (it is a bug). The plan
// refers to resources and commands by ID. It is shared with later calls
// for identical graphs: do not modify it.
func (p *Planner) Plan(g *Graph) (*Plan, error) {
	_, plan, err := p.PlanCompiled(g)
	return plan, err
}

// PlanCompiled is Plan that also returns the compiled graph, for callers
// that record the frame (they need uses and the DAG). When the Planner
// remembers graphs, the compiled graph refers to the Planner's own copy of
// g (equal to it), not to g.
func (p *Planner) PlanCompiled(graph *Graph) (*Compiled, *Plan, error) {
	if graph == nil {
		return nil, nil, fmt.Errorf("aliasplan: Plan: the graph is nil")
	}
	g := &graph.Graph
	if p.reuse == 0 {
		return p.plan(g)
	}
	if e := p.lookup(g); e != nil {
		return e.c, e.plan, nil
	}
	bytes := entryBytes(g)
	if bytes > p.reuseBytes {
		return p.plan(g)
	}
	e := &entry{bytes: bytes}
	copyGraph(&e.g, g)
	c, plan, err := p.plan(&e.g)
	if err != nil {
		return nil, nil, err
	}
	e.c, e.plan = c, plan
	e.bytes += uint64(len(plan.Barriers)) * uint64(unsafe.Sizeof(planner.Barrier{}))
	p.remember(e)
	return c, plan, nil
}

// Forget drops every remembered graph and plan.
func (p *Planner) Forget() {
	p.mu.Lock()
	clear(p.entries)
	p.entries = p.entries[:0]
	p.bytes = 0
	p.mu.Unlock()
}

// plan is the full pipeline: compile, place, barriers, verify.
func (p *Planner) plan(g *planner.Graph) (*Compiled, *Plan, error) {
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
	if err := verify.Plan(c, plan); err != nil {
		return nil, nil, fmt.Errorf("aliasplan: plan failed verification (a bug; please report it with the graph): %w", err)
	}
	return c, plan, nil
}

// lookup returns the remembered entry whose graph equals g, moved to the
// front, or nil. It allocates nothing.
func (p *Planner) lookup(g *planner.Graph) *entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.entries {
		if equalGraphs(&e.g, g) {
			copy(p.entries[1:k+1], p.entries[:k])
			p.entries[0] = e
			return e
		}
	}
	return nil
}

// remember puts e first, evicting the least recently used entries beyond
// the count or the byte cap. An equal graph remembered meanwhile (by a
// concurrent call) is replaced.
func (p *Planner) remember(e *entry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, old := range p.entries {
		if equalGraphs(&old.g, &e.g) {
			p.bytes -= old.bytes
			p.entries = append(p.entries[:k], p.entries[k+1:]...)
			break
		}
	}
	p.entries = append(p.entries, nil)
	copy(p.entries[1:], p.entries)
	p.entries[0] = e
	p.bytes += e.bytes
	for len(p.entries) > p.reuse || p.bytes > p.reuseBytes && len(p.entries) > 1 {
		last := len(p.entries) - 1
		p.bytes -= p.entries[last].bytes
		p.entries[last] = nil
		p.entries = p.entries[:last]
	}
}

// entryBytes estimates the memory an entry for g holds: the graph copy,
// the compiled graph (its happens-before closure, V²/8 bytes, dominates
// large graphs) and the plan without its barriers (added once known).
func entryBytes(g *planner.Graph) uint64 {
	v := uint64(len(g.Commands))
	accesses := uint64(0)
	for i := range g.Commands {
		accesses += uint64(len(g.Commands[i].Accesses))
	}
	closure := v * ((v + 63) / 64) * 8
	return closure + 3*accesses*uint64(unsafe.Sizeof(planner.Access{})) +
		uint64(len(g.Resources))*uint64(unsafe.Sizeof(planner.Resource{})+unsafe.Sizeof(planner.ResourcePlan{})+unsafe.Sizeof(planner.Requirements{})) +
		v*uint64(unsafe.Sizeof(planner.Command{})+64)
}

// copyGraph deep-copies src into dst: resources (explicit requirements by
// value, in one array), commands and their accesses (in one array). Names
// are shared: Go strings are immutable.
func copyGraph(dst, src *planner.Graph) {
	dst.Resources = slices.Clone(src.Resources)
	n := 0
	for i := range src.Resources {
		if src.Resources[i].Requirements != nil {
			n++
		}
	}
	reqs := make([]planner.Requirements, 0, n)
	for i := range dst.Resources {
		if r := dst.Resources[i].Requirements; r != nil {
			reqs = append(reqs, *r)
			dst.Resources[i].Requirements = &reqs[len(reqs)-1]
		}
	}
	n = 0
	for i := range src.Commands {
		n += len(src.Commands[i].Accesses)
	}
	acc := make([]planner.Access, 0, n)
	dst.Commands = make([]planner.Command, len(src.Commands))
	for i := range src.Commands {
		lo := len(acc)
		acc = append(acc, src.Commands[i].Accesses...)
		dst.Commands[i] = planner.Command{Name: src.Commands[i].Name, Accesses: acc[lo:len(acc):len(acc)], Queue: src.Commands[i].Queue}
	}
}

// equalGraphs reports whether a and b are identical in every field that a
// plan or its reports depend on: all of them, names included. One pass,
// no allocation.
func equalGraphs(a, b *planner.Graph) bool {
	if len(a.Resources) != len(b.Resources) || len(a.Commands) != len(b.Commands) {
		return false
	}
	for i := range a.Commands {
		x, y := &a.Commands[i], &b.Commands[i]
		if !equalNames(x.Name, y.Name) || x.Queue != y.Queue || !slices.Equal(x.Accesses, y.Accesses) {
			return false
		}
	}
	for i := range a.Resources {
		x, y := &a.Resources[i], &b.Resources[i]
		// Field by field, without copying: TestEqualGraphsFields fails when
		// planner.Resource gains a field this does not compare.
		if !equalNames(x.Name, y.Name) || x.Kind != y.Kind || x.Buffer != y.Buffer || x.Image != y.Image ||
			x.Imported != y.Imported || x.Memory != y.Memory || x.Dedicated != y.Dedicated {
			return false
		}
		if rx, ry := x.Requirements, y.Requirements; rx != ry && (rx == nil || ry == nil || *rx != *ry) {
			return false
		}
	}
	return true
}

// equalNames is x == y, faster for what names usually are: the same
// string (a literal, or last frame's) or a short one, compared inline.
func equalNames(x, y string) bool {
	if len(x) != len(y) {
		return false
	}
	if len(x) > 24 || unsafe.StringData(x) == unsafe.StringData(y) {
		return x == y
	}
	for k := 0; k < len(x); k++ {
		if x[k] != y[k] {
			return false
		}
	}
	return true
}
