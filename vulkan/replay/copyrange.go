package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// Per-range transfers (issue 23, item 6): a copy, blit or resolve whose
// source or destination access names a subresource range moves exactly
// that range: level i of the destination range takes level
// min(i, source levels - 1) of the source range, the ranges' layers and
// aspects. Where the levels' extents (or the ranges' level or layer
// counts, or the image types) differ the source is tiled over the
// destination as for whole images (extents.go), 3D images and copies
// between a 2D range's layers and a 3D image's depth included. One image
// may be both sides when the ranges are disjoint (a mip chain made by
// vkCmdBlitImage: mip i into mip i+1). Blits scale between the levels'
// extents, with a LINEAR filter where the source format supports one
// (VkFormatProperties' SAMPLED_IMAGE_FILTER_LINEAR; NEAREST, always
// valid, elsewhere); a buffer side holds the range's texels exactly,
// tightly packed level by level (one aspect of a depth/stencil image; a
// 3D level's every slice). Whole-image transfers keep copyCompatible and
// recordCopy's own path.

// rangedTransfer says whether op names a range on either side.
func rangedTransfer(op *copyOp) bool { return op.srcSpan.mips != 0 || op.dstSpan.mips != 0 }

// sideSpan is the span one side of a transfer covers: its access's range,
// or the whole image.
func sideSpan(g *p.Graph, id p.ResourceID, s span) span {
	if s.mips == 0 {
		return accessSpan(&g.Resources[id].Image, &p.Access{})
	}
	return s
}

// spanBytes is the bytes a tightly packed buffer copy of span s of im
// holds (aspect: the one aspect copied).
func spanBytes(im *p.ImageDesc, s span, aspect uint32) uint64 {
	per := copyBytes(im.Format)
	if aspect == aspectStencil {
		per = 1
	}
	var n uint64
	for l := s.mip0; l < s.mip0+s.mips; l++ {
		n += copyTexels(im, l) * uint64(s.layers) * per
	}
	return n
}

// copyAspect is the aspect a buffer/image copy of span s moves, or why it
// has none.
func copyAspect(im *p.ImageDesc, s span) (uint32, string) {
	asp := colorOrDepth(im.Format) & s.aspects
	if asp != aspectColor && asp != aspectDepth && asp != aspectStencil {
		return 0, "a buffer/image copy moves one aspect: name DEPTH or STENCIL in the range (aspects) of a combined depth/stencil image"
	}
	return asp, ""
}

// rangedCopyCompatible is copyCompatible for a transfer with a range.
func rangedCopyCompatible(g *p.Graph, op *copyOp) string {
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	if s.Kind == p.KindImage && d.Kind == p.KindImage {
		si, di := &s.Image, &d.Image
		ss, ds := sideSpan(g, op.src, op.srcSpan), sideSpan(g, op.dst, op.dstSpan)
		src, dst := tsideOf(g, op.src, op.srcSpan), tsideOf(g, op.dst, op.dstSpan) // extents.go
		if colorOrDepth(si.Format)&ss.aspects != colorOrDepth(di.Format)&ds.aspects {
			return fmt.Sprintf("the ranges name different aspects (%s: %d, %s: %d)", s.Name, ss.aspects, d.Name, ds.aspects)
		}
		if op.src == op.dst && ss.mip0 < ds.mip0+ds.mips && ds.mip0 < ss.mip0+ss.mips && ss.layer0 < ds.layer0+ds.layers && ds.layer0 < ss.layer0+ss.layers {
			return "a transfer within one image needs disjoint source and destination ranges (Vulkan)"
		}
		// Equal extents level by level (and as many levels and layers):
		// one region per level; else the source tiles over the
		// destination (extents.go).
		sameExtents := ss.mips == ds.mips && src.is3D == dst.is3D && !isMixed(si, di) // blocks.go: another grid
		for i := uint32(0); sameExtents && i < ds.mips; i++ {
			sameExtents = src.ext(i) == dst.ext(i)
		}
		if !sameExtents {
			if why := tiledCopyProblem(s, d, op, src, dst); why != "" {
				return why
			}
		}
		if si.Samples > 1 && di.Samples == 1 {
			switch {
			case !op.resolve:
				return fmt.Sprintf("a copy from the multisampled %s to a single-sampled image is a resolve: declare the RESOLVE stage (vkCmdResolveImage)", s.Name)
			case si.Format != di.Format || si.Format.IsDepthStencil():
				return fmt.Sprintf("vkCmdResolveImage needs one colour format on both sides (%s, %s)", si.Format, di.Format)
			}
			return ""
		}
		op.resolve = false
		if op.blit {
			if si.Samples > 1 || di.Samples > 1 || si.Format.IsDepthStencil() != di.Format.IsDepthStencil() || si.Format.IsDepthStencil() && si.Format != di.Format {
				return "vkCmdBlitImage needs single-sampled images (and one depth/stencil format)"
			}
			if si.Format.IsDepthStencil() && !sameExtents {
				return "a blit of a depth/stencil image needs equal extents (Vulkan: NEAREST, no scaling of depth)"
			}
			return ""
		}
		if why := blockPairProblem(op, si, di); why != "" { // blocks.go
			return why
		}
		switch {
		case si.Samples != di.Samples:
			return fmt.Sprintf("a copy between images of %d and %d samples (Vulkan copies keep the sample count)", si.Samples, di.Samples)
		case si.Format.BytesPerBlock() != di.Format.BytesPerBlock() || si.Format.IsDepthStencil() != di.Format.IsDepthStencil() || si.Format.IsDepthStencil() && si.Format != di.Format:
			return fmt.Sprintf("copy from %s (%s) needs a format of the same size class, not %s (Vulkan)", s.Name, si.Format, di.Format)
		}
		return ""
	}
	if op.blit {
		return "a blit needs images"
	}
	op.resolve = false
	id, sp, bufSize := op.src, op.srcSpan, d.Buffer.Size
	if s.Kind == p.KindBuffer {
		id, sp, bufSize = op.dst, op.dstSpan, s.Buffer.Size
	}
	im := &g.Resources[id].Image
	sp = sideSpan(g, id, sp)
	if im.Samples > 1 {
		return "buffer/image copies of multisampled images do not exist in Vulkan"
	}
	asp, why := copyAspect(im, sp)
	if why != "" {
		return why
	}
	if n := spanBytes(im, sp, asp); n != bufSize {
		return fmt.Sprintf("a buffer/image copy of a range needs the buffer to hold the range exactly (%d bytes, not %d)", n, bufSize)
	}
	return ""
}

// recordRangedCopy records a transfer with a range (rangedCopyCompatible
// accepted it).
func (m *mode) recordRangedCopy(cb vkg.CommandBuffer, op copyOp) {
	g := m.r.g
	sb, si := m.handle(op.src)
	db, di := m.handle(op.dst)
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	layers := func(im *p.ImageDesc, sp span, level uint32, asp uint32) vkg.ImageSubresourceLayers {
		return vkg.ImageSubresourceLayers{AspectMask: vkg.ImageAspectFlags(asp), MipLevel: level, BaseArrayLayer: sp.layer0, LayerCount: sp.layers}
	}
	if s.Kind == p.KindImage && d.Kind == p.KindImage {
		// One region per level pair where the extents agree, the source
		// tiled over the destination where not (extents.go).
		ss := sideSpan(g, op.src, op.srcSpan)
		filter := vkg.FilterNearest
		if op.linear {
			filter = vkg.FilterLinear
		}
		m.recordTiles(cb, op, tsideOf(g, op.src, op.srcSpan), tsideOf(g, op.dst, op.dstSpan), colorOrDepth(s.Image.Format)&ss.aspects, filter)
		return
	}
	id, sp := op.src, op.srcSpan
	if s.Kind == p.KindBuffer {
		id, sp = op.dst, op.dstSpan
	}
	im := &g.Resources[id].Image
	sp = sideSpan(g, id, sp)
	asp, _ := copyAspect(im, sp)
	per := copyBytes(im.Format)
	if asp == aspectStencil {
		per = 1
	}
	var regions []vkg.BufferImageCopy
	off := uint64(0)
	for l := sp.mip0; l < sp.mip0+sp.mips; l++ {
		regions = append(regions, vkg.BufferImageCopy{BufferOffset: vkg.DeviceSize(off), ImageSubresource: layers(im, sp, l, asp), ImageExtent: mipExtent(im, l)})
		off += copyTexels(im, l) * uint64(sp.layers) * per
	}
	if s.Kind == p.KindBuffer {
		vkg.CmdCopyBufferToImage(cb, sb, di, vkg.ImageLayout(op.dstLyot), uint32(len(regions)), regions)
	} else {
		vkg.CmdCopyImageToBuffer(cb, si, vkg.ImageLayout(op.srcLayout), db, uint32(len(regions)), regions)
	}
}

// blitFilters picks each blit's filter: LINEAR when it scales and the
// source format supports linear filtering with optimal tiling (not depth,
// stencil or integer formats), NEAREST otherwise.
func (k *kit) blitFilters(g *p.Graph, ws []work) {
	for i := range ws {
		for j := range ws[i].copies {
			op := &ws[i].copies[j]
			if !op.blit || !rangedTransfer(op) || g.Resources[op.src].Kind != p.KindImage {
				continue
			}
			si := &g.Resources[op.src].Image
			scales := false
			for _, t := range tiles(tsideOf(g, op.src, op.srcSpan), tsideOf(g, op.dst, op.dstSpan), true) { // extents.go
				scales = scales || t.sext != t.dext
			}
			if !scales || si.Format.IsDepthStencil() || isUintFormat(si.Format) {
				continue
			}
			var fp vkg.FormatProperties
			vkg.GetPhysicalDeviceFormatProperties(k.dev.Physical(), vkg.Format(si.Format), &fp)
			fp.Deref()
			op.linear = fp.OptimalTilingFeatures&vkg.FormatFeatureFlags(vkg.FormatFeatureSampledImageFilterLinearBit) != 0
		}
	}
}
