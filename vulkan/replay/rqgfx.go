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
// sessions 10 and 13). An ACCELERATION_STRUCTURE_READ of a top-level
// structure in a vertex, tessellation control, tessellation evaluation,
// geometry, fragment, task or mesh stage is traced by a ray-query draw of
// that stage, recorded
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
//     pixel (x, y) tracing lane 16y + x (rqf.spv);
//   - task: a mesh draw (vkCmdDrawMeshTasksEXT) of eight workgroups of
//     32 task invocations, invocation v tracing lane v (rqk.spv) and
//     launching no mesh workgroup (rqmp.spv, the mesh stage the pipeline
//     needs, never runs); rasterizer discard;
//   - mesh: a mesh draw of eight workgroups of 32 mesh invocations,
//     invocation v tracing lane v (rqm.spv), emitting nothing;
//     rasterizer discard.
//
// The stages need the device's rayQuery feature (and tessellationShader
// or geometryShader for those stages, VK_EXT_mesh_shader with meshShader,
// and taskShader for the task stage, enabled by vulkan.Config's
// ReplayStages; queried, rtDevice).

const (
	stRQVertex stage = stRayGen + 1 + iota
	stRQTessControl
	stRQTessEval
	stRQGeometry
	stRQFragment
	stRQTask
	stRQMesh
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
	{vk.StageTaskShaderEXT, "task", shaderStageTaskEXT},
	{vk.StageMeshShaderEXT, "mesh", shaderStageMeshEXT},
}

const (
	numRQGfx   = int(stRQMesh - stRQVertex + 1)
	rqFragment = int(stRQFragment - stRQVertex) // rqGfx indices
	rqTask     = int(stRQTask - stRQVertex)
	rqMesh     = int(stRQMesh - stRQVertex)
	rqGroups   = 256 / meshLocal // the task and mesh draws' workgroups
)

func init() {
	for i, s := range rqGfx {
		stageNames[stRQVertex+stage(i)] = s.name + " ray query"
	}
}

func isRQGfx(st stage) bool { return st >= stRQVertex && st <= stRQMesh }

// rqGfxStages are the graphics stages the replay traces ray queries in.
const rqGfxStages = vk.StageVertexShader | vk.StageTessellationControlShader | vk.StageTessellationEvaluationShader | vk.StageGeometryShader | vk.StageFragmentShader |
	vk.StageTaskShaderEXT | vk.StageMeshShaderEXT

// skipRQGfxModule says whether the device cannot take one of this file's
// modules (the tessellation, geometry, task and mesh ones need those
// stages).
func (k *kit) skipRQGfxModule(name string) bool {
	if !strings.HasPrefix(name, "rq") || name == "rq.spv" {
		return false
	}
	_, rq, _ := k.hooks.RayQueries()
	tess, geom := k.preRasterFeatures()
	task, mesh := k.hooks.MeshShaders()
	return !rq || !tess && strings.HasPrefix(name, "rqt") || !geom && name == "rqg.spv" || !task && name == "rqk.spv" || !mesh && strings.HasPrefix(name, "rqm")
}

// rqGfxFeature says why the device cannot run ray queries in graphics
// stage i beyond VK_KHR_ray_query (tessellation, geometry, task and mesh
// stages; queried); "" if it can.
func (k *kit) rqGfxFeature(i int) string {
	tess, geom := k.preRasterFeatures()
	name := k.dev.Info().Name
	switch {
	case (i == 1 || i == 2) && !tess:
		return fmt.Sprintf("%s lacks the tessellationShader feature (queried): the device cannot run ray queries in %s shaders", name, rqGfx[i].name)
	case i == 3 && !geom:
		return fmt.Sprintf("%s lacks the geometryShader feature (queried): the device cannot run ray queries in %s shaders", name, rqGfx[i].name)
	case i == rqTask || i == rqMesh:
		if _, why := k.meshWhy(i == rqTask); why != "" { // mesh.go
			return why + " (ray queries in " + rqGfx[i].name + " shaders)"
		}
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
	case rqTask:
		stages = []vkg.PipelineShaderStageCreateInfo{st(shaderStageTaskEXT, "rqk.spv"), st(shaderStageMeshEXT, "rqmp.spv")}
	case rqMesh:
		stages = []vkg.PipelineShaderStageCreateInfo{st(shaderStageMeshEXT, "rqm.spv")}
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
	if i == rqTask || i == rqMesh {
		info[0].PVertexInputState, info[0].PInputAssemblyState = nil, nil // mesh.go: no vertex input
	}
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
	switch i {
	case rqTask, rqMesh:
		k.hooks.Extras().DrawMeshTasks(unsafe.Pointer(cb), rqGroups, 1, 1) // mesh.go
	case rqFragment:
		vkg.CmdDraw(cb, 3, 1, 0, 0)
	default:
		vkg.CmdDraw(cb, 256, 1, 0, 0)
	}
	k.hooks.Rendering().EndRendering(unsafe.Pointer(cb))
}
