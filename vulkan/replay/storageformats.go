package replay

import "github.com/aliasplan/aliasplan/vk"

// Storage-image reads of more 2D formats: lavapipe (and any device
// without shaderStorageImageReadWithoutFormat) reads storage images only
// through a format-qualified array, so each format needs one. Besides
// the ten of the base shaders, the EXTRA variants (used only by parts
// that need them) declare rg32f, rgba32ui, rgba16 (UNORM), rgb10_a2
// (A2B10G10R10_UNORM_PACK32) and rg8 arrays (common.glsl, bindings
// 35-39), two slots a stage. Other formats stay refused, naming
// shaderStorageImageReadWithoutFormat as queried on the device.

func moreStorageCategory(f vk.Format, is3D bool) (category, bool) {
	if is3D {
		return 0, false
	}
	for c := catRG32F; c < numCategories; c++ {
		if cats[c].format == f {
			return c, true
		}
	}
	return 0, false
}
