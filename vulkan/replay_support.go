package vulkan

import (
	"fmt"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

const extRobustness2 = "VK_EXT_robustness2"

// replayFeatures are the Vulkan 1.0 features Config.Replay enables:
// those replaySupported requires, and shaderStorageImageMultisample where
// the device has it (the replay names it when a frame needs it).
func replayFeatures(physical vk.PhysicalDevice) []vk.PhysicalDeviceFeatures {
	var have vk.PhysicalDeviceFeatures
	vk.GetPhysicalDeviceFeatures(physical, &have)
	have.Deref()
	return []vk.PhysicalDeviceFeatures{{
		ShaderStorageImageMultisample: have.ShaderStorageImageMultisample,
		// Tessellation and geometry stages (replay/prerast.go), where
		// the device has them; the replay names them when a frame needs
		// one the device lacks.
		TessellationShader:             have.TessellationShader,
		GeometryShader:                 have.GeometryShader,
		IndependentBlend:               vk.True,
		VertexPipelineStoresAndAtomics: vk.True,
		FragmentStoresAndAtomics:       vk.True,
		// Storage images are written without a format qualifier.
		ShaderStorageImageWriteWithoutFormat: vk.True,
		// Storage images of formats without a format-qualified array
		// are read without one, where the device can (replay/fmtless.go).
		ShaderStorageImageReadWithoutFormat: have.ShaderStorageImageReadWithoutFormat,
		// Index buffers hold whatever the frame wrote there: any 32-bit
		// index must be valid.
		FullDrawIndexUint32: vk.True,
	}}
}

// replaySupported says what a device lacks for Config.Replay.
func (d *Device) replaySupported(choice apiChoice) error {
	if !choice.API.atLeast(version13) {
		return fmt.Errorf("%w: %q: replay needs Vulkan 1.3 (dynamic rendering); %s is in effect", ErrUnsupported, d.info.Name, choice.API)
	}
	if !deviceExtensions(d.physical)[extRobustness2] {
		return fmt.Errorf("%w: %q: replay needs %s (null descriptors fill unused shader slots)", ErrUnsupported, d.info.Name, extRobustness2)
	}
	if !d.ext.RenderingSupported(unsafe.Pointer(d.physical)) {
		return fmt.Errorf("%w: %q: replay needs the dynamicRendering, separateDepthStencilLayouts and nullDescriptor features", ErrUnsupported, d.info.Name)
	}
	var f vk.PhysicalDeviceFeatures
	vk.GetPhysicalDeviceFeatures(d.physical, &f)
	f.Deref()
	if f.IndependentBlend != vk.True || f.VertexPipelineStoresAndAtomics != vk.True || f.FragmentStoresAndAtomics != vk.True || f.ShaderStorageImageWriteWithoutFormat != vk.True ||
		f.FullDrawIndexUint32 != vk.True {
		return fmt.Errorf("%w: %q: replay needs the independentBlend, vertexPipelineStoresAndAtomics, fragmentStoresAndAtomics, shaderStorageImageWriteWithoutFormat and fullDrawIndexUint32 features", ErrUnsupported, d.info.Name)
	}
	return nil
}

// loadStoreOpNone names the device's extension that gives
// VK_ATTACHMENT_LOAD_OP_NONE (EXT or KHR, one value), "" for none. EXT
// first: the Khronos validation layer 1.3.239 knows it, and warns that it
// does not support the KHR name (a message that fails every replay; H200).
func loadStoreOpNone(pd vk.PhysicalDevice) string {
	have := deviceExtensions(pd)
	for _, e := range []string{"VK_EXT_load_store_op_none", "VK_KHR_load_store_op_none"} {
		if have[e] {
			return e
		}
	}
	return ""
}

// ReplayHooks gives package vulkan/replay the entry points goki does not
// wrap. It is not meant for other callers: its types are internal.
type ReplayHooks struct{ d *Device }

// Replay returns the hooks of a device opened with Config.Replay (ok is
// false otherwise).
func (d *Device) Replay() (h ReplayHooks, ok bool) { return ReplayHooks{d}, d.rendering != nil }

// Rendering returns vkCmdBeginRendering/vkCmdEndRendering.
func (h ReplayHooks) Rendering() *vkext.Rendering { return h.d.rendering }

// Barrier records one vkCmdPipelineBarrier2.
func (h ReplayHooks) Barrier(cb vk.CommandBuffer, s *vkext.Barriers) {
	h.d.dext.PipelineBarrier2(unsafe.Pointer(cb), s)
}

// LoadOpNone says whether attachments may use VK_ATTACHMENT_LOAD_OP_NONE
// (an extension that gives it is enabled).
func (h ReplayHooks) LoadOpNone() bool { return h.d.loadOpNone }

// CommandPool returns the device's command pool (reset-able buffers).
func (h ReplayHooks) CommandPool() vk.CommandPool { return h.d.pool }
