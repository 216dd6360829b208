package greedy

import "github.com/aliasplan/aliasplan/planner"

// orderOf is o's permutation of e's problem as run places it. Where some
// items are alone in time (aloneItems), only the others are ranked: the
// order is ranked on the sub-problem of the items that are not alone
// (their indexes mapped back), and the alone items go first, by index.
// That places every item where o's full permutation would: an alone item
// lands at the lowest aligned offset of pool 0 whenever it comes (nothing
// constrains it, and it constrains nothing, since no Timeline sees it),
// and the others keep their relative order, because every order compares
// items by their own fields, ties by index, and an item's load (byLoad)
// is a sum over the items live with it, which no alone item is. On n
// disjoint lifetimes this skips the orders' sorts of all n items.
func (e *engine) orderOf(o Order) []int32 {
	if e.alone == nil {
		return o.perm(e.p)
	}
	ord := make([]int32, 0, len(e.p.Items))
	var rest []int32 // the items that are not alone, ascending
	for i, a := range e.alone {
		if a {
			ord = append(ord, int32(i))
		} else {
			rest = append(rest, int32(i))
		}
	}
	if len(rest) == 0 {
		return ord
	}
	items := make([]planner.Item, len(rest))
	for k, i := range rest {
		items[k] = e.p.Items[i]
	}
	// The items passed e.p's checks already, so this cannot fail.
	sub, err := planner.NewIntervalProblem(items, e.p.MaxPoolSize)
	if err != nil {
		panic("greedy: sub-problem of a checked problem: " + err.Error())
	}
	for _, k := range o.perm(sub) {
		ord = append(ord, rest[k])
	}
	return ord
}

// allAlone reports whether every item is alone in time: then every order
// places every item at the same offset, and one run answers for all.
func (e *engine) allAlone() bool {
	if e.alone == nil {
		return false
	}
	for _, a := range e.alone {
		if !a {
			return false
		}
	}
	return true
}
