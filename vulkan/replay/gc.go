package replay

import (
	"runtime/debug"
	"sync"
)

// goki/vulkan v1.0.8 marshals slice arguments (vkQueueSubmit's
// submits, vkUpdateDescriptorSets' writes, the regions of copies, ...)
// into C memory that a finalizer frees; the finalizer is attached to a
// variable that is dead once marshalling returns, so a garbage collection
// during the Vulkan call frees memory the driver is reading (seen as
// SIGSEGVs in vkUpdateDescriptorSets and vkCreateComputePipelines on
// lavapipe). The replay therefore runs with the collector off: pauseGC
// turns it off (nesting allowed) and returns the function that turns it
// back on; the finalizers then run after their calls.
var gcState struct {
	sync.Mutex
	depth int
	prev  int
}

func pauseGC() (resume func()) {
	gcState.Lock()
	if gcState.depth == 0 {
		gcState.prev = debug.SetGCPercent(-1)
	}
	gcState.depth++
	gcState.Unlock()
	return func() {
		gcState.Lock()
		gcState.depth--
		if gcState.depth == 0 {
			debug.SetGCPercent(gcState.prev)
		}
		gcState.Unlock()
	}
}
