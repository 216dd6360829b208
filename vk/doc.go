// Package vk holds the Vulkan enum values that graphs, plans and barriers
// use — pipeline stages (VkPipelineStageFlags2), access flags
// (VkAccessFlags2), image layouts, formats, buffer and image usages,
// tilings — with their names as graph files write them (the Vulkan name
// without prefix and _BIT suffix: COMPUTE_SHADER, SHADER_STORAGE_WRITE,
// PRESENT_SRC_KHR), and Vulkan's table of which stages can perform which
// accesses. Values are Vulkan's own (vulkan_core.h of Vulkan 1.3.239), so
// a backend passes them through unchanged.
//
// The constants and name tables are generated from that header
// (names_gen.go; go generate ./vk runs internal/vkgen), so each name is
// written once; a test checks that the committed file is what the
// generator makes.
//
// Parse* look a name up (with or without an extension's _KHR suffix where
// that is unambiguous); String and Names print canonical names. Lookups
// are map reads built once; masks print in ascending bit order. The
// package has no dependencies (but internal/suggest, for the Suggest
// functions) and no state.
package vk
