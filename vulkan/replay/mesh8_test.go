package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// meshDevice8 opens a device with the mesh stages, skipping (a device
// limit, said so) where it has no VK_EXT_mesh_shader.
func meshDevice8(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	if task, mesh := hooks.MeshShaders(); !task || !mesh {
		_, err := New(d, coverGraph(mixedCases[0].uses))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_EXT_mesh_shader") {
			t.Fatalf("a device without mesh shaders: got %v, want a refusal naming VK_EXT_mesh_shader", err)
		}
		extSkip(t, "%s: %v", d.Info().Name, err)
	}
	return d
}

// mixedCases are commands "use" with both mesh/task and vertex-pipeline
// shader work (two writing draws of two pipelines, mesh.go); res names
// the resource of the vertex-pipeline side whose barrier the stage
// control moves to the wrong stage (the layer checks vkCmdDraw).
var mixedCases = []struct {
	name  string
	uses  func(g *p.Graph, buf, img, out p.ResourceID) []p.Access
	res   string
	wrong vk.Stage
}{
	{"mesh-write-vertex-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite},
			{Resource: img, Stages: vk.StageVertexShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}, meshColour(out)}
	}, "img", vk.StageFragmentShader},
	{"task-read-geometry-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: img, Stages: vk.StageTaskShaderEXT, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
			{Resource: buf, Stages: vk.StageGeometryShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}, meshColour(out)}
	}, "buf", vk.StageVertexShader},
	{"both-read-fragment-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT | vk.StageVertexShader, Access: vk.AccessShaderStorageRead},
			{Resource: img, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}, meshColour(out)}
	}, "buf", vk.StageFragmentShader},
	{"mesh-write-tessellation-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageWrite},
			{Resource: img, Stages: vk.StageTessellationEvaluationShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}, meshColour(out)}
	}, "img", vk.StageVertexShader},
}

// TestMeshMixed: a command with mesh/task work and vertex, tessellation or
// geometry work draws with both pipelines, each writing what its own
// stages write: no message, equal digests; a barrier to the wrong stage
// before the vertex-pipeline side's resource raises a hazard at that
// draw (the layer checks vkCmdDraw, not the mesh draw), so that side's
// work is in its declared stage. Refused as "not built" before session 8.
func TestMeshMixed(t *testing.T) {
	d := meshDevice8(t)
	for _, c := range mixedCases {
		t.Run(c.name, func(t *testing.T) {
			g := meshGraph(c.uses)
			extCompare(t, d, g, 2)
			r, plan := prepare(t, d, g)
			use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
			res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == c.res }))
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == use && b.Resource == res && b.Kind == p.Hazard })
			if k < 0 {
				t.Fatalf("no hazard barrier on %s before use: %+v", c.res, plan.Barriers)
			}
			hazards := wrongStage(t, r, plan, k, c.wrong, func(m vulkan.Message) bool {
				return strings.Contains(m.Text, "vkCmdDraw") && !strings.Contains(m.Text, "vkCmdDrawMesh")
			})
			t.Logf("%s: destination stage %s instead of %s: %d hazards at the vertex-pipeline draw", c.name, c.wrong, plan.Barriers[k].DstStages, hazards)
			if hazards == 0 {
				t.Errorf("a barrier to the wrong stage (%s) raised no hazard at the vertex-pipeline draw: its work is not in %s", c.wrong, plan.Barriers[k].DstStages)
			}
		})
	}
}

// TestMeshMixedShared: a resource written by one side of a mixed command
// and accessed by the other is refused naming why (the two draws of one
// render pass are unordered), never as not built.
func TestMeshMixedShared(t *testing.T) {
	d := meshDevice8(t)
	g := meshGraph(func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT | vk.StageVertexShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}, meshColour(out)}
	})
	_, err := New(d, g)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "unordered") || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want a refusal saying the two draws are unordered", err)
	}
	t.Logf("%v", err)
}

// TestMeshMixedClobber: the digest control of the mixed command's two
// sides (layer 1.3.239 checks no mesh draw): x is read by the mesh side or
// the vertex side of "use"; with y placed over x use's digest differs.
func TestMeshMixedClobber(t *testing.T) {
	d := meshDevice8(t)
	for _, side := range []struct {
		name    string
		x, othr vk.Stage
	}{{"mesh-reads-x", vk.StageMeshShaderEXT, vk.StageVertexShader}, {"vertex-reads-x", vk.StageVertexShader, vk.StageMeshShaderEXT}} {
		t.Run(side.name, func(t *testing.T) {
			g := clobberGraph(side.x)
			z := g.AddBuffer("z", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
			use := slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" })
			g.Commands[use].Accesses = append(g.Commands[use].Accesses, p.Access{Resource: z, Stages: side.othr, Access: vk.AccessShaderStorageWrite})
			g.AddCommand("z.read", p.Access{Resource: z, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
			extCompare(t, d, g, 2)
			r, plan := prepare(t, d, g)
			diff := clobberDiff(t, r, g, plan)
			t.Logf("%s: y over x: %d differences: %v", side.name, len(diff), diff)
			if !diffHas(diff, "use") {
				t.Errorf("use's digest did not change with x clobbered: the %s side of the mixed command does not read x (%v)", side.x, diff)
			}
		})
	}
}

// TestMeshIndirect: a mesh command's indirect read is a mesh draw
// (vkCmdDrawMeshTasksIndirectCountEXT, the graph buffer's first word the
// count, meshindirect.go): the frames are clean with equal digests, and
// the command's digest sees the word it read: the arguments' writer is
// renamed (its seed, so the count it writes, changes) and over five names
// use's digest takes more than one value (layer 1.3.239 checks no mesh
// draw: a digest control). It fails if the read is not a mesh draw whose
// work depends on the word read (as a zero-workgroup
// vkCmdDrawMeshTasksIndirectEXT of the frame's arguments would be). The
// task-stage variant is logged only (below).
func TestMeshIndirect(t *testing.T) {
	d := meshDevice8(t)
	hooks, _ := d.Replay()
	if !hooks.MeshIndirectCount() {
		extSkip(t, "%s has no VK_KHR_draw_indirect_count: mesh indirect reads stay vertex-pipeline draws", d.Info().Name)
	}
	for _, st := range []vk.Stage{vk.StageMeshShaderEXT, vk.StageTaskShaderEXT} {
		t.Run(st.String(), func(t *testing.T) {
			seen := map[uint64]bool{}
			for n := 0; n < 5; n++ {
				g := &p.Graph{}
				x := g.AddBuffer("x", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer})
				src := g.AddBuffer("src", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
				out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
					Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
				g.AddCommand("src.write", p.Access{Resource: src, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
				g.AddCommand(fmt.Sprintf("args.write.%d", n), p.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
				g.AddCommand("use", p.Access{Resource: x, Stages: vk.StageDrawIndirect, Access: vk.AccessIndirectCommandRead},
					p.Access{Resource: src, Stages: st, Access: vk.AccessShaderStorageRead}, meshColour(out))
				g.AddCommand("out.read", p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
				rep := extCompare(t, d, g, 1)
				for _, dg := range rep.Digests {
					if dg.Command == "use" {
						seen[dg.Digest] = true
					}
				}
			}
			t.Logf("%s: use's digest took %d values over 5 writers of its indirect arguments", st, len(seen))
			if st == vk.StageTaskShaderEXT {
				// Measured on lavapipe 25.0.7: the task lanes do not change
				// even with an extra direct vkCmdDrawMeshTasksEXT(5, 1, 1)
				// after the full-screen draw (not understood yet;
				// docs/replay.md, what is left): logged, not asserted.
				return
			}
			if len(seen) < 2 {
				t.Errorf("use's digest is the same whatever its indirect arguments hold: the mesh draw does not depend on the word it reads")
			}
		})
	}
}
