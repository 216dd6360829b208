package replay

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

var fsrLogOnce sync.Once

// fsrDevice opens a device with the shading-rate stage asked for and
// logs (once per binary) what it offers of VK_KHR_fragment_shading_rate:
// features, texel sizes, rates, and the R8_UINT format features, so one
// run on a device says what it has. It skips (extSkip) where the path is
// not enabled.
func fsrDeviceOrSkip(t *testing.T) *vulkan.Device {
	t.Helper()
	d := extDevice(t, vk.StageFragmentShadingRateAttachment)
	hooks, _ := d.Replay()
	has, info := hooks.FSRSupport()
	fsrLogOnce.Do(func() {
		t.Logf("%s: VK_KHR_fragment_shading_rate listed %v, enabled %v", d.Info().Name, has, hooks.FragmentShadingRate())
		if has {
			t.Logf("features: pipeline %v primitive %v attachment %v", info.Pipeline, info.Primitive, info.Attachment)
			t.Logf("attachment texel size min %dx%d max %dx%d, max aspect %d, layered %v, non-trivial combiners %v",
				info.MinTexel.Width, info.MinTexel.Height, info.MaxTexel.Width, info.MaxTexel.Height, info.MaxTexelAspect, info.Layered, info.NonTrivialCombiners)
			t.Logf("max fragment size %dx%d (aspect %d), max coverage samples %d, max rasterization samples %#x",
				info.MaxFragmentSize.Width, info.MaxFragmentSize.Height, info.MaxFragmentSizeAspect, info.MaxCoverageSamples, info.MaxRasterizationSamples)
			rates, res := hooks.FSRRates()
			t.Logf("vkGetPhysicalDeviceFragmentShadingRatesKHR: VkResult %d, %d rates", res, len(rates))
			for _, r := range rates {
				t.Logf("  rate %dx%d samples %#x", r.Size.Width, r.Size.Height, r.SampleCounts)
			}
			for _, m := range d.TakeMessages() {
				t.Logf("message from the rate query (logged, not counted): %s", m)
			}
			if tw, th, ok := fsrTexel(info); ok {
				t.Logf("the shading-rate passes' texel size: %dx%d", tw, th)
			} else {
				t.Logf("no usable texel size")
			}
		}
		for _, f := range []vk.Format{vk.FormatR8Uint, vk.FormatR8G8Uint, vk.FormatR32Uint} {
			var fp vkg.FormatProperties
			vkg.GetPhysicalDeviceFormatProperties(d.Physical(), vkg.Format(f), &fp)
			fp.Deref()
			t.Logf("%s optimal-tiling features %#x: FRAGMENT_SHADING_RATE_ATTACHMENT %v, STORAGE_IMAGE %v", f, uint32(fp.OptimalTilingFeatures),
				fp.OptimalTilingFeatures&formatFeatureFSR != 0, fp.OptimalTilingFeatures&vkg.FormatFeatureFlags(vkg.FormatFeatureStorageImageBit) != 0)
		}
	})
	if !hooks.FragmentShadingRate() {
		_, err := New(d, fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal))
		extSkip(t, "%s: the shading-rate attachment path is not enabled (refused: %v)", d.Info().Name, err)
	}
	return d
}

// fsrGraph: x (the R8_UINT rate image, 64x64 texels: 4 KiB, a multiple
// of the H200's 1024-byte alignment and of larger ones, so the planner
// pools it; 4x4, 512 bytes, was made dedicated there) and y (its twin, so the two share memory
// requirements and a pool) are written by compute and live at once; "use" reads x as its shading-rate attachment in
// layout l and writes a colour attachment; y is read (sampled) after. A
// broken plan that puts y over x makes y's write clobber the rates use
// reads.
// fsrSide is the side of fsrGraph's rate images, in texels.
const fsrSide = 64

func fsrGraph(l vk.Layout) *p.Graph {
	g := &p.Graph{}
	rate := p.ImageDesc{Format: vk.FormatR8Uint, Width: fsrSide, Height: fsrSide, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled | vk.ImageUsageFragmentShadingRateAttachment}
	x := g.AddImage("x", rate)
	y := g.AddImage("y", rate)
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("x.write", p.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("y.write", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("use", p.Access{Resource: x, Stages: vk.StageFragmentShadingRateAttachment, Access: vk.AccessFragmentShadingRateAttachmentRead, Layout: l},
		meshColour(out))
	g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	return g
}

// TestFSRAnalyze: a shading-rate attachment read becomes one pass per
// subresource of its range, each with a part (lanes) of its own that the
// command's digest folds; what Vulkan forbids of the attachment is
// refused naming the rule. No device needed.
func TestFSRAnalyze(t *testing.T) {
	g := fsrGraph(vk.LayoutGeneral)
	x := p.ResourceID(0)
	g.Resources[x].Image.MipLevels, g.Resources[x].Image.ArrayLayers = 2, 3
	if err := p.Validate(g); err != nil {
		t.Fatal(err)
	}
	use := p.CommandID(2)
	w, err := analyzeCommand(g, use)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.fsr) != 1 || len(w.fsr[0].subs) != 6 || len(w.fsr[0].parts) != 6 {
		t.Fatalf("want one use of 2x3 subresources, got %+v", w.fsr)
	}
	n := 0
	for _, pt := range w.allParts() {
		if pt != nil && slices.Contains(w.fsr[0].parts, pt) {
			n++
		}
	}
	if n != 6 {
		t.Errorf("allParts holds %d of the 6 shading-rate parts", n)
	}
	for _, c := range []struct {
		name string
		edit func(g *p.Graph)
		want string
	}{
		{"layout", func(g *p.Graph) { g.Commands[use].Accesses[0].Layout = vk.LayoutShaderReadOnlyOptimal }, "not a shading-rate attachment layout"},
		{"3D", func(g *p.Graph) { g.Resources[x].Image.Depth = 2 }, "must be a 2D image"},
		{"samples", func(g *p.Graph) { g.Resources[x].Image.Samples = 4 }, "single-sampled"},
		{"linear", func(g *p.Graph) { g.Resources[x].Image.Tiling = vk.TilingLinear }, "optimal tiling"},
		{"self-write", func(g *p.Graph) {
			g.Resources[x].Image.Usage |= vk.ImageUsageTransferDst
			g.Commands[use].Accesses[0].Layout = vk.LayoutGeneral
			g.Commands[use].Accesses = append(g.Commands[use].Accesses, p.Access{Resource: x, Stages: vk.StageClear, Access: vk.AccessTransferWrite, Layout: vk.LayoutGeneral})
		}, "also writes the image"},
	} {
		g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
		c.edit(g)
		_, err := analyzeCommand(g, use)
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Resource != "x" || !strings.Contains(ue.Reason, c.want) {
			t.Errorf("%s: got %v, want a refusal saying %q", c.name, err, c.want)
		}
	}
}

// TestFSRRefusal: where the device lacks VK_KHR_fragment_shading_rate or
// its attachmentFragmentShadingRate feature (queried; lavapipe 22.3.6 and
// 25.0.7 list no such extension) the frame is refused naming what is
// missing, a device limit; where it has them, a device opened with the
// stage replays it (New succeeds) and one opened without it refuses
// saying so. Never "not built".
func TestFSRRefusal(t *testing.T) {
	d := extDevice(t, vk.StageFragmentShadingRateAttachment)
	hooks, _ := d.Replay()
	has, info := hooks.FSRSupport()
	g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
	r, err := New(d, g)
	name := d.Info().Name
	var ue *UnsupportedError
	switch {
	case !has:
		want := name + " lacks VK_KHR_fragment_shading_rate (queried)"
		if !errors.As(err, &ue) || ue.Command != "use" || ue.Resource != "x" || !strings.Contains(ue.Reason, want) {
			t.Fatalf("got %v, want a refusal saying %q", err, want)
		}
	case !info.Attachment || !info.Pipeline:
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "FragmentShadingRate feature (queried)") {
			t.Fatalf("got %v, want a refusal naming the missing feature", err)
		}
	case err != nil && errors.As(err, &ue) && strings.Contains(ue.Reason, "FRAGMENT_SHADING_RATE_ATTACHMENT format feature"):
		t.Logf("R8_UINT is no shading-rate attachment format here (a device limit): %v", err)
	case err != nil:
		t.Fatalf("%s has the extension and features, but: %v", name, err)
	default:
		r.Close()
		// The shared device is opened without the stage in ReplayStages.
		_, err := New(sharedDevice(t), g)
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "opened without FRAGMENT_SHADING_RATE_ATTACHMENT") {
			t.Fatalf("a device opened without the stage: got %v, want a refusal saying so", err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "not built") {
		t.Errorf("refused as not built: %v", err)
	}
	t.Logf("%s: %v", name, err)
}

// TestFSRFrame: the intact frame, read in each of the two layouts Vulkan
// allows, replays aliased and unaliased with no message and equal
// digests (every run deterministic).
func TestFSRFrame(t *testing.T) {
	d := fsrDeviceOrSkip(t)
	for _, l := range []vk.Layout{vk.LayoutFragmentShadingRateAttachmentOptimal, vk.LayoutGeneral} {
		t.Run(l.String(), func(t *testing.T) {
			rep := extCompare(t, d, fsrGraph(l), 3)
			t.Logf("digests equal %v, deterministic, %d messages", rep.DigestsEqual, rep.ValidationMessages)
		})
	}
}

// TestFSRClobber is the digest negative control: with y placed over x, y's
// write clobbers the rates "use" reads, and use's digest must differ from
// the intact plan's (which has none but equal digests and no message).
// It fails when the shading-rate pass does not take its fragment sizes
// from x, or the digest does not see them.
func TestFSRClobber(t *testing.T) {
	d := fsrDeviceOrSkip(t)
	g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
	extCompare(t, d, g, 2)
	r, plan := prepare(t, d, g)
	diff := clobberDiff(t, r, g, plan)
	t.Logf("y over x: %d differences: %v", len(diff), diff)
	if !diffHas(diff, "use") {
		t.Errorf("use's digest did not change with x clobbered: the shading-rate pass does not read x's rates, or the digest does not see them (%v)", diff)
	}
}

// TestFSRWrongStage is the synchronization control: the plan's barrier
// before use on x recorded with FRAGMENT_SHADER instead of the
// shading-rate stage must draw a hazard at the shading-rate pass. Where
// the layer raises none it does not track the stage's attachment read:
// the test says so and skips (TestFSRClobber is then the observable
// control); it is not counted as a pass.
func TestFSRWrongStage(t *testing.T) {
	d := fsrDeviceOrSkip(t)
	g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
	r, plan := prepare(t, d, g)
	use := p.CommandID(slices.IndexFunc(g.Commands, func(c p.Command) bool { return c.Name == "use" }))
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool {
		return b.Before == use && b.Resource == 0 && b.DstStages&vk.StageFragmentShadingRateAttachment != 0
	})
	if k < 0 {
		t.Fatalf("no barrier on x before use to the shading-rate stage: %+v", plan.Barriers)
	}
	good, msgs, err := r.RunPlan(plan, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = good
	if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
		t.Fatalf("the intact plan has messages: %v", rest)
	}
	b := plan.Barriers[k]
	hazards := wrongStage(t, r, plan, k, vk.StageFragmentShader, nil)
	t.Logf("barrier %d (%s/%s -> %s/%s, %s -> %s): destination FRAGMENT_SHADER: %d hazards", k, b.SrcStages, b.SrcAccess, b.DstStages, b.DstAccess, b.OldLayout, b.NewLayout, hazards)
	if hazards == 0 {
		t.Skipf("SKIP (not a pass): the validation layer raised no hazard for a shading-rate attachment read behind a barrier to FRAGMENT_SHADER: its synchronization validation does not track the FRAGMENT_SHADING_RATE_ATTACHMENT stage's read here; TestFSRClobber is the observable control")
	}
}

// TestFSRGeneratedFrames replays proptest.FSRReplayFrame for seeds 1..20
// (ALIASPLAN_FSR_FRAMES overrides the count) both ways where the device
// has the attachment path: no message, equal digests.
func TestFSRGeneratedFrames(t *testing.T) {
	d := fsrDeviceOrSkip(t)
	n := 20
	if s := os.Getenv("ALIASPLAN_FSR_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.FSRReplayFrame(seed)
			extCompare(t, d, g, 1)
			t.Logf("kinds %v", kinds)
		})
	}
}

// TestFSRDry checks the shading-rate passes' plumbing on any device, the
// extension or not (fsrDry: the same passes, parts, lanes, views, sets
// and render areas, without the attachment, the pipeline flag and rate
// state, the texels read as a storage image instead): the frame and
// sixteen generated frames replay with no message and equal digests,
// every pass's lanes are written (a fragment per pixel, over the texels'
// values), and y placed over x changes use's digest. It is not the
// shading-rate read (nothing decides fragment sizes): the tests above
// are, where the device has the path.
func TestFSRDry(t *testing.T) {
	fsrDry = true
	t.Cleanup(func() { fsrDry = false })
	d := sharedDevice(t)
	g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
	extCompare(t, d, g, 2)
	r, plan := prepare(t, d, g)
	run, msgs, err := r.RunPlan(plan, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
		t.Fatalf("messages: %v", rest)
	}
	use := slices.IndexFunc(r.works, func(w work) bool { return w.name == "use" })
	parts := r.works[use].fsrParts()
	if len(parts) != 1 {
		t.Fatalf("use has %d shading-rate parts, want 1", len(parts))
	}
	for _, pt := range parts {
		lanes := run.res[0].lanes[pt.index*lanesPerCmd : (pt.index+1)*lanesPerCmd]
		if !slices.ContainsFunc(lanes[:240], func(v uint32) bool { return v != 0 }) {
			t.Errorf("part %d: every lane zero: the pass drew nothing", pt.index)
		}
		// No attachment: every fragment 1x1, one per pixel of the
		// 64x64 texels times 16x16 area, each counted under the rate its
		// texel (read as a storage image) holds: hashes, several values.
		hist := fsrHistogram(lanes)
		total, bins := uint32(0), 0
		for _, n := range hist {
			total += n
			if n != 0 {
				bins++
			}
		}
		if want := uint32(fsrSide * 16 * fsrSide * 16); total != want || bins < 2 {
			t.Errorf("part %d: fragments per texel value %v: want %d fragments over several values", pt.index, hist, want)
		}
	}
	// The dry digest sees the texels: y over x changes use's.
	if diff := clobberDiff(t, r, g, plan); !diffHas(diff, "use") {
		t.Errorf("dry: use's digest did not change with x clobbered (%v)", diff)
	}
	for seed := uint64(1); seed <= 16; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, kinds := proptest.FSRReplayFrame(seed)
			extCompare(t, d, g, 1)
			t.Logf("kinds %v", kinds)
		})
	}
}

// fsrHistogram is a shading-rate pass part's fragment count per rate
// (lanes 240..255, replay_fsr.frag): index (log2 width)<<2 | log2 height.
func fsrHistogram(lanes []uint32) [16]uint32 {
	var h [16]uint32
	copy(h[:], lanes[240:256])
	return h
}

// TestFSRRates: the shading-rate pass of the intact frame runs fragments
// of the sizes x's texels say: its fragment count per rate (logged) must
// include a size other than 1x1 (texels of compute-written hashes, so
// random rates; all 1x1 would mean the attachment decided nothing), and
// the total must be what those sizes cover (at least one fragment per
// texel, at most one per pixel). It fails when the attachment or
// its combiner op is not applied.
func TestFSRRates(t *testing.T) {
	d := fsrDeviceOrSkip(t)
	g := fsrGraph(vk.LayoutFragmentShadingRateAttachmentOptimal)
	r, plan := prepare(t, d, g)
	run, msgs, err := r.RunPlan(plan, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
		t.Fatalf("messages: %v", rest)
	}
	use := slices.IndexFunc(r.works, func(w work) bool { return w.name == "use" })
	pt := r.works[use].fsrParts()[0]
	hist := fsrHistogram(run.res[0].lanes[pt.index*lanesPerCmd : (pt.index+1)*lanesPerCmd])
	total := uint32(0)
	var seen []string
	for rate, n := range hist {
		total += n
		if n != 0 {
			seen = append(seen, fmt.Sprintf("%dx%d: %d", 1<<(rate>>2), 1<<(rate&3), n))
		}
	}
	tw, th := r.k.fsr.tw, r.k.fsr.th
	n := uint32(fsrSide * fsrSide)
	t.Logf("texel %dx%d, area %dx%d: %d fragments: %v", tw, th, fsrSide*tw, fsrSide*th, total, seen)
	if total < n || total > n*tw*th {
		t.Errorf("%d fragments over %d texels of %dx%d pixels", total, n, tw, th)
	}
	if hist[0] == total {
		t.Errorf("every fragment 1x1: the shading-rate attachment decided no fragment size")
	}
}

// TestFSRTexel: the texel size is the smallest power of two within the
// device's limits and aspect ratio; none where the limits leave none.
func TestFSRTexel(t *testing.T) {
	e := func(w, h uint32) vkext.Extent { return vkext.Extent{Width: w, Height: h} }
	for _, c := range []struct {
		min, max vkext.Extent
		aspect   uint32
		w, h     uint32
		ok       bool
	}{
		{e(16, 16), e(16, 16), 1, 16, 16, true}, // one size (NVIDIA-like)
		{e(8, 8), e(32, 32), 4, 8, 8, true},
		{e(8, 16), e(32, 32), 2, 8, 16, true},
		{e(4, 16), e(32, 32), 2, 8, 16, true},   // 4x16 is 4:1
		{e(12, 12), e(32, 32), 1, 16, 16, true}, // powers of two only
		{e(16, 16), e(8, 8), 1, 0, 0, false},
		{e(0, 0), e(0, 0), 0, 0, 0, false},
	} {
		w, h, ok := fsrTexel(vkext.FSRInfo{MinTexel: c.min, MaxTexel: c.max, MaxTexelAspect: c.aspect})
		if w != c.w || h != c.h || ok != c.ok {
			t.Errorf("min %v max %v aspect %d: got %dx%d %v, want %dx%d %v", c.min, c.max, c.aspect, w, h, ok, c.w, c.h, c.ok)
		}
	}
}
