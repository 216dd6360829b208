package replay

import "github.com/aliasplan/aliasplan/vk"

// Stencil-only attachments (S8_UINT, or any format with a stencil aspect
// and no depth): the stencil aspect alone is attached
// (VkRenderingInfo.pStencilAttachment, no depth attachment, the
// pipeline's depthAttachmentFormat UNDEFINED), with the stencil modes of
// a depth/stencil attachment: write-only = clear, ALWAYS, REPLACE with
// the command's reference; read-write = load (clear on first use),
// ALWAYS, INCREMENT_AND_WRAP; read-only = load, GREATER_OR_EQUAL, KEEP,
// STORE_OP_NONE. The format's DEPTH_STENCIL_ATTACHMENT support is
// queried (formatFeatures); a device without it for S8_UINT is named.

// stencilOnlyLayout says whether l is an attachment layout for a
// stencil-only image and whether stencil may be written in it.
func stencilOnlyLayout(l vk.Layout) (ok, depthWrite, stencilWrite bool) {
	switch l {
	case vk.LayoutStencilAttachmentOptimal, vk.LayoutDepthStencilAttachmentOptimal, vk.LayoutGeneral, vk.LayoutAttachmentOptimal,
		vk.LayoutDepthReadOnlyStencilAttachmentOptimal:
		return true, true, true
	case vk.LayoutStencilReadOnlyOptimal, vk.LayoutDepthStencilReadOnlyOptimal, vk.LayoutReadOnlyOptimal, vk.LayoutDepthAttachmentStencilReadOnlyOptimal:
		return true, false, false
	}
	return false, false, false
}

// readbackAspect is the aspect a buffer copy of an imported image reads:
// colour, depth, or the stencil of a stencil-only format.
func readbackAspect(f vk.Format) uint32 {
	if f.IsDepthStencil() && !f.HasDepth() {
		return aspectStencil
	}
	return colorOrDepth(f) &^ aspectStencil
}
