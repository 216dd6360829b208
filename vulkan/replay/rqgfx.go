package replay

import (
	"fmt"
	"strings"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Ray queries in the graphics stages (VK_KHR_ray_query; issue 21,
// session 10). An ACCELERATION_STRUCTURE_READ of a top-level structure in
// a vertex, tessellation control, tessellation evaluation, geometry or
// fragment stage is traced by a ray-query draw of that stage, recorded
// with the command's other acceleration-structure work (recordRT), in an
// attachment-less 16x16 rendering pass of its own: the command's draws
// keep their shaders (no variant of common.glsl's needs rayQuery), and
// only these draws' pipelines bind the structures, in raytrace.go's set
// (Params, Lanes, the structures) and pipeline layout. Each stage is a
// part of its own (stRQVertex ... stRQFragment: its lanes and set), the
// rays and hashes those of the compute dispatch (rq.glsl's traceCell,
// which sums lane v's rays as the dispatch adds them): 256 invocations of
// the querying stage each store one lane (a plain store: a vertex shaded
// twice stores the same word).
//
//   - vertex: 256 points, rasterizer discard (rqv.spv);
//   - tessellation control / evaluation: 256 one-point patches, one
//     isoline each, the querying stage rqtc.spv / rqte.spv, the other its
//     plain variant; rasterizer discard;
//   - geometry: 256 points into rqg.spv, which emits nothing;
//   - fragment: a full-screen triangle (rqp.spv) over the 16x16 pass,
//     pixel (x, y) tracing lane 16y + x (rqf.spv).
//
// Task and mesh stages are refused as not built (addRTAccess). The
// stages need the device's rayQuery feature (and tessellationShader or
// geometryShader for those stages; queried, rtDevice).

const (
	stRQVertex stage = stRayGen + 1 + iota
	stRQTessControl
	stRQTessEval
	stRQGeometry
	stRQFragment
)

// rqGfx are the graphics stages' ray queries, by index (stRQVertex+i).
var rqGfx = [numRQGfx]struct {
	vk    vk.Stage
	name  string
	flags vkg.ShaderStageFlags
}{
	{vk.StageVertexShader, "vertex", vkg.ShaderStageFlags(vkg.ShaderStageVertexBit)},
	{vk.StageTessellationControlShader, "tessellation control", vkg.ShaderStageFlags(vkg.ShaderStageTessellationControlBit)},
	{vk.StageTessellationEvaluationShader, "tessellation evaluation", vkg.ShaderStageFlags(vkg.ShaderStageTessellationEvaluationBit)},
	{vk.StageGeometryShader, "geometry", vkg.ShaderStageFlags(vkg.ShaderStageGeometryBit)},
	{vk.StageFragmentShader, "fragment", vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit)},
}

const numRQGfx = int(stRQFragment - stRQVertex + 1)

func init() {
	for i, s := range rqGfx {
		stageNames[stRQVertex+stage(i)] = s.name + " ray query"
	}
}

func isRQGfx(st stage) bool { return st >= stRQVertex && st <= stRQFragment }

// rqGfxStages are the graphics stages the replay traces ray queries in.
const rqGfxStages = vk.StageVertexShader | vk.StageTessellationControlShader | vk.StageTessellationEvaluationShader | vk.StageGeometryShader | vk.StageFragmentShader

// skipRQGfxModule says whether the device cannot take one of this file's
// modules (the tessellation and geometry ones need those features).
func (k *kit) skipRQGfxModule(name string) bool {
	if !strings.HasPrefix(name, "rq") || name == "rq.spv" {
		return false
	}
	_, rq, _ := k.hooks.RayQueries()
	tess, geom := k.preRasterFeatures()
	return !rq || !tess && strings.HasPrefix(name, "rqt") || !geom && name == "rqg.spv"
}

// rqGfxFeature names the feature ray queries in graphics stage i need
// and the device lacks (tessellation, geometry; queried); "" if none.
func (k *kit) rqGfxFeature(i int) string {
	tess, geom := k.preRasterFeatures()
	switch {
	case (i == 1 || i == 2) && !tess:
		return "the tessellationShader feature"
	case i == 3 && !geom:
		return "the geometryShader feature"
	}
	return ""
}

// rqGfxPipeline makes the ray-query draw of graphics stage i.
func (k *kit) rqGfxPipeline(i int) (vkg.Pipeline, error) {
	rk := k.rt
	st := func(flag vkg.ShaderStageFlagBits, name string) vkg.PipelineShaderStageCreateInfo {
		return vkg.PipelineShaderStageCreateInfo{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: flag, Module: k.modules[name], PName: "main\x00"}
	}
	topology := vkg.PrimitiveTopologyPointList
	var tess *vkg.PipelineTessellationStateCreateInfo
	var stages []vkg.PipelineShaderStageCreateInfo
	discard := vkg.True
	switch i {
	case 0:
		stages = []vkg.PipelineShaderStageCreateInfo{st(vkg.ShaderStageVertexBit, "rqv.spv")}
	case 1, 2:
		tc, te := "rqtc.spv", "rqtep.spv"
		if i == 2 {
			tc, te = "rqtcp.spv", "rqte.spv"
		}
		stages = []vkg.PipelineShaderStageCreateInfo{st(vkg.ShaderStageVertexBit, "rqp.spv"), st(vkg.ShaderStageTessellationControlBit, tc), st(vkg.ShaderStageTessellationEvaluationBit, te)}
		topology = vkg.PrimitiveTopologyPatchList
		tess = &vkg.PipelineTessellationStateCreateInfo{SType: vkg.StructureTypePipelineTessellationStateCreateInfo, PatchControlPoints: 1}
	case 3:
		stages = []vkg.PipelineShaderStageCreateInfo{st(vkg.ShaderStageVertexBit, "rqp.spv"), st(vkg.ShaderStageGeometryBit, "rqg.spv")}
	default:
		stages = []vkg.PipelineShaderStageCreateInfo{st(vkg.ShaderStageVertexBit, "rqp.spv"), st(vkg.ShaderStageFragmentBit, "rqf.spv")}
		topology, discard = vkg.PrimitiveTopologyTriangleList, vkg.False
	}
	chain := vkext.PipelineRendering([]int32{}, int32(vk.FormatUndefined), int32(vk.FormatUndefined))
	defer chain.Free()
	info := []vkg.GraphicsPipelineCreateInfo{{
		SType:             vkg.StructureTypeGraphicsPipelineCreateInfo,
		PNext:             chain.Head(),
		StageCount:        uint32(len(stages)),
		PStages:           stages,
		PVertexInputState: &vkg.PipelineVertexInputStateCreateInfo{SType: vkg.StructureTypePipelineVertexInputStateCreateInfo},
		PInputAssemblyState: &vkg.PipelineInputAssemblyStateCreateInfo{SType: vkg.StructureTypePipelineInputAssemblyStateCreateInfo,
			Topology: topology},
		PTessellationState: tess,
		PViewportState:     &vkg.PipelineViewportStateCreateInfo{SType: vkg.StructureTypePipelineViewportStateCreateInfo, ViewportCount: 1, ScissorCount: 1},
		PRasterizationState: &vkg.PipelineRasterizationStateCreateInfo{SType: vkg.StructureTypePipelineRasterizationStateCreateInfo, RasterizerDiscardEnable: vkg.Bool32(discard),
			PolygonMode: vkg.PolygonModeFill, CullMode: vkg.CullModeFlags(vkg.CullModeNone), FrontFace: vkg.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vkg.PipelineMultisampleStateCreateInfo{SType: vkg.StructureTypePipelineMultisampleStateCreateInfo,
			RasterizationSamples: vkg.SampleCount1Bit},
		PDepthStencilState: &vkg.PipelineDepthStencilStateCreateInfo{SType: vkg.StructureTypePipelineDepthStencilStateCreateInfo},
		PColorBlendState:   &vkg.PipelineColorBlendStateCreateInfo{SType: vkg.StructureTypePipelineColorBlendStateCreateInfo},
		PDynamicState: &vkg.PipelineDynamicStateCreateInfo{SType: vkg.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 2,
			PDynamicStates: []vkg.DynamicState{vkg.DynamicStateViewport, vkg.DynamicStateScissor}},
		Layout: rk.pipeLay,
	}}
	pipes := make([]vkg.Pipeline, 1)
	r := vkg.CreateGraphicsPipelines(k.vd, vkg.NullPipelineCache, 1, info, nil, pipes)
	info[0].Free()
	if err := vkCheck(fmt.Sprintf("vkCreateGraphicsPipelines (%s ray query)", rqGfx[i].name), r); err != nil {
		return vkg.NullPipeline, err
	}
	return pipes[0], nil
}

// recordRQGfx records the ray-query draw of graphics stage i with the
// set and push constants already bound: its own attachment-less pass.
func (m *mode) recordRQGfx(cb vkg.CommandBuffer, i int) {
	k := m.r.k
	const side = 16
	k.hooks.Rendering().BeginRendering(unsafe.Pointer(cb), side, side, []vkext.Attachment{}, nil, nil)
	vkg.CmdSetViewport(cb, 0, 1, []vkg.Viewport{{Width: side, Height: side, MaxDepth: 1}})
	vkg.CmdSetScissor(cb, 0, 1, []vkg.Rect2D{{Extent: vkg.Extent2D{Width: side, Height: side}}})
	n := uint32(256)
	if i == numRQGfx-1 {
		n = 3
	}
	vkg.CmdDraw(cb, n, 1, 0, 0)
	k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
}
