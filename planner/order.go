package planner

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"

	"github.com/aliasplan/aliasplan/interval"
)

// Ordering modes (SPEC §2). Under OrderDAG two resources may share bytes
// only when the DAG orders one entirely before the other. Under
// OrderExecution the plan's execution order decides: per pool group, a
// resource is live over the window of execution positions from its first
// use to its last, and two resources may share bytes when their windows
// are disjoint, so each group is an interval problem (NewIntervalProblem:
// no pairs stored) whose bound is the largest total size live at one
// position. A pair that shares bytes without a DAG order is a
// Serialization: the alias barrier before the later one's first use, whose
// source is the earlier one's terminal scope, is the dependency that
// orders them. OrderBudget (budget.go) keeps the DAG rule and releases
// only the pairs it needs to fit a byte budget.

// AliasOrder is one plan's aliasing order: a is before b when the DAG
// orders every terminal use of a before b's initial use (Compiled.Before),
// or when the plan lists (a, b) as a serialization. Two pooled resources
// of a plan may share bytes exactly when one is before the other. Verify
// checks the serializations themselves (verify_order.go); AliasOrder
// trusts them.
type AliasOrder struct {
	c   *Compiled
	ser []Serialization
}

// NewAliasOrder returns p's aliasing order over c. It keeps p's
// serializations, which must be ascending by (First, Second); a pair
// missing from an unsorted list is treated as unordered, so a malformed
// list can only make the order stricter.
func NewAliasOrder(c *Compiled, p *Plan) *AliasOrder {
	return &AliasOrder{c: c, ser: p.Serializations}
}

// Before reports whether a may hand its bytes to b: the DAG orders a
// entirely before b, or the plan serializes b after a.
func (o *AliasOrder) Before(a, b ResourceID) bool {
	return o.c.Before(a, b) || o.Serialized(a, b)
}

// Serialized reports whether the plan lists (a, b) as a serialization.
// O(log S).
func (o *AliasOrder) Serialized(a, b ResourceID) bool {
	k := sort.Search(len(o.ser), func(k int) bool {
		s := &o.ser[k]
		return s.First > a || s.First == a && s.Second >= b
	})
	return k < len(o.ser) && o.ser[k].First == a && o.ser[k].Second == b
}

// orderedGroup is one pool group as the execution and budget orders see
// it: its items, its DAG interference, the two problems, the DAG
// solution and the chosen one.
type orderedGroup struct {
	grp      group
	items    []Item
	dag      *bitMatrix // DAG interference of the members
	graph    *Problem   // the DAG problem
	interval *Problem   // the execution-order problem
	dagSol   *Solution  // the strategy's DAG solution: it costs no more than the sizes
	sol      *Solution
}

// test reports whether items i and j interfere in m.
func (m *bitMatrix) test(i, j int) bool {
	return m.bits[i*m.words+j>>6]&(1<<(uint(j)&63)) != 0
}

// addExecutionBound adds a group's execution-order bound, the largest
// total size live at one execution position, to the plan's (saturating).
func addExecutionBound(p *Plan, items []Item) {
	ok := true
	if p.Stats.ExecutionBound = addChecked(p.Stats.ExecutionBound, MaxLoad(items), &ok); !ok {
		p.Stats.ExecutionBound = ^uint64(0)
	}
}

// placeOrdered places every group under the execution or budget order and
// fills in pools, placements, both bounds and the ordering. Each group's
// members are first settled as under the DAG order (placeGroup: a member
// whose alignment padding would make pooling cost more than its own
// allocation is dedicated), which also gives the DAG solution and bound;
// any solution an ordered mode finds that costs more than the members'
// sizes gives way to that DAG solution, which is valid in every order.
func placeOrdered(c *Compiled, p *Plan, groups []group, pos []int64, opts Options) error {
	og := make([]orderedGroup, 0, len(groups))
	for _, grp := range groups {
		members := grp.members
		var prob *Problem
		var sol *Solution
		var bound uint64
		for len(members) > 0 {
			var err error
			if prob, sol, bound, err = solveGroup(c, p, members, pos, opts); err != nil {
				return err
			}
			if sol.Peak() <= sumSizes(prob.Items) {
				break
			}
			members = dedicateWorst(p, members)
		}
		if len(members) == 0 {
			continue
		}
		grp.members = members
		ip, err := NewIntervalProblem(prob.Items, opts.MaxPoolSize)
		if err != nil {
			return &PlacementError{Detail: "building the placement problem", Err: err}
		}
		og = append(og, orderedGroup{grp: grp, items: prob.Items, dag: &prob.adj, graph: prob, interval: ip, dagSol: sol})
		ok := true
		if p.Stats.LowerBound = addChecked(p.Stats.LowerBound, bound, &ok); !ok {
			p.Stats.LowerBound = ^uint64(0)
		}
		addExecutionBound(p, prob.Items)
	}
	switch opts.Order {
	case OrderExecution:
		for k := range og {
			sol, err := og[k].solve(c, og[k].interval, opts.Strategy)
			if err != nil {
				return err
			}
			og[k].sol = sol
		}
	case OrderBudget:
		if err := fitBudget(c, p, og, opts); err != nil {
			return err
		}
	}
	for k := range og {
		appendGroup(p, og[k].grp, og[k].sol)
	}
	return nil
}

// solve runs the strategy on one of the group's problems, checks its
// solution, and keeps the cheaper of it, no aliasing and (when it costs
// more than the members' sizes) the DAG solution.
func (o *orderedGroup) solve(c *Compiled, prob *Problem, s Strategy) (*Solution, error) {
	sol, err := s.Place(prob)
	if err != nil {
		return nil, &PlacementError{Detail: "strategy " + s.Name(), Err: err}
	}
	if err := CheckSolution(prob, sol); err != nil {
		if ov := (*OverlapError)(nil); errors.As(err, &ov) {
			ov.NameA, ov.NameB = c.Graph.Resources[o.grp.members[ov.A]].Name, c.Graph.Resources[o.grp.members[ov.B]].Name
		}
		return nil, fmt.Errorf("planner: strategy %s produced an invalid placement (a bug): %w", s.Name(), err)
	}
	if peak := sol.Peak(); peak > sumSizes(prob.Items) {
		if alt := NoAliasing(prob); alt.Peak() < peak {
			sol = alt
		}
		if sol.Peak() > sumSizes(prob.Items) {
			sol = o.dagSol
		}
	}
	return sol, nil
}

// appendGroup appends a group's pools and sets its members' placements
// (sumStats adds up the pool sizes).
func appendGroup(p *Plan, grp group, sol *Solution) {
	base := len(p.Pools)
	for k, size := range sol.PoolSizes {
		p.Pools = append(p.Pools, Pool{Index: base + k, MemoryTypeIndex: grp.memType, Class: grp.class, Size: size})
	}
	for i, r := range grp.members {
		q := &p.Resources[r].Requirements
		p.Resources[r].Placement = Placement{Pool: base + int(sol.Pool[i]), Offset: sol.Offset[i], Size: q.Size, Alignment: q.Alignment}
	}
}

// lastUse returns r's use with the latest execution position.
func lastUse(c *Compiled, r ResourceID, pos []int64) CommandID {
	us := c.Uses(r)
	last := us[0].Command
	for _, u := range us[1:] {
		if pos[u.Command] > pos[last] {
			last = u.Command
		}
	}
	return last
}

// findSerializations lists the pairs of pooled resources that share bytes
// although the DAG orders neither before the other, ascending by (First,
// Second). Each must be ordered by the execution order (all uses of the
// first before the second's initial use); a pair that is not is a bug in
// the placement and an error.
func findSerializations(c *Compiled, p *Plan, pos []int64) ([]Serialization, error) {
	var pooled []ResourceID
	for r := range p.Resources {
		if p.Resources[r].Status == StatusPooled {
			pooled = append(pooled, ResourceID(r))
		}
	}
	place := func(r ResourceID) *Placement { return &p.Resources[r].Placement }
	var out []Serialization
	for ko, kr := range interval.Overlaps(len(pooled), p.PlacedAt(pooled)) {
		o, r := pooled[ko], pooled[kr]
		po, pr := place(o), place(r)
		if c.Before(o, r) || c.Before(r, o) {
			continue
		}
		first, second := o, r
		if pos[c.Initial(r)[0]] < pos[c.Initial(o)[0]] {
			first, second = r, o
		}
		last, next := lastUse(c, first, pos), c.Initial(second)[0]
		if pos[last] >= pos[next] {
			return nil, fmt.Errorf("planner: resources %q and %q share bytes in pool %d but their uses interleave in execution order (a bug)",
				c.Graph.Resources[first].Name, c.Graph.Resources[second].Name, pr.Pool)
		}
		shared := min(po.Offset+po.Size, pr.Offset+pr.Size) - max(po.Offset, pr.Offset)
		out = append(out, Serialization{First: first, Second: second, Last: last, Next: next, Bytes: shared})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].First != out[j].First {
			return out[i].First < out[j].First
		}
		return out[i].Second < out[j].Second
	})
	return out, nil
}

// OrderedPairs measures the overlap a plan's serializations cost: the
// number of command pairs that the DAG leaves unordered and that the DAG
// together with the serializations' dependencies (Last before Next, one
// per serialization) orders. Two commands the DAG leaves unordered may run
// concurrently; each pair counted here no longer may. It needs p.Order (a
// topological order in which every serialization's Last precedes its
// Next); it returns -1 when p breaks that. Cost O(V·(E+S)·V/64) time and
// O(V²/64) memory.
func OrderedPairs(c *Compiled, p *Plan) int64 {
	n := len(c.Graph.Commands)
	if len(p.Serializations) == 0 {
		return 0
	}
	if len(p.Order) != n {
		return -1
	}
	pos := make([]int32, n)
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= n {
			return -1
		}
		pos[cmd] = int32(i)
	}
	// Extra edges, bucketed by source.
	extra := make([][]CommandID, n)
	for _, s := range p.Serializations {
		if s.Last < 0 || int(s.Last) >= n || s.Next < 0 || int(s.Next) >= n || pos[s.Last] >= pos[s.Next] {
			return -1
		}
		extra[s.Last] = append(extra[s.Last], s.Next)
	}
	words := (n + 63) / 64
	store := make([]uint64, n*words)
	var before, after int64
	for i := n - 1; i >= 0; i-- {
		a := p.Order[i]
		row := store[int(a)*words : (int(a)+1)*words]
		for _, succ := range [][]CommandID{c.Successors(a), extra[a]} {
			for _, b := range succ {
				if pos[b] <= pos[a] {
					return -1
				}
				row[b>>6] |= 1 << (uint(b) & 63)
				for w, x := range store[int(b)*words : (int(b)+1)*words] {
					row[w] |= x
				}
			}
		}
		for _, x := range row {
			after += int64(bits.OnesCount64(x))
		}
		ra, _ := c.reach.row(a)
		for _, x := range ra {
			before += int64(bits.OnesCount64(x))
		}
	}
	return after - before
}
