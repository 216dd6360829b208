package replay

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// gfxRQStages are the graphics stages rqgfx.go traces ray queries in.
var gfxRQStages = []struct {
	name string
	st   vk.Stage
}{
	{"vertex", vk.StageVertexShader},
	{"fragment", vk.StageFragmentShader},
	{"tess-control", vk.StageTessellationControlShader},
	{"tess-eval", vk.StageTessellationEvaluationShader},
	{"geometry", vk.StageGeometryShader},
}

// gfxRQFrame builds a structure and traces it in stage st from a draw
// "use" that also writes a colour attachment (read by compute after it).
func gfxRQFrame(st vk.Stage) *p.Graph {
	g := &p.Graph{}
	t := asBuffer(g, "tlas")
	col := g.AddImage("color", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	g.AddCommand("build", asBuild(t))
	g.AddCommand("use", p.Access{Resource: t, Stages: st, Access: vk.AccessAccelerationStructureRead}, meshColour(col))
	g.AddCommand("read", p.Access{Resource: col, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	return g
}

// gfxRQDevice is rayDevice for ray queries in graphics stages: on a
// device with acceleration structures but without VK_KHR_ray_query (the
// H200) it checks that a vertex-stage trace is refused naming
// VK_KHR_ray_query as queried, then skips (a device limit the H200 is
// known to have: not extSkip, which ALIASPLAN_REQUIRE_EXT=1 fails).
func gfxRQDevice(t *testing.T) *vulkan.Device {
	t.Helper()
	d := rayDevice(t)
	hooks, _ := d.Replay()
	if _, rq, _ := hooks.RayQueries(); !rq {
		_, err := New(d, gfxRQFrame(vk.StageVertexShader))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_KHR_ray_query") || !strings.Contains(ue.Reason, "vertex shaders") || strings.Contains(ue.Reason, "not built") {
			t.Fatalf("vertex-stage ray queries on a device without ray queries: got %v, want a refusal naming VK_KHR_ray_query", err)
		}
		t.Skipf("SKIP (device limit, not a pass): %s: %v", d.Info().Name, err)
	}
	return d
}

// TestGfxRayQueryStages: a structure traced by ray queries in each
// graphics stage (and in vertex and fragment stages at once) replays with
// no message and equal digests, aliased and not; the trace reaches the
// draw's digest (the digests of one frame traced in different stages
// differ: each stage's part hashes its own seed, and an untraced frame's
// digest is none of them).
func TestGfxRayQueryStages(t *testing.T) {
	d := gfxRQDevice(t)
	seen := map[uint64]string{}
	cases := append(gfxRQStages[:len(gfxRQStages):len(gfxRQStages)], struct {
		name string
		st   vk.Stage
	}{"vertex-fragment", vk.StageVertexShader | vk.StageFragmentShader})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := extCompare(t, d, gfxRQFrame(c.st), 2)
			dg := digestOf(rep, "use")
			if o, ok := seen[dg]; ok {
				t.Errorf("the draw's digest %#x in stage %s is the one of %s: the trace does not reach it", dg, c.name, o)
			}
			seen[dg] = c.name
			t.Logf("%s: use %#x, %d messages, quirks %v", c.name, dg, rep.ValidationMessages, rep.LayerQuirks)
		})
	}
	t.Run("untraced", func(t *testing.T) {
		g := gfxRQFrame(vk.StageVertexShader)
		use := &g.Commands[1]
		use.Accesses = use.Accesses[1:] // the colour write alone
		dg := digestOf(extCompare(t, d, g, 1), "use")
		if o, ok := seen[dg]; ok {
			t.Errorf("the untraced draw's digest %#x equals the %s trace's", dg, o)
		}
	})
}

// TestGfxRayQueryClobber is the digest control of each graphics stage's
// ray queries (layer 1.3.239 checks no acceleration-structure access): y
// built over x while x is live makes the draw tracing x see y's
// triangles, so its digest differs from the intact plan's (accelClobber).
func TestGfxRayQueryClobber(t *testing.T) {
	d := gfxRQDevice(t)
	saved := traceStage
	defer func() { traceStage = saved }()
	for _, c := range gfxRQStages {
		t.Run(c.name, func(t *testing.T) {
			traceStage = c.st
			accelClobber(t, d)
		})
	}
}

// rqMeshDevice is a device opened with the acceleration-structure and
// mesh stages. Where it cannot run ray queries in task and mesh shaders
// (lavapipe 22.3: no acceleration structures; the H200: no
// VK_KHR_ray_query; a device without VK_EXT_mesh_shader) it checks that
// a task-stage and a mesh-stage trace are refused naming what it lacks
// as queried, never as not built, then skips saying so (a device limit).
func rqMeshDevice(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageAccelerationStructureCopy|vk.StageRayTracingShader|vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	_, rq, _ := hooks.RayQueries()
	task, mesh := hooks.MeshShaders()
	if rq && task && mesh {
		return d
	}
	var errs []error
	for _, st := range []vk.Stage{vk.StageTaskShaderEXT, vk.StageMeshShaderEXT} {
		_, err := New(d, gfxRQFrame(st))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "(queried)") || strings.Contains(ue.Reason, "not built") {
			t.Fatalf("ray queries in %s on %s (ray query %v, task %v, mesh %v): got %v, want a refusal naming what the device lacks as queried", st, d.Info().Name, rq, task, mesh, err)
		}
		errs = append(errs, err)
	}
	t.Skipf("SKIP (device limit, not a pass): %s: %v", d.Info().Name, errs)
	return nil
}

// TestGfxRayQueryMeshStages: a structure traced by ray queries in the
// task stage, the mesh stage, both, and the mesh stage of a draw whose
// vertex stage traces too, replays with no message and equal digests,
// aliased and not (refused as not built before session 13); each
// digest differs from the others and from the untraced draw's.
func TestGfxRayQueryMeshStages(t *testing.T) {
	d := rqMeshDevice(t)
	seen := map[uint64]string{}
	g := gfxRQFrame(vk.StageVertexShader)
	use := &g.Commands[1]
	use.Accesses = use.Accesses[1:] // the colour write alone
	seen[digestOf(extCompare(t, d, g, 1), "use")] = "untraced"
	for _, c := range []struct {
		name string
		st   vk.Stage
	}{
		{"task", vk.StageTaskShaderEXT},
		{"mesh", vk.StageMeshShaderEXT},
		{"task-mesh", vk.StageTaskShaderEXT | vk.StageMeshShaderEXT},
		{"vertex-mesh", vk.StageVertexShader | vk.StageMeshShaderEXT},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := extCompare(t, d, gfxRQFrame(c.st), 2)
			dg := digestOf(rep, "use")
			if o, ok := seen[dg]; ok {
				t.Errorf("the draw's digest %#x with ray queries in %s is the one of %s: the trace does not reach it", dg, c.name, o)
			}
			seen[dg] = c.name
			t.Logf("%s: use %#x, %d messages, quirks %v", c.name, dg, rep.ValidationMessages, rep.LayerQuirks)
		})
	}
}

// TestGfxRayQueryMeshClobber is the task and mesh stages' digest control
// (accelClobber): y built over x while x is live makes the task or mesh
// draw tracing x see y's triangles, so its digest differs.
func TestGfxRayQueryMeshClobber(t *testing.T) {
	d := rqMeshDevice(t)
	saved := traceStage
	defer func() { traceStage = saved }()
	for _, st := range []vk.Stage{vk.StageTaskShaderEXT, vk.StageMeshShaderEXT} {
		t.Run(st.String(), func(t *testing.T) {
			traceStage = st
			accelClobber(t, d)
		})
	}
}

// TestGfxRayQueryMeshNotEnabled: a device opened without the mesh stages
// (rayDevice) refuses ray queries in task and mesh shaders naming why
// (VK_EXT_mesh_shader lacking, or not enabled), never as not built.
func TestGfxRayQueryMeshNotEnabled(t *testing.T) {
	d := gfxRQDevice(t)
	for _, st := range []vk.Stage{vk.StageMeshShaderEXT, vk.StageTaskShaderEXT} {
		_, err := New(d, gfxRQFrame(st))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_EXT_mesh_shader") || strings.Contains(ue.Reason, "not built") {
			t.Errorf("ray queries in %s: got %v, want a refusal naming VK_EXT_mesh_shader", st, err)
		}
		t.Logf("%s: %v", st, err)
	}
}

// TestGfxRayQueryGeneratedFrames replays proptest.GfxRayReplayFrame for
// seeds 1..8 (ALIASPLAN_RAY_FRAMES overrides) both ways, on a device
// opened with the mesh stages too: no message, digests equal (a mesh-rq
// frame is refused naming VK_EXT_mesh_shader where the device lacks it).
func TestGfxRayQueryGeneratedFrames(t *testing.T) {
	gfxRQDevice(t) // skips where the device has no ray queries
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageAccelerationStructureCopy|vk.StageRayTracingShader|vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	task, mesh := hooks.MeshShaders()
	n := 8
	if s := os.Getenv("ALIASPLAN_RAY_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.GfxRayReplayFrame(seed)
			if st := Stages(g); st&vk.StageMeshShaderEXT != 0 && !mesh || st&vk.StageTaskShaderEXT != 0 && !task {
				_, err := New(d, g)
				var ue *UnsupportedError
				if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_EXT_mesh_shader") || strings.Contains(ue.Reason, "not built") {
					t.Fatalf("kinds %v: got %v, want a refusal naming VK_EXT_mesh_shader", kinds, err)
				}
				t.Logf("kinds %v: refused (a device limit): %v", kinds, err)
				return
			}
			extCompare(t, d, g, 1)
			t.Logf("kinds %v, stages %s", kinds, Stages(g))
		})
	}
}
