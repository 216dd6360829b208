package vkext

/*
#include "vkext.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Submit holds vkQueueSubmit2.
type Submit struct {
	fns C.apSubmitFns
	w   []C.apSemaphoreSubmitInfo
	s   []C.apSemaphoreSubmitInfo
}

// LoadSubmit resolves vkQueueSubmit2 (vkQueueSubmit2KHR when sync2KHR).
func (in *Instance) LoadSubmit(device unsafe.Pointer, sync2KHR bool) (*Submit, error) {
	s := new(Submit)
	k := C.int(0)
	if sync2KHR {
		k = 1
	}
	if C.apLoadSubmit(&in.fns, C.apHandle(device), k, &s.fns) != 0 {
		return nil, errors.New("vkGetDeviceProcAddr found no vkQueueSubmit2")
	}
	return s, nil
}

// SemaphoreOp is one VkSemaphoreSubmitInfo of a binary semaphore: its
// stage mask is the wait's second (or the signal's first) scope.
type SemaphoreOp struct {
	Semaphore unsafe.Pointer
	Stages    uint64
}

// QueueSubmit2 submits one batch: waits, then the command buffer cmd
// (nil: none), then signals; fence (nil: none) is signalled when it
// completes. It returns the VkResult. Not safe for concurrent use.
func (s *Submit) QueueSubmit2(queue, cmd unsafe.Pointer, waits, signals []SemaphoreOp, fence unsafe.Pointer) int32 {
	s.w, s.s = s.w[:0], s.s[:0]
	for _, w := range waits {
		s.w = append(s.w, C.apSemaphoreSubmitInfo{sType: C.apSTypeSemaphoreSubmitInfo, semaphore: C.apHandle(w.Semaphore), stageMask: C.uint64_t(w.Stages)})
	}
	for _, x := range signals {
		s.s = append(s.s, C.apSemaphoreSubmitInfo{sType: C.apSTypeSemaphoreSubmitInfo, semaphore: C.apHandle(x.Semaphore), stageMask: C.uint64_t(x.Stages)})
	}
	return int32(C.apQueueSubmit2(&s.fns, C.apHandle(queue), C.apHandle(cmd),
		C.uint32_t(len(s.w)), first(s.w), C.uint32_t(len(s.s)), first(s.s), C.apHandle(fence)))
}
