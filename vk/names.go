package vk

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// The names and values of the Vulkan enums that graph files use (SPEC §5).
//
// A name is the Vulkan enum name without its prefix (VK_PIPELINE_STAGE_2_,
// VK_ACCESS_2_, VK_IMAGE_LAYOUT_, VK_FORMAT_, VK_BUFFER_USAGE_,
// VK_IMAGE_USAGE_, VK_IMAGE_TILING_) and without the _BIT suffix:
// COMPUTE_SHADER, SHADER_STORAGE_WRITE. Extension suffixes are part of the
// name and are written so (PRESENT_SRC_KHR, RAY_TRACING_SHADER_KHR,
// TRANSFORM_FEEDBACK_EXT); names promoted to core have none
// (SHADER_STORAGE_WRITE, DEPTH_READ_ONLY_OPTIMAL). The parsers also accept a
// name without its _KHR suffix (PRESENT_SRC), which earlier versions wrote:
// no two names differ only by it, so that is never ambiguous. Every value is Vulkan's own, taken
// from vulkan_core.h of Vulkan 1.3.239 (names of beta extensions left out), so
// a Vulkan backend passes them through unchanged. Formats and tilings are
// those of core Vulkan 1.3.

// Stage is a mask of pipeline stages (VkPipelineStageFlags2).
type Stage uint64

// Pipeline stages (VK_PIPELINE_STAGE_2_*).
const (
	StageNone                          Stage = 0x00000000
	StageTopOfPipe                     Stage = 0x00000001
	StageDrawIndirect                  Stage = 0x00000002
	StageVertexInput                   Stage = 0x00000004
	StageVertexShader                  Stage = 0x00000008
	StageTessellationControlShader     Stage = 0x00000010
	StageTessellationEvaluationShader  Stage = 0x00000020
	StageGeometryShader                Stage = 0x00000040
	StageFragmentShader                Stage = 0x00000080
	StageEarlyFragmentTests            Stage = 0x00000100
	StageLateFragmentTests             Stage = 0x00000200
	StageColorAttachmentOutput         Stage = 0x00000400
	StageComputeShader                 Stage = 0x00000800
	StageAllTransfer                   Stage = 0x00001000
	StageTransfer                            = StageAllTransfer // alias
	StageBottomOfPipe                  Stage = 0x00002000
	StageHost                          Stage = 0x00004000
	StageAllGraphics                   Stage = 0x00008000
	StageAllCommands                   Stage = 0x00010000
	StageCommandPreprocessNV           Stage = 0x00020000
	StageConditionalRenderingEXT       Stage = 0x00040000
	StageTaskShaderEXT                 Stage = 0x00080000
	StageTaskShaderNV                        = StageTaskShaderEXT // alias
	StageMeshShaderEXT                 Stage = 0x00100000
	StageMeshShaderNV                        = StageMeshShaderEXT // alias
	StageRayTracingShader              Stage = 0x00200000
	StageRayTracingShaderNV                  = StageRayTracingShader // alias
	StageFragmentShadingRateAttachment Stage = 0x00400000
	StageShadingRateImageNV                  = StageFragmentShadingRateAttachment // alias
	StageFragmentDensityProcessEXT     Stage = 0x00800000
	StageTransformFeedbackEXT          Stage = 0x01000000
	StageAccelerationStructureBuild    Stage = 0x02000000
	StageAccelerationStructureBuildNV        = StageAccelerationStructureBuild // alias
	StageVideoDecode                   Stage = 0x04000000
	StageAccelerationStructureCopy     Stage = 0x10000000
	StageOpticalFlowNV                 Stage = 0x20000000
	StageMicromapBuildEXT              Stage = 0x40000000
	StageCopy                          Stage = 0x100000000
	StageResolve                       Stage = 0x200000000
	StageBlit                          Stage = 0x400000000
	StageClear                         Stage = 0x800000000
	StageIndexInput                    Stage = 0x1000000000
	StageVertexAttributeInput          Stage = 0x2000000000
	StagePreRasterizationShaders       Stage = 0x4000000000
	StageSubpassShadingHUAWEI          Stage = 0x8000000000
	StageInvocationMaskHUAWEI          Stage = 0x10000000000
	StageClusterCullingShaderHUAWEI    Stage = 0x20000000000
)

// stageTable lists every stage name by ascending value; the first name of a value is canonical.
var stageTable = []nameValue[Stage]{
	{"NONE", StageNone},
	{"TOP_OF_PIPE", StageTopOfPipe},
	{"DRAW_INDIRECT", StageDrawIndirect},
	{"VERTEX_INPUT", StageVertexInput},
	{"VERTEX_SHADER", StageVertexShader},
	{"TESSELLATION_CONTROL_SHADER", StageTessellationControlShader},
	{"TESSELLATION_EVALUATION_SHADER", StageTessellationEvaluationShader},
	{"GEOMETRY_SHADER", StageGeometryShader},
	{"FRAGMENT_SHADER", StageFragmentShader},
	{"EARLY_FRAGMENT_TESTS", StageEarlyFragmentTests},
	{"LATE_FRAGMENT_TESTS", StageLateFragmentTests},
	{"COLOR_ATTACHMENT_OUTPUT", StageColorAttachmentOutput},
	{"COMPUTE_SHADER", StageComputeShader},
	{"ALL_TRANSFER", StageAllTransfer},
	{"TRANSFER", StageTransfer},
	{"BOTTOM_OF_PIPE", StageBottomOfPipe},
	{"HOST", StageHost},
	{"ALL_GRAPHICS", StageAllGraphics},
	{"ALL_COMMANDS", StageAllCommands},
	{"COMMAND_PREPROCESS_NV", StageCommandPreprocessNV},
	{"CONDITIONAL_RENDERING_EXT", StageConditionalRenderingEXT},
	{"TASK_SHADER_EXT", StageTaskShaderEXT},
	{"TASK_SHADER_NV", StageTaskShaderNV},
	{"MESH_SHADER_EXT", StageMeshShaderEXT},
	{"MESH_SHADER_NV", StageMeshShaderNV},
	{"RAY_TRACING_SHADER_KHR", StageRayTracingShader},
	{"RAY_TRACING_SHADER_NV", StageRayTracingShaderNV},
	{"FRAGMENT_SHADING_RATE_ATTACHMENT_KHR", StageFragmentShadingRateAttachment},
	{"SHADING_RATE_IMAGE_NV", StageShadingRateImageNV},
	{"FRAGMENT_DENSITY_PROCESS_EXT", StageFragmentDensityProcessEXT},
	{"TRANSFORM_FEEDBACK_EXT", StageTransformFeedbackEXT},
	{"ACCELERATION_STRUCTURE_BUILD_KHR", StageAccelerationStructureBuild},
	{"ACCELERATION_STRUCTURE_BUILD_NV", StageAccelerationStructureBuildNV},
	{"VIDEO_DECODE_KHR", StageVideoDecode},
	{"ACCELERATION_STRUCTURE_COPY_KHR", StageAccelerationStructureCopy},
	{"OPTICAL_FLOW_NV", StageOpticalFlowNV},
	{"MICROMAP_BUILD_EXT", StageMicromapBuildEXT},
	{"COPY", StageCopy},
	{"RESOLVE", StageResolve},
	{"BLIT", StageBlit},
	{"CLEAR", StageClear},
	{"INDEX_INPUT", StageIndexInput},
	{"VERTEX_ATTRIBUTE_INPUT", StageVertexAttributeInput},
	{"PRE_RASTERIZATION_SHADERS", StagePreRasterizationShaders},
	{"SUBPASS_SHADING_HUAWEI", StageSubpassShadingHUAWEI},
	{"INVOCATION_MASK_HUAWEI", StageInvocationMaskHUAWEI},
	{"CLUSTER_CULLING_SHADER_HUAWEI", StageClusterCullingShaderHUAWEI},
}

// AccessFlags is a mask of memory access types (VkAccessFlags2).
type AccessFlags uint64

// Access types (VK_ACCESS_2_*).
const (
	AccessNone                              AccessFlags = 0x00000000
	AccessIndirectCommandRead               AccessFlags = 0x00000001
	AccessIndexRead                         AccessFlags = 0x00000002
	AccessVertexAttributeRead               AccessFlags = 0x00000004
	AccessUniformRead                       AccessFlags = 0x00000008
	AccessInputAttachmentRead               AccessFlags = 0x00000010
	AccessShaderRead                        AccessFlags = 0x00000020
	AccessShaderWrite                       AccessFlags = 0x00000040
	AccessColorAttachmentRead               AccessFlags = 0x00000080
	AccessColorAttachmentWrite              AccessFlags = 0x00000100
	AccessDepthStencilAttachmentRead        AccessFlags = 0x00000200
	AccessDepthStencilAttachmentWrite       AccessFlags = 0x00000400
	AccessTransferRead                      AccessFlags = 0x00000800
	AccessTransferWrite                     AccessFlags = 0x00001000
	AccessHostRead                          AccessFlags = 0x00002000
	AccessHostWrite                         AccessFlags = 0x00004000
	AccessMemoryRead                        AccessFlags = 0x00008000
	AccessMemoryWrite                       AccessFlags = 0x00010000
	AccessCommandPreprocessReadNV           AccessFlags = 0x00020000
	AccessCommandPreprocessWriteNV          AccessFlags = 0x00040000
	AccessColorAttachmentReadNoncoherentEXT AccessFlags = 0x00080000
	AccessConditionalRenderingReadEXT       AccessFlags = 0x00100000
	AccessAccelerationStructureRead         AccessFlags = 0x00200000
	AccessAccelerationStructureReadNV                   = AccessAccelerationStructureRead // alias
	AccessAccelerationStructureWrite        AccessFlags = 0x00400000
	AccessAccelerationStructureWriteNV                  = AccessAccelerationStructureWrite // alias
	AccessFragmentShadingRateAttachmentRead AccessFlags = 0x00800000
	AccessShadingRateImageReadNV                        = AccessFragmentShadingRateAttachmentRead // alias
	AccessFragmentDensityMapReadEXT         AccessFlags = 0x01000000
	AccessTransformFeedbackWriteEXT         AccessFlags = 0x02000000
	AccessTransformFeedbackCounterReadEXT   AccessFlags = 0x04000000
	AccessTransformFeedbackCounterWriteEXT  AccessFlags = 0x08000000
	AccessShaderSampledRead                 AccessFlags = 0x100000000
	AccessShaderStorageRead                 AccessFlags = 0x200000000
	AccessShaderStorageWrite                AccessFlags = 0x400000000
	AccessVideoDecodeRead                   AccessFlags = 0x800000000
	AccessVideoDecodeWrite                  AccessFlags = 0x1000000000
	AccessInvocationMaskReadHUAWEI          AccessFlags = 0x8000000000
	AccessShaderBindingTableRead            AccessFlags = 0x10000000000
	AccessDescriptorBufferReadEXT           AccessFlags = 0x20000000000
	AccessOpticalFlowReadNV                 AccessFlags = 0x40000000000
	AccessOpticalFlowWriteNV                AccessFlags = 0x80000000000
	AccessMicromapReadEXT                   AccessFlags = 0x100000000000
	AccessMicromapWriteEXT                  AccessFlags = 0x200000000000
)

// WriteAccess is every access bit whose name contains WRITE: an access with any
// of them modifies the resource (SPEC §2).
const WriteAccess = AccessShaderWrite |
	AccessColorAttachmentWrite |
	AccessDepthStencilAttachmentWrite |
	AccessTransferWrite |
	AccessHostWrite |
	AccessMemoryWrite |
	AccessCommandPreprocessWriteNV |
	AccessAccelerationStructureWrite |
	AccessTransformFeedbackWriteEXT |
	AccessTransformFeedbackCounterWriteEXT |
	AccessShaderStorageWrite |
	AccessVideoDecodeWrite |
	AccessOpticalFlowWriteNV |
	AccessMicromapWriteEXT

// accessTable lists every access name by ascending value; the first name of a value is canonical.
var accessTable = []nameValue[AccessFlags]{
	{"NONE", AccessNone},
	{"INDIRECT_COMMAND_READ", AccessIndirectCommandRead},
	{"INDEX_READ", AccessIndexRead},
	{"VERTEX_ATTRIBUTE_READ", AccessVertexAttributeRead},
	{"UNIFORM_READ", AccessUniformRead},
	{"INPUT_ATTACHMENT_READ", AccessInputAttachmentRead},
	{"SHADER_READ", AccessShaderRead},
	{"SHADER_WRITE", AccessShaderWrite},
	{"COLOR_ATTACHMENT_READ", AccessColorAttachmentRead},
	{"COLOR_ATTACHMENT_WRITE", AccessColorAttachmentWrite},
	{"DEPTH_STENCIL_ATTACHMENT_READ", AccessDepthStencilAttachmentRead},
	{"DEPTH_STENCIL_ATTACHMENT_WRITE", AccessDepthStencilAttachmentWrite},
	{"TRANSFER_READ", AccessTransferRead},
	{"TRANSFER_WRITE", AccessTransferWrite},
	{"HOST_READ", AccessHostRead},
	{"HOST_WRITE", AccessHostWrite},
	{"MEMORY_READ", AccessMemoryRead},
	{"MEMORY_WRITE", AccessMemoryWrite},
	{"COMMAND_PREPROCESS_READ_NV", AccessCommandPreprocessReadNV},
	{"COMMAND_PREPROCESS_WRITE_NV", AccessCommandPreprocessWriteNV},
	{"COLOR_ATTACHMENT_READ_NONCOHERENT_EXT", AccessColorAttachmentReadNoncoherentEXT},
	{"CONDITIONAL_RENDERING_READ_EXT", AccessConditionalRenderingReadEXT},
	{"ACCELERATION_STRUCTURE_READ_KHR", AccessAccelerationStructureRead},
	{"ACCELERATION_STRUCTURE_READ_NV", AccessAccelerationStructureReadNV},
	{"ACCELERATION_STRUCTURE_WRITE_KHR", AccessAccelerationStructureWrite},
	{"ACCELERATION_STRUCTURE_WRITE_NV", AccessAccelerationStructureWriteNV},
	{"FRAGMENT_SHADING_RATE_ATTACHMENT_READ_KHR", AccessFragmentShadingRateAttachmentRead},
	{"SHADING_RATE_IMAGE_READ_NV", AccessShadingRateImageReadNV},
	{"FRAGMENT_DENSITY_MAP_READ_EXT", AccessFragmentDensityMapReadEXT},
	{"TRANSFORM_FEEDBACK_WRITE_EXT", AccessTransformFeedbackWriteEXT},
	{"TRANSFORM_FEEDBACK_COUNTER_READ_EXT", AccessTransformFeedbackCounterReadEXT},
	{"TRANSFORM_FEEDBACK_COUNTER_WRITE_EXT", AccessTransformFeedbackCounterWriteEXT},
	{"SHADER_SAMPLED_READ", AccessShaderSampledRead},
	{"SHADER_STORAGE_READ", AccessShaderStorageRead},
	{"SHADER_STORAGE_WRITE", AccessShaderStorageWrite},
	{"VIDEO_DECODE_READ_KHR", AccessVideoDecodeRead},
	{"VIDEO_DECODE_WRITE_KHR", AccessVideoDecodeWrite},
	{"INVOCATION_MASK_READ_HUAWEI", AccessInvocationMaskReadHUAWEI},
	{"SHADER_BINDING_TABLE_READ_KHR", AccessShaderBindingTableRead},
	{"DESCRIPTOR_BUFFER_READ_EXT", AccessDescriptorBufferReadEXT},
	{"OPTICAL_FLOW_READ_NV", AccessOpticalFlowReadNV},
	{"OPTICAL_FLOW_WRITE_NV", AccessOpticalFlowWriteNV},
	{"MICROMAP_READ_EXT", AccessMicromapReadEXT},
	{"MICROMAP_WRITE_EXT", AccessMicromapWriteEXT},
}

// Layout is an image layout (VkImageLayout).
type Layout uint32

// Image layouts (VK_IMAGE_LAYOUT_*).
const (
	LayoutUndefined                             Layout = 0
	LayoutGeneral                               Layout = 1
	LayoutColorAttachmentOptimal                Layout = 2
	LayoutDepthStencilAttachmentOptimal         Layout = 3
	LayoutDepthStencilReadOnlyOptimal           Layout = 4
	LayoutShaderReadOnlyOptimal                 Layout = 5
	LayoutTransferSrcOptimal                    Layout = 6
	LayoutTransferDstOptimal                    Layout = 7
	LayoutPreinitialized                        Layout = 8
	LayoutPresentSrc                            Layout = 1000001002
	LayoutVideoDecodeDst                        Layout = 1000024000
	LayoutVideoDecodeSrc                        Layout = 1000024001
	LayoutVideoDecodeDpb                        Layout = 1000024002
	LayoutSharedPresent                         Layout = 1000111000
	LayoutDepthReadOnlyStencilAttachmentOptimal Layout = 1000117000
	LayoutDepthAttachmentStencilReadOnlyOptimal Layout = 1000117001
	LayoutFragmentShadingRateAttachmentOptimal  Layout = 1000164003
	LayoutShadingRateOptimalNV                         = LayoutFragmentShadingRateAttachmentOptimal // alias
	LayoutFragmentDensityMapOptimalEXT          Layout = 1000218000
	LayoutDepthAttachmentOptimal                Layout = 1000241000
	LayoutDepthReadOnlyOptimal                  Layout = 1000241001
	LayoutStencilAttachmentOptimal              Layout = 1000241002
	LayoutStencilReadOnlyOptimal                Layout = 1000241003
	LayoutReadOnlyOptimal                       Layout = 1000314000
	LayoutAttachmentOptimal                     Layout = 1000314001
	LayoutAttachmentFeedbackLoopOptimalEXT      Layout = 1000339000
)

// layoutTable lists every layout name by ascending value; the first name of a value is canonical.
var layoutTable = []nameValue[Layout]{
	{"UNDEFINED", LayoutUndefined},
	{"GENERAL", LayoutGeneral},
	{"COLOR_ATTACHMENT_OPTIMAL", LayoutColorAttachmentOptimal},
	{"DEPTH_STENCIL_ATTACHMENT_OPTIMAL", LayoutDepthStencilAttachmentOptimal},
	{"DEPTH_STENCIL_READ_ONLY_OPTIMAL", LayoutDepthStencilReadOnlyOptimal},
	{"SHADER_READ_ONLY_OPTIMAL", LayoutShaderReadOnlyOptimal},
	{"TRANSFER_SRC_OPTIMAL", LayoutTransferSrcOptimal},
	{"TRANSFER_DST_OPTIMAL", LayoutTransferDstOptimal},
	{"PREINITIALIZED", LayoutPreinitialized},
	{"PRESENT_SRC_KHR", LayoutPresentSrc},
	{"VIDEO_DECODE_DST_KHR", LayoutVideoDecodeDst},
	{"VIDEO_DECODE_SRC_KHR", LayoutVideoDecodeSrc},
	{"VIDEO_DECODE_DPB_KHR", LayoutVideoDecodeDpb},
	{"SHARED_PRESENT_KHR", LayoutSharedPresent},
	{"DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL", LayoutDepthReadOnlyStencilAttachmentOptimal},
	{"DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL", LayoutDepthAttachmentStencilReadOnlyOptimal},
	{"FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR", LayoutFragmentShadingRateAttachmentOptimal},
	{"SHADING_RATE_OPTIMAL_NV", LayoutShadingRateOptimalNV},
	{"FRAGMENT_DENSITY_MAP_OPTIMAL_EXT", LayoutFragmentDensityMapOptimalEXT},
	{"DEPTH_ATTACHMENT_OPTIMAL", LayoutDepthAttachmentOptimal},
	{"DEPTH_READ_ONLY_OPTIMAL", LayoutDepthReadOnlyOptimal},
	{"STENCIL_ATTACHMENT_OPTIMAL", LayoutStencilAttachmentOptimal},
	{"STENCIL_READ_ONLY_OPTIMAL", LayoutStencilReadOnlyOptimal},
	{"READ_ONLY_OPTIMAL", LayoutReadOnlyOptimal},
	{"ATTACHMENT_OPTIMAL", LayoutAttachmentOptimal},
	{"ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT", LayoutAttachmentFeedbackLoopOptimalEXT},
}

// Format is an image format (VkFormat).
type Format uint32

// Image formats (VK_FORMAT_*), the formats of core Vulkan 1.3.
const (
	FormatUndefined                            Format = 0
	FormatR4G4UnormPack8                       Format = 1
	FormatR4G4B4A4UnormPack16                  Format = 2
	FormatB4G4R4A4UnormPack16                  Format = 3
	FormatR5G6B5UnormPack16                    Format = 4
	FormatB5G6R5UnormPack16                    Format = 5
	FormatR5G5B5A1UnormPack16                  Format = 6
	FormatB5G5R5A1UnormPack16                  Format = 7
	FormatA1R5G5B5UnormPack16                  Format = 8
	FormatR8Unorm                              Format = 9
	FormatR8Snorm                              Format = 10
	FormatR8Uscaled                            Format = 11
	FormatR8Sscaled                            Format = 12
	FormatR8Uint                               Format = 13
	FormatR8Sint                               Format = 14
	FormatR8Srgb                               Format = 15
	FormatR8G8Unorm                            Format = 16
	FormatR8G8Snorm                            Format = 17
	FormatR8G8Uscaled                          Format = 18
	FormatR8G8Sscaled                          Format = 19
	FormatR8G8Uint                             Format = 20
	FormatR8G8Sint                             Format = 21
	FormatR8G8Srgb                             Format = 22
	FormatR8G8B8Unorm                          Format = 23
	FormatR8G8B8Snorm                          Format = 24
	FormatR8G8B8Uscaled                        Format = 25
	FormatR8G8B8Sscaled                        Format = 26
	FormatR8G8B8Uint                           Format = 27
	FormatR8G8B8Sint                           Format = 28
	FormatR8G8B8Srgb                           Format = 29
	FormatB8G8R8Unorm                          Format = 30
	FormatB8G8R8Snorm                          Format = 31
	FormatB8G8R8Uscaled                        Format = 32
	FormatB8G8R8Sscaled                        Format = 33
	FormatB8G8R8Uint                           Format = 34
	FormatB8G8R8Sint                           Format = 35
	FormatB8G8R8Srgb                           Format = 36
	FormatR8G8B8A8Unorm                        Format = 37
	FormatR8G8B8A8Snorm                        Format = 38
	FormatR8G8B8A8Uscaled                      Format = 39
	FormatR8G8B8A8Sscaled                      Format = 40
	FormatR8G8B8A8Uint                         Format = 41
	FormatR8G8B8A8Sint                         Format = 42
	FormatR8G8B8A8Srgb                         Format = 43
	FormatB8G8R8A8Unorm                        Format = 44
	FormatB8G8R8A8Snorm                        Format = 45
	FormatB8G8R8A8Uscaled                      Format = 46
	FormatB8G8R8A8Sscaled                      Format = 47
	FormatB8G8R8A8Uint                         Format = 48
	FormatB8G8R8A8Sint                         Format = 49
	FormatB8G8R8A8Srgb                         Format = 50
	FormatA8B8G8R8UnormPack32                  Format = 51
	FormatA8B8G8R8SnormPack32                  Format = 52
	FormatA8B8G8R8UscaledPack32                Format = 53
	FormatA8B8G8R8SscaledPack32                Format = 54
	FormatA8B8G8R8UintPack32                   Format = 55
	FormatA8B8G8R8SintPack32                   Format = 56
	FormatA8B8G8R8SrgbPack32                   Format = 57
	FormatA2R10G10B10UnormPack32               Format = 58
	FormatA2R10G10B10SnormPack32               Format = 59
	FormatA2R10G10B10UscaledPack32             Format = 60
	FormatA2R10G10B10SscaledPack32             Format = 61
	FormatA2R10G10B10UintPack32                Format = 62
	FormatA2R10G10B10SintPack32                Format = 63
	FormatA2B10G10R10UnormPack32               Format = 64
	FormatA2B10G10R10SnormPack32               Format = 65
	FormatA2B10G10R10UscaledPack32             Format = 66
	FormatA2B10G10R10SscaledPack32             Format = 67
	FormatA2B10G10R10UintPack32                Format = 68
	FormatA2B10G10R10SintPack32                Format = 69
	FormatR16Unorm                             Format = 70
	FormatR16Snorm                             Format = 71
	FormatR16Uscaled                           Format = 72
	FormatR16Sscaled                           Format = 73
	FormatR16Uint                              Format = 74
	FormatR16Sint                              Format = 75
	FormatR16Sfloat                            Format = 76
	FormatR16G16Unorm                          Format = 77
	FormatR16G16Snorm                          Format = 78
	FormatR16G16Uscaled                        Format = 79
	FormatR16G16Sscaled                        Format = 80
	FormatR16G16Uint                           Format = 81
	FormatR16G16Sint                           Format = 82
	FormatR16G16Sfloat                         Format = 83
	FormatR16G16B16Unorm                       Format = 84
	FormatR16G16B16Snorm                       Format = 85
	FormatR16G16B16Uscaled                     Format = 86
	FormatR16G16B16Sscaled                     Format = 87
	FormatR16G16B16Uint                        Format = 88
	FormatR16G16B16Sint                        Format = 89
	FormatR16G16B16Sfloat                      Format = 90
	FormatR16G16B16A16Unorm                    Format = 91
	FormatR16G16B16A16Snorm                    Format = 92
	FormatR16G16B16A16Uscaled                  Format = 93
	FormatR16G16B16A16Sscaled                  Format = 94
	FormatR16G16B16A16Uint                     Format = 95
	FormatR16G16B16A16Sint                     Format = 96
	FormatR16G16B16A16Sfloat                   Format = 97
	FormatR32Uint                              Format = 98
	FormatR32Sint                              Format = 99
	FormatR32Sfloat                            Format = 100
	FormatR32G32Uint                           Format = 101
	FormatR32G32Sint                           Format = 102
	FormatR32G32Sfloat                         Format = 103
	FormatR32G32B32Uint                        Format = 104
	FormatR32G32B32Sint                        Format = 105
	FormatR32G32B32Sfloat                      Format = 106
	FormatR32G32B32A32Uint                     Format = 107
	FormatR32G32B32A32Sint                     Format = 108
	FormatR32G32B32A32Sfloat                   Format = 109
	FormatR64Uint                              Format = 110
	FormatR64Sint                              Format = 111
	FormatR64Sfloat                            Format = 112
	FormatR64G64Uint                           Format = 113
	FormatR64G64Sint                           Format = 114
	FormatR64G64Sfloat                         Format = 115
	FormatR64G64B64Uint                        Format = 116
	FormatR64G64B64Sint                        Format = 117
	FormatR64G64B64Sfloat                      Format = 118
	FormatR64G64B64A64Uint                     Format = 119
	FormatR64G64B64A64Sint                     Format = 120
	FormatR64G64B64A64Sfloat                   Format = 121
	FormatB10G11R11UfloatPack32                Format = 122
	FormatE5B9G9R9UfloatPack32                 Format = 123
	FormatD16Unorm                             Format = 124
	FormatX8D24UnormPack32                     Format = 125
	FormatD32Sfloat                            Format = 126
	FormatS8Uint                               Format = 127
	FormatD16UnormS8Uint                       Format = 128
	FormatD24UnormS8Uint                       Format = 129
	FormatD32SfloatS8Uint                      Format = 130
	FormatBc1RgbUnormBlock                     Format = 131
	FormatBc1RgbSrgbBlock                      Format = 132
	FormatBc1RgbaUnormBlock                    Format = 133
	FormatBc1RgbaSrgbBlock                     Format = 134
	FormatBc2UnormBlock                        Format = 135
	FormatBc2SrgbBlock                         Format = 136
	FormatBc3UnormBlock                        Format = 137
	FormatBc3SrgbBlock                         Format = 138
	FormatBc4UnormBlock                        Format = 139
	FormatBc4SnormBlock                        Format = 140
	FormatBc5UnormBlock                        Format = 141
	FormatBc5SnormBlock                        Format = 142
	FormatBc6hUfloatBlock                      Format = 143
	FormatBc6hSfloatBlock                      Format = 144
	FormatBc7UnormBlock                        Format = 145
	FormatBc7SrgbBlock                         Format = 146
	FormatEtc2R8G8B8UnormBlock                 Format = 147
	FormatEtc2R8G8B8SrgbBlock                  Format = 148
	FormatEtc2R8G8B8A1UnormBlock               Format = 149
	FormatEtc2R8G8B8A1SrgbBlock                Format = 150
	FormatEtc2R8G8B8A8UnormBlock               Format = 151
	FormatEtc2R8G8B8A8SrgbBlock                Format = 152
	FormatEacR11UnormBlock                     Format = 153
	FormatEacR11SnormBlock                     Format = 154
	FormatEacR11G11UnormBlock                  Format = 155
	FormatEacR11G11SnormBlock                  Format = 156
	FormatAstc4x4UnormBlock                    Format = 157
	FormatAstc4x4SrgbBlock                     Format = 158
	FormatAstc5x4UnormBlock                    Format = 159
	FormatAstc5x4SrgbBlock                     Format = 160
	FormatAstc5x5UnormBlock                    Format = 161
	FormatAstc5x5SrgbBlock                     Format = 162
	FormatAstc6x5UnormBlock                    Format = 163
	FormatAstc6x5SrgbBlock                     Format = 164
	FormatAstc6x6UnormBlock                    Format = 165
	FormatAstc6x6SrgbBlock                     Format = 166
	FormatAstc8x5UnormBlock                    Format = 167
	FormatAstc8x5SrgbBlock                     Format = 168
	FormatAstc8x6UnormBlock                    Format = 169
	FormatAstc8x6SrgbBlock                     Format = 170
	FormatAstc8x8UnormBlock                    Format = 171
	FormatAstc8x8SrgbBlock                     Format = 172
	FormatAstc10x5UnormBlock                   Format = 173
	FormatAstc10x5SrgbBlock                    Format = 174
	FormatAstc10x6UnormBlock                   Format = 175
	FormatAstc10x6SrgbBlock                    Format = 176
	FormatAstc10x8UnormBlock                   Format = 177
	FormatAstc10x8SrgbBlock                    Format = 178
	FormatAstc10x10UnormBlock                  Format = 179
	FormatAstc10x10SrgbBlock                   Format = 180
	FormatAstc12x10UnormBlock                  Format = 181
	FormatAstc12x10SrgbBlock                   Format = 182
	FormatAstc12x12UnormBlock                  Format = 183
	FormatAstc12x12SrgbBlock                   Format = 184
	FormatAstc4x4SfloatBlock                   Format = 1000066000
	FormatAstc5x4SfloatBlock                   Format = 1000066001
	FormatAstc5x5SfloatBlock                   Format = 1000066002
	FormatAstc6x5SfloatBlock                   Format = 1000066003
	FormatAstc6x6SfloatBlock                   Format = 1000066004
	FormatAstc8x5SfloatBlock                   Format = 1000066005
	FormatAstc8x6SfloatBlock                   Format = 1000066006
	FormatAstc8x8SfloatBlock                   Format = 1000066007
	FormatAstc10x5SfloatBlock                  Format = 1000066008
	FormatAstc10x6SfloatBlock                  Format = 1000066009
	FormatAstc10x8SfloatBlock                  Format = 1000066010
	FormatAstc10x10SfloatBlock                 Format = 1000066011
	FormatAstc12x10SfloatBlock                 Format = 1000066012
	FormatAstc12x12SfloatBlock                 Format = 1000066013
	FormatG8B8G8R8422Unorm                     Format = 1000156000
	FormatB8G8R8G8422Unorm                     Format = 1000156001
	FormatG8B8R83Plane420Unorm                 Format = 1000156002
	FormatG8B8R82Plane420Unorm                 Format = 1000156003
	FormatG8B8R83Plane422Unorm                 Format = 1000156004
	FormatG8B8R82Plane422Unorm                 Format = 1000156005
	FormatG8B8R83Plane444Unorm                 Format = 1000156006
	FormatR10X6UnormPack16                     Format = 1000156007
	FormatR10X6G10X6Unorm2Pack16               Format = 1000156008
	FormatR10X6G10X6B10X6A10X6Unorm4Pack16     Format = 1000156009
	FormatG10X6B10X6G10X6R10X6422Unorm4Pack16  Format = 1000156010
	FormatB10X6G10X6R10X6G10X6422Unorm4Pack16  Format = 1000156011
	FormatG10X6B10X6R10X63Plane420Unorm3Pack16 Format = 1000156012
	FormatG10X6B10X6R10X62Plane420Unorm3Pack16 Format = 1000156013
	FormatG10X6B10X6R10X63Plane422Unorm3Pack16 Format = 1000156014
	FormatG10X6B10X6R10X62Plane422Unorm3Pack16 Format = 1000156015
	FormatG10X6B10X6R10X63Plane444Unorm3Pack16 Format = 1000156016
	FormatR12X4UnormPack16                     Format = 1000156017
	FormatR12X4G12X4Unorm2Pack16               Format = 1000156018
	FormatR12X4G12X4B12X4A12X4Unorm4Pack16     Format = 1000156019
	FormatG12X4B12X4G12X4R12X4422Unorm4Pack16  Format = 1000156020
	FormatB12X4G12X4R12X4G12X4422Unorm4Pack16  Format = 1000156021
	FormatG12X4B12X4R12X43Plane420Unorm3Pack16 Format = 1000156022
	FormatG12X4B12X4R12X42Plane420Unorm3Pack16 Format = 1000156023
	FormatG12X4B12X4R12X43Plane422Unorm3Pack16 Format = 1000156024
	FormatG12X4B12X4R12X42Plane422Unorm3Pack16 Format = 1000156025
	FormatG12X4B12X4R12X43Plane444Unorm3Pack16 Format = 1000156026
	FormatG16B16G16R16422Unorm                 Format = 1000156027
	FormatB16G16R16G16422Unorm                 Format = 1000156028
	FormatG16B16R163Plane420Unorm              Format = 1000156029
	FormatG16B16R162Plane420Unorm              Format = 1000156030
	FormatG16B16R163Plane422Unorm              Format = 1000156031
	FormatG16B16R162Plane422Unorm              Format = 1000156032
	FormatG16B16R163Plane444Unorm              Format = 1000156033
	FormatG8B8R82Plane444Unorm                 Format = 1000330000
	FormatG10X6B10X6R10X62Plane444Unorm3Pack16 Format = 1000330001
	FormatG12X4B12X4R12X42Plane444Unorm3Pack16 Format = 1000330002
	FormatG16B16R162Plane444Unorm              Format = 1000330003
	FormatA4R4G4B4UnormPack16                  Format = 1000340000
	FormatA4B4G4R4UnormPack16                  Format = 1000340001
)

// formatTable lists every format by ascending value with its block size.
var formatTable = []formatInfo{
	{"UNDEFINED", FormatUndefined, 0, 1, 1, 0},
	{"R4G4_UNORM_PACK8", FormatR4G4UnormPack8, 1, 1, 1, 0},
	{"R4G4B4A4_UNORM_PACK16", FormatR4G4B4A4UnormPack16, 2, 1, 1, 0},
	{"B4G4R4A4_UNORM_PACK16", FormatB4G4R4A4UnormPack16, 2, 1, 1, 0},
	{"R5G6B5_UNORM_PACK16", FormatR5G6B5UnormPack16, 2, 1, 1, 0},
	{"B5G6R5_UNORM_PACK16", FormatB5G6R5UnormPack16, 2, 1, 1, 0},
	{"R5G5B5A1_UNORM_PACK16", FormatR5G5B5A1UnormPack16, 2, 1, 1, 0},
	{"B5G5R5A1_UNORM_PACK16", FormatB5G5R5A1UnormPack16, 2, 1, 1, 0},
	{"A1R5G5B5_UNORM_PACK16", FormatA1R5G5B5UnormPack16, 2, 1, 1, 0},
	{"R8_UNORM", FormatR8Unorm, 1, 1, 1, 0},
	{"R8_SNORM", FormatR8Snorm, 1, 1, 1, 0},
	{"R8_USCALED", FormatR8Uscaled, 1, 1, 1, 0},
	{"R8_SSCALED", FormatR8Sscaled, 1, 1, 1, 0},
	{"R8_UINT", FormatR8Uint, 1, 1, 1, 0},
	{"R8_SINT", FormatR8Sint, 1, 1, 1, 0},
	{"R8_SRGB", FormatR8Srgb, 1, 1, 1, 0},
	{"R8G8_UNORM", FormatR8G8Unorm, 2, 1, 1, 0},
	{"R8G8_SNORM", FormatR8G8Snorm, 2, 1, 1, 0},
	{"R8G8_USCALED", FormatR8G8Uscaled, 2, 1, 1, 0},
	{"R8G8_SSCALED", FormatR8G8Sscaled, 2, 1, 1, 0},
	{"R8G8_UINT", FormatR8G8Uint, 2, 1, 1, 0},
	{"R8G8_SINT", FormatR8G8Sint, 2, 1, 1, 0},
	{"R8G8_SRGB", FormatR8G8Srgb, 2, 1, 1, 0},
	{"R8G8B8_UNORM", FormatR8G8B8Unorm, 3, 1, 1, 0},
	{"R8G8B8_SNORM", FormatR8G8B8Snorm, 3, 1, 1, 0},
	{"R8G8B8_USCALED", FormatR8G8B8Uscaled, 3, 1, 1, 0},
	{"R8G8B8_SSCALED", FormatR8G8B8Sscaled, 3, 1, 1, 0},
	{"R8G8B8_UINT", FormatR8G8B8Uint, 3, 1, 1, 0},
	{"R8G8B8_SINT", FormatR8G8B8Sint, 3, 1, 1, 0},
	{"R8G8B8_SRGB", FormatR8G8B8Srgb, 3, 1, 1, 0},
	{"B8G8R8_UNORM", FormatB8G8R8Unorm, 3, 1, 1, 0},
	{"B8G8R8_SNORM", FormatB8G8R8Snorm, 3, 1, 1, 0},
	{"B8G8R8_USCALED", FormatB8G8R8Uscaled, 3, 1, 1, 0},
	{"B8G8R8_SSCALED", FormatB8G8R8Sscaled, 3, 1, 1, 0},
	{"B8G8R8_UINT", FormatB8G8R8Uint, 3, 1, 1, 0},
	{"B8G8R8_SINT", FormatB8G8R8Sint, 3, 1, 1, 0},
	{"B8G8R8_SRGB", FormatB8G8R8Srgb, 3, 1, 1, 0},
	{"R8G8B8A8_UNORM", FormatR8G8B8A8Unorm, 4, 1, 1, 0},
	{"R8G8B8A8_SNORM", FormatR8G8B8A8Snorm, 4, 1, 1, 0},
	{"R8G8B8A8_USCALED", FormatR8G8B8A8Uscaled, 4, 1, 1, 0},
	{"R8G8B8A8_SSCALED", FormatR8G8B8A8Sscaled, 4, 1, 1, 0},
	{"R8G8B8A8_UINT", FormatR8G8B8A8Uint, 4, 1, 1, 0},
	{"R8G8B8A8_SINT", FormatR8G8B8A8Sint, 4, 1, 1, 0},
	{"R8G8B8A8_SRGB", FormatR8G8B8A8Srgb, 4, 1, 1, 0},
	{"B8G8R8A8_UNORM", FormatB8G8R8A8Unorm, 4, 1, 1, 0},
	{"B8G8R8A8_SNORM", FormatB8G8R8A8Snorm, 4, 1, 1, 0},
	{"B8G8R8A8_USCALED", FormatB8G8R8A8Uscaled, 4, 1, 1, 0},
	{"B8G8R8A8_SSCALED", FormatB8G8R8A8Sscaled, 4, 1, 1, 0},
	{"B8G8R8A8_UINT", FormatB8G8R8A8Uint, 4, 1, 1, 0},
	{"B8G8R8A8_SINT", FormatB8G8R8A8Sint, 4, 1, 1, 0},
	{"B8G8R8A8_SRGB", FormatB8G8R8A8Srgb, 4, 1, 1, 0},
	{"A8B8G8R8_UNORM_PACK32", FormatA8B8G8R8UnormPack32, 4, 1, 1, 0},
	{"A8B8G8R8_SNORM_PACK32", FormatA8B8G8R8SnormPack32, 4, 1, 1, 0},
	{"A8B8G8R8_USCALED_PACK32", FormatA8B8G8R8UscaledPack32, 4, 1, 1, 0},
	{"A8B8G8R8_SSCALED_PACK32", FormatA8B8G8R8SscaledPack32, 4, 1, 1, 0},
	{"A8B8G8R8_UINT_PACK32", FormatA8B8G8R8UintPack32, 4, 1, 1, 0},
	{"A8B8G8R8_SINT_PACK32", FormatA8B8G8R8SintPack32, 4, 1, 1, 0},
	{"A8B8G8R8_SRGB_PACK32", FormatA8B8G8R8SrgbPack32, 4, 1, 1, 0},
	{"A2R10G10B10_UNORM_PACK32", FormatA2R10G10B10UnormPack32, 4, 1, 1, 0},
	{"A2R10G10B10_SNORM_PACK32", FormatA2R10G10B10SnormPack32, 4, 1, 1, 0},
	{"A2R10G10B10_USCALED_PACK32", FormatA2R10G10B10UscaledPack32, 4, 1, 1, 0},
	{"A2R10G10B10_SSCALED_PACK32", FormatA2R10G10B10SscaledPack32, 4, 1, 1, 0},
	{"A2R10G10B10_UINT_PACK32", FormatA2R10G10B10UintPack32, 4, 1, 1, 0},
	{"A2R10G10B10_SINT_PACK32", FormatA2R10G10B10SintPack32, 4, 1, 1, 0},
	{"A2B10G10R10_UNORM_PACK32", FormatA2B10G10R10UnormPack32, 4, 1, 1, 0},
	{"A2B10G10R10_SNORM_PACK32", FormatA2B10G10R10SnormPack32, 4, 1, 1, 0},
	{"A2B10G10R10_USCALED_PACK32", FormatA2B10G10R10UscaledPack32, 4, 1, 1, 0},
	{"A2B10G10R10_SSCALED_PACK32", FormatA2B10G10R10SscaledPack32, 4, 1, 1, 0},
	{"A2B10G10R10_UINT_PACK32", FormatA2B10G10R10UintPack32, 4, 1, 1, 0},
	{"A2B10G10R10_SINT_PACK32", FormatA2B10G10R10SintPack32, 4, 1, 1, 0},
	{"R16_UNORM", FormatR16Unorm, 2, 1, 1, 0},
	{"R16_SNORM", FormatR16Snorm, 2, 1, 1, 0},
	{"R16_USCALED", FormatR16Uscaled, 2, 1, 1, 0},
	{"R16_SSCALED", FormatR16Sscaled, 2, 1, 1, 0},
	{"R16_UINT", FormatR16Uint, 2, 1, 1, 0},
	{"R16_SINT", FormatR16Sint, 2, 1, 1, 0},
	{"R16_SFLOAT", FormatR16Sfloat, 2, 1, 1, 0},
	{"R16G16_UNORM", FormatR16G16Unorm, 4, 1, 1, 0},
	{"R16G16_SNORM", FormatR16G16Snorm, 4, 1, 1, 0},
	{"R16G16_USCALED", FormatR16G16Uscaled, 4, 1, 1, 0},
	{"R16G16_SSCALED", FormatR16G16Sscaled, 4, 1, 1, 0},
	{"R16G16_UINT", FormatR16G16Uint, 4, 1, 1, 0},
	{"R16G16_SINT", FormatR16G16Sint, 4, 1, 1, 0},
	{"R16G16_SFLOAT", FormatR16G16Sfloat, 4, 1, 1, 0},
	{"R16G16B16_UNORM", FormatR16G16B16Unorm, 6, 1, 1, 0},
	{"R16G16B16_SNORM", FormatR16G16B16Snorm, 6, 1, 1, 0},
	{"R16G16B16_USCALED", FormatR16G16B16Uscaled, 6, 1, 1, 0},
	{"R16G16B16_SSCALED", FormatR16G16B16Sscaled, 6, 1, 1, 0},
	{"R16G16B16_UINT", FormatR16G16B16Uint, 6, 1, 1, 0},
	{"R16G16B16_SINT", FormatR16G16B16Sint, 6, 1, 1, 0},
	{"R16G16B16_SFLOAT", FormatR16G16B16Sfloat, 6, 1, 1, 0},
	{"R16G16B16A16_UNORM", FormatR16G16B16A16Unorm, 8, 1, 1, 0},
	{"R16G16B16A16_SNORM", FormatR16G16B16A16Snorm, 8, 1, 1, 0},
	{"R16G16B16A16_USCALED", FormatR16G16B16A16Uscaled, 8, 1, 1, 0},
	{"R16G16B16A16_SSCALED", FormatR16G16B16A16Sscaled, 8, 1, 1, 0},
	{"R16G16B16A16_UINT", FormatR16G16B16A16Uint, 8, 1, 1, 0},
	{"R16G16B16A16_SINT", FormatR16G16B16A16Sint, 8, 1, 1, 0},
	{"R16G16B16A16_SFLOAT", FormatR16G16B16A16Sfloat, 8, 1, 1, 0},
	{"R32_UINT", FormatR32Uint, 4, 1, 1, 0},
	{"R32_SINT", FormatR32Sint, 4, 1, 1, 0},
	{"R32_SFLOAT", FormatR32Sfloat, 4, 1, 1, 0},
	{"R32G32_UINT", FormatR32G32Uint, 8, 1, 1, 0},
	{"R32G32_SINT", FormatR32G32Sint, 8, 1, 1, 0},
	{"R32G32_SFLOAT", FormatR32G32Sfloat, 8, 1, 1, 0},
	{"R32G32B32_UINT", FormatR32G32B32Uint, 12, 1, 1, 0},
	{"R32G32B32_SINT", FormatR32G32B32Sint, 12, 1, 1, 0},
	{"R32G32B32_SFLOAT", FormatR32G32B32Sfloat, 12, 1, 1, 0},
	{"R32G32B32A32_UINT", FormatR32G32B32A32Uint, 16, 1, 1, 0},
	{"R32G32B32A32_SINT", FormatR32G32B32A32Sint, 16, 1, 1, 0},
	{"R32G32B32A32_SFLOAT", FormatR32G32B32A32Sfloat, 16, 1, 1, 0},
	{"R64_UINT", FormatR64Uint, 8, 1, 1, 0},
	{"R64_SINT", FormatR64Sint, 8, 1, 1, 0},
	{"R64_SFLOAT", FormatR64Sfloat, 8, 1, 1, 0},
	{"R64G64_UINT", FormatR64G64Uint, 16, 1, 1, 0},
	{"R64G64_SINT", FormatR64G64Sint, 16, 1, 1, 0},
	{"R64G64_SFLOAT", FormatR64G64Sfloat, 16, 1, 1, 0},
	{"R64G64B64_UINT", FormatR64G64B64Uint, 24, 1, 1, 0},
	{"R64G64B64_SINT", FormatR64G64B64Sint, 24, 1, 1, 0},
	{"R64G64B64_SFLOAT", FormatR64G64B64Sfloat, 24, 1, 1, 0},
	{"R64G64B64A64_UINT", FormatR64G64B64A64Uint, 32, 1, 1, 0},
	{"R64G64B64A64_SINT", FormatR64G64B64A64Sint, 32, 1, 1, 0},
	{"R64G64B64A64_SFLOAT", FormatR64G64B64A64Sfloat, 32, 1, 1, 0},
	{"B10G11R11_UFLOAT_PACK32", FormatB10G11R11UfloatPack32, 4, 1, 1, 0},
	{"E5B9G9R9_UFLOAT_PACK32", FormatE5B9G9R9UfloatPack32, 4, 1, 1, 0},
	{"D16_UNORM", FormatD16Unorm, 2, 1, 1, aspectDepth},
	{"X8_D24_UNORM_PACK32", FormatX8D24UnormPack32, 4, 1, 1, aspectDepth},
	{"D32_SFLOAT", FormatD32Sfloat, 4, 1, 1, aspectDepth},
	{"S8_UINT", FormatS8Uint, 1, 1, 1, aspectStencil},
	{"D16_UNORM_S8_UINT", FormatD16UnormS8Uint, 4, 1, 1, aspectDepth | aspectStencil},
	{"D24_UNORM_S8_UINT", FormatD24UnormS8Uint, 4, 1, 1, aspectDepth | aspectStencil},
	{"D32_SFLOAT_S8_UINT", FormatD32SfloatS8Uint, 8, 1, 1, aspectDepth | aspectStencil},
	{"BC1_RGB_UNORM_BLOCK", FormatBc1RgbUnormBlock, 8, 4, 4, 0},
	{"BC1_RGB_SRGB_BLOCK", FormatBc1RgbSrgbBlock, 8, 4, 4, 0},
	{"BC1_RGBA_UNORM_BLOCK", FormatBc1RgbaUnormBlock, 8, 4, 4, 0},
	{"BC1_RGBA_SRGB_BLOCK", FormatBc1RgbaSrgbBlock, 8, 4, 4, 0},
	{"BC2_UNORM_BLOCK", FormatBc2UnormBlock, 16, 4, 4, 0},
	{"BC2_SRGB_BLOCK", FormatBc2SrgbBlock, 16, 4, 4, 0},
	{"BC3_UNORM_BLOCK", FormatBc3UnormBlock, 16, 4, 4, 0},
	{"BC3_SRGB_BLOCK", FormatBc3SrgbBlock, 16, 4, 4, 0},
	{"BC4_UNORM_BLOCK", FormatBc4UnormBlock, 8, 4, 4, 0},
	{"BC4_SNORM_BLOCK", FormatBc4SnormBlock, 8, 4, 4, 0},
	{"BC5_UNORM_BLOCK", FormatBc5UnormBlock, 16, 4, 4, 0},
	{"BC5_SNORM_BLOCK", FormatBc5SnormBlock, 16, 4, 4, 0},
	{"BC6H_UFLOAT_BLOCK", FormatBc6hUfloatBlock, 16, 4, 4, 0},
	{"BC6H_SFLOAT_BLOCK", FormatBc6hSfloatBlock, 16, 4, 4, 0},
	{"BC7_UNORM_BLOCK", FormatBc7UnormBlock, 16, 4, 4, 0},
	{"BC7_SRGB_BLOCK", FormatBc7SrgbBlock, 16, 4, 4, 0},
	{"ETC2_R8G8B8_UNORM_BLOCK", FormatEtc2R8G8B8UnormBlock, 8, 4, 4, 0},
	{"ETC2_R8G8B8_SRGB_BLOCK", FormatEtc2R8G8B8SrgbBlock, 8, 4, 4, 0},
	{"ETC2_R8G8B8A1_UNORM_BLOCK", FormatEtc2R8G8B8A1UnormBlock, 8, 4, 4, 0},
	{"ETC2_R8G8B8A1_SRGB_BLOCK", FormatEtc2R8G8B8A1SrgbBlock, 8, 4, 4, 0},
	{"ETC2_R8G8B8A8_UNORM_BLOCK", FormatEtc2R8G8B8A8UnormBlock, 16, 4, 4, 0},
	{"ETC2_R8G8B8A8_SRGB_BLOCK", FormatEtc2R8G8B8A8SrgbBlock, 16, 4, 4, 0},
	{"EAC_R11_UNORM_BLOCK", FormatEacR11UnormBlock, 8, 4, 4, 0},
	{"EAC_R11_SNORM_BLOCK", FormatEacR11SnormBlock, 8, 4, 4, 0},
	{"EAC_R11G11_UNORM_BLOCK", FormatEacR11G11UnormBlock, 16, 4, 4, 0},
	{"EAC_R11G11_SNORM_BLOCK", FormatEacR11G11SnormBlock, 16, 4, 4, 0},
	{"ASTC_4x4_UNORM_BLOCK", FormatAstc4x4UnormBlock, 16, 4, 4, 0},
	{"ASTC_4x4_SRGB_BLOCK", FormatAstc4x4SrgbBlock, 16, 4, 4, 0},
	{"ASTC_5x4_UNORM_BLOCK", FormatAstc5x4UnormBlock, 16, 5, 4, 0},
	{"ASTC_5x4_SRGB_BLOCK", FormatAstc5x4SrgbBlock, 16, 5, 4, 0},
	{"ASTC_5x5_UNORM_BLOCK", FormatAstc5x5UnormBlock, 16, 5, 5, 0},
	{"ASTC_5x5_SRGB_BLOCK", FormatAstc5x5SrgbBlock, 16, 5, 5, 0},
	{"ASTC_6x5_UNORM_BLOCK", FormatAstc6x5UnormBlock, 16, 6, 5, 0},
	{"ASTC_6x5_SRGB_BLOCK", FormatAstc6x5SrgbBlock, 16, 6, 5, 0},
	{"ASTC_6x6_UNORM_BLOCK", FormatAstc6x6UnormBlock, 16, 6, 6, 0},
	{"ASTC_6x6_SRGB_BLOCK", FormatAstc6x6SrgbBlock, 16, 6, 6, 0},
	{"ASTC_8x5_UNORM_BLOCK", FormatAstc8x5UnormBlock, 16, 8, 5, 0},
	{"ASTC_8x5_SRGB_BLOCK", FormatAstc8x5SrgbBlock, 16, 8, 5, 0},
	{"ASTC_8x6_UNORM_BLOCK", FormatAstc8x6UnormBlock, 16, 8, 6, 0},
	{"ASTC_8x6_SRGB_BLOCK", FormatAstc8x6SrgbBlock, 16, 8, 6, 0},
	{"ASTC_8x8_UNORM_BLOCK", FormatAstc8x8UnormBlock, 16, 8, 8, 0},
	{"ASTC_8x8_SRGB_BLOCK", FormatAstc8x8SrgbBlock, 16, 8, 8, 0},
	{"ASTC_10x5_UNORM_BLOCK", FormatAstc10x5UnormBlock, 16, 10, 5, 0},
	{"ASTC_10x5_SRGB_BLOCK", FormatAstc10x5SrgbBlock, 16, 10, 5, 0},
	{"ASTC_10x6_UNORM_BLOCK", FormatAstc10x6UnormBlock, 16, 10, 6, 0},
	{"ASTC_10x6_SRGB_BLOCK", FormatAstc10x6SrgbBlock, 16, 10, 6, 0},
	{"ASTC_10x8_UNORM_BLOCK", FormatAstc10x8UnormBlock, 16, 10, 8, 0},
	{"ASTC_10x8_SRGB_BLOCK", FormatAstc10x8SrgbBlock, 16, 10, 8, 0},
	{"ASTC_10x10_UNORM_BLOCK", FormatAstc10x10UnormBlock, 16, 10, 10, 0},
	{"ASTC_10x10_SRGB_BLOCK", FormatAstc10x10SrgbBlock, 16, 10, 10, 0},
	{"ASTC_12x10_UNORM_BLOCK", FormatAstc12x10UnormBlock, 16, 12, 10, 0},
	{"ASTC_12x10_SRGB_BLOCK", FormatAstc12x10SrgbBlock, 16, 12, 10, 0},
	{"ASTC_12x12_UNORM_BLOCK", FormatAstc12x12UnormBlock, 16, 12, 12, 0},
	{"ASTC_12x12_SRGB_BLOCK", FormatAstc12x12SrgbBlock, 16, 12, 12, 0},
	{"ASTC_4x4_SFLOAT_BLOCK", FormatAstc4x4SfloatBlock, 16, 4, 4, 0},
	{"ASTC_5x4_SFLOAT_BLOCK", FormatAstc5x4SfloatBlock, 16, 5, 4, 0},
	{"ASTC_5x5_SFLOAT_BLOCK", FormatAstc5x5SfloatBlock, 16, 5, 5, 0},
	{"ASTC_6x5_SFLOAT_BLOCK", FormatAstc6x5SfloatBlock, 16, 6, 5, 0},
	{"ASTC_6x6_SFLOAT_BLOCK", FormatAstc6x6SfloatBlock, 16, 6, 6, 0},
	{"ASTC_8x5_SFLOAT_BLOCK", FormatAstc8x5SfloatBlock, 16, 8, 5, 0},
	{"ASTC_8x6_SFLOAT_BLOCK", FormatAstc8x6SfloatBlock, 16, 8, 6, 0},
	{"ASTC_8x8_SFLOAT_BLOCK", FormatAstc8x8SfloatBlock, 16, 8, 8, 0},
	{"ASTC_10x5_SFLOAT_BLOCK", FormatAstc10x5SfloatBlock, 16, 10, 5, 0},
	{"ASTC_10x6_SFLOAT_BLOCK", FormatAstc10x6SfloatBlock, 16, 10, 6, 0},
	{"ASTC_10x8_SFLOAT_BLOCK", FormatAstc10x8SfloatBlock, 16, 10, 8, 0},
	{"ASTC_10x10_SFLOAT_BLOCK", FormatAstc10x10SfloatBlock, 16, 10, 10, 0},
	{"ASTC_12x10_SFLOAT_BLOCK", FormatAstc12x10SfloatBlock, 16, 12, 10, 0},
	{"ASTC_12x12_SFLOAT_BLOCK", FormatAstc12x12SfloatBlock, 16, 12, 12, 0},
	{"G8B8G8R8_422_UNORM", FormatG8B8G8R8422Unorm, 4, 2, 1, 0},
	{"B8G8R8G8_422_UNORM", FormatB8G8R8G8422Unorm, 4, 2, 1, 0},
	{"G8_B8_R8_3PLANE_420_UNORM", FormatG8B8R83Plane420Unorm, 6, 2, 2, 0},
	{"G8_B8R8_2PLANE_420_UNORM", FormatG8B8R82Plane420Unorm, 6, 2, 2, 0},
	{"G8_B8_R8_3PLANE_422_UNORM", FormatG8B8R83Plane422Unorm, 4, 2, 1, 0},
	{"G8_B8R8_2PLANE_422_UNORM", FormatG8B8R82Plane422Unorm, 4, 2, 1, 0},
	{"G8_B8_R8_3PLANE_444_UNORM", FormatG8B8R83Plane444Unorm, 3, 1, 1, 0},
	{"R10X6_UNORM_PACK16", FormatR10X6UnormPack16, 2, 1, 1, 0},
	{"R10X6G10X6_UNORM_2PACK16", FormatR10X6G10X6Unorm2Pack16, 4, 1, 1, 0},
	{"R10X6G10X6B10X6A10X6_UNORM_4PACK16", FormatR10X6G10X6B10X6A10X6Unorm4Pack16, 8, 1, 1, 0},
	{"G10X6B10X6G10X6R10X6_422_UNORM_4PACK16", FormatG10X6B10X6G10X6R10X6422Unorm4Pack16, 8, 2, 1, 0},
	{"B10X6G10X6R10X6G10X6_422_UNORM_4PACK16", FormatB10X6G10X6R10X6G10X6422Unorm4Pack16, 8, 2, 1, 0},
	{"G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16", FormatG10X6B10X6R10X63Plane420Unorm3Pack16, 12, 2, 2, 0},
	{"G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16", FormatG10X6B10X6R10X62Plane420Unorm3Pack16, 12, 2, 2, 0},
	{"G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16", FormatG10X6B10X6R10X63Plane422Unorm3Pack16, 8, 2, 1, 0},
	{"G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16", FormatG10X6B10X6R10X62Plane422Unorm3Pack16, 8, 2, 1, 0},
	{"G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16", FormatG10X6B10X6R10X63Plane444Unorm3Pack16, 6, 1, 1, 0},
	{"R12X4_UNORM_PACK16", FormatR12X4UnormPack16, 2, 1, 1, 0},
	{"R12X4G12X4_UNORM_2PACK16", FormatR12X4G12X4Unorm2Pack16, 4, 1, 1, 0},
	{"R12X4G12X4B12X4A12X4_UNORM_4PACK16", FormatR12X4G12X4B12X4A12X4Unorm4Pack16, 8, 1, 1, 0},
	{"G12X4B12X4G12X4R12X4_422_UNORM_4PACK16", FormatG12X4B12X4G12X4R12X4422Unorm4Pack16, 8, 2, 1, 0},
	{"B12X4G12X4R12X4G12X4_422_UNORM_4PACK16", FormatB12X4G12X4R12X4G12X4422Unorm4Pack16, 8, 2, 1, 0},
	{"G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16", FormatG12X4B12X4R12X43Plane420Unorm3Pack16, 12, 2, 2, 0},
	{"G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16", FormatG12X4B12X4R12X42Plane420Unorm3Pack16, 12, 2, 2, 0},
	{"G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16", FormatG12X4B12X4R12X43Plane422Unorm3Pack16, 8, 2, 1, 0},
	{"G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16", FormatG12X4B12X4R12X42Plane422Unorm3Pack16, 8, 2, 1, 0},
	{"G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16", FormatG12X4B12X4R12X43Plane444Unorm3Pack16, 6, 1, 1, 0},
	{"G16B16G16R16_422_UNORM", FormatG16B16G16R16422Unorm, 8, 2, 1, 0},
	{"B16G16R16G16_422_UNORM", FormatB16G16R16G16422Unorm, 8, 2, 1, 0},
	{"G16_B16_R16_3PLANE_420_UNORM", FormatG16B16R163Plane420Unorm, 12, 2, 2, 0},
	{"G16_B16R16_2PLANE_420_UNORM", FormatG16B16R162Plane420Unorm, 12, 2, 2, 0},
	{"G16_B16_R16_3PLANE_422_UNORM", FormatG16B16R163Plane422Unorm, 8, 2, 1, 0},
	{"G16_B16R16_2PLANE_422_UNORM", FormatG16B16R162Plane422Unorm, 8, 2, 1, 0},
	{"G16_B16_R16_3PLANE_444_UNORM", FormatG16B16R163Plane444Unorm, 6, 1, 1, 0},
	{"G8_B8R8_2PLANE_444_UNORM", FormatG8B8R82Plane444Unorm, 3, 1, 1, 0},
	{"G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16", FormatG10X6B10X6R10X62Plane444Unorm3Pack16, 6, 1, 1, 0},
	{"G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16", FormatG12X4B12X4R12X42Plane444Unorm3Pack16, 6, 1, 1, 0},
	{"G16_B16R16_2PLANE_444_UNORM", FormatG16B16R162Plane444Unorm, 6, 1, 1, 0},
	{"A4R4G4B4_UNORM_PACK16", FormatA4R4G4B4UnormPack16, 2, 1, 1, 0},
	{"A4B4G4R4_UNORM_PACK16", FormatA4B4G4R4UnormPack16, 2, 1, 1, 0},
}

// BufferUsage is a mask of buffer usages (VkBufferUsageFlags).
type BufferUsage uint32

// Buffer usages (VK_BUFFER_USAGE_*).
const (
	BufferUsageTransferSrc                             BufferUsage = 0x00000001
	BufferUsageTransferDst                             BufferUsage = 0x00000002
	BufferUsageUniformTexelBuffer                      BufferUsage = 0x00000004
	BufferUsageStorageTexelBuffer                      BufferUsage = 0x00000008
	BufferUsageUniformBuffer                           BufferUsage = 0x00000010
	BufferUsageStorageBuffer                           BufferUsage = 0x00000020
	BufferUsageIndexBuffer                             BufferUsage = 0x00000040
	BufferUsageVertexBuffer                            BufferUsage = 0x00000080
	BufferUsageIndirectBuffer                          BufferUsage = 0x00000100
	BufferUsageConditionalRenderingEXT                 BufferUsage = 0x00000200
	BufferUsageShaderBindingTable                      BufferUsage = 0x00000400
	BufferUsageRayTracingNV                                        = BufferUsageShaderBindingTable // alias
	BufferUsageTransformFeedbackBufferEXT              BufferUsage = 0x00000800
	BufferUsageTransformFeedbackCounterBufferEXT       BufferUsage = 0x00001000
	BufferUsageVideoDecodeSrc                          BufferUsage = 0x00002000
	BufferUsageVideoDecodeDst                          BufferUsage = 0x00004000
	BufferUsageShaderDeviceAddress                     BufferUsage = 0x00020000
	BufferUsageShaderDeviceAddressEXT                              = BufferUsageShaderDeviceAddress // alias
	BufferUsageAccelerationStructureBuildInputReadOnly BufferUsage = 0x00080000
	BufferUsageAccelerationStructureStorage            BufferUsage = 0x00100000
	BufferUsageSamplerDescriptorBufferEXT              BufferUsage = 0x00200000
	BufferUsageResourceDescriptorBufferEXT             BufferUsage = 0x00400000
	BufferUsageMicromapBuildInputReadOnlyEXT           BufferUsage = 0x00800000
	BufferUsageMicromapStorageEXT                      BufferUsage = 0x01000000
	BufferUsagePushDescriptorsDescriptorBufferEXT      BufferUsage = 0x04000000
)

// bufferUsageTable lists every buffer usage name by ascending value; the first name of a value is canonical.
var bufferUsageTable = []nameValue[BufferUsage]{
	{"TRANSFER_SRC", BufferUsageTransferSrc},
	{"TRANSFER_DST", BufferUsageTransferDst},
	{"UNIFORM_TEXEL_BUFFER", BufferUsageUniformTexelBuffer},
	{"STORAGE_TEXEL_BUFFER", BufferUsageStorageTexelBuffer},
	{"UNIFORM_BUFFER", BufferUsageUniformBuffer},
	{"STORAGE_BUFFER", BufferUsageStorageBuffer},
	{"INDEX_BUFFER", BufferUsageIndexBuffer},
	{"VERTEX_BUFFER", BufferUsageVertexBuffer},
	{"INDIRECT_BUFFER", BufferUsageIndirectBuffer},
	{"CONDITIONAL_RENDERING_EXT", BufferUsageConditionalRenderingEXT},
	{"SHADER_BINDING_TABLE_KHR", BufferUsageShaderBindingTable},
	{"RAY_TRACING_NV", BufferUsageRayTracingNV},
	{"TRANSFORM_FEEDBACK_BUFFER_EXT", BufferUsageTransformFeedbackBufferEXT},
	{"TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT", BufferUsageTransformFeedbackCounterBufferEXT},
	{"VIDEO_DECODE_SRC_KHR", BufferUsageVideoDecodeSrc},
	{"VIDEO_DECODE_DST_KHR", BufferUsageVideoDecodeDst},
	{"SHADER_DEVICE_ADDRESS", BufferUsageShaderDeviceAddress},
	{"SHADER_DEVICE_ADDRESS_EXT", BufferUsageShaderDeviceAddressEXT},
	{"ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_KHR", BufferUsageAccelerationStructureBuildInputReadOnly},
	{"ACCELERATION_STRUCTURE_STORAGE_KHR", BufferUsageAccelerationStructureStorage},
	{"SAMPLER_DESCRIPTOR_BUFFER_EXT", BufferUsageSamplerDescriptorBufferEXT},
	{"RESOURCE_DESCRIPTOR_BUFFER_EXT", BufferUsageResourceDescriptorBufferEXT},
	{"MICROMAP_BUILD_INPUT_READ_ONLY_EXT", BufferUsageMicromapBuildInputReadOnlyEXT},
	{"MICROMAP_STORAGE_EXT", BufferUsageMicromapStorageEXT},
	{"PUSH_DESCRIPTORS_DESCRIPTOR_BUFFER_EXT", BufferUsagePushDescriptorsDescriptorBufferEXT},
}

// ImageUsage is a mask of image usages (VkImageUsageFlags).
type ImageUsage uint32

// Image usages (VK_IMAGE_USAGE_*).
const (
	ImageUsageTransferSrc                   ImageUsage = 0x00000001
	ImageUsageTransferDst                   ImageUsage = 0x00000002
	ImageUsageSampled                       ImageUsage = 0x00000004
	ImageUsageStorage                       ImageUsage = 0x00000008
	ImageUsageColorAttachment               ImageUsage = 0x00000010
	ImageUsageDepthStencilAttachment        ImageUsage = 0x00000020
	ImageUsageTransientAttachment           ImageUsage = 0x00000040
	ImageUsageInputAttachment               ImageUsage = 0x00000080
	ImageUsageFragmentShadingRateAttachment ImageUsage = 0x00000100
	ImageUsageShadingRateImageNV                       = ImageUsageFragmentShadingRateAttachment // alias
	ImageUsageFragmentDensityMapEXT         ImageUsage = 0x00000200
	ImageUsageVideoDecodeDst                ImageUsage = 0x00000400
	ImageUsageVideoDecodeSrc                ImageUsage = 0x00000800
	ImageUsageVideoDecodeDpb                ImageUsage = 0x00001000
	ImageUsageInvocationMaskHUAWEI          ImageUsage = 0x00040000
	ImageUsageAttachmentFeedbackLoopEXT     ImageUsage = 0x00080000
	ImageUsageSampleWeightQCOM              ImageUsage = 0x00100000
	ImageUsageSampleBlockMatchQCOM          ImageUsage = 0x00200000
)

// imageUsageTable lists every image usage name by ascending value; the first name of a value is canonical.
var imageUsageTable = []nameValue[ImageUsage]{
	{"TRANSFER_SRC", ImageUsageTransferSrc},
	{"TRANSFER_DST", ImageUsageTransferDst},
	{"SAMPLED", ImageUsageSampled},
	{"STORAGE", ImageUsageStorage},
	{"COLOR_ATTACHMENT", ImageUsageColorAttachment},
	{"DEPTH_STENCIL_ATTACHMENT", ImageUsageDepthStencilAttachment},
	{"TRANSIENT_ATTACHMENT", ImageUsageTransientAttachment},
	{"INPUT_ATTACHMENT", ImageUsageInputAttachment},
	{"FRAGMENT_SHADING_RATE_ATTACHMENT_KHR", ImageUsageFragmentShadingRateAttachment},
	{"SHADING_RATE_IMAGE_NV", ImageUsageShadingRateImageNV},
	{"FRAGMENT_DENSITY_MAP_EXT", ImageUsageFragmentDensityMapEXT},
	{"VIDEO_DECODE_DST_KHR", ImageUsageVideoDecodeDst},
	{"VIDEO_DECODE_SRC_KHR", ImageUsageVideoDecodeSrc},
	{"VIDEO_DECODE_DPB_KHR", ImageUsageVideoDecodeDpb},
	{"INVOCATION_MASK_HUAWEI", ImageUsageInvocationMaskHUAWEI},
	{"ATTACHMENT_FEEDBACK_LOOP_EXT", ImageUsageAttachmentFeedbackLoopEXT},
	{"SAMPLE_WEIGHT_QCOM", ImageUsageSampleWeightQCOM},
	{"SAMPLE_BLOCK_MATCH_QCOM", ImageUsageSampleBlockMatchQCOM},
}

// Tiling is an image tiling (VkImageTiling).
type Tiling uint32

// Image tilings (VK_IMAGE_TILING_*).
const (
	TilingOptimal Tiling = 0
	TilingLinear  Tiling = 1
)

// tilingTable lists every tiling name by ascending value.
var tilingTable = []nameValue[Tiling]{
	{"OPTIMAL", TilingOptimal},
	{"LINEAR", TilingLinear},
}

// nameValue is one entry of a name table.
type nameValue[T any] struct {
	name  string
	value T
}

// formatInfo describes one format for size estimates: the bytes of one texel
// block and the block's extent in texels. Multi-planar formats count one block
// of all planes together (G8_B8R8_2PLANE_420_UNORM: 6 bytes per 2x2 texels).
type formatInfo struct {
	name        string
	value       Format
	bytes       uint8
	blockWidth  uint8
	blockHeight uint8
	aspects     uint8
}

// Aspect bits of formatInfo.aspects.
const (
	aspectDepth   = 1 << 0
	aspectStencil = 1 << 1
)

type maskValue interface{ ~uint32 | ~uint64 }

// nameIndex maps every name of a table to its value.
func nameIndex[T any](table []nameValue[T]) map[string]T {
	m := make(map[string]T, len(table))
	for _, e := range table {
		m[e.name] = e.value
	}
	return m
}

// bitNames returns the canonical name of each bit position of a mask table
// (the first name of the table with that bit); "" where no name exists.
func bitNames[T maskValue](table []nameValue[T], width int) []string {
	names := make([]string, width)
	for _, e := range table {
		if e.value == 0 {
			continue
		}
		b := bits.TrailingZeros64(uint64(e.value))
		if names[b] == "" {
			names[b] = e.name
		}
	}
	return names
}

// maskNames returns the canonical names of the bits of m in ascending bit
// order; a bit without a name is written in hex (0x...).
func maskNames(m uint64, canonical []string) []string {
	if m == 0 {
		return []string{}
	}
	out := make([]string, 0, bits.OnesCount64(m))
	for m != 0 {
		b := bits.TrailingZeros64(m)
		m &= m - 1
		if b < len(canonical) && canonical[b] != "" {
			out = append(out, canonical[b])
		} else {
			out = append(out, fmt.Sprintf("%#x", uint64(1)<<b))
		}
	}
	return out
}

// maskString joins the names of m with |, or returns zero for an empty mask.
func maskString(m uint64, canonical []string, zero string) string {
	if m == 0 {
		return zero
	}
	return strings.Join(maskNames(m, canonical), "|")
}

// enumName returns the canonical name of v from a table sorted by value.
func enumName[T maskValue](table []nameValue[T], v T) (string, bool) {
	i := sort.Search(len(table), func(i int) bool { return table[i].value >= v })
	if i < len(table) && table[i].value == v {
		return table[i].name, true
	}
	return "", false
}

var (
	stageByName       = nameIndex(stageTable)
	stageBitNames     = bitNames(stageTable, 64)
	accessByName      = nameIndex(accessTable)
	accessBitNames    = bitNames(accessTable, 64)
	layoutByName      = nameIndex(layoutTable)
	bufferUsageByName = nameIndex(bufferUsageTable)
	bufferUsageBits   = bitNames(bufferUsageTable, 32)
	imageUsageByName  = nameIndex(imageUsageTable)
	imageUsageBits    = bitNames(imageUsageTable, 32)
	tilingByName      = nameIndex(tilingTable)
	formatByName      = func() map[string]Format {
		m := make(map[string]Format, len(formatTable))
		for _, e := range formatTable {
			m[e.name] = e.value
		}
		return m
	}()
)

// lookupName finds name in m, or name with the _KHR suffix it lacks
// (PRESENT_SRC for PRESENT_SRC_KHR).
func lookupName[T any](m map[string]T, name string) (T, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	if strings.HasSuffix(name, "_KHR") {
		var zero T
		return zero, false
	}
	v, ok := m[name+"_KHR"]
	return v, ok
}

// ParseStage returns the stage bit of a name (NONE is 0). Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseStage(name string) (Stage, bool) {
	return lookupName(stageByName, name)
}

// Names returns the names of the bits of s in ascending bit order (empty for
// NONE), one canonical name per bit (ALL_TRANSFER, not TRANSFER).
func (s Stage) Names() []string { return maskNames(uint64(s), stageBitNames) }

// String returns the names of s joined with |, or NONE.
func (s Stage) String() string { return maskString(uint64(s), stageBitNames, "NONE") }

// ParseAccess returns the access bit of a name (NONE is 0). Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseAccess(name string) (AccessFlags, bool) {
	return lookupName(accessByName, name)
}

// Writes returns the write bits of a.
func (a AccessFlags) Writes() AccessFlags { return a & WriteAccess }

// Names returns the names of the bits of a in ascending bit order (empty for
// NONE).
func (a AccessFlags) Names() []string { return maskNames(uint64(a), accessBitNames) }

// String returns the names of a joined with |, or NONE.
func (a AccessFlags) String() string { return maskString(uint64(a), accessBitNames, "NONE") }

// ParseLayout returns the layout of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseLayout(name string) (Layout, bool) {
	return lookupName(layoutByName, name)
}

// String returns the name of l, or Layout(n) for an unknown value.
func (l Layout) String() string {
	if n, ok := enumName(layoutTable, l); ok {
		return n
	}
	return fmt.Sprintf("Layout(%d)", uint32(l))
}

// ParseFormat returns the format of a name. Matching is exact.
func ParseFormat(name string) (Format, bool) {
	v, ok := formatByName[name]
	return v, ok
}

func (f Format) info() *formatInfo {
	i := sort.Search(len(formatTable), func(i int) bool { return formatTable[i].value >= f })
	if i < len(formatTable) && formatTable[i].value == f {
		return &formatTable[i]
	}
	return nil
}

// String returns the name of f, or Format(n) for an unknown value.
func (f Format) String() string {
	if e := f.info(); e != nil {
		return e.name
	}
	return fmt.Sprintf("Format(%d)", uint32(f))
}

// BytesPerBlock returns the bytes of one texel block of f, for size
// estimates: 0 for UNDEFINED and unknown formats. Combined depth/stencil
// formats count padded storage (D16_UNORM_S8_UINT and D24_UNORM_S8_UINT 4,
// D32_SFLOAT_S8_UINT 8). A block of a multi-planar format holds all planes.
func (f Format) BytesPerBlock() uint64 {
	if e := f.info(); e != nil {
		return uint64(e.bytes)
	}
	return 0
}

// BlockExtent returns the texel block extent of f: 4x4 for BC, ETC2 and EAC,
// the block size for ASTC, 2x1 for 422 and 2x2 for 420 formats, else 1x1
// (also for UNDEFINED and unknown formats, so it never divides by zero).
func (f Format) BlockExtent() (w, h uint32) {
	if e := f.info(); e != nil {
		return uint32(e.blockWidth), uint32(e.blockHeight)
	}
	return 1, 1
}

// HasDepth reports whether f has a depth aspect.
func (f Format) HasDepth() bool {
	e := f.info()
	return e != nil && e.aspects&aspectDepth != 0
}

// HasStencil reports whether f has a stencil aspect.
func (f Format) HasStencil() bool {
	e := f.info()
	return e != nil && e.aspects&aspectStencil != 0
}

// IsDepthStencil reports whether f has a depth or a stencil aspect.
func (f Format) IsDepthStencil() bool {
	e := f.info()
	return e != nil && e.aspects != 0
}

// ParseBufferUsage returns the usage bit of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseBufferUsage(name string) (BufferUsage, bool) {
	return lookupName(bufferUsageByName, name)
}

// Names returns the names of the bits of u in ascending bit order.
func (u BufferUsage) Names() []string { return maskNames(uint64(u), bufferUsageBits) }

// String returns the names of u joined with |, or 0.
func (u BufferUsage) String() string { return maskString(uint64(u), bufferUsageBits, "0") }

// ParseImageUsage returns the usage bit of a name. Matching is
// exact, except that a missing _KHR suffix is accepted.
func ParseImageUsage(name string) (ImageUsage, bool) {
	return lookupName(imageUsageByName, name)
}

// Names returns the names of the bits of u in ascending bit order.
func (u ImageUsage) Names() []string { return maskNames(uint64(u), imageUsageBits) }

// String returns the names of u joined with |, or 0.
func (u ImageUsage) String() string { return maskString(uint64(u), imageUsageBits, "0") }

// ParseTiling returns the tiling of a name. Matching is exact.
func ParseTiling(name string) (Tiling, bool) {
	v, ok := tilingByName[name]
	return v, ok
}

// String returns the name of t, or Tiling(n) for an unknown value.
func (t Tiling) String() string {
	if n, ok := enumName(tilingTable, t); ok {
		return n
	}
	return fmt.Sprintf("Tiling(%d)", uint32(t))
}
