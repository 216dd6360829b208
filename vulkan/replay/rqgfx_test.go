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

// TestGfxRayQueryMeshRefused: ray queries in task and mesh shaders are
// refused as not built, naming the stage.
func TestGfxRayQueryMeshRefused(t *testing.T) {
	d := gfxRQDevice(t)
	for _, st := range []vk.Stage{vk.StageMeshShaderEXT, vk.StageTaskShaderEXT} {
		_, err := New(d, gfxRQFrame(st))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "not built") || !strings.Contains(ue.Reason, st.String()) {
			t.Errorf("ray queries in %s: got %v, want a refusal as not built naming the stage", st, err)
		}
		t.Logf("%s: %v", st, err)
	}
}

// TestGfxRayQueryGeneratedFrames replays proptest.GfxRayReplayFrame for
// seeds 1..8 (ALIASPLAN_RAY_FRAMES overrides) both ways: no message,
// digests equal.
func TestGfxRayQueryGeneratedFrames(t *testing.T) {
	d := gfxRQDevice(t)
	n := 8
	if s := os.Getenv("ALIASPLAN_RAY_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.GfxRayReplayFrame(seed)
			extCompare(t, d, g, 1)
			t.Logf("kinds %v, stages %s", kinds, Stages(g))
		})
	}
}
