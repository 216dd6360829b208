package replay

import (
	"errors"
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"unsafe"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// kit holds the device objects every mode shares: shaders, descriptor
// set and pipeline layouts, pipelines, a sampler, the dummy resources
// that fill unused descriptor slots, and the replay's own buffers (the
// parameters, the digest lanes, the readback) and imported resources.
type kit struct {
	dev   *vulkan.Device
	vd    vk.Device
	hooks vulkan.ReplayHooks
	types []p.MemoryType

	limits vk.PhysicalDeviceLimits
	nofmt  bool // shaderStorageImageReadWithoutFormat, enabled by Config.Replay where present (fmtless.go)
	// sliceWay: how to record resolves into 3D images of a format where
	// the device does not write every slice of one vkCmdResolveImage with
	// a region per slice (resolve3d.go, measured); absent: that way.
	sliceWay map[avk.Format]uint8
	// nofmtGfx: nofmt, and the vertex and fragment format-less arrays fit the device's storage-image limits (fmtless.go)
	nofmtGfx bool
	// nofmtPre: nofmtGfx, and every stage's format-less arrays fit them too (tessellation, geometry, task, mesh, ray generation; fmtless.go)
	nofmtPre bool

	modules   map[string]vk.ShaderModule
	setsLay   [numStages]vk.DescriptorSetLayout
	compLay   vk.PipelineLayout
	gfxLay    vk.PipelineLayout
	gfxLayX   vk.PipelineLayout // prerast.go: with tessellation and geometry sets
	meshLay   vk.PipelineLayout // mesh.go: mesh, fragment and task sets
	meshArgB  vk.Buffer         // meshindirect.go: mesh-task argument records
	rt        *rtKit            // raytrace.go
	dgc       *dgcKit           // dgc.go
	fsr       *fsrKit           // fsr.go
	compPipes map[specMasks]vk.Pipeline
	gfxPipes  map[gfxKey]vk.Pipeline
	sampler   vk.Sampler

	buffers []ownBuffer
	images  []ownImage
	views   []vk.ImageView
	fence   vk.Fence
	// msDummy fills the unused multisampled sampled-image slots (float,
	// uint): lavapipe (Mesa 22.3) crashes on null descriptors there. They
	// stay in SHADER_READ_ONLY_OPTIMAL and nothing writes them.
	msDummy [2]vk.ImageView
	// static: the device's shared objects (sharedkit.go), nil once closed.
	static *staticKit
}

type ownBuffer struct {
	buf    vk.Buffer
	mem    vk.DeviceMemory
	size   uint64
	mapped unsafe.Pointer
}

type ownImage struct {
	img vk.Image
	mem vk.DeviceMemory
}

func newKit(dev *vulkan.Device) (*kit, error) {
	hooks, ok := dev.Replay()
	if !ok {
		return nil, errors.New("replay: the device was not opened with vulkan.Config{Replay: true}")
	}
	k := &kit{dev: dev, vd: dev.Handle(), hooks: hooks, types: dev.MemoryTypes(), modules: map[string]vk.ShaderModule{}, gfxPipes: map[gfxKey]vk.Pipeline{}, compPipes: map[specMasks]vk.Pipeline{}}
	var props vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(dev.Physical(), &props)
	props.Deref()
	props.Limits.Deref()
	k.limits = props.Limits
	k.nofmt = readWithoutFormat(dev) // fmtless.go
	k.nofmtGfx = k.nofmt && k.fmtlessGfxFits(false)
	k.nofmtPre = k.nofmtGfx && k.fmtlessGfxFits(true)
	if err := k.init(); err != nil {
		k.close()
		return nil, err
	}
	return k, nil
}

// initStatic makes what every Replayer of a device shares (sharedkit.go):
// shader modules, descriptor set and pipeline layouts.
func (k *kit) initStatic() error {
	names, err := spirv.ReadDir("shaders")
	if err != nil {
		return err
	}
	for _, e := range names {
		name := e.Name()
		if name == "comp_ms.spv" && k.noMSCompute() || k.skipModule(name) || name == "xfb.spv" && !k.hooks.XfbCond().TransformFeedback() || // msaacompute.go, prerast.go, xfb.go
			k.skipMeshModule(name) || k.skipRTModule(name) || k.skipFmtlessModule(name) || k.skipFSRModule(name) { // mesh.go, raytrace.go, fmtless.go, fsr.go
			continue
		}
		code, err := spirvWords(name)
		if err != nil {
			return err
		}
		info := vk.ShaderModuleCreateInfo{SType: vk.StructureTypeShaderModuleCreateInfo, CodeSize: uint64(4 * len(code)), PCode: code}
		var m vk.ShaderModule
		r := vk.CreateShaderModule(k.vd, &info, nil, &m)
		info.Free()
		if err := vkCheck("vkCreateShaderModule "+name, r); err != nil {
			return err
		}
		k.modules[name] = m
	}
	tess, geom := k.preRasterFeatures() // prerast.go
	for st := stCompute; st < numStages; st++ {
		if st == stTessControl && !tess || st == stTessEval && !tess || st == stGeometry && !geom || !k.meshStageOn(st) || ownSetStage(st) || !k.rayGenStageOn(st) { // mesh.go, raytrace.go (a set of its own), raygen.go
			continue
		}
		flags := stageFlags(st)
		binds := []vk.DescriptorSetLayoutBinding{
			{Binding: 0, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: flags},
			{Binding: 1, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: flags},
		}
		for c := category(0); c < numCategories; c++ {
			if k.size(c, st) == 0 { // msaacompute.go
				continue
			}
			binds = append(binds, vk.DescriptorSetLayoutBinding{Binding: cats[c].binding, DescriptorType: c.descriptorType(),
				DescriptorCount: uint32(k.size(c, st)), StageFlags: flags})
		}
		info := vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: uint32(len(binds)), PBindings: binds}
		var l vk.DescriptorSetLayout
		r := vk.CreateDescriptorSetLayout(k.vd, &info, nil, &l)
		info.Free()
		if err := vkCheck("vkCreateDescriptorSetLayout", r); err != nil {
			return err
		}
		k.setsLay[st] = l
	}
	if k.compLay, err = k.pipelineLayout(k.setsLay[stCompute]); err != nil {
		return err
	}
	if k.gfxLay, err = k.pipelineLayout(k.setsLay[stVertex], k.setsLay[stFragment]); err != nil {
		return err
	}
	if err := k.preRasterLayout(); err != nil { // prerast.go
		return err
	}
	if err := k.meshLayout(); err != nil { // mesh.go
		return err
	}
	return nil
}

// initRest makes the kit's own objects: sampler, fence, dummies.
func (k *kit) initRest() error {
	sinfo := vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo, MagFilter: vk.FilterNearest, MinFilter: vk.FilterNearest,
		MipmapMode: vk.SamplerMipmapModeNearest, AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge, MaxLod: 0}
	var s vk.Sampler
	r := vk.CreateSampler(k.vd, &sinfo, nil, &s)
	sinfo.Free()
	if err := vkCheck("vkCreateSampler", r); err != nil {
		return err
	}
	k.sampler = s
	fi := vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
	var f vk.Fence
	r = vk.CreateFence(k.vd, &fi, nil, &f)
	fi.Free()
	if err := vkCheck("vkCreateFence", r); err != nil {
		return err
	}
	k.fence = f
	return k.initDummies()
}

func (k *kit) initDummies() error {
	var imgs []vk.Image
	for i, f := range []avk.Format{avk.FormatR8G8B8A8Unorm, avk.FormatR32Uint} {
		desc := p.ImageDesc{Format: f, Width: 1, Height: 1, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 4, Tiling: avk.TilingOptimal}
		im, err := k.newImage(&desc, vk.ImageUsageFlags(vk.ImageUsageSampledBit|vk.ImageUsageColorAttachmentBit))
		if err != nil {
			return err
		}
		info := vk.ImageViewCreateInfo{SType: vk.StructureTypeImageViewCreateInfo, Image: im.img, ViewType: vk.ImageViewType2d, Format: vk.Format(f),
			SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}}
		var v vk.ImageView
		r := vk.CreateImageView(k.vd, &info, nil, &v)
		info.Free()
		if err := vkCheck("vkCreateImageView (dummy)", r); err != nil {
			return err
		}
		k.views = append(k.views, v)
		k.msDummy[i] = v
		imgs = append(imgs, im.img)
	}
	return k.dev.Run(func(cb vk.CommandBuffer) error {
		var bs []vkext.ImageBarrier
		for _, img := range imgs {
			bs = append(bs, imageBarrier(img, aspectColor, avk.StageNone, 0, avk.StageAllCommands, avk.AccessMemoryRead, avk.LayoutUndefined, avk.LayoutShaderReadOnlyOptimal))
		}
		k.hooks.Barrier(cb, &vkext.Barriers{Image: bs})
		return nil
	})
}

func (c category) descriptorType() vk.DescriptorType {
	switch c {
	case catSB, catSBW:
		return vk.DescriptorTypeStorageBuffer
	case catUB:
		return vk.DescriptorTypeUniformBuffer
	case catS2F, catS2U, catS3F, catS2MS, catS2MSU, catS3U:
		return vk.DescriptorTypeCombinedImageSampler
	case catUTB:
		return vk.DescriptorTypeUniformTexelBuffer
	case catSTB, catSTBW:
		return vk.DescriptorTypeStorageTexelBuffer
	}
	return vk.DescriptorTypeStorageImage
}

func (c category) size(st stage) int {
	if st == stCompute {
		return cats[c].compute
	}
	if st >= stTessControl && st != stRayGen && c >= catRG32F && c != catIWI && c != catIW3I && !(c.isFmtless() && fmtlessStage(st)) {
		// storageformats.go: not in the tessellation, geometry and mesh
		// stages (sint.go: signed writes are; fmtless.go: the format-less
		// reads are; raygen.go: its own one-set layout has them all)
		return 0
	}
	return cats[c].graphic
}

func (k *kit) pipelineLayout(sets ...vk.DescriptorSetLayout) (vk.PipelineLayout, error) {
	info := vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: uint32(len(sets)), PSetLayouts: sets}
	if len(sets) >= 2 {
		// The fragment stage's render-area width and pixel count.
		info.PushConstantRangeCount = 1
		info.PPushConstantRanges = []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit), Size: 28}} // width, stride, own[5] (replay.frag)
	}
	var l vk.PipelineLayout
	r := vk.CreatePipelineLayout(k.vd, &info, nil, &l)
	info.Free()
	return l, vkCheck("vkCreatePipelineLayout", r)
}

// memoryType picks a memory type in bits: host-visible and coherent (and
// cached when readback) for host, device-local otherwise.
func (k *kit) memoryType(bits uint32, host, cached bool) (uint32, error) {
	best, rank := uint32(0), -1
	for i, t := range k.types {
		if i >= 32 || bits&(1<<i) == 0 {
			continue
		}
		r := 0
		if host {
			if t.Flags&(p.MemoryHostVisible|p.MemoryHostCoherent) != p.MemoryHostVisible|p.MemoryHostCoherent {
				continue
			}
			if (t.Flags&p.MemoryHostCached != 0) == cached {
				r++
			}
		} else {
			if t.Flags&p.MemoryDeviceLocal != 0 {
				r += 2
			}
			if t.Flags&p.MemoryHostVisible == 0 {
				r++
			}
		}
		if r > rank {
			best, rank = uint32(i), r
		}
	}
	if rank < 0 {
		return 0, fmt.Errorf("replay: no suitable memory type in bits %#x (host-visible %v)", bits, host)
	}
	return best, nil
}

func (k *kit) allocate(size uint64, typeIndex uint32) (vk.DeviceMemory, error) {
	info := vk.MemoryAllocateInfo{SType: vk.StructureTypeMemoryAllocateInfo, AllocationSize: vk.DeviceSize(size), MemoryTypeIndex: typeIndex}
	var m vk.DeviceMemory
	r := vk.AllocateMemory(k.vd, &info, nil, &m)
	info.Free()
	return m, vkCheck("vkAllocateMemory", r)
}

// newBuffer creates a buffer with its own memory (host-visible, coherent
// and mapped when host), tracked for close.
func (k *kit) newBuffer(size uint64, usage vk.BufferUsageFlags, host bool) (ownBuffer, error) {
	info := vk.BufferCreateInfo{SType: vk.StructureTypeBufferCreateInfo, Size: vk.DeviceSize(size), Usage: usage, SharingMode: vk.SharingModeExclusive}
	info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
	var b vk.Buffer
	r := vk.CreateBuffer(k.vd, &info, nil, &b)
	info.Free()
	if err := vkCheck("vkCreateBuffer", r); err != nil {
		return ownBuffer{}, err
	}
	ob := ownBuffer{buf: b, size: size}
	var req vk.MemoryRequirements
	vk.GetBufferMemoryRequirements(k.vd, b, &req)
	req.Deref()
	t, err := k.memoryType(req.MemoryTypeBits, host, host)
	if err == nil {
		ob.mem, err = k.allocate(uint64(req.Size), t)
	}
	if err == nil {
		err = vkCheck("vkBindBufferMemory", vk.BindBufferMemory(k.vd, b, ob.mem, 0))
	}
	if err == nil && host {
		var ptr unsafe.Pointer
		err = vkCheck("vkMapMemory", vk.MapMemory(k.vd, ob.mem, 0, vk.DeviceSize(vk.WholeSize), 0, &ptr))
		ob.mapped = ptr
	}
	k.buffers = append(k.buffers, ob)
	return ob, err
}

func (b *ownBuffer) bytes() []byte { return unsafe.Slice((*byte)(b.mapped), b.size) }

func (k *kit) newImage(im *p.ImageDesc, usage vk.ImageUsageFlags) (ownImage, error) {
	typ := vk.ImageType2d
	var flags vk.ImageCreateFlags
	if im.Depth > 1 {
		typ = vk.ImageType3d
		flags |= vk.ImageCreateFlags(vk.ImageCreate2dArrayCompatibleBit)
	}
	info := vk.ImageCreateInfo{SType: vk.StructureTypeImageCreateInfo, Flags: flags, ImageType: typ, Format: vk.Format(im.Format),
		Extent: vk.Extent3D{Width: im.Width, Height: im.Height, Depth: im.Depth}, MipLevels: im.MipLevels, ArrayLayers: im.ArrayLayers,
		Samples: vk.SampleCountFlagBits(im.Samples), Tiling: vk.ImageTiling(im.Tiling), Usage: usage, SharingMode: vk.SharingModeExclusive,
		InitialLayout: vk.ImageLayoutUndefined}
	info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
	var img vk.Image
	r := vk.CreateImage(k.vd, &info, nil, &img)
	info.Free()
	if err := vkCheck("vkCreateImage", r); err != nil {
		return ownImage{}, err
	}
	oi := ownImage{img: img}
	var req vk.MemoryRequirements
	vk.GetImageMemoryRequirements(k.vd, img, &req)
	req.Deref()
	t, err := k.memoryType(req.MemoryTypeBits, false, false)
	if err == nil {
		oi.mem, err = k.allocate(uint64(req.Size), t)
	}
	if err == nil {
		err = vkCheck("vkBindImageMemory", vk.BindImageMemory(k.vd, img, oi.mem, 0))
	}
	k.images = append(k.images, oi)
	return oi, err
}

// formatFeatures checks that the device supports what the replay does
// with each image of g, naming the command, resource and access if not.
func (k *kit) formatFeatures(g *p.Graph, ws []work) error {
	if err := k.fsrDevice(g, ws); err != nil { // fsr.go
		return err
	}
	if err := k.texelFeatures(g, ws); err != nil { // texel.go
		return err
	}
	if err := k.fmtlessDevice(g, ws); err != nil { // fmtless.go
		return err
	}
	if err := k.msStorageFeatures(g, ws); err != nil { // msstorage.go
		return err
	}
	if err := k.msComputeDevice(g, ws); err != nil { // msaacompute.go
		return err
	}
	k.blitFilters(g, ws)                             // copyrange.go
	if err := k.preRasterDevice(g, ws); err != nil { // prerast.go
		return err
	}
	if err := k.meshDevice(g, ws); err != nil { // mesh.go
		return err
	}
	if err := k.rtDevice(g, ws); err != nil { // raytrace.go
		return err
	}
	if err := k.uniformRangeDevice(g, ws); err != nil { // bigubo.go
		return err
	}
	if err := k.blockCopyDevice(g, ws); err != nil { // blocks.go
		return err
	}
	if err := k.loneDevice(g, ws); err != nil { // standin.go
		return err
	}
	if err := k.resolve3DDevice(g, ws); err != nil { // resolve3d.go
		return err
	}
	feats := map[avk.Format]vk.FormatFeatureFlags{}
	get := func(f avk.Format) vk.FormatFeatureFlags {
		if v, ok := feats[f]; ok {
			return v
		}
		var fp vk.FormatProperties
		vk.GetPhysicalDeviceFormatProperties(k.dev.Physical(), vk.Format(f), &fp)
		fp.Deref()
		feats[f] = fp.OptimalTilingFeatures
		return fp.OptimalTilingFeatures
	}
	need := func(w *work, r p.ResourceID, bit vk.FormatFeatureFlagBits, what string) error {
		res := &g.Resources[r]
		if get(res.Image.Format)&vk.FormatFeatureFlags(bit) != 0 {
			return nil
		}
		cmd := &g.Commands[w.cmd]
		return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, r)),
			Reason: fmt.Sprintf("%s has no %s support for format %s with optimal tiling", k.dev.Info().Name, what, res.Image.Format)}
	}
	for i := range ws {
		w := &ws[i]
		for _, pt := range w.allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if g.Resources[s.res].Kind != p.KindImage {
					continue
				}
				bit, what := vk.FormatFeatureSampledImageBit, "sampled-image"
				if s.cat >= catR8 && s.cat <= catIW3 || s.cat == catR32UI3D || s.cat == catIW3U || s.cat.isMSStorage() || s.cat >= catRG32F {
					bit, what = vk.FormatFeatureStorageImageBit, "storage-image"
				}
				if err := need(w, s.res, bit, what); err != nil {
					return err
				}
			}
		}
		for _, a := range w.colors {
			bit, what := vk.FormatFeatureColorAttachmentBit, "colour-attachment"
			if a.read && !a.uint {
				bit, what = vk.FormatFeatureColorAttachmentBlendBit, "colour-attachment blending (how the replay reads a colour attachment)"
			}
			if err := need(w, a.res, bit, what); err != nil {
				return err
			}
		}
		for _, a := range w.depths {
			if err := need(w, a.res, vk.FormatFeatureDepthStencilAttachmentBit, "depth/stencil-attachment"); err != nil {
				return err
			}
		}
		for _, op := range w.copies {
			if !op.blit || g.Resources[op.src].Kind != p.KindImage {
				continue
			}
			if err := need(w, op.src, vk.FormatFeatureBlitSrcBit, "blit-source"); err != nil {
				return err
			}
			if err := need(w, op.dst, vk.FormatFeatureBlitDstBit, "blit-destination"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (k *kit) close() {
	if k.vd == nil {
		return
	}
	vk.DeviceWaitIdle(k.vd)
	k.closeRT()       // raytrace.go
	k.closeDGC()      // dgc.go
	k.closeFSR()      // fsr.go
	k.releaseShared() // sharedkit.go: the device's shared objects stay
	for _, pl := range k.gfxPipes {
		vk.DestroyPipeline(k.vd, pl, nil)
	}
	for _, pl := range k.compPipes {
		vk.DestroyPipeline(k.vd, pl, nil)
	}
	for _, l := range []vk.PipelineLayout{k.compLay, k.gfxLay, k.gfxLayX, k.meshLay} {
		if l != vk.NullPipelineLayout {
			vk.DestroyPipelineLayout(k.vd, l, nil)
		}
	}
	for _, l := range k.setsLay {
		if l != vk.NullDescriptorSetLayout {
			vk.DestroyDescriptorSetLayout(k.vd, l, nil)
		}
	}
	for _, m := range k.modules {
		vk.DestroyShaderModule(k.vd, m, nil)
	}
	if k.sampler != vk.NullSampler {
		vk.DestroySampler(k.vd, k.sampler, nil)
	}
	for _, v := range k.views {
		vk.DestroyImageView(k.vd, v, nil)
	}
	for _, im := range k.images {
		vk.DestroyImage(k.vd, im.img, nil)
		if im.mem != vk.NullDeviceMemory {
			vk.FreeMemory(k.vd, im.mem, nil)
		}
	}
	for _, b := range k.buffers {
		vk.DestroyBuffer(k.vd, b.buf, nil)
		if b.mem != vk.NullDeviceMemory {
			vk.FreeMemory(k.vd, b.mem, nil)
		}
	}
	if k.fence != vk.NullFence {
		vk.DestroyFence(k.vd, k.fence, nil)
	}
	*k = kit{}
}

// vkError is a failed Vulkan call of the replay.
type vkError struct {
	call string
	r    vk.Result
}

func (e *vkError) Error() string { return fmt.Sprintf("replay: %s: VkResult %d", e.call, int32(e.r)) }

func vkCheck(call string, r vk.Result) error {
	if r == vk.Success {
		return nil
	}
	return &vkError{call, r}
}
