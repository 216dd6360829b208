package replay

import (
	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Input attachments (INPUT_ATTACHMENT_READ in the fragment stage) are
// read as what they are, a read of the fragment's own texel, by the
// fragment shader's texelFetch of a sampled view: fragment p of a pass
// whose render area is the image's extent reads texel p (gl_FragCoord)
// first, then the rest of the image at a stride, like every other
// fragment-stage read, so the digest covers every texel.
//
// Why not subpassLoad: dynamic rendering reads input attachments only with
// VK_KHR_dynamic_rendering_local_read, which lavapipe (Mesa 22.3) lacks,
// and a VkRenderPass subpass that reads one must LOAD it, a
// COLOR_ATTACHMENT_READ (or DEPTH_STENCIL_ATTACHMENT_READ) in another
// stage that the graph does not declare and the plan's barriers do not
// cover. The texelFetch read is the same memory read in the same stage;
// what differs is only the access bit synchronization validation files
// it under (SHADER_SAMPLED_READ). So the replay records every barrier the
// plan gives with INPUT_ATTACHMENT_READ in a scope with
// SHADER_SAMPLED_READ added there too (replayPlan): one bit for its
// equivalent, nothing widened elsewhere, so a barrier the plan lacks or
// scopes wrongly is still missing or wrong in the replay.

// addInputAttachment is a fragment-stage input-attachment read of a's
// image.
func addInputAttachment(g *p.Graph, w *work, a *p.Access, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindImage {
		return bad("an input attachment must be an image (Vulkan)")
	}
	if r.Image.Usage&vk.ImageUsageInputAttachment == 0 {
		return bad("an input-attachment read needs INPUT_ATTACHMENT usage (Vulkan)")
	}
	if r.Image.Depth > 1 {
		return bad("an input attachment must be a 2D image (Vulkan: a 2D or 2D-array view)")
	}
	return addShaderAccess(g, w, stFragment, a, vk.AccessShaderSampledRead, bad)
}

// replayGraph is g with SAMPLED usage added to every image that has
// INPUT_ATTACHMENT usage (the replay reads those through sampled views);
// g itself when there is none. The replay creates, measures and plans
// with its copy, so requirements and binding agree.
func replayGraph(g *p.Graph) *p.Graph {
	var out *p.Graph
	for i := range g.Resources {
		r := &g.Resources[i]
		if r.Kind != p.KindImage || r.Image.Usage&vk.ImageUsageInputAttachment == 0 || r.Image.Usage&vk.ImageUsageSampled != 0 {
			continue
		}
		if out == nil {
			c := *g
			c.Resources = append([]p.Resource(nil), g.Resources...)
			out = &c
		}
		out.Resources[i].Image.Usage |= vk.ImageUsageSampled
	}
	if out == nil {
		return g
	}
	return out
}

// replayPlan is plan with SHADER_SAMPLED_READ added to every barrier
// scope that names INPUT_ATTACHMENT_READ (see above); plan itself when
// none does.
func replayPlan(plan *p.Plan) *p.Plan {
	fix := func(bs []p.Barrier) ([]p.Barrier, bool) {
		changed := false
		for i := range bs {
			if (bs[i].SrcAccess|bs[i].DstAccess)&vk.AccessInputAttachmentRead == 0 {
				continue
			}
			if !changed {
				bs = append([]p.Barrier(nil), bs...)
				changed = true
			}
			b := &bs[i]
			if b.SrcAccess&vk.AccessInputAttachmentRead != 0 {
				b.SrcAccess |= vk.AccessShaderSampledRead
			}
			if b.DstAccess&vk.AccessInputAttachmentRead != 0 {
				b.DstAccess |= vk.AccessShaderSampledRead
			}
		}
		return bs, changed
	}
	bs, c1 := fix(plan.Barriers)
	fs, c2 := fix(plan.FinalBarriers)
	if !c1 && !c2 {
		return plan
	}
	c := *plan
	c.Barriers, c.FinalBarriers = bs, fs
	return &c
}
