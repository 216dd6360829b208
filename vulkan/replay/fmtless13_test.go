package replay

import (
	"errors"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// fmtlessMoreStages are the stages that got format-less reads in session
// 13 (issue 21): tessellation, geometry, task, mesh and ray generation.
var fmtlessMoreStages = []struct {
	name string
	st   vk.Stage
	ext  vk.Stage // opened with these stages too (extDevice)
}{
	{"tess-control", vk.StageTessellationControlShader, 0},
	{"tess-eval", vk.StageTessellationEvaluationShader, 0},
	{"geometry", vk.StageGeometryShader, 0},
	{"task", vk.StageTaskShaderEXT, vk.StageTaskShaderEXT | vk.StageMeshShaderEXT},
	{"mesh", vk.StageMeshShaderEXT, vk.StageTaskShaderEXT | vk.StageMeshShaderEXT},
	{"ray-generation", vk.StageRayTracingShader, vk.StageAccelerationStructureBuild | vk.StageRayTracingShader},
}

// fmtlessRefusal checks that New refuses g naming a missing device
// feature as queried (never "not built") and reports whether it did;
// a device that can run g (want) must not refuse it.
func fmtlessRefusal(t *testing.T, d *vulkan.Device, g *p.Graph, can bool) bool {
	t.Helper()
	if can {
		return false
	}
	_, err := New(d, g)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "(queried)") || strings.Contains(ue.Reason, "not built") {
		t.Fatalf("got %v, want a refusal naming the missing feature as queried", err)
	}
	t.Logf("refused on %s (a device limit): %v", d.Info().Name, err)
	return true
}

// fmtlessCan says whether d can run format-less reads in stage st: the
// feature, the stage (tessellation, geometry, mesh shaders enabled) and
// the arrays within its limits.
func fmtlessCan(d *vulkan.Device, st vk.Stage) bool {
	if !readWithoutFormat(d) {
		return false
	}
	hooks, _ := d.Replay()
	task, mesh := hooks.MeshShaders()
	_, _, rtp := hooks.RayQueries()
	switch st {
	case vk.StageRayTracingShader:
		return rtp
	case vk.StageTaskShaderEXT:
		return task && mesh
	case vk.StageMeshShaderEXT:
		return mesh
	}
	return true
}

// fmtlessClobberGraph: x and y (one format without a format-qualified
// array) written in compute, x read in stage st by "use" (with a colour
// attachment for a draw), y read after: y placed over x clobbers what
// use reads.
func fmtlessClobberGraph(st vk.Stage, f vk.Format) *p.Graph {
	g := &p.Graph{}
	desc := p.ImageDesc{Format: f, Width: 8, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage}
	x, y := g.AddImage("x", desc), g.AddImage("y", desc)
	w := func(r p.ResourceID) p.Access {
		return p.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	g.AddCommand("x.write", w(x))
	g.AddCommand("y.write", w(y))
	use := []p.Access{{Resource: x, Stages: st, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}}
	if st != vk.StageComputeShader && st != vk.StageRayTracingShader {
		out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment})
		use = append(use, meshColour(out))
	}
	g.AddCommand("use", use...)
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	return g
}

// fmtlessClobber is the digest control of a format-less read in stage
// st: with y placed over x, use's digest must differ from the intact
// plan's (which has equal digests and no message). It fails when the
// stage does not read x, or the read does not reach the digest.
func fmtlessClobber(t *testing.T, d *vulkan.Device, st vk.Stage, f vk.Format) {
	t.Helper()
	g := fmtlessClobberGraph(st, f)
	extCompare(t, d, g, 1)
	r, plan := prepare(t, d, g)
	diff := clobberDiff(t, r, g, plan)
	t.Logf("%s read in %s, y over x: %d differences: %v", f, st, len(diff), diff)
	if !diffHas(diff, "use") {
		t.Errorf("the %s-stage format-less read of x did not change with y over it: %v", st, diff)
	}
}

// TestFormatlessMoreStages: storage reads of formats without a
// format-qualified array in the tessellation control and evaluation,
// geometry, task, mesh and ray generation stages (tesc_nf, tese_nf,
// geom_nf, task_nf, mesh_nf, mesh_t_nf, rgen_slots_nf) replay with equal
// digests and no message where the device has
// shaderStorageImageReadWithoutFormat and the stage (lavapipe 25); y
// placed over x changes the reading command's digest (fmtlessClobber),
// and for the tessellation and geometry stages a barrier before the
// reads with a compute destination stage raises a hazard on each image
// (layer 1.3.239 checks no mesh draw: the digest control is theirs, and
// the ray generation stage's). A device without the feature or stage
// (lavapipe 22.3: no feature, no mesh shaders, no ray tracing) refuses
// naming what it lacks.
func TestFormatlessMoreStages(t *testing.T) {
	fmtlessRequired(t, sharedDevice(t))
	devs := map[vk.Stage]*vulkan.Device{}
	for _, c := range fmtlessMoreStages {
		if c.ext != 0 && devs[c.ext] == nil {
			devs[c.ext] = extDevice(t, c.ext)
		}
	}
	for _, c := range fmtlessMoreStages {
		t.Run(c.name, func(t *testing.T) {
			d := sharedDevice(t)
			if c.ext != 0 {
				d = devs[c.ext]
			}
			// Task, mesh and ray generation parts do not split into
			// more draws or traces (gfxsplit.go, raygen.go): two images
			// a format-less array.
			g, names := fmtlessGraphCapped(d, c.st, c.ext != 0)
			if len(names) < 4 {
				t.Fatalf("%s: only %d of the formats have STORAGE_IMAGE support: %v", d.Info().Name, len(names), names)
			}
			if fmtlessRefusal(t, d, g, fmtlessCan(d, c.st)) {
				return
			}
			rep := extCompare(t, d, g, 2)
			t.Logf("%s: images %v: %d commands, digests equal %v, %d messages", d.Info().Name, names, rep.Commands, rep.DigestsEqual, rep.ValidationMessages)
			if c.ext == 0 {
				fmtlessStageControls(t, d, g, names, vk.StageComputeShader)
			}
			fmtlessClobber(t, d, c.st, vk.FormatR16G16Unorm)
		})
	}
}

// TestFormatlessUintColour: a fragment-stage format-less read in a draw
// with unsigned and float colour attachments (frag_f1_u1_nf.spv, and
// two unsigned ones: frag_f0_u2_nf.spv) replays with equal digests and
// no message, a wrong-stage barrier raises a hazard on each image, and y
// over x changes the draw's digest; refused before session 13 as not
// built. A device without the feature refuses naming it.
func TestFormatlessUintColour(t *testing.T) {
	d := sharedDevice(t)
	fmtlessRequired(t, d)
	for _, c := range []struct {
		name    string
		formats []vk.Format
	}{
		{"float-uint", []vk.Format{vk.FormatR8G8B8A8Unorm, vk.FormatR32Uint}},
		{"uint-uint", []vk.Format{vk.FormatR32Uint, vk.FormatR8G8B8A8Uint}},
	} {
		t.Run(c.name, func(t *testing.T) {
			withColours := func(g *p.Graph, cmd string) {
				i := len(g.Commands) - 1
				for i >= 0 && g.Commands[i].Name != cmd {
					i--
				}
				acc := g.Commands[i].Accesses
				if acc[len(acc)-1].Stages == vk.StageColorAttachmentOutput {
					acc = acc[:len(acc)-1] // the float "out" of the helper graphs
				}
				for j, f := range c.formats {
					col := g.AddImage("colour"+string(rune('0'+j)), p.ImageDesc{Format: f, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
						Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
					acc = append(acc, meshColour(col))
				}
				g.Commands[i].Accesses = acc
			}
			g, names := fmtlessGraph(d, vk.StageFragmentShader)
			withColours(g, "read")
			if fmtlessRefusal(t, d, g, readWithoutFormat(d)) {
				return
			}
			rep := extCompare(t, d, g, 2)
			t.Logf("%s: colours %v: %d commands, digests equal %v, %d messages", d.Info().Name, c.formats, rep.Commands, rep.DigestsEqual, rep.ValidationMessages)
			fmtlessStageControls(t, d, g, names, vk.StageComputeShader)
			cg := fmtlessClobberGraph(vk.StageFragmentShader, vk.FormatR16G16Unorm)
			withColours(cg, "use")
			extCompare(t, d, cg, 1)
			r, plan := prepare(t, d, cg)
			diff := clobberDiff(t, r, cg, plan)
			if !diffHas(diff, "use") {
				t.Errorf("the fragment-stage format-less read of x did not change with y over it: %v", diff)
			}
		})
	}
}

// TestRayGenChainQuirk is rtChainQuirk's measurement: a compute-written
// RGBA8 storage image "a" read in stage st, then "b" aliased over it
// (its alias barrier's source stage st) and written in compute. With st
// RAY_TRACING_SHADER the layer reports write-after-write at b's
// transition, and every such report is rtChainQuirk's; with st vertex,
// fragment or compute the same frame draws no message. The test fails
// if the classifier takes any other message, or the layer stops
// reporting (then the quirk is gone and should go too).
func TestRayGenChainQuirk(t *testing.T) {
	d := rayGenDevice8(t)
	for _, st := range []vk.Stage{vk.StageRayTracingShader, vk.StageVertexShader, vk.StageFragmentShader, vk.StageComputeShader} {
		t.Run(st.String(), func(t *testing.T) {
			g := &p.Graph{}
			desc := p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled}
			a, b := g.AddImage("a", desc), g.AddImage("b", desc)
			out := g.AddBuffer("out", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
			cs := vk.StageComputeShader
			g.AddCommand("a.write", p.Access{Resource: a, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
			g.AddCommand("a.read", p.Access{Resource: a, Stages: st, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}, p.Access{Resource: out, Stages: st, Access: vk.AccessShaderStorageWrite})
			g.AddCommand("b.write", p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}, p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead})
			g.AddCommand("b.read", p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
			r, plan := prepare(t, d, g)
			k := slices.IndexFunc(plan.Barriers, func(x p.Barrier) bool { return x.Kind == p.Alias && x.Resource == b })
			if k < 0 || plan.Barriers[k].SrcStages != st {
				t.Fatalf("premise: b aliased over a, its alias barrier from %s: %+v", st, plan.Barriers)
			}
			_, msgs, err := r.RunPlan(plan, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			msgs = slices.DeleteFunc(msgs, func(m vulkan.Message) bool { return driverSPIRVWarning(m.Text) })
			rest, quirks := SplitQuirks(msgs)
			t.Logf("%s: %d messages, quirks %v", st, len(msgs), quirks)
			for _, m := range rest {
				t.Errorf("not a quirk: %s", m)
			}
			if n := quirks["ray-tracing-stage-chain"]; (n > 0) != (st == vk.StageRayTracingShader) || len(quirks) > 1 {
				t.Errorf("%s: quirks %v, want ray-tracing-stage-chain reports for RAY_TRACING_SHADER only", st, quirks)
			}
		})
	}
}

// TestFormatlessLimitRefusal: where the device has the feature but its
// limits would not hold every stage's format-less arrays (nofmtPre
// false; no device measured is so: the flag is cleared by hand on one
// that has it), a geometry-stage format-less read is refused naming the
// limits as queried, and a vertex-stage one is not; with nofmtGfx false
// too, the vertex one is refused naming them. Never "not built".
func TestFormatlessLimitRefusal(t *testing.T) {
	d := sharedDevice(t)
	if !readWithoutFormat(d) {
		t.Skipf("SKIP (device limit, not a pass): %s lacks shaderStorageImageReadWithoutFormat: TestFormatlessMoreStages checks that refusal", d.Info().Name)
	}
	check := func(st vk.Stage, pre, gfx, refused bool) {
		t.Helper()
		g, _ := fmtlessGraph(d, st)
		r, err := New(d, g)
		if err != nil {
			t.Fatalf("%s: New: %v", st, err)
		}
		defer r.Close()
		savedPre, savedGfx := r.k.nofmtPre, r.k.nofmtGfx
		defer func() { r.k.nofmtPre, r.k.nofmtGfx = savedPre, savedGfx }()
		r.k.nofmtPre, r.k.nofmtGfx = pre, gfx
		err = r.k.fmtlessDevice(g, r.works)
		var ue *UnsupportedError
		switch {
		case !refused && err != nil:
			t.Errorf("%s (pre %v, gfx %v): refused: %v", st, pre, gfx, err)
		case refused && (!errors.As(err, &ue) || !strings.Contains(ue.Reason, "maxPerStageDescriptorStorageImages") || !strings.Contains(ue.Reason, "queried)") || strings.Contains(ue.Reason, "not built")):
			t.Errorf("%s (pre %v, gfx %v): got %v, want a refusal naming the limits as queried", st, pre, gfx, err)
		default:
			t.Logf("%s (pre %v, gfx %v): %v", st, pre, gfx, err)
		}
	}
	check(vk.StageGeometryShader, false, true, true)
	check(vk.StageVertexShader, false, true, false)
	check(vk.StageVertexShader, false, false, true)
}
