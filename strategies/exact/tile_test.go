package exact

import (
	"os"
	"testing"
	"time"
)

// TestTileProbe (ALIASPLAN_TILE=variant) runs the tiler alone on the
// perfect family: a diagnostic.
func TestTileProbe(t *testing.T) {
	if os.Getenv("ALIASPLAN_TILE") == "" {
		t.Skip("ALIASPLAN_TILE unset")
	}
	lim := 3 * time.Second
	if v := os.Getenv("ALIASPLAN_TILE_LIMIT"); v != "" {
		lim, _ = time.ParseDuration(v)
	}
	solved, total := 0, time.Duration(0)
	for _, n := range []int{2000, 3000} {
		for s := 1; s <= 8; s++ {
			p := perfectProblem(uint64(s), n, 100_000, 1<<22)
			for ci, items := range components(p, nil) {
				m := buildModel(p, items, true, nil)
				if os.Getenv("ALIASPLAN_TILE_REV") != "" {
					m = m.reversed()
				}
				C := uint64(1 << 22)
				if !zeroWaste(m, C) {
					t.Fatalf("n=%d s=%d not zero-waste", n, s)
				}
				tl := newTiler(m, C)
				start := time.Now()
				dead := start.Add(lim)
				tl.stop = func() bool { return time.Now().After(dead) }
				rank := make([]int32, len(m.size))
				var st status
				r := 0
				for k := 1; time.Now().Before(dead); k++ {
					tileRank(m, r, rank)
					r++
					st = tl.run(luby(k)*int64(len(m.size)), rank)
					if st != aborted {
						break
					}
				}
				el := time.Since(start)
				if st == found {
					solved++
					total += el
				} else {
					total += lim
				}
				t.Logf("n=%d s=%d comp %d items %d sections %d: st=%d restarts %d nodes %d %v", n, s, ci, len(items), m.ntime, st, r, tl.nodes, el.Round(time.Millisecond))
			}
		}
	}
	t.Logf("solved %d/16, time %v", solved, total.Round(time.Millisecond))
}
