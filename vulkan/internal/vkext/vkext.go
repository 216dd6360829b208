// Package vkext is the small cgo layer under package vulkan: it loads
// libvulkan.so.1 itself and calls the entry points that
// github.com/goki/vulkan does not wrap (the promoted *2 calls through
// vkGetDeviceProcAddr, vkCmdPipelineBarrier2, debug utils, validation
// features). It declares the few structures it needs by hand (vkext.h), so
// building needs no Vulkan headers or libraries.
//
// Handles cross this package as unsafe.Pointer: every Vulkan handle is a
// pointer on the 64-bit targets it supports, and goki's handle types
// convert to and from unsafe.Pointer. Nothing here retains Go memory past
// a call.
package vkext

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "vkext.h"
*/
import "C"

import (
	"errors"
	"runtime/cgo"
	"sync"
	"unsafe"
)

var (
	loadOnce sync.Once
	loadErr  error
)

// Load opens libvulkan.so.1 (once per process) and returns the address of
// its vkGetInstanceProcAddr, for vk.SetGetInstanceProcAddr.
func Load() (unsafe.Pointer, error) {
	loadOnce.Do(func() {
		var buf [512]C.char
		if C.apLoad(&buf[0], C.size_t(len(buf))) != 0 {
			loadErr = errors.New(C.GoString(&buf[0]))
		}
	})
	if loadErr != nil {
		return nil, loadErr
	}
	return C.apGetInstanceProcAddr(), nil
}

// InstanceVersion is the loader's vkEnumerateInstanceVersion (1.0 when the
// loader predates it). Load must have succeeded.
func InstanceVersion() uint32 { return uint32(C.apInstanceVersion()) }

// Instance holds one instance's extra entry points.
type Instance struct {
	fns C.apInstanceFns
}

// LoadInstance resolves the extra instance entry points. It fails when the
// instance lacks Vulkan 1.1's vkGetPhysicalDeviceFeatures2 and
// vkGetPhysicalDeviceProperties2.
func LoadInstance(instance unsafe.Pointer) (*Instance, error) {
	in := new(Instance)
	if C.apLoadInstance(C.apHandle(instance), &in.fns) != 0 {
		return nil, errors.New("the instance has no vkGetPhysicalDeviceFeatures2/vkGetPhysicalDeviceProperties2 (Vulkan 1.1)")
	}
	return in, nil
}

// Sync2Supported reports the synchronization2 feature of a physical device.
func (in *Instance) Sync2Supported(physical unsafe.Pointer) bool {
	return C.apSync2Supported(&in.fns, C.apHandle(physical)) != 0
}

// DeviceProperties returns maxMemoryAllocationSize and, when driverProps
// (the device has Vulkan 1.2), the driver's name and info strings.
func (in *Instance) DeviceProperties(physical unsafe.Pointer, driverProps bool) (maxAllocation uint64, driverName, driverInfo string) {
	var maxAlloc C.uint64_t
	var name, info [256]C.char
	dp := C.int(0)
	if driverProps {
		dp = 1
	}
	C.apDeviceProperties(&in.fns, C.apHandle(physical), dp, &maxAlloc, &name[0], &info[0])
	return uint64(maxAlloc), C.GoString(&name[0]), C.GoString(&info[0])
}

// CreateMessenger creates a debug-utils messenger that reports warnings
// and errors to the handler registered as user (see NewHandler). It
// returns the VkResult.
func (in *Instance) CreateMessenger(user uintptr) (unsafe.Pointer, int32) {
	var m C.apHandle
	r := C.apCreateMessenger(&in.fns, C.uintptr_t(user), &m)
	return unsafe.Pointer(m), int32(r)
}

// DestroyMessenger destroys a messenger from CreateMessenger; nil is a no-op.
func (in *Instance) DestroyMessenger(m unsafe.Pointer) {
	C.apDestroyMessenger(&in.fns, C.apHandle(m))
}

// Device holds one device's extra entry points.
type Device struct {
	fns C.apDeviceFns
}

// LoadDevice resolves the promoted entry points through
// vkGetDeviceProcAddr; sync2KHR picks vkCmdPipelineBarrier2KHR over the
// core name. On failure it names the missing entry point.
func (in *Instance) LoadDevice(device unsafe.Pointer, sync2KHR bool) (*Device, error) {
	d := new(Device)
	k := C.int(0)
	if sync2KHR {
		k = 1
	}
	var missing *C.char
	if C.apLoadDevice(&in.fns, C.apHandle(device), k, &d.fns, &missing) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no " + C.GoString(missing))
	}
	return d, nil
}

// Requirements are VkMemoryRequirements with VkMemoryDedicatedRequirements.
type Requirements struct {
	Size, Alignment                     uint64
	MemoryTypeBits                      uint32
	PrefersDedicated, RequiresDedicated bool
}

// BufferRequirements calls vkGetBufferMemoryRequirements2 with
// VkMemoryDedicatedRequirements chained.
func (d *Device) BufferRequirements(buffer unsafe.Pointer) Requirements {
	var r C.apMemoryRequirements
	var prefers, requires C.apBool32
	C.apBufferRequirements(&d.fns, C.apHandle(buffer), &r, &prefers, &requires)
	return requirements(&r, prefers, requires)
}

// ImageRequirements calls vkGetImageMemoryRequirements2 with
// VkMemoryDedicatedRequirements chained.
func (d *Device) ImageRequirements(image unsafe.Pointer) Requirements {
	var r C.apMemoryRequirements
	var prefers, requires C.apBool32
	C.apImageRequirements(&d.fns, C.apHandle(image), &r, &prefers, &requires)
	return requirements(&r, prefers, requires)
}

func requirements(r *C.apMemoryRequirements, prefers, requires C.apBool32) Requirements {
	return Requirements{
		Size:              uint64(r.size),
		Alignment:         uint64(r.alignment),
		MemoryTypeBits:    uint32(r.memoryTypeBits),
		PrefersDedicated:  prefers != 0,
		RequiresDedicated: requires != 0,
	}
}

// Bind is one VkBind{Buffer,Image}MemoryInfo: Object (a buffer or an
// image) at Offset in Memory.
type Bind struct {
	Object, Memory unsafe.Pointer
	Offset         uint64
}

// BindBuffers binds every buffer of binds in one vkBindBufferMemory2 call
// and returns its VkResult.
func (d *Device) BindBuffers(binds []Bind) int32 {
	if len(binds) == 0 {
		return 0
	}
	infos := make([]C.apBindBufferMemoryInfo, len(binds))
	for i, b := range binds {
		infos[i] = C.apBindBufferMemoryInfo{sType: C.apSTypeBindBufferMemoryInfo, buffer: C.apHandle(b.Object), memory: C.apHandle(b.Memory), memoryOffset: C.uint64_t(b.Offset)}
	}
	return int32(C.apBindBuffers(&d.fns, C.uint32_t(len(infos)), &infos[0]))
}

// BindImages binds every image of binds in one vkBindImageMemory2 call and
// returns its VkResult.
func (d *Device) BindImages(binds []Bind) int32 {
	if len(binds) == 0 {
		return 0
	}
	infos := make([]C.apBindImageMemoryInfo, len(binds))
	for i, b := range binds {
		infos[i] = C.apBindImageMemoryInfo{sType: C.apSTypeBindImageMemoryInfo, image: C.apHandle(b.Object), memory: C.apHandle(b.Memory), memoryOffset: C.uint64_t(b.Offset)}
	}
	return int32(C.apBindImages(&d.fns, C.uint32_t(len(infos)), &infos[0]))
}

// Scope is the source and destination half of a synchronization2 barrier.
type Scope struct {
	SrcStages, SrcAccess, DstStages, DstAccess uint64
}

// BufferBarrier is a VkBufferMemoryBarrier2; with Transfer it is one
// half (release or acquire) of a queue family ownership transfer from
// SrcFamily to DstFamily, else both indices are VK_QUEUE_FAMILY_IGNORED.
type BufferBarrier struct {
	Scope
	Buffer       unsafe.Pointer
	Offset, Size uint64
	Ownership
}

// Ownership is a barrier's queue family ownership transfer: the zero
// value is none (VK_QUEUE_FAMILY_IGNORED on both sides).
type Ownership struct {
	Transfer             bool
	SrcFamily, DstFamily uint32
}

func (o Ownership) families() (C.uint32_t, C.uint32_t) {
	if !o.Transfer {
		return queueFamilyIgnored, queueFamilyIgnored
	}
	return C.uint32_t(o.SrcFamily), C.uint32_t(o.DstFamily)
}

// ImageBarrier is a VkImageMemoryBarrier2, with an ownership transfer
// when Transfer (see BufferBarrier).
type ImageBarrier struct {
	Scope
	OldLayout, NewLayout             uint32
	Image                            unsafe.Pointer
	Aspect                           uint32
	BaseMip, Mips, BaseLayer, Layers uint32
	Ownership
}

// Barriers is reusable scratch for PipelineBarrier2: it keeps its C-shaped
// arrays between calls so recording allocates nothing once warm. The zero
// value is ready; it is not safe for concurrent use.
type Barriers struct {
	Memory []Scope
	Buffer []BufferBarrier
	Image  []ImageBarrier

	m []C.apMemoryBarrier2
	b []C.apBufferMemoryBarrier2
	i []C.apImageMemoryBarrier2
}

// Reset empties the lists, keeping their storage.
func (s *Barriers) Reset() {
	s.Memory, s.Buffer, s.Image = s.Memory[:0], s.Buffer[:0], s.Image[:0]
}

// Empty reports whether the lists are empty.
func (s *Barriers) Empty() bool { return len(s.Memory)+len(s.Buffer)+len(s.Image) == 0 }

const queueFamilyIgnored = ^C.uint32_t(0)

// PipelineBarrier2 records s's barriers with one vkCmdPipelineBarrier2.
func (d *Device) PipelineBarrier2(cmd unsafe.Pointer, s *Barriers) {
	s.m, s.b, s.i = s.m[:0], s.b[:0], s.i[:0]
	for _, m := range s.Memory {
		s.m = append(s.m, C.apMemoryBarrier2{sType: C.apSTypeMemoryBarrier2,
			srcStageMask: C.uint64_t(m.SrcStages), srcAccessMask: C.uint64_t(m.SrcAccess),
			dstStageMask: C.uint64_t(m.DstStages), dstAccessMask: C.uint64_t(m.DstAccess)})
	}
	for _, b := range s.Buffer {
		sf, df := b.families()
		s.b = append(s.b, C.apBufferMemoryBarrier2{sType: C.apSTypeBufferMemoryBarrier2,
			srcStageMask: C.uint64_t(b.SrcStages), srcAccessMask: C.uint64_t(b.SrcAccess),
			dstStageMask: C.uint64_t(b.DstStages), dstAccessMask: C.uint64_t(b.DstAccess),
			srcQueueFamilyIndex: sf, dstQueueFamilyIndex: df,
			buffer: C.apHandle(b.Buffer), offset: C.uint64_t(b.Offset), size: C.uint64_t(b.Size)})
	}
	for _, im := range s.Image {
		sf, df := im.families()
		s.i = append(s.i, C.apImageMemoryBarrier2{sType: C.apSTypeImageMemoryBarrier2,
			srcStageMask: C.uint64_t(im.SrcStages), srcAccessMask: C.uint64_t(im.SrcAccess),
			dstStageMask: C.uint64_t(im.DstStages), dstAccessMask: C.uint64_t(im.DstAccess),
			oldLayout: C.int32_t(im.OldLayout), newLayout: C.int32_t(im.NewLayout),
			srcQueueFamilyIndex: sf, dstQueueFamilyIndex: df,
			image: C.apHandle(im.Image),
			subresourceRange: C.apImageSubresourceRange{aspectMask: C.uint32_t(im.Aspect),
				baseMipLevel: C.uint32_t(im.BaseMip), levelCount: C.uint32_t(im.Mips),
				baseArrayLayer: C.uint32_t(im.BaseLayer), layerCount: C.uint32_t(im.Layers)}})
	}
	C.apPipelineBarrier2(&d.fns, C.apHandle(cmd),
		C.uint32_t(len(s.m)), first(s.m),
		C.uint32_t(len(s.b)), first(s.b),
		C.uint32_t(len(s.i)), first(s.i))
}

func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// Chain is a pNext structure chain in C memory. Free it after the call
// that reads it.
type Chain struct {
	alloc, head unsafe.Pointer
}

// Head is the pointer to put in a pNext field.
func (c Chain) Head() unsafe.Pointer { return c.head }

// Free releases the chain's memory; the zero Chain is a no-op.
func (c Chain) Free() {
	if c.alloc != nil {
		C.apFree(c.alloc)
	}
}

// ValidationChain is VkValidationFeaturesEXT enabling synchronization
// validation (when sync) and disabling the layer's handle wrapping (when
// noUniqueHandles), followed by a VkDebugUtilsMessengerCreateInfoEXT
// reporting to the handler user, for VkInstanceCreateInfo.pNext.
func ValidationChain(sync, noUniqueHandles bool, user uintptr) Chain {
	s, u := C.int(0), C.int(0)
	if sync {
		s = 1
	}
	if noUniqueHandles {
		u = 1
	}
	var head unsafe.Pointer
	alloc := C.apNewValidationChain(s, u, C.uintptr_t(user), &head)
	return Chain{alloc: alloc, head: head}
}

// Sync2Chain is VkPhysicalDeviceSynchronization2Features with the feature
// on, for VkDeviceCreateInfo.pNext (core 1.3 and the KHR extension share it).
func Sync2Chain() Chain {
	p := C.apNewSync2Chain()
	return Chain{alloc: p, head: p}
}

// DedicatedAllocateInfo is VkMemoryDedicatedAllocateInfo naming one
// buffer or image, for VkMemoryAllocateInfo.pNext.
func DedicatedAllocateInfo(buffer, image unsafe.Pointer) Chain {
	p := C.apNewDedicatedAllocateInfo(C.apHandle(buffer), C.apHandle(image))
	return Chain{alloc: p, head: p}
}

// Message is one debug-utils message, its strings copied out of the layer.
type Message struct {
	Severity uint32 // VkDebugUtilsMessageSeverityFlagBitsEXT
	Types    uint32 // VkDebugUtilsMessageTypeFlagsEXT
	ID       string // pMessageIdName, e.g. "SYNC-HAZARD-WRITE-AFTER-WRITE"
	Number   int32  // messageIdNumber
	Text     string
}

// NewHandler registers f to receive the messages of messengers created
// with the returned value as user data. Release it with DeleteHandler once
// no messenger (and no instance created with a ValidationChain) uses it.
func NewHandler(f func(Message)) uintptr { return uintptr(cgo.NewHandle(f)) }

// DeleteHandler releases a handler from NewHandler.
func DeleteHandler(user uintptr) { cgo.Handle(user).Delete() }

//export apGoDebugMessage
func apGoDebugMessage(user C.uintptr_t, severity, types C.uint32_t, id *C.char, number C.int32_t, text *C.char) {
	f, ok := cgo.Handle(user).Value().(func(Message))
	if !ok {
		return
	}
	// C.GoString copies: the layer frees its strings on return.
	f(Message{Severity: uint32(severity), Types: uint32(types), ID: C.GoString(id), Number: int32(number), Text: C.GoString(text)})
}
