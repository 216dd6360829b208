package interval

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSet inserts n random ranges, then runs LowestFit and BestFit
// queries and deletes them all.
func BenchmarkSet(b *testing.B) {
	for _, n := range []int{100, 10000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		rs := make([]Range, n)
		for i := range rs {
			a := rng.Uint64N(uint64(n) * 1000)
			rs[i] = Range{a, a + 1 + rng.Uint64N(1500)}
		}
		b.Run(fmt.Sprintf("op=insert-delete/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var s Set
			for b.Loop() {
				for _, r := range rs {
					s.Insert(r)
				}
				for _, r := range rs {
					s.Delete(r)
				}
			}
		})
		var s Set
		for _, r := range rs {
			s.Insert(r)
		}
		b.Run(fmt.Sprintf("op=lowestfit/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.LowestFit(200, 16, Everything)
			}
		})
		b.Run(fmt.Sprintf("op=bestfit/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.BestFit(200, 16, Everything)
			}
		})
	}
}

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
