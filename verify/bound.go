package verify

import (
	"fmt"

	"github.com/aliasplan/aliasplan/internal/invariants"
	"github.com/aliasplan/aliasplan/planner"
)

// groupBound is one pool group's DAG lower bound, recomputed from the
// items verify built from the plan and the compiled DAG with
// planner.Compiled.GroupLowerBound: on large groups the flow over the
// DAG's network (what Place runs), without the group's interference
// matrix. Under the invariants build tag it also runs the item-pair
// network on the interference matrix (GroupProblem, a different
// construction of the same order) and panics if the two differ: a
// cross-check of the planner's network that normal builds skip for its
// P²/8 bytes and n²/64 word operations.
func groupBound(c *planner.Compiled, members []planner.ResourceID, items []planner.Item) (uint64, error) {
	b, err := c.GroupLowerBound(members, items)
	if err != nil || !invariants.Enabled {
		return b, err
	}
	prob, err := c.GroupProblem(members, items, 0)
	if err != nil {
		return 0, err
	}
	if pairs := planner.LowerBound(prob); pairs != b {
		panic(fmt.Sprintf("verify: the DAG network's lower bound %d differs from the item-pair network's %d", b, pairs))
	}
	return b, nil
}
