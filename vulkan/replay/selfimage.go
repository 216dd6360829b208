package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// A transfer that reads and writes one image (TRANSFER_READ and
// TRANSFER_WRITE in one use) is replayed as vkCmdCopyImage (COPY or
// ALL_TRANSFER) or vkCmdBlitImage (BLIT) from one half of every
// subresource to the other, as the buffer case copies its first half to
// its second: per mip level the first dimension of at least 2 texels
// (width, height, then the layers, then a 3D image's depth) is halved,
// and the first half is copied onto the second. Vulkan requires the
// regions to be disjoint and the one layout to be GENERAL or
// SHARED_PRESENT (a copy's source and destination layouts are both the
// access's). A mip level of one texel and one layer has no two disjoint
// regions and is left alone; an image with no other level is refused
// naming that rule.

// addSelfImage adds the self-copy of image r, or says why it has none.
func addSelfImage(w *work, r *p.Resource, a *p.Access, st vk.Stage) string {
	im := &r.Image
	copyish := st&(vk.StageCopy|vk.StageAllTransfer) != 0
	blit := !copyish && st&vk.StageBlit != 0
	switch {
	case !copyish && !blit:
		return "an image read and written by one transfer is a copy or a blit (vkCmdCopyImage, vkCmdBlitImage): declare COPY, BLIT or ALL_TRANSFER (a resolve needs two sample counts)"
	case im.Usage&(vk.ImageUsageTransferSrc|vk.ImageUsageTransferDst) != vk.ImageUsageTransferSrc|vk.ImageUsageTransferDst && !r.Imported:
		return "an image copied onto itself needs TRANSFER_SRC and TRANSFER_DST usage (Vulkan)"
	case a.Layout != vk.LayoutGeneral && a.Layout != vk.LayoutSharedPresent:
		return fmt.Sprintf("an image copied onto itself is source and destination in one layout, which Vulkan allows only in GENERAL or SHARED_PRESENT, not %s", a.Layout)
	case blit && (im.Samples > 1 || im.Format.IsDepthStencil()):
		return "vkCmdBlitImage needs a single-sampled colour image to blit onto itself (Vulkan: depth/stencil blits need two images of one format)"
	case len(selfImageHalves(im)) == 0:
		return fmt.Sprintf("a %dx%dx%d image of one layer and one texel (texel block) per level has no two disjoint regions (Vulkan forbids overlapping copy regions)", im.Width, im.Height, im.Depth)
	}
	w.copies = append(w.copies, copyOp{src: a.Resource, dst: a.Resource, srcLayout: a.Layout, dstLyot: a.Layout, blit: blit})
	return ""
}

// half is one self-copy region: the first half of a subresource range
// (offset zero, extent ext, layers base..base+n) copied to the second
// (offset off, layers dbase..).
type half struct {
	level       uint32
	ext         vkg.Extent3D
	off         vkg.Offset3D
	base, dbase uint32
	layers      uint32
}

// selfImageHalves are the regions of an image's copy onto itself.
func selfImageHalves(im *p.ImageDesc) []half {
	var out []half
	bw, bh := im.Format.BlockExtent() // blocks.go: whole blocks of a block-compressed format
	for l := uint32(0); l < im.MipLevels; l++ {
		e := mipExtent(im, l)
		h := half{level: l, ext: e, layers: im.ArrayLayers}
		switch {
		case e.Width/bw >= 2:
			h.ext.Width = e.Width / bw / 2 * bw
			h.off.X = int32(h.ext.Width)
		case e.Height/bh >= 2:
			h.ext.Height = e.Height / bh / 2 * bh
			h.off.Y = int32(h.ext.Height)
		case im.ArrayLayers >= 2:
			h.layers = im.ArrayLayers / 2
			h.dbase = im.ArrayLayers / 2
		case e.Depth >= 2:
			h.ext.Depth = e.Depth / 2
			h.off.Z = int32(e.Depth / 2)
		default:
			continue
		}
		out = append(out, h)
	}
	return out
}

// recordSelfImage records an image's copy (or blit) onto itself.
func (m *mode) recordSelfImage(cb vkg.CommandBuffer, op copyOp) {
	res := &m.r.g.Resources[op.src]
	_, img := m.handle(op.src)
	asp := vkg.ImageAspectFlags(colorOrDepth(res.Image.Format))
	hs := selfImageHalves(&res.Image)
	layout := vkg.ImageLayout(op.srcLayout)
	if op.blit {
		var regions []vkg.ImageBlit
		for _, h := range hs {
			end := vkg.Offset3D{X: int32(h.ext.Width), Y: int32(h.ext.Height), Z: int32(h.ext.Depth)}
			dst := [2]vkg.Offset3D{h.off, {X: h.off.X + end.X, Y: h.off.Y + end.Y, Z: h.off.Z + end.Z}}
			regions = append(regions, vkg.ImageBlit{
				SrcSubresource: vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: h.level, BaseArrayLayer: h.base, LayerCount: h.layers},
				SrcOffsets:     [2]vkg.Offset3D{{}, end},
				DstSubresource: vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: h.level, BaseArrayLayer: h.dbase, LayerCount: h.layers},
				DstOffsets:     dst})
		}
		vkg.CmdBlitImage(cb, img, layout, img, layout, uint32(len(regions)), regions, vkg.FilterNearest)
		return
	}
	var regions []vkg.ImageCopy
	for _, h := range hs {
		regions = append(regions, vkg.ImageCopy{
			SrcSubresource: vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: h.level, BaseArrayLayer: h.base, LayerCount: h.layers},
			DstSubresource: vkg.ImageSubresourceLayers{AspectMask: asp, MipLevel: h.level, BaseArrayLayer: h.dbase, LayerCount: h.layers},
			DstOffset:      h.off, Extent: h.ext})
	}
	vkg.CmdCopyImage(cb, img, layout, img, layout, uint32(len(regions)), regions)
}
