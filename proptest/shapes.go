package proptest

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
)

// The shapes below are the scale cases of issue 19 ("no quadratic
// blow-up"), seeded so that benchmarks and scripts/genframe rebuild the
// same inputs.

// TokenPasses builds two passes of n buffers each, ordered only by a
// token: pass "a" writes a0…a(n−1) and the token, pass "b" reads the token
// and writes b0…b(n−1). Every a is entirely before every b, so the
// "entirely before" order of the 2n+1 transients has n² covering pairs
// (its transitive reduction is a complete bipartite graph) while the DAG
// has one edge. Buffer sizes are random multiples of 256 bytes below
// 4 MiB, with explicit requirements.
func TokenPasses(seed uint64, n int) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	g := &planner.Graph{
		Resources: make([]planner.Resource, 0, 2*n+1),
		Commands:  make([]planner.Command, 0, 2),
	}
	buffer := func(name string) planner.ResourceID {
		size := uint64(256 * (1 + rng.IntN(16384)))
		return g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer,
			Buffer:       planner.BufferDesc{Size: size, Usage: vk.BufferUsageStorageBuffer},
			Requirements: &planner.Requirements{Size: size, Alignment: 256, MemoryTypeBits: 0x1f}})
	}
	write := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	tok := buffer("token")
	a := make([]planner.Access, 0, n+1)
	for i := range n {
		a = append(a, write(buffer(fmt.Sprintf("a%d", i))))
	}
	a = append(a, write(tok))
	g.AddCommand("a", a...)
	b := make([]planner.Access, 0, n+1)
	b = append(b, planner.Access{Resource: tok, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	for i := range n {
		b = append(b, write(buffer(fmt.Sprintf("b%d", i))))
	}
	g.AddCommand("b", b...)
	return g
}

// DisjointIntervals builds an interval problem of n buffers whose
// lifetimes [2i, 2i+1) never overlap, in a shuffled order: the optimum
// is the largest size, every pair shares bytes, and nothing interferes.
// Sizes are random multiples of 256 bytes below 4 MiB.
func DisjointIntervals(seed uint64, n int) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0x9b05688c2b3e6c1f))
	items := make([]planner.Item, n)
	for i := range items {
		items[i] = planner.Item{Size: 256 * uint64(1+rng.IntN(16384)), Alignment: 256, Start: int64(2 * i), End: int64(2*i + 1)}
	}
	rng.Shuffle(n, func(i, j int) { items[i], items[j] = items[j], items[i] })
	return items
}

// Tiling cuts the rectangle time [0, 4n) × memory [0, 2^40) into n
// rectangles by random guillotine cuts (memory cuts at multiples of 256
// bytes): each rectangle is an item, so the optimum peak is exactly 2^40
// with zero waste, the case greedy packings find hardest. Items are
// shuffled so that no order comes for free. (The same generator as
// strategies/internal/greedy's benchmarks.)
func Tiling(seed uint64, n int) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0xa54ff53a5f1d36f1))
	type rect struct {
		t0, t1 int64
		m0, m1 uint64 // in units of 256 bytes
	}
	rs := make([]rect, 1, n)
	rs[0] = rect{0, 4 * int64(n), 0, 1 << 32}
	for len(rs) < n {
		k := rng.IntN(len(rs))
		r := rs[k]
		dt, dm := r.t1-r.t0, r.m1-r.m0
		switch {
		case dt > 1 && (dm <= 1 || rng.IntN(2) == 0):
			cut := r.t0 + 1 + rng.Int64N(dt-1)
			rs[k].t1 = cut
			rs = append(rs, rect{cut, r.t1, r.m0, r.m1})
		case dm > 1:
			cut := r.m0 + 1 + rng.Uint64N(dm-1)
			rs[k].m1 = cut
			rs = append(rs, rect{r.t0, r.t1, cut, r.m1})
		}
	}
	rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
	items := make([]planner.Item, n)
	for i, r := range rs {
		items[i] = planner.Item{Size: (r.m1 - r.m0) * 256, Alignment: 256, Start: r.t0, End: r.t1}
	}
	return items
}
