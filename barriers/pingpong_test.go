package barriers_test

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// pingPong is issue 19's chain: pass i writes b_i and reads b_{i-1}, so
// every buffer shares its bytes with every second one before it.
func pingPong(n int) *planner.Graph {
	f := &frame{}
	prev := planner.ResourceID(-1)
	for i := range n {
		b := f.buffer(fmt.Sprintf("b%d", i), 1<<16)
		acc := []planner.Access{use(b, compute, ssw)}
		if prev >= 0 {
			acc = append(acc, use(prev, compute, ssr))
		}
		f.cmd(fmt.Sprintf("pass%d", i), acc...)
		prev = b
	}
	return &f.g
}

// BenchmarkPingPong plans and checks the ping-pong chain: Compile, Place
// (first fit), Build and verify.Plan, the work of aliasplan plan and check.
// Old occupants are pruned nearest first, so this stays near-linear in
// the passes (it was about cubic: 15-17 s at 2,000 passes).
func BenchmarkPingPong(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		g := pingPong(n)
		b.Run(fmt.Sprintf("passes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := planner.Compile(g)
				if err != nil {
					b.Fatal(err)
				}
				p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
				if err != nil {
					b.Fatal(err)
				}
				if err := barriers.Build(c, p); err != nil {
					b.Fatal(err)
				}
				if err := verify.Plan(c, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
