package interval

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkTimeline places n random rectangles first fit, as an interval
// allocator does.
func BenchmarkTimeline(b *testing.B) {
	for _, n := range []int{1000, 30000} {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		slots := n
		lives := make([]Range, n)
		sizes := make([]uint64, n)
		for i := range lives {
			a := rng.Uint64N(uint64(slots))
			lives[i] = Range{a, a + 1 + rng.Uint64N(min(uint64(slots)-a, 200))}
			sizes[i] = 1 + rng.Uint64N(1<<uint(rng.IntN(20)))
		}
		for _, mode := range []string{"lowest", "best"} {
			b.Run(fmt.Sprintf("fit=%s/n=%d", mode, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					tl := NewTimeline(slots)
					for i, life := range lives {
						var off uint64
						if mode == "lowest" {
							off, _ = tl.LowestFit(life, sizes[i], 1, Everything)
						} else {
							off, _ = tl.BestFit(life, sizes[i], 1, Everything)
						}
						tl.Insert(life, Range{off, off + sizes[i]})
					}
				}
			})
		}
	}
}
