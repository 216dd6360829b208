package verify

import "github.com/aliasplan/aliasplan/planner"

// groupBound is one pool group's DAG lower bound, recomputed from the
// items verify built from the plan and the compiled DAG with
// planner.Compiled.GroupLowerBound: on large groups the flow over the
// DAG's network (what Place runs), without the group's interference
// matrix. (Under the invariants build tag GroupLowerBound also runs the
// item-pair network and panics if the two differ.)
func groupBound(c *planner.Compiled, members []planner.ResourceID, items []planner.Item) (uint64, error) {
	return c.GroupLowerBound(members, items)
}
