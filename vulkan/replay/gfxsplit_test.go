package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// gfxSplitGraph: "write" writes ten storage buffers and ten images (by
// compute), "draw" reads the buffers in its vertex shader (more than the
// eight storage-buffer slots), samples the images in its fragment shader
// (more than eight sampled-image slots), writes five storage buffers
// from it (more than four written-buffer slots) and a colour attachment;
// "read" reads what draw wrote.
func gfxSplitGraph() *p.Graph {
	g := &p.Graph{}
	cs, vs, fs := vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader
	var w, draw, read []p.Access
	for i := 0; i < 10; i++ {
		b := g.AddBuffer(fmt.Sprintf("b%d", i), p.BufferDesc{Size: uint64(256 * (i + 1)), Usage: vk.BufferUsageStorageBuffer})
		t := g.AddImage(fmt.Sprintf("t%d", i), p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8 + 4*uint32(i%3), Height: 8, Tiling: vk.TilingOptimal,
			Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		w = append(w, p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderStorageWrite},
			p.Access{Resource: t, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		draw = append(draw, p.Access{Resource: b, Stages: vs, Access: vk.AccessShaderStorageRead},
			p.Access{Resource: t, Stages: fs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	}
	for i := 0; i < 5; i++ {
		o := g.AddBuffer(fmt.Sprintf("o%d", i), p.BufferDesc{Size: uint64(512 * (i + 1)), Usage: vk.BufferUsageStorageBuffer})
		draw = append(draw, p.Access{Resource: o, Stages: fs, Access: vk.AccessShaderStorageWrite})
		read = append(read, p.Access{Resource: o, Stages: cs, Access: vk.AccessShaderStorageRead})
	}
	col := g.AddImage("color", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Tiling: vk.TilingOptimal,
		Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	out := g.AddBuffer("out", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("write", w...)
	g.AddCommand("draw", append(draw, p.Access{Resource: col, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite,
		Layout: vk.LayoutColorAttachmentOptimal})...)
	g.AddCommand("read", append(read, p.Access{Resource: col, Stages: cs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageWrite})...)
	g.AddCommand("sink.read", p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead})
	return g
}

// TestSplitGraphics: a draw with more vertex and fragment slots than the
// shaders declare replays as its first draws plus an extra draw, with no
// message and equal digests; every slot is in one draw and inside the
// arrays, and each written resource is in one. Removing the barrier
// before a buffer only the extra draw reads, or after one only it writes,
// raises a hazard (the extra draw really reads and writes them). Without
// the split the frame is refused ("needs more than 8 storage buffer
// slots").
func TestSplitGraphics(t *testing.T) {
	g := gfxSplitGraph()
	draw := p.CommandID(1)
	w, err := analyzeCommand(g, draw)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.gfxMore) != 1 {
		t.Fatalf("%d extra draws, want 1", len(w.gfxMore))
	}
	seen := map[[3]int]int{} // resource, level, flags&(read|write) -> slots
	where := map[p.ResourceID]map[int]bool{}
	for gi, parts := range append([][numStages]*part{w.parts}, w.gfxMore[0].parts) {
		for _, st := range gfxStages {
			pt := parts[st]
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if s.index >= s.cat.size(st) {
					t.Errorf("group %d: %s slot %d of %s beyond the array", gi, stageNames[st], s.index, cats[s.cat].name)
				}
				seen[[3]int{int(s.res), int(s.level), int(s.flags & (fRead | fWrite))}]++
				if where[s.res] == nil {
					where[s.res] = map[int]bool{}
				}
				where[s.res][gi] = true
			}
		}
	}
	if len(seen) != 25 {
		t.Errorf("%d distinct slots, want 25 (10 buffers, 10 images, 5 written buffers)", len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("slot %v placed %d times", k, n)
		}
	}
	d := sharedDevice(t)
	compare(t, d, g, 2)

	r, plan := prepare(t, d, g)
	extra := r.works[draw].gfxMore[0]
	var vread, fwrite p.ResourceID = -1, -1
	for _, s := range extra.parts[stVertex].slots {
		if s.cat == catSB {
			vread = s.res
		}
	}
	for _, s := range extra.parts[stFragment].slots {
		if s.cat == catSBW {
			fwrite = s.res
		}
	}
	if vread < 0 || fwrite < 0 {
		t.Fatalf("the extra draw has no vertex storage read (%v) or fragment storage write (%v)", vread, fwrite)
	}
	for _, c := range []struct {
		before p.CommandID
		res    p.ResourceID
		what   string
	}{{draw, vread, "read by the extra draw's vertex shader"}, {2, fwrite, "written by the extra draw's fragment shader"}} {
		k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == c.before && b.Resource == c.res })
		if k < 0 {
			t.Fatalf("no barrier on %s before %s", g.Resources[c.res].Name, g.Commands[c.before].Name)
		}
		broken := *plan
		broken.Barriers = slices.Delete(slices.Clone(plan.Barriers), k, k+1)
		_, msgs, err := r.RunPlan(&broken, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		hazards := 0
		for _, m := range msgs {
			if strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
				hazards++
			}
		}
		t.Logf("barrier on %s (%s) before %s removed: %d hazards", g.Resources[c.res].Name, c.what, g.Commands[c.before].Name, hazards)
		if hazards == 0 {
			t.Errorf("removing the barrier on %s (%s) raised no hazard", g.Resources[c.res].Name, c.what)
		}
	}
}

// TestSplitGraphicsRules: the split's placement rules on analysis alone
// (no device): a resource read and written by the fragment stage keeps
// every slot in one draw; tessellation and geometry slots beyond the
// arrays split too (the extra draw gets both tessellation stages); a
// written resource with more slots of one kind than a draw holds is
// refused naming the stage.
func TestSplitGraphicsRules(t *testing.T) {
	g := &p.Graph{}
	vs, fs := vk.StageVertexShader, vk.StageFragmentShader
	tc, gs := vk.StageTessellationControlShader, vk.StageGeometryShader
	var acc []p.Access
	for i := 0; i < 9; i++ {
		b := g.AddBuffer(fmt.Sprintf("b%d", i), p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
		acc = append(acc, p.Access{Resource: b, Stages: vs | fs | tc | gs, Access: vk.AccessShaderStorageRead})
	}
	rw := g.AddBuffer("rw", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	acc = append(acc, p.Access{Resource: rw, Stages: fs, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	g.AddCommand("draw", acc...)
	w, err := analyzeCommand(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.gfxMore) != 1 {
		t.Fatalf("%d extra draws, want 1", len(w.gfxMore))
	}
	x := w.gfxMore[0]
	if x.parts[stTessControl] == nil || x.parts[stTessEval] == nil || x.parts[stGeometry] == nil {
		t.Errorf("the extra draw lacks a tessellation or geometry part")
	}
	groups := map[int]bool{}
	for gi, parts := range [][numStages]*part{w.parts, x.parts} {
		for _, st := range gfxStages {
			if pt := parts[st]; pt != nil {
				for _, s := range pt.slots {
					if s.res == rw {
						groups[gi] = true
					}
				}
			}
		}
	}
	if len(groups) != 1 {
		t.Errorf("rw's slots are in %d draw groups, want 1", len(groups))
	}

	// A storage image with five written mips in the fragment stage: five
	// written-image slots of one resource (a draw has four).
	g2 := &p.Graph{}
	img := g2.AddImage("mips", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, MipLevels: 5, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage})
	g2.AddCommand("draw", p.Access{Resource: img, Stages: fs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	_, err = analyzeCommand(g2, 0)
	if err == nil || !strings.Contains(err.Error(), "one written resource needs more than 4") || !strings.Contains(err.Error(), "fragment") {
		t.Errorf("five written mips of one image in a fragment stage: got %v, want a refusal naming the fragment stage's 4 slots", err)
	}
}

// TestSplitPreRaster replays a draw with nine storage buffers read in
// each of the vertex, tessellation control and evaluation, geometry and
// fragment stages (one more than each declares) and a fragment-stage
// read-modify-write: the extra draw has tessellation and geometry
// stages of its own. 0 messages, equal digests.
func TestSplitPreRaster(t *testing.T) {
	g := &p.Graph{}
	cs := vk.StageComputeShader
	pre := vk.StageVertexShader | vk.StageTessellationControlShader | vk.StageTessellationEvaluationShader | vk.StageGeometryShader | vk.StageFragmentShader
	var w, acc []p.Access
	for i := 0; i < 9; i++ {
		b := g.AddBuffer(fmt.Sprintf("b%d", i), p.BufferDesc{Size: uint64(128 * (i + 1)), Usage: vk.BufferUsageStorageBuffer})
		w = append(w, p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderStorageWrite})
		acc = append(acc, p.Access{Resource: b, Stages: pre, Access: vk.AccessShaderStorageRead})
	}
	rw := g.AddBuffer("rw", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	w = append(w, p.Access{Resource: rw, Stages: cs, Access: vk.AccessShaderStorageWrite})
	acc = append(acc, p.Access{Resource: rw, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	g.AddCommand("write", w...)
	g.AddCommand("draw", acc...)
	g.AddCommand("read", p.Access{Resource: rw, Stages: cs, Access: vk.AccessShaderStorageRead})
	wk, err := analyzeCommand(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(wk.gfxMore) != 1 || wk.gfxMore[0].parts[stGeometry] == nil || wk.gfxMore[0].parts[stTessEval] == nil {
		t.Fatalf("want one extra draw with tessellation and geometry parts")
	}
	compare(t, sharedDevice(t), g, 1)
}

// TestXfbIndirectHang: the frame a new ReplayKinds entry made seed 41
// draw (indirect-vertex and transform-feedback), whose aliased run never
// finished on lavapipe 22.3.6 (vkWaitForFences, llvmpipe at 100% CPU):
// lavapipe 22.3 runs vkCmdDrawIndirectByteCountEXT as an indirect draw
// from the argument buffer of the command buffer's last indirect draw,
// whose bytes the aliased plan has given to k2.captured (xfbquirk.go).
// It fails (hangs until -timeout) without the replay's workaround there.
func TestXfbIndirectHang(t *testing.T) {
	compare(t, sharedDevice(t), readFrame(t, "testdata/xfb-indirect-hang.json"), 1)
}
