package barriers_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
)

// greedy is a small first-fit strategy for tests: items in index order,
// each at the lowest aligned offset that overlaps no interfering item
// placed before it, in one pool.
type greedy struct{}

func (greedy) Name() string { return "test-greedy" }

func (greedy) Place(p *planner.Problem) (*planner.Solution, error) {
	n := len(p.Items)
	s := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	var size uint64
	for i, it := range p.Items {
		off := uint64(0)
		for moved := true; moved; {
			moved = false
			for j := range i {
				o := &p.Items[j]
				if p.Interferes(i, j) && s.Offset[j] < off+it.Size && off < s.Offset[j]+o.Size {
					off = (s.Offset[j] + o.Size + it.Alignment - 1) &^ (it.Alignment - 1)
					moved = true
				}
			}
		}
		s.Offset[i] = off
		size = max(size, off+it.Size)
	}
	if n > 0 {
		s.PoolSizes = []uint64{size}
	}
	return s, nil
}

type accessKind struct {
	stages planner.Stage
	access planner.AccessFlags
	layout planner.Layout // images only
}

var (
	bufferAccesses = []accessKind{
		{compute, ssr, 0}, {compute, ssw, 0}, {compute, ssr | ssw, 0}, {copyS, tw, 0}, {copyS, tr, 0},
		{fragment | planner.StageVertexShader, planner.AccessUniformRead, 0}, {planner.StageDrawIndirect, planner.AccessIndirectCommandRead, 0},
		{fragment, 0, 0}, // execution-only
	}
	imageAccesses = []accessKind{
		{color, caw, attachment}, {color, caw | planner.AccessColorAttachmentRead, attachment}, {fragment, sampled, readOnly},
		{compute, ssr, general}, {compute, ssw, general}, {copyS, tw, planner.LayoutTransferDstOptimal},
		{copyS, tr, planner.LayoutTransferSrcOptimal}, {fragment | compute, sampled, readOnly}, {depthS, dsw, depthAtt},
		{planner.StageAllCommands, planner.AccessMemoryRead, general},
	}
)

// randomFrame returns a random valid graph: every transient's first access
// writes it, and an image has one layout per command.
func randomFrame(rng *rand.Rand, commands, resources int) *planner.Graph {
	g := &planner.Graph{}
	formats := []planner.Format{planner.FormatR8G8B8A8Unorm, planner.FormatD32Sfloat, planner.FormatR16G16B16A16Sfloat}
	for i := range resources {
		size := uint64(1+rng.IntN(16)) * 256
		res := planner.Resource{Name: fmt.Sprintf("r%d", i), Imported: rng.IntN(5) == 0}
		if rng.IntN(2) == 0 {
			res.Kind, res.Buffer = planner.KindBuffer, planner.BufferDesc{Size: size, Usage: planner.BufferUsageStorageBuffer}
		} else {
			res.Kind, res.Image = planner.KindImage, imageDesc(formats[rng.IntN(len(formats))])
			if res.Imported {
				res.Image.InitialLayout = []planner.Layout{planner.LayoutUndefined, readOnly, general}[rng.IntN(3)]
			}
		}
		if !res.Imported {
			res.Requirements = reqs(size)
		}
		g.AddResource(res)
	}
	written := make([]bool, resources)
	for i := range commands {
		var as []planner.Access
		layout := map[planner.ResourceID]planner.Layout{}
		add := func(r planner.ResourceID, write bool) {
			res := &g.Resources[r]
			table := bufferAccesses
			if res.Kind == planner.KindImage {
				table = imageAccesses
			}
			k := table[rng.IntN(len(table))]
			for (write || !res.Imported && !written[r]) && k.access.Writes() == 0 {
				k = table[rng.IntN(len(table))]
			}
			written[r] = true
			a := planner.Access{Resource: r, Stages: k.stages, Access: k.access}
			if res.Kind == planner.KindImage {
				if l, ok := layout[r]; ok {
					k.layout = l
				}
				a.Layout, layout[r] = k.layout, k.layout
			}
			as = append(as, a)
		}
		// Like a render graph: a pass reads what the passes just before it
		// wrote and writes its own outputs, so that lifetimes are short and
		// many resources are ordered: they alias. Now and then it touches
		// any resource.
		cur := i * resources / commands
		if r := cur - 1 - rng.IntN(2); r >= 0 && rng.IntN(10) < 7 {
			add(planner.ResourceID(r), false)
		}
		add(planner.ResourceID(min(resources-1, cur+rng.IntN(2))), rng.IntN(4) != 0)
		if rng.IntN(10) == 0 {
			add(planner.ResourceID(rng.IntN(resources)), false)
		}
		g.AddCommand(fmt.Sprintf("c%d", i), as...)
	}
	return g
}

// randomOrder returns a random topological order of c's DAG.
func randomOrder(rng *rand.Rand, c *planner.Compiled) []planner.CommandID {
	n := len(c.Graph.Commands)
	indeg := make([]int, n)
	var ready []planner.CommandID
	for i := range n {
		indeg[i] = len(c.Predecessors(planner.CommandID(i)))
		if indeg[i] == 0 {
			ready = append(ready, planner.CommandID(i))
		}
	}
	var order []planner.CommandID
	for len(ready) > 0 {
		k := rng.IntN(len(ready))
		cmd := ready[k]
		ready[k] = ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		order = append(order, cmd)
		for _, s := range c.Successors(cmd) {
			if indeg[s]--; indeg[s] == 0 {
				ready = append(ready, s)
			}
		}
	}
	return order
}

// TestPropertyRandomFrames: on random graphs, placed with heavy aliasing
// and executed in random topological orders, Build's barriers cover every
// alias pair and every DAG edge (planner.Verify), Build is deterministic,
// and Dependencies records every barrier.
func TestPropertyRandomFrames(t *testing.T) {
	cases := 400
	if testing.Short() {
		cases = 50
	}
	opts := planner.Options{Strategy: greedy{}}
	aliasBarriers, imageAliases, severalOld, chainsNeeded := 0, 0, 0, 0
	for seed := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		g := randomFrame(rng, 2+rng.IntN(40), 1+rng.IntN(24))
		c, err := planner.Compile(g)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p, err := planner.Place(c, opts)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if seed%2 == 1 {
			p.Order = randomOrder(rng, c)
		}
		if err := barriers.Build(c, p); err != nil {
			t.Fatalf("seed %d: Build: %v", seed, err)
		}
		if err := planner.Verify(c, p); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, describe(g, p))
		}
		first := describe(g, p)
		if err := barriers.Build(c, p); err != nil || describe(g, p) != first {
			t.Fatalf("seed %d: Build is not deterministic (%v)", seed, err)
		}
		n := 0
		for _, b := range barriers.Dependencies(g, p) {
			d := &b.Dependency
			n += len(d.MemoryBarriers) + len(d.BufferMemoryBarriers) + len(d.ImageMemoryBarriers)
		}
		if n > len(p.Barriers) || n == 0 && len(p.Barriers) > 0 {
			t.Fatalf("seed %d: Dependencies recorded %d barriers of %d", seed, n, len(p.Barriers))
		}
		for _, x := range p.Barriers {
			if x.Kind == planner.Alias {
				aliasBarriers++
				if x.Type == planner.ImageBarrier {
					imageAliases++
				}
				if len(x.Previous) > 1 {
					severalOld++
				}
			}
			if x.Kind == planner.Hazard && x.SrcAccess == 0 && x.SrcStages != 0 {
				chainsNeeded++
			}
		}
	}
	t.Logf("%d frames: %d alias barriers (%d image, %d with several old occupants), %d execution-only hazard barriers",
		cases, aliasBarriers, imageAliases, severalOld, chainsNeeded)
	if aliasBarriers < cases || imageAliases == 0 || severalOld == 0 {
		t.Errorf("only %d alias barriers in %d frames: the generator does not alias enough", aliasBarriers, cases)
	}
}
