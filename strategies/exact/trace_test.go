package exact

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTraceFamily (ALIASPLAN_TRACE=name, ALIASPLAN_FAMILIES=limit) logs
// every run of one generated instance: a diagnostic, it asserts nothing.
func TestTraceFamily(t *testing.T) {
	name := os.Getenv("ALIASPLAN_TRACE")
	if name == "" {
		t.Skip("ALIASPLAN_TRACE unset")
	}
	lim, err := time.ParseDuration(os.Getenv("ALIASPLAN_FAMILIES"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{500, 1000, 2000, 3000} {
		for _, f := range families(n, 2) { // ALIASPLAN_FAMILIES_SEED picks the seeds
			if f.name != name {
				continue
			}
			start := time.Now()
			traceRun = func(k int, kind string, c uint64, st status, deep int, peak uint64) {
				t.Logf("%6.2fs k=%d %-5s C=%d st=%d deep=%d/%d best=%d", time.Since(start).Seconds(), k, kind, c, st, deep, len(f.p.Items), peak)
			}
			traceWin = func(tries, wins, peaks, exh, abo, size int, below uint64) {
				t.Logf("%6.2fs windows tries %d found %d drops %d exhausted %d aborted %d size %d target peak-%d", time.Since(start).Seconds(), tries, wins, peaks, exh, abo, size, below)
			}
			traceWork = func(k, n int, nodes, budget, work, spans int64) {
				t.Logf("%6.2fs run k=%d n=%d nodes %d/%d work %d (%.0f a node, spans %d)", time.Since(start).Seconds(), k, n, nodes, budget, work, float64(work)/float64(max(nodes, 1)), spans)
			}
			tracePhases = func(mirror bool, ph map[string]time.Duration) {
				var b strings.Builder
				for _, k := range slices.Sorted(maps.Keys(ph)) {
					v := ph[k]
					switch {
					case strings.HasSuffix(k, "↓"), strings.HasSuffix(k, "↓bytes"):
						fmt.Fprintf(&b, " %s %d", k, int64(v))
					default:
						fmt.Fprintf(&b, " %s %.1fs", k, v.Seconds())
					}
				}
				t.Logf("phases (mirror %v):%s", mirror, b.String())
			}
			defer func() { traceRun, traceWin, tracePhases, traceWork = nil, nil, nil, nil }()
			_, res, err := New(Options{TimeLimit: lim}).Solve(f.p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v", res)
		}
	}
}
