package replay

import (
	"strings"

	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// Signed-integer storage writes: a storage image of an SINT format
// (R32_SINT, R8G8B8A8_SINT, R16_SINT, ...) is written through a signed
// image type, as the validation layer requires of an SINT view
// (VUID-vkCmdDispatch-format-07753; float and unsigned arrays are refused
// on it). common.glsl's EXTRA variants declare them without a format
// qualifier, like the float and unsigned write arrays (the replay needs
// shaderStorageImageWriteWithoutFormat anyway), so one array serves every
// SINT format: iwi (2D array, two slots a stage), iw3i (3D, one) in every
// stage that writes storage images (compute, vertex, fragment,
// tessellation, geometry, task, mesh), iwmsi (multisampled, two) in
// compute only (comp_ms.spv, comp_ms_nf.spv). The budget: lavapipe 22.3
// has 64 storage images a stage and 256 a pipeline layout (storage
// texel buffers count too); the five-set pre-raster layout holds 240
// before these, 255 with three a stage, and a multisampled signed array
// in the graphics stages would pass 256. A multisampled signed write in
// a graphics stage is refused as having no slot.
//
// Reads of what they write: an SINT format has no format-qualified read
// array (lavapipe 22.3's compute set holds 63 of its 64 with these), so
// a storage read of one goes to the format-less signed arrays where the
// device has shaderStorageImageReadWithoutFormat (fmtless.go: compute,
// vertex, fragment) and is refused naming the feature elsewhere; the
// readback of an imported SINT image (a transfer copy) compares it on
// any device.

func isSintFormat(f vk.Format) bool {
	return strings.Contains(f.String(), "_SINT")
}

// isUintColor says whether f is an unsigned-integer colour format (any
// _UINT format but depth/stencil ones): a fragment output writing it, and
// a sampler reading it, must be unsigned (Vulkan's numeric-type rule).
func isUintColor(f vk.Format) bool {
	return !f.IsDepthStencil() && strings.HasSuffix(strings.TrimSuffix(f.String(), "_PACK32"), "_UINT")
}

// Signed-integer colour attachments and sampled reads (session 13): the
// replay's fragment outputs and samplers are float or unsigned, and
// Vulkan wants a signed one for an SINT view. So an SINT image the graph
// renders to or samples is created MUTABLE_FORMAT (mutableGraph, through
// vulkan.ImageUsageMutableFormatReplay in the replay's copy of the graph),
// and its attachment and sampled views are of its unsigned twin (R32_SINT:
// R32_UINT, the same texel size and bits: the formats are compatible).
// What the command writes and what a read sees are the same bits as
// through a signed view; storage views stay signed (sint.go above).

// uintTwin is the unsigned format of an SINT format's texels (R32_SINT:
// R32_UINT), or f itself for any other.
func uintTwin(f vk.Format) vk.Format {
	if !isSintFormat(f) {
		return f
	}
	if u, ok := vk.ParseFormat(strings.Replace(f.String(), "_SINT", "_UINT", 1)); ok {
		return u
	}
	return f
}

// mutableGraph is g with vulkan.ImageUsageMutableFormatReplay on every
// SINT image with colour-attachment, sampled or input-attachment usage;
// g itself when there is none.
func mutableGraph(g *p.Graph) *p.Graph {
	var out *p.Graph
	for i := range g.Resources {
		r := &g.Resources[i]
		if r.Kind != p.KindImage || !isSintFormat(r.Image.Format) || uintTwin(r.Image.Format) == r.Image.Format ||
			r.Image.Usage&(vk.ImageUsageColorAttachment|vk.ImageUsageSampled|vk.ImageUsageInputAttachment) == 0 {
			continue
		}
		if out == nil {
			cp := *g
			cp.Resources = append([]p.Resource(nil), g.Resources...)
			out = &cp
		}
		out.Resources[i].Image.Usage |= vulkan.ImageUsageMutableFormatReplay
	}
	if out == nil {
		return g
	}
	return out
}
