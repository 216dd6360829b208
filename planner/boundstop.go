package planner

// LowerBoundUntil is LowerBound that gives up when stop reports true,
// for callers with a time limit (the exact strategy). stop is asked
// often enough that a true answer returns within a few milliseconds on
// the largest problems (every 64 rows of the item-pair network's
// successor rows and links, every 64 augmenting paths and every phase
// of the flow); it may be called from the goroutine LowerBoundUntil runs
// on. The bound is LowerBound's and ok is true when it finished; 0 and
// false when stop cut it short. Interval problems (MaxLoad, O(n log n))
// never stop.
func LowerBoundUntil(p *Problem, stop func() bool) (bound uint64, ok bool) {
	if p.intervals {
		return MaxLoad(p.Items), true
	}
	w, _, ok := maxAntichainUntil(p, stop)
	return w, ok
}
