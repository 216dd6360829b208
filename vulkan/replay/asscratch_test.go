package replay

import (
	"errors"
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

// scratchFrame builds a bottom-level and a top-level structure, both with
// the graph buffer scr (size bytes) as their scratch, traces the top
// level into sink, then writes and reads post (size bytes), which lives
// after scr: the plan may put post in scr's memory.
func scratchFrame(size uint64) *p.Graph {
	g := &p.Graph{}
	b, t := asBuffer(g, "blas"), asBuffer(g, "tlas")
	scr := g.AddBuffer("scr", p.BufferDesc{Size: size, Usage: scratchUsage})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	post := g.AddBuffer("post", p.BufferDesc{Size: size, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("build.b", asBuild(b), scratchUse(scr))
	g.AddCommand("build.t", asBuild(t), scratchUse(scr),
		p.Access{Resource: b, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead})
	g.AddCommand("trace", asTrace(t), p.Access{Resource: sink, Stages: traceStage, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("post.write", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: post, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("post.read", p.Access{Resource: post, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// TestASScratch: two builds use a graph buffer as their scratch; the
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
		sr, po := plan.Resources[2], plan.Resources[4]
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
			g.Commands[2].Accesses = append(g.Commands[2].Accesses, p.Access{Resource: 2, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
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
