package proptest

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// MSAAFrame is a forward+ frame with 4× multisampling at width×height,
// for replaying MSAA at full size (scripts/genmsaa writes it as a graph
// file; TestMSAAFrame replays it small): a 4× depth prepass, tile light
// culling that texel-fetches every depth sample, a 4× forward pass
// resolved into a single-sampled HDR image by the attachment resolve, a
// 4× storage image written by the forward pass's fragment shader and read
// by a transparency pass (shaderStorageImageMultisample), a bloom chain of
// short-lived half and quarter images, tone mapping into an imported
// swapchain image and its present. Every transient's first use writes it.
func MSAAFrame(width, height uint32) *planner.Graph {
	g := &planner.Graph{}
	fs, cs := vk.StageFragmentShader, vk.StageComputeShader
	tests := vk.StageEarlyFragmentTests | vk.StageLateFragmentTests
	img := func(name string, f vk.Format, w, h, samples uint32, usage vk.ImageUsage) planner.ResourceID {
		return g.AddImage(name, planner.ImageDesc{Format: f, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: samples,
			Tiling: vk.TilingOptimal, Usage: usage})
	}
	depth := img("depth.ms", vk.FormatD32Sfloat, width, height, 4, vk.ImageUsageDepthStencilAttachment|vk.ImageUsageSampled)
	color := img("color.ms", vk.FormatR16G16B16A16Sfloat, width, height, 4, vk.ImageUsageColorAttachment)
	hdr := img("hdr", vk.FormatR16G16B16A16Sfloat, width, height, 1, vk.ImageUsageColorAttachment|vk.ImageUsageSampled|vk.ImageUsageStorage)
	coverage := img("coverage.ms", vk.FormatR32Uint, width, height, 4, vk.ImageUsageStorage)
	tiles := (width + 15) / 16 * ((height + 15) / 16)
	lights := g.AddBuffer("lights", planner.BufferDesc{Size: 64 * 1024, Usage: vk.BufferUsageStorageBuffer})
	lightList := g.AddBuffer("light-list", planner.BufferDesc{Size: uint64(tiles) * 256, Usage: vk.BufferUsageStorageBuffer})
	half := img("bloom.half", vk.FormatR16G16B16A16Sfloat, width/2, height/2, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	quarter := img("bloom.quarter", vk.FormatR16G16B16A16Sfloat, width/4, height/4, 1, vk.ImageUsageStorage|vk.ImageUsageSampled)
	swap := g.AddResource(planner.Resource{Name: "swapchain", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: width, Height: height, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferSrc, InitialLayout: vk.LayoutUndefined}})
	g.AddCommand("lights.upload", planner.Access{Resource: lights, Stages: cs, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("depth.prepass", planner.Access{Resource: depth, Stages: tests,
		Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthAttachmentOptimal})
	g.AddCommand("lights.cull", planner.Access{Resource: depth, Stages: fs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal},
		planner.Access{Resource: lights, Stages: fs, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: lightList, Stages: fs, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("forward", planner.Access{Resource: depth, Stages: tests, Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutDepthReadOnlyOptimal},
		planner.Access{Resource: lightList, Stages: fs, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: color, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
		planner.Access{Resource: hdr, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
		planner.Access{Resource: coverage, Stages: fs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("transparency", planner.Access{Resource: coverage, Stages: fs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
		planner.Access{Resource: hdr, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("bloom.down", planner.Access{Resource: hdr, Stages: cs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: half, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("bloom.down2", planner.Access{Resource: half, Stages: cs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: quarter, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("swapchain.acquire", planner.Access{Resource: swap, Stages: vk.StageTopOfPipe, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("tonemap", planner.Access{Resource: hdr, Stages: fs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: quarter, Stages: fs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: swap, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("present", planner.Access{Resource: swap, Stages: vk.StageBottomOfPipe, Layout: vk.LayoutPresentSrc})
	return g
}
