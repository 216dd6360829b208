package planner

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"
	"testing"
)

// groupProblem builds the problem Place builds for the used transients of
// c (one group, whatever their classes): items sized at random, the
// interference matrix and the DAG order.
func groupProblem(t testing.TB, c *Compiled, rng *rand.Rand) (*Problem, []ResourceID) {
	var members []ResourceID
	var items []Item
	for r := range c.Graph.Resources {
		id := ResourceID(r)
		if c.Graph.Resources[r].Imported || !c.Used(id) {
			continue
		}
		us := c.Uses(id)
		start, end := int64(us[0].Command), int64(us[len(us)-1].Command)+1
		members = append(members, id)
		items = append(items, Item{Size: uint64(1 + rng.IntN(1000)), Alignment: 1, Start: start, End: end})
	}
	p := &Problem{Items: items}
	if err := p.check(); err != nil {
		t.Fatal(err)
	}
	p.adj = c.groupInterference(members)
	p.order = c.beforeOrder(members)
	if p.order == nil {
		t.Fatal("no DAG order for a compiled graph's transients")
	}
	return p, members
}

// withoutOrder is p with the item-pair network (the construction before
// the DAG order).
func withoutOrder(p *Problem) *Problem {
	q := *p
	q.order = nil
	return &q
}

// The DAG network gives the bound the item-pair network gives, and brute
// force where the group is small; its witness is a clique of that weight.
func TestLowerBoundDAGOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	small, multi := 0, 0
	for trial := range 600 {
		g := randomGraph(rng, 2+rng.IntN(12+trial%40), 0.5+1.5*rng.Float64())
		c, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		p, members := groupProblem(t, c, rng)
		for _, r := range members {
			if len(c.Terminal(r)) > 1 {
				multi++
				break
			}
		}
		got, want := LowerBound(p), LowerBound(withoutOrder(p))
		if got != want {
			t.Fatalf("trial %d (%d items): DAG network %d, item-pair network %d", trial, len(p.Items), got, want)
		}
		checkWitness(t, p, got)
		if len(p.Items) <= 18 {
			small++
			if brute := bruteClique(p); got != brute {
				t.Fatalf("trial %d (%d items): LowerBound = %d, brute force %d", trial, len(p.Items), got, brute)
			}
		}
	}
	if small < 100 || multi < 100 {
		t.Fatalf("only %d small groups, %d with several terminal uses", small, multi)
	}
}

// Two passes of n buffers ordered by a token: every a before every b, n²
// covering pairs. The DAG network has a handful of command arcs; the
// bound is the heavier pass (with the token on its side).
func TestLowerBoundTokenPasses(t *testing.T) {
	for _, n := range []int{1, 2, 5, 300} {
		g, sizeA, sizeB := tokenPasses(n)
		c, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		p, members := groupProblem(t, c, rand.New(rand.NewPCG(1, 2)))
		for i, r := range members {
			p.Items[i].Size = g.Resources[r].Buffer.Size
		}
		want := max(sizeA, sizeB)
		if got := LowerBound(p); got != want {
			t.Errorf("n=%d: LowerBound = %d, want %d", n, got, want)
		}
		if got := LowerBound(withoutOrder(p)); got != want {
			t.Errorf("n=%d: item-pair network %d, want %d", n, got, want)
		}
		if arcs := p.order.arcs(); arcs > 2*len(p.Items)+8 {
			t.Errorf("n=%d: %d order arcs for %d items", n, arcs, len(p.Items))
		}
	}
}

// tokenPasses is proptest.TokenPasses in small: pass a writes a0…a(n−1)
// and the token, pass b reads the token and writes b0…b(n−1). It returns
// the graph and the pass totals (the token counted with a: it is live
// through a).
func tokenPasses(n int) (g *Graph, sizeA, sizeB uint64) {
	g = &Graph{}
	w := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	tok := g.AddBuffer("token", BufferDesc{Size: 256})
	sizeA = 256
	var a, b []Access
	for i := range n {
		size := uint64(256 * (1 + i%7))
		a = append(a, w(g.AddBuffer(fmt.Sprintf("a%d", i), BufferDesc{Size: size})))
		sizeA += size
		size = uint64(256 * (1 + (i*3)%11))
		b = append(b, w(g.AddBuffer(fmt.Sprintf("b%d", i), BufferDesc{Size: size})))
		sizeB += size
	}
	g.AddCommand("a", append(a, w(tok))...)
	g.AddCommand("b", append(b, Access{Resource: tok, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})...)
	return g, sizeA, sizeB + 256
}

// BenchmarkLowerBoundNetwork compares the two networks on the problems
// Place builds: net=dag follows the DAG, net=pairs links item pairs (the
// construction before issue 19, still used for problems without a DAG).
func BenchmarkLowerBoundNetwork(b *testing.B) {
	tokens, _, _ := tokenPasses(1000)
	for _, tc := range []struct {
		name string
		g    *Graph
	}{
		{"tokens/n=1000", tokens},
		{"random/commands=2000", randomGraph(rand.New(rand.NewPCG(19, 4)), 2000, 1.5)},
	} {
		c, err := Compile(tc.g)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := groupProblem(b, c, rand.New(rand.NewPCG(1, 2)))
		for _, net := range []string{"dag", "pairs"} {
			q := p
			if net == "pairs" {
				q = withoutOrder(p)
			}
			b.Run(tc.name+"/net="+net, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					LowerBound(q)
				}
			})
		}
	}
}
