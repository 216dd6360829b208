package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// FSRReplayKinds are the kinds of use that read a fragment shading rate
// attachment (VK_KHR_fragment_shading_rate's attachment path;
// vulkan/replay/fsr.go): not in ReplayKinds (lavapipe has no such
// extension). FSRReplayFrame draws from them; the replay tests run those
// frames where the device has the extension and the feature.
var FSRReplayKinds = []string{
	"fsr-compute", // a compute-written R8_UINT rate image read as the shading-rate attachment of a draw with a colour attachment
	"fsr-clear",   // a cleared rate image read in GENERAL by an attachment-less draw that writes a storage buffer
	"fsr-layers",  // a rate image of two mip levels and two layers, written by compute, every subresource read by one draw
	"fsr-shared",  // one rate image read by two draws, beside a compute-written image the second samples
}

// fsrUsage is a rate image's usage: compute writes, clears, the attachment.
const fsrUsage = vk.ImageUsageStorage | vk.ImageUsageTransferDst | vk.ImageUsageFragmentShadingRateAttachment

// fsrRead is a's read of r as the shading-rate attachment in layout l.
func fsrRead(r planner.ResourceID, l vk.Layout) planner.Access {
	return planner.Access{Resource: r, Stages: vk.StageFragmentShadingRateAttachment, Access: vk.AccessFragmentShadingRateAttachmentRead, Layout: l}
}

// FSRReplayFrame is MeshReplayFrame for FSRReplayKinds.
func FSRReplayFrame(seed uint64) (*planner.Graph, []string) {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	b := &rgen{g: &planner.Graph{}, rng: rng}
	kinds := []int{int(seed % uint64(len(FSRReplayKinds))), rng.IntN(len(FSRReplayKinds))}
	b.sink = b.g.AddBuffer("sink", planner.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	b.cmd("sink.clear", b.storageWrite(b.sink))
	var names []string
	for i, k := range kinds {
		b.prefix = fmt.Sprintf("k%d.", i)
		names = append(names, FSRReplayKinds[k])
		b.first = true
		b.fsrKind(FSRReplayKinds[k])
	}
	b.cmd("sink.read", planner.Access{Resource: b.sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return b.g, names
}

func (b *rgen) fsrKind(k string) {
	s := b.size()
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	// A rate image of a few texels: each covers one texel size (16x16 on
	// most devices) of the shading-rate pass.
	rs := s / 4
	opt := vk.LayoutFragmentShadingRateAttachmentOptimal
	switch k {
	case "fsr-compute":
		rate := b.image("rate", planner.ImageDesc{Format: vk.FormatR8Uint, Width: rs, Height: rs, Usage: fsrUsage})
		b.cmd("rate.write", b.storageWrite(rate))
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("vrs.draw", fsrRead(rate, opt), colorWrite(col))
		b.toSink("vrs.read", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "fsr-clear":
		rate := b.image("rate", planner.ImageDesc{Format: vk.FormatR8Uint, Width: rs, Height: rs + 1, Usage: fsrUsage})
		b.cmd("rate.clear", planner.Access{Resource: rate, Stages: vk.StageClear, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
		out := b.buffer("vrs-out", uint64(256*(1+b.rng.IntN(4))), 0)
		b.cmd("vrs.scatter", fsrRead(rate, vk.LayoutGeneral), planner.Access{Resource: out, Stages: fs, Access: vk.AccessShaderStorageWrite})
		b.toSink("scatter.read", planner.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead})
	case "fsr-layers":
		rate := b.image("rate", planner.ImageDesc{Format: vk.FormatR8Uint, Width: 2 * rs, Height: rs, MipLevels: 2, ArrayLayers: 2, Usage: fsrUsage})
		b.cmd("rate.write", b.storageWrite(rate))
		col := b.image("color", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: s, Height: s, Usage: colorUsage})
		b.cmd("layers.draw", fsrRead(rate, opt), colorWrite(col))
		b.toSink("layers.read", sampled(col, cs, vk.LayoutShaderReadOnlyOptimal))
	case "fsr-shared":
		rate := b.image("rate", planner.ImageDesc{Format: vk.FormatR8Uint, Width: rs, Height: rs, Usage: fsrUsage})
		tex := b.image("tex", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("rate.write", b.storageWrite(rate), b.storageWrite(tex))
		c1 := b.image("color1", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		c2 := b.image("color2", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: s, Height: s, Usage: colorUsage})
		b.cmd("first.draw", fsrRead(rate, opt), colorWrite(c1))
		b.cmd("second.draw", fsrRead(rate, opt), sampled(tex, fs, vk.LayoutShaderReadOnlyOptimal), colorWrite(c2))
		b.toSink("shared.read", sampled(c1, cs, vk.LayoutShaderReadOnlyOptimal), sampled(c2, cs, vk.LayoutShaderReadOnlyOptimal))
	default:
		panic("proptest: unknown shading-rate replay kind " + k)
	}
}
