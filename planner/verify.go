package planner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
//
// Verify returns the first violation it finds; VerifyAll lists them all.
func Verify(c *Compiled, p *Plan) error {
	if errs := VerifyAll(c, p, 1); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// VerifyAll is Verify reporting every violation it finds, up to max (0:
// no cap), in the order Verify checks. The barrier checks run only when
// the placement and the barriers' structure hold (they index what those
// checks establish); after a layout violation the image is taken to be in
// the layout its command needs, so later commands are still checked.
func VerifyAll(c *Compiled, p *Plan, max int) []error {
	if c == nil || c.Graph == nil || p == nil {
		return []error{&VerifyError{Pool: -1, Detail: "nil compiled graph or plan"}}
	}
	errs := &errList{max: max}
	if verifyPlacement(c, p, errs); len(errs.errs) > 0 {
		return errs.errs
	}
	verifyBarriersAll(c, p, errs)
	return errs.errs
}

// VerifyPlacement checks the memory side of a plan: statuses, pools,
// alignment, bounds, class separation, memory types, the Aliased flags,
// the stats, and that no two interfering resources share a byte. Cost
// O(R log R + byte-overlapping pairs) interference queries.
func VerifyPlacement(c *Compiled, p *Plan) error {
	if c == nil || c.Graph == nil || p == nil {
		return &VerifyError{Pool: -1, Detail: "nil compiled graph or plan"}
	}
	errs := &errList{max: 1}
	if verifyPlacement(c, p, errs); len(errs.errs) > 0 {
		return errs.errs[0]
	}
	return nil
}

// verifyPlacement adds VerifyPlacement's violations to errs, stopping at
// its cap.
func verifyPlacement(c *Compiled, p *Plan, errs *errList) {
	g := c.Graph
	fail := func(r int, pool int, format string, args ...any) bool {
		name := ""
		if r >= 0 {
			name = g.Resources[r].Name
		}
		return errs.add(&VerifyError{Resource: name, Pool: pool, Detail: fmt.Sprintf(format, args...)})
	}
	if len(p.Resources) != len(g.Resources) {
		fail(-1, -1, "plan has %d resources, graph has %d", len(p.Resources), len(g.Resources))
		return
	}
	poolsOK := true
	for i, pl := range p.Pools {
		if pl.Index != i {
			poolsOK = false
			if fail(-1, i, "index field is %d", pl.Index) {
				return
			}
		}
		if pl.Class != ClassLinear && pl.Class != ClassOptimal {
			poolsOK = false
			if fail(-1, i, "unknown class %d", pl.Class) {
				return
			}
		}
	}
	// The aliasing order: the DAG's, and the plan's serializations once
	// they check (verify_order.go); with a bad list, the DAG's alone.
	ao, err := verifySerializations(c, p)
	if err != nil {
		if errs.add(err) {
			return
		}
		ao = &AliasOrder{c: c}
	}
	var st Stats
	sumsOK := true
	used := make([]uint64, len(p.Pools)) // the end of each pool's highest resource
	members := make([]int, len(p.Pools))
	badPool := make([]bool, len(p.Pools)) // a member already reported: its size check would only echo that
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
			if fail(r, -1, "plan requirements (%s) differ from the graph's (%s)", describeRequirements(&rp.Requirements), describeRequirements(res.Requirements)) {
				return
			}
			continue
		}
		// A pooled candidate may still be dedicated by size (threshold,
		// maximum pool size, alignment padding): options and decisions
		// the plan does not record.
		if rp.Status != want && !(want == StatusPooled && rp.Status == StatusDedicated) {
			if fail(r, -1, "status %s, want %s", rp.Status, want) {
				return
			}
			continue
		}
		switch rp.Status {
		case StatusDedicated, StatusHostVisible:
			st.DedicatedBytes = addChecked(st.DedicatedBytes, rp.Requirements.Size, &sumsOK)
			continue
		case StatusPooled:
		default:
			continue
		}
		q, pl := &rp.Requirements, &rp.Placement
		st.TransientBytes = addChecked(st.TransientBytes, q.Size, &sumsOK)
		if pl.Pool < 0 || pl.Pool >= len(p.Pools) {
			if fail(r, -1, "pool %d does not exist", pl.Pool) {
				return
			}
			continue
		}
		pool := &p.Pools[pl.Pool]
		var bad bool
		switch {
		case res.Kind == KindImage && res.Image.InitialLayout != LayoutUndefined:
			bad = true
			if fail(r, pl.Pool, "pooled image with initial layout %s (must be UNDEFINED)", res.Image.InitialLayout) {
				return
			}
		case pl.Size != q.Size || pl.Alignment != q.Alignment:
			bad = true
			if fail(r, pl.Pool, "placement size/alignment %d/%d differ from the requirements %d/%d", pl.Size, pl.Alignment, q.Size, q.Alignment) {
				return
			}
		case !isPow2(pl.Alignment) || pl.Offset%pl.Alignment != 0:
			bad = true
			if fail(r, pl.Pool, "offset %d is not a multiple of alignment %d", pl.Offset, pl.Alignment) {
				return
			}
		case pl.Offset+pl.Size < pl.Offset:
			bad = true
			if fail(r, pl.Pool, "offset %d + size %d does not fit in 64 bits", pl.Offset, pl.Size) {
				return
			}
		case pl.Offset+pl.Size > pool.Size:
			bad = true
			if fail(r, pl.Pool, "range [%d, %d) exceeds the pool size %d", pl.Offset, pl.Offset+pl.Size, pool.Size) {
				return
			}
		case res.Class() != pool.Class:
			bad = true
			if fail(r, pl.Pool, "%s resource in %s pool", res.Class(), article(pool.Class.String())) {
				return
			}
		case pool.MemoryTypeIndex >= 32 || q.MemoryTypeBits&(1<<pool.MemoryTypeIndex) == 0:
			bad = true
			if fail(r, pl.Pool, "memoryTypeBits %#x exclude the pool's memory type %d", q.MemoryTypeBits, pool.MemoryTypeIndex) {
				return
			}
		}
		members[pl.Pool]++
		if bad {
			badPool[pl.Pool] = true
			continue
		}
		used[pl.Pool] = max(used[pl.Pool], pl.Offset+pl.Size)
		pooled = append(pooled, r)
	}
	for i, pl := range p.Pools {
		st.PooledBytes = addChecked(st.PooledBytes, pl.Size, &sumsOK)
		switch {
		case members[i] == 0:
			if fail(-1, i, "empty pool") {
				return
			}
		case used[i] != pl.Size && !badPool[i]:
			if fail(-1, i, "size %d, but its resources end at %d", pl.Size, used[i]) {
				return
			}
		}
	}
	// Sweep each pool by offset: every pair sharing a byte must not
	// interfere, and exactly those resources are Aliased.
	slices.SortFunc(pooled, func(a, b int) int {
		x, y := &p.Resources[a].Placement, &p.Resources[b].Placement
		if x.Pool != y.Pool {
			return cmp.Compare(x.Pool, y.Pool)
		}
		if x.Offset != y.Offset {
			return cmp.Compare(x.Offset, y.Offset)
		}
		return cmp.Compare(a, b)
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
				if errs.add(&OverlapError{A: o, B: r, NameA: g.Resources[o].Name, NameB: g.Resources[r].Name, Pool: pl.Pool,
					OffsetA: opl.Offset, SizeA: opl.Size, OffsetB: pl.Offset, SizeB: pl.Size}) {
					return
				}
			}
			aliased[o], aliased[r] = true, true
		}
		active = append(active[:w], r)
	}
	for _, r := range pooled {
		if p.Resources[r].Placement.Aliased != aliased[r] {
			detail := "aliased is false, but it shares bytes with another resource"
			if !aliased[r] {
				detail = "aliased is true, but it shares no byte with another resource"
			}
			if fail(r, p.Resources[r].Placement.Pool, "%s", detail) {
				return
			}
		}
	}
	switch {
	case !sumsOK:
		if fail(-1, -1, "the resources' sizes or the pool sizes add up to more than 2^64-1 bytes: the stats cannot hold them") {
			return
		}
	default:
		for _, x := range []struct {
			name      string
			got, want uint64
		}{{"transientBytes", p.Stats.TransientBytes, st.TransientBytes}, {"pooledBytes", p.Stats.PooledBytes, st.PooledBytes},
			{"dedicatedBytes", p.Stats.DedicatedBytes, st.DedicatedBytes}} {
			if x.got != x.want && fail(-1, -1, "stats: %s is %d, but the plan's resources add up to %d", x.name, x.got, x.want) {
				return
			}
		}
		// SPEC §3: pooling never costs more than the resources' own
		// allocations (each costs its required size).
		if poolsOK && st.PooledBytes > st.TransientBytes && fail(-1, -1, "the pools take %d bytes, more than the %d bytes their resources take alone: pooling must never cost more", st.PooledBytes, st.TransientBytes) {
			return
		}
	}
	// The DAG bound holds for plans that alias only DAG-ordered pairs; the
	// execution-order bound for every plan, and it is never above the DAG
	// bound (resources live at one position pairwise interfere).
	if len(p.Serializations) == 0 && p.Stats.LowerBound > p.Stats.PooledBytes {
		if fail(-1, -1, "stats: lowerBound %d exceeds pooledBytes %d", p.Stats.LowerBound, p.Stats.PooledBytes) {
			return
		}
	}
	if p.Stats.ExecutionBound > p.Stats.PooledBytes || p.Stats.ExecutionBound > p.Stats.LowerBound {
		if fail(-1, -1, "stats: executionBound %d exceeds pooledBytes %d or lowerBound %d",
			p.Stats.ExecutionBound, p.Stats.PooledBytes, p.Stats.LowerBound) {
			return
		}
	}
	// An execution or budget plan is made for its order: its execution
	// bound must be that order's (0: a file that does not record it). A
	// DAG plan stays valid in any topological order a caller gives it, so
	// its bound, that of the recorded order, is not recomputed.
	if want, ok := executionBound(c, p); ok && p.Ordering != OrderDAG && p.Stats.ExecutionBound != 0 && p.Stats.ExecutionBound != want {
		if fail(-1, -1, "stats: executionBound is %d, but the pooled resources' largest live totals in execution order add up to %d", p.Stats.ExecutionBound, want) {
			return
		}
	}
	verifyOrder(c, p, errs)
}

// article puts "a" or "an" before a word: "an image", "a buffer".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// describeRequirements writes requirements as a plan file names them.
func describeRequirements(q *Requirements) string {
	s := fmt.Sprintf("size %d, alignment %d, memoryTypeBits %#x", q.Size, q.Alignment, q.MemoryTypeBits)
	if q.PrefersDedicated {
		s += ", prefersDedicated"
	}
	if q.RequiresDedicated {
		s += ", requiresDedicated"
	}
	return s
}

// verifyOrder checks that Order is a permutation of the commands that
// respects every DAG edge.
func verifyOrder(c *Compiled, p *Plan, errs *errList) {
	n := len(c.Graph.Commands)
	if len(p.Order) != n {
		errs.add(&VerifyError{Pool: -1, Detail: fmt.Sprintf("order has %d commands, graph has %d", len(p.Order), n)})
		return
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			errs.add(&VerifyError{Pool: -1, Detail: fmt.Sprintf("order position %d: command %d is out of range or repeated", i, cmd)})
			return
		}
		pos[cmd] = i
	}
	for a := 0; a < n; a++ {
		for _, b := range c.Successors(CommandID(a)) {
			if pos[a] > pos[b] {
				if errs.add(&VerifyError{Pool: -1, Detail: fmt.Sprintf("order runs command %q before %q, which it depends on", c.Graph.Commands[b].Name, c.Graph.Commands[a].Name)}) {
					return
				}
			}
		}
	}
}
