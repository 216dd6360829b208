package replay

import (
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"math"
	"unsafe"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// mode is one bound plan: its resources, views, descriptor sets and two
// recorded command buffers (frame timestamps only, and one timestamp per
// command).
type mode struct {
	r        *Replayer
	res      *vulkan.Resources
	plan     *p.Plan
	own      bool // res is the mode's own (closed with it)
	pool     vk.DescriptorPool
	sets     [][numStages]vk.DescriptorSet
	moreSets [][]vk.DescriptorSet            // split.go: the extra compute parts'
	gfxSets  [][][numStages]vk.DescriptorSet // gfxsplit.go: the extra draws'
	quiet    [][numStages]vk.DescriptorSet   // gfxwrite.go: commands whose vertex or fragment part writes
	views    map[viewKey]vk.ImageView
	bufViews map[p.ResourceID]vk.BufferView // texel.go
	rt       *rtMode                        // raytrace.go
	cbs      []vk.CommandBuffer             // [timed, profiled]
	// poison.go: buffers over the pools' memory (made at the first run),
	// and the pool bytes they could not cover.
	poison     []vk.Buffer
	poisoned   bool
	unpoisoned uint64
	recErr     error // a failure of recordWork's helpers that return none (resolve3d.go)
}

type viewKey struct {
	res    p.ResourceID
	level  uint32
	layer  int32 // -1: every layer (a 2D array or 3D view); else one layer or 3D slice (a 2D view)
	aspect uint32
	lv     layerView // views.go: a slot's layers (zero: every layer)
	twin   bool      // a view of the image's unsigned twin format (sint.go)
}

// bind binds plan to res (Source for the aliased run, a fresh Resources
// otherwise), hands over the imported resources, makes views and
// descriptor sets, and records the command buffers.
func (r *Replayer) bind(res *vulkan.Resources, plan *p.Plan, own bool) (*mode, error) {
	plan = replayPlan(plan) // inputattach.go
	plan = fsrDryPlan(plan) // fsr.go: tests only
	// selfrace.go: own-pixel reads loaded without LOAD_OP_NONE.
	plan = r.ownLoadPlan(plan)
	m := &mode{r: r, res: res, plan: plan, own: own, views: map[viewKey]vk.ImageView{}}
	for _, o := range r.imports {
		var err error
		if o.buf != vk.NullBuffer {
			err = res.ImportBuffer(o.id, o.buf)
		} else {
			err = res.ImportImage(o.id, o.img)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := res.Bind(plan); err != nil {
		if own {
			res.Close()
		}
		return nil, err
	}
	if err := m.prepare(); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

func (m *mode) close() {
	k := m.r.k
	vk.DeviceWaitIdle(k.vd)
	if len(m.cbs) > 0 {
		vk.FreeCommandBuffers(k.vd, k.hooks.CommandPool(), uint32(len(m.cbs)), m.cbs)
	}
	for _, v := range m.views {
		vk.DestroyImageView(k.vd, v, nil)
	}
	m.closeBufViews()
	m.closePoison() // poison.go
	m.closeRT()     // raytrace.go
	if m.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(k.vd, m.pool, nil)
	}
	if m.own {
		m.res.Close()
	} else {
		// The source's bound objects go; it can plan and bind again.
		m.res.Close()
	}
}

func (m *mode) handle(id p.ResourceID) (vk.Buffer, vk.Image) {
	return m.res.Buffer(id), m.res.Image(id)
}

// view returns a view of one mip level of image id: every layer (layer
// -1: a 2D array view, a 3D view of a 3D image) for shader slots, one
// layer or 3D slice (a 2D view) for attachments.
func (m *mode) view(id p.ResourceID, level uint32, layer int32, aspect uint32, lv layerView) (vk.ImageView, error) {
	return m.viewAs(id, level, layer, aspect, lv, false)
}

// viewAs is view, of the image's unsigned twin format where twin is set
// (an SINT image's attachment and sampled views: sint.go).
func (m *mode) viewAs(id p.ResourceID, level uint32, layer int32, aspect uint32, lv layerView, twin bool) (vk.ImageView, error) {
	key := viewKey{id, level, layer, aspect, lv, twin}
	if v, ok := m.views[key]; ok {
		return v, nil
	}
	res := &m.r.g.Resources[id]
	_, img := m.handle(id)
	vt, base, n := vk.ImageViewType2dArray, uint32(0), res.Image.ArrayLayers
	switch {
	case layer >= 0:
		vt, base, n = vk.ImageViewType2d, uint32(layer), 1
	case res.Image.Depth > 1:
		vt, n = vk.ImageViewType3d, 1
	case lv.layers > 0:
		base, n = lv.layer0, lv.layers
	}
	format := res.Image.Format
	if twin {
		format = uintTwin(format)
	}
	info := vk.ImageViewCreateInfo{SType: vk.StructureTypeImageViewCreateInfo, Image: img, ViewType: vt, Format: vk.Format(format),
		SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(aspect), BaseMipLevel: level, LevelCount: 1, BaseArrayLayer: base, LayerCount: n}}
	var v vk.ImageView
	r := vk.CreateImageView(m.r.k.vd, &info, nil, &v)
	info.Free()
	if err := vkCheck("vkCreateImageView "+res.Name, r); err != nil {
		return vk.NullImageView, err
	}
	m.views[key] = v
	return v, nil
}

// attachView is the 2D view of one attachment subresource.
func (m *mode) attachView(id p.ResourceID, sr sub, aspect uint32) (vk.ImageView, error) {
	return m.viewAs(id, sr.level, int32(sr.layer), aspect, layerView{}, isSintFormat(m.r.g.Resources[id].Image.Format))
}

func (m *mode) prepare() error {
	r, k := m.r, m.r.k
	n := 2 * uint32(max(r.nparts, 1)) // a full and a quiet set per part at most
	sizes := []vk.DescriptorPoolSize{
		{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: n * 18},
		{Type: vk.DescriptorTypeUniformBuffer, DescriptorCount: n * 4},
		{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: n * 40},
		{Type: vk.DescriptorTypeStorageImage, DescriptorCount: n * 58},
		{Type: vk.DescriptorTypeUniformTexelBuffer, DescriptorCount: n * 2},
		{Type: vk.DescriptorTypeStorageTexelBuffer, DescriptorCount: n * 4},
	}
	pi := vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: n, PoolSizeCount: uint32(len(sizes)), PPoolSizes: sizes}
	var pool vk.DescriptorPool
	res := vk.CreateDescriptorPool(k.vd, &pi, nil, &pool)
	pi.Free()
	if err := vkCheck("vkCreateDescriptorPool", res); err != nil {
		return err
	}
	m.pool = pool
	m.sets = make([][numStages]vk.DescriptorSet, len(r.works))
	m.quiet = make([][numStages]vk.DescriptorSet, len(r.works))
	align := max(uint64(k.limits.MinStorageBufferOffsetAlignment), 16)
	stride := (uint64(paramsBytes) + align - 1) / align * align
	for i := range r.works {
		for st, pt := range r.works[i].parts {
			if pt == nil || ownSetStage(stage(st)) { // raytrace.go: a set of its own
				continue
			}
			set, err := m.writeSet(pt, stage(st), stride, nil)
			if err != nil {
				return fmt.Errorf("replay: command %q: %w", r.works[i].name, err)
			}
			m.sets[i][st] = set
			if wr := r.works[i].gfxWritten; wr != nil && stage(st) != stCompute {
				if m.quiet[i][st], err = m.writeSet(pt, stage(st), stride, wr); err != nil {
					return fmt.Errorf("replay: command %q: %w", r.works[i].name, err)
				}
			}
		}
	}
	if err := m.writeMoreSets(stride); err != nil { // split.go
		return err
	}
	if err := m.prepareRT(); err != nil { // raytrace.go
		return err
	}
	for i := range r.works {
		w := &r.works[i]
		for _, ps := range w.passes {
			for _, c := range ps.colors {
				a := w.colors[c.att]
				if _, err := m.attachView(a.res, c, aspectColor); err != nil {
					return err
				}
				if a.resolve >= 0 {
					if _, err := m.attachView(w.colors[a.resolve].res, c, aspectColor); err != nil {
						return err
					}
				}
			}
			if ps.depth.att >= 0 {
				a := w.depths[ps.depth.att]
				if _, err := m.attachView(a.res, ps.depth, dsAspect(r.g.Resources[a.res].Image.Format)); err != nil {
					return err
				}
			}
		}
	}
	cbs := make([]vk.CommandBuffer, 2)
	ai := vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: k.hooks.CommandPool(),
		Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 2}
	res = vk.AllocateCommandBuffers(k.vd, &ai, cbs)
	ai.Free()
	if err := vkCheck("vkAllocateCommandBuffers", res); err != nil {
		return err
	}
	m.cbs = cbs
	if len(m.plan.Submissions) > 0 {
		// Barriers are per queue: one command buffer of the whole order
		// would lack the cross-queue ones (and validation reports that at
		// record time). CompareQueues records per submission (queues.go).
		return nil
	}
	for i, cb := range cbs {
		if err := m.record(cb, i == 1); err != nil {
			return err
		}
	}
	return nil
}

func dsAspect(f avk.Format) uint32 {
	if !f.HasDepth() {
		return aspectStencil // a stencil-only format (stencil.go)
	}
	a := uint32(aspectDepth)
	if f.HasStencil() {
		a |= aspectStencil
	}
	return a
}

// writeSet writes pt's descriptor set; the slots of resources in skip
// stay null (a quiet set, gfxwrite.go).
func (m *mode) writeSet(pt *part, st stage, stride uint64, skip map[p.ResourceID]bool) (vk.DescriptorSet, error) {
	r, k := m.r, m.r.k
	ai := vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: m.pool,
		DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{k.setsLay[st]}}
	var set vk.DescriptorSet
	res := vk.AllocateDescriptorSets(k.vd, &ai, &set)
	ai.Free()
	if err := vkCheck("vkAllocateDescriptorSets", res); err != nil {
		return set, err
	}
	writes := []vk.WriteDescriptorSet{
		{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 0, DescriptorCount: 1, DescriptorType: vk.DescriptorTypeStorageBuffer,
			PBufferInfo: []vk.DescriptorBufferInfo{{Buffer: r.params.buf, Offset: vk.DeviceSize(uint64(pt.index) * stride), Range: vk.DeviceSize(paramsBytes)}}},
		{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 1, DescriptorCount: 1, DescriptorType: vk.DescriptorTypeStorageBuffer,
			PBufferInfo: []vk.DescriptorBufferInfo{{Buffer: r.lanes.buf, Offset: vk.DeviceSize(uint64(pt.index) * laneBytes), Range: laneBytes}}},
	}
	for c := category(0); c < numCategories; c++ {
		n := m.r.k.size(c, st) // msaacompute.go
		if n == 0 {
			continue
		}
		wr := vk.WriteDescriptorSet{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: cats[c].binding,
			DescriptorCount: uint32(n), DescriptorType: c.descriptorType()}
		// Unused slots get null descriptors (VK_EXT_robustness2):
		// nothing reads or writes them.
		isBuf := c == catSB || c == catUB || c == catSBW
		if c.isTexel() { // texel.go
			wr.PTexelBufferView = make([]vk.BufferView, n)
		} else if isBuf {
			wr.PBufferInfo = make([]vk.DescriptorBufferInfo, n)
			for i := range wr.PBufferInfo {
				wr.PBufferInfo[i] = vk.DescriptorBufferInfo{Buffer: vk.NullBuffer, Range: vk.DeviceSize(vk.WholeSize)}
			}
		} else {
			wr.PImageInfo = make([]vk.DescriptorImageInfo, n)
			for i := range wr.PImageInfo {
				wr.PImageInfo[i] = vk.DescriptorImageInfo{Sampler: k.sampler, ImageLayout: vk.ImageLayoutGeneral}
				if c == catS2MS || c == catS2MSU {
					wr.PImageInfo[i].ImageView, wr.PImageInfo[i].ImageLayout = k.msDummy[c-catS2MS], vk.ImageLayoutShaderReadOnlyOptimal
				}
			}
		}
		for _, s := range pt.slots {
			if s.cat != c || skip[s.res] {
				continue
			}
			buf, _ := m.handle(s.res)
			if c.isTexel() {
				v, err := m.bufView(s.res)
				if err != nil {
					return set, err
				}
				wr.PTexelBufferView[s.index] = v
				continue
			}
			if isBuf {
				size := r.g.Resources[s.res].Buffer.Size
				wr.PBufferInfo[s.index] = vk.DescriptorBufferInfo{Buffer: buf, Offset: vk.DeviceSize(s.boff), Range: vk.DeviceSize(size - s.boff)}
				if c == catUB {
					wr.PBufferInfo[s.index].Range = vk.DeviceSize(min(size-s.boff, maxUBBytes)) // bigubo.go
				}
				continue
			}
			twin := (c == catS2U || c == catS2MSU || c == catS3U) && isSintFormat(r.g.Resources[s.res].Image.Format)
			v, err := m.viewAs(s.res, s.level, s.layer, s.aspect, s.lv, twin)
			if err != nil {
				return set, err
			}
			wr.PImageInfo[s.index] = vk.DescriptorImageInfo{Sampler: k.sampler, ImageView: v, ImageLayout: vk.ImageLayout(s.layout)}
		}
		writes = append(writes, wr)
	}
	vk.UpdateDescriptorSets(k.vd, uint32(len(writes)), writes, 0, nil)
	for i := range writes {
		writes[i].Free()
	}
	return set, nil
}

// record records one run of the frame: timestamps around it (and before
// every command when profiled), the plan's barriers and every command's
// work. Initialisation and read-back are separate submissions (see
// recordInit), so synchronization validation sees the frame alone.
func (m *mode) record(cb vk.CommandBuffer, profiled bool) error {
	r := m.r
	bi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo}
	res := vk.BeginCommandBuffer(cb, &bi)
	bi.Free()
	if err := vkCheck("vkBeginCommandBuffer", res); err != nil {
		return err
	}
	vk.CmdResetQueryPool(cb, r.queries, 0, r.nq)
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, r.queries, 0)
	for i, cmd := range m.plan.Order {
		if profiled && i > 0 {
			vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, r.queries, uint32(i))
		}
		if err := m.res.RecordBarriers(cb, cmd); err != nil {
			return err
		}
		if err := m.recordWork(cb, &r.works[cmd]); err != nil {
			return fmt.Errorf("replay: command %q: %w", r.works[cmd].name, err)
		}
	}
	last := uint32(1)
	if profiled {
		last = uint32(len(m.plan.Order))
	}
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, r.queries, last)
	return vkCheck("vkEndCommandBuffer", vk.EndCommandBuffer(cb))
}

// recordInit records the submission before every run: the imported
// resources get their initial contents (in their declared initial
// layouts) and the digest lanes are zeroed.
func (r *Replayer) recordInit(cb vk.CommandBuffer) error {
	k := r.k
	bi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo}
	res := vk.BeginCommandBuffer(cb, &bi)
	bi.Free()
	if err := vkCheck("vkBeginCommandBuffer", res); err != nil {
		return err
	}
	var pre, post []vkext.ImageBarrier
	for _, o := range r.imports {
		if o.img == vk.NullImage {
			continue
		}
		im := &r.g.Resources[o.id].Image
		asp := colorOrDepth(im.Format)
		pre = append(pre, imageBarrier(o.img, asp, avk.StageAllCommands, avk.AccessMemoryWrite, avk.StageAllTransfer, avk.AccessTransferWrite, avk.LayoutUndefined, avk.LayoutTransferDstOptimal))
		if im.InitialLayout != avk.LayoutUndefined {
			post = append(post, imageBarrier(o.img, asp, avk.StageAllTransfer, avk.AccessTransferWrite, avk.StageAllCommands, avk.AccessMemoryRead|avk.AccessMemoryWrite, avk.LayoutTransferDstOptimal, im.InitialLayout))
		}
	}
	pre, post, fillStandIns := r.standInInit(pre, post) // standin.go
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite),
		DstStages: uint64(avk.StageAllTransfer), DstAccess: uint64(avk.AccessTransferWrite | avk.AccessTransferRead)}}, Image: pre})
	fillStandIns(cb)
	for _, o := range r.imports {
		res := &r.g.Resources[o.id]
		if o.buf != vk.NullBuffer {
			vk.CmdCopyBuffer(cb, r.staging.buf, o.buf, 1, []vk.BufferCopy{{Size: vk.DeviceSize(o.bytes)}})
			continue
		}
		im := &res.Image
		if im.Format.IsDepthStencil() {
			vk.CmdClearDepthStencilImage(cb, o.img, vk.ImageLayoutTransferDstOptimal, &vk.ClearDepthStencilValue{Depth: 0.5, Stencil: 7}, 1,
				[]vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(dsAspect(im.Format)), LevelCount: im.MipLevels, LayerCount: im.ArrayLayers}})
			continue
		}
		if im.Samples > 1 {
			var cv vk.ClearColorValue
			bits := (*[4]uint32)(unsafe.Pointer(&cv))
			*bits = [4]uint32{0x3e800000, 0x3f000000, 0x3f400000, 0x3e000000} // 0.25, 0.5, 0.75, 0.125 (small integers read as uint)
			vk.CmdClearColorImage(cb, o.img, vk.ImageLayoutTransferDstOptimal, &cv, 1,
				[]vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(aspectColor), LevelCount: 1, LayerCount: im.ArrayLayers}})
			continue
		}
		off := uint64(0)
		for l := uint32(0); l < im.MipLevels; l++ {
			vk.CmdCopyBufferToImage(cb, r.staging.buf, o.img, vk.ImageLayoutTransferDstOptimal, 1, []vk.BufferImageCopy{{BufferOffset: vk.DeviceSize(off),
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(aspectColor), MipLevel: l, LayerCount: im.ArrayLayers},
				ImageExtent:      mipExtent(im, l)}})
			off += copyTexels(im, l) * uint64(im.ArrayLayers) * copyBytes(im.Format)
		}
	}
	vk.CmdFillBuffer(cb, r.lanes.buf, 0, vk.DeviceSize(vk.WholeSize), 0)
	r.recordXfbInit(cb) // xfb.go
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite),
		DstStages: uint64(avk.StageAllCommands), DstAccess: uint64(avk.AccessMemoryRead | avk.AccessMemoryWrite)}}, Image: post})
	return vkCheck("vkEndCommandBuffer", vk.EndCommandBuffer(cb))
}

// recordReadback records the submission after every run: the lanes and
// every imported resource, from the layout the frame left it in, into
// the host-visible readback buffer.
func (r *Replayer) recordReadback(cb vk.CommandBuffer, order []p.CommandID) error {
	k := r.k
	bi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo}
	res := vk.BeginCommandBuffer(cb, &bi)
	bi.Free()
	if err := vkCheck("vkBeginCommandBuffer", res); err != nil {
		return err
	}
	toSrc := r.readbackBarriers(order) // importrange.go: per subresource where ranges leave several layouts
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite),
		DstStages: uint64(avk.StageAllTransfer | avk.StageHost), DstAccess: uint64(avk.AccessTransferRead | avk.AccessHostRead)}}, Image: toSrc})
	vk.CmdCopyBuffer(cb, r.lanes.buf, r.readback.buf, 1, []vk.BufferCopy{{Size: vk.DeviceSize(r.nparts * laneBytes)}})
	r.recordStandInReadback(cb) // standin.go
	for _, o := range r.imports {
		if o.buf != vk.NullBuffer {
			vk.CmdCopyBuffer(cb, o.buf, r.readback.buf, 1, []vk.BufferCopy{{DstOffset: vk.DeviceSize(o.offset), Size: vk.DeviceSize(o.bytes)}})
			continue
		}
		im := &r.g.Resources[o.id].Image
		if o.bytes == 0 {
			continue // multisampled: no copy to a buffer exists
		}
		off := o.offset
		for l := uint32(0); l < im.MipLevels; l++ {
			vk.CmdCopyImageToBuffer(cb, o.img, vk.ImageLayoutTransferSrcOptimal, r.readback.buf, 1, []vk.BufferImageCopy{{
				BufferOffset:     vk.DeviceSize(off),
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(readbackAspect(im.Format)), MipLevel: l, LayerCount: im.ArrayLayers},
				ImageExtent:      mipExtent(im, l)}})
			off += copyTexels(im, l) * uint64(im.ArrayLayers) * copyBytes(im.Format)
		}
	}
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllTransfer), SrcAccess: uint64(avk.AccessTransferWrite),
		DstStages: uint64(avk.StageHost), DstAccess: uint64(avk.AccessHostRead)}}})
	return vkCheck("vkEndCommandBuffer", vk.EndCommandBuffer(cb))
}

func colorOrDepth(f avk.Format) uint32 {
	if f.IsDepthStencil() {
		return dsAspect(f)
	}
	return aspectColor
}

func imageBarrier(img vk.Image, aspect uint32, ss avk.Stage, sa avk.AccessFlags, ds avk.Stage, da avk.AccessFlags, old, new avk.Layout) vkext.ImageBarrier {
	return vkext.ImageBarrier{Scope: vkext.Scope{SrcStages: uint64(ss), SrcAccess: uint64(sa), DstStages: uint64(ds), DstAccess: uint64(da)},
		OldLayout: uint32(old), NewLayout: uint32(new), Image: unsafe.Pointer(img), Aspect: aspect, Mips: vk.RemainingMipLevels, Layers: vk.RemainingArrayLayers}
}

// recordWork records one command's work: clears, copies, the compute
// dispatch, then the draw(s).
func (m *mode) recordWork(cb vk.CommandBuffer, w *work) (err error) {
	k, g := m.r.k, m.r.g
	defer func() { // a failure inside a transfer's recording (resolve3d.go)
		if err == nil {
			err = m.recErr
		}
		m.recErr = nil
	}()
	if end := m.beginConditional(cb, w); end != nil { // condrender.go
		defer end()
	}
	for _, op := range w.clears {
		buf, img := m.handle(op.dst)
		res := &g.Resources[op.dst]
		if res.Kind == p.KindBuffer {
			vk.CmdFillBuffer(cb, buf, 0, vk.DeviceSize(vk.WholeSize), w.seed)
			continue
		}
		rng := clearRange(res, op) // views.go
		if res.Image.Format.IsDepthStencil() {
			vk.CmdClearDepthStencilImage(cb, img, vk.ImageLayout(op.dstLyot), &vk.ClearDepthStencilValue{Depth: float32(w.seed>>8) / 16777216, Stencil: w.seed & 0xff}, 1, rng)
			continue
		}
		var cv vk.ClearColorValue
		bits := (*[4]uint32)(unsafe.Pointer(&cv))
		for i := range bits {
			if isUintFormat(res.Image.Format) {
				bits[i] = uintClearBits(res.Image.Format, hash32(w.seed+uint32(i))) // fsr.go
			} else {
				bits[i] = math.Float32bits(float32(hash32(w.seed+uint32(i))>>8) / 16777216)
			}
		}
		vk.CmdClearColorImage(cb, img, vk.ImageLayout(op.dstLyot), &cv, 1, rng)
	}
	for _, op := range w.copies {
		m.recordCopy(cb, op)
	}
	m.recordLone(cb, w)                           // lonecopy.go
	m.recordRT(cb, w)                             // raytrace.go
	if err := m.recordRayGen(cb, w); err != nil { // raygen.go
		return err
	}
	if pt := w.parts[stCompute]; pt != nil {
		pl, err := k.compPipeline(pt.masks())
		if err != nil {
			return err
		}
		vk.CmdBindPipeline(cb, vk.PipelineBindPointCompute, pl)
		vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointCompute, k.compLay, 0, 1, []vk.DescriptorSet{m.sets[w.cmd][stCompute]}, 0, nil)
		groups := (max(pt.maxCount(), 1) + 63) / 64
		gx := min(groups, 65535)
		gy := (groups + gx - 1) / gx
		vk.CmdDispatch(cb, uint32(gx), uint32(gy), 1)
		if err := m.recordMoreDispatches(cb, w); err != nil { // split.go
			return err
		}
	}
	m.recordXfb(cb, w)                         // xfb.go
	if err := m.recordFSR(cb, w); err != nil { // fsr.go
		return err
	}
	m.recordDGC(cb, w) // dgc.go
	if !w.graphics {
		return nil
	}
	for pi := range w.passes {
		ps := &w.passes[pi]
		colors := passColors(w, ps)
		loc, count, _ := colorLocations(colors)
		color := make([]vkext.Attachment, count)
		for i := range color {
			color[i] = vkext.Attachment{Layout: int32(avk.LayoutUndefined), LoadOp: int32(vk.AttachmentLoadOpDontCare), StoreOp: int32(vk.AttachmentStoreOpDontCare)}
		}
		for i, c := range ps.colors {
			a := w.colors[c.att]
			v, _ := m.attachView(a.res, c, aspectColor)
			at := vkext.Attachment{View: unsafe.Pointer(v), Layout: int32(a.layout), LoadOp: int32(vk.AttachmentLoadOpClear), StoreOp: int32(vk.AttachmentStoreOpStore)}
			if a.read && !a.clear {
				at.LoadOp = int32(vk.AttachmentLoadOpLoad)
			}
			if w.ownSubs[subKey{a.res, c.level, c.layer}] && !a.read {
				at.LoadOp = k.ownLoadOp() // selfrace.go: the fragment reads its own pixel first
			}
			if !a.write { // colorread.go: loaded, never stored
				at.LoadOp, at.StoreOp = int32(vk.AttachmentLoadOpLoad), storeOpNone
			}
			if a.resolve >= 0 {
				t := w.colors[a.resolve]
				rv, _ := m.attachView(t.res, c, aspectColor)
				at.ResolveView, at.ResolveLayout, at.ResolveMode = unsafe.Pointer(rv), int32(t.layout), resolveAverage
				if a.uint {
					at.ResolveMode = resolveSampleZero
				}
			}
			color[loc[i]] = at
		}
		var depth, stencil *vkext.Attachment
		if ps.depth.att >= 0 {
			a := w.depths[ps.depth.att]
			v, _ := m.attachView(a.res, ps.depth, dsAspect(g.Resources[a.res].Image.Format))
			at := vkext.Attachment{View: unsafe.Pointer(v), Layout: int32(a.layout), LoadOp: int32(vk.AttachmentLoadOpLoad), StoreOp: int32(vk.AttachmentStoreOpStore)}
			if !a.read || a.clear {
				at.LoadOp = int32(vk.AttachmentLoadOpClear)
				at.Clear = [4]uint32{math.Float32bits(1), 0}
			}
			if !a.write {
				at.StoreOp = storeOpNone
			}
			depth = &at
			if a.stencil {
				st := at
				if a.split || a.noDepth { // ranges.go: the stencil aspect in its own layout and modes
					st.Layout, st.LoadOp, st.StoreOp = int32(a.sLayout), int32(vk.AttachmentLoadOpLoad), int32(vk.AttachmentStoreOpStore)
					if !a.sRead || a.clear {
						st.LoadOp = int32(vk.AttachmentLoadOpClear)
					}
					if !a.sWrite {
						st.StoreOp = storeOpNone
					}
				}
				stencil = &st
			}
			if !g.Resources[a.res].Image.Format.HasDepth() || a.noDepth {
				depth = nil // stencil-only (stencil.go)
			}
		}
		k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), ps.width, ps.height, color, depth, stencil)
		vk.CmdSetViewport(cb, 0, 1, []vk.Viewport{{Width: float32(ps.width), Height: float32(ps.height), MaxDepth: 1}})
		vk.CmdSetScissor(cb, 0, 1, []vk.Rect2D{{Extent: vk.Extent2D{Width: ps.width, Height: ps.height}}})
		vk.CmdSetStencilReference(cb, vk.StencilFaceFlags(vk.StencilFrontAndBack), w.seed&0xff)
		bind := func(vattr, fullScreen bool) error {
			quiet := quietDraw(w, ps, fullScreen) // gfxwrite.go
			pl, err := k.gfxPipeline(g, w, ps, vattr, quiet, false)
			if err != nil {
				return err
			}
			vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pl)
			sets := m.sets[w.cmd]
			if quiet {
				sets = m.quiet[w.cmd]
			}
			lay := k.gfxLayFor(w) // prerast.go
			fs := sets[stFragment]
			if mixedFragQuiet(w) { // mesh.go: the mesh draw writes the fragment stage's resources
				fs = m.quiet[w.cmd][stFragment]
			}
			vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, lay, 0, 2,
				[]vk.DescriptorSet{sets[stVertex], fs}, 0, nil)
			m.bindPreRaster(cb, lay, w, quiet)
			pc := [7]uint32{ps.width, ps.width * ps.height, ps.own[0], ps.own[1], ps.own[2], ps.own[3], ps.own[4]} // own: selfrace.go
			vk.CmdPushConstants(cb, lay, vk.ShaderStageFlags(vk.ShaderStageFragmentBit), 0, 28, unsafe.Pointer(&pc[0]))
			return nil
		}
		if hasMesh(w) { // mesh.go: the full-screen draw is a mesh draw
			if err := m.drawMesh(cb, w, ps); err != nil {
				return err
			}
		}
		if !hasMesh(w) || mixedMesh(w) {
			if err := bind(false, true); err != nil {
				return err
			}
			// The full-screen draw: every pass's fragments and vertex reads.
			vk.CmdDraw(cb, w.vertices, 1, 0, 0)
		}
		if pi == 0 && len(w.indirect)+len(w.index)+len(w.vertex) > 0 {
			if quietDraw(w, ps, false) || hasMesh(w) {
				if err := bind(false, false); err != nil {
					return err
				}
			}
			// Each indirect, index and vertex buffer is read by a draw
			// of its own, once per command.
			for _, id := range w.indirect {
				buf, _ := m.handle(id)
				if k.meshIndirect(w) { // meshindirect.go
					if err := m.drawMeshIndirect(cb, w, ps, buf); err != nil {
						return err
					}
					continue
				}
				vk.CmdDrawIndirect(cb, buf, 0, 1, 16)
			}
			if k.meshIndirect(w) && len(w.indirect) > 0 && len(w.index) > 0 {
				if err := bind(false, false); err != nil {
					return err
				}
			}
			for _, id := range w.index {
				buf, _ := m.handle(id)
				vk.CmdBindIndexBuffer(cb, buf, 0, vk.IndexTypeUint32)
				vk.CmdDrawIndexed(cb, uint32(g.Resources[id].Buffer.Size/4), 1, 0, 0, 0)
			}
			if len(w.vertex) > 0 {
				if err := bind(true, false); err != nil {
					return err
				}
				for _, id := range w.vertex {
					buf, _ := m.handle(id)
					vk.CmdBindVertexBuffers(cb, 0, 1, []vk.Buffer{buf}, []vk.DeviceSize{0})
					vk.CmdDraw(cb, uint32(g.Resources[id].Buffer.Size/4), 1, 0, 0)
				}
			}
		}
		k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
	}
	return m.recordGfxMore(cb, w) // gfxsplit.go
}

// VkResolveModeFlagBits: AVERAGE for float and normalized colour
// formats, SAMPLE_ZERO for integer ones (both always supported).
const (
	resolveSampleZero = 1
	resolveAverage    = 2
)

// storeOpNone is VK_ATTACHMENT_STORE_OP_NONE (Vulkan 1.3): a read-only
// attachment is not written back, so it is no write access.
const storeOpNone = 1000301000

// loadOpNone is VK_ATTACHMENT_LOAD_OP_NONE (KHR/EXT_load_store_op_none):
// the attachment is not accessed before the pass's draws (selfrace.go).
const loadOpNone = 1000400000

func (m *mode) recordCopy(cb vk.CommandBuffer, op copyOp) {
	if rangedTransfer(&op) {
		m.recordRangedCopy(cb, op) // copyrange.go
		return
	}
	g := m.r.g
	sb, si := m.handle(op.src)
	db, di := m.handle(op.dst)
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	switch {
	case s.Kind == p.KindBuffer && d.Kind == p.KindBuffer:
		// The destination is covered whole, the source repeated.
		var regions []vk.BufferCopy
		if op.src == op.dst {
			regions = selfCopyRegion(s.Buffer.Size) // selfcopy.go
		}
		for off := uint64(0); op.src != op.dst && off < d.Buffer.Size; off += s.Buffer.Size {
			regions = append(regions, vk.BufferCopy{DstOffset: vk.DeviceSize(off), Size: vk.DeviceSize(min(s.Buffer.Size, d.Buffer.Size-off))})
		}
		vk.CmdCopyBuffer(cb, sb, db, uint32(len(regions)), regions)
	case s.Kind == p.KindImage && op.src == op.dst:
		m.recordSelfImage(cb, op) // selfimage.go
	case s.Kind == p.KindImage && d.Kind == p.KindImage && tiledPair(&s.Image, &d.Image): // extents.go
		m.recordTiled(cb, op) // extents.go
	case s.Kind == p.KindImage && d.Kind == p.KindImage:
		asp := vk.ImageAspectFlags(colorOrDepth(s.Image.Format))
		im := &s.Image
		// Every mip level, every layer (equal mip counts: tiledPair).
		switch {
		case op.resolve:
			var regions []vk.ImageResolve
			for l := uint32(0); l < im.MipLevels; l++ {
				sl := vk.ImageSubresourceLayers{AspectMask: asp, MipLevel: l, LayerCount: im.ArrayLayers}
				regions = append(regions, vk.ImageResolve{SrcSubresource: sl, DstSubresource: sl, Extent: mipExtent(im, l)})
			}
			vk.CmdResolveImage(cb, si, vk.ImageLayout(op.srcLayout), di, vk.ImageLayout(op.dstLyot), uint32(len(regions)), regions)
		case op.blit:
			var regions []vk.ImageBlit
			for l := uint32(0); l < im.MipLevels; l++ {
				sl := vk.ImageSubresourceLayers{AspectMask: asp, MipLevel: l, LayerCount: im.ArrayLayers}
				e := mipExtent(im, l)
				off := [2]vk.Offset3D{{}, {X: int32(e.Width), Y: int32(e.Height), Z: int32(e.Depth)}}
				regions = append(regions, vk.ImageBlit{SrcSubresource: sl, SrcOffsets: off, DstSubresource: sl, DstOffsets: off})
			}
			vk.CmdBlitImage(cb, si, vk.ImageLayout(op.srcLayout), di, vk.ImageLayout(op.dstLyot), uint32(len(regions)), regions, vk.FilterNearest)
		default:
			var regions []vk.ImageCopy
			for l := uint32(0); l < im.MipLevels; l++ {
				sl := vk.ImageSubresourceLayers{AspectMask: asp, MipLevel: l, LayerCount: im.ArrayLayers}
				regions = append(regions, vk.ImageCopy{SrcSubresource: sl, DstSubresource: sl, Extent: mipExtent(im, l)})
			}
			vk.CmdCopyImage(cb, si, vk.ImageLayout(op.srcLayout), di, vk.ImageLayout(op.dstLyot), uint32(len(regions)), regions)
		}
	default:
		im := &d.Image
		if s.Kind == p.KindImage {
			im = &s.Image
		}
		var regions []vk.BufferImageCopy
		off := uint64(0)
		for l := uint32(0); l < im.MipLevels; l++ {
			regions = append(regions, vk.BufferImageCopy{BufferOffset: vk.DeviceSize(off),
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(colorOrDepth(im.Format)), MipLevel: l, LayerCount: im.ArrayLayers},
				ImageExtent:      mipExtent(im, l)})
			off += copyTexels(im, l) * uint64(im.ArrayLayers) * copyBytes(im.Format)
		}
		if s.Kind == p.KindBuffer {
			vk.CmdCopyBufferToImage(cb, sb, di, vk.ImageLayout(op.dstLyot), uint32(len(regions)), regions)
		} else {
			vk.CmdCopyImageToBuffer(cb, si, vk.ImageLayout(op.srcLayout), db, uint32(len(regions)), regions)
		}
	}
}

func mipExtent(im *p.ImageDesc, l uint32) vk.Extent3D {
	return vk.Extent3D{Width: max(1, im.Width>>l), Height: max(1, im.Height>>l), Depth: max(1, im.Depth>>l)}
}
