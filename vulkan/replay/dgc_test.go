package replay

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

const dgcUsage = vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer | vk.BufferUsageShaderDeviceAddress

// dgcRead is the access of a command that preprocesses and executes
// generated commands whose sequence count is r's first word.
func dgcInput(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageCommandPreprocessNV | vk.StageDrawIndirect, Access: vk.AccessCommandPreprocessReadNV | vk.AccessIndirectCommandRead}
}

// dgcPreprocess is the access of a generating command to its preprocess
// buffer r: written by the preprocessing, read by the execution.
func dgcPreprocess(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageCommandPreprocessNV | vk.StageDrawIndirect, Access: vk.AccessCommandPreprocessWriteNV | vk.AccessIndirectCommandRead}
}

// dgcFrame: x (the count) is written by a compute shader, generate
// reads it; y is written and read around it, so a plan that puts y over
// x clobbers the count before generate reads it.
func dgcFrame() *p.Graph {
	g := &p.Graph{}
	x := g.AddBuffer("x", p.BufferDesc{Size: 4096, Usage: dgcUsage})
	y := g.AddBuffer("y", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("x.write", computeWrite(x))
	g.AddCommand("y.write", computeWrite(y))
	g.AddCommand("generate", dgcInput(x))
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// dgcDevice opens a device with COMMAND_PREPROCESS enabled; where the
// device cannot run the replay's device-generated commands it checks the
// refusal names the device limit as queried and skips.
func dgcDevice(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageCommandPreprocessNV)
	hooks, _ := d.Replay()
	ext, nv, m5, s := hooks.DGCSupport()
	t.Logf("%s: VK_EXT_device_generated_commands %v, VK_NV_device_generated_commands %v, VK_KHR_maintenance5 %v; %+v; enabled %v", d.Info().Name, ext, nv, m5, s, hooks.DGC() != nil)
	if hooks.DGC() == nil {
		_, err := New(d, dgcFrame())
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "(queried)") || strings.Contains(ue.Reason, "not built") {
			t.Fatalf("a device without device-generated commands: got %v, want a refusal naming the device limit as queried", err)
		}
		extSkip(t, "%s: %v", d.Info().Name, err)
	}
	return d
}

// TestDGCRefusedAsDeviceLimit: on a device without
// VK_EXT_device_generated_commands (the system lavapipe, Mesa 22.3) a
// frame with a COMMAND_PREPROCESS read is refused naming the missing
// extension as queried, not as unbuilt work. On a device with it the
// refusal is checked on a device opened without COMMAND_PREPROCESS in
// ReplayStages instead (named so, not unbuilt).
func TestDGCRefusedAsDeviceLimit(t *testing.T) {
	d := sharedDevice(t) // opened without ReplayStages
	hooks, _ := d.Replay()
	ext, nv, _, _ := hooks.DGCSupport()
	_, err := New(d, dgcFrame())
	// The query of the extension's properties is the only call a layer
	// that predates it may note (LayerQuirk); nothing else stays queued
	// on the shared device.
	dgcDrain(t, d)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "generate" || ue.Resource != "x" || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want generate's read of x refused as a device limit", err)
	}
	switch {
	case !ext && !nv:
		if !strings.Contains(ue.Reason, "lacks VK_EXT_device_generated_commands (queried)") {
			t.Fatalf("got %q, want it to name VK_EXT_device_generated_commands as lacking (queried)", ue.Reason)
		}
	case !ext:
		if !strings.Contains(ue.Reason, "has VK_NV_device_generated_commands but lacks VK_EXT_device_generated_commands (queried)") {
			t.Fatalf("got %q, want it to say the device has only the NV extension", ue.Reason)
		}
	default:
		if !strings.Contains(ue.Reason, "ReplayStages") && !strings.Contains(ue.Reason, "(queried)") {
			t.Fatalf("got %q, want the device opened without COMMAND_PREPROCESS named (or a queried limit)", ue.Reason)
		}
	}
	t.Logf("%s: %v", d.Info().Name, err)
}

// TestDGCGraphRules: what the replay refuses by rule, on any device (the
// analysis comes before the device is asked).
func TestDGCGraphRules(t *testing.T) {
	d := sharedDevice(t)
	for _, c := range []struct {
		name, want string
		mod        func(g *p.Graph)
	}{
		{"preprocess-only", "no execution in the command", func(g *p.Graph) {
			g.Commands[2].Accesses[0].Stages, g.Commands[2].Accesses[0].Access = vk.StageCommandPreprocessNV, vk.AccessCommandPreprocessReadNV
		}},
		{"preprocess-buffer-not-executed", "written by the preprocessing and read by the execution", func(g *p.Graph) {
			pre := g.AddBuffer("pre", p.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageShaderDeviceAddress})
			g.Commands[2].Accesses = append(g.Commands[2].Accesses, p.Access{Resource: pre, Stages: vk.StageCommandPreprocessNV, Access: vk.AccessCommandPreprocessWriteNV})
		}},
		{"preprocess-buffer-read-elsewhere", "outside device-generated commands", func(g *p.Graph) {
			pre := g.AddBuffer("pre", p.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageShaderDeviceAddress | vk.BufferUsageStorageBuffer})
			g.Commands[2].Accesses = append(g.Commands[2].Accesses, dgcPreprocess(pre))
			g.AddCommand("pre.read", p.Access{Resource: pre, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		}},
		{"preprocess-buffer-alone", "nothing to preprocess", func(g *p.Graph) {
			pre := g.AddBuffer("pre", p.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageShaderDeviceAddress})
			g.Commands[2].Accesses = []p.Access{dgcPreprocess(pre)}
		}},
		{"preprocess-buffer-imported", "imported or host-visible", func(g *p.Graph) {
			pre := g.AddBuffer("pre", p.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageShaderDeviceAddress})
			g.Resources[pre].Imported = true
			g.Commands[2].Accesses = append(g.Commands[2].Accesses, dgcPreprocess(pre))
		}},
		{"no-address", "SHADER_DEVICE_ADDRESS", func(g *p.Graph) { g.Resources[0].Buffer.Usage &^= vk.BufferUsageShaderDeviceAddress }},
		{"no-indirect", "INDIRECT_BUFFER", func(g *p.Graph) { g.Resources[0].Buffer.Usage &^= vk.BufferUsageIndirectBuffer }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := dgcFrame()
			c.mod(g)
			cmd := "generate"
			if c.name == "preprocess-buffer-read-elsewhere" {
				cmd = "pre.read"
			}
			dgcRefused(t, d, g, cmd, c.want)
		})
	}
}

// dgcRefused checks New refuses command cmd of g with a reason
// containing want.
func dgcRefused(t *testing.T, d *vulkan.Device, g *p.Graph, cmd, want string) {
	t.Helper()
	_, err := New(d, g)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != cmd || !strings.Contains(ue.Reason, want) {
		t.Fatalf("got %v, want %s refused with %q", err, cmd, want)
	}
	t.Logf("%v", err)
}

// TestDGCSplitRules: what the replay refuses by rule of a preprocessing
// in one command executed in another, on any device.
func TestDGCSplitRules(t *testing.T) {
	d := sharedDevice(t)
	for _, c := range []struct {
		name, cmd, want string
		mod             func(g *p.Graph)
	}{
		{"preprocess-alone-no-buffer", "preprocess", "a preprocessing with no execution in the command", func(g *p.Graph) {
			g.Commands[2].Accesses = g.Commands[2].Accesses[:1]
			g.Commands[4].Accesses = g.Commands[4].Accesses[:1]
		}},
		{"execution-without-count", "execute", "does not read its count x", func(g *p.Graph) {
			g.Commands[4].Accesses = g.Commands[4].Accesses[1:]
		}},
		{"execution-before-preprocessing", "execute", "no earlier command preprocessed into", func(g *p.Graph) {
			g.Commands[2], g.Commands[4] = g.Commands[4], g.Commands[2]
		}},
		{"count-written-between", "execute", "mid writes x between preprocess's preprocessing and this execution", func(g *p.Graph) {
			g.Resources[0].Buffer.Usage |= vk.BufferUsageStorageBuffer
			g.Commands[3].Accesses = append(g.Commands[3].Accesses, computeWrite(0))
		}},
		{"preprocess-buffer-read-by-shader", "execute", "accessed with SHADER_STORAGE_READ too", func(g *p.Graph) {
			g.Resources[2].Buffer.Usage |= vk.BufferUsageStorageBuffer
			g.Commands[4].Accesses = append(g.Commands[4].Accesses, p.Access{Resource: 2, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := dgcSplitFrame(1 << 20)
			c.mod(g)
			dgcRefused(t, d, g, c.cmd, c.want)
		})
	}
}

// TestDGCIntact: the frame replays aliased and unaliased with equal
// digests and no validation message, and the generated dispatches have a
// digest of their own.
func TestDGCIntact(t *testing.T) {
	d := dgcDevice(t)
	rep := extCompare(t, d, dgcFrame(), 2)
	if !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == "generate" && dg.Digest != 0 }) {
		t.Errorf("no digest for generate: %+v", rep.Digests)
	}
	t.Logf("digests equal %v, %d messages, quirks %v", rep.DigestsEqual, rep.ValidationMessages, rep.LayerQuirks)
	r, _ := prepare(t, d, dgcFrame())
	for _, dc := range r.k.dgc.cmds {
		t.Logf("preprocess buffer: %d bytes (vkGetGeneratedCommandsMemoryRequirementsEXT for %d sequences; 0: none needed)", dc.preSize, dgcSequences)
	}
	dgcDrain(t, d)
}

// dgcDrain takes the messages queued on d by calls outside a run (New's
// queries and buffers): only a layer's notes that it predates the
// extension may be among them.
func dgcDrain(t *testing.T, d *vulkan.Device) {
	t.Helper()
	for _, m := range d.TakeMessages() {
		if LayerQuirk(m) != "layer-predates-dgc" {
			t.Errorf("validation: %s", m)
		}
	}
}

// TestDGCClobber is the negative control: y placed over x overwrites
// the count x.write left (12288+3k) with y's hash words before generate
// reads it, so generate runs another number of workgroups and its digest
// differs from the intact plan's (which raises no message). It fails
// when the generated commands do not read the graph buffer, or their
// work does not reach the digest. The clobbered plan does not order
// y.write against x.write: a device that runs them concurrently (the
// H200) may land x.write last, and then the clobber shows in y.read
// instead, with generate reading its count intact. So the clobber is
// run up to five times, and generate's digest must differ in one.
func TestDGCClobber(t *testing.T) {
	d := dgcDevice(t)
	g := dgcFrame()
	r, plan := prepare(t, d, g)
	for try := 1; ; try++ {
		diff := clobberDiff(t, r, g, plan)
		t.Logf("try %d, y over x: %d differences: %v", try, len(diff), diff)
		if diffHas(diff, "generate") {
			return
		}
		if !diffHas(diff, "y.read") {
			t.Fatalf("the clobber changed neither generate's digest nor y.read's: %v", diff)
		}
		if try == 5 {
			t.Fatalf("generate's digest did not change with its count clobbered by y in %d tries (x.write landed after y.write each time)", try)
		}
	}
}

// TestDGCWrongStage: the barrier before generate recorded with a
// destination stage that is not where the generated commands read x
// (the fragment shader). No layer here can check it: layer 1.3.239
// (Debian 12, the H200's) has synchronization validation but does not
// know VK_EXT_device_generated_commands (it passes the commands through
// unseen), and Chromium's newer build knows the extension but has no
// synchronization validation. So the test asserts the control that
// synchronization validation is on (y.read's barrier moved to the same
// wrong stage raises a hazard) and logs the count for generate's
// barrier, asserting it only under ALIASPLAN_DGC_SYNCVAL=1 (a layer that
// tracks the commands); TestDGCClobber is the control that fails.
func TestDGCWrongStage(t *testing.T) {
	d := dgcDevice(t)
	g := dgcFrame()
	r, plan := prepare(t, d, g)
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == 2 && b.Resource == 0 && b.Kind == p.Hazard })
	if k < 0 {
		t.Fatalf("no hazard barrier on x before generate: %+v", plan.Barriers)
	}
	t.Logf("barrier before generate: %s/%s -> %s/%s", plan.Barriers[k].SrcStages, plan.Barriers[k].SrcAccess, plan.Barriers[k].DstStages, plan.Barriers[k].DstAccess)
	// Synchronization validation is on: the barrier before y.read (a
	// compute read) moved to the fragment stage raises a hazard.
	ky := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == 3 && b.Resource == 1 && b.Kind == p.Hazard })
	if ky < 0 {
		t.Fatalf("no hazard barrier on y before y.read: %+v", plan.Barriers)
	}
	if h := wrongStage(t, r, plan, ky, vk.StageFragmentShader, nil); h == 0 {
		t.Fatalf("synchronization validation raised no hazard for y.read's barrier moved to the fragment stage")
	} else {
		t.Logf("control: y.read's barrier moved to FRAGMENT_SHADER: %d hazards", h)
	}
	hazards := wrongStage(t, r, plan, k, vk.StageFragmentShader, nil)
	t.Logf("destination stage FRAGMENT_SHADER: %d hazards", hazards)
	if hazards == 0 && os.Getenv("ALIASPLAN_DGC_SYNCVAL") == "1" {
		t.Errorf("no hazard with the barrier before generate moved to the fragment stage (ALIASPLAN_DGC_SYNCVAL=1: the layer is said to track device-generated commands)")
	}
}

// TestDGCGeneratedFrames replays proptest.DGCReplayFrame for seeds
// 1..20 (ALIASPLAN_DGC_FRAMES overrides the count) both ways where the
// device runs device-generated commands: no message, digests equal, and
// every generate command has a digest. Where it does not (the system
// lavapipe), each frame must be refused as that device limit, queried
// (the analysis and the refusal need no GPU work: fast).
func TestDGCGeneratedFrames(t *testing.T) {
	n := 20
	if s := os.Getenv("ALIASPLAN_DGC_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	d := extDevice(t, vk.StageCommandPreprocessNV)
	hooks, _ := d.Replay()
	on := hooks.DGC() != nil
	aliased := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.DGCReplayFrame(seed)
			if !on {
				_, err := New(d, g)
				var ue *UnsupportedError
				if !errors.As(err, &ue) || !strings.HasPrefix(ue.Command, "k") || !strings.Contains(ue.Reason, "(queried)") || strings.Contains(ue.Reason, "not built") {
					t.Fatalf("kinds %v: got %v, want a refusal naming the device limit as queried", kinds, err)
				}
				return
			}
			rep := extCompareWith(t, d, g, 1, dgcOpts)
			for _, c := range g.Commands {
				if strings.Contains(c.Name, "generate") && !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == c.Name && dg.Digest != 0 }) {
					t.Errorf("no digest for %s", c.Name)
				}
			}
			t.Logf("kinds %v, %d alias barriers, %d of %d transient bytes pooled, quirks %v", kinds, rep.AliasBarriers, rep.PooledBytes, rep.TransientBytes, rep.LayerQuirks)
			if rep.AliasBarriers > 0 {
				aliased++
			}
		})
	}
	if on {
		t.Logf("%d of %d frames alias", aliased, n)
	}
	if !on {
		t.Logf("%s: %d frames refused as a device limit", d.Info().Name, n)
	}
}

// dgcPreFrame is dgcFrame with a graph preprocess buffer of size bytes
// for generate, and a buffer written and read after it (the plan may put
// it in the preprocess buffer's memory).
func dgcPreFrame(size uint64) *p.Graph {
	g := dgcFrame()
	pre := g.AddBuffer("pre", p.BufferDesc{Size: size, Usage: vk.BufferUsageShaderDeviceAddress})
	g.Commands[2].Accesses = append(g.Commands[2].Accesses, dgcPreprocess(pre))
	// z orders post after generate (which writes it in its own compute
	// part): otherwise post could run beside generate, and could not
	// take pre's memory.
	z := g.AddBuffer("z", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
	g.Commands[2].Accesses = append(g.Commands[2].Accesses, computeWrite(z))
	post := g.AddBuffer("post", p.BufferDesc{Size: size, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("post.write", computeWrite(post), p.Access{Resource: z, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	g.AddCommand("post.read", p.Access{Resource: post, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// TestDGCGraphPreprocessBuffer: generate preprocesses into a graph buffer
// (COMMAND_PREPROCESS_WRITE, created with PREPROCESS_BUFFER usage in the
// replay's copy) of proptest.DGCPreprocessSize: the frame replays with equal digests and no
// message, and the plan puts post in pre's memory after generate (an
// alias barrier from generate's stages). A buffer smaller than the
// device asks for is refused naming both sizes, queried.
func TestDGCGraphPreprocessBuffer(t *testing.T) {
	d := dgcDevice(t)
	g := dgcPreFrame(proptest.DGCPreprocessSize)
	// Whether the device's requirements let pre and post share a pool:
	// the preprocess buffer's memory types are the device's to choose.
	_, plan := prepareWith(t, d, g, dgcOpts)
	var pre, post *p.ResourcePlan
	for i := range g.Resources {
		switch g.Resources[i].Name {
		case "pre":
			pre = &plan.Resources[i]
		case "post":
			post = &plan.Resources[i]
		}
	}
	shared := pre.Status == p.StatusPooled && post.Status == p.StatusPooled && pre.Placement.Pool == post.Placement.Pool
	rep := extCompareWith(t, d, g, 2, dgcOpts)
	t.Logf("digests equal %v, %d messages, %d alias barriers, quirks %v", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers, rep.LayerQuirks)
	switch {
	case shared && rep.AliasBarriers == 0:
		t.Errorf("pre and post share pool %d but nothing aliased: post was meant to take pre's memory", pre.Placement.Pool)
	case !shared:
		t.Logf("on %s the plan keeps pre and post apart (pre: %s %q, memory types %#x, pool %d; post: %s %q, memory types %#x, pool %d): no alias of the preprocess buffer to check here",
			d.Info().Name, pre.Status, pre.Reason, pre.Requirements.MemoryTypeBits, pre.Placement.Pool, post.Status, post.Reason, post.Requirements.MemoryTypeBits, post.Placement.Pool)
	}
	_, err := New(d, dgcPreFrame(4096))
	dgcDrain(t, d)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Resource != "pre" || !strings.Contains(ue.Reason, "the preprocess buffer has 4096 bytes") || !strings.Contains(ue.Reason, "queried)") {
		t.Fatalf("a 4096-byte preprocess buffer: got %v, want it refused naming the size the device needs", err)
	}
	t.Logf("%v", err)
}

// dgcOpts plans the frames with graph preprocess buffers: without a
// dedicated threshold, so that a buffer of proptest.DGCPreprocessSize is
// pooled and a later transient can take its memory where the driver does
// not prefer it dedicated (lavapipe). The H200 prefers its own allocation
// for it, and the plan keeps that: pooled anyway (PoolPrefersDedicated),
// the generated frame with a graph preprocess buffer never finished on
// the H200 before h200-dgc.sh's run was stopped (docs/replay.md, what is
// left).
var dgcOpts = aliasplan.Options{DedicatedThreshold: aliasplan.NoDedicatedThreshold}

// dgcSplitFrame: x (the count) written by a compute shader; y written
// and read around the rest (the clobber's victim-to-be, as in dgcFrame);
// preprocess reads x and writes pre (a graph preprocess buffer of size
// bytes) in COMMAND_PREPROCESS; mid does compute work of its own between;
// execute reads x and pre in DRAW_INDIRECT (vkCmdExecuteGeneratedCommandsEXT
// with isPreprocessed). Resources: x 0, y 1, pre 2, m 3; commands:
// x.write 0, y.write 1, preprocess 2, mid 3, execute 4, y.read 5.
func dgcSplitFrame(size uint64) *p.Graph {
	g := &p.Graph{}
	x := g.AddBuffer("x", p.BufferDesc{Size: 4096, Usage: dgcUsage})
	y := g.AddBuffer("y", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	pre := g.AddBuffer("pre", p.BufferDesc{Size: size, Usage: vk.BufferUsageShaderDeviceAddress})
	m := g.AddBuffer("m", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("x.write", computeWrite(x))
	g.AddCommand("y.write", computeWrite(y))
	g.AddCommand("preprocess", p.Access{Resource: x, Stages: vk.StageCommandPreprocessNV, Access: vk.AccessCommandPreprocessReadNV},
		p.Access{Resource: pre, Stages: vk.StageCommandPreprocessNV, Access: vk.AccessCommandPreprocessWriteNV})
	g.AddCommand("mid", computeWrite(m))
	g.AddCommand("execute", proptest.DGCExecute(x), proptest.DGCExecute(pre), p.Access{Resource: m, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// TestDGCSplit: preprocess records vkCmdPreprocessGeneratedCommandsEXT
// into pre, execute vkCmdExecuteGeneratedCommandsEXT(isPreprocessed) of
// it (the plan's barrier on pre orders the two). Intact: equal digests,
// no message, execute has the generated dispatches' digest and
// preprocess none. Clobbered (y over x, as TestDGCClobber): execute's
// digest differs, so the execution's work depends on the count the
// preprocessing read. Executed twice (a second command executing the
// same preprocessing, with the first's state): the first execution's
// digest changes, since the second adds its dispatches to the same lanes.
func TestDGCSplit(t *testing.T) {
	d := dgcDevice(t)
	g := dgcSplitFrame(proptest.DGCPreprocessSize)
	rep := extCompareWith(t, d, g, 2, dgcOpts)
	digest := func(rep *Report, cmd string) uint64 {
		for _, dg := range rep.Digests {
			if dg.Command == cmd {
				return dg.Digest
			}
		}
		return 0
	}
	if digest(rep, "execute") == 0 {
		t.Errorf("no digest for execute: %+v", rep.Digests)
	}
	if digest(rep, "preprocess") != 0 {
		t.Errorf("preprocess has a digest (%#x): its generated commands' lanes are execute's", digest(rep, "preprocess"))
	}
	t.Logf("intact: digests equal %v, %d messages, %d alias barriers, quirks %v", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers, rep.LayerQuirks)
	r, plan := prepareWith(t, d, g, dgcOpts)
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == 4 && b.Resource == 2 && b.Kind == p.Hazard })
	if k < 0 {
		t.Fatalf("no hazard barrier on pre before execute: %+v", plan.Barriers)
	}
	b := plan.Barriers[k]
	t.Logf("barrier on pre before execute: %s/%s -> %s/%s", b.SrcStages, b.SrcAccess, b.DstStages, b.DstAccess)
	for try := 1; ; try++ {
		diff := clobberDiff(t, r, g, plan)
		t.Logf("try %d, y over x: %d differences: %v", try, len(diff), diff)
		if diffHas(diff, "execute") {
			break
		}
		if !diffHas(diff, "y.read") {
			t.Fatalf("the clobber changed neither execute's digest nor y.read's: %v", diff)
		}
		if try == 5 {
			t.Fatalf("execute's digest did not change with its count clobbered by y in %d tries", try)
		}
	}
	twice := dgcSplitFrame(proptest.DGCPreprocessSize)
	twice.AddCommand("again", proptest.DGCExecute(0), proptest.DGCExecute(2))
	rep2 := extCompareWith(t, d, twice, 1, dgcOpts)
	if digest(rep2, "again") != 0 {
		t.Errorf("the second execution has a digest of its own (%#x): it binds the first's state", digest(rep2, "again"))
	}
	if digest(rep2, "execute") == digest(rep, "execute") {
		t.Errorf("execute's digest is the same with a second execution of its preprocessing (%#x): the second did not run, or not into its lanes", digest(rep, "execute"))
	}
	t.Logf("executed twice: execute's digest %#x (once: %#x), %d messages", digest(rep2, "execute"), digest(rep, "execute"), rep2.ValidationMessages)
	dgcDrain(t, d)
}

// dgcNameFor is a name for dgcFrame's generate (command 2) whose seed
// picks the push-constant layout (push) or the dispatch-only one
// (dgcRules chooses by the seed's low bit).
func dgcNameFor(push bool) string {
	for i := 0; ; i++ {
		name := fmt.Sprintf("generate.%d", i)
		if (hashString(name)^hash32(2))&1 == 1 == push {
			return name
		}
	}
}

// TestDGCPushToken: generate with each indirect commands layout (one
// DISPATCH token; a PUSH_CONSTANT token before it, whose per-sequence
// word replay_dgc.comp adds in): equal digests and no message both ways.
// Then the push stream's words are zeroed between two runs of one plan:
// under the push-constant layout generate's digest changes (the tokens'
// data reach it), under the dispatch-only one nothing changes (the
// control: that layout never reads the push stream).
func TestDGCPushToken(t *testing.T) {
	d := dgcDevice(t)
	for _, push := range []bool{false, true} {
		name := dgcNameFor(push)
		t.Run(fmt.Sprintf("push=%v", push), func(t *testing.T) {
			g := dgcFrame()
			g.Commands[2].Name = name
			rep := extCompare(t, d, g, 1)
			t.Logf("%s: digests equal %v, %d messages, quirks %v", name, rep.DigestsEqual, rep.ValidationMessages, rep.LayerQuirks)
			r, plan := prepare(t, d, g)
			if r.works[2].dgc.push != push {
				t.Fatalf("%s: push layout %v, want %v", name, r.works[2].dgc.push, push)
			}
			good, _, err := r.RunPlan(plan, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			words := r.k.dgc.pushStream.bytes()
			saved := slices.Clone(words)
			for j := 0; j < dgcSequences; j++ {
				copy(words[dgcPushStride*j:dgcPushStride*j+4], []byte{0, 0, 0, 0})
			}
			bad, _, err := r.RunPlan(plan, 1, true)
			copy(words, saved)
			if err != nil {
				t.Fatal(err)
			}
			diff := r.Diff(good, bad)
			t.Logf("pushed words zeroed: %d differences: %v", len(diff), diff)
			switch {
			case push && !diffHas(diff, name):
				t.Errorf("the push-constant layout's digest did not change with its pushed words zeroed: the tokens' data do not reach it")
			case !push && len(diff) != 0:
				t.Errorf("the dispatch-only layout changed with the push stream: %v", diff)
			}
		})
	}
	dgcDrain(t, d)
}
