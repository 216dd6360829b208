package proptest

import (
	"fmt"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// NamedFrame is a frame with the name its file has under testdata.
type NamedFrame struct {
	Name  string
	Graph *planner.Graph
}

// RangeFrames builds the subresource-range frames of issue 23, each
// written with the root package's presets narrowed by WithMips,
// WithLayers and WithAspects: a bloom chain in one 6-mip image (down and
// up), a depth pyramid built one mip per compute dispatch, four shadow
// cascades in one 4-layer array written by four commands, a cube map
// rendered one face per command, and a pass that tests depth read-only
// while it writes stencil. With general set, the same frames with every
// image access on the whole image in layout GENERAL (the only way to write
// them without ranges), for comparison.
func RangeFrames(general bool) []NamedFrame {
	suffix := ""
	if general {
		suffix = "-general"
	}
	return []NamedFrame{
		{"bloom" + suffix, bloomFrame(general)},
		{"depth-pyramid" + suffix, pyramidFrame(general)},
		{"cascades" + suffix, cascadesFrame(general)},
		{"cubemap" + suffix, cubeFrame(general)},
		{"depth-stencil" + suffix, depthStencilFrame(general)},
	}
}

// frameBuilder holds the graph and whether accesses become whole-image
// GENERAL ones.
type frameBuilder struct {
	aliasplan.Graph
	general bool
}

func (b *frameBuilder) image(name string, f vk.Format, size, mips, layers uint32, usage vk.ImageUsage) planner.ResourceID {
	return b.AddImage(name, planner.ImageDesc{Format: f, Width: size, Height: size, MipLevels: mips, ArrayLayers: layers, Usage: usage})
}

// backbuffer adds the imported swapchain image.
func (b *frameBuilder) backbuffer() planner.ResourceID {
	return b.AddResource(planner.Resource{Name: "backbuffer", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: 1024, Height: 1024, Usage: vk.ImageUsageColorAttachment}})
}

// use narrows a to a range, or (general) widens it to the whole image in
// GENERAL.
func (b *frameBuilder) use(a planner.Access, mip, mips, layer, layers int, aspects vk.Aspect) planner.Access {
	if b.general {
		a.Layout = vk.LayoutGeneral
		return a
	}
	if mips > 0 {
		a = a.WithMips(mip, mips)
	}
	if layers > 0 {
		a = a.WithLayers(layer, layers)
	}
	return a.WithAspects(aspects)
}

func (b *frameBuilder) mip(a planner.Access, m int) planner.Access   { return b.use(a, m, 1, 0, 0, 0) }
func (b *frameBuilder) layer(a planner.Access, l int) planner.Access { return b.use(a, 0, 0, l, 1, 0) }

const (
	subColorUsage = vk.ImageUsageColorAttachment | vk.ImageUsageSampled
	subDepthUsage = vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled
)

// bloomFrame: scene → 6-mip bloom chain down (mip i-1 → i) and up (mip
// i+1 blended into i) → tonemap.
func bloomFrame(general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	hdr := b.image("hdr", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	bloom := b.image("bloom", vk.FormatB10G11R11UfloatPack32, 512, 6, 1, subColorUsage)
	bb := b.backbuffer()
	b.AddCommand("scene", b.ColorAttachment(hdr))
	b.AddCommand("bloom.down0", b.Sampled(hdr, vk.StageFragmentShader), b.mip(b.ColorAttachment(bloom), 0))
	for i := 1; i < 6; i++ {
		b.AddCommand(fmt.Sprintf("bloom.down%d", i), b.mip(b.Sampled(bloom, vk.StageFragmentShader), i-1), b.mip(b.ColorAttachment(bloom), i))
	}
	for i := 4; i >= 0; i-- {
		b.AddCommand(fmt.Sprintf("bloom.up%d", i), b.mip(b.Sampled(bloom, vk.StageFragmentShader), i+1), b.mip(b.BlendAttachment(bloom), i))
	}
	b.AddCommand("tonemap", b.Sampled(hdr, vk.StageFragmentShader), b.mip(b.Sampled(bloom, vk.StageFragmentShader), 0), b.ColorAttachment(bb))
	b.AddCommand("present", b.Present(bb))
	return &b.Graph.Graph
}

// pyramidFrame: depth prepass → hierarchical-Z pyramid, one compute
// dispatch per mip (read mip i-1, write mip i, both GENERAL storage) →
// occlusion culling samples every mip.
func pyramidFrame(general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	depth := b.image("depth", vk.FormatD32Sfloat, 1024, 1, 1, subDepthUsage)
	hiz := b.image("hiz", vk.FormatR32Sfloat, 512, 10, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	visible := b.AddBuffer("visible", planner.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer})
	b.AddCommand("prepass", b.DepthAttachment(depth))
	b.AddCommand("hiz0", b.Sampled(depth, vk.StageComputeShader), b.mip(b.WriteImage(hiz, vk.StageComputeShader), 0))
	for i := 1; i < 10; i++ {
		b.AddCommand(fmt.Sprintf("hiz%d", i), b.mip(b.ReadImage(hiz, vk.StageComputeShader), i-1), b.mip(b.WriteImage(hiz, vk.StageComputeShader), i))
	}
	b.AddCommand("cull", b.Sampled(hiz, vk.StageComputeShader), b.WriteBuffer(visible, vk.StageComputeShader))
	b.AddCommand("draw", b.Indirect(visible), b.DepthTest(depth))
	return &b.Graph.Graph
}

// cascadesFrame: four shadow cascades, one layer each of a 4-layer depth
// array, by four mutually independent commands; lighting samples all.
func cascadesFrame(general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	shadow := b.image("shadow", vk.FormatD32Sfloat, 2048, 1, 4, subDepthUsage)
	hdr := b.image("hdr", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	bb := b.backbuffer()
	for i := 0; i < 4; i++ {
		b.AddCommand(fmt.Sprintf("cascade%d", i), b.layer(b.DepthAttachment(shadow), i))
	}
	b.AddCommand("lighting", b.Sampled(shadow, vk.StageFragmentShader), b.ColorAttachment(hdr))
	b.AddCommand("tonemap", b.Sampled(hdr, vk.StageFragmentShader), b.ColorAttachment(bb))
	b.AddCommand("present", b.Present(bb))
	return &b.Graph.Graph
}

// cubeFrame: an environment cube map rendered one face per command, then
// convolved (samples all faces) into an irradiance cube.
func cubeFrame(general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	env := b.image("env", vk.FormatB10G11R11UfloatPack32, 256, 1, 6, subColorUsage)
	irr := b.image("irradiance", vk.FormatB10G11R11UfloatPack32, 32, 1, 6, subColorUsage|vk.ImageUsageStorage)
	hdr := b.image("hdr", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	for i := 0; i < 6; i++ {
		b.AddCommand(fmt.Sprintf("env.face%d", i), b.layer(b.ColorAttachment(env), i))
	}
	b.AddCommand("convolve", b.Sampled(env, vk.StageComputeShader), b.WriteImage(irr, vk.StageComputeShader))
	b.AddCommand("shade", b.Sampled(irr, vk.StageFragmentShader), b.ColorAttachment(hdr))
	return &b.Graph.Graph
}

// depthStencilFrame: a prepass writes depth and stencil; decals test the
// depth aspect read-only while writing the stencil aspect, SSAO samples
// depth meanwhile (no conflict: only stencil is written), an outline pass
// reads the stencil.
func depthStencilFrame(general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	ds := b.image("depthstencil", vk.FormatD24UnormS8Uint, 1024, 1, 1, subDepthUsage)
	ao := b.image("ao", vk.FormatR8G8B8A8Unorm, 1024, 1, 1, subColorUsage|vk.ImageUsageStorage)
	hdr := b.image("hdr", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	b.AddCommand("prepass", b.DepthAttachment(ds))
	depthRead := planner.Access{Resource: ds, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutDepthReadOnlyOptimal}
	stencilWrite := planner.Access{Resource: ds, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutStencilAttachmentOptimal}
	sampleDepth := planner.Access{Resource: ds, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal}
	stencilRead := planner.Access{Resource: ds, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutStencilReadOnlyOptimal}
	b.AddCommand("decals", b.use(depthRead, 0, 0, 0, 0, vk.AspectDepth), b.use(stencilWrite, 0, 0, 0, 0, vk.AspectStencil), b.BlendAttachment(hdr))
	b.AddCommand("ssao", b.use(sampleDepth, 0, 0, 0, 0, vk.AspectDepth), b.WriteImage(ao, vk.StageComputeShader))
	b.AddCommand("outline", b.use(stencilRead, 0, 0, 0, 0, vk.AspectStencil), b.Sampled(ao, vk.StageFragmentShader), b.BlendAttachment(hdr))
	return &b.Graph.Graph
}

// MipChains builds a frame of n independent bloom-like chains, each in one
// 6-mip image (a write of mip 0, five downsamples, five upsamples: 21
// per-mip accesses), reading one shared source; with general set, the
// same commands with whole-image GENERAL accesses. n = 10 gives about 200
// per-mip accesses.
func MipChains(n int, general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	src := b.image("src", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	b.AddCommand("scene", b.ColorAttachment(src))
	for c := 0; c < n; c++ {
		img := b.image(fmt.Sprintf("chain%d", c), vk.FormatB10G11R11UfloatPack32, 512, 6, 1, subColorUsage)
		b.AddCommand(fmt.Sprintf("chain%d.down0", c), b.Sampled(src, vk.StageFragmentShader), b.mip(b.ColorAttachment(img), 0))
		for i := 1; i < 6; i++ {
			b.AddCommand(fmt.Sprintf("chain%d.down%d", c, i), b.mip(b.Sampled(img, vk.StageFragmentShader), i-1), b.mip(b.ColorAttachment(img), i))
		}
		for i := 4; i >= 0; i-- {
			b.AddCommand(fmt.Sprintf("chain%d.up%d", c, i), b.mip(b.Sampled(img, vk.StageFragmentShader), i+1), b.mip(b.BlendAttachment(img), i))
		}
	}
	return &b.Graph.Graph
}
