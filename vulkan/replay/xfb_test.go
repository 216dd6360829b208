package replay

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// xfbGraph: a capture into "cap" whose End writes "ctr", a resume that
// reads and writes "ctr" (the append idiom), a draw whose vertex count
// is read from "ctr" (vkCmdDrawIndirectByteCountEXT), then a compute
// pass reading what was captured. imported makes cap and ctr imported
// (read back after the run).
func xfbGraph(imported bool) *p.Graph {
	g := &p.Graph{}
	add := func(name string, size uint64, usage vk.BufferUsage) p.ResourceID {
		return g.AddResource(p.Resource{Name: name, Kind: p.KindBuffer, Imported: imported, Buffer: p.BufferDesc{Size: size, Usage: usage}})
	}
	cap := add("cap", 1024, vk.BufferUsageTransformFeedbackBufferEXT|vk.BufferUsageStorageBuffer)
	ctr := add("ctr", 4, vk.BufferUsageTransformFeedbackCounterBufferEXT|vk.BufferUsageIndirectBuffer|vk.BufferUsageStorageBuffer)
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
	tf := vk.StageTransformFeedbackEXT
	g.AddCommand("capture", p.Access{Resource: cap, Stages: tf, Access: vk.AccessTransformFeedbackWriteEXT},
		p.Access{Resource: ctr, Stages: tf, Access: vk.AccessTransformFeedbackCounterWriteEXT})
	g.AddCommand("resume", p.Access{Resource: ctr, Stages: tf, Access: vk.AccessTransformFeedbackCounterReadEXT | vk.AccessTransformFeedbackCounterWriteEXT})
	g.AddCommand("bytecount", p.Access{Resource: ctr, Stages: vk.StageDrawIndirect, Access: vk.AccessTransformFeedbackCounterReadEXT},
		p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("read", p.Access{Resource: cap, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("sink.read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// TestTransformFeedback: the captures replay with no message and equal
// digests, and the captured bytes are exactly xfb.vert's words
// (hash(seed ^ hash(v)) for point v), the counter the bytes written plus
// what the resume added: the work is the capture the graph declares.
func TestTransformFeedback(t *testing.T) {
	d := sharedDevice(t)
	compare(t, d, xfbGraph(false), 2)

	g := xfbGraph(true)
	r, plan := prepare(t, d, g)
	if _, msgs, err := r.RunPlan(plan, 1, true); err != nil || len(msgs) != 0 {
		t.Fatalf("run: %v, messages %v", err, msgs)
	}
	rb := r.readback.bytes()
	var capw []byte
	var ctr uint32
	for _, o := range r.imports {
		switch g.Resources[o.id].Name {
		case "cap":
			capw = rb[o.offset : o.offset+o.bytes]
		case "ctr":
			ctr = binary.LittleEndian.Uint32(rb[o.offset:])
		}
	}
	seed := r.works[0].seed
	for v := 0; v < len(capw)/4; v++ {
		if got, want := binary.LittleEndian.Uint32(capw[4*v:]), hash32(seed^hash32(uint32(v))); got != want {
			t.Fatalf("captured word %d = %#x, want %#x", v, got, want)
		}
	}
	// The resume starts at the counter (1024, the buffer captured) in a
	// 256-byte sink region: nothing fits, so it ends where it began.
	if ctr != 1024 {
		t.Errorf("counter = %d, want 1024 (the capture's bytes)", ctr)
	}
	if len(r.xfbHashes()) != 2 {
		t.Errorf("%d sink regions, want 2 (resume, byte count)", len(r.xfbHashes()))
	}
}

// condGraph: "pred" (imported when imported; written by a compute pass
// when writer) is the predicate of "use", which does nothing else, and of
// "draw", which draws into an image that "read" samples.
func condGraph(imported, writer bool) *p.Graph {
	g := &p.Graph{}
	pred := g.AddResource(p.Resource{Name: "pred", Kind: p.KindBuffer, Imported: imported,
		Buffer: p.BufferDesc{Size: 256, Usage: vk.BufferUsageConditionalRenderingEXT | vk.BufferUsageStorageBuffer}})
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	if writer {
		g.AddCommand("pred.write", p.Access{Resource: pred, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	}
	cr := p.Access{Resource: pred, Stages: vk.StageConditionalRenderingEXT, Access: vk.AccessConditionalRenderingReadEXT}
	g.AddCommand("use", cr)
	g.AddCommand("draw", cr, p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("read", p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	return g
}

// TestConditionalRendering: the conditional commands replay with no
// message and equal digests, and the predicate decides: with its word
// set to zero the conditional commands' digests (and the sampled
// image's reader's) change, with it non-zero they match the first run.
func TestConditionalRendering(t *testing.T) {
	d := sharedDevice(t)
	compare(t, d, condGraph(false, true), 2)

	g := condGraph(true, false)
	r, plan := prepare(t, d, g)
	run := func(word uint32) *Run {
		binary.LittleEndian.PutUint32(r.staging.bytes(), word)
		x, msgs, err := r.RunPlan(plan, 1, true)
		if err != nil || len(msgs) != 0 {
			t.Fatalf("run: %v, messages %v", err, msgs)
		}
		return x
	}
	on, off, again := run(1), run(0), run(7)
	if diff := strings.Join(r.Diff(on, again), "; "); strings.Contains(diff, "command") {
		t.Errorf("two non-zero predicates differ: %v", diff)
	}
	diff := strings.Join(r.Diff(on, off), "; ")
	for _, c := range []string{`"use"`, `"read"`} {
		if !strings.Contains(diff, c) {
			t.Errorf("a zero predicate left command %s unchanged (diff: %s)", c, diff)
		}
	}
	use := slices.IndexFunc(r.works, func(w work) bool { return w.name == "use" })
	for _, v := range off.res[0].lanes[r.works[use].parts[stCompute].index*lanesPerCmd:][:lanesPerCmd] {
		if v != 0 {
			t.Fatalf("the dispatch of \"use\" ran under a zero predicate")
		}
	}
}

// TestXfbCondRefusals: what Vulkan does not allow is refused naming the
// rule (the model lets the usages through: the planner checks that a
// flag's usage is present, not Vulkan's extra ones).
func TestXfbCondRefusals(t *testing.T) {
	tf, cr := vk.StageTransformFeedbackEXT, vk.StageConditionalRenderingEXT
	for _, c := range []struct {
		name  string
		usage vk.BufferUsage
		size  uint64
		acc   []p.Access // of resource 0, then of resource 1
		want  string
	}{
		{"byte count without INDIRECT_BUFFER", vk.BufferUsageTransformFeedbackCounterBufferEXT, 4,
			[]p.Access{{Stages: vk.StageDrawIndirect, Access: vk.AccessTransformFeedbackCounterReadEXT}}, "VUID-vkCmdDrawIndirectByteCountEXT-counterBuffer-02290"},
		{"capture without its usage", vk.BufferUsageStorageBuffer, 64,
			[]p.Access{{Stages: tf, Access: vk.AccessTransformFeedbackWriteEXT}}, "TRANSFORM_FEEDBACK_BUFFER usage"},
		{"counter of 2 bytes", vk.BufferUsageTransformFeedbackCounterBufferEXT, 2,
			[]p.Access{{Stages: tf, Access: vk.AccessTransformFeedbackCounterWriteEXT}}, "4 bytes or more"},
		{"predicate without its usage", vk.BufferUsageStorageBuffer, 64,
			[]p.Access{{Stages: cr, Access: vk.AccessConditionalRenderingReadEXT}}, "CONDITIONAL_RENDERING usage"},
		{"two predicates", vk.BufferUsageConditionalRenderingEXT, 64,
			[]p.Access{{Stages: cr, Access: vk.AccessConditionalRenderingReadEXT}, {Resource: 1, Stages: cr, Access: vk.AccessConditionalRenderingReadEXT}}, "one active at a time"},
	} {
		g := &p.Graph{}
		g.AddBuffer("a", p.BufferDesc{Size: c.size, Usage: c.usage})
		g.AddBuffer("b", p.BufferDesc{Size: c.size, Usage: c.usage})
		g.AddCommand("x", c.acc...)
		_, err := analyzeCommand(g, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.name, err, c.want)
		}
	}
}
