package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// randomRangedGraph builds a small random frame of per-range work on
// mipmapped, layered colour images and a layered depth image: compute
// storage writes of one mip (some layers), colour attachment writes of one
// (mip, layer), depth attachment writes of one layer, sampled reads of
// written subresources (compute and fragment). A command never touches
// one subresource twice; reads only read what an earlier command wrote.
func randomRangedGraph(seed uint64) *p.Graph {
	rng := rand.New(rand.NewPCG(seed, seed^0x51ed2701))
	g := &p.Graph{}
	type img struct {
		id           p.ResourceID
		depth        bool
		mips, layers int
		written      map[[2]int]bool
	}
	var imgs []*img
	for i := 0; i < 2+rng.IntN(2); i++ {
		m := &img{mips: 1 + rng.IntN(3), layers: 1 + rng.IntN(3), written: map[[2]int]bool{}}
		if m.mips == 1 && m.layers == 1 {
			m.mips = 3
		}
		f := []vk.Format{vk.FormatR8G8B8A8Unorm, vk.FormatR32Sfloat}[rng.IntN(2)]
		m.id = g.AddImage(fmt.Sprintf("i%d", i), p.ImageDesc{Format: f, Width: 32, Height: 32, Depth: 1, MipLevels: uint32(m.mips),
			ArrayLayers: uint32(m.layers), Samples: 1, Tiling: vk.TilingOptimal,
			Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
		imgs = append(imgs, m)
	}
	d := &img{depth: true, mips: 1, layers: 2 + rng.IntN(3), written: map[[2]int]bool{}}
	d.id = g.AddImage("depth", p.ImageDesc{Format: vk.FormatD32Sfloat, Width: 32, Height: 32, Depth: 1, MipLevels: 1,
		ArrayLayers: uint32(d.layers), Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
	imgs = append(imgs, d)
	n := 8 + rng.IntN(8)
	for c := 0; c < n; c++ {
		var acc []p.Access
		used := map[[3]int]bool{}
		var marks []func()
		for k := 0; k < 1+rng.IntN(3); k++ {
			m := imgs[rng.IntN(len(imgs))]
			mip, layer := rng.IntN(m.mips), rng.IntN(m.layers)
			key := [3]int{int(m.id), mip, layer}
			if used[key] {
				continue
			}
			read := m.written[[2]int{mip, layer}] && rng.IntN(2) == 0
			var a p.Access
			switch {
			case read && m.depth:
				a = p.Access{Resource: m.id, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthStencilReadOnlyOptimal}
			case read:
				st := vk.StageComputeShader
				if rng.IntN(2) == 0 {
					st = vk.StageFragmentShader
				}
				a = p.Access{Resource: m.id, Stages: st, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
			case m.depth:
				a = p.Access{Resource: m.id, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite,
					Layout: vk.LayoutDepthStencilAttachmentOptimal}
				if m.written[[2]int{mip, layer}] {
					a.Access |= vk.AccessDepthStencilAttachmentRead
				}
			case rng.IntN(2) == 0:
				a = p.Access{Resource: m.id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
			default:
				a = p.Access{Resource: m.id, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
			}
			used[key] = true
			a = a.WithMips(mip, 1).WithLayers(layer, 1)
			acc = append(acc, a)
			if !read {
				marks = append(marks, func() { m.written[[2]int{mip, layer}] = true })
			}
		}
		if len(acc) == 0 {
			continue
		}
		for _, f := range marks {
			f()
		}
		g.AddCommand(fmt.Sprintf("c%d", c), acc...)
	}
	return g
}

// TestRandomRangedGraphs replays random per-range frames both ways: zero
// validation messages, all digests equal.
func TestRandomRangedGraphs(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := randomRangedGraph(seed)
			if _, err := p.Compile(g); err != nil {
				t.Fatal(err)
			}
			d := sharedDevice(t)
			rep := compare(t, d, g, 1)
			if !rep.DigestsEqual {
				t.Errorf("digests differ")
			}
		})
	}
}

// TestRangedQueues plans the ranged frames with some commands on the
// compute queue (proptest.AssignQueues), checks the plans (verify.Plan)
// and replays them on the device's queues (one queue on lavapipe).
func TestRangedQueues(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	onCompute := 0
	for i, name := range []string{"depth-pyramid", "depth-stencil"} {
		g, err := Scale(readFrame(t, rangedFrame(t, name)), 8)
		if err != nil {
			t.Fatal(err)
		}
		writeFirst(g)
		proptest.AssignQueues(g, uint64(i+1))
		for c := range g.Commands {
			if DepthTransfer(g, p.CommandID(c)) {
				g.Commands[c].Queue = p.QueueGraphics
			}
			if g.Commands[c].Queue == p.QueueCompute {
				onCompute++
			}
		}
		r, plan := prepare(t, d, g)
		c, err := p.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := verify.Plan(c, plan); err != nil {
			t.Fatalf("%s: verify.Plan: %v", name, err)
		}
		rep, err := r.CompareQueues(plan, Config{Runs: 1})
		if err != nil {
			t.Fatalf("%s: CompareQueues: %v", name, err)
		}
		for _, m := range rep.Mismatches {
			t.Errorf("%s: mismatch: %s", name, m)
		}
		for _, m := range rep.Messages {
			t.Errorf("%s: validation: %s", name, m)
		}
		t.Logf("%s: %d batches, %d semaphores", name, rep.Batches, rep.Semaphores)
	}
	if onCompute == 0 {
		t.Errorf("no command of the ranged frames went to the compute queue")
	}
}
