package replay

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// fmtlessFormats: storage formats with no format-qualified array
// (2D, 3D), float, unorm, snorm and unsigned. Not signed: the replay's
// storage writes (which the frame's reads need before them) have float
// and unsigned arrays only (VUID-vkCmdDispatch-format-07753 on an SINT
// view, measured on lavapipe 25), though the format-less reads have
// signed arrays.
var fmtlessFormats = []struct {
	f    vk.Format
	is3D bool
}{
	{vk.FormatR8G8B8A8Snorm, false}, {vk.FormatR16G16Unorm, false}, {vk.FormatR32G32Uint, false}, {vk.FormatR8Uint, false},
	{vk.FormatR16G16B16A16Snorm, false}, {vk.FormatR16Unorm, false},
	{vk.FormatR16Sfloat, true}, {vk.FormatR8Unorm, true}, {vk.FormatB10G11R11UfloatPack32, true}, {vk.FormatR32G32Uint, true},
}

func storageSupported(d *vulkan.Device, f vk.Format) bool {
	var fp vkg.FormatProperties
	vkg.GetPhysicalDeviceFormatProperties(d.Physical(), vkg.Format(f), &fp)
	fp.Deref()
	return fp.OptimalTilingFeatures&vkg.FormatFeatureFlags(vkg.FormatFeatureStorageImageBit) != 0
}

// fmtlessGraph: "write" writes one storage image per format (and 2D ones
// with two layers), "read" reads them all in the compute stage (stage
// st) and "after" samples nothing: the reads feed read's digest.
func fmtlessGraph(d *vulkan.Device, st vk.Stage) (*p.Graph, []string) {
	return fmtlessGraphCapped(d, st, false)
}

// fmtlessGraphCapped is fmtlessGraph, with capped only as many images
// of each format-less array as it has slots (a task or mesh part cannot
// split into more draws: gfxsplit.go).
func fmtlessGraphCapped(d *vulkan.Device, st vk.Stage, capped bool) (*p.Graph, []string) {
	g := &p.Graph{}
	var w, r []p.Access
	var names []string
	used := map[category]int{}
	for i, c := range fmtlessFormats {
		if !storageSupported(d, c.f) {
			continue
		}
		if cat, _ := fmtlessCategory(c.f, c.is3D, false, stCompute); capped {
			if used[cat] >= cats[cat].graphic {
				continue
			}
			used[cat]++
		}
		desc := p.ImageDesc{Format: c.f, Width: 8, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage}
		if c.is3D {
			desc.Depth, desc.ArrayLayers = 3, 1
		}
		name := fmt.Sprintf("img%d_%s", i, c.f)
		img := g.AddImage(name, desc)
		names = append(names, name)
		w = append(w, p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		r = append(r, p.Access{Resource: img, Stages: st, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	}
	if st != vk.StageComputeShader && st != vk.StageRayTracingShader {
		out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment})
		r = append(r, p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	}
	g.AddCommand("write", w...)
	g.AddCommand("read", r...)
	return g, names
}

// TestFormatlessCategories: reads of formats without a format-qualified
// array go to the format-less arrays in compute, vertex, fragment,
// tessellation, geometry, task and mesh (float, uint, sint; 2D, 3D,
// multisampled) and ray generation, and have none in the ray-query and
// generated-dispatch parts (no slot arrays there).
func TestFormatlessCategories(t *testing.T) {
	for _, c := range []struct {
		f      vk.Format
		is3D   bool
		ms     bool
		st     stage
		want   category
		wantOK bool
	}{
		{vk.FormatR8G8B8A8Snorm, false, false, stCompute, catNF2, true},
		{vk.FormatR32G32Uint, false, false, stCompute, catNF2U, true},
		{vk.FormatR32Sint, false, false, stCompute, catNF2I, true},
		{vk.FormatR16Sfloat, true, false, stCompute, catNF3, true},
		{vk.FormatR8Uint, true, false, stCompute, catNF3U, true},
		{vk.FormatR16G16Unorm, false, true, stCompute, catNFMS, true},
		{vk.FormatR16Uint, false, true, stCompute, catNFMSU, true},
		{vk.FormatR8Sint, false, true, stCompute, catNFMSI, true},
		{vk.FormatR8G8B8A8Snorm, false, false, stFragment, catNF2, true},
		{vk.FormatR32Sint, true, false, stVertex, catNF3I, true},
		{vk.FormatR16Uint, false, true, stFragment, catNFMSU, true},
		{vk.FormatR8G8B8A8Snorm, false, false, stGeometry, catNF2, true},
		{vk.FormatR32G32Uint, true, false, stTessControl, catNF3U, true},
		{vk.FormatR8Sint, false, true, stTessEval, catNFMSI, true},
		{vk.FormatR8G8B8A8Snorm, false, false, stMesh, catNF2, true},
		{vk.FormatR16Unorm, false, false, stTask, catNF2, true},
		{vk.FormatR8G8B8A8Snorm, false, false, stRayGen, catNF2, true},
		{vk.FormatR8G8B8A8Snorm, false, false, stRQVertex, 0, false},
		{vk.FormatR8G8B8A8Snorm, false, false, stDGC, 0, false},
		{vk.FormatD32Sfloat, false, false, stCompute, 0, false},
	} {
		got, ok := fmtlessCategory(c.f, c.is3D, c.ms, c.st)
		if ok != c.wantOK || ok && got != c.want {
			t.Errorf("%s 3D %v ms %v %s: got %v %v, want %v %v", c.f, c.is3D, c.ms, stageNames[c.st], got, ok, c.want, c.wantOK)
		}
	}
	for c := catNF2; c <= catNFMSI; c++ {
		if cats[c].offset+cats[c].compute > numSlots || cats[c].graphic != cats[c].compute || c.size(stGeometry) != cats[c].graphic || c.size(stMesh) != cats[c].graphic || c.size(stRQMesh) != 0 {
			t.Errorf("%s: offset %d size %d graphic %d geometry %d mesh %d (numSlots %d)", cats[c].name, cats[c].offset, cats[c].compute, cats[c].graphic, c.size(stGeometry), c.size(stMesh), numSlots)
		}
	}
}

// fmtlessRequired: ALIASPLAN_REQUIRE_FMTLESS=1 (scripts/h200-cover.sh:
// the H200 has the feature) fails where the device lacks it.
func fmtlessRequired(t *testing.T, d *vulkan.Device) {
	t.Helper()
	if os.Getenv("ALIASPLAN_REQUIRE_FMTLESS") == "1" && !readWithoutFormat(d) {
		t.Fatalf("ALIASPLAN_REQUIRE_FMTLESS=1 and %s lacks shaderStorageImageReadWithoutFormat", d.Info().Name)
	}
}

// TestFormatlessReads: compute-, vertex- and fragment-stage storage
// reads of formats without a format-qualified array replay with equal
// digests and no message where the device has
// shaderStorageImageReadWithoutFormat (lavapipe 25, the H200: comp_nf,
// vert_nf, frag_f8_u0_nf), and a barrier before the reads with a wrong
// destination stage raises a hazard on each image (the reads happen in
// their stage); a device without the feature (lavapipe 22.3) refuses the
// frame naming it.
func TestFormatlessReads(t *testing.T) {
	d := sharedDevice(t)
	fmtlessRequired(t, d)
	for _, st := range []vk.Stage{vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader} {
		t.Run(st.String(), func(t *testing.T) {
			g, names := fmtlessGraph(d, st)
			if len(names) < 4 {
				t.Fatalf("%s: only %d of the formats have STORAGE_IMAGE support: %v", d.Info().Name, len(names), names)
			}
			t.Logf("%s: images %v", d.Info().Name, names)
			if !readWithoutFormat(d) {
				_, err := New(d, g)
				var ue *UnsupportedError
				if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "lacks shaderStorageImageReadWithoutFormat (queried)") {
					t.Fatalf("got %v, want a refusal naming shaderStorageImageReadWithoutFormat", err)
				}
				t.Logf("refused on %s: %v", d.Info().Name, err)
				return
			}
			rep := extCompare(t, d, g, 2) // lavapipe 25's driver warning on the EXTRA texel buffers is logged
			t.Logf("%s: %d commands, digests equal %v, %d validation messages (driver warnings included)", d.Info().Name, rep.Commands, rep.DigestsEqual, rep.ValidationMessages)
			wrong := vk.StageFragmentShader
			if st != vk.StageComputeShader {
				wrong = vk.StageComputeShader
			}
			fmtlessStageControls(t, d, g, names, wrong)
		})
	}
}

// TestFormatlessMSReads: compute-stage reads of multisampled storage
// images of formats without a format-qualified array (comp_ms_nf.spv).
// lavapipe refuses multisampled images in compute (msaacompute.go) or,
// on 22.3, the format-less read (the feature, as queried); a device with
// the feature, shaderStorageImageMultisample and 4x storage samples (the
// H200) replays them with equal digests, no message and a hazard per
// image under a wrong-stage barrier.
func TestFormatlessMSReads(t *testing.T) {
	d := sharedDevice(t)
	fmtlessRequired(t, d)
	g := &p.Graph{}
	var w, r []p.Access
	var names []string
	for _, f := range []vk.Format{vk.FormatR16G16Unorm, vk.FormatR32G32Uint, vk.FormatR8G8B8A8Snorm} {
		if !storageSupported(d, f) {
			continue
		}
		name := "ms_" + f.String()
		img := g.AddImage(name, p.ImageDesc{Format: f, Width: 8, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 4, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage})
		names = append(names, name)
		w = append(w, p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		r = append(r, p.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	}
	if len(names) == 0 {
		t.Fatalf("%s: none of the formats has STORAGE_IMAGE support", d.Info().Name)
	}
	g.AddCommand("write", w...)
	g.AddCommand("read", r...)
	rr, err := New(d, g)
	if err != nil {
		var ue *UnsupportedError
		ok := errors.As(err, &ue)
		switch {
		case ok && !readWithoutFormat(d) && strings.Contains(ue.Reason, "lacks shaderStorageImageReadWithoutFormat (queried)"):
		case ok && strings.Contains(ue.Reason, "crashes creating compute pipelines whose shader declares multisampled images"):
		case ok && strings.Contains(ue.Reason, "shaderStorageImageMultisample") || ok && strings.Contains(ue.Reason, "storageImageSampleCounts"):
			if os.Getenv("ALIASPLAN_REQUIRE_FMTLESS") == "1" {
				t.Fatalf("ALIASPLAN_REQUIRE_FMTLESS=1 and %v", err)
			}
		default:
			t.Fatalf("New: %v", err)
		}
		if os.Getenv("ALIASPLAN_REQUIRE_FMTLESS") == "1" && !strings.Contains(strings.ToLower(d.Info().Name), "llvmpipe") {
			t.Fatalf("ALIASPLAN_REQUIRE_FMTLESS=1 and %v", err)
		}
		t.Logf("refused on %s: %v", d.Info().Name, err)
		return
	}
	rr.Close()
	rep := extCompare(t, d, g, 2)
	t.Logf("%s: %d commands, digests equal %v, %d validation messages", d.Info().Name, rep.Commands, rep.DigestsEqual, rep.ValidationMessages)
	fmtlessStageControls(t, d, g, names, vk.StageFragmentShader)
}

// fmtlessStageControls: for each named image, the barrier before "read"
// recorded with destination stage wrong must raise a hazard.
func fmtlessStageControls(t *testing.T, d *vulkan.Device, g *p.Graph, names []string, wrong vk.Stage) {
	t.Helper()
	r, plan := prepare(t, d, g)
	read := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "read" }))
	for _, name := range names {
		res := p.ResourceID(slices.IndexFunc(g.Resources, func(r p.Resource) bool { return r.Name == name }))
		k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == read && b.Resource == res && b.Kind == p.Hazard })
		if k < 0 {
			t.Fatalf("no hazard barrier on %s before read: %+v", name, plan.Barriers)
		}
		hazards := wrongStage(t, r, plan, k, wrong, nil)
		t.Logf("%s: wrong-stage barrier: %d hazards", name, hazards)
		if hazards == 0 {
			t.Errorf("%s: a barrier to %s before the read raised no hazard on it: the format-less read did not happen in its stage", name, wrong)
		}
	}
}

// refusedWithoutFormat: on a device without
// shaderStorageImageReadWithoutFormat, g (a generated frame of kinds with
// format-less reads) must be refused naming the feature; it says whether
// it was (the caller then skips the replay). On a device with it, false.
func refusedWithoutFormat(t *testing.T, d *vulkan.Device, g *p.Graph, kinds []string) bool {
	t.Helper()
	if readWithoutFormat(d) {
		return false
	}
	_, err := New(d, g)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "lacks shaderStorageImageReadWithoutFormat (queried)") {
		t.Fatalf("kinds %v: got %v, want a refusal naming shaderStorageImageReadWithoutFormat", kinds, err)
	}
	t.Logf("kinds %v: refused (a device limit): %v", kinds, err)
	return true
}
