package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/internal/invariants"
)

// pairNetworkItems is the group size below which GroupLowerBound links
// item pairs on the interference matrix: there the matrix (n²/8 bytes)
// and its successor rows cost less than a flow over every command of the
// DAG (2V more nodes; BenchmarkVerify at 1,000 commands ran 2× slower on
// the DAG's network, 30,000 commands 3.6× faster).
const pairNetworkItems = 2048

// GroupLowerBound is LowerBound of one pool group's graph problem
// (members[i] is items[i], as GroupProblem takes them). From
// pairNetworkItems members up it runs the flow on the DAG's network, as
// Place does, without building the group's P²/8-byte interference
// matrix: O(n + V + E) memory and the flow's time. Smaller groups, and a
// group with a member that does not have exactly one initial use (not a
// transient as Compile makes them), link item pairs on the matrix. The
// two networks give the same bound (TestLowerBoundDAGOrder). The verify
// package recomputes a plan's lower bound with it. Under the invariants
// build tag a DAG-network bound is checked against the item-pair
// network's (a panic if they differ).
func (c *Compiled) GroupLowerBound(members []ResourceID, items []Item) (uint64, error) {
	if len(members) != len(items) {
		return 0, fmt.Errorf("planner: %d members, %d items", len(members), len(items))
	}
	p := &Problem{Items: items}
	if err := p.check(); err != nil {
		return 0, err
	}
	if len(members) >= pairNetworkItems {
		p.order = c.beforeOrder(members)
	}
	if p.order == nil {
		p.adj = c.groupInterference(members)
		return LowerBound(p), nil
	}
	b := LowerBound(p)
	if invariants.Enabled {
		// The item-pair network, a different construction of the same
		// order, must agree (make test checks every verified plan so).
		q := &Problem{Items: items, adj: c.groupInterference(members)}
		if pairs := LowerBound(q); pairs != b {
			panic(fmt.Sprintf("planner: invariant: the DAG network's lower bound %d differs from the item-pair network's %d", b, pairs))
		}
	}
	return b, nil
}
