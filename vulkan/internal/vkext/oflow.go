package vkext

/*
#include "oflow.h"
*/
import "C"

import "unsafe"

// Optical-flow usages (VkOpticalFlowUsageFlagBitsNV) and the queue bit.
const (
	OpticalFlowUsageInput      = uint32(C.apOpticalFlowUsageInput)
	OpticalFlowUsageOutput     = uint32(C.apOpticalFlowUsageOutput)
	OpticalFlowUsageHint       = uint32(C.apOpticalFlowUsageHint)
	OpticalFlowUsageCost       = uint32(C.apOpticalFlowUsageCost)
	OpticalFlowUsageGlobalFlow = uint32(C.apOpticalFlowUsageGlobalFlow)
	QueueOpticalFlow           = uint32(C.apQueueOpticalFlow) // VK_QUEUE_OPTICAL_FLOW_BIT_NV
)

// OpticalFlowSupport is what a device reports of VK_NV_optical_flow:
// the opticalFlow feature, VkPhysicalDeviceOpticalFlowPropertiesNV, and
// the formats vkGetPhysicalDeviceOpticalFlowImageFormatsNV lists per
// usage (Formats[usage bit], as VkFormat values).
type OpticalFlowSupport struct {
	Feature               bool // opticalFlow
	OutputGridSizes       uint32
	HintGridSizes         uint32
	Hint, Cost            bool // hintSupported, costSupported
	Bidirectional, Global bool // bidirectionalFlowSupported, globalFlowSupported
	MinWidth, MinHeight   uint32
	MaxWidth, MaxHeight   uint32
	MaxRegionsOfInterest  uint32
	Formats               map[uint32][]int32
	FormatErrors          map[uint32]int32 // usage → the query's VkResult where it was not VK_SUCCESS
}

// OpticalFlowSupported queries physical's VK_NV_optical_flow feature,
// properties and formats (input, output, hint, cost). Call it only where
// the device lists the extension.
func (in *Instance) OpticalFlowSupported(physical unsafe.Pointer) OpticalFlowSupport {
	var f C.apPhysicalDeviceOpticalFlowFeatures
	var p C.apPhysicalDeviceOpticalFlowProperties
	C.apOpticalFlowSupport(&in.fns, C.apHandle(physical), &f, &p)
	s := OpticalFlowSupport{
		Feature: f.opticalFlow != 0, OutputGridSizes: uint32(p.supportedOutputGridSizes), HintGridSizes: uint32(p.supportedHintGridSizes),
		Hint: p.hintSupported != 0, Cost: p.costSupported != 0, Bidirectional: p.bidirectionalFlowSupported != 0, Global: p.globalFlowSupported != 0,
		MinWidth: uint32(p.minWidth), MinHeight: uint32(p.minHeight), MaxWidth: uint32(p.maxWidth), MaxHeight: uint32(p.maxHeight),
		MaxRegionsOfInterest: uint32(p.maxNumRegionsOfInterest),
		Formats:              map[uint32][]int32{}, FormatErrors: map[uint32]int32{},
	}
	for _, u := range []uint32{OpticalFlowUsageInput, OpticalFlowUsageOutput, OpticalFlowUsageHint, OpticalFlowUsageCost} {
		var buf [C.apOpticalFlowMaxFormats]C.int32_t
		var n C.uint32_t
		r := C.apOpticalFlowFormats(&in.fns, C.apHandle(physical), C.uint32_t(u), &buf[0], &n)
		if r != 0 {
			s.FormatErrors[u] = int32(r)
		}
		for _, v := range buf[:n] {
			s.Formats[u] = append(s.Formats[u], int32(v))
		}
	}
	return s
}
