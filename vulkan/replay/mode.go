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
	r     *Replayer
	res   *vulkan.Resources
	plan  *p.Plan
	own   bool // res is the mode's own (closed with it)
	pool  vk.DescriptorPool
	sets  [][numStages]vk.DescriptorSet
	views map[viewKey]vk.ImageView
	cbs   []vk.CommandBuffer // [timed, profiled]
}

type viewKey struct {
	res    p.ResourceID
	level  uint32
	aspect uint32
}

// bind binds plan to res (Source for the aliased run, a fresh Resources
// otherwise), hands over the imported resources, makes views and
// descriptor sets, and records the command buffers.
func (r *Replayer) bind(res *vulkan.Resources, plan *p.Plan, own bool) (*mode, error) {
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

func (m *mode) view(id p.ResourceID, level, aspect uint32) (vk.ImageView, error) {
	key := viewKey{id, level, aspect}
	if v, ok := m.views[key]; ok {
		return v, nil
	}
	res := &m.r.g.Resources[id]
	_, img := m.handle(id)
	vt := vk.ImageViewType2d
	if res.Image.Depth > 1 {
		vt = vk.ImageViewType3d
	}
	info := vk.ImageViewCreateInfo{SType: vk.StructureTypeImageViewCreateInfo, Image: img, ViewType: vt, Format: vk.Format(res.Image.Format),
		SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(aspect), BaseMipLevel: level, LevelCount: 1, LayerCount: 1}}
	var v vk.ImageView
	r := vk.CreateImageView(m.r.k.vd, &info, nil, &v)
	info.Free()
	if err := vkCheck("vkCreateImageView "+res.Name, r); err != nil {
		return vk.NullImageView, err
	}
	m.views[key] = v
	return v, nil
}

func (m *mode) prepare() error {
	r, k := m.r, m.r.k
	n := uint32(max(r.nparts, 1))
	sizes := []vk.DescriptorPoolSize{
		{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: n * 18},
		{Type: vk.DescriptorTypeUniformBuffer, DescriptorCount: n * 4},
		{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: n * 30},
		{Type: vk.DescriptorTypeStorageImage, DescriptorCount: n * 44},
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
	align := max(uint64(k.limits.MinStorageBufferOffsetAlignment), 16)
	stride := (uint64(paramsBytes) + align - 1) / align * align
	for i := range r.works {
		for st, pt := range r.works[i].parts {
			if pt == nil {
				continue
			}
			set, err := m.writeSet(pt, stage(st), stride)
			if err != nil {
				return fmt.Errorf("replay: command %q: %w", r.works[i].name, err)
			}
			m.sets[i][st] = set
		}
	}
	for i := range r.works {
		w := &r.works[i]
		for _, a := range w.colors {
			if _, err := m.view(a.res, 0, aspectColor); err != nil {
				return err
			}
		}
		for _, a := range w.depths {
			if _, err := m.view(a.res, 0, dsAspect(r.g.Resources[a.res].Image.Format)); err != nil {
				return err
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
	for i, cb := range cbs {
		if err := m.record(cb, i == 1); err != nil {
			return err
		}
	}
	return nil
}

func dsAspect(f avk.Format) uint32 {
	a := uint32(aspectDepth)
	if f.HasStencil() {
		a |= aspectStencil
	}
	return a
}

func (m *mode) writeSet(pt *part, st stage, stride uint64) (vk.DescriptorSet, error) {
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
		n := c.size(st)
		if n == 0 {
			continue
		}
		wr := vk.WriteDescriptorSet{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: cats[c].binding,
			DescriptorCount: uint32(n), DescriptorType: c.descriptorType()}
		// Unused slots get null descriptors (VK_EXT_robustness2):
		// nothing reads or writes them.
		isBuf := c == catSB || c == catUB || c == catSBW
		if isBuf {
			wr.PBufferInfo = make([]vk.DescriptorBufferInfo, n)
			for i := range wr.PBufferInfo {
				wr.PBufferInfo[i] = vk.DescriptorBufferInfo{Buffer: vk.NullBuffer, Range: vk.DeviceSize(vk.WholeSize)}
			}
		} else {
			wr.PImageInfo = make([]vk.DescriptorImageInfo, n)
			for i := range wr.PImageInfo {
				wr.PImageInfo[i] = vk.DescriptorImageInfo{Sampler: k.sampler, ImageLayout: vk.ImageLayoutGeneral}
			}
		}
		for _, s := range pt.slots {
			if s.cat != c {
				continue
			}
			buf, _ := m.handle(s.res)
			if isBuf {
				size := r.g.Resources[s.res].Buffer.Size
				wr.PBufferInfo[s.index] = vk.DescriptorBufferInfo{Buffer: buf, Range: vk.DeviceSize(size)}
				continue
			}
			v, err := m.view(s.res, s.level, s.aspect)
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
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite),
		DstStages: uint64(avk.StageAllTransfer), DstAccess: uint64(avk.AccessTransferWrite | avk.AccessTransferRead)}}, Image: pre})
	for _, o := range r.imports {
		res := &r.g.Resources[o.id]
		if o.buf != vk.NullBuffer {
			vk.CmdCopyBuffer(cb, r.staging.buf, o.buf, 1, []vk.BufferCopy{{Size: vk.DeviceSize(o.bytes)}})
			continue
		}
		im := &res.Image
		if im.Format.IsDepthStencil() {
			vk.CmdClearDepthStencilImage(cb, o.img, vk.ImageLayoutTransferDstOptimal, &vk.ClearDepthStencilValue{Depth: 0.5, Stencil: 7}, 1,
				[]vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(dsAspect(im.Format)), LevelCount: im.MipLevels, LayerCount: 1}})
			continue
		}
		for l := uint32(0); l < im.MipLevels; l++ {
			vk.CmdCopyBufferToImage(cb, r.staging.buf, o.img, vk.ImageLayoutTransferDstOptimal, 1, []vk.BufferImageCopy{{
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(aspectColor), MipLevel: l, LayerCount: 1},
				ImageExtent:      vk.Extent3D{Width: max(1, im.Width>>l), Height: max(1, im.Height>>l), Depth: max(1, im.Depth>>l)}}})
		}
	}
	vk.CmdFillBuffer(cb, r.lanes.buf, 0, vk.DeviceSize(vk.WholeSize), 0)
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
	final := r.finalLayouts(order)
	var toSrc []vkext.ImageBarrier
	for _, o := range r.imports {
		if o.img != vk.NullImage {
			im := &r.g.Resources[o.id].Image
			toSrc = append(toSrc, imageBarrier(o.img, colorOrDepth(im.Format), avk.StageAllCommands, avk.AccessMemoryWrite, avk.StageAllTransfer, avk.AccessTransferRead, final[o.id], avk.LayoutTransferSrcOptimal))
		}
	}
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite),
		DstStages: uint64(avk.StageAllTransfer | avk.StageHost), DstAccess: uint64(avk.AccessTransferRead | avk.AccessHostRead)}}, Image: toSrc})
	vk.CmdCopyBuffer(cb, r.lanes.buf, r.readback.buf, 1, []vk.BufferCopy{{Size: vk.DeviceSize(r.nparts * laneBytes)}})
	for _, o := range r.imports {
		if o.buf != vk.NullBuffer {
			vk.CmdCopyBuffer(cb, o.buf, r.readback.buf, 1, []vk.BufferCopy{{DstOffset: vk.DeviceSize(o.offset), Size: vk.DeviceSize(o.bytes)}})
			continue
		}
		im := &r.g.Resources[o.id].Image
		off := o.offset
		for l := uint32(0); l < im.MipLevels; l++ {
			vk.CmdCopyImageToBuffer(cb, o.img, vk.ImageLayoutTransferSrcOptimal, r.readback.buf, 1, []vk.BufferImageCopy{{
				BufferOffset:     vk.DeviceSize(off),
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(colorOrDepth(im.Format) &^ aspectStencil), MipLevel: l, LayerCount: 1},
				ImageExtent:      vk.Extent3D{Width: max(1, im.Width>>l), Height: max(1, im.Height>>l), Depth: max(1, im.Depth>>l)}}})
			off += texels(im, l) * copyBytes(im.Format)
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

// finalLayouts gives each imported image's layout after the frame: its
// last access's, or the one the initialisation left.
func (r *Replayer) finalLayouts(order []p.CommandID) map[p.ResourceID]avk.Layout {
	out := map[p.ResourceID]avk.Layout{}
	for _, o := range r.imports {
		if o.img == vk.NullImage {
			continue
		}
		l := r.g.Resources[o.id].Image.InitialLayout
		if l == avk.LayoutUndefined {
			l = avk.LayoutTransferDstOptimal
		}
		out[o.id] = l
	}
	for _, c := range order {
		for _, a := range r.g.Commands[c].Accesses {
			if _, ok := out[a.Resource]; ok {
				out[a.Resource] = a.Layout
			}
		}
	}
	return out
}

// recordWork records one command's work: clears, copies, the compute
// dispatch, then the draw(s).
func (m *mode) recordWork(cb vk.CommandBuffer, w *work) error {
	k, g := m.r.k, m.r.g
	for _, op := range w.clears {
		buf, img := m.handle(op.dst)
		res := &g.Resources[op.dst]
		if res.Kind == p.KindBuffer {
			vk.CmdFillBuffer(cb, buf, 0, vk.DeviceSize(vk.WholeSize), w.seed)
			continue
		}
		rng := []vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(colorOrDepth(res.Image.Format)), LevelCount: vk.RemainingMipLevels, LayerCount: 1}}
		if res.Image.Format.IsDepthStencil() {
			vk.CmdClearDepthStencilImage(cb, img, vk.ImageLayout(op.dstLyot), &vk.ClearDepthStencilValue{Depth: float32(w.seed>>8) / 16777216, Stencil: w.seed & 0xff}, 1, rng)
			continue
		}
		var cv vk.ClearColorValue
		bits := (*[4]uint32)(unsafe.Pointer(&cv))
		for i := range bits {
			if isUintFormat(res.Image.Format) {
				bits[i] = hash32(w.seed + uint32(i))
			} else {
				bits[i] = math.Float32bits(float32(hash32(w.seed+uint32(i))>>8) / 16777216)
			}
		}
		vk.CmdClearColorImage(cb, img, vk.ImageLayout(op.dstLyot), &cv, 1, rng)
	}
	for _, op := range w.copies {
		m.recordCopy(cb, op)
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
	}
	if !w.graphics {
		return nil
	}
	for pi := range w.passes {
		ps := &w.passes[pi]
		pl, key, err := k.gfxPipeline(g, w, ps)
		if err != nil {
			return err
		}
		colors := passColors(w, ps)
		loc, count, _ := colorLocations(colors)
		color := make([]vkext.Attachment, count)
		for i := range color {
			color[i] = vkext.Attachment{Layout: int32(avk.LayoutUndefined), LoadOp: int32(vk.AttachmentLoadOpDontCare), StoreOp: int32(vk.AttachmentStoreOpDontCare)}
		}
		for i, a := range colors {
			v, _ := m.view(a.res, 0, aspectColor)
			at := vkext.Attachment{View: unsafe.Pointer(v), Layout: int32(a.layout), LoadOp: int32(vk.AttachmentLoadOpClear), StoreOp: int32(vk.AttachmentStoreOpStore)}
			if a.read && !a.clear {
				at.LoadOp = int32(vk.AttachmentLoadOpLoad)
			}
			color[loc[i]] = at
		}
		var depth, stencil *vkext.Attachment
		if ps.depth >= 0 {
			a := w.depths[ps.depth]
			v, _ := m.view(a.res, 0, dsAspect(g.Resources[a.res].Image.Format))
			at := vkext.Attachment{View: unsafe.Pointer(v), Layout: int32(a.layout), LoadOp: int32(vk.AttachmentLoadOpLoad), StoreOp: int32(vk.AttachmentStoreOpStore)}
			if !a.read || a.clear {
				at.LoadOp = int32(vk.AttachmentLoadOpClear)
				at.Clear = [4]uint32{math.Float32bits(1), 0}
			}
			if !a.write {
				at.StoreOp = storeOpNone
			}
			depth = &at
			if key.stencil != dsNone {
				st := at
				stencil = &st
			}
		}
		k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), ps.width, ps.height, color, depth, stencil)
		vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pl)
		vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, k.gfxLay, 0, 2,
			[]vk.DescriptorSet{m.sets[w.cmd][stVertex], m.sets[w.cmd][stFragment]}, 0, nil)
		pc := [2]uint32{ps.width, ps.width * ps.height}
		vk.CmdPushConstants(cb, k.gfxLay, vk.ShaderStageFlags(vk.ShaderStageFragmentBit), 0, 8, unsafe.Pointer(&pc[0]))
		vk.CmdSetViewport(cb, 0, 1, []vk.Viewport{{Width: float32(ps.width), Height: float32(ps.height), MaxDepth: 1}})
		vk.CmdSetScissor(cb, 0, 1, []vk.Rect2D{{Extent: vk.Extent2D{Width: ps.width, Height: ps.height}}})
		vk.CmdSetStencilReference(cb, vk.StencilFaceFlags(vk.StencilFrontAndBack), w.seed&0xff)
		if w.vertex >= 0 {
			buf, _ := m.handle(w.vertex)
			vk.CmdBindVertexBuffers(cb, 0, 1, []vk.Buffer{buf}, []vk.DeviceSize{0})
		}
		if w.indirect >= 0 {
			buf, _ := m.handle(w.indirect)
			vk.CmdDrawIndirect(cb, buf, 0, 1, 16)
		} else {
			vk.CmdDraw(cb, w.vertices, 1, 0, 0)
		}
		k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
	}
	return nil
}

// storeOpNone is VK_ATTACHMENT_STORE_OP_NONE (Vulkan 1.3): a read-only
// attachment is not written back, so it is no write access.
const storeOpNone = 1000301000

func (m *mode) recordCopy(cb vk.CommandBuffer, op copyOp) {
	g := m.r.g
	sb, si := m.handle(op.src)
	db, di := m.handle(op.dst)
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	switch {
	case s.Kind == p.KindBuffer && d.Kind == p.KindBuffer:
		// The destination is covered whole, the source repeated.
		var regions []vk.BufferCopy
		for off := uint64(0); off < d.Buffer.Size; off += s.Buffer.Size {
			regions = append(regions, vk.BufferCopy{DstOffset: vk.DeviceSize(off), Size: vk.DeviceSize(min(s.Buffer.Size, d.Buffer.Size-off))})
		}
		vk.CmdCopyBuffer(cb, sb, db, uint32(len(regions)), regions)
	case s.Kind == p.KindImage && d.Kind == p.KindImage:
		asp := vk.ImageAspectFlags(colorOrDepth(s.Image.Format))
		vk.CmdCopyImage(cb, si, vk.ImageLayout(op.srcLayout), di, vk.ImageLayout(op.dstLyot), 1, []vk.ImageCopy{{
			SrcSubresource: vk.ImageSubresourceLayers{AspectMask: asp, LayerCount: 1},
			DstSubresource: vk.ImageSubresourceLayers{AspectMask: asp, LayerCount: 1},
			Extent:         vk.Extent3D{Width: s.Image.Width, Height: s.Image.Height, Depth: s.Image.Depth}}})
	case s.Kind == p.KindBuffer:
		vk.CmdCopyBufferToImage(cb, sb, di, vk.ImageLayout(op.dstLyot), 1, []vk.BufferImageCopy{{
			ImageSubresource: vk.ImageSubresourceLayers{AspectMask: aspectColor, LayerCount: 1},
			ImageExtent:      vk.Extent3D{Width: d.Image.Width, Height: d.Image.Height, Depth: d.Image.Depth}}})
	default:
		vk.CmdCopyImageToBuffer(cb, si, vk.ImageLayout(op.srcLayout), db, 1, []vk.BufferImageCopy{{
			ImageSubresource: vk.ImageSubresourceLayers{AspectMask: aspectColor, LayerCount: 1},
			ImageExtent:      vk.Extent3D{Width: s.Image.Width, Height: s.Image.Height, Depth: s.Image.Depth}}})
	}
}
