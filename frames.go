package aliasplan

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/internal/invariants"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// Frames plans a renderer's frames one after another into device memory
// it keeps between them, so that a renderer allocates and frees pools
// only when the frames' needs change, not every frame.
//
// Each frame's plan is an ordinary verified Plan with tight pools; the
// FramePlan beside it says which held allocation each of its pools lives
// in (the plan's offsets are offsets in that allocation) and which
// allocations are new (allocate them now) or to be freed.
//
// Sizes only. A frame that differs from an earlier one only in sizes
// (the same resources, commands and accesses in the same order; buffer
// sizes, image extents and explicit requirements may differ) keeps the
// earlier frame's layout when every resource still fits its slot
// (planner.Resize): no strategy run, the same barriers, the same pools.
// Frames remembers, per graph structure, an anchor: the plan of the
// elementwise largest requirements seen, so under dynamic resolution the
// anchor quickly becomes the largest frame and every smaller frame fits.
// A frame that does not fit is planned afresh with the larger sizes, and
// that plan becomes the anchor.
//
// Held pools. Each plan pool goes into the smallest held allocation of
// its memory type and class that is free this frame and large enough;
// when none is, a new allocation of the pool's size plus
// FrameOptions.Headroom is made, and a smaller held allocation of that
// type and class left unused this frame is freed (a larger one replaces
// it; see Frames in flight for when it is announced). An allocation that no frame has used for
// FrameOptions.KeepFrames frames in a row is freed.
//
// Between frames. All frames share the held pools (one set, not one per
// frame slot), submitted in order on one queue. Frame N+1's first use of
// pooled bytes is ordered after frame N's last use of them by the plan's
// entry barrier (Plan.Entry): a VkMemoryBarrier2 recorded in call 0
// before the first command, source frame N's terminal scope of its pooled
// resources plus frame N's own entry destination (through which earlier
// frames' uses chain), destination this frame's first uses of pooled
// resources; the first frame a Frames plans has the full scope
// (ALL_COMMANDS, MEMORY_WRITE) as its source, since what ran before it is
// unknown. Each pooled image's UNDEFINED transition chains after it
// (barriers.ChainFirstUses). barriers.Dependencies, and so package
// vulkan's Record and RecordBarriers, record it with the first command's
// barriers. So frames may be submitted back to back with no semaphore and
// no CPU wait between them; every plan passes verify.Plan and, against
// the frame before it, verify.Sequence.
//
// Frames in flight. With K frames in flight (FrameOptions.InFlight), the
// GPU may still run frames N-K+1..N-1 while frame N is recorded; the
// caller waits on frame N-K's fence before planning frame N (the usual
// ring of K fences and command buffers). The GPU side needs nothing more:
// the entry barriers order the frames on the queue. The CPU side: a
// frame's resource objects (VkBuffer, VkImage, views) live until that
// frame's fence has signalled (keep them per frame slot), and an
// allocation is announced PoolFree only in the first frame N at which the
// last frame that used it (HeldPool.LastUsed) is at least K frames old,
// so it may be freed at once. Frames on several queues are ordered by
// their frame waits (Plan.FrameWaits, planner.FrameWait: semaphores from
// the last earlier batch on a queue to this frame's first batch on
// another, or on its own when it is not the entry barrier's queue);
// frames submitted out of planning order need the caller's own
// semaphores between them.
//
// A Frames is safe for concurrent use, but frames are planned one at a
// time, in the order the calls take its lock.
type Frames struct {
	mu      sync.Mutex
	opts    planner.Options
	fo      FrameOptions
	held    []HeldPool
	nextID  int
	frame   uint64
	anchors []*anchor // most recently used first, at most len == reuse
	reuse   int
	last    *FramePlan
	lastG   planner.Graph // a copy of the last frame's graph
	// lastC compiles the last frame; lastFirst and lastLast are its
	// anchor's frame scopes (barriers.FrameScopes).
	lastC               *planner.Compiled
	lastFirst, lastLast barriers.Scope
	// pending is the next frame's entry source (barriers.EntrySource);
	// seq checks each frame's entry against the frames before it.
	pending barriers.Scope
	seq     verify.SequenceState
	// qf orders frames across queues (Plan.FrameWaits).
	qf barriers.QueueFrames
}

// FrameOptions configure what a Frames does with the memory it holds.
type FrameOptions struct {
	// KeepFrames: a held allocation that no frame has used for this many
	// frames in a row is freed. 0 means DefaultKeepFrames.
	KeepFrames int
	// Headroom is the fraction added to a new allocation beyond what the
	// frame needs (0.125: an eighth more), so that slightly larger frames
	// still fit. 0 means DefaultHeadroom; a negative value means none.
	Headroom float64
	// MinPoolSize: no new allocation is smaller than this (0: no minimum).
	MinPoolSize uint64
	// Held are allocations the caller already holds (their IDs are kept;
	// State is ignored): frames are placed into them first.
	Held []HeldPool
	// InFlight is how many frames the caller lets the GPU run at once
	// (K: it waits on frame N-K's fence before planning frame N). An
	// allocation is announced PoolFree only once the last frame that used
	// it is K frames old. 0 means DefaultInFlight.
	InFlight int
}

// DefaultInFlight is the default FrameOptions.InFlight.
const DefaultInFlight = 2

// DefaultKeepFrames is how many frames a held allocation may go unused
// before it is freed: two seconds at 60 frames a second.
const DefaultKeepFrames = 120

// DefaultHeadroom is the default fraction added to a new allocation.
const DefaultHeadroom = 0.125

// PoolState says what a renderer does with a held allocation this frame.
type PoolState uint8

const (
	PoolKept PoolState = iota // held from an earlier frame: nothing to do
	PoolNew                   // allocate it before binding this frame
	PoolFree                  // free it now: the last frame that used it is FrameOptions.InFlight frames old
)

func (s PoolState) String() string {
	switch s {
	case PoolKept:
		return "kept"
	case PoolNew:
		return "new"
	case PoolFree:
		return "free"
	}
	return fmt.Sprintf("PoolState(%d)", uint8(s))
}

// HeldPool is one device-memory allocation held across frames.
type HeldPool struct {
	ID              int // stable for the allocation's life
	MemoryTypeIndex uint32
	Class           planner.Class
	Size            uint64
	State           PoolState
	// LastUsed is the last frame a plan pool went into it (0: none yet).
	LastUsed uint64
	idle     int    // frames in a row no plan pool went into it
	retire   uint64 // freed: announced PoolFree at this frame (0: held)
}

// FramePlan is one frame's plan and what to do with the held memory.
type FramePlan struct {
	*Plan
	// Frame counts the frames planned, from 1.
	Frame uint64
	// Held lists the allocations held after this frame (kept or new) and
	// those to free now (PoolFree), ascending by ID. An allocation no
	// frame will use again stays listed as kept (no pool goes into it)
	// until its last frame is FrameOptions.InFlight frames old.
	Held []HeldPool
	// PoolOf[i] indexes Held: the allocation Plan.Pools[i] lives in.
	PoolOf []int
	// Path says how the frame was planned: "same" (identical to the last
	// frame: the same plan), "resized" (an anchor's layout kept) or
	// "planned" (planned afresh; it became its structure's anchor).
	Path string
}

// anchor is one graph structure's largest frame: a graph copy whose
// resources carry the elementwise largest requirements seen, its compiled
// form and verified plan.
type anchor struct {
	g    planner.Graph // the frame's graph as given, for sameStructure
	pg   planner.Graph // g with reqs as explicit requirements: what was planned
	reqs []planner.Requirements
	c    *planner.Compiled
	plan *planner.Plan
	// first and last are the plan's frame scopes (barriers.FrameScopes):
	// its entry barrier's destination and the next frame's source.
	first, last barriers.Scope
}

// NewFrames returns a Frames planning with opts (as New) that holds its
// pools as fo says.
func NewFrames(opts Options, fo FrameOptions) *Frames {
	if opts.Strategy == nil {
		opts.Strategy = firstfit.New()
	}
	if opts.Order == planner.OrderBudget && opts.BudgetPilot == nil {
		opts.BudgetPilot = firstfit.New()
	}
	f := &Frames{opts: opts, fo: fo, reuse: opts.Reuse}
	switch {
	case f.reuse == 0:
		f.reuse = planner.DefaultReuse
	case f.reuse < 0:
		f.reuse = 1
	}
	if f.fo.InFlight <= 0 {
		f.fo.InFlight = DefaultInFlight
	}
	f.pending = barriers.FullScope // what the caller ran before is unknown
	if f.fo.KeepFrames <= 0 {
		f.fo.KeepFrames = DefaultKeepFrames
	}
	switch {
	case f.fo.Headroom == 0:
		f.fo.Headroom = DefaultHeadroom
	case f.fo.Headroom < 0:
		f.fo.Headroom = 0
	}
	for _, h := range fo.Held {
		h.State, h.idle = PoolKept, 0
		f.held = append(f.held, h)
		f.nextID = max(f.nextID, h.ID+1)
	}
	return f
}

// Held returns the allocations held now, those waiting to be announced
// PoolFree (InFlight) included.
func (f *Frames) Held() []HeldPool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.held)
}

// Plan plans the next frame. The returned FramePlan (and its Plan) are
// read-only; a frame identical to the last one gets the same plan (a
// shallow copy with another entry barrier when the frame before the last
// had other frame scopes).
func (f *Frames) Plan(graph *Graph) (*FramePlan, error) {
	if graph == nil {
		return nil, fmt.Errorf("aliasplan: Frames.Plan: the graph is nil")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	g := &graph.Graph
	if f.last != nil && equalGraphs(&f.lastG, g) {
		return f.hold(f.lastC, f.last.Plan, f.lastFirst, f.lastLast, "same")
	}
	k := f.anchorIndex(g)
	validate := planner.Validate
	if k >= 0 {
		// The anchor's graph passed Validate and g has its structure:
		// only what a size can break needs checking.
		validate = planner.ValidateSizes
	}
	if err := validate(g); err != nil {
		return nil, err
	}
	if invariants.Enabled && k >= 0 {
		if err := planner.Validate(g); err != nil {
			panic(fmt.Sprintf("aliasplan: ValidateSizes passed a frame of an anchor's structure that Validate refuses: %v", err))
		}
	}
	path := "resized"
	a := f.anchorAt(k)
	var plan *Plan
	var c *planner.Compiled
	var err error
	if a != nil {
		c, plan, err = f.resize(a, g)
		if err != nil && !errors.Is(err, planner.ErrNoFit) {
			return nil, err
		}
	}
	if plan == nil {
		reqs, err := f.requirements(g)
		if err != nil {
			return nil, err
		}
		// Afresh: with the larger of each resource's requirements and the
		// old anchor's, so that the anchor only grows; if the frame's own
		// statuses differ from those (a resource that grew past the
		// dedicated threshold before), with its own requirements.
		path = "planned"
		for _, grow := range []bool{a != nil, false} {
			old := a
			if a, err = f.newAnchor(old, g, reqs, grow); err != nil {
				return nil, err
			}
			if c, plan, err = f.resize(a, g); err == nil {
				break
			}
			if !errors.Is(err, planner.ErrNoFit) || !grow {
				return nil, fmt.Errorf("aliasplan: a frame does not fit the anchor made from its own sizes (a bug): %w", err)
			}
		}
	}
	copyGraphInto(&f.lastG, g)
	return f.hold(c, plan, a.first, a.last, path)
}

// requirements are g's requirements: explicit, or from the source.
func (f *Frames) requirements(g *planner.Graph) ([]planner.Requirements, error) {
	src := f.opts.Source
	if src == nil {
		src = planner.ProfileH200
	}
	reqs := make([]planner.Requirements, len(g.Resources))
	for r := range g.Resources {
		res := &g.Resources[r]
		switch {
		case res.Requirements != nil:
			reqs[r] = *res.Requirements
		case res.Imported:
		default:
			q, err := src.Requirements(res)
			if err != nil {
				return nil, &planner.PlacementError{Resource: res.Name, Detail: "requirements from " + src.Describe(), Err: err}
			}
			reqs[r] = q
		}
	}
	return reqs, nil
}

// anchorIndex returns the index in f.anchors of the anchor of g's
// structure, or -1.
func (f *Frames) anchorIndex(g *planner.Graph) int {
	for k, a := range f.anchors {
		if planner.SameStructure(&a.g, g) {
			return k
		}
	}
	return -1
}

// anchorAt returns anchor k (anchorIndex), moved to the front, or nil for -1.
func (f *Frames) anchorAt(k int) *anchor {
	if k < 0 {
		return nil
	}
	a := f.anchors[k]
	copy(f.anchors[1:k+1], f.anchors[:k])
	f.anchors[0] = a
	return a
}

// resize keeps a's layout for g's sizes and verifies the result.
func (f *Frames) resize(a *anchor, g *planner.Graph) (*planner.Compiled, *Plan, error) {
	c := *a.c // the same analysis: the structure is the same
	c.Graph = g
	plan, err := planner.Resize(&c, a.plan, f.opts)
	if err != nil {
		return nil, nil, err
	}
	if err := verify.Resized(&c, plan, a.c, a.plan); err != nil {
		return nil, nil, fmt.Errorf("aliasplan: resized plan failed verification (a bug; please report it with the graph): %w", err)
	}
	return &c, plan, nil
}

// newAnchor plans g with its requirements (grow: per resource, the
// larger of them and old's) and makes that plan the anchor of g's
// structure, replacing old (g's structure's anchor, or nil).
func (f *Frames) newAnchor(old *anchor, g *planner.Graph, reqs []planner.Requirements, grow bool) (*anchor, error) {
	a := &anchor{reqs: slices.Clone(reqs)}
	if grow {
		for r := range reqs {
			q, o := &a.reqs[r], &old.reqs[r]
			q.Size, q.Alignment = max(q.Size, o.Size), max(q.Alignment, o.Alignment)
		}
	}
	copyGraph(&a.g, g)
	copyGraph(&a.pg, g)
	for r := range a.pg.Resources {
		if !a.pg.Resources[r].Imported {
			a.pg.Resources[r].Requirements = &a.reqs[r]
		}
	}
	c, err := planner.Compile(&a.pg)
	if err != nil {
		return nil, err
	}
	plan, err := planner.Place(c, f.opts)
	if err != nil {
		return nil, err
	}
	if err := barriers.Build(c, plan); err != nil {
		return nil, err
	}
	// The anchor's barriers, shared by its resized frames, chain after an
	// entry barrier; each frame gets its own (its source is the frame
	// before it), checked against the full scope here.
	barriers.ChainFirstUses(plan)
	a.first, a.last = barriers.FrameScopes(c, plan)
	if x, ok := barriers.EntryBarrier(plan, barriers.FullScope, a.first); ok {
		plan.Entry = []planner.Barrier{x}
	}
	if err := verify.Plan(c, plan); err != nil {
		return nil, fmt.Errorf("aliasplan: plan failed verification (a bug; please report it with the graph): %w", err)
	}
	a.c, a.plan = c, plan
	if old != nil {
		f.anchors[0] = a // anchorAt moved old to the front
	} else {
		f.anchors = append([]*anchor{a}, f.anchors...)
		if len(f.anchors) > f.reuse {
			f.anchors[len(f.anchors)-1] = nil
			f.anchors = f.anchors[:len(f.anchors)-1]
		}
	}
	return a, nil
}

// hold gives plan (of c; frame scopes first and last) its entry barrier,
// checks it against the frames before it, puts its pools into held
// allocations and returns the frame.
func (f *Frames) hold(c *planner.Compiled, plan *Plan, first, last barriers.Scope, path string) (*FramePlan, error) {
	plan = f.entry(plan, first)
	if w := f.qf.Next(plan, len(plan.Entry) > 0); !slices.Equal(w, plan.FrameWaits) {
		q := *plan
		q.FrameWaits = w
		plan = &q
	}
	if err := f.seq.Check(c, plan); err != nil {
		return nil, fmt.Errorf("aliasplan: frame %d failed the sequence check (a bug; please report it with the graphs): %w", f.frame+1, err)
	}
	f.lastC, f.lastFirst, f.lastLast = c, first, last
	if len(plan.Entry) > 0 {
		f.pending = barriers.EntrySource(last, first)
	} else {
		f.pending.Stages |= last.Stages
		f.pending.Access |= last.Access
	}
	f.frame++
	fp := &FramePlan{Plan: plan, Frame: f.frame, Path: path, PoolOf: make([]int, len(plan.Pools))}
	for i := range f.held {
		f.held[i].State = PoolKept
	}
	taken := make([]bool, len(f.held))
	// Largest pools choose first, each the smallest allocation that holds it.
	order := make([]int, len(plan.Pools))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return -cmpUint(plan.Pools[a].Size, plan.Pools[b].Size)
	})
	var replaced []int
	for _, i := range order {
		pool := &plan.Pools[i]
		best := -1
		for k := range f.held {
			h := &f.held[k]
			if taken[k] || h.retire != 0 || h.MemoryTypeIndex != pool.MemoryTypeIndex || h.Class != pool.Class || h.Size < pool.Size {
				continue
			}
			if best < 0 || h.Size < f.held[best].Size {
				best = k
			}
		}
		if best < 0 {
			// Replace the largest untaken allocation of this type and
			// class (too small for this pool) by a larger one.
			small := -1
			for k := range f.held {
				h := &f.held[k]
				if !taken[k] && h.retire == 0 && h.MemoryTypeIndex == pool.MemoryTypeIndex && h.Class == pool.Class && !slices.Contains(replaced, k) &&
					(small < 0 || h.Size > f.held[small].Size) {
					small = k
				}
			}
			if small >= 0 {
				replaced = append(replaced, small)
			}
			size := max(f.fo.MinPoolSize, roundUp(pool.Size+uint64(float64(pool.Size)*f.fo.Headroom), 64<<10))
			f.held = append(f.held, HeldPool{ID: f.nextID, MemoryTypeIndex: pool.MemoryTypeIndex, Class: pool.Class, Size: size, State: PoolNew})
			taken = append(taken, false)
			f.nextID++
			best = len(f.held) - 1
		}
		taken[best] = true
		fp.PoolOf[i] = f.held[best].ID // an ID for now: indexes below
	}
	for k := range f.held {
		h := &f.held[k]
		switch {
		case taken[k]:
			h.idle, h.LastUsed = 0, f.frame
		case h.retire != 0:
		case slices.Contains(replaced, k):
			h.State = PoolFree
		default:
			if h.idle++; h.idle >= f.fo.KeepFrames {
				h.State = PoolFree
			}
		}
	}
	// A freed allocation retires (kept, no pool goes into it) until the
	// last frame that used it is InFlight frames old; then it is PoolFree.
	for k := range f.held {
		h := &f.held[k]
		if h.State == PoolFree {
			h.State, h.retire = PoolKept, max(h.LastUsed+uint64(f.fo.InFlight), 1)
		}
		if h.retire != 0 && h.retire <= f.frame {
			h.State = PoolFree
		}
	}
	slices.SortFunc(f.held, func(a, b HeldPool) int { return a.ID - b.ID })
	fp.Held = slices.Clone(f.held)
	for i, id := range fp.PoolOf {
		fp.PoolOf[i] = slices.IndexFunc(fp.Held, func(h HeldPool) bool { return h.ID == id })
	}
	f.held = slices.DeleteFunc(f.held, func(h HeldPool) bool { return h.State == PoolFree })
	f.last = fp
	return fp, nil
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func roundUp(x, a uint64) uint64 { return (x + a - 1) / a * a }

// copyGraphInto is copyGraph reusing dst's storage: a frame's graph is
// kept for the next frame's comparison without allocating each frame.
func copyGraphInto(dst, src *planner.Graph) {
	dst.Resources = append(dst.Resources[:0], src.Resources...)
	n := 0
	for i := range src.Commands {
		n += len(src.Commands[i].Accesses)
	}
	var acc []planner.Access
	if len(dst.Commands) > 0 && cap(dst.Commands[0].Accesses) >= n {
		acc = dst.Commands[0].Accesses[:0:cap(dst.Commands[0].Accesses)]
	} else {
		acc = make([]planner.Access, 0, n)
	}
	dst.Commands = dst.Commands[:0]
	for i := range src.Commands {
		lo := len(acc)
		acc = append(acc, src.Commands[i].Accesses...)
		dst.Commands = append(dst.Commands, planner.Command{Name: src.Commands[i].Name, Accesses: acc[lo:len(acc):len(acc)], Queue: src.Commands[i].Queue})
	}
	if len(dst.Commands) > 0 {
		dst.Commands[0].Accesses = acc[:len(dst.Commands[0].Accesses):cap(acc)]
	}
	for i := range dst.Resources {
		if q := src.Resources[i].Requirements; q != nil {
			c := *q
			dst.Resources[i].Requirements = &c
		}
	}
}

// entry returns plan with its entry barrier: source the frames before it
// (f.pending), destination first. A plan that already has that barrier
// is returned as is (a frame like the last, in steady state); otherwise a
// shallow copy carries it (plans are read-only once returned).
func (f *Frames) entry(plan *Plan, first barriers.Scope) *Plan {
	x, ok := barriers.EntryBarrier(plan, f.pending, first)
	switch {
	case !ok && len(plan.Entry) == 0:
		return plan
	case ok && len(plan.Entry) == 1 && sameBarrier(&plan.Entry[0], &x):
		return plan
	}
	q := *plan
	q.Entry = nil
	if ok {
		q.Entry = []planner.Barrier{x}
	}
	return &q
}

func sameBarrier(a, b *planner.Barrier) bool {
	return a.Before == b.Before && a.Kind == b.Kind && a.Type == b.Type && a.Resource == b.Resource && a.Call == b.Call &&
		a.SrcStages == b.SrcStages && a.DstStages == b.DstStages && a.SrcAccess == b.SrcAccess && a.DstAccess == b.DstAccess &&
		a.OldLayout == b.OldLayout && a.NewLayout == b.NewLayout && len(a.Previous) == 0 && len(b.Previous) == 0
}
