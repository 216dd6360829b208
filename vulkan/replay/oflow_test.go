package replay

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// oflowGraph is a frame with one optical-flow command, "flow": compute
// writes the input and reference frames a and b, flow reads them
// (OPTICAL_FLOW_READ_NV) and writes out (OPTICAL_FLOW_WRITE_NV), and a
// compute pass reads out.
func oflowGraph(in, out vk.Format, w, h uint32) *p.Graph {
	g := &p.Graph{}
	img := func(name string, f vk.Format, w, h uint32) p.ResourceID {
		return g.AddImage(name, p.ImageDesc{Format: f, Width: w, Height: h, Usage: vk.ImageUsageStorage})
	}
	a, b := img("a", in, w, h), img("b", in, w, h)
	o := img("out", out, max(w/4, 1), max(h/4, 1))
	st := func(r p.ResourceID, acc vk.AccessFlags) p.Access {
		return p.Access{Resource: r, Stages: vk.StageComputeShader, Access: acc, Layout: vk.LayoutGeneral}
	}
	of := func(r p.ResourceID, acc vk.AccessFlags) p.Access {
		return p.Access{Resource: r, Stages: vk.StageOpticalFlowNV, Access: acc, Layout: vk.LayoutGeneral}
	}
	g.AddCommand("frames", st(a, vk.AccessShaderStorageWrite), st(b, vk.AccessShaderStorageWrite))
	g.AddCommand("flow", of(a, vk.AccessOpticalFlowReadNV), of(b, vk.AccessOpticalFlowReadNV), of(o, vk.AccessOpticalFlowWriteNV))
	g.AddCommand("use", st(o, vk.AccessShaderStorageRead))
	return g
}

// nvLike is what the specification lists as initially supported, on a
// device whose optical-flow family is its own (families 0: graphics,
// compute, transfer, sparse; 1: transfer and optical flow).
func nvLike() oflowFacts {
	return oflowFacts{name: "dev", OpticalFlowFacts: vulkan.OpticalFlowFacts{
		Extension: true, Families: []uint32{0xf, 0x4 | vkext.QueueOpticalFlow}, GraphicsFamily: 0,
		Support: vkext.OpticalFlowSupport{Feature: true, MinWidth: 32, MinHeight: 32, MaxWidth: 4096, MaxHeight: 4096,
			OutputGridSizes: 0x5, Cost: true, Formats: map[uint32][]int32{
				vkext.OpticalFlowUsageInput:  {int32(vk.FormatB8G8R8A8Unorm), int32(vk.FormatR8Unorm)},
				vkext.OpticalFlowUsageOutput: {oflowFormatS10_5},
				vkext.OpticalFlowUsageHint:   {oflowFormatS10_5},
				vkext.OpticalFlowUsageCost:   {int32(vk.FormatR8Uint), int32(vk.FormatR32Uint)},
			}}}}
}

// TestOpticalFlowReason checks each refusal opticalFlowReason can give,
// from device facts written out here (no device needed): the first thing
// missing is named, and what the command's resources would lack besides.
func TestOpticalFlowReason(t *testing.T) {
	good := oflowGraph(vk.FormatR8Unorm, vk.FormatR8Uint, 64, 64)
	cases := []struct {
		name    string
		facts   func(*oflowFacts)
		g       *p.Graph
		want    []string
		notWant []string
	}{
		{"no extension", func(f *oflowFacts) { f.Extension = false }, good,
			[]string{"dev lacks VK_NV_optical_flow (queried): the device cannot run optical flow"}, []string{"besides"}},
		{"no feature", func(f *oflowFacts) { f.Support.Feature = false }, good,
			[]string{"dev has VK_NV_optical_flow but not its opticalFlow feature (queried)"}, []string{"besides"}},
		{"no family", func(f *oflowFacts) { f.Families = []uint32{0x7, 0x4} }, good,
			[]string{"no queue family with VK_QUEUE_OPTICAL_FLOW_BIT_NV (queried; families: 0: GRAPHICS|COMPUTE|TRANSFER, 1: TRANSFER)"}, []string{"besides"}},
		{"own family", func(*oflowFacts) {}, good,
			[]string{"dev runs optical flow only on queue family 1 (TRANSFER|OPTICAL_FLOW), not on the graphics queue's family 0 (GRAPHICS|COMPUTE|TRANSFER|SPARSE_BINDING) (queried)",
				"optical-flow queue in the model", "not built"}, []string{"besides"}},
		{"graphics family has it", func(f *oflowFacts) { f.Families = []uint32{0x7 | vkext.QueueOpticalFlow} }, good,
			[]string{"dev has VK_NV_optical_flow on the graphics queue's family 0, but the replay has no optical flow work (not built"}, []string{"besides"}},
		{"input format", func(f *oflowFacts) {
			f.Support.Formats[vkext.OpticalFlowUsageInput] = []int32{int32(vk.FormatB8G8R8A8Unorm)}
		}, good, []string{`besides, "a" (R8_UNORM) is read in a format the device reports for neither optical-flow input (B8G8R8A8_UNORM) nor hints (R16G16_S10_5_NV, which the graph model's formats cannot name) (queried)`,
			`"b" (R8_UNORM) is read`}, []string{`"out"`}},
		{"output format", func(*oflowFacts) {}, oflowGraph(vk.FormatR8Unorm, vk.FormatR16G16Sint, 64, 64),
			[]string{`besides, "out" (R16G16_SINT) is written in a format the device reports for neither optical-flow output (R16G16_S10_5_NV, which the graph model's formats cannot name) nor cost (R8_UINT, R32_UINT) (queried)`},
			[]string{`"a"`}},
		{"extent", func(*oflowFacts) {}, oflowGraph(vk.FormatR8Unorm, vk.FormatR8Uint, 16, 64),
			[]string{`besides, "a" is 16x64, outside the session extents 32x32 to 4096x4096 (queried)`}, nil},
		{"no formats", func(f *oflowFacts) { f.Support.Formats = map[uint32][]int32{} }, good,
			[]string{"neither optical-flow input (none reported) nor hints (none reported)"}, nil},
	}
	buf := oflowGraph(vk.FormatR8Unorm, vk.FormatR8Uint, 64, 64)
	bb := buf.AddBuffer("buf", p.BufferDesc{Size: 256})
	buf.Commands[1].Accesses = append(buf.Commands[1].Accesses, p.Access{Resource: bb, Stages: vk.StageOpticalFlowNV, Access: vk.AccessOpticalFlowReadNV})
	cases = append(cases, struct {
		name    string
		facts   func(*oflowFacts)
		g       *p.Graph
		want    []string
		notWant []string
	}{"buffer", func(*oflowFacts) {}, buf, []string{`besides, "buf" is a buffer, and an optical flow session binds image views only (vkBindOpticalFlowSessionImageNV; Vulkan)`}, nil})
	for _, c := range cases {
		f := nvLike()
		c.facts(&f)
		got := opticalFlowReason(f, c.g, 1)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: reason %q\nlacks %q", c.name, got, w)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(got, w) {
				t.Errorf("%s: reason %q\nhas %q", c.name, got, w)
			}
		}
	}
}

// TestOpticalFlowRefused replays a frame with an optical-flow command on
// the test device: New refuses the command, naming what the device lacks
// as it reports it (checked here from the facts, not from the reason
// function), and the test logs everything the device reports of
// VK_NV_optical_flow (queue families, feature, properties, formats per
// usage) so that one run on a device with the extension says what a
// build would have to work with. ALIASPLAN_REQUIRE_EXT=1 (the H200
// scripts) fails it where the extension is missing.
func TestOpticalFlowRefused(t *testing.T) {
	d := sharedDevice(t)
	f := queryOpticalFlow(d)
	t.Logf("%s: VK_NV_optical_flow listed: %v; graphics queue family %d; families: %s", f.name, f.Extension, f.GraphicsFamily, familyList(f.Families))
	if f.Extension {
		s := f.Support
		t.Logf("opticalFlow feature %v; output grid sizes %#x, hint grid sizes %#x (1x1=1, 2x2=2, 4x4=4, 8x8=8); hint %v, cost %v, bidirectional %v, global flow %v; extents %dx%d to %dx%d; regions of interest %d",
			s.Feature, s.OutputGridSizes, s.HintGridSizes, s.Hint, s.Cost, s.Bidirectional, s.Global, s.MinWidth, s.MinHeight, s.MaxWidth, s.MaxHeight, s.MaxRegionsOfInterest)
		for _, u := range []struct {
			bit  uint32
			name string
		}{{vkext.OpticalFlowUsageInput, "input"}, {vkext.OpticalFlowUsageOutput, "output"}, {vkext.OpticalFlowUsageHint, "hint"}, {vkext.OpticalFlowUsageCost, "cost"}} {
			raw := fmt.Sprint(s.Formats[u.bit])
			t.Logf("formats for %s: %s %s (query result %d)", u.name, formatList(s.Formats[u.bit]), raw, s.FormatErrors[u.bit])
		}
	}
	g := oflowGraph(vk.FormatR8Unorm, vk.FormatR8Uint, 64, 64)
	_, err := New(d, g)
	t.Logf("refusal: %v", err)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "flow" || !slices.Contains([]string{"a", "b", "out"}, ue.Resource) {
		t.Fatalf("New: %v, want an UnsupportedError of command \"flow\"", err)
	}
	var of []int
	for i, fl := range f.Families {
		if fl&vkext.QueueOpticalFlow != 0 {
			of = append(of, i)
		}
	}
	var want string
	switch {
	case !f.Extension:
		want = "lacks VK_NV_optical_flow (queried)"
	case !f.Support.Feature:
		want = "not its opticalFlow feature (queried)"
	case len(of) == 0:
		want = "no queue family with VK_QUEUE_OPTICAL_FLOW_BIT_NV (queried"
	case !slices.Contains(of, int(f.GraphicsFamily)):
		want = fmt.Sprintf("runs optical flow only on queue family %d (", of[0])
	default:
		want = "on the graphics queue's family"
	}
	if !strings.Contains(ue.Reason, want) {
		t.Errorf("reason %q lacks %q", ue.Reason, want)
	}
	if !f.Extension && os.Getenv("ALIASPLAN_REQUIRE_EXT") == "1" {
		// The refusal is right, but the device was expected to have the
		// extension (the H200 scripts).
		t.Fatalf("ALIASPLAN_REQUIRE_EXT=1 and %s lacks VK_NV_optical_flow (queried)", f.name)
	}
}
