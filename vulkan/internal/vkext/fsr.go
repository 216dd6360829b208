package vkext

/*
#include <stdlib.h>
#include "fsr.h"
*/
import "C"

import (
	"unsafe"
)

// Extent is a width and height.
type Extent struct{ Width, Height uint32 }

// FSRRate is one entry of vkGetPhysicalDeviceFragmentShadingRatesKHR.
type FSRRate struct {
	SampleCounts uint32 // VkSampleCountFlags
	Size         Extent
}

// FSRInfo is what a device offers of VK_KHR_fragment_shading_rate, as
// queried (query only where the device lists the extension).
type FSRInfo struct {
	Pipeline, Primitive, Attachment bool // the three features
	// The properties the replay's shading-rate passes use or log.
	MinTexel, MaxTexel      Extent
	MaxTexelAspect          uint32
	Layered                 bool // layeredShadingRateAttachments
	NonTrivialCombiners     bool
	MaxFragmentSize         Extent
	MaxFragmentSizeAspect   uint32
	MaxCoverageSamples      uint32
	MaxRasterizationSamples uint32
	Rates                   []FSRRate
	RatesResult             int32 // vkGetPhysicalDeviceFragmentShadingRatesKHR's VkResult
}

// FSRSupported queries physical's fragment shading rate features and
// properties (Rates stays empty: FSRRates).
func (in *Instance) FSRSupported(physical unsafe.Pointer) FSRInfo {
	var pipe, prim, att C.apBool32
	C.apFSRSupport(&in.fns, C.apHandle(physical), &pipe, &prim, &att)
	var pr C.apPhysicalDeviceFragmentShadingRateProperties
	C.apFSRProperties(&in.fns, C.apHandle(physical), &pr)
	ext := func(e C.apFSRExtent2D) Extent { return Extent{uint32(e.width), uint32(e.height)} }
	out := FSRInfo{Pipeline: pipe != 0, Primitive: prim != 0, Attachment: att != 0,
		MinTexel: ext(pr.minFragmentShadingRateAttachmentTexelSize), MaxTexel: ext(pr.maxFragmentShadingRateAttachmentTexelSize),
		MaxTexelAspect: uint32(pr.maxFragmentShadingRateAttachmentTexelSizeAspectRatio), Layered: pr.layeredShadingRateAttachments != 0,
		NonTrivialCombiners: pr.fragmentShadingRateNonTrivialCombinerOps != 0, MaxFragmentSize: ext(pr.maxFragmentSize),
		MaxFragmentSizeAspect: uint32(pr.maxFragmentSizeAspectRatio), MaxCoverageSamples: uint32(pr.maxFragmentShadingRateCoverageSamples),
		MaxRasterizationSamples: uint32(pr.maxFragmentShadingRateRasterizationSamples)}
	return out
}

// FSRRates is vkGetPhysicalDeviceFragmentShadingRatesKHR (at most 32
// rates) and its VkResult; only for logging what a device supports.
func (in *Instance) FSRRates(physical unsafe.Pointer) ([]FSRRate, int32) {
	ext := func(e C.apFSRExtent2D) Extent { return Extent{uint32(e.width), uint32(e.height)} }
	mem := C.calloc(C.apMaxFSRRates, C.size_t(unsafe.Sizeof(C.apPhysicalDeviceFragmentShadingRate{})))
	defer C.free(mem)
	rates := unsafe.Slice((*C.apPhysicalDeviceFragmentShadingRate)(mem), C.apMaxFSRRates)
	var n C.uint32_t
	res := int32(C.apFSRRates(&in.fns, C.apHandle(physical), &n, &rates[0]))
	var out []FSRRate
	for i := 0; i < int(n) && i < C.apMaxFSRRates; i++ {
		out = append(out, FSRRate{SampleCounts: uint32(rates[i].sampleCounts), Size: ext(rates[i].fragmentSize)})
	}
	return out, res
}

// FSRChain enables pipelineFragmentShadingRate and
// attachmentFragmentShadingRate ahead of next when on (VkDeviceCreateInfo.pNext);
// Head is next otherwise.
func FSRChain(on bool, next unsafe.Pointer) Chain {
	if !on {
		return Chain{head: next}
	}
	p := C.apNewFSRChain(next)
	return Chain{alloc: p, head: p}
}

// FSRPipelineChain is VkPipelineRenderingCreateInfo without attachments
// and VkPipelineFragmentShadingRateStateCreateInfoKHR (1x1, combiner ops
// KEEP, REPLACE), for VkGraphicsPipelineCreateInfo.pNext.
func FSRPipelineChain() Chain {
	p := C.apNewFSRPipelineChain()
	return Chain{alloc: p, head: p}
}

// PipelineCreateFSRAttachment is
// VK_PIPELINE_CREATE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR.
const PipelineCreateFSRAttachment = C.apPipelineCreateFSRAttachment

// BeginRenderingFSR records vkCmdBeginRendering over [0,w)×[0,h) with no
// attachment but the shading-rate one: view, in layout, texel size tw×th.
func (r *Rendering) BeginRenderingFSR(cmd unsafe.Pointer, w, h uint32, view unsafe.Pointer, layout int32, tw, th uint32) {
	C.apBeginRenderingFSR(&r.fns, C.apHandle(cmd), C.uint32_t(w), C.uint32_t(h), C.apHandle(view), C.int32_t(layout), C.uint32_t(tw), C.uint32_t(th))
}
