package vulkan

import (
	"errors"
	"fmt"

	vk "github.com/goki/vulkan"
)

// Errors for a machine without a usable Vulkan. Open wraps them, so
// callers (and tests that skip) branch with errors.Is.
var (
	// ErrNoLoader: libvulkan.so.1 could not be loaded (Debian: libvulkan1).
	ErrNoLoader = errors.New("vulkan: no Vulkan loader (libvulkan.so.1)")
	// ErrNoDevice: the loader found no physical device (no driver
	// installed; Debian: mesa-vulkan-drivers for lavapipe).
	ErrNoDevice = errors.New("vulkan: no Vulkan device")
	// ErrNoValidationLayer: Config.Validation asked for
	// VK_LAYER_KHRONOS_validation and it is not installed (Debian:
	// vulkan-validationlayers).
	ErrNoValidationLayer = errors.New("vulkan: validation layer VK_LAYER_KHRONOS_validation not installed")
	// ErrUnsupported: a device exists but lacks what aliasplan needs
	// (Vulkan 1.1, and Vulkan 1.3 or VK_KHR_synchronization2).
	ErrUnsupported = errors.New("vulkan: device unsupported")
)

// Unavailable reports whether err means that this machine has no usable
// Vulkan (no loader, no device, no validation layer when one was asked
// for, or no device with the required version): the case in which GPU
// tests skip.
func Unavailable(err error) bool {
	return errors.Is(err, ErrNoLoader) || errors.Is(err, ErrNoDevice) ||
		errors.Is(err, ErrNoValidationLayer) || errors.Is(err, ErrUnsupported)
}

// Error is a failed Vulkan call: the call's name and the VkResult it
// returned, as in "vulkan: vkCreateImage: VK_ERROR_OUT_OF_DEVICE_MEMORY".
type Error struct {
	Call   string // "vkCreateImage"
	Result vk.Result
}

func (e *Error) Error() string { return "vulkan: " + e.Call + ": " + resultName(e.Result) }

// check turns a VkResult into nil or an *Error naming call.
func check(call string, r vk.Result) error {
	if r == vk.Success {
		return nil
	}
	return &Error{Call: call, Result: r}
}

var resultNames = map[vk.Result]string{
	vk.Success:                    "VK_SUCCESS",
	vk.NotReady:                   "VK_NOT_READY",
	vk.Timeout:                    "VK_TIMEOUT",
	vk.EventSet:                   "VK_EVENT_SET",
	vk.EventReset:                 "VK_EVENT_RESET",
	vk.Incomplete:                 "VK_INCOMPLETE",
	vk.ErrorOutOfHostMemory:       "VK_ERROR_OUT_OF_HOST_MEMORY",
	vk.ErrorOutOfDeviceMemory:     "VK_ERROR_OUT_OF_DEVICE_MEMORY",
	vk.ErrorInitializationFailed:  "VK_ERROR_INITIALIZATION_FAILED",
	vk.ErrorDeviceLost:            "VK_ERROR_DEVICE_LOST",
	vk.ErrorMemoryMapFailed:       "VK_ERROR_MEMORY_MAP_FAILED",
	vk.ErrorLayerNotPresent:       "VK_ERROR_LAYER_NOT_PRESENT",
	vk.ErrorExtensionNotPresent:   "VK_ERROR_EXTENSION_NOT_PRESENT",
	vk.ErrorFeatureNotPresent:     "VK_ERROR_FEATURE_NOT_PRESENT",
	vk.ErrorIncompatibleDriver:    "VK_ERROR_INCOMPATIBLE_DRIVER",
	vk.ErrorTooManyObjects:        "VK_ERROR_TOO_MANY_OBJECTS",
	vk.ErrorFormatNotSupported:    "VK_ERROR_FORMAT_NOT_SUPPORTED",
	vk.ErrorFragmentedPool:        "VK_ERROR_FRAGMENTED_POOL",
	vk.ErrorUnknown:               "VK_ERROR_UNKNOWN",
	vk.ErrorOutOfPoolMemory:       "VK_ERROR_OUT_OF_POOL_MEMORY",
	vk.ErrorInvalidExternalHandle: "VK_ERROR_INVALID_EXTERNAL_HANDLE",
	vk.ErrorFragmentation:         "VK_ERROR_FRAGMENTATION",
	vk.ErrorValidationFailed:      "VK_ERROR_VALIDATION_FAILED_EXT",
}

func resultName(r vk.Result) string {
	if n, ok := resultNames[r]; ok {
		return n
	}
	return fmt.Sprintf("VkResult(%d)", int32(r))
}

// BindRule names the bind-time check a resource failed.
type BindRule string

const (
	RuleAlignment      BindRule = "alignment"        // the planned offset is not a multiple of the real alignment
	RuleMemoryTypeBits BindRule = "memory-type-bits" // the pool's memory type is not in the real memoryTypeBits
	RuleBounds         BindRule = "bounds"           // offset + real size runs past the end of the pool
	RuleSize           BindRule = "size"             // the real size exceeds the planned size: it would spill into a neighbour
	RuleMemoryType     BindRule = "memory-type"      // no memory type of the device suits the resource
	RulePlan           BindRule = "plan"             // the plan does not fit the graph or the device (wrong length, bad pool index)
)

// BindError reports why Resources.Bind failed: the step it was at
// ("validate", "allocate pool 2", "bind pool 0 images", ...), the resource
// involved (when one is), the rule broken (bind-time validation) or the
// failed call (Err, often an *Error). When Bind returns it, everything Bind
// and Requirements had created has been destroyed.
type BindError struct {
	Step     string
	Resource string   // the resource's name; "" when the step concerns a pool
	Rule     BindRule // set for validation failures
	Detail   string
	Err      error
}

func (e *BindError) Error() string {
	s := "vulkan: bind: " + e.Step
	if e.Resource != "" {
		s += fmt.Sprintf(": resource %q", e.Resource)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Rule != "" {
		s += fmt.Sprintf(" (rule %s)", e.Rule)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *BindError) Unwrap() error { return e.Err }
