// Package strategytest is the contract suite that every placement strategy
// (planner.Strategy) passes. A strategy's tests call
//
//	func TestContract(t *testing.T) { strategytest.Run(t, firstfit.New) }
//
// Run checks each solution with planner.CheckSolution and again with Check,
// its own pairwise check (exported for other tests), so a bug in one
// checker does not hide a bug in a strategy. Byte ranges are half-open: an item at Offset occupies
// [Offset, Offset+Size).
//
// Cost: every problem has at most a few dozen items; the checks are O(n²)
// per problem. The problems are built from fixed seeds (math/rand/v2 PCG),
// so a failure reproduces.
package strategytest
