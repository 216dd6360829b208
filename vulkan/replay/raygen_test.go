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
			if digestOf(rep, "use") == 0 {
				t.Errorf("no digest for use: %+v", rep.Digests)
			}
			t.Logf("%s: digests equal %v, %d messages, quirks %v", c.name, rep.DigestsEqual, rep.ValidationMessages, rep.LayerQuirks)
			r, plan := prepare(t, d, g)
			use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
			res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == c.res }))
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == use && b.Resource == res && b.Kind == p.Hazard })
			if k < 0 {
				t.Fatalf("no hazard barrier on %s before use: %+v", c.res, plan.Barriers)
			}
			broken := *plan
			broken.Barriers = slices.Clone(plan.Barriers)
			broken.Barriers[k].DstStages = c.wrong
			_, msgs, err := r.RunPlan(&broken, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			rest, _ := SplitQuirks(msgs)
			hazards := 0
			for _, m := range rest {
				if strings.HasPrefix(m.ID, "SYNC-HAZARD-") && strings.Contains(m.Text, "vkCmdTraceRaysKHR") {
					hazards++
				}
			}
			t.Logf("%s: destination stage %s instead of %s: %d hazards at vkCmdTraceRaysKHR", c.name, c.wrong, plan.Barriers[k].DstStages, hazards)
		})
	}
}

var _ = fmt.Sprint
var _ = os.Getenv
var _ = strconv.Atoi
var _ = proptest.RayReplayFrame
