package replay

import (
	"encoding/binary"
	"fmt"
	"strings"

	vk "github.com/goki/vulkan"

	avk "github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Depth and stencil modes of a pass, from the declared access.
const (
	dsNone = iota
	dsWrite
	dsReadWrite
	dsRead
)

// gfxKey identifies a graphics pipeline: shaders, attachment formats,
// blending, depth and stencil state.
type gfxKey struct {
	vattr      bool
	nuint      int
	ncolor     int
	formats    [8]int32
	blend      uint8 // locations that blend (read the attachment)
	nowrite    uint8 // colorread.go: locations of read-only attachments (colour write mask 0)
	depthFmt   int32
	stencilFmt int32
	depth      int
	stencil    int
	samples    uint32
	vmask      specMasks
	fmask      specMasks
	pre        uint8        // prerast.go: tessellation control, evaluation, geometry present (bits 0-2)
	pmask      [3]specMasks // their masks
	mesh       uint8        // mesh.go: a mesh pipeline: mesh (bit 0) and task (bit 1) stages
	mmask      [2]specMasks // their masks
}

// specialization returns VkSpecializationInfo for masks (constant id =
// category) in C memory; free releases it.
func specialization(m specMasks) ([]vk.SpecializationInfo, func()) {
	data := make([]byte, 4*len(m))
	entries := make([]vk.SpecializationMapEntry, len(m))
	for i, v := range m {
		binary.LittleEndian.PutUint32(data[4*i:], v)
		entries[i] = vk.SpecializationMapEntry{ConstantID: uint32(i), Offset: uint32(4 * i), Size: 4}
	}
	ptr, free := vkext.CBytes(data)
	return []vk.SpecializationInfo{{MapEntryCount: uint32(len(m)), PMapEntries: entries, DataSize: uint64(len(data)), PData: ptr}}, free
}

// outMaskID is replay.frag's constant id of OM0 (OM1..OM7 follow).
const outMaskID = 60

// fragSpecialization is specialization(m) plus replay.frag's unsigned
// output masks OM0..OM7 for the attachment formats of key (outMask).
func fragSpecialization(m specMasks, formats [8]int32) ([]vk.SpecializationInfo, func()) {
	data := make([]byte, 4*(len(m)+8))
	entries := make([]vk.SpecializationMapEntry, 0, len(m)+8)
	for i, v := range m {
		binary.LittleEndian.PutUint32(data[4*i:], v)
		entries = append(entries, vk.SpecializationMapEntry{ConstantID: uint32(i), Offset: uint32(4 * i), Size: 4})
	}
	for l := 0; l < 8; l++ {
		off := 4 * (len(m) + l)
		binary.LittleEndian.PutUint32(data[off:], outMask(avk.Format(formats[l])))
		entries = append(entries, vk.SpecializationMapEntry{ConstantID: uint32(outMaskID + l), Offset: uint32(off), Size: 4})
	}
	ptr, free := vkext.CBytes(data)
	return []vk.SpecializationInfo{{MapEntryCount: uint32(len(entries)), PMapEntries: entries, DataSize: uint64(len(data)), PData: ptr}}, free
}

// outMask is the mask of an unsigned fragment output into format f: its
// narrowest component's width (8, 16, 10 or 2 bits), all ones for 32-bit
// components and for any format that is not unsigned integer (the masks
// of float outputs are unused).
func outMask(f avk.Format) uint32 {
	f = uintTwin(f) // sint.go: an SINT attachment renders through its unsigned twin
	switch {
	case !isUintColor(f):
		return 0xffffffff
	case strings.HasPrefix(f.String(), "A2"):
		return 0x3
	}
	switch name := f.String(); {
	case strings.Contains(name, "8_UINT"):
		return 0xff
	case strings.Contains(name, "16_UINT"):
		return 0xffff
	}
	return 0xffffffff
}

// compPipeline returns the compute pipeline specialised for masks.
func (k *kit) compPipeline(m specMasks) (vk.Pipeline, error) {
	defer k.lockPipes()() // sharedkit.go
	if pl, ok := k.compPipes[m]; ok {
		return pl, nil
	}
	spec, free := specialization(m)
	defer free()
	cinfo := []vk.ComputePipelineCreateInfo{{
		SType: vk.StructureTypeComputePipelineCreateInfo,
		Stage: vk.PipelineShaderStageCreateInfo{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageComputeBit,
			Module: k.modules[compModule(m)], PName: "main\x00", PSpecializationInfo: spec},
		Layout: k.compLay,
	}}
	pipes := make([]vk.Pipeline, 1)
	r := vk.CreateComputePipelines(k.vd, vk.NullPipelineCache, 1, cinfo, nil, pipes)
	cinfo[0].Free()
	if err := vkCheck("vkCreateComputePipelines", r); err != nil {
		return vk.NullPipeline, err
	}
	k.compPipes[m] = pipes[0]
	return pipes[0], nil
}

func dsMode(a attachment) int {
	switch {
	case a.read && a.write:
		return dsReadWrite
	case a.write:
		return dsWrite
	}
	return dsRead
}

func passColors(w *work, ps *pass) []attachment {
	out := make([]attachment, len(ps.colors))
	for i, c := range ps.colors {
		out[i] = w.colors[c.att]
	}
	return out
}

// colorLocations places a command pass's colour attachments: float ones
// from location 0, then unsigned ones, matching the fragment shader
// variant fragShader names. It returns each attachment's location, the
// attachment count and the number of unsigned ones.
func colorLocations(colors []attachment) (loc []int, count, nuint int) {
	nf := 0
	for _, a := range colors {
		if a.uint {
			nuint++
		} else {
			nf++
		}
	}
	f, u := 0, 0
	loc = make([]int, len(colors))
	for i, a := range colors {
		if a.uint {
			loc[i] = nf + u
			u++
		} else {
			loc[i] = f
			f++
		}
	}
	return loc, len(colors), nuint
}

// fragShader names the fragment variant for count attachments of which
// nuint unsigned: every float output (location 0..7) when there are none,
// else exactly the attachments' outputs.
func fragShader(count, nuint int) string {
	if nuint == 0 {
		return "frag_f8_u0.spv"
	}
	return fmt.Sprintf("frag_f%d_u%d.spv", count-nuint, nuint)
}

func (k *kit) gfxPipeline(g *p.Graph, w *work, ps *pass, vattr, quiet, mesh bool) (vk.Pipeline, error) {
	key := gfxKey{vattr: vattr, depthFmt: int32(vk.FormatUndefined), stencilFmt: int32(vk.FormatUndefined),
		vmask: w.parts[stVertex].masks(), fmask: w.parts[stFragment].masks(), samples: max(ps.samples, 1)}
	if quiet {
		key.vmask, key.fmask = w.quiet[stVertex], w.quiet[stFragment] // gfxwrite.go
	}
	if mesh {
		meshKey(&key, w, quiet) // mesh.go
	} else {
		if mixedFragQuiet(w) {
			key.fmask = w.quiet[stFragment] // mesh.go: the mesh draw writes the fragment stage's resources
		}
		preRasterKey(&key, w, quiet) // prerast.go
	}
	colors := passColors(w, ps)
	loc, count, nuint := colorLocations(colors)
	key.ncolor, key.nuint = count, nuint
	for i, a := range colors {
		key.formats[loc[i]] = int32(uintTwin(g.Resources[a.res].Image.Format)) // sint.go: an SINT attachment renders through its unsigned twin
		if a.read && !a.uint {
			key.blend |= 1 << loc[i]
		}
		if !a.write {
			key.nowrite |= 1 << loc[i]
		}
	}
	if ps.depth.att >= 0 {
		a := w.depths[ps.depth.att]
		key.depthFmt = int32(g.Resources[a.res].Image.Format)
		key.depth = dsMode(a)
		if a.stencil {
			key.stencilFmt = key.depthFmt
			key.stencil = stencilMode(a) // ranges.go
		}
		if !g.Resources[a.res].Image.Format.HasDepth() || a.noDepth {
			key.depthFmt, key.depth = int32(vk.FormatUndefined), dsNone // stencil-only (stencil.go)
		}
	}
	defer k.lockPipes()() // sharedkit.go
	if pl, ok := k.gfxPipes[key]; ok {
		return pl, nil
	}
	pl, err := k.createGfx(key)
	if err != nil {
		return vk.NullPipeline, err
	}
	k.gfxPipes[key] = pl
	return pl, nil
}

func (k *kit) createGfx(key gfxKey) (vk.Pipeline, error) {
	vert := "vert.spv"
	vin := vk.PipelineVertexInputStateCreateInfo{SType: vk.StructureTypePipelineVertexInputStateCreateInfo}
	if key.vattr {
		vert = "vert_attr.spv"
		vin.VertexBindingDescriptionCount = 1
		vin.PVertexBindingDescriptions = []vk.VertexInputBindingDescription{{Binding: 0, Stride: 4, InputRate: vk.VertexInputRateVertex}}
		vin.VertexAttributeDescriptionCount = 1
		vin.PVertexAttributeDescriptions = []vk.VertexInputAttributeDescription{{Location: 0, Binding: 0, Format: vk.FormatR32Uint}}
	}
	frag := variant(fragShader(key.ncolor, key.nuint), needsExtra(key.fmask, true)) // msstorage.go
	vert = variant(vert, needsExtra(key.vmask, true))
	if nf, ok := fmtlessGfxModule(frag, key.fmask); ok { // fmtless.go: the *_nf variant of the colour-output mix
		frag = nf
	}
	vert, _ = fmtlessGfxModule(vert, key.vmask)
	vspec, vfree := specialization(key.vmask)
	defer vfree()
	fspec, ffree := fragSpecialization(key.fmask, key.formats)
	defer ffree()
	stages := []vk.PipelineShaderStageCreateInfo{
		{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageVertexBit, Module: k.modules[vert], PName: "main\x00", PSpecializationInfo: vspec},
		{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageFragmentBit, Module: k.modules[frag], PName: "main\x00", PSpecializationInfo: fspec},
	}
	pre, pfree := k.preRasterShaders(key) // prerast.go
	defer pfree()
	stages = append(stages, pre...)
	tess, topology := tessState(key)
	layout := k.gfxLay
	if key.pre != 0 {
		layout = k.gfxLayX
	}
	if key.mesh != 0 { // mesh.go: task and mesh shaders, no vertex input
		var mfree func()
		stages, mfree = k.meshShaders(key)
		defer mfree()
		stages = append(stages, vk.PipelineShaderStageCreateInfo{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageFragmentBit,
			Module: k.modules[frag], PName: "main\x00", PSpecializationInfo: fspec})
		layout = k.meshLay
	}
	blends := make([]vk.PipelineColorBlendAttachmentState, key.ncolor)
	for i := range blends {
		b := &blends[i]
		b.ColorWriteMask = vk.ColorComponentFlags(vk.ColorComponentRBit | vk.ColorComponentGBit | vk.ColorComponentBBit | vk.ColorComponentABit)
		if key.blend&(1<<i) != 0 {
			// The written value depends on what the attachment held.
			b.BlendEnable = vk.True
			b.SrcColorBlendFactor, b.DstColorBlendFactor, b.ColorBlendOp = vk.BlendFactorOneMinusDstColor, vk.BlendFactorZero, vk.BlendOpAdd
			b.SrcAlphaBlendFactor, b.DstAlphaBlendFactor, b.AlphaBlendOp = vk.BlendFactorOneMinusDstAlpha, vk.BlendFactorZero, vk.BlendOpAdd
		}
		if key.nowrite&(1<<i) != 0 {
			b.ColorWriteMask = 0 // colorread.go
		}
	}
	ds := vk.PipelineDepthStencilStateCreateInfo{SType: vk.StructureTypePipelineDepthStencilStateCreateInfo}
	if key.depth != dsNone {
		ds.DepthTestEnable = vk.True
		ds.DepthCompareOp = vk.CompareOpLessOrEqual
		if key.depth == dsWrite {
			ds.DepthCompareOp = vk.CompareOpAlways
		}
		if key.depth != dsRead {
			ds.DepthWriteEnable = vk.True
		}
	}
	if key.stencil != dsNone {
		ds.StencilTestEnable = vk.True
		op := vk.StencilOpState{FailOp: vk.StencilOpKeep, DepthFailOp: vk.StencilOpKeep, CompareMask: 0xff}
		switch key.stencil {
		case dsWrite:
			op.PassOp, op.CompareOp, op.WriteMask = vk.StencilOpReplace, vk.CompareOpAlways, 0xff
		case dsReadWrite:
			op.PassOp, op.CompareOp, op.WriteMask = vk.StencilOpIncrementAndWrap, vk.CompareOpAlways, 0xff
		default:
			op.PassOp, op.CompareOp = vk.StencilOpKeep, vk.CompareOpGreaterOrEqual
		}
		ds.Front, ds.Back = op, op
	}
	passAllTests(&ds) // dstests.go: a measurement knob
	formats := make([]int32, key.ncolor)
	copy(formats, key.formats[:key.ncolor])
	chain := vkext.PipelineRendering(formats, key.depthFmt, key.stencilFmt)
	defer chain.Free()
	info := []vk.GraphicsPipelineCreateInfo{{
		SType:             vk.StructureTypeGraphicsPipelineCreateInfo,
		PNext:             chain.Head(),
		StageCount:        uint32(len(stages)),
		PStages:           stages,
		PVertexInputState: &vin,
		PInputAssemblyState: &vk.PipelineInputAssemblyStateCreateInfo{SType: vk.StructureTypePipelineInputAssemblyStateCreateInfo,
			Topology: topology},
		PTessellationState: tess,
		PViewportState:     &vk.PipelineViewportStateCreateInfo{SType: vk.StructureTypePipelineViewportStateCreateInfo, ViewportCount: 1, ScissorCount: 1},
		PRasterizationState: &vk.PipelineRasterizationStateCreateInfo{SType: vk.StructureTypePipelineRasterizationStateCreateInfo,
			PolygonMode: vk.PolygonModeFill, CullMode: vk.CullModeFlags(vk.CullModeNone), FrontFace: vk.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vk.PipelineMultisampleStateCreateInfo{SType: vk.StructureTypePipelineMultisampleStateCreateInfo,
			RasterizationSamples: vk.SampleCountFlagBits(key.samples)},
		PDepthStencilState: &ds,
		PColorBlendState: &vk.PipelineColorBlendStateCreateInfo{SType: vk.StructureTypePipelineColorBlendStateCreateInfo,
			AttachmentCount: uint32(len(blends)), PAttachments: blends},
		PDynamicState: &vk.PipelineDynamicStateCreateInfo{SType: vk.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 3,
			PDynamicStates: []vk.DynamicState{vk.DynamicStateViewport, vk.DynamicStateScissor, vk.DynamicStateStencilReference}},
		Layout: layout,
	}}
	if key.mesh != 0 {
		info[0].PVertexInputState, info[0].PInputAssemblyState = nil, nil // mesh.go
	}
	pipes := make([]vk.Pipeline, 1)
	r := vk.CreateGraphicsPipelines(k.vd, vk.NullPipelineCache, 1, info, nil, pipes)
	info[0].Free()
	if err := vkCheck("vkCreateGraphicsPipelines", r); err != nil {
		return vk.NullPipeline, err
	}
	return pipes[0], nil
}
