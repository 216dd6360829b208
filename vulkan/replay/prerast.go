package replay

import (
	"fmt"
	"strings"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// Tessellation and geometry stages. A command whose accesses name
// TESSELLATION_CONTROL_SHADER, TESSELLATION_EVALUATION_SHADER or
// GEOMETRY_SHADER draws with a pipeline that has those shaders
// (replay.tesc, replay.tese, replay.geom): each performs its stage's reads
// and writes like the vertex shader does (same descriptor arrays, its own
// descriptor set: sets 2, 3 and 4 of a five-set pipeline layout) and
// passes the geometry through, so the full-screen triangle still covers
// the render area. Vertices come in patches of three (tessellation levels
// 1: one triangle per patch, not subdivided); control-point and
// evaluation invocation i = patch · 3 + corner reads elements i, i+V, ...
// (V: the draw's vertex count); geometry invocation t (one per triangle)
// reads t, t+V/3, .... The two tessellation stages come together (Vulkan
// has no pipeline with one of them): a command that declares one gets the
// other with no accesses. The device features tessellationShader and
// geometryShader are enabled by vulkan.Config{Replay: true} where the
// device has them; a frame that needs a missing one is refused naming it,
// as is a device with fewer than five bindable descriptor sets.

const (
	stTessControl stage = numBaseStages + iota
	stTessEval
	stGeometry
)

// gfxStages are the stages of a draw.
var gfxStages = []stage{stVertex, stFragment, stTessControl, stTessEval, stGeometry}

var preRasterStages = []stage{stTessControl, stTessEval, stGeometry}

func init() {
	stageNames[stTessControl], stageNames[stTessEval], stageNames[stGeometry] = "tessellation control", "tessellation evaluation", "geometry"
}

// hasPreRaster says whether w has a tessellation or geometry part.
func hasPreRaster(w *work) bool {
	return w.parts[stTessControl] != nil || w.parts[stTessEval] != nil || w.parts[stGeometry] != nil
}

// ensureTessParts gives w both tessellation parts when it has one.
func ensureTessParts(w *work) {
	if w.parts[stTessControl] != nil || w.parts[stTessEval] != nil {
		for _, st := range []stage{stTessControl, stTessEval} {
			if w.parts[st] == nil {
				w.parts[st] = &part{stage: st}
			}
		}
	}
}

// preRasterVertices raises w's full-screen vertex count so that the
// tessellation and geometry invocations reach every element.
func preRasterVertices(w *work) {
	v := uint64(w.vertices)
	for _, st := range []stage{stTessControl, stTessEval} {
		if pt := w.parts[st]; pt != nil {
			v = max(v, min(pt.maxCount(), 1<<20))
		}
	}
	if pt := w.parts[stGeometry]; pt != nil {
		v = max(v, 3*min(pt.maxCount(), 1<<20))
	}
	w.vertices = uint32((v + 2) / 3 * 3)
}

// preRasterStride is the Params stride of a tessellation or geometry
// part whose draw has vertices vertices.
func preRasterStride(st stage, vertices uint32) uint32 {
	if st == stGeometry {
		return max(1, vertices/3)
	}
	return vertices
}

// features reports whether the device has tessellationShader and
// geometryShader (Config.Replay enables them where it has).
func (k *kit) preRasterFeatures() (tess, geom bool) {
	var f vkg.PhysicalDeviceFeatures
	vkg.GetPhysicalDeviceFeatures(k.dev.Physical(), &f)
	f.Deref()
	return f.TessellationShader == vkg.True, f.GeometryShader == vkg.True
}

// skipModule says whether the device cannot take the shader module name.
func (k *kit) skipModule(name string) bool {
	tess, geom := k.preRasterFeatures()
	return !tess && (strings.HasPrefix(name, "tesc") || strings.HasPrefix(name, "tese")) || !geom && strings.HasPrefix(name, "geom")
}

// stageFlags is the shader stage of st.
func stageFlags(st stage) vkg.ShaderStageFlags {
	switch st {
	case stVertex:
		return vkg.ShaderStageFlags(vkg.ShaderStageVertexBit)
	case stFragment:
		return vkg.ShaderStageFlags(vkg.ShaderStageFragmentBit)
	case stTessControl:
		return vkg.ShaderStageFlags(vkg.ShaderStageTessellationControlBit)
	case stTessEval:
		return vkg.ShaderStageFlags(vkg.ShaderStageTessellationEvaluationBit)
	case stGeometry:
		return vkg.ShaderStageFlags(vkg.ShaderStageGeometryBit)
	}
	if f, ok := meshStageFlags(st); ok { // mesh.go
		return f
	}
	if st == stRayGen { // raygen.go
		return shaderStageRaygen
	}
	return vkg.ShaderStageFlags(vkg.ShaderStageComputeBit)
}

// preRasterLayout makes the five-set pipeline layout (sets of stages the
// device lacks are stood in by the vertex set's layout: never bound,
// never used).
func (k *kit) preRasterLayout() error {
	sets := []vkg.DescriptorSetLayout{k.setsLay[stVertex], k.setsLay[stFragment]}
	for _, st := range preRasterStages {
		l := k.setsLay[st]
		if l == vkg.NullDescriptorSetLayout {
			l = k.setsLay[stVertex]
		}
		sets = append(sets, l)
	}
	if k.limits.MaxBoundDescriptorSets < uint32(len(sets)) {
		return nil // preRasterDevice refuses frames that need it
	}
	var err error
	k.gfxLayX, err = k.pipelineLayout(sets...)
	return err
}

// preRasterDevice refuses a frame with tessellation or geometry work the
// device cannot run, naming the feature or limit.
func (k *kit) preRasterDevice(g *p.Graph, ws []work) error {
	tess, geom := k.preRasterFeatures()
	for i := range ws {
		w := &ws[i]
		if !hasPreRaster(w) {
			continue
		}
		var why string
		switch {
		case (w.parts[stTessControl] != nil || w.parts[stTessEval] != nil) && !tess:
			why = "the tessellationShader feature"
		case w.parts[stGeometry] != nil && !geom:
			why = "the geometryShader feature"
		case k.gfxLayX == vkg.NullPipelineLayout:
			why = fmt.Sprintf("maxBoundDescriptorSets of at least 5 (it has %d)", k.limits.MaxBoundDescriptorSets)
		default:
			continue
		}
		cmd := &g.Commands[w.cmd]
		res, acc := "", "tessellation/geometry stage"
		for _, st := range preRasterStages {
			if pt := w.parts[st]; pt != nil && len(pt.slots) > 0 {
				res, acc = g.Resources[pt.slots[0].res].Name, describe(g, findAccess(cmd, pt.slots[0].res))
				break
			}
		}
		return &UnsupportedError{Command: cmd.Name, Resource: res, Access: acc, Reason: fmt.Sprintf("%s lacks %s", k.dev.Info().Name, why)}
	}
	return nil
}

// gfxLayFor is the pipeline layout of w's draws.
func (k *kit) gfxLayFor(w *work) vkg.PipelineLayout {
	if hasPreRaster(w) {
		return k.gfxLayX
	}
	return k.gfxLay
}

// preRasterKey puts w's tessellation and geometry parts into a pipeline key.
func preRasterKey(key *gfxKey, w *work, quiet bool) {
	for i, st := range preRasterStages {
		if w.parts[st] == nil {
			continue
		}
		key.pre |= 1 << i
		key.pmask[i] = w.parts[st].masks()
		if quiet {
			key.pmask[i] = w.quiet[st]
		}
	}
}

// preRasterShaders are the pipeline's tessellation and geometry stages
// (free releases their specialization data after pipeline creation).
func (k *kit) preRasterShaders(key gfxKey) ([]vkg.PipelineShaderStageCreateInfo, func()) {
	var out []vkg.PipelineShaderStageCreateInfo
	var frees []func()
	for i, st := range preRasterStages {
		if key.pre&(1<<i) == 0 {
			continue
		}
		spec, free := specialization(key.pmask[i])
		frees = append(frees, free)
		name := variant([]string{"tesc.spv", "tese.spv", "geom.spv"}[i], needsExtra(key.pmask[i], true))
		name, _ = fmtlessGfxModule(name, key.pmask[i]) // fmtless.go
		out = append(out, vkg.PipelineShaderStageCreateInfo{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageFlagBits(stageFlags(st)),
			Module: k.modules[name], PName: "main\x00", PSpecializationInfo: spec})
	}
	return out, func() {
		for _, f := range frees {
			f()
		}
	}
}

// tessState is the pipeline's tessellation state (nil without one) and
// its topology.
func tessState(key gfxKey) (*vkg.PipelineTessellationStateCreateInfo, vkg.PrimitiveTopology) {
	if key.pre&3 == 0 {
		return nil, vkg.PrimitiveTopologyTriangleList
	}
	return &vkg.PipelineTessellationStateCreateInfo{SType: vkg.StructureTypePipelineTessellationStateCreateInfo, PatchControlPoints: 3},
		vkg.PrimitiveTopologyPatchList
}

// bindPreRaster binds w's tessellation and geometry sets (quiet ones for
// a quiet draw).
func (m *mode) bindPreRaster(cb vkg.CommandBuffer, lay vkg.PipelineLayout, w *work, quiet bool) {
	sets := m.sets[w.cmd]
	if quiet {
		sets = m.quiet[w.cmd]
	}
	for _, st := range preRasterStages {
		if w.parts[st] != nil {
			vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointGraphics, lay, uint32(st-numBaseStages+2), 1, []vkg.DescriptorSet{sets[st]}, 0, nil)
		}
	}
}
