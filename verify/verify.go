package verify

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Error reports a plan that breaks a rule other than an overlap.
type Error struct {
	Resource string // the resource concerned, if any
	Pool     int    // the pool concerned, or -1
	Detail   string
}

func (e *Error) Error() string {
	s := "planner: verify: "
	if e.Resource != "" {
		s += fmt.Sprintf("resource %q: ", e.Resource)
	}
	if e.Pool >= 0 {
		s += fmt.Sprintf("pool %d: ", e.Pool)
	}
	return s + e.Detail
}

// Plan checks a complete plan against its compiled graph, independently
// of the strategy and barrier builder that made it: Placement, then
// the execution order and barrier coverage (every DAG edge, every layout
// change, every alias, the final layouts of imported images). A failure
// is a bug in whatever made the plan.
//
// Plan returns the first violation it finds; All lists them all.
func Plan(c *planner.Compiled, p *planner.Plan) error {
	if errs := All(c, p, 1); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// All is Plan reporting every violation it finds, up to max (0:
// no cap), in the order Verify checks. The barrier checks run only when
// the placement and the barriers' structure hold (they index what those
// checks establish); after a layout violation the image is taken to be in
// the layout its command needs, so later commands are still checked.
func All(c *planner.Compiled, p *planner.Plan, max int) []error {
	if c == nil || c.Graph == nil || p == nil {
		return []error{&Error{Pool: -1, Detail: "nil compiled graph or plan"}}
	}
	errs := &errList{max: max}
	if verifyPlacement(c, p, errs); len(errs.errs) > 0 {
		return errs.errs
	}
	verifyBarriersAll(c, p, errs)
	if max == 0 || len(errs.errs) < max {
		verifyFinal(c, p, errs)
	}
	if len(p.Entry) > 0 && (max == 0 || len(errs.errs) < max) {
		verifyEntry(c, p, errs) // sequence.go
	}
	return errs.errs
}

// Placement checks the memory side of a plan: statuses, pools,
// alignment, bounds, class separation, memory types, the Aliased flags,
// the stats (the lower bound recomputed), and that no two interfering
// resources share a byte. Cost O(R log R + byte-overlapping pairs)
// interference queries, plus planner.LowerBound per pool group.
func Placement(c *planner.Compiled, p *planner.Plan) error {
	if c == nil || c.Graph == nil || p == nil {
		return &Error{Pool: -1, Detail: "nil compiled graph or plan"}
	}
	errs := &errList{max: 1}
	if verifyPlacement(c, p, errs); len(errs.errs) > 0 {
		return errs.errs[0]
	}
	return nil
}

// verifyPlacement adds Placement's violations to errs, stopping at
// its cap.
func verifyPlacement(c *planner.Compiled, p *planner.Plan, errs *errList) {
	verifyPlacementBounds(c, p, errs, true)
}

// verifyPlacementBounds is verifyPlacement; with bounds false it leaves
// out recomputing the stats' lowerBound and executionBound (Resized
// proves them by identity with its anchor's).
func verifyPlacementBounds(c *planner.Compiled, p *planner.Plan, errs *errList, bounds bool) {
	g := c.Graph
	fail := func(r int, pool int, format string, args ...any) bool {
		name := ""
		if r >= 0 {
			name = g.Resources[r].Name
		}
		return errs.add(&Error{Resource: name, Pool: pool, Detail: fmt.Sprintf(format, args...)})
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
		if pl.Class != planner.ClassLinear && pl.Class != planner.ClassOptimal {
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
		ao = planner.NewAliasOrder(c, &planner.Plan{})
	}
	var st planner.Stats
	var reserved uint64 // the pooled resources' slots: Placement.Size, at least their sizes
	sumsOK := true
	used := make([]uint64, len(p.Pools)) // the end of each pool's highest resource
	members := make([]int, len(p.Pools))
	badPool := make([]bool, len(p.Pools)) // a member already reported: its size check would only echo that
	var pooled []int
	for r := range g.Resources {
		res, rp := &g.Resources[r], &p.Resources[r]
		want := planner.StatusPooled
		switch {
		case !c.Used(planner.ResourceID(r)):
			want = planner.StatusUnused
		case res.Imported:
			want = planner.StatusImported
		case res.Memory.HostVisible():
			want = planner.StatusHostVisible
		case rp.Requirements.RequiresDedicated || res.Dedicated:
			want = planner.StatusDedicated
		case rp.Requirements.PrefersDedicated && rp.Status != planner.StatusPooled:
			// A preference: pooled only when the caller opted in
			// (Options.PoolPrefersDedicated), which the plan does not record.
			want = planner.StatusDedicated
		}
		if res.Requirements != nil && (want == planner.StatusPooled || want == planner.StatusDedicated || want == planner.StatusHostVisible) && rp.Requirements != *res.Requirements {
			if fail(r, -1, "plan requirements (%s) differ from the graph's (%s)", describeRequirements(&rp.Requirements), describeRequirements(res.Requirements)) {
				return
			}
			continue
		}
		// A pooled candidate may still be dedicated by size (threshold,
		// maximum pool size, alignment padding): options and decisions
		// the plan does not record.
		if rp.Status != want && !(want == planner.StatusPooled && rp.Status == planner.StatusDedicated) {
			if fail(r, -1, "status %s, want %s", rp.Status, want) {
				return
			}
			continue
		}
		switch rp.Status {
		case planner.StatusDedicated, planner.StatusHostVisible:
			st.DedicatedBytes = addChecked(st.DedicatedBytes, rp.Requirements.Size, &sumsOK)
			continue
		case planner.StatusPooled:
		default:
			continue
		}
		q, pl := &rp.Requirements, &rp.Placement
		st.TransientBytes = addChecked(st.TransientBytes, q.Size, &sumsOK)
		reserved = addChecked(reserved, max(q.Size, rp.Placement.Size), &sumsOK)
		if pl.Pool < 0 || pl.Pool >= len(p.Pools) {
			if fail(r, -1, "pool %d does not exist", pl.Pool) {
				return
			}
			continue
		}
		pool := &p.Pools[pl.Pool]
		var bad bool
		switch {
		case res.Kind == planner.KindImage && res.Image.InitialLayout != vk.LayoutUndefined:
			bad = true
			if fail(r, pl.Pool, "pooled image with initial layout %s (must be UNDEFINED)", res.Image.InitialLayout) {
				return
			}
		case pl.Size < q.Size || pl.Alignment != q.Alignment:
			// Size is the bytes reserved: the required size, or an anchor's
			// larger slot in a resized plan (planner.Resize).
			bad = true
			if fail(r, pl.Pool, "placement size/alignment %d/%d do not hold the requirements %d/%d", pl.Size, pl.Alignment, q.Size, q.Alignment) {
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
	// Every pair sharing a byte must not interfere, and exactly those
	// resources are Aliased.
	aliased := make([]bool, len(g.Resources))
	at := func(k int) interval.Placed {
		pl := &p.Resources[pooled[k]].Placement
		return interval.Placed{Group: pl.Pool, Range: interval.Range{Start: pl.Offset, End: pl.Offset + pl.Size}}
	}
	for ko, kr := range interval.Overlaps(len(pooled), at) {
		o, r := pooled[ko], pooled[kr]
		opl, pl := &p.Resources[o].Placement, &p.Resources[r].Placement
		if !ao.Before(planner.ResourceID(o), planner.ResourceID(r)) && !ao.Before(planner.ResourceID(r), planner.ResourceID(o)) {
			if errs.add(&planner.OverlapError{A: o, B: r, NameA: g.Resources[o].Name, NameB: g.Resources[r].Name, Pool: pl.Pool,
				OffsetA: opl.Offset, SizeA: opl.Size, OffsetB: pl.Offset, SizeB: pl.Size, Note: impliedNote(c, o, r)}) {
				return
			}
		}
		aliased[o], aliased[r] = true, true
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
		// allocations (each costs its required size; in a resized plan,
		// its anchor's slot, for which the anchor met this rule).
		if poolsOK && st.PooledBytes > reserved && fail(-1, -1, "the pools take %d bytes, more than the %d bytes their resources take alone: pooling must never cost more", st.PooledBytes, reserved) {
			return
		}
	}
	if !bounds {
		verifyOrder(c, p, errs)
		return
	}
	// Both bounds are recomputed, not only bounded: lowerBound is the
	// DAG bound of §3 (planner.LowerBound per pool group), executionBound
	// the largest live total per group in the plan's order for execution
	// and budget plans, in recorded order for DAG plans (Place computes it
	// there; a DAG plan stays valid in any topological order). A DAG plan
	// may leave it 0: files written before the field existed read so.
	boundWrong := false
	if want, ok := lowerBound(c, p); ok && p.Stats.LowerBound != want {
		boundWrong = true
		if fail(-1, -1, "stats: lowerBound is %d, but the pool groups' exact bounds add up to %d", p.Stats.LowerBound, want) {
			return
		}
	}
	if p.Ordering == planner.OrderDAG {
		recorded := *p
		recorded.Order = make([]planner.CommandID, len(g.Commands))
		for i := range recorded.Order {
			recorded.Order[i] = planner.CommandID(i)
		}
		if want, ok := executionBound(c, &recorded); ok && p.Stats.ExecutionBound != 0 && p.Stats.ExecutionBound != want {
			if fail(-1, -1, "stats: executionBound is %d, but the pooled resources' largest live totals in recorded order add up to %d", p.Stats.ExecutionBound, want) {
				return
			}
		}
	}
	// The DAG bound holds for plans that alias only DAG-ordered pairs; the
	// execution-order bound for every plan, and it is never above the DAG
	// bound (resources live at one position pairwise interfere).
	if !boundWrong && len(p.Serializations) == 0 && p.Stats.LowerBound > p.Stats.PooledBytes {
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
	// bound must be that order's.
	if want, ok := executionBound(c, p); ok && p.Ordering != planner.OrderDAG && p.Stats.ExecutionBound != want {
		if fail(-1, -1, "stats: executionBound is %d, but the pooled resources' largest live totals in execution order add up to %d", p.Stats.ExecutionBound, want) {
			return
		}
	}
	verifyOrder(c, p, errs)
}

// lowerBound recomputes the plan's DAG lower bound: per pool group (the
// pooled resources of one memory type and class, as Place groups them),
// planner.LowerBound of the group's graph problem, saturating when summed
// as Place sums it. It reports false when the plan's pools or sizes are
// too broken to group (those are reported already).
func lowerBound(c *planner.Compiled, p *planner.Plan) (uint64, bool) {
	type key struct {
		memType uint32
		class   planner.Class
	}
	var keys []key
	var members [][]planner.ResourceID
	var items [][]planner.Item
	for r := range p.Resources {
		rp := &p.Resources[r]
		if rp.Status != planner.StatusPooled || !c.Used(planner.ResourceID(r)) || c.Graph.Resources[r].Imported {
			continue
		}
		if rp.Placement.Pool < 0 || rp.Placement.Pool >= len(p.Pools) {
			return 0, false
		}
		pool := &p.Pools[rp.Placement.Pool]
		k := key{pool.MemoryTypeIndex, pool.Class}
		g := slices.Index(keys, k)
		if g < 0 {
			keys, members, items = append(keys, k), append(members, nil), append(items, nil)
			g = len(keys) - 1
		}
		// Windows in recorded order, as Place gives them; the bound does
		// not depend on them beyond their order.
		// The slot as placed: the required size, or a resized plan's anchor slot.
		it := planner.Item{Size: max(rp.Requirements.Size, rp.Placement.Size), Alignment: rp.Requirements.Alignment, Start: 1 << 62, End: -1}
		for _, u := range c.Uses(planner.ResourceID(r)) {
			it.Start = min(it.Start, int64(u.Command))
			it.End = max(it.End, int64(u.Command)+1)
		}
		members[g] = append(members[g], planner.ResourceID(r))
		items[g] = append(items[g], it)
	}
	var total uint64
	ok := true
	for g := range keys {
		b, err := groupBound(c, members[g], items[g])
		if err != nil {
			return 0, false
		}
		if total = addChecked(total, b, &ok); !ok {
			total = ^uint64(0)
		}
	}
	return total, true
}

// article puts "a" or "an" before a word: "an image", "a buffer".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// describeRequirements writes requirements as a plan file names them.
func describeRequirements(q *planner.Requirements) string {
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
func verifyOrder(c *planner.Compiled, p *planner.Plan, errs *errList) {
	n := len(c.Graph.Commands)
	if len(p.Order) != n {
		errs.add(&Error{Pool: -1, Detail: fmt.Sprintf("order has %d commands, graph has %d", len(p.Order), n)})
		return
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			errs.add(&Error{Pool: -1, Detail: fmt.Sprintf("order position %d: command %d is out of range or repeated", i, cmd)})
			return
		}
		pos[cmd] = i
	}
	for a := 0; a < n; a++ {
		for _, b := range c.Successors(planner.CommandID(a)) {
			if pos[a] > pos[b] {
				if errs.add(&Error{Pool: -1, Detail: fmt.Sprintf("order runs command %q before %q, which it depends on", c.Graph.Commands[b].Name, c.Graph.Commands[a].Name)}) {
					return
				}
			}
		}
	}
}

// errList collects violations up to a cap (0: no cap).
type errList struct {
	errs []error
	max  int
}

// add appends err and reports whether the cap is reached.
func (l *errList) add(err error) bool {
	l.errs = append(l.errs, err)
	return l.max > 0 && len(l.errs) >= l.max
}

// addChecked returns a+b and clears *ok when the sum wraps.
func addChecked(a, b uint64, ok *bool) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		*ok = false
	}
	return s
}

func isPow2(x uint64) bool { return x != 0 && x&(x-1) == 0 }

// impliedNote names the implied reads (planner/asrefs.go) of a and b, which
// no declared access shows: "" when neither has one.
func impliedNote(c *planner.Compiled, a, b int) string {
	var notes []string
	for _, r := range []int{a, b} {
		var by []string
		for _, u := range c.Uses(planner.ResourceID(r)) {
			if u.Implied {
				by = append(by, fmt.Sprintf("%q", c.Graph.Commands[u.Command].Name))
			}
		}
		if by != nil {
			notes = append(notes, fmt.Sprintf("%q is read through an acceleration structure that refers to it by %s", c.Graph.Resources[r].Name, strings.Join(by, ", ")))
		}
	}
	return strings.Join(notes, "; ")
}
