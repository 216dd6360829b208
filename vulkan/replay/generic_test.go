package replay

import (
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// genericFrame uses every generic stage and access the model has on
// buffers and images: ALL_COMMANDS + MEMORY_WRITE of a storage buffer, of
// a fill-only buffer, of a storage image in GENERAL and of a colour
// attachment; ALL_GRAPHICS + MEMORY_READ of a sampled image and of a
// uniform buffer; COMPUTE_SHADER + MEMORY_READ|MEMORY_WRITE of a buffer;
// ALL_COMMANDS + SHADER_STORAGE_WRITE (generic stage, concrete flag), a
// buffer copied onto itself (TRANSFER_READ|TRANSFER_WRITE, selfcopy.go), and
// transients that alias one another between them.
func genericFrame() *p.Graph {
	g := &p.Graph{}
	all, gfx := vk.StageAllCommands, vk.StageAllGraphics
	mr, mw := vk.AccessMemoryRead, vk.AccessMemoryWrite
	sb := g.AddBuffer("storage", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageUniformBuffer})
	fill := g.AddBuffer("fill", p.BufferDesc{Size: 2048, Usage: vk.BufferUsageTransferDst | vk.BufferUsageTransferSrc | vk.BufferUsageUniformBuffer})
	rw := g.AddBuffer("rw", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	img := func(name string, u vk.ImageUsage) p.ResourceID {
		return g.AddImage(name, p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: u})
	}
	st := img("st", vk.ImageUsageStorage|vk.ImageUsageSampled)
	col := img("col", vk.ImageUsageColorAttachment|vk.ImageUsageSampled)
	out := g.AddBuffer("out", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("w.buf", p.Access{Resource: sb, Stages: all, Access: mw}, p.Access{Resource: rw, Stages: all, Access: mw})
	g.AddCommand("w.fill", p.Access{Resource: fill, Stages: all, Access: mw})
	g.AddCommand("self.copy", p.Access{Resource: fill, Stages: vk.StageCopy, Access: vk.AccessTransferRead | vk.AccessTransferWrite})
	g.AddCommand("w.img", p.Access{Resource: st, Stages: all, Access: mw, Layout: vk.LayoutGeneral},
		p.Access{Resource: sb, Stages: all, Access: mr})
	g.AddCommand("w.col", p.Access{Resource: col, Stages: gfx, Access: mw | mr, Layout: vk.LayoutColorAttachmentOptimal},
		p.Access{Resource: fill, Stages: gfx, Access: mr})
	g.AddCommand("rw", p.Access{Resource: rw, Stages: vk.StageComputeShader, Access: mr | mw},
		p.Access{Resource: st, Stages: gfx, Access: mr, Layout: vk.LayoutShaderReadOnlyOptimal})
	g.AddCommand("sum", p.Access{Resource: col, Stages: all, Access: mr, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: rw, Stages: all, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: out, Stages: all, Access: vk.AccessShaderStorageWrite})
	return g
}

// TestGenericChoices: each generic use of genericFrame becomes the work
// generic.go documents, and a use no work fits is refused naming its usage.
func TestGenericChoices(t *testing.T) {
	g := genericFrame()
	cg := concreteGraph(g)
	want := []struct {
		cmd, acc int
		st       vk.Stage
		f        vk.AccessFlags
	}{
		{0, 0, vk.StageComputeShader, vk.AccessShaderStorageWrite},
		{1, 0, vk.StageClear, vk.AccessTransferWrite},
		{3, 0, vk.StageComputeShader, vk.AccessShaderStorageWrite},
		{3, 1, vk.StageComputeShader, vk.AccessUniformRead},
		{4, 0, vk.StageColorAttachmentOutput, vk.AccessColorAttachmentWrite | vk.AccessColorAttachmentRead},
		{4, 1, vk.StageFragmentShader, vk.AccessUniformRead},
		{5, 0, vk.StageComputeShader, vk.AccessShaderStorageWrite | vk.AccessShaderStorageRead},
		{5, 1, vk.StageFragmentShader, vk.AccessShaderSampledRead},
		{6, 0, vk.StageComputeShader, vk.AccessShaderSampledRead},
		{6, 2, vk.StageComputeShader, vk.AccessShaderStorageWrite},
	}
	for _, w := range want {
		a := cg.Commands[w.cmd].Accesses[w.acc]
		if a.Stages != w.st || a.Access != w.f {
			t.Errorf("%s access %d: %s %s, want %s %s", g.Commands[w.cmd].Name, w.acc, a.Stages, a.Access, w.st, w.f)
		}
	}
	if w, err := analyzeCommand(cg, 2); err != nil || len(w.copies) != 1 || w.copies[0].src != w.copies[0].dst {
		t.Errorf("self.copy: %+v, %v", w.copies, err)
	}
	if g.Commands[0].Accesses[0].Access != vk.AccessMemoryWrite {
		t.Error("concreteGraph changed its input")
	}
	for c := range cg.Commands {
		if _, err := analyzeCommand(cg, p.CommandID(c)); err != nil {
			t.Errorf("%s: %v", g.Commands[c].Name, err)
		}
	}
	// A buffer with only TRANSFER_SRC usage has no write a MEMORY_WRITE
	// could stand for.
	b := &p.Graph{}
	src := b.AddBuffer("src", p.BufferDesc{Size: 256, Usage: vk.BufferUsageTransferSrc})
	b.AddCommand("x", p.Access{Resource: src, Stages: vk.StageAllCommands, Access: vk.AccessMemoryWrite})
	if _, err := analyzeCommand(concreteGraph(b), 0); err == nil {
		t.Error("a MEMORY_WRITE of a TRANSFER_SRC-only buffer was accepted")
	}
}

// TestGenericFrame replays genericFrame both ways: zero messages, equal
// digests.
func TestGenericFrame(t *testing.T) {
	d := sharedDevice(t)
	rep := compare(t, d, genericFrame(), 1)
	if !rep.DigestsEqual {
		t.Error("digests differ")
	}
}
