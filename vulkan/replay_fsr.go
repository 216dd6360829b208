package vulkan

import (
	"unsafe"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// extFSR is the extension of the replay's shading-rate passes
// (vulkan/replay, fsr.go): enabled, with pipelineFragmentShadingRate and
// attachmentFragmentShadingRate, only where Config.ReplayStages names
// FRAGMENT_SHADING_RATE_ATTACHMENT and the device has both features.
const extFSR = "VK_KHR_fragment_shading_rate"

// fsrChain decides whether to enable extFSR (appending its name to exts)
// and puts its feature structure ahead of next.
func (d *Device) fsrChain(next unsafe.Pointer, exts *[]string) vkext.Chain {
	on := false
	if d.replay && d.extras.stages&avk.StageFragmentShadingRateAttachment != 0 && deviceExtensions(d.physical)[extFSR] {
		f := d.ext.FSRSupported(unsafe.Pointer(d.physical))
		on = f.Pipeline && f.Attachment
	}
	if on {
		*exts = append(*exts, extFSR+"\x00")
	}
	d.extras.fsr = on
	return vkext.FSRChain(on, next)
}

// FragmentShadingRate says whether the device was opened with
// VK_KHR_fragment_shading_rate's attachment path enabled.
func (h ReplayHooks) FragmentShadingRate() bool { return h.d.extras.fsr }

// FSRSupport says whether the device lists VK_KHR_fragment_shading_rate
// and, where it does, its features, properties and rates as queried.
func (h ReplayHooks) FSRSupport() (has bool, info vkext.FSRInfo) {
	if !deviceExtensions(h.d.physical)[extFSR] {
		return false, info
	}
	return true, h.d.ext.FSRSupported(unsafe.Pointer(h.d.physical))
}

// FSRRates lists vkGetPhysicalDeviceFragmentShadingRatesKHR's rates and
// its VkResult, where the device lists the extension (for logging).
func (h ReplayHooks) FSRRates() ([]vkext.FSRRate, int32) {
	if !deviceExtensions(h.d.physical)[extFSR] {
		return nil, 0
	}
	return h.d.ext.FSRRates(unsafe.Pointer(h.d.physical))
}
