package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// sintFormats: signed-integer formats with mandatory STORAGE_IMAGE
// support (Vulkan's required format table), which every device writes.
var sintFormats = []vk.Format{vk.FormatR32Sint, vk.FormatR8G8B8A8Sint, vk.FormatR16G16B16A16Sint, vk.FormatR32G32Sint, vk.FormatR32G32B32A32Sint}

// signedStorage ("signed-storage") writes signed-integer storage images
// from the compute, vertex and fragment stages (the replay's signed
// write arrays, vulkan/replay/sint.go; TestSignedWrites covers the
// tessellation and geometry stages), a 2D array and a 3D one,
// then copies them into buffers that compute reads: what the shaders
// wrote reaches the digests on any device (a storage read of an SINT
// image needs shaderStorageImageReadWithoutFormat).
func (b *rgen) signedStorage(s uint32) {
	cs, vs, fs := vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader
	f := sintFormats[b.rng.IntN(len(sintFormats))]
	layers := uint32(1 + b.rng.IntN(2))
	use := vk.ImageUsageStorage | vk.ImageUsageTransferSrc
	a := b.image("sint2d", planner.ImageDesc{Format: f, Width: s, Height: s, ArrayLayers: layers, Usage: use})
	v := b.image("sint3d", planner.ImageDesc{Format: vk.FormatR32Sint, Width: s / 2, Height: s / 2, Depth: 4, Usage: use})
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	w := func(r planner.ResourceID, st vk.Stage) planner.Access {
		return planner.Access{Resource: r, Stages: st, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	b.cmd("sint.compute-write", w(a, cs), w(v, cs))
	b.cmd("sint.vertex-write", w(a, vs), colorWrite(out))
	b.cmd("sint.fragment-write", w(a, fs), w(v, fs))
	buf := b.g.AddBuffer(b.prefix+"sint-staging", planner.BufferDesc{Size: uint64(s*s*layers) * f.BytesPerBlock(), Usage: vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer})
	buf3 := b.g.AddBuffer(b.prefix+"sint3d-staging", planner.BufferDesc{Size: uint64(s/2*s/2*4) * 4, Usage: vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer})
	b.cmd("sint.to-buffer", copyAccess(a, vk.StageCopy, vk.AccessTransferRead, vk.LayoutTransferSrcOptimal), copyAccess(buf, vk.StageCopy, vk.AccessTransferWrite, 0))
	b.cmd("sint3d.to-buffer", copyAccess(v, vk.StageCopy, vk.AccessTransferRead, vk.LayoutTransferSrcOptimal), copyAccess(buf3, vk.StageCopy, vk.AccessTransferWrite, 0))
	b.toSink("sint.read", planner.Access{Resource: buf, Stages: cs, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: buf3, Stages: cs, Access: vk.AccessShaderStorageRead}, sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
}

// FormatlessKinds names the kinds FormatlessFrame adds: uses that only a
// device with shaderStorageImageReadWithoutFormat replays (so ReplayFrame,
// which any Vulkan 1.3 device replays, has none of them).
var FormatlessKinds = []string{
	"formatless-graphics",    // storage reads of formats without a format-qualified array (signed ones too) in vertex and fragment shaders
	"formatless-prerast",     // such reads in a tessellation control, tessellation evaluation or geometry shader (session 13)
	"formatless-uint-colour", // such reads in a fragment shader whose draw has an unsigned colour attachment, with or without a float one (session 13)
}

// FormatlessFrame is ReplayFrame(seed) with FormatlessKinds appended.
func FormatlessFrame(seed uint64) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x3c6ef372fe94f82b))
	g, _ := replayFrame(seed)
	b := &rgen{g: g, rng: rng, n: len(g.Commands), sink: 0} // replayFrame's first resource is the sink
	for i, k := range FormatlessKinds {
		b.prefix = fmt.Sprintf("nf%d.", i)
		b.first = true
		switch k {
		case "formatless-graphics":
			b.formatlessGraphics(b.size())
		default:
			b.formatlessMore(k, b.size())
		}
	}
	return b.g
}

// formatlessGraphics writes images of formats without a format-qualified
// read array in the replay (snorm, 16-bit unorm, 64-bit unsigned,
// signed; 2D arrays and 3D) from compute and fragment shaders, then reads
// them as storage in vertex and fragment shaders.
func (b *rgen) formatlessGraphics(s uint32) {
	cs, vs, fs := vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader
	type img struct {
		f    vk.Format
		is3D bool
	}
	imgs := []img{{vk.FormatR8G8B8A8Snorm, false}, {vk.FormatR16G16Unorm, false}, {vk.FormatR32G32Uint, false},
		{sintFormats[b.rng.IntN(len(sintFormats))], false}, {vk.FormatR32Sint, true}, {vk.FormatR16G16B16A16Snorm, true}}
	var wc, wf, rv, rf []planner.Access
	for i, c := range imgs {
		d := planner.ImageDesc{Format: c.f, Width: s, Height: s, ArrayLayers: uint32(1 + i%2), Usage: vk.ImageUsageStorage}
		if c.is3D {
			d.Width, d.Height, d.Depth, d.ArrayLayers = s/2, s/2, 4, 1
		}
		r := b.image(fmt.Sprintf("nf%d_%s", i, c.f), d)
		wr := planner.Access{Resource: r, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
		if i%3 == 2 {
			wr.Stages = fs
			wf = append(wf, wr)
		} else {
			wc = append(wc, wr)
		}
		rd := planner.Access{Resource: r, Stages: fs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}
		if i%2 == 0 {
			rd.Stages = vs
			rv = append(rv, rd)
		} else {
			rf = append(rf, rd)
		}
	}
	out := b.image("out", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
	b.cmd("nf.compute-write", wc...)
	b.cmd("nf.fragment-write", append(wf, colorWrite(out))...)
	b.cmd("nf.graphics-read", append(append(rv, rf...), colorWrite(out))...)
	b.toSink("nf.out", sampled(out, cs, vk.LayoutShaderReadOnlyOptimal))
}

// formatlessMore writes two or three images of formats without a
// format-qualified read array from compute, then reads them as storage
// in stage st of a draw (formatless-prerast: tessellation or geometry,
// a float colour attachment; formatless-uint-colour: fragment, an
// R32_UINT or R8G8B8A8_UINT colour attachment and maybe a float one),
// whose colours compute samples. Mesh and task stages: MeshReplayKinds'
// mesh-formatless.
func (b *rgen) formatlessMore(k string, s uint32) {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	st := fs
	if k == "formatless-prerast" {
		st = []vk.Stage{vk.StageTessellationControlShader, vk.StageTessellationEvaluationShader, vk.StageGeometryShader}[b.rng.IntN(3)]
	}
	reads := b.formatlessImages(k, s, 2+b.rng.IntN(2), st)
	colours := []vk.Format{vk.FormatR8G8B8A8Unorm}
	if k == "formatless-uint-colour" {
		colours = [][]vk.Format{{vk.FormatR32Uint}, {vk.FormatR8G8B8A8Unorm, vk.FormatR32Uint}, {vk.FormatR8G8B8A8Uint, vk.FormatR16G16B16A16Sfloat}}[b.rng.IntN(3)]
	}
	var sinks []planner.Access
	for i, f := range colours {
		c := b.image(fmt.Sprintf("%s.colour%d", k, i), planner.ImageDesc{Format: f, Width: s, Height: s, Usage: colorUsage})
		reads = append(reads, colorWrite(c))
		sinks = append(sinks, sampled(c, cs, vk.LayoutShaderReadOnlyOptimal))
	}
	b.cmd(k+".draw", reads...)
	b.toSink(k+".out", sinks...)
}

// formatlessImages adds n images of formats without a format-qualified
// read array (at most two of one format-less array: snorm, 16-bit unorm,
// 64-bit unsigned), written by a compute command, and returns their
// storage reads in stage st.
func (b *rgen) formatlessImages(k string, s uint32, n int, st vk.Stage) []planner.Access {
	formats := []vk.Format{vk.FormatR8G8B8A8Snorm, vk.FormatR32G32Uint, vk.FormatR16G16Unorm}
	var w, r []planner.Access
	for i := 0; i < n; i++ {
		d := planner.ImageDesc{Format: formats[i%len(formats)], Width: s, Height: s, ArrayLayers: uint32(1 + b.rng.IntN(2)), Usage: vk.ImageUsageStorage}
		img := b.image(fmt.Sprintf("%s%d_%s", k, i, d.Format), d)
		w = append(w, planner.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		r = append(r, planner.Access{Resource: img, Stages: st, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	}
	b.cmd(k+".write", w...)
	return r
}
