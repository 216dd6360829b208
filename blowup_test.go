package aliasplan_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/proptest"
)

// BenchmarkTokenPasses plans two passes of n buffers ordered by a token
// (proptest.TokenPasses, issue 19): every buffer of the first pass is
// entirely before every buffer of the second, n² pairs of the order and
// one DAG edge. The lower bound's network once linked every pair (18.8 GB
// at n = 30,000); it follows the DAG now. ALIASPLAN_TOKENS=30000 (a
// comma-separated list) overrides the sizes; peak memory is measured on
// the CLI (docs/performance.md).
func BenchmarkTokenPasses(b *testing.B) {
	for _, n := range envSizes("ALIASPLAN_TOKENS", []int{2000, 6000}) {
		g := proptest.TokenPasses(1, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pl := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pl.Plan(&aliasplan.Graph{Graph: *g}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// envSizes reads a comma-separated list of sizes from the environment
// variable name, or returns def.
func envSizes(name string, def []int) []int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}
