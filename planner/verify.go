package planner

import (
	"fmt"
	"sort"
)

// VerifyError reports a plan that breaks a rule other than an overlap.
type VerifyError struct {
	Resource string // the resource concerned, if any
	Pool     int    // the pool concerned, or -1
	Detail   string
}

func (e *VerifyError) Error() string {
	s := "planner: verify: "
	if e.Resource != "" {
		s += fmt.Sprintf("resource %q: ", e.Resource)
	}
	if e.Pool >= 0 {
		s += fmt.Sprintf("pool %d: ", e.Pool)
	}
	return s + e.Detail
}

// Verify checks a complete plan against its compiled graph, independently
// of the strategy and barrier builder that made it: VerifyPlacement, then
// the execution order and barrier coverage (every DAG edge, every layout
// change, every alias). A failure is a bug in whatever made the plan.
func Verify(c *Compiled, p *Plan) error {
	if err := VerifyPlacement(c, p); err != nil {
		return err
	}
	return verifyBarriers(c, p)
}

// VerifyPlacement checks the memory side of a plan: statuses, pools,
// alignment, bounds, class separation, memory types, the Aliased flags,
// the stats, and that no two interfering resources share a byte. Cost
// O(R log R + byte-overlapping pairs) interference queries.
func VerifyPlacement(c *Compiled, p *Plan) error {
	g := c.Graph
	fail := func(r int, pool int, format string, args ...any) error {
		name := ""
		if r >= 0 {
			name = g.Resources[r].Name
		}
		return &VerifyError{Resource: name, Pool: pool, Detail: fmt.Sprintf(format, args...)}
	}
	if len(p.Resources) != len(g.Resources) {
		return fail(-1, -1, "plan has %d resources, graph has %d", len(p.Resources), len(g.Resources))
	}
	for i, pl := range p.Pools {
		if pl.Index != i {
			return fail(-1, i, "index field is %d", pl.Index)
		}
		if pl.Class != ClassLinear && pl.Class != ClassOptimal {
			return fail(-1, i, "unknown class %d", pl.Class)
		}
	}
	ao, err := verifySerializations(c, p) // verify_order.go
	if err != nil {
		return err
	}
	var st Stats
	used := make([]uint64, len(p.Pools)) // the end of each pool's highest resource
	members := make([]int, len(p.Pools))
	var pooled []int
	for r := range g.Resources {
		res, rp := &g.Resources[r], &p.Resources[r]
		want := StatusPooled
		switch {
		case !c.Used(ResourceID(r)):
			want = StatusUnused
		case res.Imported:
			want = StatusImported
		case res.Memory.HostVisible():
			want = StatusHostVisible
		case rp.Requirements.RequiresDedicated || res.Dedicated:
			want = StatusDedicated
		case rp.Requirements.PrefersDedicated && rp.Status != StatusPooled:
			// A preference: pooled only when the caller opted in
			// (Options.PoolPrefersDedicated), which the plan does not record.
			want = StatusDedicated
		}
		if res.Requirements != nil && (want == StatusPooled || want == StatusDedicated || want == StatusHostVisible) && rp.Requirements != *res.Requirements {
			return fail(r, -1, "plan requirements %+v differ from the graph's %+v", rp.Requirements, *res.Requirements)
		}
		// A pooled candidate may still be dedicated by size (threshold or
		// maximum pool size): options the plan does not record.
		if rp.Status != want && !(want == StatusPooled && rp.Status == StatusDedicated) {
			return fail(r, -1, "status %s, want %s", rp.Status, want)
		}
		switch rp.Status {
		case StatusDedicated, StatusHostVisible:
			st.DedicatedBytes += rp.Requirements.Size
			continue
		case StatusPooled:
		default:
			continue
		}
		q, pl := &rp.Requirements, &rp.Placement
		st.TransientBytes += q.Size
		if pl.Pool < 0 || pl.Pool >= len(p.Pools) {
			return fail(r, -1, "pool %d does not exist", pl.Pool)
		}
		pool := &p.Pools[pl.Pool]
		switch {
		case res.Kind == KindImage && res.Image.InitialLayout != LayoutUndefined:
			return fail(r, pl.Pool, "pooled image with initial layout %s (must be UNDEFINED)", res.Image.InitialLayout)
		case pl.Size != q.Size || pl.Alignment != q.Alignment:
			return fail(r, pl.Pool, "placement size/alignment %d/%d differ from the requirements %d/%d", pl.Size, pl.Alignment, q.Size, q.Alignment)
		case !isPow2(pl.Alignment) || pl.Offset%pl.Alignment != 0:
			return fail(r, pl.Pool, "offset %d is not a multiple of alignment %d", pl.Offset, pl.Alignment)
		case pl.Offset+pl.Size < pl.Offset || pl.Offset+pl.Size > pool.Size:
			return fail(r, pl.Pool, "range [%d, %d) exceeds the pool size %d", pl.Offset, pl.Offset+pl.Size, pool.Size)
		case res.Class() != pool.Class:
			return fail(r, pl.Pool, "%s resource in a %s pool", res.Class(), pool.Class)
		case pool.MemoryTypeIndex >= 32 || q.MemoryTypeBits&(1<<pool.MemoryTypeIndex) == 0:
			return fail(r, pl.Pool, "memoryTypeBits %#x exclude the pool's memory type %d", q.MemoryTypeBits, pool.MemoryTypeIndex)
		}
		used[pl.Pool] = max(used[pl.Pool], pl.Offset+pl.Size)
		members[pl.Pool]++
		pooled = append(pooled, r)
	}
	for i, pl := range p.Pools {
		if members[i] == 0 {
			return fail(-1, i, "empty pool")
		}
		if used[i] != pl.Size {
			return fail(-1, i, "size %d, but its resources end at %d", pl.Size, used[i])
		}
		st.PooledBytes += pl.Size
	}
	// Sweep each pool by offset: every pair sharing a byte must not
	// interfere, and exactly those resources are Aliased.
	sort.Slice(pooled, func(a, b int) bool {
		x, y := &p.Resources[pooled[a]].Placement, &p.Resources[pooled[b]].Placement
		if x.Pool != y.Pool {
			return x.Pool < y.Pool
		}
		if x.Offset != y.Offset {
			return x.Offset < y.Offset
		}
		return pooled[a] < pooled[b]
	})
	aliased := make([]bool, len(g.Resources))
	var active []int
	for k, r := range pooled {
		pl := &p.Resources[r].Placement
		if k > 0 && p.Resources[pooled[k-1]].Placement.Pool != pl.Pool {
			active = active[:0]
		}
		w := 0
		for _, o := range active {
			opl := &p.Resources[o].Placement
			if opl.Offset+opl.Size <= pl.Offset {
				continue
			}
			active[w] = o
			w++
			if !ao.Before(ResourceID(o), ResourceID(r)) && !ao.Before(ResourceID(r), ResourceID(o)) {
				return &OverlapError{A: o, B: r, NameA: g.Resources[o].Name, NameB: g.Resources[r].Name, Pool: pl.Pool,
					OffsetA: opl.Offset, SizeA: opl.Size, OffsetB: pl.Offset, SizeB: pl.Size}
			}
			aliased[o], aliased[r] = true, true
		}
		active = append(active[:w], r)
	}
	for _, r := range pooled {
		if p.Resources[r].Placement.Aliased != aliased[r] {
			return fail(r, p.Resources[r].Placement.Pool, "aliased is %v, but it shares bytes: %v", p.Resources[r].Placement.Aliased, aliased[r])
		}
	}
	if st.TransientBytes != p.Stats.TransientBytes || st.PooledBytes != p.Stats.PooledBytes || st.DedicatedBytes != p.Stats.DedicatedBytes {
		return fail(-1, -1, "stats %+v disagree with the plan (transient %d, pooled %d, dedicated %d)",
			p.Stats, st.TransientBytes, st.PooledBytes, st.DedicatedBytes)
	}
	// The DAG bound holds for plans that alias only DAG-ordered pairs; the
	// execution-order bound for every plan, and it is never above the DAG
	// bound (resources live at one position pairwise interfere).
	if len(p.Serializations) == 0 && p.Stats.LowerBound > p.Stats.PooledBytes {
		return fail(-1, -1, "lower bound %d exceeds the pooled bytes %d", p.Stats.LowerBound, p.Stats.PooledBytes)
	}
	if p.Stats.ExecutionBound > p.Stats.PooledBytes || p.Stats.ExecutionBound > p.Stats.LowerBound {
		return fail(-1, -1, "execution-order bound %d exceeds the pooled bytes %d or the lower bound %d",
			p.Stats.ExecutionBound, p.Stats.PooledBytes, p.Stats.LowerBound)
	}
	return verifyOrder(c, p)
}

// verifyOrder checks that Order is a permutation of the commands that
// respects every DAG edge.
func verifyOrder(c *Compiled, p *Plan) error {
	n := len(c.Graph.Commands)
	if len(p.Order) != n {
		return &VerifyError{Pool: -1, Detail: fmt.Sprintf("order has %d commands, graph has %d", len(p.Order), n)}
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			return &VerifyError{Pool: -1, Detail: fmt.Sprintf("order position %d: command %d is out of range or repeated", i, cmd)}
		}
		pos[cmd] = i
	}
	for a := 0; a < n; a++ {
		for _, b := range c.Successors(CommandID(a)) {
			if pos[a] > pos[b] {
				return &VerifyError{Pool: -1, Detail: fmt.Sprintf("order runs command %q before %q, which it depends on", c.Graph.Commands[b].Name, c.Graph.Commands[a].Name)}
			}
		}
	}
	return nil
}
