package greedy

import "github.com/aliasplan/aliasplan/interval"

// aloneItems marks the interval items whose lifetimes (as slot ranges,
// see compress) overlap no other item's: nothing ever constrains them,
// so either fit rule puts them at the lowest aligned offset of the first
// pool, and run places them there without a Timeline query or insert (on
// n buffers with disjoint lifetimes, every item: no Timeline at all).
// Leaving them out of the Timeline changes no later answer, since no
// other item's lifetime overlaps theirs. nil when there is none. O(n +
// slots): the number of items live in each slot, from a difference
// array, and a prefix count of the slots where two or more are.
func aloneItems(life []interval.Range, slots int) []bool {
	live := make([]int32, slots+1)
	for _, l := range life {
		live[l.Start]++
		live[l.End]--
	}
	crowded := make([]int32, slots+1) // crowded[s]: slots below s with 2+ items live
	for s := range slots {
		if s > 0 {
			live[s] += live[s-1]
		}
		crowded[s+1] = crowded[s]
		if live[s] >= 2 {
			crowded[s+1]++
		}
	}
	var alone []bool
	for i, l := range life {
		if crowded[l.End] == crowded[l.Start] {
			if alone == nil {
				alone = make([]bool, len(life))
			}
			alone[i] = true
		}
	}
	return alone
}
