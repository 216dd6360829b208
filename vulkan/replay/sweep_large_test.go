package replay

// sweepScale is the size of random graph seed in TestSweep: make test's
// 30 graphs (heavy false, or seed <= 30) are randomGraph's small ones (8-17
// commands); make replay-sweep's further graphs grow, so that its 200
// reach 1,000 commands: every 25th is scaled 58 times (464-986 commands,
// 348-522 transients in four pools' worth of buffers and images), the
// others 2 to 8 times (16-136 commands).
func sweepScale(seed uint64, heavy bool) int {
	switch {
	case !heavy || seed <= 30:
		return 1
	case seed%25 == 0:
		return 58
	}
	return 2 + int(seed%7)
}
