package planner

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// Place decides where every resource of a compiled graph lives: it sorts
// resources into statuses, groups the pooled ones by (memory type, class),
// runs the strategy on each group, and fills in pools, placements and
// stats. The plan's Order is the recorded order and it carries no barriers
// yet (barriers.Build adds them). The placement part of the plan has passed
// VerifyPlacement.
//
// Cost: O(P²) interference queries for P pooled resources (each O(terminal
// uses)), plus the strategy and the lower bound.
func Place(c *Compiled, opts Options) (*Plan, error) {
	if opts.Strategy == nil {
		return nil, &PlacementError{Detail: "Options.Strategy is nil"}
	}
	if err := checkOrdering(&opts); err != nil {
		return nil, err
	}
	g := c.Graph
	src := opts.source()
	types := src.MemoryTypes()
	p := &Plan{
		Strategy:  opts.Strategy.Name(),
		Order:     make([]CommandID, len(g.Commands)),
		Resources: make([]ResourcePlan, len(g.Resources)),
		Ordering:  opts.Order,
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
		if res.Requirements != nil {
			rp.Requirements = *res.Requirements
			explicit = true
		} else {
			q, err := src.Requirements(res)
			if err != nil {
				return nil, &PlacementError{Resource: res.Name, Detail: "requirements from " + src.Describe(), Err: err}
			}
			rp.Requirements = q
			estimated = true
		}
		q := &rp.Requirements
		switch {
		case res.Memory.HostVisible():
			rp.Status, rp.Reason = StatusHostVisible, "host-visible ("+res.Memory.String()+"): mapping needs the allocation base"
		case q.RequiresDedicated:
			rp.Status, rp.Reason = StatusDedicated, "requiresDedicated"
		case q.PrefersDedicated && !opts.PoolPrefersDedicated:
			rp.Status, rp.Reason = StatusDedicated, "prefersDedicated"
		case res.Dedicated:
			rp.Status, rp.Reason = StatusDedicated, "marked dedicated"
		case opts.DedicatedThreshold != 0 && q.Size >= opts.DedicatedThreshold:
			rp.Status, rp.Reason = StatusDedicated, fmt.Sprintf("at or above the dedicated threshold (%d bytes)", opts.DedicatedThreshold)
		default:
			if res.Kind == KindImage && res.Image.InitialLayout != LayoutUndefined {
				return nil, &GraphError{Resource: res.Name, Access: -1, Rule: RulePooledLayout,
					Detail: fmt.Sprintf("pooled image declares initial layout %s; reused memory has no defined contents, so it must be UNDEFINED", res.Image.InitialLayout)}
			}
			if opts.MaxPoolSize != 0 && roundUp(q.Size, q.Alignment) > opts.MaxPoolSize {
				rp.Status, rp.Reason = StatusDedicated, fmt.Sprintf("larger than the maximum pool size (%d bytes)", opts.MaxPoolSize)
				break
			}
			rp.Status = StatusPooled
			pooled = append(pooled, ResourceID(r))
			p.Stats.TransientBytes += q.Size
		}
		if rp.Status == StatusDedicated || rp.Status == StatusHostVisible {
			p.Stats.DedicatedBytes += q.Size
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
	markAliased(p)
	if opts.Order != OrderDAG {
		if p.Serializations, err = findSerializations(c, p, pos); err != nil {
			return nil, err
		}
	}
	if err := VerifyPlacement(c, p); err != nil {
		return nil, fmt.Errorf("planner: strategy %s produced an invalid plan (a bug): %w", opts.Strategy.Name(), err)
	}
	return p, nil
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
				return nil, &PlacementError{Resource: g.Resources[r].Name,
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
func placeGroup(c *Compiled, p *Plan, grp group, pos []int64, opts Options) error {
	items := make([]Item, len(grp.members))
	for i, r := range grp.members {
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
		return &PlacementError{Detail: "building the placement problem", Err: err}
	}
	prob.setAdjacency(c.groupInterference(grp.members))
	sol, err := opts.Strategy.Place(prob)
	if err != nil {
		return &PlacementError{Detail: "strategy " + opts.Strategy.Name(), Err: err}
	}
	if err := CheckSolution(prob, sol); err != nil {
		if ov := (*OverlapError)(nil); errors.As(err, &ov) {
			ov.NameA, ov.NameB = c.Graph.Resources[grp.members[ov.A]].Name, c.Graph.Resources[grp.members[ov.B]].Name
		}
		return fmt.Errorf("planner: strategy %s produced an invalid placement (a bug): %w", opts.Strategy.Name(), err)
	}
	// Aliasing must never cost more than not aliasing: a strategy that
	// loses to plain stacking (alignment padding can do that) is replaced
	// by it for this group. Stacking never costs less than the sum of the
	// sizes, so the usual case builds nothing.
	var sum uint64
	for _, it := range items {
		sum += it.Size
	}
	if peak := sol.Peak(); peak > sum {
		if alt := NoAliasing(prob); alt.Peak() < peak {
			sol = alt
		}
	}
	base := len(p.Pools)
	for k, size := range sol.PoolSizes {
		p.Pools = append(p.Pools, Pool{Index: base + k, MemoryTypeIndex: grp.memType, Class: grp.class, Size: size})
		p.Stats.PooledBytes += size
	}
	for i, r := range grp.members {
		q := &p.Resources[r].Requirements
		p.Resources[r].Placement = Placement{Pool: base + int(sol.Pool[i]), Offset: sol.Offset[i], Size: q.Size, Alignment: q.Alignment}
	}
	p.Stats.LowerBound += LowerBound(prob)
	p.Stats.ExecutionBound += MaxLoad(items)
	return nil
}

// markAliased sets Placement.Aliased for every pooled resource that shares
// a byte with another one of its pool: a sweep by offset per pool.
func markAliased(p *Plan) {
	var idx []ResourceID
	for r := range p.Resources {
		if p.Resources[r].Status == StatusPooled {
			idx = append(idx, ResourceID(r))
		}
	}
	sort.Slice(idx, func(a, b int) bool {
		x, y := &p.Resources[idx[a]].Placement, &p.Resources[idx[b]].Placement
		if x.Pool != y.Pool {
			return x.Pool < y.Pool
		}
		if x.Offset != y.Offset {
			return x.Offset < y.Offset
		}
		return idx[a] < idx[b]
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

// groupInterference returns the interference matrix of one pool group's
// members. Every used transient has exactly one initial use, so "a entirely
// before b" is one bit: b's initial command in the intersection of the
// closure rows of a's terminal uses. Those intersections are built once per
// member (O(members × terminals × V/64)); each pair then costs two bit tests.
func (c *Compiled) groupInterference(members []ResourceID) *bitMatrix {
	n := len(members)
	m := newBitMatrix(n)
	words := (len(c.Graph.Commands) + 63) / 64
	after := make([]uint64, n*words)
	init := make([]CommandID, n)
	for i, r := range members {
		in := c.Initial(r)
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
		row := after[i*words : (i+1)*words]
		for k, t := range c.Terminal(r) {
			tr := c.reach[t].Words()
			if k == 0 {
				copy(row, tr)
				continue
			}
			for w := range row {
				row[w] &= tr[w]
			}
		}
	}
	for i := 0; i < n; i++ {
		ai := after[i*words : (i+1)*words]
		bi := init[i]
		for j := i + 1; j < n; j++ {
			bj := init[j]
			iBeforeJ := ai[bj>>6]&(1<<(uint(bj)&63)) != 0
			jBeforeI := after[j*words+int(bi)>>6]&(1<<(uint(bi)&63)) != 0
			if !iBeforeJ && !jBeforeI {
				m.setPair(i, j)
			}
		}
	}
	return m
}
