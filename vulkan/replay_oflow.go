package vulkan

import (
	"unsafe"

	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// extOpticalFlow is the extension OPTICAL_FLOW_NV uses need.
const extOpticalFlow = "VK_NV_optical_flow"

// OpticalFlowFacts is what a device reports for VK_NV_optical_flow, as
// queried: whether it lists the extension, its feature, properties and
// formats per usage (zero where it does not), every queue family's
// VkQueueFlags, and the family the replay's graphics queue is on.
// Package vulkan/replay names from these what an OPTICAL_FLOW_NV use
// lacks (it records no optical flow work; docs/replay.md).
type OpticalFlowFacts struct {
	Extension      bool
	Support        vkext.OpticalFlowSupport
	Families       []uint32 // VkQueueFlags of each queue family
	GraphicsFamily uint32
}

// OpticalFlow queries the device's VK_NV_optical_flow facts. It enables
// nothing: the extension is never enabled by Open.
func (h ReplayHooks) OpticalFlow() OpticalFlowFacts {
	d := h.d
	f := OpticalFlowFacts{Extension: deviceExtensions(d.physical)[extOpticalFlow], GraphicsFamily: d.info.QueueFamily}
	for _, p := range familyProperties(d.physical) {
		f.Families = append(f.Families, uint32(p.Flags))
	}
	if f.Extension && d.ext != nil {
		f.Support = d.ext.OpticalFlowSupported(unsafe.Pointer(d.physical))
	}
	return f
}
