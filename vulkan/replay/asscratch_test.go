package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

const scratchUsage = vk.BufferUsageStorageBuffer | vk.BufferUsageShaderDeviceAddress

func scratchUse(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead | vk.AccessAccelerationStructureWrite}
}

// scratchFrame builds two top-level structures (each over the replay's
// own bottom level, so no graph bottom level must outlive its build),
// both with the graph buffer scr (size bytes) as their scratch (the second
// with scr2 instead when !shared), traces both into sink, then (when post)
// writes and reads post (size bytes), which lives after scr: the plan may
// put post in scr's memory. (A graph bottom level instanced by a traced
// top level is read by the trace through it: docs/replay.md, what is
// left.)
func scratchFrame(size uint64) *p.Graph { return scratchFrameOf(size, true, true) }

func scratchFrameOf(size uint64, shared, post bool) *p.Graph {
	g := &p.Graph{}
	t1, t2 := asBuffer(g, "tlas1"), asBuffer(g, "tlas2")
	scr := g.AddBuffer("scr", p.BufferDesc{Size: size, Usage: scratchUsage})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	scr2 := scr
	if !shared {
		scr2 = g.AddBuffer("scr2", p.BufferDesc{Size: size, Usage: scratchUsage})
	}
	g.AddCommand("build.1", asBuild(t1), scratchUse(scr))
	g.AddCommand("build.2", asBuild(t2), scratchUse(scr2))
	g.AddCommand("trace", asTrace(t1), asTrace(t2), p.Access{Resource: sink, Stages: traceStage, Access: vk.AccessShaderStorageWrite})
	if post {
		po := g.AddBuffer("post", p.BufferDesc{Size: size, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("post.write", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
			p.Access{Resource: po, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("post.read", p.Access{Resource: po, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	} else {
		g.AddCommand("sink.read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	}
	return g
}

// TestASScratchVariants: the scratch frame with one shared or two
// scratch buffers, with or without the later transient that can take
// their memory: each replays with equal digests and no message.
func TestASScratchVariants(t *testing.T) {
	d := rayDevice(t)
	for _, shared := range []bool{true, false} {
		for _, post := range []bool{true, false} {
			t.Run(fmt.Sprintf("shared=%v/post=%v", shared, post), func(t *testing.T) {
				g := scratchFrameOf(1<<20, shared, post)
				_, plan := prepare(t, d, g)
				for i, rp := range plan.Resources {
					t.Logf("%s: %s pool %d offset %d size %d", g.Resources[i].Name, rp.Status, rp.Placement.Pool, rp.Placement.Offset, rp.Requirements.Size)
				}
				rep := extCompare(t, d, g, 2)
				t.Logf("digests equal %v, %d messages, %d alias barriers, %d of %d transient bytes pooled", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers, rep.PooledBytes, rep.TransientBytes)
			})
		}
	}
}

// TestASScratch: two top-level builds use a graph buffer as their scratch; the
// frame replays with equal digests and no message, the trace reaches the
// digest, and where the plan puts post in scr's memory, the alias barrier
// after the builds is there and waits for ACCELERATION_STRUCTURE_BUILD.
// Its subtest narrows the barrier's destination stage (to
// FRAGMENT_SHADER): a layer that tracks the builds' scratch accesses must
// raise a hazard; layer 1.3.239 does not, and the subtest skips saying so.
func TestASScratch(t *testing.T) {
	d := rayDevice(t)
	g := scratchFrame(1 << 20)
	rep := extCompare(t, d, g, 2)
	if !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == "trace" && dg.Digest != 0 }) {
		t.Errorf("no digest for the trace: %+v", rep.Digests)
	}
	t.Logf("digests equal %v, %d messages, %d alias barriers, %d of %d transient bytes pooled, quirks %v", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers, rep.PooledBytes, rep.TransientBytes, rep.LayerQuirks)
	_, err := New(d, scratchFrame(256))
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Resource != "scr" || !strings.Contains(ue.Reason, "the build scratch buffer has 256 bytes") {
		t.Errorf("a 256-byte scratch buffer: got %v, want it refused naming the sizes", err)
	}
	t.Logf("%v", err)
	r, plan := prepare(t, d, g)
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool {
		return b.Kind == p.Alias && g.Resources[b.Resource].Name == "post" && slices.ContainsFunc(b.Previous, func(x p.ResourceID) bool { return g.Resources[x].Name == "scr" })
	})
	if k < 0 {
		sr, po := plan.Resources[2], plan.Resources[len(plan.Resources)-1]
		if sr.Status == p.StatusPooled && po.Status == p.StatusPooled && sr.Placement.Pool == po.Placement.Pool {
			t.Fatalf("scr and post share pool %d but no alias barrier makes post safe after scr: %+v", sr.Placement.Pool, plan.Barriers)
		}
		t.Logf("on %s the plan keeps scr (%s %q) and post (%s %q) apart: no alias barrier to narrow", d.Info().Name, sr.Status, sr.Reason, po.Status, po.Reason)
		return
	}
	b := plan.Barriers[k]
	t.Logf("alias barrier %d: %s/%s -> %s/%s", k, b.SrcStages, b.SrcAccess, b.DstStages, b.DstAccess)
	if b.SrcStages&(vk.StageAccelerationStructureBuild|vk.StageAllCommands) == 0 {
		t.Errorf("the alias barrier after the builds does not wait for ACCELERATION_STRUCTURE_BUILD: %s", b.SrcStages)
	}
	t.Run("wrong-stage", func(t *testing.T) {
		n := wrongStage(t, r, plan, k, vk.StageFragmentShader, nil)
		t.Logf("the alias barrier after the builds narrowed to FRAGMENT_SHADER: %d hazards", n)
		if n == 0 {
			// Layer 1.3.239 (lavapipe 25, the H200) raises nothing here:
			// its synchronization validation does not see the builds'
			// scratch accesses. Said as a skip, not counted a pass.
			t.Skip("the validation layer's synchronization validation does not track acceleration-structure build scratch accesses: no hazard to see")
		}
	})
}

// TestASScratchRefused: what the replay refuses of a graph scratch
// buffer, with the rule; checked before any device work, so on every
// device (TestASScratch checks the size where acceleration structures
// are).
func TestASScratchRefused(t *testing.T) {
	d := sharedDevice(t)
	for _, c := range []struct {
		name, want string
		edit       func(g *p.Graph)
	}{
		{"usage", "needs STORAGE_BUFFER and SHADER_DEVICE_ADDRESS usage", func(g *p.Graph) { g.Resources[2].Buffer.Usage = vk.BufferUsageStorageBuffer }},
		{"write only", "declare both", func(g *p.Graph) { g.Commands[0].Accesses[1].Access = vk.AccessAccelerationStructureWrite }},
		{"read elsewhere", "a read of a build's scratch buffer outside the build", func(g *p.Graph) {
			g.Commands[3].Accesses = append(g.Commands[3].Accesses, p.Access{Resource: 2, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		}},
		{"imported", "an imported or host-visible build scratch buffer", func(g *p.Graph) { g.Resources[2].Imported = true }},
	} {
		g := scratchFrame(1 << 20)
		c.edit(g)
		_, err := New(d, g)
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Resource != "scr" || !strings.Contains(ue.Reason, c.want) {
			t.Errorf("%s: got %v, want a refusal of scr saying %q", c.name, err, c.want)
		}
	}
}
