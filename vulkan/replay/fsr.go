package replay

import (
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Fragment shading rate attachments (VK_KHR_fragment_shading_rate's
// attachment path; issue 21, session 12). A FRAGMENT_SHADING_RATE_ATTACHMENT_READ
// in the FRAGMENT_SHADING_RATE_ATTACHMENT stage (the NV shading-rate-image
// names are aliases of both) is read by shading-rate passes of the
// command's own: per subresource (mip level, layer) of the declared
// range, one vkCmdBeginRendering with no colour, depth or stencil
// attachment and that subresource's 2D view as the
// VkRenderingFragmentShadingRateAttachmentInfoKHR attachment, in the
// declared layout (GENERAL or FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR,
// the two Vulkan allows), with the device's smallest supported texel size
// T, over a render area of the subresource's extent times T (so every
// texel of it is read), clamped to maxFramebufferWidth/Height. One
// full-screen triangle is drawn with the pass pipeline: created with
// VK_PIPELINE_CREATE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR and
// VkPipelineFragmentShadingRateStateCreateInfoKHR (fragment size 1x1,
// combiner ops KEEP then REPLACE: the attachment's rate is the rate), its
// fragment shader (replay_fsr.frag) adding a hash of each fragment's
// position and gl_ShadingRateEXT to the lanes of a part of its own (one
// per subresource, folded into the command's digest). Which fragments run
// and what rate they report is what the texels say, so a clobbered rate
// image changes the digest.
//
// The command's other work (its draws, attachments, dispatches) is
// recorded as without the attachment: the passes are recorded after its
// dispatch, before its draws, unordered with them in the same command.
// A command that also writes the rate image is refused (its write and the
// passes' read would race inside the command).
//
// Rate texels: the attachment's R8_UINT texel t encodes the fragment size
// 2^((t>>2)&3) x 2^(t&3) (the spec's encoding; the higher bits are
// ignored), and a size the device does not support is clamped by the
// implementation to one it does, so every byte is a valid rate and the
// writers' patterns (compute hashes, clear values, copies) need no
// clamping. Only the low four bits reach the digest.
//
// The device must have VK_KHR_fragment_shading_rate with
// pipelineFragmentShadingRate and attachmentFragmentShadingRate, and be
// opened with FRAGMENT_SHADING_RATE_ATTACHMENT in vulkan.Config.ReplayStages
// (replay.Stages(g)); the rate image's format must have
// FRAGMENT_SHADING_RATE_ATTACHMENT in its optimal-tiling features.
// Otherwise the frame is refused naming what is missing (fsrDevice).

// fsrUse is one shading-rate attachment read of a command.
type fsrUse struct {
	res    p.ResourceID
	layout vk.Layout
	subs   []sub   // the subresources read (att unused), one pass each
	parts  []*part // their lanes, one part per pass
}

// formatFeatureFSR is VK_FORMAT_FEATURE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR.
const formatFeatureFSR = 0x40000000

// addFSR takes a's shading-rate attachment read, if it has one.
func addFSR(g *p.Graph, w *work, a *p.Access, st vk.Stage, left *vk.AccessFlags, bad func(string, ...any) error) error {
	if st&vk.StageFragmentShadingRateAttachment == 0 || a.Access&vk.AccessFragmentShadingRateAttachmentRead == 0 {
		return nil
	}
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindImage {
		return bad("a shading-rate attachment must be an image (Vulkan)")
	}
	im := &r.Image
	switch {
	case im.Depth > 1:
		return bad("a shading-rate attachment must be a 2D image (Vulkan: FRAGMENT_SHADING_RATE_ATTACHMENT usage needs VK_IMAGE_TYPE_2D)")
	case im.Samples > 1:
		return bad("a shading-rate attachment must be single-sampled (Vulkan: FRAGMENT_SHADING_RATE_ATTACHMENT usage needs one sample)")
	case im.Tiling != vk.TilingOptimal:
		return bad("a shading-rate attachment must have optimal tiling (Vulkan: FRAGMENT_SHADING_RATE_ATTACHMENT usage needs VK_IMAGE_TILING_OPTIMAL)")
	case im.Format.IsDepthStencil():
		return bad("a shading-rate attachment must be a colour image (Vulkan: no depth/stencil format has the FRAGMENT_SHADING_RATE_ATTACHMENT format feature)")
	}
	if a.Layout != vk.LayoutGeneral && a.Layout != vk.LayoutFragmentShadingRateAttachmentOptimal {
		return bad("layout %s is not a shading-rate attachment layout (Vulkan: GENERAL or FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR)", a.Layout)
	}
	for _, o := range g.Commands[w.cmd].Accesses {
		if o.Resource == a.Resource && o.Access&writeFlags != 0 {
			return bad("the command also writes the image it reads as its shading-rate attachment: inside one command the write and the attachment read are unordered (the model gives no order within a command)")
		}
	}
	sp := accessSpan(im, a) // ranges.go
	u := fsrUse{res: a.Resource, layout: a.Layout}
	for level := sp.mip0; level < sp.mip0+sp.mips; level++ {
		for layer := sp.layer0; layer < sp.layer0+sp.layers; layer++ {
			u.subs = append(u.subs, sub{level: level, layer: layer})
			u.parts = append(u.parts, &part{stage: stFragment})
		}
	}
	w.fsr = append(w.fsr, u)
	*left &^= vk.AccessFragmentShadingRateAttachmentRead
	return nil
}

// fsrParts are w's shading-rate passes' parts (allParts, split.go).
func (w *work) fsrParts() []*part {
	var out []*part
	for i := range w.fsr {
		out = append(out, w.fsr[i].parts...)
	}
	return out
}

// fsrKit is the kit's shading-rate pass objects: the texel size, the
// pipeline (made at first use) and one descriptor set per part (its
// lanes).
type fsrKit struct {
	tw, th  uint32
	nparts  int
	dry     bool // fsrDry: the set layout has the rate image's storage binding
	setLay  vkg.DescriptorSetLayout
	pipeLay vkg.PipelineLayout
	pipe    vkg.Pipeline
	pool    vkg.DescriptorPool
	sets    map[int]vkg.DescriptorSet
}

// skipFSRModule: the shading-rate pass's fragment shader needs the
// extension enabled (FragmentShadingRateKHR capability).
func (k *kit) skipFSRModule(name string) bool {
	return name == "fsr_frag.spv" && !k.hooks.FragmentShadingRate()
}

// fsrDry (tests only) records the shading-rate passes on a device without
// the extension: no attachment (so nothing decides the fragment sizes:
// every fragment is 1x1), no pipeline flag or rate state, and
// fsr_frag_dry.spv, which reads the rate texels through the rate image
// bound as an R8_UINT storage image (GENERAL) in the fragment stage. It
// checks the passes' plumbing (parts, lanes, views, sets, render areas,
// barriers, the digest's view of the texels) where the real path cannot
// run; it is not the read the graph declares (another stage and access).
var fsrDry = false

func (k *kit) fsrOn() bool { return k.hooks.FragmentShadingRate() && !fsrDry }

// fsrDryPlan is plan for fsrDry (plan itself otherwise): barriers name
// FRAGMENT_SHADER and SHADER_STORAGE_READ for the shading-rate stage and
// read, and GENERAL for its layout, which a device without the feature
// may not name (VUID-VkImageMemoryBarrier2-dstStageMask-04956 and kin).
func fsrDryPlan(plan *p.Plan) *p.Plan {
	if !fsrDry {
		return plan
	}
	fix := func(bs []p.Barrier) []p.Barrier {
		bs = append([]p.Barrier(nil), bs...)
		for i := range bs {
			b := &bs[i]
			for _, st := range []*vk.Stage{&b.SrcStages, &b.DstStages} {
				if *st&vk.StageFragmentShadingRateAttachment != 0 {
					*st = *st&^vk.StageFragmentShadingRateAttachment | vk.StageFragmentShader
				}
			}
			for _, a := range []*vk.AccessFlags{&b.SrcAccess, &b.DstAccess} {
				if *a&vk.AccessFragmentShadingRateAttachmentRead != 0 {
					*a = *a&^vk.AccessFragmentShadingRateAttachmentRead | vk.AccessShaderStorageRead
				}
			}
			for _, l := range []*vk.Layout{&b.OldLayout, &b.NewLayout} {
				if *l == vk.LayoutFragmentShadingRateAttachmentOptimal {
					*l = vk.LayoutGeneral
				}
			}
		}
		return bs
	}
	c := *plan
	c.Barriers, c.FinalBarriers = fix(plan.Barriers), fix(plan.FinalBarriers)
	return &c
}

// fsrTexel picks the texel size of the shading-rate passes: the smallest
// power-of-two size within the device's minimum and maximum whose aspect
// ratio the device allows (the squarest of equal ones).
func fsrTexel(info vkext.FSRInfo) (tw, th uint32, ok bool) {
	best := uint64(0)
	aspect := max(info.MaxTexelAspect, 1)
	for w := uint32(1); w != 0 && w <= info.MaxTexel.Width; w <<= 1 {
		for h := uint32(1); h != 0 && h <= info.MaxTexel.Height; h <<= 1 {
			if w < info.MinTexel.Width || h < info.MinTexel.Height || max(w/h, h/w) > aspect {
				continue
			}
			a := uint64(w) * uint64(h)
			if best == 0 || a < best || a == best && max(w/h, h/w) < max(tw/th, th/tw) {
				best, tw, th = a, w, h
			}
		}
	}
	return tw, th, best != 0
}

// fsrDevice checks that the device can run every shading-rate pass of
// the frame, naming what it lacks as queried, and prepares the kit's
// share of them.
func (k *kit) fsrDevice(g *p.Graph, ws []work) error {
	n := 0
	for i := range ws {
		w := &ws[i]
		for _, u := range w.fsr {
			n += len(u.parts)
			cmd := &g.Commands[w.cmd]
			res := &g.Resources[u.res]
			refuse := func(format string, args ...any) error {
				return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, u.res)), Reason: fmt.Sprintf(format, args...)}
			}
			name := k.dev.Info().Name
			has, info := k.hooks.FSRSupport()
			if fsrDry {
				if res.Image.Format != vk.FormatR8Uint || res.Image.Usage&vk.ImageUsageStorage == 0 {
					return refuse("fsrDry reads rate images as R8_UINT storage images (this one: %s, usage %s)", res.Image.Format, res.Image.Usage)
				}
				if k.fsr == nil {
					k.fsr = &fsrKit{tw: 16, th: 16, dry: true, sets: map[int]vkg.DescriptorSet{}}
				}
				continue
			}
			switch {
			case !has:
				return refuse("%s lacks VK_KHR_fragment_shading_rate (queried): the device cannot read shading-rate attachments", name)
			case !info.Attachment:
				return refuse("%s has VK_KHR_fragment_shading_rate without the attachmentFragmentShadingRate feature (queried): the device cannot read shading-rate attachments", name)
			case !info.Pipeline:
				return refuse("%s has VK_KHR_fragment_shading_rate without the pipelineFragmentShadingRate feature (queried), which attachmentFragmentShadingRate comes with", name)
			case k.hooks.ReplayStagesAsked()&vk.StageFragmentShadingRateAttachment == 0:
				return refuse("%s has VK_KHR_fragment_shading_rate, but the device was opened without FRAGMENT_SHADING_RATE_ATTACHMENT in vulkan.Config.ReplayStages (replay.Stages(graph) gives it), so it is not enabled", name)
			case !k.hooks.FragmentShadingRate():
				return refuse("%s has VK_KHR_fragment_shading_rate, but it was not enabled", name)
			}
			var fp vkg.FormatProperties
			vkg.GetPhysicalDeviceFormatProperties(k.dev.Physical(), vkg.Format(res.Image.Format), &fp)
			fp.Deref()
			if fp.OptimalTilingFeatures&formatFeatureFSR == 0 {
				return refuse("%s has no FRAGMENT_SHADING_RATE_ATTACHMENT format feature for %s with optimal tiling (queried): the format cannot be a shading-rate attachment there (R8_UINT is the format Vulkan names)", name, res.Image.Format)
			}
			if k.fsr == nil {
				tw, th, ok := fsrTexel(info)
				if !ok {
					return refuse("%s reports no usable shading-rate attachment texel size (min %dx%d, max %dx%d, aspect ratio %d; queried)", name,
						info.MinTexel.Width, info.MinTexel.Height, info.MaxTexel.Width, info.MaxTexel.Height, info.MaxTexelAspect)
				}
				k.fsr = &fsrKit{tw: tw, th: th, sets: map[int]vkg.DescriptorSet{}}
			}
		}
	}
	if k.fsr != nil {
		k.fsr.nparts = n
	}
	return nil
}

// fsrArea is the render area of the pass over level of im: its extent in
// texels times the texel size, within the device's framebuffer limits.
func (k *kit) fsrArea(im *p.ImageDesc, level uint32) (w, h uint32) {
	lw, lh := uint64(max(1, im.Width>>level)), uint64(max(1, im.Height>>level))
	w = uint32(min(lw*uint64(k.fsr.tw), uint64(k.limits.MaxFramebufferWidth)))
	h = uint32(min(lh*uint64(k.fsr.th), uint64(k.limits.MaxFramebufferHeight)))
	return max(w, 1), max(h, 1)
}

// fsrPipeline makes (once) the shading-rate pass pipeline and its layouts.
func (k *kit) fsrPipeline() (vkg.Pipeline, error) {
	f := k.fsr
	if f.pipe != vkg.NullPipeline {
		return f.pipe, nil
	}
	frag := vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit)
	if f.setLay == vkg.NullDescriptorSetLayout {
		binds := []vkg.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vkg.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: frag}}
		if f.dry {
			binds = append(binds, vkg.DescriptorSetLayoutBinding{Binding: 1, DescriptorType: vkg.DescriptorTypeStorageImage, DescriptorCount: 1, StageFlags: frag})
		}
		info := vkg.DescriptorSetLayoutCreateInfo{SType: vkg.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: uint32(len(binds)), PBindings: binds}
		var l vkg.DescriptorSetLayout
		r := vkg.CreateDescriptorSetLayout(k.vd, &info, nil, &l)
		info.Free()
		if err := vkCheck("vkCreateDescriptorSetLayout (shading-rate pass)", r); err != nil {
			return vkg.NullPipeline, err
		}
		f.setLay = l
	}
	if f.pipeLay == vkg.NullPipelineLayout {
		info := vkg.PipelineLayoutCreateInfo{SType: vkg.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1, PSetLayouts: []vkg.DescriptorSetLayout{f.setLay},
			PushConstantRangeCount: 1, PPushConstantRanges: []vkg.PushConstantRange{{StageFlags: frag, Size: 4}}}
		var l vkg.PipelineLayout
		r := vkg.CreatePipelineLayout(k.vd, &info, nil, &l)
		info.Free()
		if err := vkCheck("vkCreatePipelineLayout (shading-rate pass)", r); err != nil {
			return vkg.NullPipeline, err
		}
		f.pipeLay = l
	}
	fname, flags, chain := "fsr_frag.spv", vkg.PipelineCreateFlags(vkext.PipelineCreateFSRAttachment), vkext.FSRPipelineChain()
	if !k.fsrOn() {
		chain.Free()
		fname, flags, chain = "fsr_frag_dry.spv", 0, vkext.PipelineRendering(nil, int32(vkg.FormatUndefined), int32(vkg.FormatUndefined))
	}
	defer chain.Free()
	vert, fr := k.modules["fsr_vert.spv"], k.modules[fname]
	if vert == vkg.NullShaderModule || fr == vkg.NullShaderModule {
		return vkg.NullPipeline, fmt.Errorf("replay: the shading-rate pass shaders are not loaded (VK_KHR_fragment_shading_rate enabled: %v)", k.hooks.FragmentShadingRate())
	}
	info := []vkg.GraphicsPipelineCreateInfo{{
		SType:      vkg.StructureTypeGraphicsPipelineCreateInfo,
		Flags:      flags,
		PNext:      chain.Head(),
		StageCount: 2,
		PStages: []vkg.PipelineShaderStageCreateInfo{
			{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageVertexBit, Module: vert, PName: "main\x00"},
			{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageFragmentBit, Module: fr, PName: "main\x00"},
		},
		PVertexInputState:   &vkg.PipelineVertexInputStateCreateInfo{SType: vkg.StructureTypePipelineVertexInputStateCreateInfo},
		PInputAssemblyState: &vkg.PipelineInputAssemblyStateCreateInfo{SType: vkg.StructureTypePipelineInputAssemblyStateCreateInfo, Topology: vkg.PrimitiveTopologyTriangleList},
		PViewportState:      &vkg.PipelineViewportStateCreateInfo{SType: vkg.StructureTypePipelineViewportStateCreateInfo, ViewportCount: 1, ScissorCount: 1},
		PRasterizationState: &vkg.PipelineRasterizationStateCreateInfo{SType: vkg.StructureTypePipelineRasterizationStateCreateInfo,
			PolygonMode: vkg.PolygonModeFill, CullMode: vkg.CullModeFlags(vkg.CullModeNone), FrontFace: vkg.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vkg.PipelineMultisampleStateCreateInfo{SType: vkg.StructureTypePipelineMultisampleStateCreateInfo,
			RasterizationSamples: vkg.SampleCount1Bit},
		PDepthStencilState: &vkg.PipelineDepthStencilStateCreateInfo{SType: vkg.StructureTypePipelineDepthStencilStateCreateInfo},
		PColorBlendState:   &vkg.PipelineColorBlendStateCreateInfo{SType: vkg.StructureTypePipelineColorBlendStateCreateInfo},
		PDynamicState: &vkg.PipelineDynamicStateCreateInfo{SType: vkg.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 2,
			PDynamicStates: []vkg.DynamicState{vkg.DynamicStateViewport, vkg.DynamicStateScissor}},
		Layout: f.pipeLay,
	}}
	pipes := make([]vkg.Pipeline, 1)
	r := vkg.CreateGraphicsPipelines(k.vd, vkg.NullPipelineCache, 1, info, nil, pipes)
	info[0].Free()
	if err := vkCheck("vkCreateGraphicsPipelines (shading-rate pass)", r); err != nil {
		return vkg.NullPipeline, err
	}
	f.pipe = pipes[0]
	return f.pipe, nil
}

// fsrSet is the descriptor set of part index's lanes (made once).
func (k *kit) fsrSet(lanes vkg.Buffer, index int) (vkg.DescriptorSet, error) {
	f := k.fsr
	if s, ok := f.sets[index]; ok {
		return s, nil
	}
	if f.pool == vkg.NullDescriptorPool {
		n := uint32(max(f.nparts, 1))
		info := vkg.DescriptorPoolCreateInfo{SType: vkg.StructureTypeDescriptorPoolCreateInfo, MaxSets: n, PoolSizeCount: 1,
			PPoolSizes: []vkg.DescriptorPoolSize{{Type: vkg.DescriptorTypeStorageBuffer, DescriptorCount: n}}}
		var pool vkg.DescriptorPool
		r := vkg.CreateDescriptorPool(k.vd, &info, nil, &pool)
		info.Free()
		if err := vkCheck("vkCreateDescriptorPool (shading-rate pass)", r); err != nil {
			return vkg.NullDescriptorSet, err
		}
		f.pool = pool
	}
	ai := vkg.DescriptorSetAllocateInfo{SType: vkg.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: f.pool,
		DescriptorSetCount: 1, PSetLayouts: []vkg.DescriptorSetLayout{f.setLay}}
	var set vkg.DescriptorSet
	r := vkg.AllocateDescriptorSets(k.vd, &ai, &set)
	ai.Free()
	if err := vkCheck("vkAllocateDescriptorSets (shading-rate pass)", r); err != nil {
		return set, err
	}
	wr := []vkg.WriteDescriptorSet{{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 0, DescriptorCount: 1,
		DescriptorType: vkg.DescriptorTypeStorageBuffer,
		PBufferInfo:    []vkg.DescriptorBufferInfo{{Buffer: lanes, Offset: vkg.DeviceSize(uint64(index) * laneBytes), Range: laneBytes}}}}
	vkg.UpdateDescriptorSets(k.vd, 1, wr, 0, nil)
	wr[0].Free()
	f.sets[index] = set
	return set, nil
}

func (k *kit) closeFSR() {
	f := k.fsr
	if f == nil {
		return
	}
	if f.pipe != vkg.NullPipeline {
		vkg.DestroyPipeline(k.vd, f.pipe, nil)
	}
	if f.pool != vkg.NullDescriptorPool {
		vkg.DestroyDescriptorPool(k.vd, f.pool, nil)
	}
	if f.pipeLay != vkg.NullPipelineLayout {
		vkg.DestroyPipelineLayout(k.vd, f.pipeLay, nil)
	}
	if f.setLay != vkg.NullDescriptorSetLayout {
		vkg.DestroyDescriptorSetLayout(k.vd, f.setLay, nil)
	}
	k.fsr = nil
}

// recordFSR records w's shading-rate passes.
func (m *mode) recordFSR(cb vkg.CommandBuffer, w *work) error {
	if len(w.fsr) == 0 {
		return nil
	}
	k := m.r.k
	pl, err := k.fsrPipeline()
	if err != nil {
		return err
	}
	for ui := range w.fsr {
		u := &w.fsr[ui]
		im := &m.r.g.Resources[u.res].Image
		for si, s := range u.subs {
			v, err := m.view(u.res, s.level, int32(s.layer), aspectColor, layerView{})
			if err != nil {
				return err
			}
			var set vkg.DescriptorSet
			if k.fsr.dry {
				set, err = m.fsrDrySet(u.parts[si].index, v)
			} else {
				set, err = k.fsrSet(m.r.lanes.buf, u.parts[si].index)
			}
			if err != nil {
				return err
			}
			aw, ah := k.fsrArea(im, s.level)
			if k.fsrOn() {
				k.hooks.Rendering().BeginRenderingFSR(unsafe.Pointer(cb), aw, ah, unsafe.Pointer(v), int32(u.layout), k.fsr.tw, k.fsr.th)
			} else {
				k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), aw, ah, nil, nil, nil) // fsrDry
			}
			vkg.CmdBindPipeline(cb, vkg.PipelineBindPointGraphics, pl)
			vkg.CmdSetViewport(cb, 0, 1, []vkg.Viewport{{Width: float32(aw), Height: float32(ah), MaxDepth: 1}})
			vkg.CmdSetScissor(cb, 0, 1, []vkg.Rect2D{{Extent: vkg.Extent2D{Width: aw, Height: ah}}})
			vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointGraphics, k.fsr.pipeLay, 0, 1, []vkg.DescriptorSet{set}, 0, nil)
			seed := [1]uint32{w.seed ^ hash32(uint32(ui)<<16|uint32(si)+1)}
			vkg.CmdPushConstants(cb, k.fsr.pipeLay, vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit), 0, 4, unsafe.Pointer(&seed[0]))
			vkg.CmdDraw(cb, 3, 1, 0, 0)
			k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
		}
	}
	return nil
}

// fsrDrySet is a dry pass's set (fsrDry): its lanes and the rate view as a
// storage image, from the mode's pool (whose budget of two sets per part
// the shading-rate parts do not otherwise use; a mode records twice).
func (m *mode) fsrDrySet(index int, view vkg.ImageView) (vkg.DescriptorSet, error) {
	k := m.r.k
	ai := vkg.DescriptorSetAllocateInfo{SType: vkg.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: m.pool,
		DescriptorSetCount: 1, PSetLayouts: []vkg.DescriptorSetLayout{k.fsr.setLay}}
	var set vkg.DescriptorSet
	r := vkg.AllocateDescriptorSets(k.vd, &ai, &set)
	ai.Free()
	if err := vkCheck("vkAllocateDescriptorSets (dry shading-rate pass)", r); err != nil {
		return set, err
	}
	wr := []vkg.WriteDescriptorSet{
		{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 0, DescriptorCount: 1, DescriptorType: vkg.DescriptorTypeStorageBuffer,
			PBufferInfo: []vkg.DescriptorBufferInfo{{Buffer: m.r.lanes.buf, Offset: vkg.DeviceSize(uint64(index) * laneBytes), Range: laneBytes}}},
		{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 1, DescriptorCount: 1, DescriptorType: vkg.DescriptorTypeStorageImage,
			PImageInfo: []vkg.DescriptorImageInfo{{ImageView: view, ImageLayout: vkg.ImageLayoutGeneral}}},
	}
	vkg.UpdateDescriptorSets(k.vd, 2, wr, 0, nil)
	wr[0].Free()
	wr[1].Free()
	return set, nil
}

// uintFit is the F_FIT flag of a 2D unsigned storage write (catIWU) into
// an 8- or 16-bit-component format: its values are masked to the width,
// so they are stored as they are instead of clamped (lavapipe stores
// 255 for every hash word in R8_UINT: a rate image written by compute
// would hold one value everywhere, and a clobber of it would change
// nothing the digest sees). Clears of such formats get masked values too
// (uintClearBits).
func uintFit(c category, f vk.Format) uint32 {
	if c != catIWU {
		return 0
	}
	switch f {
	case vk.FormatR8Uint, vk.FormatR8G8Uint, vk.FormatR8G8B8A8Uint:
		return fFit8
	case vk.FormatR16Uint, vk.FormatR16G16Uint, vk.FormatR16G16B16A16Uint:
		return fFit16
	}
	return 0
}

// uintClearBits is the clear value word h of an unsigned format, masked
// to its component width (see uintFit).
func uintClearBits(f vk.Format, h uint32) uint32 {
	switch uintFit(catIWU, f) {
	case fFit8:
		return h & 0xff
	case fFit16:
		return h & 0xffff
	}
	return h
}
