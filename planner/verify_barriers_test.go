package planner

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func vbBuffer(g *Graph, name string, imported bool) ResourceID {
	r := Resource{Name: name, Kind: KindBuffer, Buffer: BufferDesc{Size: 1024}, Imported: imported}
	if !imported {
		r.Requirements = &Requirements{Size: 1024, Alignment: 256, MemoryTypeBits: 3}
	}
	return g.AddResource(r)
}

func vbImage(g *Graph, name string, imported bool) ResourceID {
	r := Resource{Name: name, Kind: KindImage, Imported: imported, Image: ImageDesc{Format: FormatR8G8B8A8Unorm, Width: 64, Height: 64,
		Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Usage: ImageUsageColorAttachment | ImageUsageSampled | ImageUsageStorage}}
	if !imported {
		r.Requirements = &Requirements{Size: 1024, Alignment: 256, MemoryTypeBits: 3}
	}
	return g.AddResource(r)
}

// vbPlan makes a plan of g in recorded order that pools the named
// resources of each class in one pool at the given offsets (1024 bytes
// each) and dedicates the other transients.
func vbPlan(g *Graph, offsets map[string]uint64) *Plan {
	p := &Plan{Pools: []Pool{{Index: 0, Class: ClassLinear, Size: 1 << 20}, {Index: 1, Class: ClassOptimal, Size: 1 << 20}},
		Resources: make([]ResourcePlan, len(g.Resources))}
	for i := range g.Commands {
		p.Order = append(p.Order, CommandID(i))
	}
	for r := range g.Resources {
		res := &g.Resources[r]
		switch off, ok := offsets[res.Name]; {
		case res.Imported:
			p.Resources[r].Status = StatusImported
		case ok:
			p.Resources[r] = ResourcePlan{Status: StatusPooled, Requirements: *res.Requirements,
				Placement: Placement{Pool: int(res.Class()), Offset: off, Size: 1024, Alignment: 256}}
		default:
			p.Resources[r] = ResourcePlan{Status: StatusDedicated, Requirements: *res.Requirements}
		}
	}
	return p
}

// vb builds a barrier: before, kind, type, resource, scopes, layouts.
func vb(before CommandID, kind BarrierKind, typ BarrierType, r ResourceID, src Stage, srcA AccessFlags, dst Stage, dstA AccessFlags, layouts ...Layout) Barrier {
	x := Barrier{Before: before, Kind: kind, Type: typ, Resource: r, SrcStages: src, SrcAccess: srcA, DstStages: dst, DstAccess: dstA}
	if len(layouts) == 2 {
		x.OldLayout, x.NewLayout = layouts[0], layouts[1]
	}
	return x
}

// vbBufferAlias is a buffer alias: a, read at the end, then b in its bytes,
// ordered through the imported buffer x.
func vbBufferAlias() (*Graph, *Plan) {
	g := &Graph{}
	a, b, x := vbBuffer(g, "a", false), vbBuffer(g, "b", false), vbBuffer(g, "x", true)
	g.AddCommand("write-a", Access{Resource: a, Stages: StageComputeShader, Access: AccessShaderStorageWrite})
	g.AddCommand("read-a", Access{Resource: a, Stages: StageComputeShader, Access: AccessShaderStorageRead},
		Access{Resource: x, Stages: StageComputeShader, Access: AccessShaderStorageWrite})
	g.AddCommand("write-b", Access{Resource: x, Stages: StageComputeShader, Access: AccessShaderStorageRead},
		Access{Resource: b, Stages: StageCopy, Access: AccessTransferWrite})
	g.AddCommand("read-b", Access{Resource: b, Stages: StageFragmentShader, Access: AccessShaderStorageRead})
	p := vbPlan(g, map[string]uint64{"a": 0, "b": 0})
	p.Barriers = []Barrier{
		vb(1, Hazard, BufferBarrier, a, StageComputeShader, AccessShaderStorageWrite, StageComputeShader, AccessShaderStorageRead),
		vb(2, Hazard, BufferBarrier, x, StageComputeShader, AccessShaderStorageWrite, StageComputeShader, AccessShaderStorageRead),
		vb(2, Alias, MemoryBarrier, b, StageComputeShader, 0, StageCopy, AccessTransferWrite),
		vb(3, Hazard, BufferBarrier, b, StageCopy, AccessTransferWrite, StageFragmentShader, AccessShaderStorageRead),
	}
	p.Barriers[2].Previous = []ResourceID{a}
	return g, p
}

// vbImageAlias is an image alias with layout transitions and an imported
// image (barriers as barriers.Build makes them).
func vbImageAlias() (*Graph, *Plan) {
	g := &Graph{}
	albedo, ssao, out := vbImage(g, "albedo", false), vbImage(g, "ssao", false), vbImage(g, "out", true)
	g.AddCommand("gbuffer", Access{Resource: albedo, Stages: StageColorAttachmentOutput, Access: AccessColorAttachmentWrite, Layout: LayoutColorAttachmentOptimal})
	g.AddCommand("light", Access{Resource: albedo, Stages: StageFragmentShader, Access: AccessShaderSampledRead, Layout: LayoutShaderReadOnlyOptimal},
		Access{Resource: out, Stages: StageColorAttachmentOutput, Access: AccessColorAttachmentWrite, Layout: LayoutColorAttachmentOptimal})
	g.AddCommand("ssao", Access{Resource: out, Stages: StageComputeShader, Access: AccessShaderStorageRead | AccessShaderStorageWrite, Layout: LayoutGeneral},
		Access{Resource: ssao, Stages: StageComputeShader, Access: AccessShaderStorageWrite, Layout: LayoutGeneral})
	g.AddCommand("blur", Access{Resource: ssao, Stages: StageFragmentShader, Access: AccessShaderSampledRead, Layout: LayoutShaderReadOnlyOptimal})
	p := vbPlan(g, map[string]uint64{"albedo": 0, "ssao": 0})
	const (
		att, ro, gen, undef = LayoutColorAttachmentOptimal, LayoutShaderReadOnlyOptimal, LayoutGeneral, LayoutUndefined
		color, frag, comp   = StageColorAttachmentOutput, StageFragmentShader, StageComputeShader
		caw, sampled        = AccessColorAttachmentWrite, AccessShaderSampledRead
		ssw, ssr            = AccessShaderStorageWrite, AccessShaderStorageRead
	)
	p.Barriers = []Barrier{
		vb(0, Hazard, ImageBarrier, albedo, 0, 0, color, caw, undef, att),
		vb(1, Hazard, ImageBarrier, albedo, color, caw, frag, sampled, att, ro),
		vb(1, Hazard, ImageBarrier, out, color, 0, color, caw, undef, att),
		vb(2, Hazard, ImageBarrier, out, color, caw, comp, ssr|ssw, att, gen),
		vb(2, Alias, ImageBarrier, ssao, frag, 0, comp, ssw, undef, gen),
		vb(3, Hazard, ImageBarrier, ssao, comp, ssw, frag, sampled, gen, ro),
	}
	p.Barriers[4].Previous = []ResourceID{albedo}
	return g, p
}

// vbChain: w written by a copy, read by a fragment shader two commands
// later; command "other" in between touches only y.
func vbChain() (*Graph, *Plan) {
	g := &Graph{}
	w, y := vbBuffer(g, "w", false), vbBuffer(g, "y", true)
	g.AddCommand("write", Access{Resource: w, Stages: StageCopy, Access: AccessTransferWrite})
	g.AddCommand("other", Access{Resource: y, Stages: StageComputeShader, Access: AccessShaderStorageWrite})
	g.AddCommand("read", Access{Resource: w, Stages: StageFragmentShader, Access: AccessShaderStorageRead})
	p := vbPlan(g, nil)
	p.Barriers = []Barrier{
		vb(1, Hazard, BufferBarrier, w, StageCopy, AccessTransferWrite, StageComputeShader, 0),
		vb(2, Hazard, BufferBarrier, w, StageComputeShader, 0, StageFragmentShader, AccessShaderStorageRead),
	}
	return g, p
}

func TestVerifyBarriers(t *testing.T) {
	type mutation func(g *Graph, p *Plan)
	del := func(k int) mutation {
		return func(_ *Graph, p *Plan) { p.Barriers = slices.Delete(p.Barriers, k, k+1) }
	}
	for _, tc := range []struct {
		name   string
		frame  func() (*Graph, *Plan)
		mutate mutation
		rule   Rule   // "" when the plan is right
		want   string // in the error
	}{
		{"buffer alias", vbBufferAlias, nil, "", ""},
		{"missing alias barrier", vbBufferAlias, del(2), RuleAliasBarrier, `alias "a" → "b" before command "write-b": missing alias barrier`},
		{"alias source misses the old occupant", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].SrcStages = StageFragmentShader },
			RuleAliasBarrier, "do not include the old occupant's terminal scope COMPUTE_SHADER / NONE"},
		{"alias destination misses the first use", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].DstAccess = 0 }, RuleAliasBarrier, "first use COPY / TRANSFER_WRITE"},
		{"alias lists a stranger", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].Previous = []ResourceID{0, 2} }, RuleAliasBarrier, "not an old occupant"},
		{"alias as a buffer barrier", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].Type = BufferBarrier }, RuleBarrier, "must be a memory barrier"},
		{"alias after the first use", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].Before = 3 }, RuleBarrier, "not before the resource's initial use"},
		{"alias without previous", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[2].Previous = nil }, RuleBarrier, "without old occupants"},
		{"hazard with previous", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].Previous = []ResourceID{1} }, RuleBarrier, "hazard barrier with old occupants"},
		{"missing hazard barrier", vbBufferAlias, del(0), RuleHazardBarrier,
			`resource "a" from command "write-a" before command "read-a": read-after-write not covered`},
		{"write not made available", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].SrcAccess = 0 }, RuleHazardBarrier, "read-after-write"},
		{"write not made visible", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[3].DstAccess = AccessShaderStorageWrite }, RuleHazardBarrier, "read-after-write"},
		{"wrong destination stage", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[3].DstStages = StageComputeShader }, RuleHazardBarrier, "read-after-write"},
		{"barrier too late", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].Before = 2 }, RuleHazardBarrier, `before command "read-a"`},
		{"access with stage NONE", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].SrcStages = 0 }, RuleStageAccess, "cannot be performed by source stages NONE"},
		{"destination access with stage NONE", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].DstStages = StageBottomOfPipe }, RuleStageAccess, "cannot be performed by destination stages BOTTOM_OF_PIPE"},
		// Issue 12 item 4: a write "made available" at BOTTOM_OF_PIPE, and an
		// access no stage of the mask performs.
		{"source write at bottom of pipe", vbBufferAlias, func(_ *Graph, p *Plan) {
			p.Barriers[0].SrcStages, p.Barriers[0].SrcAccess = StageBottomOfPipe, AccessShaderStorageWrite
		}, RuleStageAccess, "SHADER_STORAGE_WRITE cannot be performed by source stages BOTTOM_OF_PIPE"},
		{"destination access at top of pipe", vbBufferAlias, func(_ *Graph, p *Plan) {
			p.Barriers[0].DstStages, p.Barriers[0].DstAccess = StageTopOfPipe, AccessShaderStorageRead
		}, RuleStageAccess, "SHADER_STORAGE_READ cannot be performed by destination stages TOP_OF_PIPE"},
		{"access the stage cannot perform", vbBufferAlias, func(_ *Graph, p *Plan) {
			p.Barriers[0].DstStages, p.Barriers[0].DstAccess = StageComputeShader, AccessColorAttachmentWrite
		}, RuleStageAccess, "COLOR_ATTACHMENT_WRITE cannot be performed by destination stages COMPUTE_SHADER"},
		{"not grouped", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0], p.Barriers[3] = p.Barriers[3], p.Barriers[0] }, RuleBarrier, "not grouped"},
		{"buffer barrier on an image", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[1].Type = BufferBarrier }, RuleBarrier, "buffer barrier on an image"},
		{"layouts on a buffer barrier", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[0].NewLayout = LayoutGeneral }, RuleBarrier, "with layouts"},
		{"unknown command", vbBufferAlias, func(_ *Graph, p *Plan) { p.Barriers[3].Before = 9 }, RuleBarrier, "command 9 does not exist"},
		{"order not a permutation", vbBufferAlias, func(_ *Graph, p *Plan) { p.Order[1] = 0 }, RuleOrder, "repeated"},
		{"order too short", vbBufferAlias, func(_ *Graph, p *Plan) { p.Order = p.Order[:3] }, RuleOrder, "order has 3 commands"},

		{"image alias", vbImageAlias, nil, "", ""},
		{"missing first-use transition", vbImageAlias, del(0), RuleLayoutBarrier,
			`resource "albedo" before command "gbuffer": the command needs layout COLOR_ATTACHMENT_OPTIMAL, but the image is in UNDEFINED`},
		{"wrong old layout", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[1].OldLayout = LayoutUndefined }, RuleLayoutBarrier, "oldLayout UNDEFINED, but the image is in layout COLOR_ATTACHMENT_OPTIMAL"},
		{"transition too early", vbImageAlias, func(_ *Graph, p *Plan) {
			p.Barriers[5].Before = 2 // ssao's transition to read-only, beside its alias barrier
		}, RuleLayoutBarrier, "two image barriers on one image"},
		{"transition too late", vbImageAlias, func(_ *Graph, p *Plan) {
			p.Barriers[1].Before = 2 // albedo's transition to read-only, before ssao
			p.Barriers[1], p.Barriers[2] = p.Barriers[2], p.Barriers[1]
		}, RuleLayoutBarrier, `resource "albedo" before command "light": the command needs layout SHADER_READ_ONLY_OPTIMAL, but the image is in COLOR_ATTACHMENT_OPTIMAL`},
		{"transition before a command that does not use the image", vbImageAlias, func(_ *Graph, p *Plan) {
			p.Barriers = append(p.Barriers, vb(3, Hazard, ImageBarrier, 0, StageFragmentShader, 0, StageComputeShader, 0,
				LayoutShaderReadOnlyOptimal, LayoutGeneral))
		}, RuleLayoutBarrier, "layout transition before a command that does not use the image"},
		{"transition does not reach the use", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[1].DstStages = StageVertexShader }, RuleLayoutBarrier,
			"destination scope VERTEX_SHADER / SHADER_SAMPLED_READ does not include the command's use FRAGMENT_SHADER / SHADER_SAMPLED_READ"},
		{"transition not ordered after the writer", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[3].SrcStages, p.Barriers[3].SrcAccess = 0, 0 },
			RuleHazardBarrier, "ending at the layout transition (barrier 3)"},
		// VULKAN-NOTES: a memory barrier followed by an image barrier whose
		// source stage is NONE does not chain with the transition.
		{"memory barrier then transition from NONE", vbImageAlias, func(_ *Graph, p *Plan) {
			p.Barriers[3].SrcStages, p.Barriers[3].SrcAccess = 0, 0
			p.Barriers = slices.Insert(p.Barriers, 3, vb(2, Hazard, MemoryBarrier, 2, StageColorAttachmentOutput, AccessColorAttachmentWrite,
				StageComputeShader, AccessShaderStorageRead|AccessShaderStorageWrite))
		}, RuleHazardBarrier, "ending at the layout transition"},
		{"image alias split into a memory barrier and a bare transition", vbImageAlias, func(_ *Graph, p *Plan) {
			p.Barriers[4].Kind, p.Barriers[4].Previous, p.Barriers[4].SrcStages = Hazard, nil, 0
			p.Barriers = slices.Insert(p.Barriers, 4, vb(2, Hazard, MemoryBarrier, 1, StageFragmentShader, 0, StageComputeShader, AccessShaderStorageWrite))
		}, RuleAliasBarrier, `alias "albedo" → "ssao" before command "ssao": missing alias barrier`},
		{"image alias from a kept layout", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[4].OldLayout = LayoutGeneral }, RuleBarrier, "must transition from UNDEFINED"},
		{"image alias without the old scope", vbImageAlias, func(_ *Graph, p *Plan) { p.Barriers[4].SrcStages = 0 }, RuleAliasBarrier,
			"terminal scope FRAGMENT_SHADER / NONE"},
		{"imported image left in its initial layout", vbImageAlias, del(2), RuleLayoutBarrier, `resource "out" before command "light"`},

		{"chain of two barriers", vbChain, nil, "", ""},
		{"chain through a memory barrier", vbChain, func(_ *Graph, p *Plan) { p.Barriers[1].Type, p.Barriers[1].Resource = MemoryBarrier, 1 }, "", ""},
		{"chain broken", vbChain, func(_ *Graph, p *Plan) { p.Barriers[1].SrcStages = StageVertexShader }, RuleHazardBarrier, "read-after-write"},
		{"chain without availability", vbChain, func(_ *Graph, p *Plan) { p.Barriers[0].SrcAccess = 0 }, RuleHazardBarrier, "read-after-write"},
		{"chain made visible on another buffer", vbChain, func(_ *Graph, p *Plan) { p.Barriers[1].Resource = 1 }, RuleHazardBarrier, "read-after-write"},
		{"barriers of one command do not chain", vbChain, func(_ *Graph, p *Plan) { p.Barriers[0].Before = 2 }, RuleHazardBarrier, "read-after-write"},
		{"meta stages and accesses", vbChain, func(_ *Graph, p *Plan) {
			p.Barriers = []Barrier{vb(2, Hazard, BufferBarrier, 0, StageAllCommands, AccessMemoryWrite, StageAllGraphics, AccessShaderRead)}
		}, "", ""},
		{"bottom of pipe makes nothing available", vbChain, func(_ *Graph, p *Plan) {
			p.Barriers = []Barrier{vb(2, Hazard, BufferBarrier, 0, StageBottomOfPipe|StageFragmentShader, AccessTransferWrite, StageFragmentShader, AccessShaderStorageRead)}
		}, RuleStageAccess, "TRANSFER_WRITE cannot be performed by source stages FRAGMENT_SHADER|BOTTOM_OF_PIPE"},
		{"top of pipe waits but sees nothing", vbChain, func(_ *Graph, p *Plan) {
			p.Barriers = []Barrier{vb(2, Hazard, BufferBarrier, 0, StageCopy, AccessTransferWrite, StageTopOfPipe, 0)}
		}, RuleHazardBarrier, "read-after-write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, p := tc.frame()
			if tc.mutate != nil {
				tc.mutate(g, p)
			}
			c, err := Compile(g)
			if err != nil {
				t.Fatal(err)
			}
			err = verifyBarriers(c, p)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("verifyBarriers: %v", err)
				}
				return
			}
			var be *BarrierError
			if !errors.As(err, &be) || be.Rule != tc.rule || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("verifyBarriers: %v\nwant rule %s and %q", err, tc.rule, tc.want)
			}
		})
	}
}

// A write after reads needs no barrier of its own against the write before
// the reads: the read barriers order it, and the chain carries it on.
func TestVerifyWriteAfterReadsChains(t *testing.T) {
	g := &Graph{}
	x, q := vbBuffer(g, "x", false), vbBuffer(g, "q", true)
	g.AddCommand("write", Access{Resource: x, Stages: StageCopy, Access: AccessTransferWrite})
	g.AddCommand("read", Access{Resource: x, Stages: StageFragmentShader, Access: AccessShaderStorageRead})
	g.AddCommand("rewrite", Access{Resource: x, Stages: StageComputeShader, Access: AccessShaderStorageWrite}, Access{Resource: q, Stages: StageComputeShader})
	c, err := Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p := vbPlan(g, nil)
	p.Barriers = []Barrier{
		vb(1, Hazard, BufferBarrier, x, StageCopy, AccessTransferWrite, StageFragmentShader, AccessShaderStorageRead),
		vb(2, Hazard, BufferBarrier, x, StageFragmentShader, 0, StageComputeShader, AccessShaderStorageWrite),
	}
	if err := verifyBarriers(c, p); err != nil {
		t.Fatal(err)
	}
	// The write after read alone is execution-only: any barrier will do,
	// here one on another buffer. The write after write is not.
	p.Barriers[1].Resource = q
	err = verifyBarriers(c, p)
	if err == nil || !strings.Contains(err.Error(), "write-after-write") {
		t.Fatalf("verifyBarriers: %v, want the write after write uncovered", err)
	}
	p.Barriers = append(p.Barriers, vb(2, Hazard, BufferBarrier, x, StageCopy, AccessTransferWrite, StageComputeShader, AccessShaderStorageWrite))
	if err := verifyBarriers(c, p); err != nil {
		t.Fatal(err)
	}
}

// vbGenerations: a, then c, then b in overlapping bytes; c reuses the
// bytes of a that b reuses when cOffset is 0.
func vbGenerations(cOffset uint64, previous ...string) (*Compiled, *Plan, error) {
	g := &Graph{}
	a, c, b := vbBuffer(g, "a", false), vbBuffer(g, "c", false), vbBuffer(g, "b", false)
	x, y := vbBuffer(g, "x", true), vbBuffer(g, "y", true)
	const comp, ssr, ssw = StageComputeShader, AccessShaderStorageRead, AccessShaderStorageWrite
	g.AddCommand("write-a", Access{Resource: a, Stages: comp, Access: ssw})
	g.AddCommand("read-a", Access{Resource: a, Stages: comp, Access: ssr}, Access{Resource: x, Stages: comp, Access: ssw})
	g.AddCommand("write-c", Access{Resource: x, Stages: comp, Access: ssr}, Access{Resource: c, Stages: comp, Access: ssw})
	g.AddCommand("read-c", Access{Resource: c, Stages: comp, Access: ssr}, Access{Resource: y, Stages: comp, Access: ssw})
	g.AddCommand("write-b", Access{Resource: y, Stages: comp, Access: ssr}, Access{Resource: b, Stages: comp, Access: ssw})
	cc, err := Compile(g)
	if err != nil {
		return nil, nil, err
	}
	p := vbPlan(g, map[string]uint64{"a": 0, "c": cOffset, "b": 0})
	haz := func(before CommandID, r ResourceID) Barrier {
		return vb(before, Hazard, BufferBarrier, r, comp, ssw, comp, ssr)
	}
	alias := func(before CommandID, r ResourceID, prev ...ResourceID) Barrier {
		x := vb(before, Alias, MemoryBarrier, r, comp, 0, comp, ssw)
		x.Previous = prev
		return x
	}
	var prevB []ResourceID
	for _, n := range previous {
		id, _ := g.ResourceByName(n)
		prevB = append(prevB, id)
	}
	p.Barriers = []Barrier{haz(1, a), haz(2, x), alias(2, c, a), haz(3, c), haz(4, y), alias(4, b, prevB...)}
	return cc, p, nil
}

func TestVerifyOldOccupantReusedByALaterOne(t *testing.T) {
	for _, tc := range []struct {
		cOffset  uint64
		previous []string
		ok       bool
	}{
		{0, []string{"a", "c"}, true},
		{0, []string{"c"}, true},    // a's shared bytes all reused by c
		{512, []string{"c"}, false}, // half of them only
		{512, []string{"a", "c"}, true},
		{0, []string{"a"}, false}, // c, the later one, must be named
	} {
		c, p, err := vbGenerations(tc.cOffset, tc.previous...)
		if err != nil {
			t.Fatal(err)
		}
		err = verifyBarriers(c, p)
		if (err == nil) != tc.ok {
			t.Errorf("c at %d, b's previous %v: verifyBarriers: %v, want ok %v", tc.cOffset, tc.previous, err, tc.ok)
		}
	}
}

func TestBarrierErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		err  BarrierError
		want string
	}{
		{BarrierError{Before: "ssao", Resource: "ssao", Previous: "gbuffer.albedo", Barrier: -1, Rule: RuleAliasBarrier, Detail: "missing alias barrier"},
			`planner: alias "gbuffer.albedo" → "ssao" before command "ssao": missing alias barrier (rule alias-barrier)`},
		{BarrierError{Before: "b", After: "a", Resource: "r", Barrier: -1, Rule: RuleHazardBarrier, Detail: "d"},
			`planner: resource "r" from command "a" before command "b": d (rule hazard-barrier)`},
		{BarrierError{Before: "b", Resource: "r", Barrier: 3, Rule: RuleBarrier, Detail: "d"},
			`planner: resource "r" before command "b" barrier 3: d (rule barrier)`},
		{BarrierError{Barrier: -1, Rule: RuleOrder, Detail: "d"}, `planner: d (rule order)`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// vbImageGenerations is vbGenerations with images for a, c and b (all in
// the same bytes of the optimal pool): a's last use reads and writes it,
// and b's alias barrier lists previous.
func vbImageGenerations(previous ...string) (*Compiled, *Plan, error) {
	g := &Graph{}
	a, c, b := vbImage(g, "a", false), vbImage(g, "c", false), vbImage(g, "b", false)
	x, y := vbBuffer(g, "x", true), vbBuffer(g, "y", true)
	const comp, ssr, ssw, gen, undef = StageComputeShader, AccessShaderStorageRead, AccessShaderStorageWrite, LayoutGeneral, LayoutUndefined
	g.AddCommand("write-a", Access{Resource: a, Stages: comp, Access: ssw, Layout: gen})
	g.AddCommand("update-a", Access{Resource: a, Stages: comp, Access: ssr | ssw, Layout: gen}, Access{Resource: x, Stages: comp, Access: ssw})
	g.AddCommand("write-c", Access{Resource: x, Stages: comp, Access: ssr}, Access{Resource: c, Stages: comp, Access: ssw, Layout: gen})
	g.AddCommand("read-c", Access{Resource: c, Stages: comp, Access: ssr, Layout: gen}, Access{Resource: y, Stages: comp, Access: ssw})
	g.AddCommand("write-b", Access{Resource: y, Stages: comp, Access: ssr}, Access{Resource: b, Stages: comp, Access: ssw, Layout: gen})
	cc, err := Compile(g)
	if err != nil {
		return nil, nil, err
	}
	p := vbPlan(g, map[string]uint64{"a": 0, "c": 0, "b": 0})
	alias := func(before CommandID, r ResourceID, srcA AccessFlags, prev ...ResourceID) Barrier {
		x := vb(before, Alias, ImageBarrier, r, comp, srcA, comp, ssw, undef, gen)
		x.Previous = prev
		return x
	}
	var prevB []ResourceID
	for _, n := range previous {
		id, _ := g.ResourceByName(n)
		prevB = append(prevB, id)
	}
	var srcB AccessFlags
	if slices.Contains(previous, "a") {
		srcB = ssw // a's terminal use writes
	}
	p.Barriers = []Barrier{
		vb(0, Hazard, ImageBarrier, a, 0, 0, comp, ssw, undef, gen),
		vb(1, Hazard, ImageBarrier, a, comp, ssw, comp, ssr|ssw, gen, gen),
		vb(2, Hazard, BufferBarrier, x, comp, ssw, comp, ssr),
		alias(2, c, ssw, a),
		vb(3, Hazard, ImageBarrier, c, comp, ssw, comp, ssr, gen, gen),
		vb(4, Hazard, BufferBarrier, y, comp, ssw, comp, ssr),
		alias(4, b, srcB, prevB...),
	}
	return cc, p, nil
}

// TestVerifyImageDoesNotChainAnOldOccupant: c's bytes (its placement)
// hold all of a's bytes that b reuses, but c is an image: its alias
// barrier's access scope is c's subresources, which may not fill those
// bytes (padding), so a's last writes there are never made available
// before b's transition writes them. b's barrier must name a itself.
// (random-1000 at 1/64 on lavapipe: r0722 after r0682 through r0689.)
func TestVerifyImageDoesNotChainAnOldOccupant(t *testing.T) {
	for _, tc := range []struct {
		previous []string
		want     string
	}{
		{[]string{"a", "c"}, ""},
		{[]string{"c"}, `alias "a" → "b" before command "write-b": the alias barrier does not list the old occupant`},
	} {
		c, p, err := vbImageGenerations(tc.previous...)
		if err != nil {
			t.Fatal(err)
		}
		err = verifyBarriers(c, p)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("b's previous %v: verifyBarriers: %v, want %q", tc.previous, err, tc.want)
		}
	}
}
