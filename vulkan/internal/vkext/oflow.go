package vkext

/*
#include "oflow.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

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

// Session binding points (VkOpticalFlowSessionBindingPointNV).
const (
	OpticalFlowBindInput      = int32(C.apOpticalFlowBindInput)
	OpticalFlowBindReference  = int32(C.apOpticalFlowBindReference)
	OpticalFlowBindFlowVector = int32(C.apOpticalFlowBindFlowVector)
	OpticalFlowBindCost       = int32(C.apOpticalFlowBindCost)
)

// OpticalFlowFeatures puts VkPhysicalDeviceOpticalFlowFeaturesNV with
// opticalFlow on ahead of next, for VkDeviceCreateInfo.pNext.
func OpticalFlowFeatures(next unsafe.Pointer) Chain {
	p := C.apNewOpticalFlowFeatures(next)
	return Chain{alloc: p, head: p}
}

// OpticalFlowImageInfo is VkOpticalFlowImageFormatInfoNV of usage (an
// OpticalFlowUsage* mask), for VkImageCreateInfo.pNext: how an image is
// made an optical-flow frame, flow-vector or cost image.
func OpticalFlowImageInfo(usage uint32) Chain {
	p := C.apNewOpticalFlowImageInfo(C.uint32_t(usage))
	return Chain{alloc: p, head: p}
}

// OpticalFlow holds one device's VK_NV_optical_flow session entry points.
type OpticalFlow struct{ fns C.apOpticalFlowFns }

// LoadOpticalFlow resolves device's session entry points (the device
// must have been created with VK_NV_optical_flow).
func (in *Instance) LoadOpticalFlow(device unsafe.Pointer) (*OpticalFlow, error) {
	o := new(OpticalFlow)
	if C.apLoadOpticalFlow(&in.fns, C.apHandle(device), &o.fns) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no VK_NV_optical_flow session entry points")
	}
	return o, nil
}

// OpticalFlowSessionInfo is a VkOpticalFlowSessionCreateInfoNV without
// hints: frames of Width×Height in ImageFormat, flow vectors (and, with
// Cost, a cost map) on a Grid×Grid grid (a VkOpticalFlowGridSizeFlagBitsNV
// bit), at the medium performance level.
type OpticalFlowSessionInfo struct {
	Width, Height                       uint32
	ImageFormat, FlowFormat, CostFormat int32
	Grid                                uint32
	Cost                                bool
}

// CreateSession calls vkCreateOpticalFlowSessionNV; it returns the
// session and the VkResult.
func (o *OpticalFlow) CreateSession(device unsafe.Pointer, s OpticalFlowSessionInfo) (unsafe.Pointer, int32) {
	info := C.apOpticalFlowSessionCreateInfo{width: C.uint32_t(s.Width), height: C.uint32_t(s.Height),
		imageFormat: C.int32_t(s.ImageFormat), flowVectorFormat: C.int32_t(s.FlowFormat), costFormat: C.int32_t(s.CostFormat),
		outputGridSize: C.uint32_t(s.Grid), performanceLevel: C.apOpticalFlowPerformanceMedium}
	if s.Cost {
		info.flags = C.apOpticalFlowSessionEnableCost
	}
	var session C.apHandle
	r := C.apCreateOpticalFlowSession(&o.fns, C.apHandle(device), &info, &session)
	return unsafe.Pointer(session), int32(r)
}

// DestroySession calls vkDestroyOpticalFlowSessionNV.
func (o *OpticalFlow) DestroySession(device, session unsafe.Pointer) {
	C.apDestroyOpticalFlowSession(&o.fns, C.apHandle(device), C.apHandle(session))
}

// Bind calls vkBindOpticalFlowSessionImageNV and returns its VkResult.
func (o *OpticalFlow) Bind(device, session unsafe.Pointer, point int32, view unsafe.Pointer, layout int32) int32 {
	return int32(C.apBindOpticalFlowSessionImage(&o.fns, C.apHandle(device), C.apHandle(session), C.int32_t(point), C.apHandle(view), C.int32_t(layout)))
}

// Execute records vkCmdOpticalFlowExecuteNV with temporal hints disabled
// (VK_OPTICAL_FLOW_EXECUTE_DISABLE_TEMPORAL_HINTS_BIT_NV: an execution
// does not take the session's previous flow as hints) and no regions.
func (o *OpticalFlow) Execute(cmd, session unsafe.Pointer) {
	C.apCmdOpticalFlowExecute(&o.fns, C.apHandle(cmd), C.apHandle(session), C.apOpticalFlowExecuteDisableTemporalHints)
}
