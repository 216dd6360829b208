package planner

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/bits"
	"slices"
	"sort"
)

// Place decides where every resource of a compiled graph lives: it sorts
// resources into statuses, groups the pooled ones by (memory type, class),
// runs the strategy on each group, and fills in pools, placements and
// stats. The plan's Order is the recorded order and it carries no barriers
// yet (barriers.Build adds them). Each group's placement has passed
// CheckSolution; the whole plan is checked by package verify (the root
// Planner runs verify.Plan on every plan it returns).
//
// Cost, per pool group of P pooled resources: an interference bit matrix
// of P²/8 bytes built with one bit test per pair (plus one intersection of
// closure rows per resource with several terminal uses), then the
// strategy and, beside it on groups of 48 or more, the lower bound.
func Place(c *Compiled, opts Options) (*Plan, error) {
	if opts.Strategy == nil {
		return nil, &PlacementError{Detail: "Options.Strategy is nil"}
	}
	p, pooled, err := decide(c, &opts)
	if err != nil {
		return nil, err
	}
	p.Strategy = opts.Strategy.Name()
	g := c.Graph
	src := opts.source()
	types := src.MemoryTypes()
	groups, err := groupPooled(g, p, pooled, types, src)
	if err != nil {
		return nil, err
	}
	pos := make([]int64, len(p.Order)) // execution position of each command
	for i, cmd := range p.Order {
		pos[cmd] = int64(i)
	}
	if opts.Order == OrderDAG {
		for _, grp := range groups {
			if err := placeGroup(c, p, grp, pos, opts); err != nil {
				return nil, err
			}
		}
	} else if err := placeOrdered(c, p, groups, pos, opts); err != nil { // order.go
		return nil, err
	}
	if err := checkHeaps(p, types); err != nil {
		return nil, err
	}
	if err := sumStats(g, p); err != nil {
		return nil, err
	}
	markAliased(p)
	if opts.Order != OrderDAG {
		if p.Serializations, err = findSerializations(c, p, pos); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// decide is Place's first half: a plan with every resource's
// requirements (explicit, or from the options' source) and status, the
// order and the ordering filled in, and the resources to pool. It may
// lower opts.MaxPoolSize to the device's maxMemoryAllocationSize.
func decide(c *Compiled, opts *Options) (*Plan, []ResourceID, error) {
	if c == nil || c.Graph == nil {
		return nil, nil, &PlacementError{Detail: "the compiled graph is nil"}
	}
	if err := checkOrdering(opts); err != nil { // order.go
		return nil, nil, err
	}
	g := c.Graph
	threshold := opts.dedicatedThreshold()
	src := opts.source()
	var limits Limits
	ls, hasLimits := src.(LimitsSource)
	if hasLimits {
		limits = ls.Limits()
	}
	// No pool larger than the device promises to allocate.
	if m := limits.MaxMemoryAllocationSize; m != 0 && (opts.MaxPoolSize == 0 || opts.MaxPoolSize > m) {
		opts.MaxPoolSize = m
	}
	types := src.MemoryTypes()
	p := &Plan{
		Order:     make([]CommandID, len(g.Commands)),
		Resources: make([]ResourcePlan, len(g.Resources)),
		Ordering:  opts.Order,
		Sharing:   opts.Sharing,
	}
	if opts.Order == OrderBudget {
		p.Budget = opts.Budget
	}
	for i := range p.Order {
		p.Order[i] = CommandID(i)
	}
	explicit, estimated := false, false
	var pooled []ResourceID
	for r := range g.Resources {
		res := &g.Resources[r]
		rp := &p.Resources[r]
		switch {
		case !c.Used(ResourceID(r)):
			rp.Status, rp.Reason = StatusUnused, "no command uses it"
			continue
		case res.Imported:
			rp.Status, rp.Reason = StatusImported, "owned by the caller"
			continue
		}
		if hasLimits {
			if err := limits.CheckImage(res); err != nil {
				return nil, nil, err
			}
		}
		if res.Requirements != nil {
			rp.Requirements = *res.Requirements
			explicit = true
		} else {
			q, err := src.Requirements(res)
			if err != nil {
				if ge := (*GraphError)(nil); errors.As(err, &ge) {
					return nil, nil, ge // it names the resource and the rule already
				}
				return nil, nil, &PlacementError{Resource: res.Name, Detail: "requirements from " + src.Describe(), Err: err}
			}
			rp.Requirements = q
			estimated = true
		}
		q := &rp.Requirements
		if err := limits.CheckAllocation(res, q.Size, q.MemoryTypeBits, types); err != nil {
			return nil, nil, err
		}
		switch {
		case res.Memory.HostVisible():
			rp.Status, rp.Reason = StatusHostVisible, "host-visible ("+res.Memory.String()+"): mapping needs the allocation base"
		case q.RequiresDedicated:
			rp.Status, rp.Reason = StatusDedicated, "requiresDedicated"
		case q.PrefersDedicated && !opts.PoolPrefersDedicated:
			rp.Status, rp.Reason = StatusDedicated, "prefersDedicated"
		case res.Dedicated:
			rp.Status, rp.Reason = StatusDedicated, "marked dedicated"
		case q.Size > threshold:
			rp.Status, rp.Reason = StatusDedicated, fmt.Sprintf("above the dedicated threshold (%d bytes)", threshold)
		default:
			if res.Kind == KindImage && res.Image.InitialLayout != vk.LayoutUndefined {
				return nil, nil, &GraphError{Resource: res.Name, Access: -1, Rule: RulePooledLayout,
					Detail: fmt.Sprintf("pooled image declares initial layout %s; reused memory has no defined contents, so it must be UNDEFINED", res.Image.InitialLayout)}
			}
			// A pool opened for it alone puts it at offset 0: only its
			// size counts, not its size rounded up to its alignment.
			if opts.MaxPoolSize != 0 && q.Size > opts.MaxPoolSize {
				rp.Status, rp.Reason = StatusDedicated, fmt.Sprintf("larger than the maximum pool size (%d bytes)", opts.MaxPoolSize)
				break
			}
			rp.Status = StatusPooled
			pooled = append(pooled, ResourceID(r))
		}
	}
	switch {
	case explicit && estimated:
		p.Requirements = "graph + " + src.Describe()
	case estimated:
		p.Requirements = src.Describe()
	default:
		p.Requirements = "graph"
	}
	return p, pooled, nil
}

// group is one pool group: pooled resources of one class sharing a memory
// type that is in every member's memoryTypeBits.
type group struct {
	class   Class
	memType uint32
	members []ResourceID // ascending
}

// groupPooled splits the pooled resources by class, then by memory type:
// while some remain, the type in every remaining member's bits (preferring
// device-local) takes them all; when no type is common, the type that the
// most members accept takes those, and the rest try again.
func groupPooled(g *Graph, p *Plan, pooled []ResourceID, types []MemoryType, src RequirementsSource) ([]group, error) {
	valid := uint32(1<<min(len(types), 32)) - 1
	if len(types) >= 32 {
		valid = ^uint32(0)
	}
	var out []group
	for _, class := range []Class{ClassLinear, ClassOptimal} {
		var rest []ResourceID
		for _, r := range pooled {
			if g.Resources[r].Class() != class {
				continue
			}
			if p.Resources[r].Requirements.MemoryTypeBits&valid == 0 {
				return nil, &GraphError{Resource: g.Resources[r].Name, Access: -1, Rule: RuleMemoryTypeBits,
					Detail: fmt.Sprintf("memoryTypeBits %#x name no memory type of %s (%d types)", p.Resources[r].Requirements.MemoryTypeBits, src.Describe(), len(types))}
			}
			rest = append(rest, r)
		}
		for len(rest) > 0 {
			common := valid
			for _, r := range rest {
				common &= p.Resources[r].Requirements.MemoryTypeBits
			}
			var t uint32
			if common != 0 {
				t = bestType(common, types)
			} else {
				t = mostAccepted(rest, p, valid, types)
			}
			grp := group{class: class, memType: t}
			w := 0
			for _, r := range rest {
				if p.Resources[r].Requirements.MemoryTypeBits&(1<<t) != 0 {
					grp.members = append(grp.members, r)
				} else {
					rest[w] = r
					w++
				}
			}
			rest = rest[:w]
			out = append(out, grp)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].memType != out[j].memType {
			return out[i].memType < out[j].memType
		}
		return out[i].class < out[j].class
	})
	return out, nil
}

// typeRank orders memory types for pooling: device-local without host
// visibility first, then device-local, then the rest; lower index breaks ties.
func typeRank(t uint32, types []MemoryType) int {
	f := types[t].Flags
	switch {
	case f&MemoryDeviceLocal != 0 && f&MemoryHostVisible == 0:
		return 0
	case f&MemoryDeviceLocal != 0:
		return 1
	}
	return 2
}

func bestType(mask uint32, types []MemoryType) uint32 {
	best, bestRank := uint32(0), 1<<30
	for m := mask; m != 0; m &= m - 1 {
		t := uint32(bits.TrailingZeros32(m))
		if r := typeRank(t, types); r < bestRank {
			best, bestRank = t, r
		}
	}
	return best
}

func mostAccepted(rest []ResourceID, p *Plan, valid uint32, types []MemoryType) uint32 {
	best, bestCount, bestRank := uint32(0), -1, 1<<30
	for m := valid; m != 0; m &= m - 1 {
		t := uint32(bits.TrailingZeros32(m))
		n := 0
		for _, r := range rest {
			if p.Resources[r].Requirements.MemoryTypeBits&(1<<t) != 0 {
				n++
			}
		}
		if r := typeRank(t, types); n > bestCount || n == bestCount && r < bestRank {
			best, bestCount, bestRank = t, n, r
		}
	}
	return best
}

// placeGroup runs the strategy on one group and appends its pools.
//
// Pooling must never cost more than the members' own allocations (SPEC
// §3): a dedicated allocation of a resource costs its required size (the
// allocation's base is aligned for any resource by the driver), so a group
// whose pools add up to more than its members' sizes is not worth it.
// That only happens when alignment padding outweighs the sharing (small
// resources with large alignments); then the member with the largest
// alignment (the smallest of those, the last of those) is made dedicated
// and the rest placed again, until the pools cost no more than the sizes.
// A group of one always passes (its pool is its size), so this ends; the
// usual group passes at once and builds nothing more.
func placeGroup(c *Compiled, p *Plan, grp group, pos []int64, opts Options) error {
	members := grp.members
	for len(members) > 0 {
		prob, sol, bound, err := solveGroup(c, p, members, pos, opts)
		if err != nil {
			return err
		}
		if sol.Peak() <= sumSizes(prob.Items) {
			base := len(p.Pools)
			for k, size := range sol.PoolSizes {
				p.Pools = append(p.Pools, Pool{Index: base + k, MemoryTypeIndex: grp.memType, Class: grp.class, Size: size})
			}
			for i, r := range members {
				q := &p.Resources[r].Requirements
				p.Resources[r].Placement = Placement{Pool: base + int(sol.Pool[i]), Offset: sol.Offset[i], Size: q.Size, Alignment: q.Alignment}
			}
			// Saturating: a sum that does not fit makes sumStats fail.
			ok := true
			if p.Stats.LowerBound = addChecked(p.Stats.LowerBound, bound, &ok); !ok {
				p.Stats.LowerBound = ^uint64(0)
			}
			addExecutionBound(p, prob.Items) // order.go
			return nil
		}
		members = dedicateWorst(p, members)
	}
	return nil
}

// dedicateWorst makes the member with the largest alignment (the smallest
// of those, the last of those) dedicated and returns the others.
func dedicateWorst(p *Plan, members []ResourceID) []ResourceID {
	worst := 0
	for i, r := range members {
		a, b := &p.Resources[r].Requirements, &p.Resources[members[worst]].Requirements
		if a.Alignment > b.Alignment || a.Alignment == b.Alignment && a.Size <= b.Size {
			worst = i
		}
	}
	rp := &p.Resources[members[worst]]
	rp.Status = StatusDedicated
	rp.Reason = fmt.Sprintf("alignment padding: with its %d-byte alignment, pooling it would cost more than its own allocation of %d bytes", rp.Requirements.Alignment, rp.Requirements.Size)
	return append(members[:worst:worst], members[worst+1:]...)
}

// solveGroup builds one group's problem, runs the strategy on it and
// computes its lower bound.
func solveGroup(c *Compiled, p *Plan, members []ResourceID, pos []int64, opts Options) (*Problem, *Solution, uint64, error) {
	items := make([]Item, len(members))
	for i, r := range members {
		q := &p.Resources[r].Requirements
		start, end := int64(1)<<62, int64(-1)
		for _, u := range c.Uses(r) {
			start = min(start, pos[u.Command])
			end = max(end, pos[u.Command]+1)
		}
		items[i] = Item{Size: q.Size, Alignment: q.Alignment, Start: start, End: end}
	}
	prob := &Problem{Items: items, MaxPoolSize: opts.MaxPoolSize}
	if err := prob.check(); err != nil {
		return nil, nil, 0, &PlacementError{Detail: "building the placement problem", Err: err}
	}
	prob.adj = c.groupInterference(members)
	prob.order = c.beforeOrder(members)
	// The lower bound needs only the problem: on a large enough group it
	// runs beside the strategy, on another core when there is one, and is
	// joined before the group's results are used.
	var bound uint64
	var boundDone chan struct{}
	if len(items) >= concurrentBoundItems {
		boundDone = make(chan struct{})
		go func() {
			defer close(boundDone)
			bound = LowerBound(prob)
		}()
	} else {
		bound = LowerBound(prob)
	}
	sol, err := opts.Strategy.Place(prob)
	if boundDone != nil {
		<-boundDone
	}
	if err != nil {
		return nil, nil, 0, &PlacementError{Detail: "strategy " + opts.Strategy.Name(), Err: err}
	}
	if err := CheckSolution(prob, sol); err != nil {
		if ov := (*OverlapError)(nil); errors.As(err, &ov) {
			ov.NameA, ov.NameB = c.Graph.Resources[members[ov.A]].Name, c.Graph.Resources[members[ov.B]].Name
		}
		return nil, nil, 0, fmt.Errorf("planner: strategy %s produced an invalid placement (a bug): %w", opts.Strategy.Name(), err)
	}
	// Aliasing must never cost more than not aliasing: a strategy that
	// loses to plain stacking (alignment padding can do that) is replaced
	// by it for this group. Stacking never costs less than the sum of the
	// sizes, so the usual case builds nothing.
	if peak := sol.Peak(); peak > sumSizes(items) {
		if alt := NoAliasing(prob); alt.Peak() < peak {
			sol = alt
		}
	}
	return prob, sol, bound, nil
}

// sumSizes is the items' total size, saturating at 2^64-1.
func sumSizes(items []Item) uint64 {
	ok := true
	var sum uint64
	for _, it := range items {
		if sum = addChecked(sum, it.Size, &ok); !ok {
			return ^uint64(0)
		}
	}
	return sum
}

// sumStats fills the byte totals of the plan's stats (LowerBound is summed
// by placeGroup). A total that does not fit in 64 bits is an error naming
// the resource at which it overflowed.
func sumStats(g *Graph, p *Plan) error {
	ok := true
	st := &p.Stats
	for r := range p.Resources {
		rp := &p.Resources[r]
		switch rp.Status {
		case StatusPooled:
			st.TransientBytes = addChecked(st.TransientBytes, rp.Requirements.Size, &ok)
		case StatusDedicated, StatusHostVisible:
			st.DedicatedBytes = addChecked(st.DedicatedBytes, rp.Requirements.Size, &ok)
		}
		if !ok {
			what := "dedicated and host-visible resources' sizes (dedicatedBytes)"
			if rp.Status == StatusPooled {
				what = "pooled resources' sizes (transientBytes)"
			}
			return &GraphError{Resource: g.Resources[r].Name, Access: -1, Rule: RuleSizeOverflow,
				Detail: "the " + what + " add up to more than 2^64-1 bytes at this resource"}
		}
	}
	for _, pl := range p.Pools {
		st.PooledBytes = addChecked(st.PooledBytes, pl.Size, &ok)
	}
	if !ok {
		return &GraphError{Access: -1, Rule: RuleSizeOverflow, Detail: "the pool sizes add up to more than 2^64-1 bytes"}
	}
	return nil
}

// checkHeaps refuses a plan whose pools in one memory heap add up to more
// than the heap holds (when its size is known): they could never all be
// allocated. Each resource was checked alone already (CheckAllocation).
func checkHeaps(p *Plan, types []MemoryType) error {
	type heap struct {
		index uint32
		size  uint64
		used  uint64
		ok    bool
	}
	var heaps []heap
	for _, pl := range p.Pools {
		if int(pl.MemoryTypeIndex) >= len(types) || types[pl.MemoryTypeIndex].HeapSize == 0 {
			continue
		}
		t := types[pl.MemoryTypeIndex]
		k := slices.IndexFunc(heaps, func(h heap) bool { return h.index == t.Heap })
		if k < 0 {
			heaps = append(heaps, heap{index: t.Heap, size: t.HeapSize, ok: true})
			k = len(heaps) - 1
		}
		h := &heaps[k]
		h.used = addChecked(h.used, pl.Size, &h.ok)
		if !h.ok || h.used > h.size {
			return &GraphError{Item: fmt.Sprintf("pool %d", pl.Index), Access: -1, Rule: RuleHeapSize,
				Detail: fmt.Sprintf("the pools in memory heap %d need more than its %d bytes (%d up to this pool)", t.Heap, h.size, h.used)}
		}
	}
	return nil
}

// concurrentBoundItems is the group size from which the lower bound runs
// on its own goroutine: below it, starting one costs more than it saves.
const concurrentBoundItems = 48

// markAliased sets Placement.Aliased for every pooled resource that shares
// a byte with another one of its pool: a sweep by offset per pool.
func markAliased(p *Plan) {
	var idx []ResourceID
	for r := range p.Resources {
		if p.Resources[r].Status == StatusPooled {
			idx = append(idx, ResourceID(r))
		}
	}
	slices.SortFunc(idx, func(a, b ResourceID) int {
		x, y := &p.Resources[a].Placement, &p.Resources[b].Placement
		if x.Pool != y.Pool {
			return cmp.Compare(x.Pool, y.Pool)
		}
		if x.Offset != y.Offset {
			return cmp.Compare(x.Offset, y.Offset)
		}
		return cmp.Compare(a, b)
	})
	// reach is the end of the furthest-reaching earlier range of the pool,
	// and who owns it: a range starting below it overlaps that one.
	var reach uint64
	owner := ResourceID(-1)
	for k, r := range idx {
		pl := &p.Resources[r].Placement
		if k == 0 || p.Resources[idx[k-1]].Placement.Pool != pl.Pool {
			reach, owner = 0, -1
		}
		if owner >= 0 && pl.Offset < reach {
			pl.Aliased = true
			p.Resources[owner].Placement.Aliased = true
		}
		if end := pl.Offset + pl.Size; end > reach || owner < 0 {
			reach, owner = end, r
		}
	}
}

// GroupProblem builds the graph problem of one pool group as Place does:
// members[i] (used transients, ascending as Place takes them) is
// items[i], and interference is the DAG's (the bit matrix Place builds
// from the closure, P²/8 bytes). The verify package recomputes the plan's
// lower bound with it.
func (c *Compiled) GroupProblem(members []ResourceID, items []Item, maxPoolSize uint64) (*Problem, error) {
	if len(members) != len(items) {
		return nil, fmt.Errorf("planner: %d members, %d items", len(members), len(items))
	}
	p := &Problem{Items: items, MaxPoolSize: maxPoolSize}
	if err := p.check(); err != nil {
		return nil, err
	}
	p.adj = c.groupInterference(members)
	return p, nil
}

// groupInterference returns the interference matrix of one pool group's
// members. Every used transient has exactly one initial use, and an edge
// of the DAG always points forward in recorded order, so a can be entirely
// before b only when a's initial command comes first (or both share it,
// and then neither is before the other). Members are taken in order of
// initial command; for each one, a, the intersection of its terminal uses'
// closure rows (the closure row itself for a single terminal use, no
// copy) holds the commands whose members a is entirely before.
//
// Members already in order of initial command (as Place takes them) get
// every row filled with ones, then a's pairs with the members of each
// command in a's row cleared in both rows: dense groups (render graphs
// interfere 99%) have few such pairs, so this costs O(n²/64 + n·V/64 +
// non-interfering pairs), with no transpose. Other orders have the upper
// triangle written row by row, one bit test per pair at the later
// member's initial command, and mirrored by 64×64 block transposes:
// O(n·(n + terminals·V/64)). n²/8 bytes kept, V/64 words of scratch.
func (c *Compiled) groupInterference(members []ResourceID) bitMatrix {
	n := len(members)
	m := newBitMatrix(n)
	init := make([]CommandID, n)
	inOrder := true // members are usually created in command order
	for i, r := range members {
		in := c.Initial(r)
		if len(in) == 1 {
			inOrder = inOrder && (i == 0 || init[i-1] <= in[0])
		}
		if len(in) != 1 {
			// Not a transient as Compile guarantees them: answer pair by pair.
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					if c.Interferes(members[i], members[j]) {
						m.setPair(i, j)
					}
				}
			}
			return m
		}
		init[i] = in[0]
	}
	if inOrder {
		c.fillInterference(m, members, init)
		return m
	}
	// byInit: member indexes by (initial command, index).
	byInit := make([]int32, n)
	for i := range byInit {
		byInit[i] = int32(i)
	}
	slices.SortFunc(byInit, func(a, b int32) int {
		if c := cmp.Compare(init[a], init[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var scratch []uint64
	for x, i := range byInit {
		after := c.after(members[i], &scratch)
		row := m.row(int(i))
		for _, j := range byInit[x+1:] {
			b := init[j]
			if after[b>>6]&(1<<(uint(b)&63)) == 0 {
				row[j>>6] |= 1 << (uint(j) & 63)
			}
		}
	}
	m.mirror()
	return m
}

// fillInterference is groupInterference for members in order of initial
// command (init[i], non-decreasing). Member a is entirely before exactly
// the members of the commands in a's after row, a contiguous range of
// members per command (first). When those pairs are few (at most one
// per matrix word: dense groups, as render graphs make), every row is
// filled with ones but the diagonal and each pair is cleared in both
// rows. Otherwise (two passes of many buffers: whole passes before one
// another) the upper triangle is filled with ones, each command's range
// cleared word by word, and the triangle mirrored. Every word of m is
// written.
func (c *Compiled) fillInterference(m bitMatrix, members []ResourceID, init []CommandID) {
	n := len(members)
	nc := len(c.Graph.Commands)
	// first[b]: the first member whose initial command is at or after b.
	first := make([]int32, nc+1)
	j := 0
	for b := range first {
		for j < n && int(init[j]) < b {
			j++
		}
		first[b] = int32(j)
	}
	var scratch []uint64
	// forPairs calls f(a, lo, hi) for each member a and each command of
	// its after row with members lo..hi-1 (all after a).
	forPairs := func(f func(a int, lo, hi int32)) {
		for a, r := range members {
			ws, base := c.afterRow(r, &scratch)
			for k, x := range ws {
				for ; x != 0; x &= x - 1 {
					b := (base+k)<<6 + bits.TrailingZeros64(x)
					if lo, hi := first[b], first[b+1]; lo < hi {
						f(a, lo, hi)
					}
				}
			}
		}
	}
	pairs := 0
	forPairs(func(_ int, lo, hi int32) { pairs += int(hi - lo) })
	sparse := pairs <= len(m.bits)
	last := ^uint64(0) // the last word's bits below n
	if n&63 != 0 {
		last = 1<<(uint(n)&63) - 1
	}
	for i := range n {
		row := m.row(i)
		lo := 0 // the row's first word of ones
		if !sparse {
			lo = (i + 1) >> 6
			clear(row[:lo])
		}
		for w := lo; w < len(row); w++ {
			row[w] = ^uint64(0)
		}
		row[len(row)-1] &= last
		if sparse {
			row[i>>6] &^= 1 << (uint(i) & 63)
		} else if lo < len(row) {
			row[lo] &^= 1<<(uint(i+1)&63) - 1 // members up to i
		}
	}
	forPairs(func(a int, lo, hi int32) {
		clearBits(m.row(a), int(lo), int(hi))
		if sparse {
			for j := lo; j < hi; j++ {
				m.bits[int(j)*m.words+a>>6] &^= 1 << (uint(a) & 63)
			}
		}
	})
	if !sparse {
		m.mirror()
	}
}

// clearBits clears bits lo..hi-1 of row.
func clearBits(row []uint64, lo, hi int) {
	for lo < hi {
		w := lo >> 6
		mask := ^uint64(0) << (uint(lo) & 63)
		if next := (w + 1) << 6; hi < next {
			mask &= 1<<(uint(hi)&63) - 1
			lo = hi
		} else {
			lo = next
		}
		row[w] &^= mask
	}
}

// afterRow is after without the copy for a single terminal use: the
// row's words from base on (ws[k] is word base+k; the words below base
// are zero).
func (c *Compiled) afterRow(r ResourceID, scratch *[]uint64) (ws []uint64, base int) {
	if ts := c.lastUses(r); len(ts) == 1 {
		return c.reach.row(ts[0])
	}
	return c.after(r, scratch), 0
}

// after returns the commands that every terminal use of r happens-before:
// the closure row of its one terminal use, or the intersection of them all,
// at full width in *scratch (the closure keeps its rows' upper triangle
// only). The result aliases *scratch.
func (c *Compiled) after(r ResourceID, scratch *[]uint64) []uint64 {
	ts := c.lastUses(r)
	row := c.scratchRow(scratch)
	for k, t := range ts {
		tr, base := c.reach.row(t)
		if k == 0 {
			copy(row[base:], tr)
			continue
		}
		clear(row[:base])
		for w, x := range tr {
			row[base+w] &= x
		}
	}
	return row
}
