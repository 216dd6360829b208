package replay

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
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
// written subresources (compute and fragment), per-range transfers
// (transfer, below), ranged accesses of an imported image. A command never touches
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
			Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
		imgs = append(imgs, m)
	}
	all := vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
	// An imported image (its contents given before the frame, read back
	// after it per subresource) and a resolve target.
	imp := &img{mips: 2, layers: 2, written: map[[2]int]bool{{0, 0}: true, {0, 1}: true, {1, 0}: true, {1, 1}: true}}
	imp.id = g.AddImage("imported", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 2, ArrayLayers: 2, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: all, InitialLayout: vk.LayoutGeneral})
	g.Resources[imp.id].Imported = true
	rs := &img{mips: 1, layers: 2, written: map[[2]int]bool{}}
	rs.id = g.AddImage("resolved", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: all})
	ms := g.AddImage("ms", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 4,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc})
	imgs = append(imgs, imp, rs)
	d := &img{depth: true, mips: 1, layers: 2 + rng.IntN(3), written: map[[2]int]bool{}}
	d.id = g.AddImage("depth", p.ImageDesc{Format: vk.FormatD32Sfloat, Width: 32, Height: 32, Depth: 1, MipLevels: 1,
		ArrayLayers: uint32(d.layers), Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
	imgs = append(imgs, d)
	// 3D images for ranged 3D transfers and 2D <-> 3D copies (transfer,
	// kind 6; not in imgs: the per-command accesses below stay 2D).
	vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 2, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
	vol2 := g.AddImage("vol2", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 12, Depth: 8, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
	rs2 := &img{mips: 1, layers: 2, written: map[[2]int]bool{}}
	rs2.id = g.AddImage("resolved2", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 48, Height: 24, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: all})
	imgs = append(imgs, rs2)
	// written picks a written subresource of a colour image (ok false: none).
	written := func(pred func(m *img, mip int) bool) (m *img, mip, layer int, ok bool) {
		var keys [][3]int
		for i, m := range imgs {
			for l := 0; l < m.mips; l++ {
				for k := 0; k < m.layers; k++ {
					if !m.depth && m.written[[2]int{l, k}] && pred(m, l) {
						keys = append(keys, [3]int{i, l, k})
					}
				}
			}
		}
		if len(keys) == 0 {
			return nil, 0, 0, false
		}
		k := keys[rng.IntN(len(keys))]
		return imgs[k[0]], k[1], k[2], true
	}
	other := func(not *img, mip int) *img {
		var out []*img
		for _, m := range imgs {
			if m != not && !m.depth && m.mips > mip {
				out = append(out, m)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out[rng.IntN(len(out))]
	}
	one := func(a p.Access, mip, layer int) p.Access { return a.WithMips(mip, 1).WithLayers(layer, 1) }
	src := func(m *img, st vk.Stage, mip, layer int) p.Access {
		return one(p.Access{Resource: m.id, Stages: st, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}, mip, layer)
	}
	dst := func(m *img, st vk.Stage, mip, layer int) p.Access {
		m.written[[2]int{mip, layer}] = true
		return one(p.Access{Resource: m.id, Stages: st, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}, mip, layer)
	}
	// transfer adds per-range transfers (copyrange.go) in command c: a mip
	// chain step by a blit (mip i into mip i+1 of one image), a copy of one
	// subresource into another image, an image -> buffer -> image round
	// trip, a resolve of one layer. It reports whether it added any.
	// The first transfer that succeeds is of kind seed mod 7 (so seeds
	// 1..6 hold every kind: TestRangedTransferCoverage), the rest random.
	first := int(seed % 7)
	transfer := func(c int) bool {
		kind := rng.IntN(7)
		if first >= 0 {
			kind = first
		}
		switch kind {
		case 0:
			m, mip, layer, ok := written(func(m *img, mip int) bool { return mip+1 < m.mips })
			if !ok {
				return false
			}
			g.AddCommand(fmt.Sprintf("c%d.blit", c), src(m, vk.StageBlit, mip, layer), dst(m, vk.StageBlit, mip+1, layer))
		case 1:
			m, mip, layer, ok := written(func(*img, int) bool { return true })
			o := other(m, mip)
			if !ok || o == nil {
				return false
			}
			g.AddCommand(fmt.Sprintf("c%d.copy", c), src(m, vk.StageCopy, mip, layer), dst(o, vk.StageCopy, mip, rng.IntN(o.layers)))
		case 2:
			m, mip, layer, ok := written(func(*img, int) bool { return true })
			o := other(m, mip)
			if !ok || o == nil || m == rs2 || o == rs2 { // the buffer holds a 32x32 image's level
				return false
			}
			e := uint64(32 >> mip)
			b := g.AddBuffer(fmt.Sprintf("c%d.buf", c), p.BufferDesc{Size: e * e * 4, Usage: vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst})
			g.AddCommand(fmt.Sprintf("c%d.tobuf", c), src(m, vk.StageCopy, mip, layer), p.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
			g.AddCommand(fmt.Sprintf("c%d.frombuf", c), p.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferRead}, dst(o, vk.StageCopy, mip, rng.IntN(o.layers)))
		case 4:
			// A ranged copy between levels of different extents
			// (extents.go: tiled, or read in the source's corner).
			m, mip, layer, ok := written(func(*img, int) bool { return true })
			o := other(m, 0)
			if !ok || o == nil || o.mips < 2 {
				return false
			}
			dm := rng.IntN(o.mips)
			if dm == mip {
				dm = (dm + 1) % o.mips
			}
			g.AddCommand(fmt.Sprintf("c%d.xcopy", c), src(m, vk.StageCopy, mip, layer), dst(o, vk.StageCopy, dm, rng.IntN(o.layers)))
		case 5:
			// A one-layer resolve into an image of another extent.
			layer := rng.IntN(2)
			g.AddCommand(fmt.Sprintf("c%d.msdraw", c), one(p.Access{Resource: ms, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite,
				Layout: vk.LayoutColorAttachmentOptimal}, 0, layer))
			g.AddCommand(fmt.Sprintf("c%d.xresolve", c), one(p.Access{Resource: ms, Stages: vk.StageResolve, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}, 0, layer),
				dst(rs2, vk.StageResolve, 0, rng.IntN(2)))
		case 6:
			// 3D: a compute write of one mip of vol, that mip tiled over
			// vol2 and over one mip of a 2D image (all its layers), out
			// to a buffer and back; a written 2D subresource tiled over
			// vol's other mip; both volumes read.
			m2, mip2, layer2, ok := written(func(*img, int) bool { return true })
			o := other(nil, 0)
			if !ok || o == nil {
				return false
			}
			r, om := rng.IntN(2), rng.IntN(o.mips)
			vs := func(id p.ResourceID, write bool, mip int) p.Access {
				a := p.Access{Resource: id, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}
				if write {
					a.Access, a.Layout = vk.AccessTransferWrite, vk.LayoutTransferDstOptimal
				}
				if mip >= 0 {
					a = a.WithMips(mip, 1)
				}
				return a
			}
			e := uint64(16 >> r)
			b := g.AddBuffer(fmt.Sprintf("c%d.vbuf", c), p.BufferDesc{Size: e * e * uint64(4>>r) * 4, Usage: vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst})
			g.AddCommand(fmt.Sprintf("c%d.volw", c), p.Access{Resource: vol, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}.WithMips(r, 1))
			g.AddCommand(fmt.Sprintf("c%d.vcopy", c), vs(vol, false, r), vs(vol2, true, -1))
			g.AddCommand(fmt.Sprintf("c%d.vtobuf", c), vs(vol, false, r), p.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
			g.AddCommand(fmt.Sprintf("c%d.vfrombuf", c), p.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferRead}, vs(vol, true, r))
			da := p.Access{Resource: o.id, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithMips(om, 1)
			for k := 0; k < o.layers; k++ {
				o.written[[2]int{om, k}] = true
			}
			g.AddCommand(fmt.Sprintf("c%d.v2d", c), vs(vol, false, r), da)
			g.AddCommand(fmt.Sprintf("c%d.to3d", c), src(m2, vk.StageCopy, mip2, layer2), vs(vol, true, 1-r))
			read3 := func(id p.ResourceID) p.Access {
				return p.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
			}
			g.AddCommand(fmt.Sprintf("c%d.vread", c), read3(vol))
			g.AddCommand(fmt.Sprintf("c%d.vread2", c), read3(vol2))
		default:
			layer := rng.IntN(2)
			g.AddCommand(fmt.Sprintf("c%d.msdraw", c), one(p.Access{Resource: ms, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite,
				Layout: vk.LayoutColorAttachmentOptimal}, 0, layer))
			g.AddCommand(fmt.Sprintf("c%d.resolve", c), one(p.Access{Resource: ms, Stages: vk.StageResolve, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}, 0, layer),
				dst(rs, vk.StageResolve, 0, layer))
		}
		return true
	}
	n := 8 + rng.IntN(8)
	for c := 0; c < n; c++ {
		if rng.IntN(3) == 0 && transfer(c) {
			first = -1
			continue
		}
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
	for seed := uint64(1); seed <= rangedSeeds(); seed++ {
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

// rangedSeeds is how many random ranged frames TestRandomRangedGraphs
// replays: 6, or ALIASPLAN_RANGED_GRAPHS.
func rangedSeeds() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("ALIASPLAN_RANGED_GRAPHS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 6
}

// TestRangedTransferCoverage: the random ranged frames TestRandomRangedGraphs
// replays hold every per-range transfer (a blit between mips, a copy, an
// image -> buffer -> image round trip, a resolve of one layer); their blits
// that scale filter LINEAR where the format allows it; and the imported
// image ends in several layouts, read back per subresource.
func TestRangedTransferCoverage(t *testing.T) {
	d := sharedDevice(t)
	kinds := map[string]bool{}
	linear, perSub := false, false
	for seed := uint64(1); seed <= 6; seed++ {
		g := randomRangedGraph(seed)
		for _, c := range g.Commands {
			for _, k := range []string{".blit", ".copy", ".tobuf", ".frombuf", ".resolve", ".xcopy", ".xresolve", ".vcopy", ".v2d", ".to3d"} {
				if strings.HasSuffix(c.Name, k) {
					kinds[k] = true
				}
			}
		}
		r, err := New(d, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range r.works {
			for _, op := range w.copies {
				linear = linear || op.linear
			}
		}
		order := make([]p.CommandID, len(g.Commands))
		for i := range order {
			order[i] = p.CommandID(i)
		}
		perSub = perSub || len(r.readbackBarriers(order)) > len(r.imports)
		r.Close()
	}
	if len(kinds) != 10 {
		t.Errorf("transfer kinds in seeds 1..6: %v, want all ten", kinds)
	}
	if !linear {
		t.Errorf("no blit filtered LINEAR on %s", d.Info().Name)
	}
	if !perSub {
		t.Errorf("the imported image never ends in several layouts")
	}
}
