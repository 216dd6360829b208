package exact

import (
	"os"
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
		for _, f := range families(n, 2) {
			if f.name != name {
				continue
			}
			start := time.Now()
			traceRun = func(k int, kind string, c uint64, st status, deep int, peak uint64) {
				t.Logf("%6.2fs k=%d %-5s C=%d st=%d deep=%d/%d best=%d", time.Since(start).Seconds(), k, kind, c, st, deep, len(f.p.Items), peak)
			}
			defer func() { traceRun = nil }()
			_, res, err := New(Options{TimeLimit: lim}).Solve(f.p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v", res)
		}
	}
}
