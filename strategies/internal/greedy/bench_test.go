package greedy

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// BenchmarkPlace places seeded random problems with the strategies'
// orders: graph problems sparse (interference only where lifetimes overlap)
// and dense (as render-graph frames are), and the same items as an
// interval problem.
func BenchmarkPlace(b *testing.B) {
	for _, n := range []int{200, 1000} {
		for _, extra := range []float64{0, 0.9} {
			gp, err := randomGraph(7, n, extra, 0)
			if err != nil {
				b.Fatal(err)
			}
			probs := map[string]*planner.Problem{fmt.Sprintf("kind=graph/extra=%g", extra): gp}
			if extra == 0 {
				ip, err := planner.NewIntervalProblem(gp.Items, 0)
				if err != nil {
					b.Fatal(err)
				}
				probs["kind=interval"] = ip
			}
			for name, p := range probs {
				for _, fit := range fits {
					b.Run(fmt.Sprintf("%s/n=%d/fit=%v", name, n, fit), func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							if _, err := Place("bench", p, fit, Size, Load, SizeClass); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}
