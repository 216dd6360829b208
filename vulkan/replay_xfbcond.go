package vulkan

import (
	"unsafe"

	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

const (
	extTransformFeedback    = "VK_EXT_transform_feedback"
	extConditionalRendering = "VK_EXT_conditional_rendering"
)

// xfbCondChain enables, for Config.Replay, VK_EXT_transform_feedback and
// VK_EXT_conditional_rendering with their features where the device has
// them (package vulkan/replay records transform feedback and
// conditional rendering there, and names them where a frame needs one
// the device lacks). It appends the extension names to exts and returns
// the chain to put in VkDeviceCreateInfo.pNext, ahead of next (next
// alone when neither is enabled).
func (d *Device) xfbCondChain(next unsafe.Pointer, exts *[]string) (c vkext.Chain, xfb, cond bool) {
	if !d.replay {
		return vkext.XfbCondChain(false, false, next), false, false
	}
	have := deviceExtensions(d.physical)
	s := d.ext.XfbCondSupported(unsafe.Pointer(d.physical))
	xfb = have[extTransformFeedback] && s.TransformFeedback
	cond = have[extConditionalRendering] && s.ConditionalRendering
	if xfb {
		*exts = append(*exts, extTransformFeedback+"\x00")
	}
	if cond {
		*exts = append(*exts, extConditionalRendering+"\x00")
	}
	return vkext.XfbCondChain(xfb, cond, next), xfb, cond
}

// XfbCond returns the transform feedback and conditional rendering entry
// points; XfbCond().TransformFeedback() (ConditionalRendering()) is false
// where the device lacks the extension or its feature.
func (h ReplayHooks) XfbCond() *vkext.XfbCond { return h.d.xfbCond }

// XfbCondSupport is the device's transform feedback and conditional
// rendering support as queried (features and limits).
func (h ReplayHooks) XfbCondSupport() vkext.XfbCondSupport {
	return h.d.ext.XfbCondSupported(unsafe.Pointer(h.d.physical))
}

// OnClose makes Close call f first, before it destroys anything (package
// vulkan/replay destroys the pipelines its replayers share there).
func (h ReplayHooks) OnClose(f func()) { h.d.onClose = append(h.d.onClose, f) }
