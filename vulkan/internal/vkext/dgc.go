package vkext

/*
#include "dgc.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// DGC holds VK_EXT_device_generated_commands' entry points on a device
// opened with the extension (package vulkan/replay, dgc.go).
type DGC struct {
	fns    C.apDGCFns
	device C.apHandle
}

// DGCSupport is what a device has of VK_EXT_device_generated_commands
// and what it needs, as queried.
type DGCSupport struct {
	DGC, BDA, Maintenance5 bool   // deviceGeneratedCommands, bufferDeviceAddress, maintenance5
	MaxSequences           uint32 // maxIndirectSequenceCount
	Stages                 uint32 // supportedIndirectCommandsShaderStages
}

// DGCSupported queries the features and properties (ask only a device
// that has VK_EXT_device_generated_commands and VK_KHR_maintenance5).
func (in *Instance) DGCSupported(physical unsafe.Pointer) DGCSupport {
	var d, b, m C.apBool32
	var props C.apPhysicalDeviceDGCProperties
	C.apDGCSupport(&in.fns, C.apHandle(physical), &d, &b, &m, &props)
	return DGCSupport{DGC: d != 0, BDA: b != 0, Maintenance5: m != 0, MaxSequences: uint32(props.maxIndirectSequenceCount),
		Stages: uint32(props.supportedIndirectCommandsShaderStages)}
}

// DGCChain puts deviceGeneratedCommands and maintenance5 (and, with
// bda, bufferDeviceAddress) before next. Free it after vkCreateDevice.
func DGCChain(next unsafe.Pointer, bda bool) Chain {
	var head unsafe.Pointer
	b := C.int(0)
	if bda {
		b = 1
	}
	alloc := C.apNewDGCChain(next, b, &head)
	return Chain{alloc: alloc, head: head}
}

// BufferUsage2Chain is a VkBufferUsageFlags2CreateInfoKHR of usage (the
// 32-bit VkBufferCreateInfo.usage is ignored where it is chained; a
// usage bit above the 32-bit flags, or one only the flags2 type names,
// needs it). Free it after vkCreateBuffer.
func BufferUsage2Chain(usage uint64, next unsafe.Pointer) Chain {
	p := C.apNewBufferUsage2(C.uint64_t(usage), next)
	return Chain{alloc: p, head: p}
}

// LoadDGC resolves the extension's entry points.
func (in *Instance) LoadDGC(device unsafe.Pointer) (*DGC, error) {
	e := &DGC{device: C.apHandle(device)}
	var missing *C.char
	if C.apLoadDGC(&in.fns, C.apHandle(device), &e.fns, &missing) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no " + C.GoString(missing))
	}
	return e, nil
}

// CreateDispatchLayout is an indirect commands layout of one DISPATCH
// token (VkDispatchIndirectCommand at offset 0, 12-byte sequences),
// compute, explicit preprocessing.
func (e *DGC) CreateDispatchLayout() (unsafe.Pointer, int32) {
	var l C.apHandle
	r := C.apCreateDispatchLayout(&e.fns, e.device, &l)
	return unsafe.Pointer(l), int32(r)
}

// CreatePushDispatchLayout is an indirect commands layout of a
// PUSH_CONSTANT token (the sequence's first word into the push constants
// at offset 4 of pipelineLayout) and a DISPATCH token after it (16-byte
// sequences), compute, explicit preprocessing.
func (e *DGC) CreatePushDispatchLayout(pipelineLayout unsafe.Pointer) (unsafe.Pointer, int32) {
	var l C.apHandle
	r := C.apCreatePushDispatchLayout(&e.fns, e.device, C.apHandle(pipelineLayout), &l)
	return unsafe.Pointer(l), int32(r)
}

// DestroyLayout destroys a layout of CreateDispatchLayout or
// CreatePushDispatchLayout.
func (e *DGC) DestroyLayout(l unsafe.Pointer) {
	C.apDestroyDispatchLayout(&e.fns, e.device, C.apHandle(l))
}

// Requirements is vkGetGeneratedCommandsMemoryRequirementsEXT for maxSeq
// sequences of layout with pipeline: size, alignment, memory types.
func (e *DGC) Requirements(layout, pipeline unsafe.Pointer, maxSeq uint32) (size, align uint64, types uint32) {
	var r C.apMemoryRequirements
	C.apDGCRequirements(&e.fns, e.device, C.apHandle(layout), C.apHandle(pipeline), C.uint32_t(maxSeq), &r)
	return uint64(r.size), uint64(r.alignment), uint32(r.memoryTypeBits)
}

// CreatePreprocessBuffer is a buffer of size bytes with PREPROCESS_BUFFER
// and SHADER_DEVICE_ADDRESS usage (VkBufferUsageFlags2CreateInfoKHR).
func (e *DGC) CreatePreprocessBuffer(size uint64) (unsafe.Pointer, int32) {
	var b C.apHandle
	r := C.apCreatePreprocessBuffer(&e.fns, e.device, C.uint64_t(size), &b)
	return unsafe.Pointer(b), int32(r)
}

// DestroyBuffer destroys a buffer of CreatePreprocessBuffer.
func (e *DGC) DestroyBuffer(b unsafe.Pointer) { C.apDestroyBuffer(&e.fns, e.device, C.apHandle(b)) }

// BufferAddress is vkGetBufferDeviceAddress.
func (e *DGC) BufferAddress(b unsafe.Pointer) uint64 {
	return uint64(C.apDGCBufferAddress(&e.fns, e.device, C.apHandle(b)))
}

// Generated is one vkCmd*GeneratedCommandsEXT's VkGeneratedCommandsInfoEXT
// (compute, no execution set: the pipeline bound).
type Generated struct {
	Layout, Pipeline         unsafe.Pointer
	Stream, StreamSize       uint64 // indirectAddress, indirectAddressSize
	Preprocess, PreprocessSz uint64
	MaxSequences             uint32
	Count                    uint64 // sequenceCountAddress
}

// CmdPreprocess records vkCmdPreprocessGeneratedCommandsEXT, cmd its own
// state command buffer.
func (e *DGC) CmdPreprocess(cmd unsafe.Pointer, g Generated) { e.cmd(cmd, 0, g) }

// CmdExecute records vkCmdExecuteGeneratedCommandsEXT(isPreprocessed).
func (e *DGC) CmdExecute(cmd unsafe.Pointer, g Generated) { e.cmd(cmd, 1, g) }

func (e *DGC) cmd(cmd unsafe.Pointer, execute C.int, g Generated) {
	C.apCmdDGC(&e.fns, C.apHandle(cmd), execute, C.apHandle(g.Layout), C.apHandle(g.Pipeline), C.uint64_t(g.Stream), C.uint64_t(g.StreamSize),
		C.uint64_t(g.Preprocess), C.uint64_t(g.PreprocessSz), C.uint32_t(g.MaxSequences), C.uint64_t(g.Count))
}
