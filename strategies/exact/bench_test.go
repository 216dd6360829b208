package exact_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/strategies/exact"
)

// BenchmarkPerfect solves each perfect packing to its proven optimum, with
// a node budget (so every iteration does the same work).
func BenchmarkPerfect(b *testing.B) {
	for _, file := range glob(b, datadir.Perfect) {
		p := readProblem(b, file)
		b.Run(strings.TrimSuffix(filepath.Base(file), ".csv"), func(b *testing.B) {
			b.ReportAllocs()
			s := exact.New(exact.Options{NodeLimit: 200_000})
			for b.Loop() {
				if _, res, err := s.Solve(p); err != nil || !res.Optimal {
					b.Fatal(err, res)
				}
			}
		})
	}
}

// BenchmarkFrames plans each frame but random-1000 with the exact strategy
// (grouping, greedy incumbents, search, bound).
func BenchmarkFrames(b *testing.B) {
	for _, file := range glob(b, datadir.Frames) {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		if name == "random-1000" {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			s := exact.New(exact.Options{NodeLimit: 20_000})
			for b.Loop() {
				planFrame(b, file, s)
			}
		})
	}
}

// BenchmarkRandom solves seeded random problems of growing size with a
// fixed node budget.
func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{50, 200} {
		for _, graph := range []bool{false, true} {
			p := randomProblem(1, n, graph)
			b.Run(fmt.Sprintf("n=%d/graph=%v", n, graph), func(b *testing.B) {
				b.ReportAllocs()
				s := exact.New(exact.Options{NodeLimit: 5000})
				for b.Loop() {
					if _, _, err := s.Solve(p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
