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

// extDevice opens a replay device with the extra stages enabled where the
// device has them (its own device: the shared one is opened without).
func extDevice(t *testing.T, stages vk.Stage) *vulkan.Device {
	t.Helper()
	if unavailable != nil {
		openDevice(t) // skips or fails as it says
	}
	d, err := vulkan.Open(vulkan.Config{Validation: true, Replay: true, ReplayStages: stages, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
		for _, m := range d.TakeMessages() {
			t.Errorf("validation (at teardown): %s", m)
		}
	})
	return d
}

// meshCases are commands "use" of coverGraph with task and mesh stage
// work; res names the resource whose barrier before use the stage
// control moves to the wrong stage.
var meshCases = []struct {
	name  string
	uses  func(g *p.Graph, buf, img, out p.ResourceID) []p.Access
	res   string
	wrong vk.Stage
}{
	{"mesh-storage-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead}, meshColour(out)}
	}, "buf", vk.StageVertexShader},
	{"mesh-sampled-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: img, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}, meshColour(out)}
	}, "img", vk.StageFragmentShader},
	{"mesh-read-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}, meshColour(out)}
	}, "buf", vk.StageVertexShader},
	{"task-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageTaskShaderEXT, Access: vk.AccessShaderStorageRead}, meshColour(out)}
	}, "buf", vk.StageMeshShaderEXT},
	{"task-and-mesh", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageTaskShaderEXT, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite},
			{Resource: img, Stages: vk.StageMeshShaderEXT | vk.StageFragmentShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}, meshColour(out)}
	}, "img", vk.StageVertexShader},
	{"mesh-general-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: img, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}, meshColour(out)}
	}, "img", vk.StageVertexShader},
	{"mesh-no-attachment", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead},
			{Resource: img, Stages: vk.StageMeshShaderEXT, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
			{Resource: out, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}}
	}, "img", vk.StageFragmentShader},
}

// meshGraph is coverGraph with a storage-capable "out".
func meshGraph(uses func(g *p.Graph, buf, img, out p.ResourceID) []p.Access) *p.Graph {
	g := coverGraph(uses)
	for i := range g.Resources {
		if g.Resources[i].Name == "out" {
			g.Resources[i].Image.Usage |= vk.ImageUsageStorage
		}
	}
	return g
}

// extCompare is compare, except that Mesa 24+'s SPIR-V parser warning
// about the EXTRA shaders' texel-buffer reads (glslang 12 puts a Buffer
// image in OpTypeSampledImage; a driver message, not the layer's; lavapipe
// 25.0.7 prints it, 22.3.6 and NVIDIA do not) is logged, not failed.
func extCompare(t *testing.T, d *vulkan.Device, g *p.Graph, runs int) *Report {
	t.Helper()
	return extCompareWith(t, d, g, runs, aliasplan.Options{})
}

// extCompareWith is extCompare planning with opts (prepareWith).
func extCompareWith(t *testing.T, d *vulkan.Device, g *p.Graph, runs int, opts aliasplan.Options) *Report {
	t.Helper()
	r, plan := prepareWith(t, d, g, opts)
	rep, err := r.Compare(plan, Config{Runs: runs})
	if err != nil {
		t.Fatalf("Compare: %v", err)
	}
	for _, m := range rep.Mismatches {
		t.Errorf("mismatch: %s", m)
	}
	bad := 0
	for _, m := range rep.Messages {
		if driverSPIRVWarning(m) {
			t.Logf("driver warning (not the layer): %.160s", m)
			continue
		}
		bad++
		t.Errorf("validation: %s", m)
	}
	if rep.ValidationMessages != 0 && len(rep.Messages) == 0 {
		t.Errorf("%d validation messages", rep.ValidationMessages)
	}
	if !rep.DigestsEqual {
		t.Errorf("digests differ")
	}
	return rep
}

func driverSPIRVWarning(m string) bool {
	return strings.Contains(m, "vk_nir.c") && strings.Contains(m, "SPIR-V WARNING")
}

// extSkip skips a test whose device lacks an extension (a device limit,
// said so), or fails it with ALIASPLAN_REQUIRE_EXT=1 (the H200 scripts:
// the device has them all, so a skip there would hide a regression).
func extSkip(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("ALIASPLAN_REQUIRE_EXT") == "1" {
		t.Fatalf("ALIASPLAN_REQUIRE_EXT=1 and %s", msg)
	}
	t.Skip("SKIP (device limit, not a pass): " + msg)
}

func meshColour(out p.ResourceID) p.Access {
	return p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
}

// TestMeshStages: task and mesh shader work replays with no message and
// equal digests (aliased and not), and recording the barrier before the
// command with the wrong destination stage raises a hazard: the work is
// in the declared stage. On a device without VK_EXT_mesh_shader the
// frames are refused naming it (a device limit) and the test skips,
// saying so; on a device with it a refusal fails the test.
func TestMeshStages(t *testing.T) {
	d := extDevice(t, vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	task, mesh := hooks.MeshShaders()
	if !mesh {
		g := coverGraph(meshCases[0].uses)
		_, err := New(d, g)
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_EXT_mesh_shader") {
			t.Fatalf("a device without mesh shaders: got %v, want a refusal naming VK_EXT_mesh_shader", err)
		}
		extSkip(t, "%s: %v", d.Info().Name, err)
	}
	for _, c := range meshCases {
		t.Run(c.name, func(t *testing.T) {
			g := meshGraph(c.uses)
			if !task && Stages(g)&vk.StageTaskShaderEXT != 0 {
				extSkip(t, "%s has no taskShader", d.Info().Name)
			}
			rep := extCompare(t, d, g, 2)
			t.Logf("%s: digests equal %v, %d messages", c.name, rep.DigestsEqual, rep.ValidationMessages)
			// Layer 1.3.239 checks no descriptor access of a mesh draw
			// (mesh.go, meshChainQuirk): a barrier to the wrong stage is
			// logged, not asserted; TestMeshClobber is the control.
			r, plan := prepare(t, d, g)
			use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
			res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == c.res }))
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == use && b.Resource == res && b.Kind == p.Hazard })
			if k < 0 {
				t.Fatalf("no hazard barrier on %s before use: %+v", c.res, plan.Barriers)
			}
			hazards := wrongStage(t, r, plan, k, c.wrong, func(m vulkan.Message) bool {
				return !strings.Contains(m.Text, "vkCmdDispatch") && !strings.Contains(m.Text, "vkCmdPipelineBarrier2")
			})
			t.Logf("%s: destination stage %s instead of %s: %d hazards at the mesh draw (layer 1.3.239 checks none there)", c.name, c.wrong, plan.Barriers[k].DstStages, hazards)
		})
	}
}

// TestMeshNotEnabled: a device opened without the mesh stages in
// ReplayStages refuses a mesh frame naming why (lacking the extension, or
// not enabled), never as unbuilt.
func TestMeshNotEnabled(t *testing.T) {
	d := sharedDevice(t)
	_, err := New(d, coverGraph(meshCases[0].uses))
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "use" || !strings.Contains(ue.Reason, "VK_EXT_mesh_shader") || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want a refusal naming VK_EXT_mesh_shader", err)
	}
	t.Logf("%s: %v", d.Info().Name, err)
}

// clobberGraph: x and y are written (compute) and live at once; "use"
// reads x in its task or mesh stage (stage), then y is read. A broken
// plan that puts y in x's bytes makes y's write clobber what use reads.
func clobberGraph(stage vk.Stage) *p.Graph {
	g := &p.Graph{}
	x := g.AddBuffer("x", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	y := g.AddBuffer("y", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("x.write", p.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("y.write", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("use", p.Access{Resource: x, Stages: stage, Access: vk.AccessShaderStorageRead}, meshColour(out))
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	return g
}

// clobber returns plan with resource b placed over resource a (same
// pool and offset): a placement that breaks interference.
func clobber(t *testing.T, g *p.Graph, plan *p.Plan, a, b string) *p.Plan {
	t.Helper()
	ia := slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == a })
	ib := slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == b })
	if plan.Resources[ia].Status != p.StatusPooled || plan.Resources[ib].Status != p.StatusPooled {
		t.Fatalf("premise: %s and %s pooled (%+v, %+v)", a, b, plan.Resources[ia], plan.Resources[ib])
	}
	ra, rb := plan.Resources[ia].Placement, plan.Resources[ib].Placement
	if ra.Pool == rb.Pool && ra.Offset == rb.Offset {
		t.Fatalf("premise: %s and %s pooled apart (%+v, %+v)", a, b, ra, rb)
	}
	if pl := plan.Pools[ra.Pool]; ra.Offset+rb.Size > pl.Size {
		t.Fatalf("premise: %s fits at %s's offset", b, a)
	}
	broken := *plan
	broken.Resources = slices.Clone(plan.Resources)
	broken.Resources[ib].Placement.Pool, broken.Resources[ib].Placement.Offset = ra.Pool, ra.Offset
	return &broken
}

// TestMeshClobber is the mesh stages' negative control, a digest one
// (the layer checks no mesh draw): with y placed over x, the task or
// mesh stage of "use" reads y's words instead of x's, and use's digest
// must differ from the intact plan's; the intact plan has equal digests
// and no message. It fails when the stage does not read what it
// declares, or the digests do not see it.
func TestMeshClobber(t *testing.T) {
	d := extDevice(t, vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	task, mesh := hooks.MeshShaders()
	if !mesh {
		extSkip(t, "%s has no VK_EXT_mesh_shader meshShader", d.Info().Name)
	}
	for _, st := range []vk.Stage{vk.StageMeshShaderEXT, vk.StageTaskShaderEXT} {
		t.Run(st.String(), func(t *testing.T) {
			if st == vk.StageTaskShaderEXT && !task {
				extSkip(t, "%s has no taskShader", d.Info().Name)
			}
			g := clobberGraph(st)
			extCompare(t, d, g, 2)
			r, plan := prepare(t, d, g)
			diff := clobberDiff(t, r, g, plan)
			t.Logf("%s: y over x: %d differences: %v", st, len(diff), diff)
			if !diffHas(diff, "use") {
				t.Errorf("use's digest did not change with x clobbered: the %s stage does not read x, or the digest does not see it (%v)", st, diff)
			}
		})
	}
}

// TestMeshGeneratedFrames replays proptest.MeshReplayFrame for seeds
// 1..12 (ALIASPLAN_MESH_FRAMES overrides the count) both ways where the
// device has mesh shaders: no message, digests equal (a frame with
// mesh-formatless is refused naming shaderStorageImageReadWithoutFormat
// where the device lacks it).
func TestMeshGeneratedFrames(t *testing.T) {
	d := extDevice(t, vk.StageTaskShaderEXT|vk.StageMeshShaderEXT)
	hooks, _ := d.Replay()
	if task, mesh := hooks.MeshShaders(); !task || !mesh {
		extSkip(t, "%s has no VK_EXT_mesh_shader with taskShader and meshShader", d.Info().Name)
	}
	n := 12
	if s := os.Getenv("ALIASPLAN_MESH_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.MeshReplayFrame(seed)
			if slices.Contains(kinds, "mesh-formatless") && refusedWithoutFormat(t, d, g, kinds) {
				return
			}
			extCompare(t, d, g, 1)
			t.Logf("kinds %v", kinds)
		})
	}
}
