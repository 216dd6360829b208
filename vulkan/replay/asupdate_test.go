package replay

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Acceleration-structure updates (mode UPDATE, raytrace.go): a bottom
// level refitted in place (a read and a write of it in the build stage)
// or updated from another bottom level (one read beside the write).

func asRead(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead}
}

func asRefit(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead | vk.AccessAccelerationStructureWrite}
}

// updateFrameOf builds x (and y, a top level traced later), updates x in
// place (refit) or into z (!inPlace) in command refit, builds a top level
// over the result and traces it in "trace"; or (top) refits the top level
// over x and y in place.
func updateFrameOf(inPlace, top bool, refit string) *p.Graph {
	g := &p.Graph{}
	if top {
		x, y, t := asBuffer(g, "x"), asBuffer(g, "y"), asBuffer(g, "tlas")
		sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("x.build", asBuild(x))
		g.AddCommand("y.build", asBuild(y))
		g.AddCommand("tlas.build", asBuild(t), asRead(x), asRead(y))
		g.AddCommand(refit, asRefit(t), asRead(x), asRead(y))
		g.AddCommand("trace", asTrace(t), p.Access{Resource: sink, Stages: traceStage, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("sink.read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		return g
	}
	x, y, t := asBuffer(g, "x"), asBuffer(g, "y"), asBuffer(g, "tlas")
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("x.build", asBuild(x))
	g.AddCommand("y.build", asBuild(y))
	out := x
	if inPlace {
		g.AddCommand(refit, asRefit(x))
	} else {
		out = asBuffer(g, "z")
		g.AddCommand(refit, asRead(x), asBuild(out))
	}
	g.AddCommand("tlas.build", asBuild(t), asRead(out))
	g.AddCommand("trace", asTrace(t), p.Access{Resource: sink, Stages: traceStage, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("y.trace", asTrace(y))
	g.AddCommand("sink.read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

func traceDigest(rep *Report) uint64 {
	i := slices.IndexFunc(rep.Digests, func(d CommandDigest) bool { return d.Command == "trace" })
	if i < 0 {
		return 0
	}
	return rep.Digests[i].Digest
}

// TestASUpdate: both kinds replay with equal digests and no message, and
// the update's triangles reach the trace (another refit command, whose
// seed moves the triangles elsewhere, changes the trace's digest). No
// control clobbers the update's source: an update from bytes that are not
// the structure it was built as is undefined behaviour (Vulkan), and
// lavapipe 25.0.7 crashes on it (a segmentation fault in the driver); and
// from another valid structure the refit's triangles, not the source's
// tree, decide what a ray hits. The plan keeps the source intact
// (verify.Plan: the update reads it).
func TestASUpdate(t *testing.T) {
	d := rayDevice(t)
	for _, c := range []struct {
		name         string
		inPlace, top bool
	}{{"in-place", true, false}, {"into-another", false, false}, {"top-level-in-place", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			a := extCompare(t, d, updateFrameOf(c.inPlace, c.top, "refit"), 2)
			b := extCompare(t, d, updateFrameOf(c.inPlace, c.top, "refit.other"), 2)
			if traceDigest(a) == 0 || traceDigest(a) == traceDigest(b) {
				t.Errorf("the trace's digest %x does not depend on the update's triangles (other refit: %x)", traceDigest(a), traceDigest(b))
			}
			t.Logf("trace digests %x (refit), %x (refit.other); %d alias barriers, %d of %d transient bytes pooled", traceDigest(a), traceDigest(b), a.AliasBarriers, a.PooledBytes, a.TransientBytes)
		})
	}
}

// TestASUpdateRefused: what the replay refuses of updates, with the rule.
func TestASUpdateRefused(t *testing.T) {
	d := rayDevice(t)
	for _, c := range []struct {
		name, want string
		graph      func() *p.Graph
	}{
		{"top-level-count", "Vulkan keeps the instance count", func() *p.Graph {
			g := &p.Graph{}
			b, b2, tl := asBuffer(g, "blas"), asBuffer(g, "blas2"), asBuffer(g, "tlas")
			g.AddCommand("build.blas", asBuild(b))
			g.AddCommand("build.blas2", asBuild(b2))
			g.AddCommand("build.tlas", asBuild(tl), asRead(b))
			g.AddCommand("refit.tlas", asRefit(tl), asRead(b), asRead(b2))
			g.AddCommand("trace", asTrace(tl))
			return g
		}},
		{"top-level-own", "its last build instanced -1", func() *p.Graph {
			g := &p.Graph{}
			b, tl := asBuffer(g, "blas"), asBuffer(g, "tlas")
			g.AddCommand("build.blas", asBuild(b))
			g.AddCommand("build.tlas", asBuild(tl))
			g.AddCommand("refit.tlas", asRefit(tl), asRead(b))
			g.AddCommand("trace", asTrace(tl))
			return g
		}},
		{"two-sources", "an update reads one bottom-level source", func() *p.Graph {
			g := &p.Graph{}
			b1, b2, b3, tl := asBuffer(g, "b1"), asBuffer(g, "b2"), asBuffer(g, "b3"), asBuffer(g, "tlas")
			g.AddCommand("build.b1", asBuild(b1))
			g.AddCommand("build.b2", asBuild(b2))
			g.AddCommand("update", asRead(b1), asRead(b2), asBuild(b3))
			g.AddCommand("build.tlas", asBuild(tl), asRead(b3))
			g.AddCommand("trace", asTrace(tl))
			return g
		}},
		{"unbuilt-source", "an update of an acceleration structure the frame has not built", func() *p.Graph {
			g := &p.Graph{}
			b, tl := asBuffer(g, "blas"), asBuffer(g, "tlas")
			g.Resources[b].Imported = true
			g.AddCommand("refit", asRefit(b))
			g.AddCommand("build.tlas", asBuild(tl), asRead(b))
			g.AddCommand("trace", asTrace(tl))
			return g
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(d, c.graph())
			var ue *UnsupportedError
			if !errors.As(err, &ue) || !strings.Contains(ue.Reason, c.want) {
				t.Fatalf("got %v, want a refusal saying %q", err, c.want)
			}
			t.Logf("%v", err)
		})
	}
}
