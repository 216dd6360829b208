package vk

import "math/bits"

// Which pipeline stages can perform which access types: Vulkan's table of
// supported access types (VkAccessFlagBits2, "Supported pipeline stages"),
// as of Vulkan 1.3.239. An application must not name an access flag in a
// stage mask that has no stage able to perform it (SPEC §5): TOP_OF_PIPE,
// BOTTOM_OF_PIPE and NONE perform no access at all. MEMORY_READ and
// MEMORY_WRITE go with any stage that performs some access.

// stagesShader is every stage that runs shaders.
const stagesShader = StageVertexShader | StageTessellationControlShader | StageTessellationEvaluationShader |
	StageGeometryShader | StageFragmentShader | StageComputeShader | StageRayTracingShader |
	StageTaskShaderEXT | StageMeshShaderEXT | StagePreRasterizationShaders |
	StageSubpassShadingHUAWEI | StageClusterCullingShaderHUAWEI

// stagesAccelBuild is the acceleration-structure and micromap work.
const stagesAccelBuild = StageAccelerationStructureBuild | StageAccelerationStructureCopy | StageMicromapBuildEXT

// stagesTransferAll is the transfer work (and the acceleration-structure
// work, which reads and writes as transfers do).
const stagesTransferAll = StageAllTransfer | StageCopy | StageBlit | StageResolve | StageClear | stagesAccelBuild

// accessStageTable maps each single access bit to the stages that can
// perform it; bits not listed (MEMORY_READ, MEMORY_WRITE) go with any
// stage that has an access scope.
var accessStageTable = []struct {
	access AccessFlags
	stages Stage
}{
	{AccessIndirectCommandRead, StageDrawIndirect | StageAccelerationStructureBuild},
	{AccessIndexRead, StageVertexInput | StageIndexInput},
	{AccessVertexAttributeRead, StageVertexInput | StageVertexAttributeInput},
	{AccessUniformRead, stagesShader},
	{AccessInputAttachmentRead, StageFragmentShader | StageSubpassShadingHUAWEI},
	{AccessShaderRead, stagesShader | stagesAccelBuild},
	{AccessShaderWrite, stagesShader},
	{AccessColorAttachmentRead, StageColorAttachmentOutput},
	{AccessColorAttachmentWrite, StageColorAttachmentOutput},
	{AccessDepthStencilAttachmentRead, StageEarlyFragmentTests | StageLateFragmentTests},
	{AccessDepthStencilAttachmentWrite, StageEarlyFragmentTests | StageLateFragmentTests},
	{AccessTransferRead, stagesTransferAll &^ StageClear},
	{AccessTransferWrite, stagesTransferAll},
	{AccessHostRead, StageHost},
	{AccessHostWrite, StageHost},
	{AccessCommandPreprocessReadNV, StageCommandPreprocessNV},
	{AccessCommandPreprocessWriteNV, StageCommandPreprocessNV},
	{AccessColorAttachmentReadNoncoherentEXT, StageColorAttachmentOutput},
	{AccessConditionalRenderingReadEXT, StageConditionalRenderingEXT},
	{AccessAccelerationStructureRead, stagesShader | stagesAccelBuild},
	{AccessAccelerationStructureWrite, StageAccelerationStructureBuild | StageAccelerationStructureCopy},
	{AccessFragmentShadingRateAttachmentRead, StageFragmentShadingRateAttachment},
	{AccessFragmentDensityMapReadEXT, StageFragmentDensityProcessEXT},
	{AccessTransformFeedbackWriteEXT, StageTransformFeedbackEXT},
	{AccessTransformFeedbackCounterReadEXT, StageTransformFeedbackEXT | StageDrawIndirect},
	{AccessTransformFeedbackCounterWriteEXT, StageTransformFeedbackEXT},
	{AccessShaderSampledRead, stagesShader | StageMicromapBuildEXT},
	{AccessShaderStorageRead, stagesShader | StageMicromapBuildEXT},
	{AccessShaderStorageWrite, stagesShader},
	{AccessVideoDecodeRead, StageVideoDecode},
	{AccessVideoDecodeWrite, StageVideoDecode},
	{AccessInvocationMaskReadHUAWEI, StageInvocationMaskHUAWEI},
	{AccessShaderBindingTableRead, StageRayTracingShader},
	{AccessDescriptorBufferReadEXT, stagesShader | stagesAccelBuild},
	{AccessOpticalFlowReadNV, StageOpticalFlowNV},
	{AccessOpticalFlowWriteNV, StageOpticalFlowNV},
	{AccessMicromapReadEXT, StageMicromapBuildEXT | StageAccelerationStructureBuild},
	{AccessMicromapWriteEXT, StageMicromapBuildEXT},
}

// stagesWithAccess are the stages that have an access scope: all but
// TOP_OF_PIPE and BOTTOM_OF_PIPE (NONE is no stage at all).
const stagesWithAccess = ^(StageTopOfPipe | StageBottomOfPipe)

// accessStagesByBit is accessStageTable indexed by bit position; bits any
// stage may name (MEMORY_READ, MEMORY_WRITE, bits the table does not
// know) hold every stage.
var accessStagesByBit = func() (t [64]Stage) {
	for i := range t {
		t[i] = ^Stage(0)
	}
	for _, e := range accessStageTable {
		t[bits.TrailingZeros64(uint64(e.access))] = e.stages
	}
	return t
}()

// UnsupportedAccess returns the access bits of a that no stage of s can
// perform (meta stages count as what they stand for), or 0. O(bits of a).
func UnsupportedAccess(s Stage, a AccessFlags) AccessFlags {
	if a == 0 {
		return 0
	}
	es := s.Expand() & stagesWithAccess
	if es == 0 {
		return a
	}
	var bad AccessFlags
	for m := a; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(uint64(m))
		if es&accessStagesByBit[b] == 0 {
			bad |= AccessFlags(1) << b
		}
	}
	return bad
}

// Meta stages and accesses as synchronization2 defines them, for scope
// inclusion. Each expansion keeps the meta bit itself, so a use that names
// a meta stage needs a barrier that names it (or a wider one).
const (
	stagesVertexInput = StageIndexInput | StageVertexAttributeInput
	stagesPreRaster   = StageVertexShader | StageTessellationControlShader | StageTessellationEvaluationShader |
		StageGeometryShader | StageTaskShaderEXT | StageMeshShaderEXT
	stagesTransfer = StageCopy | StageBlit | StageResolve | StageClear | StageAccelerationStructureCopy
	stagesGraphics = StageDrawIndirect | StageVertexInput | stagesVertexInput | StagePreRasterizationShaders | stagesPreRaster |
		StageFragmentShader | StageEarlyFragmentTests | StageLateFragmentTests | StageColorAttachmentOutput |
		StageConditionalRenderingEXT | StageTransformFeedbackEXT | StageFragmentShadingRateAttachment |
		StageFragmentDensityProcessEXT | StageInvocationMaskHUAWEI | StageClusterCullingShaderHUAWEI
	accessShaderReads = AccessShaderSampledRead | AccessShaderStorageRead | AccessShaderBindingTableRead
)

// Expand adds the stages each meta stage of s stands for (ALL_COMMANDS,
// ALL_GRAPHICS, ALL_TRANSFER, VERTEX_INPUT, PRE_RASTERIZATION_SHADERS).
func (s Stage) Expand() Stage {
	if s&StageAllCommands != 0 {
		return ^Stage(0)
	}
	if s&StageAllGraphics != 0 {
		s |= stagesGraphics
	}
	if s&StageAllTransfer != 0 {
		s |= stagesTransfer
	}
	if s&StageVertexInput != 0 {
		s |= stagesVertexInput
	}
	if s&StagePreRasterizationShaders != 0 {
		s |= stagesPreRaster
	}
	return s
}

// Expand adds the access types each meta access of a stands for
// (MEMORY_READ, MEMORY_WRITE, SHADER_READ, SHADER_WRITE).
func (a AccessFlags) Expand() AccessFlags {
	if a&AccessMemoryRead != 0 {
		a |= ^WriteAccess
	}
	if a&AccessMemoryWrite != 0 {
		a |= WriteAccess
	}
	if a&AccessShaderRead != 0 {
		a |= accessShaderReads
	}
	if a&AccessShaderWrite != 0 {
		a |= AccessShaderStorageWrite
	}
	return a
}
