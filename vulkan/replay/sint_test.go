package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// sintTestFormats: signed formats written by TestSignedWrites (2D
// arrays of two layers, and 3D), those without STORAGE_IMAGE support on
// the device left out.
var sintTestFormats = []struct {
	f    vk.Format
	is3D bool
}{
	{vk.FormatR32Sint, false}, {vk.FormatR8G8B8A8Sint, false}, {vk.FormatR16G16B16A16Sint, false}, {vk.FormatR16Sint, false},
	{vk.FormatR32Sint, true}, {vk.FormatR8Sint, true},
}

// sintStages: the writing commands of sintGraph, each with the stage it
// writes in and a wrong destination stage for its barrier control.
var sintStages = []struct {
	name         string
	st, wrong    vk.Stage
	needsColour  bool
	needsPreRast bool
}{
	{"compute-write", vk.StageComputeShader, vk.StageFragmentShader, false, false},
	{"vertex-write", vk.StageVertexShader, vk.StageComputeShader, true, false},
	{"fragment-write", vk.StageFragmentShader, vk.StageComputeShader, true, false},
	{"tess-write", vk.StageTessellationEvaluationShader, vk.StageComputeShader, true, true},
	{"geometry-write", vk.StageGeometryShader, vk.StageComputeShader, true, true},
}

// sintGraph: imported signed-integer storage images (read back at the
// end, so what the shaders wrote is compared on any device) written in
// turn by each stage of sintStages; where the device reads without a
// format (readers), vertex, fragment and compute commands then read
// them as storage (the format-less signed arrays).
func sintGraph(d *vulkan.Device, readers bool) (*p.Graph, []string, []string) {
	g := &p.Graph{}
	var names []string
	var imgs []p.ResourceID
	for i, c := range sintTestFormats {
		if !storageSupported(d, c.f) {
			continue
		}
		desc := p.ImageDesc{Format: c.f, Width: 8, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 1, Tiling: vk.TilingOptimal,
			Usage: vk.ImageUsageStorage | vk.ImageUsageTransferSrc}
		if c.is3D {
			desc.Depth, desc.ArrayLayers = 3, 1
		}
		name := fmt.Sprintf("sint%d_%s", i, c.f)
		id := g.AddImage(name, desc)
		g.Resources[id].Imported = true
		names = append(names, name)
		imgs = append(imgs, id)
	}
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment})
	colour := p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
	all := func(st vk.Stage, acc vk.AccessFlags, withColour bool) []p.Access {
		var as []p.Access
		for _, id := range imgs {
			as = append(as, p.Access{Resource: id, Stages: st, Access: acc, Layout: vk.LayoutGeneral})
		}
		if withColour {
			as = append(as, colour)
		}
		return as
	}
	var cmds []string
	for _, s := range sintStages {
		g.AddCommand(s.name, all(s.st, vk.AccessShaderStorageWrite, s.needsColour)...)
		cmds = append(cmds, s.name)
	}
	if readers {
		for _, r := range []struct {
			name string
			st   vk.Stage
		}{{"vertex-read", vk.StageVertexShader}, {"fragment-read", vk.StageFragmentShader}, {"compute-read", vk.StageComputeShader}} {
			g.AddCommand(r.name, all(r.st, vk.AccessShaderStorageRead, r.st != vk.StageComputeShader)...)
			cmds = append(cmds, r.name)
		}
	}
	return g, names, cmds
}

// TestSignedWrites: signed-integer storage images (2D arrays and 3D)
// written in the compute, vertex, fragment, tessellation-evaluation and
// geometry stages (sint.go's signed arrays), and, where the device has
// shaderStorageImageReadWithoutFormat, read as storage in the vertex,
// fragment and compute stages: equal digests (the imported images' read
// back contents too), no validation message (a float or unsigned array
// on an SINT view raises VUID-vkCmdDispatch-format-07753), and for each
// command a barrier before it with a wrong destination stage raises a
// hazard (the command's access happens in its stage).
func TestSignedWrites(t *testing.T) {
	d := sharedDevice(t)
	fmtlessRequired(t, d)
	readers := readWithoutFormat(d)
	g, names, cmds := sintGraph(d, readers)
	if len(names) < 3 {
		t.Fatalf("%s: only %d signed formats have STORAGE_IMAGE support: %v", d.Info().Name, len(names), names)
	}
	t.Logf("%s: images %v, commands %v", d.Info().Name, names, cmds)
	rep := extCompare(t, d, g, 2)
	t.Logf("%s: %d commands, digests equal %v, %d validation messages (driver warnings included)", d.Info().Name, rep.Commands, rep.DigestsEqual, rep.ValidationMessages)
	r, plan := prepare(t, d, g)
	for i, cmd := range cmds[1:] {
		wrong := vk.StageComputeShader
		if strings.HasPrefix(cmd, "compute") {
			wrong = vk.StageFragmentShader
		}
		stageControl(t, r, plan, g, cmd, names[i%len(names)], wrong)
	}
}

// stageControl: the hazard barrier on resource name before command cmd,
// recorded with destination stage wrong, must raise a hazard.
func stageControl(t *testing.T, r *Replayer, plan *p.Plan, g *p.Graph, cmd, name string, wrong vk.Stage) {
	t.Helper()
	c := p.CommandID(slices.IndexFunc(g.Commands, func(x p.Command) bool { return x.Name == cmd }))
	res := p.ResourceID(slices.IndexFunc(g.Resources, func(x p.Resource) bool { return x.Name == name }))
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == c && b.Resource == res && b.Kind == p.Hazard })
	if k < 0 {
		t.Fatalf("no hazard barrier on %s before %s: %+v", name, cmd, plan.Barriers)
	}
	hazards := wrongStage(t, r, plan, k, wrong, nil)
	t.Logf("%s before %s: barrier to %s: %d hazards", name, cmd, wrong, hazards)
	if hazards == 0 {
		t.Errorf("%s before %s: a barrier to %s raised no hazard: the access did not happen in its stage", name, cmd, wrong)
	}
}

// TestSignedWriteCategories: SINT writes go to the signed arrays (2D,
// 3D; multisampled in compute), and every stage that has storage writes
// declares the 2D and 3D ones.
func TestSignedWriteCategories(t *testing.T) {
	for _, c := range []struct {
		f      vk.Format
		depth  uint32
		st     vk.Stage
		want   category
		wantOK bool
	}{
		{vk.FormatR32Sint, 1, vk.StageFragmentShader, catIWI, true},
		{vk.FormatR8G8B8A8Sint, 1, vk.StageComputeShader, catIWI, true},
		{vk.FormatR16Sint, 4, vk.StageVertexShader, catIW3I, true},
		{vk.FormatR32Uint, 1, vk.StageFragmentShader, catIWU, true},
		{vk.FormatR8G8B8A8Snorm, 1, vk.StageFragmentShader, catIW, true},
	} {
		g := &p.Graph{}
		img := g.AddImage("img", p.ImageDesc{Format: c.f, Width: 4, Height: 4, Depth: c.depth, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage})
		g.AddCommand("w", p.Access{Resource: img, Stages: c.st, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		w, err := analyzeCommand(g, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.f, err)
		}
		var got []category
		for _, pt := range w.allParts() {
			if pt != nil {
				for _, s := range pt.slots {
					got = append(got, s.cat)
				}
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s depth %d in %s: categories %v, want %v", c.f, c.depth, c.st, got, c.want)
		}
	}
	for _, st := range []stage{stCompute, stVertex, stFragment, stTessControl, stTessEval, stGeometry, stTask, stMesh} {
		if catIWI.size(st) != 2 || catIW3I.size(st) != 1 {
			t.Errorf("%s: signed write arrays of %d and %d slots", stageNames[st], catIWI.size(st), catIW3I.size(st))
		}
	}
	if catIWMSI.size(stCompute) != 2 || catIWMSI.size(stFragment) != 0 {
		t.Errorf("multisampled signed writes: compute %d, fragment %d slots", catIWMSI.size(stCompute), catIWMSI.size(stFragment))
	}
}

// TestFormatlessGraphicsFrames replays proptest.FormatlessFrame (format-
// less storage reads in vertex and fragment shaders, signed formats
// among them) for a few seeds: equal digests and no message where the
// device has shaderStorageImageReadWithoutFormat, a refusal naming it
// elsewhere.
func TestFormatlessGraphicsFrames(t *testing.T) {
	d := sharedDevice(t)
	fmtlessRequired(t, d)
	for seed := uint64(1); seed <= 3; seed++ {
		g := proptest.FormatlessFrame(seed)
		if !readWithoutFormat(d) {
			_, err := New(d, g)
			var ue *UnsupportedError
			if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "lacks shaderStorageImageReadWithoutFormat (queried)") {
				t.Fatalf("seed %d: got %v, want a refusal naming shaderStorageImageReadWithoutFormat", seed, err)
			}
			if seed == 1 {
				t.Logf("refused on %s: %v", d.Info().Name, err)
			}
			continue
		}
		rep := extCompare(t, d, g, 1)
		t.Logf("seed %d: %d commands, digests equal %v", seed, rep.Commands, rep.DigestsEqual)
	}
}

// TestStorageImageBudget: on the device, every stage's set and the
// largest graphics pipeline layout (vertex, tessellation, geometry and
// fragment sets) stay within maxPerStageDescriptorStorageImages and
// maxDescriptorSetStorageImages, the signed write arrays and (where
// nofmtGfx) the graphics format-less arrays included; the compute set
// with them too. sint.go's budget: on lavapipe 22.3 (64, 256) the
// compute set holds 63 and the layout 255.
func TestStorageImageBudget(t *testing.T) {
	d := sharedDevice(t)
	g := &p.Graph{}
	b := g.AddBuffer("b", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("w", p.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	r, err := New(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	k := r.k
	per, total := int(k.limits.MaxPerStageDescriptorStorageImages), int(k.limits.MaxDescriptorSetStorageImages)
	counts := map[string]int{}
	sum := 0
	for _, st := range []stage{stCompute, stVertex, stTessControl, stTessEval, stGeometry, stFragment} {
		nf := k.nofmtGfx
		if st != stVertex && st != stFragment {
			nf = k.nofmtPre // fmtless.go: the tessellation and geometry stages' format-less arrays
		}
		n := k.storageImages(st, nf)
		counts[stageNames[st]] = n
		if n > per {
			t.Errorf("%s set: %d storage images, the device allows %d a stage", stageNames[st], n, per)
		}
		if st != stCompute {
			sum += n
		}
	}
	t.Logf("%s: storage images per set %v, pre-raster layout %d (limits %d a stage, %d a layout; vertex and fragment format-less arrays %v, tessellation and geometry ones %v)", d.Info().Name, counts, sum, per, total, k.nofmtGfx, k.nofmtPre)
	if sum > total {
		t.Errorf("pre-raster layout: %d storage images, the device allows %d", sum, total)
	}
	if counts["compute"] > total {
		t.Errorf("compute layout: %d storage images, the device allows %d", counts["compute"], total)
	}
}

// TestIntegerColorFormats: an unsigned colour format outside the
// format-qualified storage list (A2B10G10R10_UINT_PACK32) is unsigned to
// the fragment outputs and the samplers (before session 13 it took float
// ones, and the layer reported VUID-vkCmdDraw-format-07753 and
// VUID-vkCmdDispatch-format-07753, 12 each), and signed ones are rendered
// to and sampled through their unsigned twins (sint.go): each frame
// replays clean with equal digests, and the draw reaches the digest of
// what samples it (another seed for the draw changes it: the unsigned
// outputs are masked to the component width, replay.frag's OM0..OM7;
// before, an 8-, 16-, 10- or 2-bit attachment held the clamp of every
// hash word, the same whatever was drawn).
func TestIntegerColorFormats(t *testing.T) {
	d := sharedDevice(t)
	frame := func(f vk.Format, draw string) *p.Graph {
		g := &aliasplan.Graph{}
		id := g.AddImage("ids", aliasplan.ImageDesc{Format: f, Width: 64, Height: 64, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
		out := g.AddImage("out", aliasplan.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Usage: vk.ImageUsageStorage | vk.ImageUsageColorAttachment})
		g.AddCommand(draw, g.ColorAttachment(id))
		g.AddCommand("use", g.Sampled(id, vk.StageComputeShader), g.WriteImage(out, vk.StageComputeShader))
		g.AddCommand("use2", g.Sampled(id, vk.StageFragmentShader), g.BlendAttachment(out))
		g.AddCommand("read", g.ReadImage(out, vk.StageComputeShader))
		return &g.Graph
	}
	digest := func(rep *Report, cmd string) uint64 {
		i := slices.IndexFunc(rep.Digests, func(d CommandDigest) bool { return d.Command == cmd })
		if i < 0 {
			t.Fatalf("no digest for %q", cmd)
		}
		return rep.Digests[i].Digest
	}
	for _, f := range []vk.Format{vk.FormatA2B10G10R10UintPack32, vk.FormatR32Uint, vk.FormatR8Uint, vk.FormatR16G16B16A16Uint, vk.FormatR32Sint, vk.FormatR8G8B8A8Sint, vk.FormatR16G16Sint} {
		t.Run(f.String(), func(t *testing.T) {
			a := compare(t, d, frame(f, "draw"), 1)
			b := compare(t, d, frame(f, "draw.other"), 1)
			if digest(a, "use") == digest(b, "use") {
				t.Errorf("the sampled read's digest %x does not depend on the draw", digest(a, "use"))
			}
			t.Logf("digests equal %v, %d messages; use %x vs %x", a.DigestsEqual, a.ValidationMessages, digest(a, "use"), digest(b, "use"))
		})
	}
}
