package replay

import (
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"

	p "github.com/aliasplan/aliasplan/planner"
)

// Lone copy sides that a buffer cannot stand in for (lonecopy.go): a
// lone side of a multisampled image (Vulkan has no buffer copies of
// them), and a lone side declared only BLIT or RESOLVE (both take two
// images). The missing side is an image of the replay's own, outside the
// graph (no hazard with the frame's resources, one per lone side):
//
//   - a lone write's stand-in source is made before every run, in the
//     initialising submission: a copy of the pattern the imported
//     resources start with (single-sampled colour images) or a clear
//     (multisampled and depth/stencil images, every sample the same), then
//     left in TRANSFER_SRC_OPTIMAL. The frame's command copies (a
//     multisampled image: vkCmdCopyImage, same format and sample count),
//     blits (BLIT: same format and extents, NEAREST) or resolves
//     (RESOLVE: a multisampled stand-in of the image's format, 4 samples
//     where the device has them) it into every mip level and layer of the
//     resource (a 3D destination slice by slice: Vulkan resolves a 3D
//     destination from srcSubresource.layerCount 1).
//   - a lone read's stand-in destination waits in TRANSFER_DST_OPTIMAL;
//     the frame's command copies, blits or resolves the resource into it,
//     and the read-back submission after the frame moves it into the
//     command's own region of the sink buffer, hashed like a digest: a
//     single-sampled stand-in by a buffer copy; a multisampled colour one
//     by vkCmdResolveImage into a single-sampled image of the replay's
//     own, then a buffer copy. The multisampled stand-in reinterprets the
//     texels as a UNORM format of the same size (a size-compatible copy),
//     so the average the resolve takes depends on every sample's bits
//     (integer formats would resolve one sample). A blit of a
//     block-compressed image lands in an RGBA16F stand-in.
//
// The work in the frame is the declared access exactly: one COPY, BLIT or
// RESOLVE transfer of the resource in its layout.

type loneVia uint8

const (
	viaBuffer  loneVia = iota // vkCmdCopyBuffer / buffer<->image copies (lonecopy.go)
	viaCopy                   // vkCmdCopyImage with a multisampled stand-in
	viaBlit                   // vkCmdBlitImage
	viaResolve                // vkCmdResolveImage
)

func (v loneVia) String() string {
	return [...]string{"copy", "copy", "blit", "resolve"}[v]
}

// standIn is the replay's image standing in for a lone side's other
// side; hash is a multisampled read stand-in's resolve target.
type standIn struct {
	desc, hashDesc p.ImageDesc
	img, hash      vkg.Image
	views          [][2]vkg.ImageView // a depth/stencil read's: stand-in and hash views per layer (the resolve's attachments)
	fill           bool               // a write stand-in filled from the pattern buffer (else cleared)
	off            uint64
}

// addStandIn classifies a lone side of image r that needs a stand-in
// image (via), or says why it has none.
func addStandIn(r *p.Resource, st vk.Stage, read bool) (loneVia, string) {
	im := &r.Image
	copyish := st&(vk.StageCopy|vk.StageAllTransfer) != 0
	switch {
	case copyish && im.Samples == 1:
		return viaBuffer, ""
	case copyish:
		return viaCopy, ""
	case st&vk.StageBlit != 0:
		if im.Samples > 1 {
			return 0, "vkCmdBlitImage needs a single-sampled image (Vulkan); declare RESOLVE or COPY for a multisampled one"
		}
		if bw, bh := im.Format.BlockExtent(); (bw != 1 || bh != 1) && !read {
			return 0, fmt.Sprintf("a blit into block-compressed %s: vkCmdBlitImage writes texels, and Vulkan gives block-compressed formats no BLIT_DST support (VUID-vkCmdBlitImage-dstImage-02000)", im.Format)
		}
		return viaBlit, ""
	case st&vk.StageResolve != 0:
		switch {
		case im.Format.IsDepthStencil():
			return 0, "vkCmdResolveImage resolves colour images only (Vulkan: the COLOR aspect); depth/stencil resolves happen in a render pass (declare a resolve attachment)"
		case read && im.Samples == 1:
			return 0, "a resolve source must be multisampled (Vulkan)"
		case !read && im.Samples > 1:
			return 0, "a resolve destination must be single-sampled (Vulkan)"
		}
		if bw, bh := im.Format.BlockExtent(); bw != 1 || bh != 1 {
			return 0, fmt.Sprintf("a resolve of block-compressed %s: Vulkan resolves only formats with COLOR_ATTACHMENT support, which block-compressed formats never have", im.Format)
		}
		return viaResolve, ""
	}
	return 0, "a copy side without its other side needs COPY, ALL_TRANSFER, BLIT or RESOLVE"
}

// unormOfSize is a UNORM colour format of b bytes per texel, or
// UNDEFINED.
func unormOfSize(b uint64) vk.Format {
	switch b {
	case 1:
		return vk.FormatR8Unorm
	case 2:
		return vk.FormatR8G8Unorm
	case 4:
		return vk.FormatR8G8B8A8Unorm
	case 8:
		return vk.FormatR16G16B16A16Unorm
	}
	return vk.FormatUndefined
}

// msSamples is the sample counts the device has for multisampled colour
// (or depth/stencil) images of format f used for transfers.
func (k *kit) msSamples(f vk.Format) uint32 {
	usage := vkg.ImageUsageFlags(vkg.ImageUsageTransferSrcBit | vkg.ImageUsageTransferDstBit | vkg.ImageUsageColorAttachmentBit)
	if f.IsDepthStencil() {
		usage = vkg.ImageUsageFlags(vkg.ImageUsageTransferSrcBit | vkg.ImageUsageTransferDstBit | vkg.ImageUsageDepthStencilAttachmentBit)
	}
	var ip vkg.ImageFormatProperties
	if vkg.GetPhysicalDeviceImageFormatProperties(k.dev.Physical(), vkg.Format(f), vkg.ImageType2d, vkg.ImageTilingOptimal, usage, 0, &ip) != vkg.Success {
		return 0
	}
	ip.Deref()
	return uint32(ip.SampleCounts)
}

// standInUsage is the usage of a stand-in image of d.
func standInUsage(d *p.ImageDesc) vkg.ImageUsageFlags {
	u := vkg.ImageUsageFlags(vkg.ImageUsageTransferSrcBit | vkg.ImageUsageTransferDstBit)
	switch {
	case d.Format.IsDepthStencil():
		u |= vkg.ImageUsageFlags(vkg.ImageUsageDepthStencilAttachmentBit) // a multisampled read is resolved in a render pass
	case d.Samples > 1:
		u |= vkg.ImageUsageFlags(vkg.ImageUsageColorAttachmentBit)
	}
	return u
}

// standInView is a 2D view of one layer of a stand-in (all its aspects).
func (k *kit) standInView(img vkg.Image, d *p.ImageDesc, layer uint32) (vkg.ImageView, error) {
	info := vkg.ImageViewCreateInfo{SType: vkg.StructureTypeImageViewCreateInfo, Image: img, ViewType: vkg.ImageViewType2d, Format: vkg.Format(d.Format),
		SubresourceRange: vkg.ImageSubresourceRange{AspectMask: vkg.ImageAspectFlags(colorOrDepth(d.Format)), LevelCount: 1, BaseArrayLayer: layer, LayerCount: 1}}
	var v vkg.ImageView
	r := vkg.CreateImageView(k.vd, &info, nil, &v)
	info.Free()
	if err := vkCheck("vkCreateImageView (stand-in)", r); err != nil {
		return vkg.NullImageView, err
	}
	k.views = append(k.views, v)
	return v, nil
}

// loneDevice chooses every stand-in's format and sample count, querying
// the device, and refuses what it cannot do naming the format.
func (k *kit) loneDevice(g *p.Graph, ws []work) error {
	for i := range ws {
		w := &ws[i]
		for j := range w.lone {
			op := &w.lone[j]
			res := &g.Resources[op.res]
			bad := func(format string, args ...any) error {
				cmd := &g.Commands[w.cmd]
				return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, op.res)), Reason: fmt.Sprintf(format, args...)}
			}
			if res.Kind == p.KindImage {
				if err := k.blockTransferSupport(res.Image.Format, op.read, bad); err != nil { // blocks.go
					return err
				}
			}
			if op.via == viaBuffer {
				continue
			}
			im := res.Image
			sd := im
			sd.InitialLayout = vk.LayoutUndefined
			var hd p.ImageDesc
			switch op.via {
			case viaCopy:
				if k.msSamples(im.Format)&im.Samples == 0 {
					return bad("%s has no %d-sample %s images with attachment usage (queried), which the lone side's stand-in needs", k.dev.Info().Name, im.Samples, im.Format)
				}
				if op.read {
					if f := unormOfSize(im.Format.BytesPerBlock()); !im.Format.IsDepthStencil() && f != vk.FormatUndefined && k.msSamples(f)&im.Samples != 0 {
						sd.Format = f
					}
					hd = sd
					hd.Samples = 1
				}
			case viaBlit:
				if bw, bh := im.Format.BlockExtent(); bw != 1 || bh != 1 {
					sd.Format = vk.FormatR16G16B16A16Sfloat
				}
				own, other, what := vkg.FormatFeatureBlitDstBit, vkg.FormatFeatureBlitSrcBit, "blit-destination"
				if op.read {
					own, other, what = other, own, "blit-source"
				}
				if k.optimalFeatures(im.Format)&vkg.FormatFeatureFlags(own) == 0 {
					return bad("%s has no %s support for format %s with optimal tiling (queried)", k.dev.Info().Name, what, im.Format)
				}
				if k.optimalFeatures(sd.Format)&vkg.FormatFeatureFlags(other) == 0 {
					return bad("%s has no blit support for the stand-in format %s (queried)", k.dev.Info().Name, sd.Format)
				}
			case viaResolve:
				if op.read {
					sd.Samples = 1
					break
				}
				if k.optimalFeatures(im.Format)&vkg.FormatFeatureFlags(vkg.FormatFeatureColorAttachmentBit) == 0 {
					return bad("%s has no colour-attachment support for format %s, which a resolve destination needs (VUID-vkCmdResolveImage-dstImage-02003; queried)", k.dev.Info().Name, im.Format)
				}
				counts := k.msSamples(im.Format)
				sd.Samples = 0
				for _, s := range []uint32{4, 2, 8, 16, 32, 64} {
					if counts&s != 0 {
						sd.Samples = s
						break
					}
				}
				if sd.Samples == 0 {
					return bad("%s has no multisampled %s images (queried): a lone resolve destination needs a multisampled stand-in source", k.dev.Info().Name, im.Format)
				}
				sd.MipLevels, sd.Depth = 1, 1
				if im.Depth > 1 {
					sd.ArrayLayers = 1
				}
			}
			op.sdesc, op.hdesc = sd, hd
		}
	}
	return nil
}

func (k *kit) optimalFeatures(f vk.Format) vkg.FormatFeatureFlags {
	var fp vkg.FormatProperties
	vkg.GetPhysicalDeviceFormatProperties(k.dev.Physical(), vkg.Format(f), &fp)
	fp.Deref()
	return fp.OptimalTilingFeatures
}

// setupStandIn makes op's stand-in images; a read's region of the sink
// starts at *sink.
func (r *Replayer) setupStandIn(op *loneOp, src, sink *uint64) error {
	s := standIn{desc: op.sdesc, hashDesc: op.hdesc}
	img, err := r.k.newImage(&s.desc, standInUsage(&s.desc))
	if err != nil {
		return err
	}
	s.img = img.img
	if op.read {
		h := &s.desc
		if op.hdesc.Format != vk.FormatUndefined {
			hi, err := r.k.newImage(&s.hashDesc, standInUsage(&s.hashDesc))
			if err != nil {
				return err
			}
			s.hash, h = hi.img, &s.hashDesc
			for l := uint32(0); s.desc.Format.IsDepthStencil() && l < s.desc.ArrayLayers; l++ {
				a, err := r.k.standInView(s.img, &s.desc, l)
				if err != nil {
					return err
				}
				b, err := r.k.standInView(s.hash, &s.hashDesc, l)
				if err != nil {
					return err
				}
				s.views = append(s.views, [2]vkg.ImageView{a, b})
			}
		}
		n := copyBufferBytes(h)
		if m := stencilBytes(h); m > 0 {
			n = (n+15)&^15 + m
		}
		a := lcm16(h.Format.BytesPerBlock())
		s.off = (*sink + a - 1) / a * a
		*sink = s.off + n
		r.lone.regions = append(r.lone.regions, loneRegion{s.off, n})
	} else if !s.desc.Format.IsDepthStencil() && s.desc.Samples == 1 {
		s.fill = true
		*src = max(*src, copyBufferBytes(&s.desc))
	}
	op.stand = len(r.lone.stands)
	r.lone.stands = append(r.lone.stands, s)
	return nil
}

// standInInit adds the stand-ins' barriers to the initialising
// submission's (pre: to TRANSFER_DST, post: write stand-ins on to
// TRANSFER_SRC) and returns the function that records their fills.
func (r *Replayer) standInInit(pre, post []vkext.ImageBarrier) ([]vkext.ImageBarrier, []vkext.ImageBarrier, func(vkg.CommandBuffer)) {
	var writes []*standIn
	for i := range r.works {
		for _, op := range r.works[i].lone {
			if op.via == viaBuffer {
				continue
			}
			s := &r.lone.stands[op.stand]
			asp := colorOrDepth(s.desc.Format)
			pre = append(pre, imageBarrier(s.img, asp, vk.StageAllCommands, vk.AccessMemoryWrite|vk.AccessMemoryRead, vk.StageAllTransfer, vk.AccessTransferWrite,
				vk.LayoutUndefined, vk.LayoutTransferDstOptimal))
			if !op.read {
				post = append(post, imageBarrier(s.img, asp, vk.StageAllTransfer, vk.AccessTransferWrite, vk.StageAllCommands, vk.AccessMemoryRead,
					vk.LayoutTransferDstOptimal, vk.LayoutTransferSrcOptimal))
				writes = append(writes, s)
			}
		}
	}
	return pre, post, func(cb vkg.CommandBuffer) {
		for _, s := range writes {
			r.fillStandIn(cb, s)
		}
	}
}

// fillStandIn gives a write stand-in its contents (in TRANSFER_DST).
func (r *Replayer) fillStandIn(cb vkg.CommandBuffer, s *standIn) {
	d := &s.desc
	rng := []vkg.ImageSubresourceRange{{AspectMask: vkg.ImageAspectFlags(colorOrDepth(d.Format)), LevelCount: d.MipLevels, LayerCount: d.ArrayLayers}}
	switch {
	case s.fill:
		var regions []vkg.BufferImageCopy
		off := uint64(0)
		for l := uint32(0); l < d.MipLevels; l++ {
			regions = append(regions, vkg.BufferImageCopy{BufferOffset: vkg.DeviceSize(off),
				ImageSubresource: vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(aspectColor), MipLevel: l, LayerCount: d.ArrayLayers},
				ImageExtent:      mipExtent(d, l)})
			off += copyTexels(d, l) * uint64(d.ArrayLayers) * copyBytes(d.Format)
		}
		vkg.CmdCopyBufferToImage(cb, r.lone.src.buf, s.img, vkg.ImageLayoutTransferDstOptimal, uint32(len(regions)), regions)
	case d.Format.IsDepthStencil():
		vkg.CmdClearDepthStencilImage(cb, s.img, vkg.ImageLayoutTransferDstOptimal, &vkg.ClearDepthStencilValue{Depth: 0.375, Stencil: 5}, 1, rng)
	default:
		var cv vkg.ClearColorValue
		bits := (*[4]uint32)(unsafe.Pointer(&cv))
		*bits = [4]uint32{0x3e800000, 0x3f000000, 0x3f400000, 0x3e000000} // as imported multisampled images (mode.go)
		vkg.CmdClearColorImage(cb, s.img, vkg.ImageLayoutTransferDstOptimal, &cv, 1, rng)
	}
}

// recordStandIn records lone side op of the frame: the transfer between
// the resource and its stand-in.
func (m *mode) recordStandIn(cb vkg.CommandBuffer, op loneOp) {
	r := m.r
	s := &r.lone.stands[op.stand]
	_, img := m.handle(op.res)
	im := &r.g.Resources[op.res].Image
	src, sl, dst, dl := s.img, vkg.ImageLayoutTransferSrcOptimal, img, vkg.ImageLayout(op.layout)
	if op.read {
		src, sl, dst, dl = img, vkg.ImageLayout(op.layout), s.img, vkg.ImageLayoutTransferDstOptimal
	}
	asp := vkg.ImageAspectFlags(colorOrDepth(im.Format))
	all := func(l uint32) vkg.ImageSubresourceLayers {
		return vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: l, LayerCount: im.ArrayLayers}
	}
	switch op.via {
	case viaCopy:
		var regions []vkg.ImageCopy
		for l := uint32(0); l < im.MipLevels; l++ {
			regions = append(regions, vkg.ImageCopy{SrcSubresource: all(l), DstSubresource: all(l), Extent: mipExtent(im, l)})
		}
		vkg.CmdCopyImage(cb, src, sl, dst, dl, uint32(len(regions)), regions)
	case viaBlit:
		var regions []vkg.ImageBlit
		for l := uint32(0); l < im.MipLevels; l++ {
			e := mipExtent(im, l)
			off := [2]vkg.Offset3D{{}, {X: int32(e.Width), Y: int32(e.Height), Z: int32(e.Depth)}}
			regions = append(regions, vkg.ImageBlit{SrcSubresource: all(l), SrcOffsets: off, DstSubresource: all(l), DstOffsets: off})
		}
		vkg.CmdBlitImage(cb, src, sl, dst, dl, uint32(len(regions)), regions, vkg.FilterNearest)
	case viaResolve:
		regions := loneResolveRegions(im, op.read)
		m.cmdResolve(cb, src, sl, dst, dl, regions, im.Format, !op.read && im.Depth > 1) // resolve3d.go
	}
}

// loneResolveRegions: a lone resolve read resolves the image's one level
// and every layer into the stand-in; a lone resolve write resolves the
// stand-in's level 0 (the image's layers, or one layer for a 3D image)
// into every level of the image, a 3D level slice by slice.
func loneResolveRegions(im *p.ImageDesc, read bool) []vkg.ImageResolve {
	c := vkg.ImageAspectFlags(aspectColor)
	if read {
		sl := vkg.ImageSubresourceLayers{AspectMask: c, LayerCount: im.ArrayLayers}
		return []vkg.ImageResolve{{SrcSubresource: sl, DstSubresource: sl, Extent: mipExtent(im, 0)}}
	}
	var out []vkg.ImageResolve
	for l := uint32(0); l < im.MipLevels; l++ {
		e := mipExtent(im, l)
		if im.Depth == 1 {
			sl := vkg.ImageSubresourceLayers{AspectMask: c, LayerCount: im.ArrayLayers}
			dl := sl
			dl.MipLevel = l
			out = append(out, vkg.ImageResolve{SrcSubresource: sl, DstSubresource: dl, Extent: e})
			continue
		}
		for z := uint32(0); z < e.Depth; z++ {
			out = append(out, vkg.ImageResolve{SrcSubresource: vkg.ImageSubresourceLayers{AspectMask: c, LayerCount: 1},
				DstSubresource: vkg.ImageSubresourceLayers{AspectMask: c, MipLevel: l, LayerCount: 1},
				DstOffset:      vkg.Offset3D{Z: int32(z)}, Extent: vkg.Extent3D{Width: e.Width, Height: e.Height, Depth: 1}})
		}
	}
	return out
}

// recordStandInReadback records, in the read-back submission, every lone
// read stand-in's move into its region of the sink (a multisampled one
// resolved first).
func (r *Replayer) recordStandInReadback(cb vkg.CommandBuffer) {
	var pre, mid []vkext.ImageBarrier
	var reads []*standIn
	for i := range r.works {
		for _, op := range r.works[i].lone {
			if op.via == viaBuffer || !op.read {
				continue
			}
			s := &r.lone.stands[op.stand]
			asp := colorOrDepth(s.desc.Format)
			switch {
			case len(s.views) > 0: // depth/stencil: resolved in a render pass
				att := vk.LayoutDepthStencilAttachmentOptimal
				pre = append(pre, imageBarrier(s.img, asp, vk.StageAllTransfer, vk.AccessTransferWrite, vk.StageAllCommands, vk.AccessMemoryRead|vk.AccessMemoryWrite,
					vk.LayoutTransferDstOptimal, att),
					imageBarrier(s.hash, asp, vk.StageAllCommands, vk.AccessMemoryRead, vk.StageAllCommands, vk.AccessMemoryRead|vk.AccessMemoryWrite,
						vk.LayoutUndefined, att))
				mid = append(mid, imageBarrier(s.hash, asp, vk.StageAllCommands, vk.AccessMemoryWrite, vk.StageAllTransfer, vk.AccessTransferRead,
					att, vk.LayoutTransferSrcOptimal))
			default:
				pre = append(pre, imageBarrier(s.img, asp, vk.StageAllTransfer, vk.AccessTransferWrite, vk.StageAllTransfer, vk.AccessTransferRead,
					vk.LayoutTransferDstOptimal, vk.LayoutTransferSrcOptimal))
				if s.hash != vkg.NullImage {
					pre = append(pre, imageBarrier(s.hash, aspectColor, vk.StageAllTransfer, vk.AccessTransferRead, vk.StageAllTransfer, vk.AccessTransferWrite,
						vk.LayoutUndefined, vk.LayoutTransferDstOptimal))
					mid = append(mid, imageBarrier(s.hash, aspectColor, vk.StageAllTransfer, vk.AccessTransferWrite, vk.StageAllTransfer, vk.AccessTransferRead,
						vk.LayoutTransferDstOptimal, vk.LayoutTransferSrcOptimal))
				}
			}
			reads = append(reads, s)
		}
	}
	if len(reads) == 0 {
		return
	}
	r.k.hooks.Barrier(cb, &vkext.Barriers{Image: pre})
	for _, s := range reads {
		if len(s.views) > 0 {
			r.resolveDepthStandIn(cb, s)
			continue
		}
		if s.hash == vkg.NullImage {
			continue
		}
		sl := vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(aspectColor), LayerCount: s.desc.ArrayLayers}
		vkg.CmdResolveImage(cb, s.img, vkg.ImageLayoutTransferSrcOptimal, s.hash, vkg.ImageLayoutTransferDstOptimal, 1,
			[]vkg.ImageResolve{{SrcSubresource: sl, DstSubresource: sl, Extent: mipExtent(&s.desc, 0)}})
	}
	if len(mid) > 0 {
		r.k.hooks.Barrier(cb, &vkext.Barriers{Image: mid})
	}
	for _, s := range reads {
		img, d := s.img, &s.desc
		if s.hash != vkg.NullImage {
			img, d = s.hash, &s.hashDesc
		}
		regions := imageSinkRegions(d, s.off)
		vkg.CmdCopyImageToBuffer(cb, img, vkg.ImageLayoutTransferSrcOptimal, r.lone.sink.buf, uint32(len(regions)), regions)
	}
}

// imageSinkRegions are the regions of a copy of every level, layer and
// aspect of an image of im into a buffer from off (each aspect's levels
// tightly packed, the stencil aspect's from the next 16 bytes).
func imageSinkRegions(im *p.ImageDesc, off uint64) []vkg.BufferImageCopy {
	var regions []vkg.BufferImageCopy
	aspects := []uint32{colorOrDepth(im.Format)}
	if im.Format.HasDepth() && im.Format.HasStencil() {
		aspects = []uint32{aspectDepth, aspectStencil}
	}
	for _, asp := range aspects {
		bpt := copyBytes(im.Format)
		if asp == aspectStencil {
			bpt = 1
		}
		o := off
		for l := uint32(0); l < im.MipLevels; l++ {
			regions = append(regions, vkg.BufferImageCopy{BufferOffset: vkg.DeviceSize(o),
				ImageSubresource: vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(asp), MipLevel: l, LayerCount: im.ArrayLayers},
				ImageExtent:      mipExtent(im, l)})
			o += copyTexels(im, l) * uint64(im.ArrayLayers) * bpt
		}
		off = (o + 15) &^ 15
	}
	return regions
}

// resolveModeSampleZero is VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, the one
// depth/stencil resolve mode every device has.
const resolveModeSampleZero = 1

// resolveDepthStandIn resolves a multisampled depth/stencil stand-in into
// its single-sampled hash image, layer by layer, in a render pass with no
// draws (vkCmdResolveImage takes colour images only): sample 0 of each
// texel, both aspects of a combined format.
func (r *Replayer) resolveDepthStandIn(cb vkg.CommandBuffer, s *standIn) {
	f := s.desc.Format
	lay := int32(vk.LayoutDepthStencilAttachmentOptimal)
	for _, v := range s.views {
		a := &vkext.Attachment{View: unsafe.Pointer(v[0]), Layout: lay, LoadOp: int32(vkg.AttachmentLoadOpLoad), StoreOp: storeOpNone,
			ResolveView: unsafe.Pointer(v[1]), ResolveLayout: lay, ResolveMode: resolveModeSampleZero}
		var depth, stencil *vkext.Attachment
		if f.HasDepth() {
			depth = a
		}
		if f.HasStencil() {
			stencil = a
		}
		r.k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), s.desc.Width, s.desc.Height, nil, depth, stencil)
		r.k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
	}
}
