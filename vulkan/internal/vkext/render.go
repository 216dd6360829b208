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

// Rendering holds vkCmdBeginRendering and vkCmdEndRendering (core 1.3).
type Rendering struct {
	fns C.apRenderingFns
}

// LoadRendering resolves the dynamic-rendering entry points of device.
func (in *Instance) LoadRendering(device unsafe.Pointer) (*Rendering, error) {
	r := new(Rendering)
	if C.apLoadRendering(&in.fns, C.apHandle(device), &r.fns) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no vkCmdBeginRendering/vkCmdEndRendering")
	}
	return r, nil
}

// RenderingSupported reports whether physical has the dynamicRendering,
// separateDepthStencilLayouts and (VK_EXT_robustness2) nullDescriptor
// features.
func (in *Instance) RenderingSupported(physical unsafe.Pointer) bool {
	return C.apRenderingSupported(&in.fns, C.apHandle(physical)) != 0
}

// ReplayChain enables synchronization2, dynamicRendering,
// separateDepthStencilLayouts and nullDescriptor, for
// VkDeviceCreateInfo.pNext (Vulkan 1.3 with VK_EXT_robustness2).
func ReplayChain() Chain {
	p := C.apNewReplayChain()
	return Chain{alloc: p, head: p}
}

// PipelineRendering is VkPipelineRenderingCreateInfo, for
// VkGraphicsPipelineCreateInfo.pNext; formats holds at most 8 VkFormats.
func PipelineRendering(formats []int32, depth, stencil int32) Chain {
	var p unsafe.Pointer
	if len(formats) == 0 {
		p = C.apNewPipelineRendering(0, nil, C.int32_t(depth), C.int32_t(stencil))
	} else {
		cf := (*C.int32_t)(C.malloc(C.size_t(4 * len(formats))))
		defer C.free(unsafe.Pointer(cf))
		copy(unsafe.Slice((*int32)(unsafe.Pointer(cf)), len(formats)), formats)
		p = C.apNewPipelineRendering(C.uint32_t(len(formats)), cf, C.int32_t(depth), C.int32_t(stencil))
	}
	return Chain{alloc: p, head: p}
}

// Attachment is one VkRenderingAttachmentInfo.
type Attachment struct {
	View    unsafe.Pointer // VkImageView; nil for an unused colour location
	Layout  int32
	LoadOp  int32
	StoreOp int32
	Clear   [4]uint32 // the clear value's bits (float colour, uint colour, or depth float bits and stencil)
	// ResolveView, when not nil, receives the resolve (ResolveMode, a
	// VkResolveModeFlagBits) in ResolveLayout.
	ResolveView   unsafe.Pointer
	ResolveLayout int32
	ResolveMode   uint32
}

// BeginRendering records vkCmdBeginRendering over [0,w)×[0,h) with the
// colour attachments and optional depth and stencil attachments.
func (r *Rendering) BeginRendering(cmd unsafe.Pointer, w, h uint32, color []Attachment, depth, stencil *Attachment) {
	n := len(color)
	mem := C.calloc(C.size_t(n+2), C.size_t(unsafe.Sizeof(C.apRenderingAttachmentInfo{})))
	defer C.free(mem)
	infos := unsafe.Slice((*C.apRenderingAttachmentInfo)(mem), n+2)
	fill := func(i int, a *Attachment) *C.apRenderingAttachmentInfo {
		if a == nil {
			return nil
		}
		x := &infos[i]
		x.sType = C.apSTypeRenderingAttachmentInfo
		x.imageView = C.apHandle(a.View)
		x.imageLayout = C.int32_t(a.Layout)
		x.loadOp = C.int32_t(a.LoadOp)
		x.storeOp = C.int32_t(a.StoreOp)
		if a.ResolveView != nil {
			x.resolveMode = C.uint32_t(a.ResolveMode)
			x.resolveImageView = C.apHandle(a.ResolveView)
			x.resolveImageLayout = C.int32_t(a.ResolveLayout)
		}
		cv := (*[4]uint32)(unsafe.Pointer(&x.clearValue))
		*cv = a.Clear
		return x
	}
	for i := range color {
		fill(i, &color[i])
	}
	var cp *C.apRenderingAttachmentInfo
	if n > 0 {
		cp = &infos[0]
	}
	area := C.apRect2D{width: C.uint32_t(w), height: C.uint32_t(h)}
	C.apBeginRendering(&r.fns, C.apHandle(cmd), &area, C.uint32_t(n), cp, fill(n, depth), fill(n+1, stencil))
}

// EndRendering records vkCmdEndRendering.
func (r *Rendering) EndRendering(cmd unsafe.Pointer) { C.apEndRendering(&r.fns, C.apHandle(cmd)) }

// CBytes copies b into C memory (for pointers Vulkan keeps inside
// structures); free releases it.
func CBytes(b []byte) (ptr unsafe.Pointer, free func()) {
	p := C.CBytes(b)
	return p, func() { C.free(p) }
}
