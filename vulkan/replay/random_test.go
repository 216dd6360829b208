package replay

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
)

// randomGraph builds a small random frame from the access kinds the
// replay supports: compute reads and writes of buffers and images
// (storage, sampled, uniform), draws with colour and depth attachments
// and fragment or vertex reads, buffer clears and copies, an imported
// buffer and image, a host-readback buffer (another memory kind) and a
// dedicated image. Every transient's first use writes it.
func randomGraph(seed uint64) *p.Graph { return randomGraphSized(seed, 1) }

// randomGraphSized is randomGraph with scale times the resources and the
// commands (scale 1 is randomGraph's graph, draw for draw; 58 makes
// 464-986 commands over 348-522 transients): the larger graphs of make
// replay-sweep (sweepScale).
func randomGraphSized(seed uint64, scale int) *p.Graph {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &p.Graph{}
	type res struct {
		id      p.ResourceID
		kind    string // "buf", "img", "depth", "uimg"
		written bool
		w, h    uint32
	}
	var rs []*res
	sizes := [][2]uint32{{32, 32}, {64, 32}, {48, 48}}
	nb, ni := scale*(3+rng.IntN(4)), scale*(3+rng.IntN(4))
	for i := 0; i < nb; i++ {
		size := uint64(256 * (1 + rng.IntN(64)))
		id := g.AddBuffer(fmt.Sprintf("b%d", i), p.BufferDesc{Size: size,
			Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst | vk.BufferUsageUniformBuffer})
		rs = append(rs, &res{id: id, kind: "buf"})
	}
	for i := 0; i < ni; i++ {
		sz := sizes[rng.IntN(len(sizes))]
		r := &res{kind: "img", w: sz[0], h: sz[1]}
		desc := p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: sz[0], Height: sz[1], Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageColorAttachment}
		switch rng.IntN(4) {
		case 1:
			desc.Format = vk.FormatR32Sfloat
		case 2:
			desc.Format, desc.Usage, r.kind = vk.FormatD32Sfloat, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled, "depth"
		case 3:
			desc.Format, r.kind = vk.FormatR32Uint, "uimg"
		}
		r.id = g.AddImage(fmt.Sprintf("i%d", i), desc)
		if i == 0 && r.kind == "img" {
			g.Resources[r.id].Dedicated = true
		}
		rs = append(rs, r)
	}
	imp := g.AddResource(p.Resource{Name: "imported.buf", Kind: p.KindBuffer, Imported: true,
		Buffer: p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer}})
	rs = append(rs, &res{id: imp, kind: "buf", written: true})
	impImg := g.AddResource(p.Resource{Name: "imported.img", Kind: p.KindImage, Imported: true,
		Image: p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment, InitialLayout: vk.LayoutShaderReadOnlyOptimal}})
	readback := g.AddResource(p.Resource{Name: "readback", Kind: p.KindBuffer, Memory: p.GPUToCPU,
		Buffer: p.BufferDesc{Size: 256, Usage: vk.BufferUsageTransferDst}})

	pick := func(ok func(*res) bool) *res {
		var c []*res
		for _, r := range rs {
			if ok(r) {
				c = append(c, r)
			}
		}
		if len(c) == 0 {
			return nil
		}
		return c[rng.IntN(len(c))]
	}
	ncmd := scale * (8 + rng.IntN(10))
	for c := 0; c < ncmd; c++ {
		used := map[p.ResourceID]bool{}
		var acc []p.Access
		readOne := func(stage vk.Stage) {
			r := pick(func(r *res) bool { return r.written && !used[r.id] })
			if r == nil {
				return
			}
			used[r.id] = true
			switch r.kind {
			case "buf":
				a := p.Access{Resource: r.id, Stages: stage, Access: vk.AccessShaderStorageRead}
				if rng.IntN(3) == 0 && g.Resources[r.id].Buffer.Size <= 65536 && !g.Resources[r.id].Imported {
					a.Access = vk.AccessUniformRead
				}
				acc = append(acc, a)
			case "depth":
				acc = append(acc, p.Access{Resource: r.id, Stages: stage, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal})
			default:
				if rng.IntN(2) == 0 || r.id == impImg {
					acc = append(acc, p.Access{Resource: r.id, Stages: stage, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
				} else {
					acc = append(acc, p.Access{Resource: r.id, Stages: stage, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
				}
			}
		}
		switch k := rng.IntN(10); {
		case k < 5: // compute
			for n := rng.IntN(3); n > 0; n-- {
				readOne(vk.StageComputeShader)
			}
			for n := 1 + rng.IntN(2); n > 0; n-- {
				r := pick(func(r *res) bool { return !used[r.id] && r.kind != "depth" && !g.Resources[r.id].Imported })
				if r == nil {
					break
				}
				used[r.id] = true
				a := p.Access{Resource: r.id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
				if r.kind != "buf" {
					a.Layout = vk.LayoutGeneral
				}
				if r.written && rng.IntN(3) == 0 {
					a.Access |= vk.AccessShaderStorageRead
				}
				acc = append(acc, a)
				r.written = true
			}
		case k < 8: // draw
			r := pick(func(r *res) bool { return r.kind == "img" || r.kind == "uimg" })
			if r == nil {
				continue
			}
			used[r.id] = true
			a := p.Access{Resource: r.id, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
			if r.written && rng.IntN(3) == 0 {
				a.Access |= vk.AccessColorAttachmentRead
			}
			acc = append(acc, a)
			if d := pick(func(d *res) bool { return d.kind == "depth" && d.w == r.w && d.h == r.h && !used[d.id] }); d != nil && rng.IntN(2) == 0 {
				used[d.id] = true
				da := p.Access{Resource: d.id, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthAttachmentOptimal}
				if d.written && rng.IntN(2) == 0 {
					da.Access, da.Layout = vk.AccessDepthStencilAttachmentRead, vk.LayoutDepthReadOnlyOptimal
				}
				acc = append(acc, da)
				d.written = true
			}
			r.written = true
			stage := vk.StageFragmentShader
			if rng.IntN(3) == 0 {
				stage = vk.StageVertexShader
			}
			readOne(stage)
		case k < 9: // clear
			r := pick(func(r *res) bool { return r.kind == "buf" && !g.Resources[r.id].Imported })
			if r == nil {
				continue
			}
			acc = append(acc, p.Access{Resource: r.id, Stages: vk.StageClear, Access: vk.AccessTransferWrite})
			r.written = true
		default: // copy into the readback buffer
			r := pick(func(r *res) bool { return r.kind == "buf" && r.written && !g.Resources[r.id].Imported })
			if r == nil {
				continue
			}
			acc = append(acc, p.Access{Resource: r.id, Stages: vk.StageCopy, Access: vk.AccessTransferRead},
				p.Access{Resource: readback, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
		}
		if len(acc) > 0 {
			g.AddCommand(fmt.Sprintf("c%d", c), acc...)
		}
	}
	return g
}

// TestRandomGraphs replays 10 random frames both ways on the device:
// zero validation messages, all digests and final contents equal.
func TestRandomGraphs(t *testing.T) {
	n := 10 // proptest.ReplayFrame (TestGeneratedFrames) covers more kinds; these keep host-readback, dedicated and imported resources and uniform reads
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := randomGraph(seed)
			d := sharedDevice(t)
			rep := compare(t, d, g, 1)
			if !rep.DigestsEqual {
				t.Errorf("digests differ")
			}
		})
	}
}
