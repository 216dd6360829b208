package replay

import (
	"errors"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// coverGraph: a compute pass writes a buffer and an image, then cmd uses
// them as acc says, then a compute pass reads what cmd wrote.
func coverGraph(uses func(g *p.Graph, buf, img, out p.ResourceID) []p.Access) *p.Graph {
	g := &p.Graph{}
	buf := g.AddBuffer("buf", p.BufferDesc{Size: 3*65536 + 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageUniformBuffer | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst})
	img := g.AddImage("img", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst | vk.ImageUsageColorAttachment})
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
	g.AddCommand("write", p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite},
		p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("use", uses(g, buf, img, out)...)
	g.AddCommand("read", p.Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	return g
}

// TestCoverStageControls: each kind of issue 21's last round replays
// with no message, and recording the barrier before "use" with the
// wrong destination stage (where the replay would not do its work) makes
// synchronization validation report a hazard: the work happens in the
// declared stage. Without the kinds the frames are refused (the test
// fails at New).
func TestCoverStageControls(t *testing.T) {
	colour := func(out p.ResourceID) p.Access {
		return p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
	}
	cases := []struct {
		name  string
		uses  func(g *p.Graph, buf, img, out p.ResourceID) []p.Access
		res   string // the barrier before use on this resource gets...
		wrong vk.Stage
	}{
		{"tessellation-control", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: buf, Stages: vk.StageTessellationControlShader, Access: vk.AccessShaderStorageRead}, colour(out)}
		}, "buf", vk.StageVertexShader},
		{"tessellation-evaluation", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: img, Stages: vk.StageTessellationEvaluationShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}, colour(out)}
		}, "img", vk.StageTessellationControlShader},
		{"geometry", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: buf, Stages: vk.StageGeometryShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}, colour(out)}
		}, "buf", vk.StageVertexShader},
		{"image-self-copy", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: img, Stages: vk.StageCopy, Access: vk.AccessTransferRead | vk.AccessTransferWrite, Layout: vk.LayoutGeneral}, colour(out)}
		}, "img", vk.StageClear},
		{"lone-read", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: buf, Stages: vk.StageCopy, Access: vk.AccessTransferRead}, colour(out)}
		}, "buf", vk.StageClear},
		{"lone-write", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: img, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}, colour(out)}
		}, "img", vk.StageClear},
		{"colour-read-only", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: img, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead, Layout: vk.LayoutColorAttachmentOptimal}, colour(out)}
		}, "img", 0}, // no stage control: layer 1.3.239 checks no dynamic-rendering attachment access against barriers (measured: a colour write after a barrier to COMPUTE_SHADER raises none either)
		{"big-uniform", func(g *p.Graph, buf, img, out p.ResourceID) []p.Access {
			return []p.Access{{Resource: buf, Stages: vk.StageFragmentShader, Access: vk.AccessUniformRead}, colour(out)}
		}, "buf", vk.StageVertexShader},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := sharedDevice(t)
			g := coverGraph(c.uses)
			r, plan := prepare(t, d, g)
			_, msgs, err := r.RunPlan(plan, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
				t.Fatalf("the intact plan has messages: %v", rest)
			}
			if c.wrong == 0 {
				return
			}
			use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
			res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == c.res }))
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == use && b.Resource == res && b.Kind == p.Hazard })
			if k < 0 {
				t.Fatalf("no hazard barrier on %s before use: %+v", c.res, plan.Barriers)
			}
			broken := *plan
			broken.Barriers = slices.Clone(plan.Barriers)
			broken.Barriers[k].DstStages = c.wrong
			_, msgs, err = r.RunPlan(&broken, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			rest, _ := SplitQuirks(msgs)
			hazards := 0
			for _, m := range rest {
				if strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
					hazards++
				}
			}
			t.Logf("%s: destination stage %s instead of %s: %d hazards", c.name, c.wrong, plan.Barriers[k].DstStages, hazards)
			if hazards == 0 {
				t.Errorf("a barrier to the wrong stage (%s) raised no hazard: the work is not in %s", c.wrong, plan.Barriers[k].DstStages)
			}
		})
	}
}

// TestBigUniformRanges: a 200 KiB uniform buffer is read as four 64 KiB
// ranges, every row of each.
func TestBigUniformRanges(t *testing.T) {
	g := &p.Graph{}
	ub := g.AddBuffer("ub", p.BufferDesc{Size: 3*65536 + 4096, Usage: vk.BufferUsageUniformBuffer})
	g.AddCommand("read", p.Access{Resource: ub, Stages: vk.StageComputeShader, Access: vk.AccessUniformRead})
	w, err := analyzeCommand(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rows uint64
	for i, s := range w.parts[stCompute].slots {
		if s.cat != catUB || s.boff != uint64(i)*65536 {
			t.Errorf("slot %d: %+v", i, s)
		}
		rows += uint64(s.w)
	}
	if n := len(w.parts[stCompute].slots); n != 4 || rows != (3*65536+4096)/16 {
		t.Errorf("%d slots, %d rows", n, rows)
	}
}

// TestUnbuiltStagesNamed: a use in a stage the replay has no work for is
// refused naming the extension the stage needs, queried on the device:
// lacking (a device limit) or present (not built). FRAGMENT_SHADING_RATE_ATTACHMENT
// has work now (fsr.go, TestFSRRefusal); FRAGMENT_DENSITY_PROCESS_EXT stands
// for the stages without. RAY_TRACING_SHADER has
// work now (raygen.go); on the shared device, opened without it, its
// refusal names the extension the same way (lacking, or present but not
// enabled).
func TestUnbuiltStagesNamed(t *testing.T) {
	d := sharedDevice(t)
	have := deviceExtensionSet(d)
	for _, c := range []struct {
		stage vk.Stage
		ext   string
	}{{vk.StageFragmentDensityProcessEXT, "VK_EXT_fragment_density_map"}, {vk.StageRayTracingShader, "VK_KHR_ray_tracing_pipeline"}} {
		g := &p.Graph{}
		b := g.AddBuffer("b", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
		g.AddCommand("w", p.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand("x", p.Access{Resource: b, Stages: c.stage, Access: vk.AccessShaderStorageRead})
		_, err := New(d, g)
		var ue *UnsupportedError
		want := "lacks " + c.ext + " (queried)"
		if have[c.ext] {
			want = "has " + c.ext + ", but"
		}
		if !errors.As(err, &ue) || ue.Command != "x" || !strings.Contains(ue.Reason, want) {
			t.Errorf("%s: got %v, want a refusal saying %q", c.stage, err, want)
		}
		t.Logf("%s on %s: %v", c.stage, d.Info().Name, err)
	}
}
