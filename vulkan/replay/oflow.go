package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Optical flow (VK_NV_optical_flow, the OPTICAL_FLOW_NV stage) is not
// replayed, and cannot be from this graph model as it stands: the model
// puts an OPTICAL_FLOW_NV command on the graphics queue (of graphics,
// compute and transfer, the only queue that may name the stage,
// planner.QueueStages), so its plan records the command's barriers there,
// with OPTICAL_FLOW_NV in their stage masks. Vulkan supports that stage,
// and vkCmdOpticalFlowExecuteNV, only in command buffers of a queue family
// with VK_QUEUE_OPTICAL_FLOW_BIT_NV (the stage's supported queue types;
// VUID-vkCmdPipelineBarrier2-srcStageMask-03849 and -dstStageMask-03850
// in layer 1.3.239, -09673 and -09674 later),
// and NVIDIA reports that bit on a family of its own, without graphics or
// compute. Running the plan's barriers as given needs a graphics family
// with the bit; running the command on the optical-flow family needs an
// optical-flow queue in the model (with the plan's semaphores to it and
// its resources shared with or handed over to that family), which is not
// built. So a use in the stage is refused here, naming, from what the
// device reports (vulkan.ReplayHooks.OpticalFlow), the first of these
// that is missing: the extension, its opticalFlow feature, a family with
// the bit, the bit on the graphics queue's family; and, where the device
// has the extension, what the command's resources would lack besides
// (formats the device does not report for the usage, extents outside the
// session limits, buffers, which a session cannot bind). docs/replay.md,
// "Optical flow", has the whole account.

// oflowFormatS10_5 is VK_FORMAT_R16G16_S10_5_NV (later
// R16G16_SFIXED5_NV), the flow-vector format the specification lists as
// initially supported for output and hints; the model's formats (core
// Vulkan 1.3) cannot name it.
const oflowFormatS10_5 = 1000464000

// oflowFacts is what opticalFlowReason reads: the device's name and its
// queried VK_NV_optical_flow facts.
type oflowFacts struct {
	name string
	vulkan.OpticalFlowFacts
}

func queryOpticalFlow(dev *vulkan.Device) oflowFacts {
	h, _ := dev.Replay() // the queries need no replay state
	return oflowFacts{name: dev.Info().Name, OpticalFlowFacts: h.OpticalFlow()}
}

// opticalFlowReason is the refusal of command c of g, which has a use in
// the OPTICAL_FLOW_NV stage, on the device f describes.
func opticalFlowReason(f oflowFacts, g *p.Graph, c p.CommandID) string {
	if !f.Extension {
		return fmt.Sprintf("%s lacks VK_NV_optical_flow (queried): the device cannot run optical flow", f.name)
	}
	if !f.Support.Feature {
		return fmt.Sprintf("%s has VK_NV_optical_flow but not its opticalFlow feature (queried): the device cannot run optical flow", f.name)
	}
	fams, onGraphics, gfl := familiesWith(f.Families, vkext.QueueOpticalFlow, f.GraphicsFamily)
	var why string
	switch {
	case len(fams) == 0:
		return fmt.Sprintf("%s has VK_NV_optical_flow and opticalFlow, but no queue family with VK_QUEUE_OPTICAL_FLOW_BIT_NV (queried; families: %s): the device cannot run optical flow",
			f.name, familyList(f.Families))
	case !onGraphics:
		why = fmt.Sprintf("%s runs optical flow only on queue family %s, not on the graphics queue's family %d (%s) (queried); "+
			"the graph model puts this command on the graphics queue, and its plan records the command's barriers there with OPTICAL_FLOW_NV in their stage masks, "+
			"which Vulkan allows only on a family with VK_QUEUE_OPTICAL_FLOW_BIT_NV: replaying it needs an optical-flow queue in the model "+
			"(semaphores to it, its images shared with that family) (not built; docs/replay.md, optical flow)",
			f.name, strings.Join(fams, " and "), f.GraphicsFamily, queueFlagNames(gfl))
	default:
		why = fmt.Sprintf("%s has VK_NV_optical_flow on the graphics queue's family %d, but the replay has no optical flow work (not built; docs/replay.md, optical flow)",
			f.name, f.GraphicsFamily)
	}
	if more := opticalFlowResourceLacks(f, g, c); len(more) > 0 {
		why += "; besides, " + strings.Join(more, "; ")
	}
	return why
}

// opticalFlowResourceLacks lists what the command's optical-flow uses
// would lack on the device even with the work built: Vulkan's rule that a
// session binds image views only, formats the device does not report for
// the usage (reads: input or hint; writes: output or cost), and extents
// outside the session limits.
func opticalFlowResourceLacks(f oflowFacts, g *p.Graph, c p.CommandID) []string {
	var out []string
	sup := &f.Support
	for _, a := range g.Commands[c].Accesses {
		if a.Stages&vk.StageOpticalFlowNV == 0 || a.Access&(vk.AccessOpticalFlowReadNV|vk.AccessOpticalFlowWriteNV) == 0 {
			continue
		}
		r := &g.Resources[a.Resource]
		if r.Kind != p.KindImage {
			out = append(out, fmt.Sprintf("%q is a buffer, and an optical flow session binds image views only (vkBindOpticalFlowSessionImageNV; Vulkan)", r.Name))
			continue
		}
		im := &r.Image
		fm := int32(im.Format)
		if a.Access&vk.AccessOpticalFlowReadNV != 0 {
			in, hint := sup.Formats[vkext.OpticalFlowUsageInput], sup.Formats[vkext.OpticalFlowUsageHint]
			if !slices.Contains(in, fm) && !slices.Contains(hint, fm) {
				out = append(out, fmt.Sprintf("%q (%s) is read in a format the device reports for neither optical-flow input (%s) nor hints (%s) (queried)",
					r.Name, im.Format, formatList(in), formatList(hint)))
			} else if im.Width < sup.MinWidth || im.Width > sup.MaxWidth || im.Height < sup.MinHeight || im.Height > sup.MaxHeight {
				out = append(out, fmt.Sprintf("%q is %dx%d, outside the session extents %dx%d to %dx%d (queried)",
					r.Name, im.Width, im.Height, sup.MinWidth, sup.MinHeight, sup.MaxWidth, sup.MaxHeight))
			}
		}
		if a.Access&vk.AccessOpticalFlowWriteNV != 0 {
			o, cost := sup.Formats[vkext.OpticalFlowUsageOutput], sup.Formats[vkext.OpticalFlowUsageCost]
			if !slices.Contains(o, fm) && !slices.Contains(cost, fm) {
				out = append(out, fmt.Sprintf("%q (%s) is written in a format the device reports for neither optical-flow output (%s) nor cost (%s) (queried)",
					r.Name, im.Format, formatList(o), formatList(cost)))
			}
		}
	}
	return out
}

// formatName names a VkFormat value, the flow-vector format included.
func formatName(v int32) string {
	if v == oflowFormatS10_5 {
		return "R16G16_S10_5_NV, which the graph model's formats cannot name"
	}
	return vk.Format(uint32(v)).String()
}

func formatList(fs []int32) string {
	if len(fs) == 0 {
		return "none reported"
	}
	names := make([]string, len(fs))
	for i, v := range fs {
		names[i] = formatName(v)
	}
	return strings.Join(names, ", ")
}

// queueFlagNames writes VkQueueFlags as "GRAPHICS|COMPUTE|TRANSFER".
func queueFlagNames(fl uint32) string {
	names := []struct {
		bit  uint32
		name string
	}{{0x1, "GRAPHICS"}, {0x2, "COMPUTE"}, {0x4, "TRANSFER"}, {0x8, "SPARSE_BINDING"}, {0x10, "PROTECTED"},
		{0x20, "VIDEO_DECODE"}, {0x40, "VIDEO_ENCODE"}, {vkext.QueueOpticalFlow, "OPTICAL_FLOW"}}
	var out []string
	for _, n := range names {
		if fl&n.bit != 0 {
			out = append(out, n.name)
			fl &^= n.bit
		}
	}
	if fl != 0 {
		out = append(out, fmt.Sprintf("%#x", fl))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "|")
}

func familyList(fams []uint32) string {
	s := make([]string, len(fams))
	for i, fl := range fams {
		s[i] = fmt.Sprintf("%d: %s", i, queueFlagNames(fl))
	}
	return strings.Join(s, ", ")
}

// familiesWith names the families of fams (VkQueueFlags each) that have
// bit, as "N (FLAGS)", and says whether the graphics queue's family gfx is
// among them; gfl is gfx's flags (0 when fams has no such family).
func familiesWith(fams []uint32, bit, gfx uint32) (names []string, onGraphics bool, gfl uint32) {
	for i, fl := range fams {
		if fl&bit != 0 {
			names = append(names, fmt.Sprintf("%d (%s)", i, queueFlagNames(fl)))
		}
	}
	if int(gfx) < len(fams) {
		gfl = fams[gfx]
	}
	return names, gfl&bit != 0, gfl
}
