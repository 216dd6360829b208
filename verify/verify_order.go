package verify

import (
	"fmt"
	"github.com/aliasplan/aliasplan/planner"
	"slices"
)

// verifySerializations checks a plan's ordering and serializations
// against the compiled graph and the execution order, and returns the
// aliasing order the rest of Verify uses:
//
//   - the ordering is known; a DAG-order plan has no serializations and no
//     budget, a budget plan a budget its pooled bytes meet;
//   - the list is strictly ascending by (First, Second);
//   - each serialization names two used, pooled resources of one pool that
//     share exactly Bytes bytes and that the DAG orders neither way;
//   - Next is Second's initial use and Last is First's last use in
//     execution order, and Last runs before Next: every use of First comes
//     before every use of Second.
//
// That every byte-sharing pair the DAG leaves unordered is listed is
// checked by the overlap sweep of Placement, which lets a pair share
// bytes only when the returned order puts one before the other; that the
// alias barrier before Next orders First's uses before it is checked with
// the other alias pairs (verify_barriers.go).
func verifySerializations(c *planner.Compiled, p *planner.Plan) (*planner.AliasOrder, error) {
	g := c.Graph
	fail := func(k int, format string, args ...any) error {
		d := fmt.Sprintf(format, args...)
		if k >= 0 {
			d = fmt.Sprintf("serialization %d: %s", k, d)
		}
		return &Error{Pool: -1, Detail: d}
	}
	switch p.Ordering {
	case planner.OrderDAG:
		if len(p.Serializations) > 0 {
			return nil, fail(-1, "a plan under the DAG order lists %d serializations", len(p.Serializations))
		}
		if p.Budget != 0 {
			return nil, fail(-1, "a plan under the DAG order has a budget")
		}
	case planner.OrderExecution:
		if p.Budget != 0 {
			return nil, fail(-1, "a plan under the execution order has a budget")
		}
	case planner.OrderBudget:
		if p.Budget == 0 {
			return nil, fail(-1, "a budget plan without a budget")
		}
		if p.Stats.PooledBytes > p.Budget {
			return nil, fail(-1, "pooled bytes %d exceed the budget %d", p.Stats.PooledBytes, p.Budget)
		}
	default:
		return nil, fail(-1, "unknown ordering %s", p.Ordering)
	}
	if len(p.Serializations) == 0 {
		return planner.NewAliasOrder(c, p), nil
	}
	n := len(g.Commands)
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	if len(p.Order) != n {
		return nil, fail(-1, "the order has %d commands, the graph %d, so no serialization can be checked", len(p.Order), n)
	}
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n || pos[cmd] >= 0 {
			return nil, fail(-1, "the order is not a permutation of the commands, so no serialization can be checked")
		}
		pos[cmd] = i
	}
	nr := planner.ResourceID(len(g.Resources))
	for k, s := range p.Serializations {
		if s.First < 0 || s.First >= nr || s.Second < 0 || s.Second >= nr || s.First == s.Second {
			return nil, fail(k, "resources %d and %d are not two resources of the graph", s.First, s.Second)
		}
		if k > 0 {
			q := p.Serializations[k-1]
			if q.First > s.First || q.First == s.First && q.Second >= s.Second {
				return nil, fail(k, "serializations are not ascending by (first, second) and distinct")
			}
		}
		a, b := &p.Resources[s.First], &p.Resources[s.Second]
		an, bn := g.Resources[s.First].Name, g.Resources[s.Second].Name
		if a.Status != planner.StatusPooled || b.Status != planner.StatusPooled || !c.Used(s.First) || !c.Used(s.Second) {
			return nil, fail(k, "%q (%s) and %q (%s) are not both used and pooled", an, a.Status, bn, b.Status)
		}
		pa, pb := &a.Placement, &b.Placement
		lo, hi := max(pa.Offset, pb.Offset), min(pa.Offset+pa.Size, pb.Offset+pb.Size)
		if pa.Pool != pb.Pool || lo >= hi {
			return nil, fail(k, "%q and %q share no bytes", an, bn)
		}
		if s.Bytes != hi-lo {
			return nil, fail(k, "%q and %q share %d bytes, not %d", an, bn, hi-lo, s.Bytes)
		}
		if c.Before(s.First, s.Second) || c.Before(s.Second, s.First) {
			return nil, fail(k, "the DAG already orders %q and %q: not a serialization", an, bn)
		}
		if s.Last < 0 || int(s.Last) >= n || s.Next < 0 || int(s.Next) >= n {
			return nil, fail(k, "commands %d and %d are not two commands of the graph", s.Last, s.Next)
		}
		if s.Next != c.Initial(s.Second)[0] {
			return nil, fail(k, "next is command %d, not %q's initial use %q", s.Next, bn, g.Commands[c.Initial(s.Second)[0]].Name)
		}
		last := s.Last
		for _, u := range c.Uses(s.First) {
			if pos[u.Command] > pos[last] {
				last = u.Command
			}
		}
		if last != s.Last {
			return nil, fail(k, "last is command %d, not %q's last use in execution order %q", s.Last, an, g.Commands[last].Name)
		}
		if pos[s.Last] >= pos[s.Next] {
			return nil, &planner.BarrierError{Before: g.Commands[s.Next].Name, After: g.Commands[s.Last].Name, Resource: bn, Previous: an, Barrier: -1,
				Rule: planner.RuleOrder, Detail: "the two share bytes but their uses interleave in execution order"}
		}
	}
	return planner.NewAliasOrder(c, p), nil
}

// executionBound recomputes a plan's execution-order bound: its pooled
// resources grouped by their pools' (memory type, class), the pool groups
// Place makes, each group's largest total size live at one position of
// p.Order (MaxLoad of the windows [first use, last use + 1)), summed
// (saturating). ok is false when the order or a placement is malformed
// (other checks report that).
func executionBound(c *planner.Compiled, p *planner.Plan) (uint64, bool) {
	n := len(c.Graph.Commands)
	if len(p.Order) != n || len(p.Resources) != len(c.Graph.Resources) {
		return 0, false
	}
	pos := make([]int64, n)
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n {
			return 0, false
		}
		pos[cmd] = int64(i)
	}
	type key struct {
		memType uint32
		class   planner.Class
	}
	var keys []key
	var items [][]planner.Item
	for r := range p.Resources {
		rp := &p.Resources[r]
		if rp.Status != planner.StatusPooled || !c.Used(planner.ResourceID(r)) {
			continue
		}
		if rp.Placement.Pool < 0 || rp.Placement.Pool >= len(p.Pools) {
			return 0, false
		}
		pool := &p.Pools[rp.Placement.Pool]
		k := key{pool.MemoryTypeIndex, pool.Class}
		g := slices.Index(keys, k)
		if g < 0 {
			keys, items = append(keys, k), append(items, nil)
			g = len(keys) - 1
		}
		it := planner.Item{Size: max(rp.Requirements.Size, rp.Placement.Size), Start: 1 << 62, End: -1} // the slot as placed
		for _, u := range c.Uses(planner.ResourceID(r)) {
			it.Start = min(it.Start, pos[u.Command])
			it.End = max(it.End, pos[u.Command]+1)
		}
		items[g] = append(items[g], it)
	}
	var total uint64
	ok := true
	for _, its := range items {
		if total = addChecked(total, planner.MaxLoad(its), &ok); !ok {
			return ^uint64(0), true
		}
	}
	return total, true
}
