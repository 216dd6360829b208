package proptest

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// BenchmarkCompileMipChains: Compile on n bloom-like chains of per-mip
// accesses (n = 10: 210 of them) against the same commands with
// whole-image GENERAL accesses. Issue 23's target: within 2×. (Place
// refuses partial ranges until the barriers serve them, so Compile is
// the stage measured.)
func BenchmarkCompileMipChains(b *testing.B) {
	for _, n := range []int{10, 100} {
		for _, general := range []bool{false, true} {
			g := MipChains(n, general)
			kind := "ranges"
			if general {
				kind = "general"
			}
			b.Run(fmt.Sprintf("chains=%d/access=%s", n, kind), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := planner.Compile(g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPlanMipChains: the whole per-frame cost (Compile, Place,
// barriers and verify, as aliasplan.Planner.PlanCompiled pays it) on n
// bloom-like chains of per-mip accesses (n = 10: 210 of them) against the
// same commands with whole-image GENERAL accesses (no reuse of an
// earlier frame's plan). Issue 23's target: within 2×.
func BenchmarkPlanMipChains(b *testing.B) {
	for _, n := range []int{10} {
		for _, general := range []bool{false, true} {
			g := &aliasplan.Graph{Graph: *MipChains(n, general)}
			kind := "ranges"
			if general {
				kind = "general"
			}
			pl := aliasplan.New(aliasplan.Options{Strategy: firstfit.New(), Reuse: aliasplan.NoReuse})
			b.Run(fmt.Sprintf("chains=%d/access=%s", n, kind), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					if _, _, err := pl.PlanCompiled(g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
