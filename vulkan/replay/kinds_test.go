package replay

import (
	"errors"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// TestOneWritingDraw: a command whose fragment shader writes storage
// beside attachments of several mips and an indirect draw gets a write
// pass of its own; every other draw is quiet, and the quiet masks leave
// the written resource out of both stages.
func TestOneWritingDraw(t *testing.T) {
	g := &p.Graph{}
	col := g.AddImage("color", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 2, ArrayLayers: 1, Samples: 1,
		Usage: vk.ImageUsageColorAttachment})
	// One written buffer per stage: one buffer read and written by both
	// stages of a draw would race (vertex v and fragment p touch word v and
	// p: selfrace.go refuses it).
	buf := g.AddBuffer("out", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	vbuf := g.AddBuffer("vout", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	args := g.AddBuffer("args", p.BufferDesc{Size: 16, Usage: vk.BufferUsageIndirectBuffer})
	g.AddCommand("draw", p.Access{Resource: col, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
		p.Access{Resource: buf, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite},
		p.Access{Resource: vbuf, Stages: vk.StageVertexShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite},
		p.Access{Resource: args, Stages: vk.StageDrawIndirect, Access: vk.AccessIndirectCommandRead})
	w, err := analyzeCommand(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	writing := 0
	for i := range w.passes {
		ps := &w.passes[i]
		if !quietDraw(&w, ps, true) {
			writing++
			if i != 0 || len(ps.colors) != 0 || ps.depth.att >= 0 {
				t.Errorf("pass %d writes: %+v", i, *ps)
			}
		}
		if !quietDraw(&w, ps, false) {
			t.Errorf("pass %d: an extra draw is not quiet", i)
		}
	}
	if writing != 1 || len(w.passes) != 3 {
		t.Errorf("%d writing draws in %d passes, want 1 in 3 (write pass, two mips)", writing, len(w.passes))
	}
	for _, st := range []stage{stVertex, stFragment} {
		for c, m := range w.quiet[st] {
			if m != 0 {
				t.Errorf("%s: quiet mask of %s is %#x: the written buffer is still bound", stageNames[st], cats[c].name, m)
			}
		}
	}
}

// TestReplayPlanAddsSampledRead: only scopes naming INPUT_ATTACHMENT_READ
// change, and the input plan is left alone.
func TestReplayPlanAddsSampledRead(t *testing.T) {
	plan := &p.Plan{Barriers: []p.Barrier{
		{DstStages: vk.StageFragmentShader, DstAccess: vk.AccessInputAttachmentRead, SrcAccess: vk.AccessColorAttachmentWrite},
		{DstStages: vk.StageComputeShader, DstAccess: vk.AccessShaderStorageRead},
	}}
	got := replayPlan(plan)
	if got.Barriers[0].DstAccess != vk.AccessInputAttachmentRead|vk.AccessShaderSampledRead || got.Barriers[0].SrcAccess != vk.AccessColorAttachmentWrite {
		t.Errorf("barrier 0: %+v", got.Barriers[0])
	}
	if got.Barriers[1].DstAccess != plan.Barriers[1].DstAccess || plan.Barriers[0].DstAccess != vk.AccessInputAttachmentRead {
		t.Errorf("changed what it should not: %+v / input %+v", got.Barriers[1], plan.Barriers[0])
	}
	if in := (&p.Plan{Barriers: plan.Barriers[1:]}); replayPlan(in) != in {
		t.Error("a plan without input attachments changed")
	}
}

// TestHostOrder: a host write after a GPU use and a host read before a GPU
// write are refused naming the rule; host accesses need host-visible
// memory.
func TestHostOrder(t *testing.T) {
	g := &p.Graph{}
	up := g.AddResource(p.Resource{Name: "upload", Kind: p.KindBuffer, Memory: p.CPUToGPU,
		Buffer: p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer}})
	g.AddCommand("gpu.write", p.Access{Resource: up, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("host.write", p.Access{Resource: up, Stages: vk.StageHost, Access: vk.AccessHostWrite})
	g.AddCommand("host.read", p.Access{Resource: up, Stages: vk.StageHost, Access: vk.AccessHostRead})
	ws := make([]work, len(g.Commands))
	for c := range ws {
		var err error
		if ws[c], err = analyzeCommand(g, p.CommandID(c)); err != nil {
			t.Fatal(err)
		}
	}
	r := &Replayer{g: g, works: ws}
	var ue *UnsupportedError
	if err := r.checkHost([]p.CommandID{0, 1}); !errors.As(err, &ue) || ue.Command != "host.write" || !strings.Contains(ue.Reason, "before the frame") {
		t.Errorf("host write after a GPU use: %v", err)
	}
	if err := r.checkHost([]p.CommandID{2, 0}); !errors.As(err, &ue) || ue.Command != "host.read" {
		t.Errorf("host read before a GPU write: %v", err)
	}
	if err := r.checkHost([]p.CommandID{1, 0, 2}); err != nil {
		t.Errorf("host write, GPU write, host read: %v", err)
	}
	g.Resources[up].Memory = p.GPUOnly
	if _, err := analyzeCommand(g, 1); !errors.As(err, &ue) || !strings.Contains(ue.Reason, "host-visible") {
		t.Errorf("GPU-only host write: %v", err)
	}
}
