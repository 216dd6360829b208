package replay

import (
	"errors"
	"fmt"
	"hash/fnv"
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

const rts = vk.StageRayTracingShader

// rayGenCases are commands "use" of coverGraph with storage, uniform and
// sampled accesses in the RAY_TRACING_SHADER stage (raygen.go); res names
// the resource whose barrier before use the stage control moves to the
// wrong stage.
var rayGenCases = []struct {
	name  string
	uses  func(g *p.Graph, buf, img, out p.ResourceID) []p.Access
	res   string
	wrong vk.Stage
}{
	{"storage-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: rts, Access: vk.AccessShaderStorageRead}}
	}, "buf", vk.StageFragmentShader},
	{"storage-read-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: rts, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}}
	}, "buf", vk.StageComputeShader},
	{"uniform-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: rts, Access: vk.AccessUniformRead}}
	}, "buf", vk.StageVertexShader},
	{"sampled-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: img, Stages: rts, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}}
	}, "img", vk.StageFragmentShader},
	{"storage-image-read-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: img, Stages: rts, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
			{Resource: buf, Stages: rts, Access: vk.AccessShaderStorageRead}}
	}, "img", vk.StageComputeShader},
	{"beside-compute-and-fragment", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		return []p.Access{{Resource: buf, Stages: rts | vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
			{Resource: img, Stages: rts | vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}, meshColour(out)}
	}, "buf", vk.StageFragmentShader},
}

// rayGenDevice8 opens a device with the ray tracing pipeline enabled
// where it has it; without it, it checks that a ray generation frame is
// refused naming VK_KHR_ray_tracing_pipeline (a device limit) and skips.
func rayGenDevice8(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageRayTracingShader)
	hooks, _ := d.Replay()
	if _, _, rtp := hooks.RayQueries(); !rtp {
		_, err := New(d, coverGraph(rayGenCases[0].uses))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Command != "use" || !strings.Contains(ue.Reason, "VK_KHR_ray_tracing_pipeline") || strings.Contains(ue.Reason, "not built") {
			t.Fatalf("a device without the ray tracing pipeline: got %v, want a refusal naming VK_KHR_ray_tracing_pipeline", err)
		}
		extSkip(t, "%s: %v", d.Info().Name, err)
	}
	return d
}

// rayGenGraph is meshGraph where use, drawing nothing, writes "out" in
// its ray generation stage (so the reader of out reads a write).
func rayGenGraph(uses func(g *p.Graph, buf, img, out p.ResourceID) []p.Access) *p.Graph {
	return meshGraph(func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
		acc := uses(g, buf, img, out)
		if !slices.ContainsFunc(acc, func(a p.Access) bool { return a.Resource == out }) {
			acc = append(acc, p.Access{Resource: out, Stages: rts, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		}
		return acc
	})
}

// zeroLanesDigest is the digest of a command of one part whose lanes are
// all zero (compare.go's digest).
func zeroLanesDigest() uint64 {
	h := fnv.New64a()
	h.Write(make([]byte, laneBytes))
	return h.Sum64()
}

func digestOf(rep *Report, cmd string) uint64 {
	for _, dg := range rep.Digests {
		if dg.Command == cmd {
			return dg.Digest
		}
	}
	return 0
}

// TestRayGenSlots: storage, uniform and sampled accesses in the
// RAY_TRACING_SHADER stage replay (a ray generation shader over the slot
// arrays) with no validation message and equal digests, aliased and not;
// use's digest is not zero (its lanes ran). Moving the barrier before use
// to the wrong destination stage is logged with the hazards it raises.
func TestRayGenSlots(t *testing.T) {
	d := rayGenDevice8(t)
	for _, c := range rayGenCases {
		t.Run(c.name, func(t *testing.T) {
			g := rayGenGraph(c.uses)
			rep := extCompare(t, d, g, 2)
			if dg := digestOf(rep, "use"); dg == 0 || dg == zeroLanesDigest() {
				t.Errorf("use's digest %#x: no part, or lanes all zero (the ray generation trace did not run)", dg)
			}
			t.Logf("%s: digests equal %v, %d messages, quirks %v", c.name, rep.DigestsEqual, rep.ValidationMessages, rep.LayerQuirks)
			r, plan := prepare(t, d, g)
			use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
			res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == c.res }))
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == use && b.Resource == res && b.Kind == p.Hazard })
			if k < 0 {
				t.Fatalf("no hazard barrier on %s before use: %+v", c.res, plan.Barriers)
			}
			hazards := wrongStage(t, r, plan, k, c.wrong, func(m vulkan.Message) bool { return strings.Contains(m.Text, "vkCmdTraceRaysKHR") })
			t.Logf("%s: destination stage %s instead of %s: %d hazards at vkCmdTraceRaysKHR", c.name, c.wrong, plan.Barriers[k].DstStages, hazards)
		})
	}
}

// rayGenClobberGraph: x and y are written and live at once; "use" reads
// x in its ray generation stage (read), or x is written by the ray
// generation stage of "x.write" and read by use in compute (write); then
// y is read. A broken plan that puts y in x's bytes makes y's write
// clobber what use reads.
func rayGenClobberGraph(write bool) *p.Graph {
	g := &p.Graph{}
	x := g.AddBuffer("x", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	y := g.AddBuffer("y", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	ws, us := vk.StageComputeShader, rts
	if write {
		ws, us = rts, vk.StageComputeShader
	}
	g.AddCommand("x.write", p.Access{Resource: x, Stages: ws, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("y.write", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("use", p.Access{Resource: x, Stages: us, Access: vk.AccessShaderStorageRead}, p.Access{Resource: sink, Stages: us, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	return g
}

// TestRayGenClobber is the ray generation stage's negative control, a
// digest one (layer 1.3.239 checks no descriptor access of
// vkCmdTraceRaysKHR: a plan with every barrier before a ray generation
// read removed draws no hazard there, raygen.go): with y placed over x,
// the ray generation read of x (read), or the compute read of what the
// ray generation stage wrote into x (write), sees y's words, and use's
// digest must differ from the intact plan's, which has equal digests and
// no message (write: or y.read's, where y.write ran before x.write). It fails when the stage does not read or write what it
// declares, or the digests do not see it.
func TestRayGenClobber(t *testing.T) {
	d := rayGenDevice8(t)
	for _, write := range []bool{false, true} {
		t.Run(map[bool]string{false: "read", true: "write"}[write], func(t *testing.T) {
			g := rayGenClobberGraph(write)
			extCompare(t, d, g, 2)
			r, plan := prepare(t, d, g)
			diff := clobberDiff(t, r, g, plan)
			t.Logf("y over x: %d differences: %v", len(diff), diff)
			has := func(cmd string) bool { return diffHas(diff, cmd) }
			switch {
			case has("use"):
			case write && has("y.read"):
				// The clobbered plan has no barrier between x.write (ray
				// generation) and y.write (compute): on a GPU that runs
				// them at once (the H200) y.write may land first, so use
				// reads x intact and y.read reads the ray generation
				// stage's words instead of y's.
				t.Logf("x.write landed after y.write: the clobber shows in y.read")
			default:
				t.Errorf("neither use's digest nor (write) y.read's changed with x clobbered (%v)", diff)
			}
		})
	}
}

// TestRayGenUnordered: uses with no order between them. Across
// commands: two ray tracing commands the graph leaves unordered read one
// buffer and one image (sampled, so one transition to a read-only layout
// serves both readers) and write resources of their own; a compute
// reader of the image is unordered with them too: no message, digests
// equal. Inside one command: its ray generation trace and compute
// dispatch follow each other with no barrier between them. Each on
// resources of its own (and both reading one) replays, no message,
// digests equal; one writing what the other touches is refused naming
// both pieces (selfrace.go), never as not built.
func TestRayGenUnordered(t *testing.T) {
	d := rayGenDevice8(t)
	t.Run("unordered-readers", func(t *testing.T) {
		g := &p.Graph{}
		buf := g.AddBuffer("buf", p.BufferDesc{Size: 16384, Usage: vk.BufferUsageStorageBuffer})
		img := g.AddImage("img", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
		a := g.AddBuffer("a", p.BufferDesc{Size: 8192, Usage: vk.BufferUsageStorageBuffer})
		b := g.AddBuffer("b", p.BufferDesc{Size: 8192, Usage: vk.BufferUsageStorageBuffer})
		c := g.AddBuffer("c", p.BufferDesc{Size: 8192, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("write", p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite},
			p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		for i, r := range []p.ResourceID{a, b} {
			g.AddCommand(fmt.Sprintf("trace%d", i), p.Access{Resource: buf, Stages: rts, Access: vk.AccessShaderStorageRead},
				p.Access{Resource: img, Stages: rts, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
				p.Access{Resource: r, Stages: rts, Access: vk.AccessShaderStorageWrite})
		}
		g.AddCommand("compute", p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
			p.Access{Resource: c, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("read", p.Access{Resource: a, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
			p.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
			p.Access{Resource: c, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		rep := extCompare(t, d, g, 2)
		r, plan := prepare(t, d, g)
		transitions := 0
		broken := *plan
		broken.Barriers = slices.DeleteFunc(slices.Clone(plan.Barriers), func(br p.Barrier) bool {
			if g.Resources[br.Resource].Name == "img" && br.NewLayout == vk.LayoutShaderReadOnlyOptimal {
				transitions++
				return true
			}
			return false
		})
		if transitions == 0 {
			t.Fatalf("no transition of img to SHADER_READ_ONLY_OPTIMAL: %+v", plan.Barriers)
		}
		// The control: without the readers' transition the traces sample
		// img in the wrong layout, which core validation reports at the
		// trace (VUID-VkDescriptorImageInfo-imageLayout-00344).
		_, msgs, err := r.RunPlan(&broken, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		layout := slices.ContainsFunc(msgs, func(m vulkan.Message) bool {
			return strings.Contains(m.ID, "VUID-VkDescriptorImageInfo-imageLayout-00344") && strings.Contains(m.Text, "vkCmdTraceRaysKHR")
		})
		if !layout {
			t.Errorf("img's transition removed: no layout error at vkCmdTraceRaysKHR (%d messages): the traces do not sample img in its layout", len(msgs))
		}
		t.Logf("digests equal %v, %d messages, %d transition(s) of img to SHADER_READ_ONLY_OPTIMAL for its three unordered readers; removed: layout error %v",
			rep.DigestsEqual, rep.ValidationMessages, transitions, layout)
	})
	t.Run("apart", func(t *testing.T) {
		g := rayGenGraph(func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: buf, Stages: rts | vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
				{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
				{Resource: out, Stages: rts, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}}
		})
		rep := extCompare(t, d, g, 2)
		t.Logf("digests equal %v, use %#x", rep.DigestsEqual, digestOf(rep, "use"))
	})
	for _, c := range []struct {
		name string
		acc  []p.Access
	}{
		{"raygen-write-compute-read", []p.Access{{Resource: 0, Stages: rts, Access: vk.AccessShaderStorageWrite}, {Resource: 0, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}}},
		{"compute-write-raygen-read", []p.Access{{Resource: 0, Stages: rts | vk.StageComputeShader, Access: vk.AccessShaderStorageRead}, {Resource: 0, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := coverGraph(func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
				acc := slices.Clone(c.acc)
				for i := range acc {
					acc[i].Resource = buf
				}
				return append(acc, meshColour(out))
			})
			_, err := New(d, g)
			var ue *UnsupportedError
			if !errors.As(err, &ue) || ue.Command != "use" || !strings.Contains(ue.Reason, "the ray generation trace") || !strings.Contains(ue.Reason, "the compute dispatch") ||
				strings.Contains(ue.Reason, "not built") {
				t.Fatalf("got %v, want a refusal naming the ray generation trace and the compute dispatch", err)
			}
			t.Logf("%v", err)
		})
	}
}

// TestRayGenNotEnabled: the shared device (opened without the ray
// tracing stage) refuses a ray generation frame naming
// VK_KHR_ray_tracing_pipeline (lacking it, or not enabled), never as
// unbuilt.
func TestRayGenNotEnabled(t *testing.T) {
	d := sharedDevice(t)
	_, err := New(d, rayGenGraph(rayGenCases[0].uses))
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "use" || !strings.Contains(ue.Reason, "VK_KHR_ray_tracing_pipeline") || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want a refusal naming VK_KHR_ray_tracing_pipeline", err)
	}
	t.Logf("%s: %v", d.Info().Name, err)
}

// TestRayGenGeneratedFrames replays proptest.RayShaderReplayFrame for
// seeds 1..10 (ALIASPLAN_RAYGEN_FRAMES overrides the count) both ways
// where the device has the ray tracing pipeline: no message, digests
// equal, every frame's ray tracing commands with a digest.
func TestRayGenGeneratedFrames(t *testing.T) {
	d := rayGenDevice8(t)
	n := 10
	if s := os.Getenv("ALIASPLAN_RAYGEN_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.RayShaderReplayFrame(seed)
			if Stages(g)&rts == 0 {
				t.Fatalf("frame %d (%v) has no RAY_TRACING_SHADER access", seed, kinds)
			}
			if slices.Contains(kinds, "rt-formatless") && refusedWithoutFormat(t, d, g, kinds) {
				return
			}
			rep := extCompare(t, d, g, 1)
			t.Logf("kinds %v, quirks %v", kinds, rep.LayerQuirks)
		})
	}
}
