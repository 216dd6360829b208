package vkext

/*
#include <stdlib.h>
#include "vkext.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// XfbCondSupport is what a device offers of VK_EXT_transform_feedback
// and VK_EXT_conditional_rendering (features and limits as queried).
type XfbCondSupport struct {
	TransformFeedback    bool
	ConditionalRendering bool
	MaxBuffers           uint32 // maxTransformFeedbackBuffers
	MaxBufferSize        uint64 // maxTransformFeedbackBufferSize
	MaxStride            uint32 // maxTransformFeedbackBufferDataStride
	Draw                 bool   // transformFeedbackDraw (vkCmdDrawIndirectByteCountEXT)
}

// XfbCondSupported queries physical's transformFeedback and
// conditionalRendering features and transform feedback limits. Call it
// only where the device lists the extensions (else the structures are
// left zero by a conforming driver).
func (in *Instance) XfbCondSupported(physical unsafe.Pointer) XfbCondSupport {
	var xfb, cond, draw C.int
	var maxBuffers, maxStride C.uint32_t
	var maxSize C.uint64_t
	C.apXfbCondSupported(&in.fns, C.apHandle(physical), &xfb, &cond, &maxBuffers, &maxSize, &maxStride, &draw)
	return XfbCondSupport{TransformFeedback: xfb != 0, ConditionalRendering: cond != 0, MaxBuffers: uint32(maxBuffers),
		MaxBufferSize: uint64(maxSize), MaxStride: uint32(maxStride), Draw: draw != 0}
}

// XfbCondChain puts the transformFeedback and conditionalRendering
// feature structures (those asked for) ahead of next, for
// VkDeviceCreateInfo.pNext; Head is next when neither is asked for.
func XfbCondChain(xfb, cond bool, next unsafe.Pointer) Chain {
	var head unsafe.Pointer
	alloc := C.apNewXfbCondChain(cbool(xfb), cbool(cond), next, &head)
	return Chain{alloc: alloc, head: head}
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// XfbCond holds the transform feedback and conditional rendering entry
// points of one device (those of the extensions it was loaded for).
type XfbCond struct {
	fns       C.apXfbCondFns
	xfb, cond bool
}

// LoadXfbCond resolves the entry points of the extensions asked for.
func (in *Instance) LoadXfbCond(device unsafe.Pointer, xfb, cond bool) (*XfbCond, error) {
	x := &XfbCond{xfb: xfb, cond: cond}
	switch C.apLoadXfbCond(&in.fns, C.apHandle(device), cbool(xfb), cbool(cond), &x.fns) {
	case -1:
		return nil, errors.New("vkGetDeviceProcAddr found no VK_EXT_transform_feedback entry points")
	case -2:
		return nil, errors.New("vkGetDeviceProcAddr found no VK_EXT_conditional_rendering entry points")
	}
	return x, nil
}

// TransformFeedback and ConditionalRendering say which extension's entry
// points x holds (the extension and its feature are enabled).
func (x *XfbCond) TransformFeedback() bool    { return x != nil && x.xfb }
func (x *XfbCond) ConditionalRendering() bool { return x != nil && x.cond }

// BindBuffer records vkCmdBindTransformFeedbackBuffersEXT of one buffer
// range at binding 0.
func (x *XfbCond) BindBuffer(cmd, buffer unsafe.Pointer, offset, size uint64) {
	C.apCmdBindXfbBuffer(&x.fns, C.apHandle(cmd), C.apHandle(buffer), C.uint64_t(offset), C.uint64_t(size))
}

// Begin records vkCmdBeginTransformFeedbackEXT; counter (nil: none) is
// counter buffer 0, read at offset: writing resumes where it says.
func (x *XfbCond) Begin(cmd, counter unsafe.Pointer, offset uint64) {
	C.apCmdBeginXfb(&x.fns, C.apHandle(cmd), C.apHandle(counter), C.uint64_t(offset))
}

// End records vkCmdEndTransformFeedbackEXT; counter (nil: none) receives
// the byte count at offset.
func (x *XfbCond) End(cmd, counter unsafe.Pointer, offset uint64) {
	C.apCmdEndXfb(&x.fns, C.apHandle(cmd), C.apHandle(counter), C.uint64_t(offset))
}

// DrawByteCount records vkCmdDrawIndirectByteCountEXT: one instance of
// counter/stride vertices, the counter read at offset.
func (x *XfbCond) DrawByteCount(cmd, counter unsafe.Pointer, offset uint64, stride uint32) {
	C.apCmdDrawByteCount(&x.fns, C.apHandle(cmd), C.apHandle(counter), C.uint64_t(offset), C.uint32_t(stride))
}

// BeginConditional records vkCmdBeginConditionalRenderingEXT: the
// commands up to EndConditional run where the 32-bit word of buffer at
// offset is not zero.
func (x *XfbCond) BeginConditional(cmd, buffer unsafe.Pointer, offset uint64) {
	C.apCmdBeginCond(&x.fns, C.apHandle(cmd), C.apHandle(buffer), C.uint64_t(offset))
}

// EndConditional records vkCmdEndConditionalRenderingEXT.
func (x *XfbCond) EndConditional(cmd unsafe.Pointer) { C.apCmdEndCond(&x.fns, C.apHandle(cmd)) }
