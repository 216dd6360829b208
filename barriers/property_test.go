package barriers_test

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
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
	stages vk.Stage
	access vk.AccessFlags
	layout vk.Layout // images only
}

var (
	bufferAccesses = []accessKind{
		{compute, ssr, 0}, {compute, ssw, 0}, {compute, ssr | ssw, 0}, {copyS, tw, 0}, {copyS, tr, 0},
		{fragment | vk.StageVertexShader, vk.AccessUniformRead, 0}, {vk.StageDrawIndirect, vk.AccessIndirectCommandRead, 0},
		{fragment, 0, 0}, // execution-only
	}
	imageAccesses = []accessKind{
		{color, caw, attachment}, {color, caw | vk.AccessColorAttachmentRead, attachment}, {fragment, sampled, readOnly},
		{compute, ssr, general}, {compute, ssw, general}, {copyS, tw, vk.LayoutTransferDstOptimal},
		{copyS, tr, vk.LayoutTransferSrcOptimal}, {fragment | compute, sampled, readOnly}, {depthS, dsw, depthAtt},
		{vk.StageAllCommands, vk.AccessMemoryRead, general},
	}
)

// randomFrame returns a random valid graph: every transient's first access
// writes it, and an image has one layout per command.
func randomFrame(rng *rand.Rand, commands, resources int) *planner.Graph {
	g := &planner.Graph{}
	formats := []vk.Format{vk.FormatR8G8B8A8Unorm, vk.FormatD32Sfloat, vk.FormatR16G16B16A16Sfloat}
	for i := range resources {
		size := uint64(1+rng.IntN(16)) * 256
		res := planner.Resource{Name: fmt.Sprintf("r%d", i), Imported: rng.IntN(5) == 0}
		if rng.IntN(2) == 0 {
			res.Kind, res.Buffer = planner.KindBuffer, planner.BufferDesc{Size: size, Usage: testBufferUsage}
		} else {
			res.Kind, res.Image = planner.KindImage, imageDesc(formats[rng.IntN(len(formats))])
			if res.Imported {
				res.Image.InitialLayout = []vk.Layout{vk.LayoutUndefined, readOnly, general}[rng.IntN(3)]
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
		layout := map[planner.ResourceID]vk.Layout{}
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
// alias pair and every DAG edge (verify.Plan), Build is deterministic,
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
		if err := verify.Plan(c, p); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, describe(g, p))
		}
		first := describe(g, p)
		if err := barriers.Build(c, p); err != nil || describe(g, p) != first {
			t.Fatalf("seed %d: Build is not deterministic (%v)", seed, err)
		}
		n := 0
		for _, b := range barriers.Dependencies(g, p) {
			for _, d := range []*barriers.DependencyInfo{&b.Dependency, &b.Then} {
				n += len(d.MemoryBarriers) + len(d.BufferMemoryBarriers) + len(d.ImageMemoryBarriers)
			}
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

// allPairsCovered checks, independently of verify.Plan's per-edge
// check, that every pair of conflicting uses of a resource (not only the
// DAG edges Compile stores) is ordered by a chain of barriers, with the
// earlier use's writes made available and visible to the later use, and
// that a use that changes the layout is ordered after every earlier use by
// its own transition. It is what the stored-edge check claims by
// composition. Scopes are compared bit for bit (Build copies them).
func allPairsCovered(c *planner.Compiled, p *planner.Plan) error {
	g := c.Graph
	pos := make([]int, len(g.Commands))
	for i, cmd := range p.Order {
		pos[cmd] = i
	}
	sub := func(a, b uint64) bool { return a&b == a }
	for r := range g.Resources {
		us := c.Uses(planner.ResourceID(r))
		for j := range us {
			y := us[j]
			// The barrier that moves an image into y's layout, if y changes
			// it, or before the first (in execution) of the readers sharing
			// y's transition.
			trans := -1
			for k, x := range p.Barriers {
				if int(x.Resource) != r || x.Type != planner.ImageBarrier || x.OldLayout == x.NewLayout {
					continue
				}
				if x.Before == y.Command {
					trans = k
				}
				if y.Transition >= 0 {
					for _, m := range us {
						if m.Transition == y.Transition && m.Command == x.Before {
							trans = k
						}
					}
				}
			}
			share := func(a, b planner.Use) bool { return a.Transition >= 0 && a.Transition == b.Transition }
			mod := func(a planner.Use) bool { return a.Modifies || a.Transition >= 0 }
			for i := range j {
				x := us[i]
				if !mod(x) && !mod(y) || share(x, y) || !c.HappensBefore(x.Command, y.Command) {
					continue
				}
				needAvail, needVis := x.Access.Writes() != 0, x.Modifies && y.Access != 0
				var reach, reachAvail vk.Stage
				covered := false
				// Slots: two calls per command; only barriers that reach r's
				// bytes (on r, or memory barriers) chain.
				for q := 2*pos[x.Command] + 2; q <= 2*pos[y.Command]+1 && !covered; q++ {
					var nReach, nAvail vk.Stage
					for k := range p.Barriers {
						b := &p.Barriers[k]
						if 2*pos[b.Before]+int(b.Call) != q {
							continue
						}
						onR := b.Type == planner.MemoryBarrier || int(b.Resource) == r
						if !onR {
							continue
						}
						direct := sub(uint64(x.Stages), uint64(b.SrcStages))
						if !direct && b.SrcStages&reach == 0 {
							continue
						}
						avail := !needAvail || direct && sub(uint64(x.Access.Writes()), uint64(b.SrcAccess)) || b.SrcStages&reachAvail != 0
						if (trans < 0 || k == trans) && sub(uint64(y.Stages), uint64(b.DstStages)) && avail &&
							(!needVis || sub(uint64(y.Access), uint64(b.DstAccess))) {
							covered = true
							break
						}
						nReach |= b.DstStages
						if avail {
							nAvail |= b.DstStages
						}
					}
					reach |= nReach
					reachAvail |= nAvail
				}
				if !covered {
					return fmt.Errorf("resource %q: command %q → %q not covered", g.Resources[r].Name, g.Commands[x.Command].Name, g.Commands[y.Command].Name)
				}
			}
		}
	}
	return nil
}

func TestPropertyAllConflictingPairsCovered(t *testing.T) {
	cases := 200
	if testing.Short() {
		cases = 30
	}
	for seed := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		g := randomFrame(rng, 2+rng.IntN(30), 1+rng.IntN(16))
		c, err := planner.Compile(g)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p, err := planner.Place(c, planner.Options{Strategy: greedy{}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if seed%2 == 1 {
			p.Order = randomOrder(rng, c)
		}
		if err := barriers.Build(c, p); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := allPairsCovered(c, p); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, describe(g, p))
		}
	}
}

// TestPropertyVerifyRejectsOrSurvivesMutations: verify.Plan never
// panics on a broken plan, and rejects most random breakages of Build's
// barriers (some are harmless: a barrier another chain already covers).
func TestPropertyVerifyRejectsOrSurvivesMutations(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 50
	}
	rejected, tried := 0, 0
	for seed := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		g := randomFrame(rng, 2+rng.IntN(30), 1+rng.IntN(16))
		c, err := planner.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Place(c, planner.Options{Strategy: greedy{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := barriers.Build(c, p); err != nil {
			t.Fatal(err)
		}
		if len(p.Barriers) == 0 {
			continue
		}
		k := rng.IntN(len(p.Barriers))
		x := &p.Barriers[k]
		switch rng.IntN(9) {
		case 0:
			p.Barriers = append(p.Barriers[:k], p.Barriers[k+1:]...)
		case 1:
			x.SrcStages = 0
		case 2:
			x.SrcAccess = 0
		case 3:
			x.DstStages &= x.DstStages - 1 // drop the lowest stage
		case 4:
			x.DstAccess = 0
		case 5:
			x.Before = planner.CommandID(rng.IntN(len(g.Commands)))
		case 6:
			x.Resource = planner.ResourceID(rng.IntN(len(g.Resources)))
		case 7:
			x.Type = planner.BarrierType(rng.IntN(4))
		case 8:
			x.Kind, x.Previous = planner.BarrierKind(rng.IntN(3)), []planner.ResourceID{planner.ResourceID(rng.IntN(len(g.Resources) + 1))}
		}
		tried++
		if verify.Plan(c, p) != nil {
			rejected++
		}
	}
	t.Logf("rejected %d of %d mutated plans", rejected, tried)
	if rejected < tried/2 {
		t.Errorf("Verify rejected only %d of %d mutated plans", rejected, tried)
	}
}
