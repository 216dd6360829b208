package replay

import (
	"errors"
	"fmt"
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

func asBuffer(g *p.Graph, name string) p.ResourceID {
	return g.AddBuffer(name, p.BufferDesc{Size: 65536, Usage: vk.BufferUsageAccelerationStructureStorage})
}

func asBuild(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureWrite}
}

// traceStage is where the tests trace: compute (ray queries) where the
// device has VK_KHR_ray_query, else the ray tracing pipeline (rayDevice
// sets it).
var traceStage = vk.StageComputeShader

func asTrace(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: traceStage, Access: vk.AccessAccelerationStructureRead}
}

// accelCases are frames with acceleration-structure work.
var accelCases = []struct {
	name  string
	graph func() *p.Graph
}{
	{"tlas-trace", func() *p.Graph {
		g := &p.Graph{}
		t := asBuffer(g, "tlas")
		sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("build", asBuild(t))
		g.AddCommand("trace", asTrace(t), p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		return g
	}},
	{"blas-tlas-trace", func() *p.Graph {
		g := &p.Graph{}
		b1, b2, t := asBuffer(g, "blas1"), asBuffer(g, "blas2"), asBuffer(g, "tlas")
		g.AddCommand("build.b1", asBuild(b1))
		g.AddCommand("build.b2", asBuild(b2))
		g.AddCommand("build.t", asBuild(t),
			p.Access{Resource: b1, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead},
			p.Access{Resource: b2, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead})
		g.AddCommand("trace", asTrace(t))
		return g
	}},
	{"copy-trace", func() *p.Graph {
		g := &p.Graph{}
		t, u := asBuffer(g, "tlas"), asBuffer(g, "copy")
		g.AddCommand("build", asBuild(t))
		g.AddCommand("copy", p.Access{Resource: t, Stages: vk.StageAccelerationStructureCopy, Access: vk.AccessAccelerationStructureRead},
			p.Access{Resource: u, Stages: vk.StageAccelerationStructureCopy, Access: vk.AccessAccelerationStructureWrite})
		g.AddCommand("trace", asTrace(t), asTrace(u))
		return g
	}},
	{"trace-and-compute", func() *p.Graph {
		g := &p.Graph{}
		t := asBuffer(g, "tlas")
		buf := g.AddBuffer("buf", p.BufferDesc{Size: 8192, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("write", asBuild(t), p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("trace", asTrace(t), p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
		g.AddCommand("read", p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		return g
	}},
}

// rayDevice opens a device with acceleration structures and ray queries
// enabled where it has them; without, it checks that the frame is refused
// naming what is missing and skips (a device limit).
func rayDevice(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageAccelerationStructureCopy|vk.StageRayTracingShader)
	hooks, _ := d.Replay()
	exts, fas, frq, frtp, fbda := hooks.RaySupport()
	as, rq, rtp := hooks.RayQueries()
	t.Logf("%s: %s; features accelerationStructure %v rayQuery %v rayTracingPipeline %v bufferDeviceAddress %v; enabled: as %v, ray query %v, ray tracing pipeline %v",
		d.Info().Name, rayExts(exts), fas, frq, frtp, fbda, as, rq, rtp)
	traceStage = vk.StageComputeShader
	if !rq {
		traceStage = vk.StageRayTracingShader
	}
	if !as || !rq && !rtp {
		_, err := New(d, accelCases[0].graph())
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "(queried)") {
			t.Fatalf("a device without ray queries: got %v, want a refusal naming the missing extension or feature", err)
		}
		extSkip(t, "%s: %v", d.Info().Name, err)
	}
	return d
}

// TestAccelStages: acceleration-structure builds (top level over the
// replay's own bottom level, top level over the frame's bottom-level
// buffers), copies and ray-query traces replay with no message and equal
// digests, aliased and not; the traces feed the digest (the trace
// command's digest is not zero).
func TestAccelStages(t *testing.T) {
	d := rayDevice(t)
	for _, c := range accelCases {
		t.Run(c.name, func(t *testing.T) {
			g := c.graph()
			rep := extCompare(t, d, g, 2)
			var traced bool
			for _, dg := range rep.Digests {
				if dg.Command == "trace" && dg.Digest != 0 {
					traced = true
				}
			}
			if !traced {
				t.Errorf("no digest for the trace command: %+v", rep.Digests)
			}
			t.Logf("%s (traced in %s): digests equal %v, %d messages, quirks %v", c.name, traceStage, rep.DigestsEqual, rep.ValidationMessages, rep.LayerQuirks)
		})
	}
}

// TestAccelClobber is the acceleration structures' negative control: y's
// structure placed over x's (a placement that breaks interference) makes
// the trace of x see y's triangles, so its digest differs from the intact
// plan's. The structures' bytes are never digested (opaque); what the
// trace returns is.
func TestAccelClobber(t *testing.T) {
	accelClobber(t, rayDevice(t))
}

func accelClobber(t *testing.T, d *vulkan.Device) {
	g := &p.Graph{}
	x, y := asBuffer(g, "x"), asBuffer(g, "y")
	g.AddCommand("x.build", asBuild(x))
	g.AddCommand("y.build", asBuild(y))
	g.AddCommand("use", asTrace(x))
	g.AddCommand("y.trace", asTrace(y))
	extCompare(t, d, g, 2)
	r, plan := prepare(t, d, g)
	diff := clobberDiff(t, r, g, plan)
	t.Logf("y over x: %d differences: %v", len(diff), diff)
	if !diffHas(diff, "use") {
		t.Errorf("the trace of x did not change with y built over it: %v", diff)
	}
}

// TestAccelNotEnabled: the shared device (opened without the stages)
// refuses an acceleration-structure frame naming why, never as unbuilt.
func TestAccelNotEnabled(t *testing.T) {
	d := sharedDevice(t)
	_, err := New(d, accelCases[0].graph())
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "VK_KHR_") || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want a refusal naming the extension", err)
	}
	t.Logf("%s: %v", d.Info().Name, err)
}

// TestRayGeneratedFrames replays proptest.RayReplayFrame for seeds 1..12
// (ALIASPLAN_RAY_FRAMES overrides) both ways where the device has ray
// queries: no message, digests equal.
func TestRayGeneratedFrames(t *testing.T) {
	d := rayDevice(t)
	n := 12
	if s := os.Getenv("ALIASPLAN_RAY_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.RayReplayFrame(seed, traceStage)
			extCompare(t, d, g, 1)
			t.Logf("kinds %v", kinds)
		})
	}
}

// TestRayPipelineTrace traces with the ray tracing pipeline
// (RAY_TRACING_SHADER stage) on a device that also has ray queries, so
// both paths run where both exist (lavapipe 25, the H200 has only the
// pipeline): intact clean and equal, clobber caught.
func TestRayPipelineTrace(t *testing.T) {
	d := rayDevice(t)
	hooks, _ := d.Replay()
	if _, _, rtp := hooks.RayQueries(); !rtp {
		extSkip(t, "%s has no VK_KHR_ray_tracing_pipeline", d.Info().Name)
	}
	saved := traceStage
	traceStage = vk.StageRayTracingShader
	defer func() { traceStage = saved }()
	for _, c := range accelCases {
		t.Run(c.name, func(t *testing.T) {
			extCompare(t, d, c.graph(), 2)
		})
	}
	t.Run("clobber", func(t *testing.T) { accelClobber(t, d) })
}

// TestAccelCopyStage: the plan's barriers of acceleration-structure
// copies name ACCELERATION_STRUCTURE_COPY, VK_KHR_ray_tracing_maintenance1's
// stage. Where the device has it the replay enables it and records them
// as they are; opened without it (vulkan.SetRTMaintenance1ForTest, the
// case of a device that lacks it) the barriers name
// ACCELERATION_STRUCTURE_BUILD, where the copy runs without the
// extension (replay_rtm1.go). Both ways: no message (layer 1.3.239
// reports VUID-...-03927/03928 for the stage it does not know), equal
// digests.
func TestAccelCopyStage(t *testing.T) {
	cases := []string{"copy-trace"}
	run := func(t *testing.T, d *vulkan.Device) {
		for _, c := range accelCases {
			if slices.Contains(cases, c.name) {
				extCompare(t, d, c.graph(), 2)
			}
		}
		for seed := uint64(1); seed <= 6; seed++ {
			g, kinds := proptest.RayReplayFrame(seed, traceStage)
			if Stages(g)&vk.StageAccelerationStructureCopy != 0 {
				t.Logf("generated frame %d: kinds %v", seed, kinds)
				extCompare(t, d, g, 1)
			}
		}
	}
	t.Run("maintenance1", func(t *testing.T) {
		d := rayDevice(t)
		hooks, _ := d.Replay()
		exts, _, _, _, _ := hooks.RaySupport()
		if !hooks.RTMaintenance1() {
			if deviceExtensionSet(d)["VK_KHR_ray_tracing_maintenance1"] {
				t.Fatalf("%s has VK_KHR_ray_tracing_maintenance1, not enabled (%s)", d.Info().Name, rayExts(exts))
			}
			extSkip(t, "%s lacks VK_KHR_ray_tracing_maintenance1", d.Info().Name)
		}
		run(t, d)
	})
	t.Run("without", func(t *testing.T) {
		vulkan.SetRTMaintenance1ForTest(true)
		defer vulkan.SetRTMaintenance1ForTest(false)
		d := rayDevice(t)
		hooks, _ := d.Replay()
		if hooks.RTMaintenance1() {
			t.Fatal("VK_KHR_ray_tracing_maintenance1 enabled after SetRTMaintenance1ForTest(true)")
		}
		run(t, d)
	})
}

// TestASBottomLevelLifetime: a graph bottom level instanced by a top level
// is read by the trace of the top level (the planner's implied read,
// planner/asrefs.go), so the trace's output sink, of the bottom level's
// size and first written by the trace, never takes its memory. Before the
// implied read the plan put sink in blas's memory, and on the H200 the
// aliased trace's digest differed from the unaliased one in every run
// (docs/replay.md, build scratch, "a bottom level's lifetime").
func TestASBottomLevelLifetime(t *testing.T) {
	d := rayDevice(t)
	g := &p.Graph{}
	blas, tlas := asBuffer(g, "blas"), asBuffer(g, "tlas")
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("build.blas", asBuild(blas))
	g.AddCommand("build.tlas", asBuild(tlas), p.Access{Resource: blas, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead})
	g.AddCommand("trace", asTrace(tlas), p.Access{Resource: sink, Stages: traceStage, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("sink.read", p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	_, plan := prepare(t, d, g)
	b, s := plan.Resources[blas], plan.Resources[sink]
	t.Logf("blas: %s pool %d [%d, +%d); sink: %s pool %d [%d, +%d)", b.Status, b.Placement.Pool, b.Placement.Offset, b.Placement.Size, s.Status, s.Placement.Pool, s.Placement.Offset, s.Placement.Size)
	if b.Status == p.StatusPooled && s.Status == p.StatusPooled && b.Placement.Pool == s.Placement.Pool &&
		b.Placement.Offset < s.Placement.Offset+s.Placement.Size && s.Placement.Offset < b.Placement.Offset+b.Placement.Size {
		t.Errorf("sink shares blas's memory although the trace reads blas through tlas")
	}
	rep := extCompare(t, d, g, 2)
	if !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == "trace" && dg.Digest != 0 }) {
		t.Errorf("no digest for the trace: %+v", rep.Digests)
	}
	t.Logf("digests equal %v, %d messages, %d alias barriers, %d of %d transient bytes pooled", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers, rep.PooledBytes, rep.TransientBytes)
}
