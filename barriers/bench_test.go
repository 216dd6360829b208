package barriers_test

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
)

// benchPlan is a seeded random frame of n commands, placed with heavy
// aliasing, without barriers.
func benchPlan(b *testing.B, n int) (*planner.Compiled, *planner.Plan) {
	b.Helper()
	g := randomFrame(rand.New(rand.NewPCG(uint64(n), 1)), n, n*3/4)
	c, err := planner.Compile(g)
	if err != nil {
		b.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: greedy{}})
	if err != nil {
		b.Fatal(err)
	}
	return c, p
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("commands=%d", n), func(b *testing.B) {
			c, p := benchPlan(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if err := barriers.Build(c, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("commands=%d", n), func(b *testing.B) {
			c, p := benchPlan(b, n)
			if err := barriers.Build(c, p); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := verify.Plan(c, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDependencies(b *testing.B) {
	c, p := benchPlan(b, 1000)
	if err := barriers.Build(c, p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		barriers.Dependencies(c.Graph, p)
	}
}
