package vulkan

import (
	"fmt"
	"unsafe"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// VK_EXT_device_generated_commands (package vulkan/replay, dgc.go): a
// frame with COMMAND_PREPROCESS accesses preprocesses and executes
// generated dispatches. Open enables the extension with VK_KHR_maintenance5
// (its preprocess buffers need VkBufferUsageFlags2CreateInfoKHR; the
// instance asks for Vulkan 1.3, where maintenance5 is an extension) and the
// deviceGeneratedCommands, maintenance5 and bufferDeviceAddress features
// only where Config.ReplayStages names COMMAND_PREPROCESS and the device
// has them all.
const (
	extDGC          = "VK_EXT_device_generated_commands"
	extDGCNV        = "VK_NV_device_generated_commands"
	extMaintenance5 = "VK_KHR_maintenance5"
)

// BufferUsagePreprocessEXT is VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT,
// a VkBufferUsageFlags2 bit that no planner usage name has: package
// vulkan/replay sets it in its copy of a graph on the buffers device-
// generated commands preprocess into, and Resources creates such a
// buffer with VkBufferUsageFlags2CreateInfoKHR (preprocessUsage), on a
// device opened with the extension only.
const BufferUsagePreprocessEXT avk.BufferUsage = 0x80000000

// preprocessUsage is the pNext chain a buffer of usage u is created with
// (next itself, and a no-op free, for any buffer but a preprocess one).
func (d *Device) preprocessUsage(u avk.BufferUsage, next unsafe.Pointer) (unsafe.Pointer, func(), error) {
	if u&BufferUsagePreprocessEXT == 0 {
		return next, func() {}, nil
	}
	if !d.dgc.on {
		return nil, nil, fmt.Errorf("%w: a preprocess buffer (VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT) on a device opened without VK_EXT_device_generated_commands", ErrUnsupported)
	}
	c := vkext.BufferUsage2Chain(uint64(u), next)
	return c.Head(), c.Free, nil
}

// dgcState is what Open enabled of the extension.
type dgcState struct {
	on  bool
	fns *vkext.DGC
}

// chooseDGC decides whether to enable the extension (createDevice
// appends the names it returns).
func (d *Device) chooseDGC() []string {
	if d.extras.stages&avk.StageCommandPreprocessNV == 0 {
		return nil
	}
	have := deviceExtensions(d.physical)
	if !have[extDGC] || !have[extMaintenance5] {
		return nil
	}
	s := d.ext.DGCSupported(unsafe.Pointer(d.physical))
	if !s.DGC || !s.BDA || !s.Maintenance5 {
		return nil
	}
	d.dgc.on = true
	return []string{extDGC + "\x00", extMaintenance5 + "\x00"}
}

// dgcChain puts the features before next (bufferDeviceAddress too where
// the acceleration-structure chain does not already enable it).
func (d *Device) dgcChain(next unsafe.Pointer) vkext.Chain {
	if !d.dgc.on {
		return vkext.Chain{}
	}
	return vkext.DGCChain(next, !d.extras.as)
}

func (d *Device) loadDGC() error {
	if !d.dgc.on {
		return nil
	}
	fns, err := d.ext.LoadDGC(unsafe.Pointer(d.device))
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
	}
	d.dgc.fns = fns
	return nil
}

// DGC returns VK_EXT_device_generated_commands' entry points, nil where
// the device was not opened with it (Config.ReplayStages without
// COMMAND_PREPROCESS, or a device lacking it).
func (h ReplayHooks) DGC() *vkext.DGC { return h.d.dgc.fns }

// DGCSupport says what the device has of device-generated commands, as
// queried: the EXT and NV extensions, VK_KHR_maintenance5, and (where it
// has the EXT and maintenance5) the features and limits.
func (h ReplayHooks) DGCSupport() (ext, nv, m5 bool, s vkext.DGCSupport) {
	have := deviceExtensions(h.d.physical)
	ext, nv, m5 = have[extDGC], have[extDGCNV], have[extMaintenance5]
	if ext && m5 {
		s = h.d.ext.DGCSupported(unsafe.Pointer(h.d.physical))
	}
	return ext, nv, m5, s
}
