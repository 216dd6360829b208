package replay

import (
	"fmt"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// A category is one descriptor array of the replay shaders (common.glsl):
// its binding, its offset into Params.s and its size per stage. 2D images
// (layered or not) are bound as 2D array views: element z of a slot is
// its layer (a multisampled slot's z is layer·samples + sample).
type category int

const (
	catSB category = iota
	catUB
	catS2F
	catS2U
	catS3F
	catR8
	catRGBA8
	catR16F
	catRG16F
	catRGBA16F
	catR32F
	catRGBA32F
	catR11G11B10F
	catR32UI
	catRGBA16F3D
	// Write-only arrays (smaller in the vertex and fragment stages).
	catSBW
	catIW
	catIWU
	catIW3
	// Multisampled sampled images (texelFetch of every sample).
	catS2MS
	catS2MSU
	// Unsigned 3D images (texel.go): sampled, r32ui storage reads, writes.
	catS3U
	catR32UI3D
	catIW3U
	// Texel buffers, R32_UINT views (texel.go): uniform texel buffers,
	// storage texel buffers read and written.
	catUTB
	catSTB
	catSTBW
	// Multisampled storage images, vertex and fragment stages
	// (msstorage.go): reads per format, writes float and unsigned.
	catIMSRGBA8
	catIMSRGBA16F
	catIMSR32F
	catIMSR32UI
	catIWMS
	catIWMSU
	// More storage-image read arrays (storageformats.go), EXTRA variants only.
	catRG32F
	catRGBA32UI
	catRGBA16
	catRGB10A2
	catRG8
	// Format-less storage-image reads (fmtless.go): compute only, where
	// the device has shaderStorageImageReadWithoutFormat.
	catNF2
	catNF2U
	catNF2I
	catNF3
	catNF3U
	catNF3I
	catNFMS
	catNFMSU
	catNFMSI
	// Signed-integer storage writes (sint.go), EXTRA variants only:
	// 2D and 3D in every stage that writes, multisampled in compute.
	catIWI
	catIW3I
	catIWMSI
	numCategories
)

type catInfo struct {
	name    string
	binding uint32
	offset  int // into Params.s
	compute int // array size in the compute stage
	graphic int // array size in the vertex and fragment stages
	format  vk.Format
}

// cats mirrors common.glsl.
var cats = [numCategories]catInfo{
	catSB:         {"storage buffer", 2, 0, 8, 8, 0},
	catUB:         {"uniform buffer", 3, 8, 4, 4, 0},
	catS2F:        {"sampled 2D image (float)", 4, 12, 24, 8, 0},
	catS2U:        {"sampled 2D image (uint)", 5, 36, 4, 4, 0},
	catS3F:        {"sampled 3D image", 6, 40, 2, 2, 0},
	catR8:         {"storage image r8", 7, 42, 2, 2, vk.FormatR8Unorm},
	catRGBA8:      {"storage image rgba8", 8, 44, 2, 2, vk.FormatR8G8B8A8Unorm},
	catR16F:       {"storage image r16f", 9, 46, 2, 2, vk.FormatR16Sfloat},
	catRG16F:      {"storage image rg16f", 10, 48, 2, 2, vk.FormatR16G16Sfloat},
	catRGBA16F:    {"storage image rgba16f", 11, 50, 2, 2, vk.FormatR16G16B16A16Sfloat},
	catR32F:       {"storage image r32f", 12, 52, 12, 2, vk.FormatR32Sfloat},
	catRGBA32F:    {"storage image rgba32f", 13, 64, 2, 2, vk.FormatR32G32B32A32Sfloat},
	catR11G11B10F: {"storage image r11f_g11f_b10f", 14, 66, 2, 2, vk.FormatB10G11R11UfloatPack32},
	catR32UI:      {"storage image r32ui", 15, 68, 2, 2, vk.FormatR32Uint},
	catRGBA16F3D:  {"storage 3D image rgba16f", 16, 70, 1, 1, vk.FormatR16G16B16A16Sfloat},
	catSBW:        {"written storage buffer", 17, 71, 8, 4, 0},
	catIW:         {"written storage image", 18, 79, 12, 4, 0},
	catIWU:        {"written unsigned storage image", 19, 91, 2, 2, 0},
	catIW3:        {"written 3D storage image", 20, 93, 1, 1, 0},
	catS2MS:       {"sampled multisampled image (float)", 21, 94, 4, 4, 0},
	catS2MSU:      {"sampled multisampled image (uint)", 22, 98, 2, 2, 0},
	catS3U:        {"sampled 3D image (uint)", 23, 100, 2, 2, 0},
	catR32UI3D:    {"storage 3D image r32ui", 24, 102, 1, 1, vk.FormatR32Uint},
	catIW3U:       {"written unsigned 3D storage image", 25, 103, 1, 1, 0},
	catUTB:        {"uniform texel buffer", 26, 104, 2, 2, 0},
	catSTB:        {"storage texel buffer", 27, 106, 2, 2, 0},
	catSTBW:       {"written storage texel buffer", 28, 108, 2, 2, 0},
	catIMSRGBA8:   {"multisampled storage image rgba8", 29, 110, 2, 2, vk.FormatR8G8B8A8Unorm},
	catIMSRGBA16F: {"multisampled storage image rgba16f", 30, 112, 2, 2, vk.FormatR16G16B16A16Sfloat},
	catIMSR32F:    {"multisampled storage image r32f", 31, 114, 2, 2, vk.FormatR32Sfloat},
	catIMSR32UI:   {"multisampled storage image r32ui", 32, 116, 2, 2, vk.FormatR32Uint},
	catIWMS:       {"written multisampled storage image", 33, 118, 2, 2, 0},
	catIWMSU:      {"written unsigned multisampled storage image", 34, 120, 2, 2, 0},
	catRG32F:      {"storage image rg32f", 35, 122, 2, 2, vk.FormatR32G32Sfloat},
	catRGBA32UI:   {"storage image rgba32ui", 36, 124, 2, 2, vk.FormatR32G32B32A32Uint},
	catRGBA16:     {"storage image rgba16", 37, 126, 2, 2, vk.FormatR16G16B16A16Unorm},
	catRGB10A2:    {"storage image rgb10_a2", 38, 128, 2, 2, vk.FormatA2B10G10R10UnormPack32},
	catRG8:        {"storage image rg8", 39, 130, 2, 2, vk.FormatR8G8Unorm},
	catNF2:        {"format-less storage image (float)", 40, 132, 2, 2, 0},
	catNF2U:       {"format-less storage image (uint)", 41, 134, 2, 2, 0},
	catNF2I:       {"format-less storage image (sint)", 42, 136, 2, 2, 0},
	catNF3:        {"format-less storage 3D image (float)", 43, 138, 1, 1, 0},
	catNF3U:       {"format-less storage 3D image (uint)", 44, 139, 1, 1, 0},
	catNF3I:       {"format-less storage 3D image (sint)", 45, 140, 1, 1, 0},
	catNFMS:       {"format-less multisampled storage image (float)", 46, 141, 2, 2, 0},
	catNFMSU:      {"format-less multisampled storage image (uint)", 47, 143, 2, 2, 0},
	catNFMSI:      {"format-less multisampled storage image (sint)", 48, 145, 2, 2, 0},
	catIWI:        {"written signed storage image", 49, 147, 2, 2, 0},
	catIW3I:       {"written signed 3D storage image", 50, 149, 1, 1, 0},
	catIWMSI:      {"written signed multisampled storage image", 51, 150, 2, 0, 0},
}

const (
	numSlots    = 152 // 132 in the shaders without EXTRA or NOFMT (fmtless.go, sint.go)
	slotBytes   = 16
	paramsBytes = 32 + numSlots*slotBytes // seed, width, stride, spin, z[4], slots
	lanesPerCmd = 256
	laneBytes   = lanesPerCmd * 4
	maxUBBytes  = 65536 // the uniform block common.glsl declares
	// indirectStride is the vertex count a compute-written indirect buffer
	// always reaches (replay.comp writes 12288 + 3·k): vertex-stage reads
	// of an indirect draw are spread over that many vertices.
	indirectStride = 12288
)

const (
	fRead     = 1
	fWrite    = 2
	fIndirect = 4
	fOwn      = 8  // common.glsl F_OWN: read at the fragment's own pixel in the pass that renders it (selfrace.go)
	fFit8     = 16 // common.glsl F_FIT8, F_FIT16: unsigned writes masked to 8- or 16-bit components (fsr.go, uintFit)
	fFit16    = 32
	fASRange  = 64 // common.glsl F_ASRANGE: a valid acceleration-structure build range in words 0..3 (asindirect.go)
)

// stage is a shader stage of the replay.
type stage int

const (
	stCompute stage = iota
	stVertex
	stFragment
	numBaseStages
	numStages = numBaseStages + 16 // prerast.go: tessellation control and evaluation, geometry; mesh.go: task, mesh; raytrace.go: ray query, ray trace; raygen.go: ray generation; rqgfx.go: seven graphics ray queries; dgc.go: generated dispatches
)

var stageNames = [numStages]string{"compute", "vertex", "fragment"}

// slot is one descriptor of one part: a buffer, or one mip level of an
// image (every layer of it).
type slot struct {
	cat     category
	index   int // within the category's array
	res     p.ResourceID
	level   uint32
	layout  vk.Layout
	flags   uint32
	w, h, d uint32 // extent in elements (d: layers, or layers·samples)
	aspect  uint32 // image view aspect
	view3D  bool
	layer   int32     // -1: every layer (a 2D array view); a multisampled slot: its layer (a 2D view)
	lv      layerView // the layers of a ranged access's array view (views.go); zero: every layer
	boff    uint64    // a uniform buffer slot's offset: one 64 KiB range of a larger buffer (bigubo.go)
}

func (s *slot) count() uint64 { return uint64(s.w) * uint64(s.h) * uint64(s.d) }

// part is the shader work of one stage of one command.
type part struct {
	stage stage
	slots []slot
	// params index: where its Params record and lanes live.
	index int
}

// masks gives, per descriptor array (= specialization constant id), the
// slots the part uses.
func (pt *part) masks() (m specMasks) {
	if pt == nil {
		return m
	}
	for _, s := range pt.slots {
		m[s.cat] |= 1 << s.index
	}
	return m
}

type specMasks [numCategories]uint32

func (pt *part) maxCount() uint64 {
	var n uint64
	for i := range pt.slots {
		n = max(n, pt.slots[i].count())
	}
	return n
}

// attachment is a colour or depth/stencil attachment of a command: the
// whole image (every mip level and layer, each drawn in a pass of its
// own).
type attachment struct {
	res     p.ResourceID
	layout  vk.Layout
	read    bool
	write   bool
	stencil bool // the stencil aspect is attached too
	uint    bool // an unsigned-integer colour format
	samples uint32
	// clear: a read-write attachment's first use in the frame: the pass
	// clears it (a write) and then tests or blends against that (the
	// read), as a renderer does; later read-write uses load it.
	clear bool
	// resolve: the colour attachment (index into work.colors) this
	// multisampled one resolves into, -1 for none; resolved marks the
	// single-sampled target (it is written by the resolve, not drawn).
	resolve  int
	resolved bool
	// sp: the access's range (ranges.go); noDepth: only the stencil
	// aspect is attached; split: the stencil aspect has its own layout
	// and modes (sLayout, sRead, sWrite), declared as an access of its own.
	sp             span
	noDepth, split bool
	sLayout        vk.Layout
	sRead, sWrite  bool
}

// sub is one subresource (mip level, layer) of an attachment in a pass.
type sub struct {
	att          int // index into work.colors or work.depths
	level, layer uint32
}

// copyOp is one transfer copy (or a clear when src < 0).
type copyOp struct {
	src, dst           p.ResourceID
	srcLayout, dstLyot vk.Layout
	resolve            bool   // vkCmdResolveImage (a RESOLVE-stage transfer) when the sample counts differ
	blit               bool   // vkCmdBlitImage (declared BLIT, not COPY)
	clear, onlyClear   bool   // a destination that may be (only CLEAR: is) a clear
	sp                 span   // a clear's range (ranges.go); zero: the whole image
	srcSpan, dstSpan   span   // a copy's source and destination ranges (copyrange.go); zero: whole images
	linear             bool   // a ranged blit that scales, filtered LINEAR (copyrange.go)
	edge               uint64 // the op's region of the replay's edge-block buffer (blocks.go, setupEdges)
}

// work is everything one command does, derived from its accesses.
type work struct {
	cmd      p.CommandID
	name     string
	seed     uint32
	parts    [numStages]*part
	colors   []attachment
	depths   []attachment
	indirect []p.ResourceID // one indirect draw each
	vertex   []p.ResourceID // one direct draw each, the buffer bound
	index    []p.ResourceID // one indexed draw each
	clears   []copyOp
	copies   []copyOp
	passes   []pass // graphics: one rendering each
	vertices uint32 // vertex count of the full-screen draw
	graphics bool
	// spin: extra hash rounds per invocation before the compute part
	// writes (SetSpin; racing controls make a command slow).
	spin uint32
	// gfxWritten: resources the vertex or fragment part writes; quiet:
	// the vertex and fragment masks without their slots (gfxwrite.go).
	gfxWritten map[p.ResourceID]bool
	quiet      [numStages]specMasks
	// hostWrites, hostReads: HOST_WRITE and HOST_READ uses (host.go).
	hostWrites, hostReads []p.ResourceID
	// ownSubs: colour attachment subresources the fragment part reads at
	// their own pixels (selfrace.go): loaded, or LOAD_OP_NONE.
	ownSubs map[subKey]bool
	// lone: copy sides without their other side (lonecopy.go).
	lone []loneOp
	// cond: the conditional-rendering predicate, when conditional
	// (condrender.go); xfb: transform feedback captures (xfb.go).
	cond        p.ResourceID
	conditional bool
	xfbUse      xfbUse
	xfb         []xfbOp
	// more: compute parts beyond the first (split.go).
	more []*part
	// gfxMore: extra draws holding the graphics slots beyond the arrays
	// of the command's first draws (gfxsplit.go).
	gfxMore []*gfxGroup
	// rt: acceleration-structure builds, copies and ray queries (raytrace.go).
	rt *rtWork
	// dgc: device-generated commands (dgc.go).
	dgc *dgcWork
	// fsr: shading-rate attachment reads, one pass per subresource (fsr.go).
	fsr []fsrUse
}

// pass is one dynamic-rendering pass of a command: one subresource of
// each of some attachments of one extent and sample count (colour ones
// and at most one depth/stencil one) and the command's draws. A command
// whose attachments differ in extent, samples, mip levels or layers, or
// that has several depth attachments, renders once per pass; every pass
// runs the command's vertex and fragment reads.
type pass struct {
	colors        []sub
	depth         sub // att -1 for none
	width, height uint32
	samples       uint32
	// writes: the pass whose full-screen draw performs the command's
	// vertex- and fragment-stage storage writes (gfxwrite.go); every
	// other draw of such a command is quiet.
	writes bool
	// own: the fragment slots (bits of Params.s indices) read at their
	// own pixels in this pass (selfrace.go), pushed as constants.
	own [5]uint32
}

// UnsupportedError is an access the replay cannot perform faithfully.
type UnsupportedError struct {
	Command, Resource string
	Access            string // the access as declared: stages, flags, layout
	Reason            string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("replay: command %q: resource %q: access %s: %s", e.Command, e.Resource, e.Access, e.Reason)
}

func describe(g *p.Graph, a *p.Access) string {
	s := a.Stages.String() + " " + a.Access.String()
	if g.Resources[a.Resource].Kind == p.KindImage {
		s += " in " + a.Layout.String()
	}
	return s
}

const (
	aspectColor   = 1
	aspectDepth   = 2
	aspectStencil = 4
)

// storageCategory is the storage-image array for a format.
func storageCategory(f vk.Format, is3D bool) (category, bool) {
	for c := catR8; c <= catRGBA16F3D; c++ {
		if cats[c].format == f && (c == catRGBA16F3D) == is3D {
			return c, true
		}
	}
	return moreStorageCategory(f, is3D) // storageformats.go
}

// isUintFormat is the unsigned formats with format-qualified storage
// arrays (and the ones transfers treat as unsigned).
func isUintFormat(f vk.Format) bool {
	switch f {
	case vk.FormatR32Uint, vk.FormatR8Uint, vk.FormatR16Uint, vk.FormatR32G32Uint, vk.FormatR32G32B32A32Uint,
		vk.FormatR8G8B8A8Uint, vk.FormatR16G16Uint, vk.FormatR16G16B16A16Uint, vk.FormatR8G8Uint:
		return true
	}
	return false
}

func hash32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return hash32(h)
}

// analyze turns every command of g into work, or says which access cannot
// be replayed and why. It also checks that no transient is read before
// something writes it (its contents would be undefined, so the digests
// could not be compared).
func analyze(g *p.Graph, order []p.CommandID) ([]work, error) {
	ws := make([]work, len(g.Commands))
	for c := range g.Commands {
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			return nil, err
		}
		ws[c] = w
	}
	written := make([]bool, len(g.Resources))
	for _, c := range order {
		cmd := &g.Commands[c]
		for i := range cmd.Accesses {
			a := &cmd.Accesses[i]
			r := &g.Resources[a.Resource]
			if r.Imported || written[a.Resource] {
				continue
			}
			if a.Access&readFlags != 0 {
				return nil, &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, a),
					Reason: "the transient is read before any command writes it: its contents are undefined"}
			}
		}
		for i := range cmd.Accesses {
			if cmd.Accesses[i].Access&writeFlags != 0 {
				written[cmd.Accesses[i].Resource] = true
			}
		}
	}
	return ws, nil
}

const (
	readFlags = vk.AccessShaderStorageRead | vk.AccessShaderSampledRead | vk.AccessUniformRead | vk.AccessColorAttachmentRead |
		vk.AccessDepthStencilAttachmentRead | vk.AccessTransferRead | vk.AccessIndirectCommandRead | vk.AccessVertexAttributeRead |
		vk.AccessShaderRead | vk.AccessIndexRead | vk.AccessInputAttachmentRead | vk.AccessHostRead |
		vk.AccessConditionalRenderingReadEXT | vk.AccessTransformFeedbackCounterReadEXT | // condrender.go, xfb.go
		vk.AccessCommandPreprocessReadNV | // dgc.go
		vk.AccessFragmentShadingRateAttachmentRead // fsr.go
	writeFlags = vk.AccessShaderStorageWrite | vk.AccessColorAttachmentWrite | vk.AccessDepthStencilAttachmentWrite | vk.AccessTransferWrite |
		vk.AccessShaderWrite | vk.AccessHostWrite | vk.AccessTransformFeedbackWriteEXT | vk.AccessTransformFeedbackCounterWriteEXT | // xfb.go
		vk.AccessCommandPreprocessWriteNV // dgc.go
	shaderFlags = vk.AccessShaderStorageRead | vk.AccessShaderSampledRead | vk.AccessUniformRead | vk.AccessShaderRead |
		vk.AccessShaderStorageWrite | vk.AccessShaderWrite
	// orderingStages do no work of their own: an access there (with no
	// access flags) only orders.
	orderingStages = vk.StageTopOfPipe | vk.StageBottomOfPipe
	transferStages = vk.StageAllTransfer | vk.StageCopy | vk.StageResolve | vk.StageBlit | vk.StageClear
)

// aggregate is one resource's accesses in one command, OR-ed (SPEC §2:
// stages and flags aggregate; Validate holds the layout to one).
type aggregate struct {
	a     p.Access
	first int // index of its first access
}

func aggregateAccesses(g *p.Graph, cmd *p.Command) []aggregate {
	var out []aggregate
	for i, a := range cmd.Accesses {
		j := -1
		for k := range out {
			if out[k].a.Resource == a.Resource && sameRange(g, &out[k].a, &a) { // ranges.go
				j = k
				break
			}
		}
		if j < 0 {
			out = append(out, aggregate{a: a, first: i})
			continue
		}
		out[j].a.Stages |= a.Stages
		out[j].a.Access |= a.Access
	}
	return out
}

// sampledLayout reports whether Vulkan lets a sampled-image descriptor
// of that aspect be in layout l (VUID-VkWriteDescriptorSet-descriptorType-04149/04150).
func sampledLayout(l vk.Layout, aspect uint32) bool {
	switch l {
	case vk.LayoutGeneral, vk.LayoutShaderReadOnlyOptimal, vk.LayoutReadOnlyOptimal, vk.LayoutDepthStencilReadOnlyOptimal:
		return true
	case vk.LayoutDepthReadOnlyOptimal, vk.LayoutDepthReadOnlyStencilAttachmentOptimal:
		return aspect == aspectDepth
	case vk.LayoutStencilReadOnlyOptimal, vk.LayoutDepthAttachmentStencilReadOnlyOptimal:
		return aspect == aspectStencil
	}
	return false
}

// depthLayout says whether l is a depth/stencil attachment layout and
// whether depth (and stencil) may be written in it.
func depthLayout(l vk.Layout) (ok, depthWrite, stencilWrite bool) {
	switch l {
	case vk.LayoutDepthStencilAttachmentOptimal, vk.LayoutGeneral, vk.LayoutAttachmentOptimal:
		return true, true, true
	case vk.LayoutDepthStencilReadOnlyOptimal, vk.LayoutReadOnlyOptimal:
		return true, false, false
	case vk.LayoutDepthAttachmentOptimal:
		return true, true, false
	case vk.LayoutDepthReadOnlyOptimal:
		return true, false, false
	case vk.LayoutDepthReadOnlyStencilAttachmentOptimal:
		return true, false, true
	case vk.LayoutDepthAttachmentStencilReadOnlyOptimal:
		return true, true, false
	}
	return false, false, false
}

func analyzeCommand(g *p.Graph, c p.CommandID) (work, error) {
	cmd := &g.Commands[c]
	w := work{cmd: c, name: cmd.Name, seed: hashString(cmd.Name) ^ hash32(uint32(c))}
	ex := dgcExecutes(g, c) // dgc.go: what the command executes of an earlier command's preprocessing
	var copySrc, copyDst []copyOp
	for _, ag := range aggregateAccesses(g, cmd) {
		a := &ag.a
		r := &g.Resources[a.Resource]
		bad := func(format string, args ...any) error {
			return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, a), Reason: fmt.Sprintf(format, args...)}
		}
		if a.Access == 0 {
			continue // an execution-only dependency: ordering, no work
		}
		st := a.Stages &^ orderingStages
		if st&(vk.StageAllCommands|vk.StageAllGraphics) != 0 || a.Access&(vk.AccessMemoryRead|vk.AccessMemoryWrite) != 0 {
			return w, bad("no concrete work fits this generic use (usage %s, layout %s, queue %s; generic.go lists the work it can stand for: docs/replay.md, generic uses)", usageOf(r), a.Layout, cmd.Queue)
		}
		if st&vk.StagePreRasterizationShaders != 0 {
			st = st&^vk.StagePreRasterizationShaders | vk.StageVertexShader
		}
		if st&vk.StageVertexInput != 0 {
			st = st&^vk.StageVertexInput | vk.StageVertexAttributeInput | vk.StageIndexInput
		}
		left := a.Access // flags no stage has performed yet
		// Shader stages: each performs the shader flags it can.
		for _, sh := range []struct {
			bit vk.Stage
			st  stage
		}{{vk.StageComputeShader, stCompute}, {vk.StageVertexShader, stVertex}, {vk.StageFragmentShader, stFragment},
			{vk.StageTessellationControlShader, stTessControl}, {vk.StageTessellationEvaluationShader, stTessEval}, {vk.StageGeometryShader, stGeometry}, // prerast.go
			{vk.StageTaskShaderEXT, stTask}, {vk.StageMeshShaderEXT, stMesh}, // mesh.go
			{vk.StageRayTracingShader, stRayGen}} { // raygen.go
			if st&sh.bit == 0 {
				continue
			}
			flags := a.Access & shaderFlags
			if sh.st == stFragment && a.Access&vk.AccessInputAttachmentRead != 0 {
				if err := addInputAttachment(g, &w, a, bad); err != nil { // inputattach.go
					return w, err
				}
				left &^= vk.AccessInputAttachmentRead
			}
			if flags == 0 {
				continue
			}
			if err := addShaderAccess(g, &w, sh.st, a, flags, bad); err != nil {
				return w, err
			}
			left &^= flags
		}
		if st&vk.StageColorAttachmentOutput != 0 && a.Access&(vk.AccessColorAttachmentRead|vk.AccessColorAttachmentWrite) != 0 {
			if r.Kind != p.KindImage || r.Image.Format.IsDepthStencil() {
				return w, bad("a colour attachment must be a colour image (Vulkan)")
			}
			switch a.Layout {
			case vk.LayoutColorAttachmentOptimal, vk.LayoutGeneral, vk.LayoutAttachmentOptimal:
			default:
				return w, bad("layout %s is not a colour attachment layout (Vulkan: COLOR_ATTACHMENT_OPTIMAL, ATTACHMENT_OPTIMAL or GENERAL)", a.Layout)
			}
			w.colors = append(w.colors, attachment{res: a.Resource, layout: a.Layout, read: a.Access&vk.AccessColorAttachmentRead != 0,
				write: a.Access&vk.AccessColorAttachmentWrite != 0, uint: isUintColor(r.Image.Format) || isSintFormat(r.Image.Format), // sint.go: through its unsigned twin
				samples: r.Image.Samples, resolve: -1, sp: accessSpan(&r.Image, a)}) // colorread.go: read-only
			w.graphics = true
			left &^= vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite
		}
		if st&(vk.StageEarlyFragmentTests|vk.StageLateFragmentTests) != 0 && a.Access&(vk.AccessDepthStencilAttachmentRead|vk.AccessDepthStencilAttachmentWrite) != 0 {
			if r.Kind != p.KindImage || !r.Image.Format.IsDepthStencil() {
				return w, bad("a depth/stencil attachment must be an image of a depth/stencil format (Vulkan)")
			}
			att := attachment{res: a.Resource, layout: a.Layout, read: a.Access&vk.AccessDepthStencilAttachmentRead != 0,
				write: a.Access&vk.AccessDepthStencilAttachmentWrite != 0, samples: r.Image.Samples, resolve: -1, sp: accessSpan(&r.Image, a)}
			ok, dw, sw := depthLayout(a.Layout)
			att.noDepth = r.Image.Format.HasDepth() && att.sp.aspects&aspectDepth == 0 // ranges.go: the stencil aspect alone
			if !r.Image.Format.HasDepth() || att.noDepth {
				ok, dw, sw = stencilOnlyLayout(a.Layout) // stencil.go
			}
			if !ok {
				return w, bad("layout %s is not a depth/stencil attachment layout", a.Layout)
			}
			if !r.Image.Format.HasDepth() || att.noDepth {
				dw = sw // a stencil-only format, or its stencil aspect alone
			}
			if att.write && !dw {
				return w, bad("a depth write in a layout where depth is read-only (%s)", a.Layout)
			}
			att.stencil = r.Image.Format.HasStencil() && a.Layout != vk.LayoutDepthAttachmentOptimal && a.Layout != vk.LayoutDepthReadOnlyOptimal
			if att.stencil && att.write && !sw {
				att.stencil = false // the stencil aspect stays read-only: not attached
			}
			att.stencil = att.stencil && att.sp.aspects&aspectStencil != 0
			if att.noDepth {
				att.stencil, att.sLayout, att.sRead, att.sWrite = true, att.layout, att.read, att.write
			}
			if !mergeDepthAspects(&w, att) { // ranges.go: depth and stencil declared apart
				w.depths = append(w.depths, att)
			}
			w.graphics = true
			left &^= vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite
		}
		dgc := isDGC(a, st, ex) // dgc.go: its INDIRECT_COMMAND_READ is the execution's, no indirect draw
		if dgc {
			if err := addDGC(g, &w, a, st, ex, &left, bad); err != nil {
				return w, err
			}
		}
		if !dgc && st&vk.StageDrawIndirect != 0 && a.Access&vk.AccessIndirectCommandRead != 0 {
			if r.Kind != p.KindBuffer || r.Buffer.Size < 16 || r.Buffer.Usage&vk.BufferUsageIndirectBuffer == 0 {
				return w, bad("an indirect-argument read needs a buffer with INDIRECT_BUFFER usage and 16 bytes of arguments (Vulkan)")
			}
			w.indirect = append(w.indirect, a.Resource)
			w.graphics = true
			left &^= vk.AccessIndirectCommandRead
		}
		if st&vk.StageVertexAttributeInput != 0 && a.Access&vk.AccessVertexAttributeRead != 0 {
			if r.Kind != p.KindBuffer || r.Buffer.Usage&vk.BufferUsageVertexBuffer == 0 {
				return w, bad("a vertex-attribute read needs a buffer with VERTEX_BUFFER usage (Vulkan)")
			}
			w.vertex = append(w.vertex, a.Resource)
			w.graphics = true
			left &^= vk.AccessVertexAttributeRead
		}
		if st&vk.StageIndexInput != 0 && a.Access&vk.AccessIndexRead != 0 {
			if r.Kind != p.KindBuffer || r.Buffer.Usage&vk.BufferUsageIndexBuffer == 0 || r.Buffer.Size < 4 {
				return w, bad("an index read needs a buffer with INDEX_BUFFER usage (Vulkan)")
			}
			w.index = append(w.index, a.Resource)
			w.graphics = true
			left &^= vk.AccessIndexRead
		}
		self := isSelfCopy(r, a, st) // selfcopy.go
		if self {
			if err := addSelfCopy(&w, r, a, st); err != "" {
				return w, bad("%s", err)
			}
			left &^= selfTransfer
		}
		if !self && st&transferStages != 0 && a.Access&(vk.AccessTransferRead|vk.AccessTransferWrite) != 0 {
			tf := a.Access & (vk.AccessTransferRead | vk.AccessTransferWrite)
			left &^= tf
			src := tf == vk.AccessTransferRead
			if err := transferUsage(r, a, src); err != "" {
				return w, bad("%s", err)
			}
			// Which transfer: a resolve or blit only where the stages allow
			// one (synchronization validation tells vkCmdCopyImage,
			// vkCmdResolveImage and vkCmdBlitImage apart by stage).
			copyish := st&(vk.StageCopy|vk.StageAllTransfer) != 0
			op := copyOp{resolve: st&(vk.StageResolve|vk.StageAllTransfer) != 0, blit: st&vk.StageBlit != 0 && !copyish}
			switch {
			case src:
				op.src, op.srcLayout = a.Resource, a.Layout
				if partial(g, a) {
					op.srcSpan = accessSpan(&r.Image, a) // copyrange.go
				}
				copySrc = append(copySrc, op)
			default:
				op.src, op.dst, op.dstLyot = -1, a.Resource, a.Layout
				op.clear = st&(vk.StageClear|vk.StageAllTransfer) != 0
				op.onlyClear = st&transferStages == vk.StageClear
				if partial(g, a) {
					op.sp = accessSpan(&r.Image, a) // ranges.go (a clear), copyrange.go (a copy)
					op.dstSpan = op.sp
				}
				copyDst = append(copyDst, op)
			}
		}
		if st&vk.StageHost != 0 && a.Access&(vk.AccessHostRead|vk.AccessHostWrite) != 0 {
			if err := addHostAccess(g, &w, a, bad); err != nil { // host.go
				return w, err
			}
			left &^= vk.AccessHostRead | vk.AccessHostWrite
		}
		if st&vk.StageConditionalRenderingEXT != 0 && a.Access&vk.AccessConditionalRenderingReadEXT != 0 {
			if err := addConditional(g, &w, a, bad); err != nil { // condrender.go
				return w, err
			}
			left &^= vk.AccessConditionalRenderingReadEXT
		}
		if a.Access&xfbFlags != 0 {
			done, err := addXfb(g, &w, a, st, bad) // xfb.go
			if err != nil {
				return w, err
			}
			left &^= done
		}
		if err := addRTAccess(g, &w, a, st, &left, bad); err != nil { // raytrace.go
			return w, err
		}
		if err := addFSR(g, &w, a, st, &left, bad); err != nil { // fsr.go
			return w, err
		}
		if left != 0 {
			return w, bad("access flags %s in stages %s have no replay (compute, vertex and fragment shaders, attachments, draw indirect, vertex and index input, clear, copy and resolve do)", left, a.Stages)
		}
	}
	var dsts []copyOp
	for _, d := range copyDst {
		switch {
		case d.onlyClear || d.clear && len(copySrc) == 0:
			w.clears = append(w.clears, d)
		case len(copySrc) == 0:
			if err := addLone(g, &w, d.dst, d.dstLyot, false); err != nil { // lonecopy.go
				return w, err
			}
		default:
			dsts = append(dsts, d)
		}
	}
	for j := len(dsts); j < len(copySrc); j++ { // sources no destination pairs with: lonecopy.go
		if err := addLone(g, &w, copySrc[j].src, copySrc[j].srcLayout, true); err != nil {
			return w, err
		}
	}
	for j, d := range dsts {
		s := copySrc[j%len(copySrc)]
		op := copyOp{src: s.src, srcLayout: s.srcLayout, dst: d.dst, dstLyot: d.dstLyot, resolve: s.resolve && d.resolve, blit: s.blit && d.blit,
			srcSpan: s.srcSpan, dstSpan: d.dstSpan}
		if err := copyCompatible(g, &op); err != "" {
			a := findAccess(cmd, d.dst)
			return w, &UnsupportedError{Command: cmd.Name, Resource: g.Resources[d.dst].Name, Access: describe(g, a), Reason: err}
		}
		w.copies = append(w.copies, op)
	}
	if err := splitCompute(g, &w); err != nil { // split.go
		return w, err
	}
	shapeXfb(&w)        // xfb.go
	conditionalWork(&w) // condrender.go
	if w.parts[stVertex] != nil || w.parts[stFragment] != nil || hasPreRaster(&w) || hasMesh(&w) {
		w.graphics = true
	}
	if w.graphics {
		if err := meshShape(g, &w); err != nil { // mesh.go
			return w, err
		}
		if err := shapeDraw(g, &w); err != nil {
			return w, err
		}
		if err := ownReads(g, &w); err != nil { // selfrace.go
			return w, err
		}
		if err := splitGraphics(g, &w); err != nil { // gfxsplit.go
			return w, err
		}
		preRasterVertices(&w) // prerast.go
		shapeWrites(&w)       // gfxwrite.go
		ownMasks(&w)
	}
	if err := selfRace(g, &w); err != nil { // selfrace.go
		return w, err
	}
	return w, nil
}

func findAccess(cmd *p.Command, r p.ResourceID) *p.Access {
	for i := range cmd.Accesses {
		if cmd.Accesses[i].Resource == r {
			return &cmd.Accesses[i]
		}
	}
	return &p.Access{Resource: r}
}

func transferUsage(r *p.Resource, a *p.Access, src bool) string {
	if r.Kind == p.KindBuffer {
		if src && r.Buffer.Usage&vk.BufferUsageTransferSrc == 0 {
			return "a copy source buffer needs TRANSFER_SRC usage (Vulkan)"
		}
		if !src && r.Buffer.Usage&vk.BufferUsageTransferDst == 0 {
			return "a transfer destination buffer needs TRANSFER_DST usage (Vulkan)"
		}
		return ""
	}
	if src && r.Image.Usage&vk.ImageUsageTransferSrc == 0 && !r.Imported {
		return "a copy source image needs TRANSFER_SRC usage (Vulkan)"
	}
	if !src && r.Image.Usage&vk.ImageUsageTransferDst == 0 && !r.Imported {
		return "a transfer destination image needs TRANSFER_DST usage (Vulkan)"
	}
	want := vk.LayoutTransferDstOptimal
	if src {
		want = vk.LayoutTransferSrcOptimal
	}
	if a.Layout != want && a.Layout != vk.LayoutGeneral && a.Layout != vk.LayoutSharedPresent {
		return fmt.Sprintf("a transfer needs the image in %s or GENERAL (Vulkan)", want)
	}
	return ""
}

// copyBufferBytes is the bytes a buffer/image copy of every mip level and
// layer of im moves (tightly packed).
func copyBufferBytes(im *p.ImageDesc) uint64 {
	var n uint64
	for l := uint32(0); l < im.MipLevels; l++ {
		n += copyTexels(im, l) * uint64(im.ArrayLayers) * copyBytes(im.Format)
	}
	return n
}

// copyCompatible says why op cannot be a faithful copy: the destination
// must be covered entirely (with the source repeated if smaller). A copy
// from a multisampled image to a single-sampled one must be declared a
// RESOLVE (vkCmdResolveImage); op.resolve is set when it is one.
func copyCompatible(g *p.Graph, op *copyOp) string {
	if rangedTransfer(op) {
		return rangedCopyCompatible(g, op) // copyrange.go
	}
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	switch {
	case s.Kind == p.KindBuffer && d.Kind == p.KindBuffer:
		if op.blit {
			return "a blit needs images"
		}
		op.resolve = false
		return ""
	case s.Kind == p.KindImage && d.Kind == p.KindImage:
		si, di := &s.Image, &d.Image
		tiled := tiledPair(si, di) // extents.go: the source tiled over the destination
		if tiled {
			if why := tiledCopyProblem(s, d, op, tsideOf(g, op.src, span{}), tsideOf(g, op.dst, span{})); why != "" {
				return why
			}
		}
		if si.Samples > 1 && di.Samples == 1 {
			if !op.resolve {
				return fmt.Sprintf("a copy from the multisampled %s to a single-sampled image is a resolve: declare the RESOLVE stage (vkCmdResolveImage)", s.Name)
			}
			if si.Format != di.Format || si.Format.IsDepthStencil() {
				return fmt.Sprintf("vkCmdResolveImage needs one colour format on both sides (%s, %s)", si.Format, di.Format)
			}
			return ""
		}
		op.resolve = false
		if op.blit && (si.Samples > 1 || di.Samples > 1 || si.Format.IsDepthStencil() && si.Format != di.Format) {
			return "vkCmdBlitImage needs single-sampled images (and one depth/stencil format)"
		}
		if si.Samples != di.Samples {
			return fmt.Sprintf("a copy between images of %d and %d samples (Vulkan copies keep the sample count)", si.Samples, di.Samples)
		}
		if why := blockPairProblem(op, si, di); why != "" { // blocks.go
			return why
		}
		if si.Format.BytesPerBlock() != di.Format.BytesPerBlock() || si.Format.IsDepthStencil() != di.Format.IsDepthStencil() ||
			si.Format.IsDepthStencil() && si.Format != di.Format {
			return fmt.Sprintf("copy from %s (%s) needs a format of the same size class, not %s (Vulkan)", s.Name, si.Format, di.Format)
		}
		return ""
	}
	if op.blit {
		return "a blit needs images"
	}
	op.resolve = false
	im, bufSize := &s.Image, d.Buffer.Size
	if s.Kind == p.KindBuffer {
		im, bufSize = &d.Image, s.Buffer.Size
	}
	if im.Samples > 1 {
		return "buffer/image copies of multisampled images do not exist in Vulkan"
	}
	if im.Format.HasDepth() && im.Format.HasStencil() {
		return "buffer/image copies of combined depth/stencil images copy one aspect: declare the image in a depth-only or stencil-only format, or copy image to image"
	}
	if n := copyBufferBytes(im); n != bufSize {
		return fmt.Sprintf("a buffer/image copy needs the buffer to hold every mip level and layer exactly (%d bytes, not %d)", n, bufSize)
	}
	return ""
}

func addShaderAccess(g *p.Graph, w *work, st stage, a *p.Access, acc vk.AccessFlags, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if w.parts[st] == nil {
		w.parts[st] = &part{stage: st}
	}
	pt := w.parts[st]
	// SHADER_READ / SHADER_WRITE (the synchronization-1 names) stand for
	// what the resource can do: uniform or storage reads of a buffer,
	// sampled or storage reads of an image (sampled when it has SAMPLED
	// usage and a read-only layout), storage writes.
	if acc&vk.AccessShaderRead != 0 {
		acc &^= vk.AccessShaderRead
		switch {
		case r.Kind == p.KindBuffer && r.Buffer.Usage&vk.BufferUsageStorageBuffer == 0 && r.Buffer.Usage&vk.BufferUsageUniformBuffer != 0:
			acc |= vk.AccessUniformRead
		case r.Kind == p.KindBuffer && r.Buffer.Usage&(vk.BufferUsageStorageBuffer|vk.BufferUsageStorageTexelBuffer) == 0 && r.Buffer.Usage&vk.BufferUsageUniformTexelBuffer != 0:
			acc |= vk.AccessShaderSampledRead // a uniform texel buffer (texel.go)
		case r.Kind == p.KindBuffer:
			acc |= vk.AccessShaderStorageRead
		case r.Image.Usage&vk.ImageUsageSampled != 0 && a.Layout != vk.LayoutGeneral || r.Image.Usage&vk.ImageUsageStorage == 0:
			acc |= vk.AccessShaderSampledRead
		default:
			acc |= vk.AccessShaderStorageRead
		}
	}
	if acc&vk.AccessShaderWrite != 0 {
		acc = acc&^vk.AccessShaderWrite | vk.AccessShaderStorageWrite
	}
	salt := hashString(r.Name)
	add := func(c category, s slot, flags uint32) error {
		n := 0
		for i := range pt.slots {
			if pt.slots[i].cat == c {
				n++
			}
		}
		size := c.size(st)
		if n >= size && st != stCompute && (size == 0 || !splitsGraphics(st)) { // split.go, gfxsplit.go: compute and draw parts split
			return bad("the %s part of the command needs more than %d %s slots", stageNames[st], size, cats[c].name)
		}
		s.cat, s.index, s.res, s.layout = c, n, a.Resource, a.Layout
		if c != catS2MS && c != catS2MSU && !c.isMSStorage() {
			s.layer = -1
		}
		s.flags = flags | (hash32(salt^s.level^s.aspect<<20^uint32(s.layer+1)<<12)&0xffffff)<<8
		pt.slots = append(pt.slots, s)
		return nil
	}
	if r.Kind == p.KindBuffer {
		if done, err := addTexelBuffer(r, &acc, add, bad); done || err != nil { // texel.go
			return err
		}
		if acc&vk.AccessUniformRead != 0 {
			if r.Buffer.Usage&vk.BufferUsageUniformBuffer == 0 {
				return bad("a uniform read needs UNIFORM_BUFFER usage (Vulkan)")
			}
			for _, s := range uniformRanges(r.Buffer.Size) { // bigubo.go
				if err := add(catUB, s, fRead); err != nil {
					return err
				}
			}
		}
		if acc&(vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite) == 0 {
			return nil
		}
		if r.Buffer.Usage&vk.BufferUsageStorageBuffer == 0 {
			return bad("a storage access needs STORAGE_BUFFER usage (Vulkan)")
		}
		if r.Buffer.Size/4 > 1<<31 {
			return bad("buffer too large")
		}
		s := slot{w: uint32(r.Buffer.Size / 4), h: 1, d: 1}
		if acc&vk.AccessShaderStorageRead != 0 {
			if err := add(catSB, s, fRead); err != nil {
				return err
			}
		}
		if acc&vk.AccessShaderStorageWrite != 0 {
			wf := uint32(fWrite)
			if r.Buffer.Usage&vk.BufferUsageIndirectBuffer != 0 {
				wf |= fIndirect
			}
			return add(catSBW, s, wf)
		}
		return nil
	}
	if acc&vk.AccessUniformRead != 0 {
		return bad("a uniform read of an image (Vulkan has none)")
	}
	im := &r.Image
	is3D := im.Depth > 1
	sp := accessSpan(im, a) // ranges.go
	var lv layerView
	if !sp.wholeLayers(im) {
		lv = layerView{sp.layer0, sp.layers}
	}
	aspects := []uint32{aspectColor}
	if im.Format.IsDepthStencil() {
		aspects = nil
		if im.Format.HasDepth() && sp.aspects&aspectDepth != 0 && sampledLayout(a.Layout, aspectDepth) {
			aspects = append(aspects, aspectDepth)
		}
		if im.Format.HasStencil() && sp.aspects&aspectStencil != 0 && sampledLayout(a.Layout, aspectStencil) {
			aspects = append(aspects, aspectStencil)
		}
	}
	if acc&vk.AccessShaderSampledRead != 0 {
		if im.Usage&vk.ImageUsageSampled == 0 {
			return bad("a sampled read needs SAMPLED usage (Vulkan)")
		}
		if len(aspects) == 0 || !im.Format.IsDepthStencil() && !sampledLayout(a.Layout, aspectColor) {
			return bad("layout %s cannot be sampled (Vulkan: SHADER_READ_ONLY_OPTIMAL, READ_ONLY_OPTIMAL, GENERAL or a read-only depth/stencil layout)", a.Layout)
		}
		for level := sp.mip0; level < sp.mip0+sp.mips; level++ {
			for _, asp := range aspects {
				s := slot{level: level, w: max(1, im.Width>>level), h: max(1, im.Height>>level), d: max(1, im.Depth>>level), aspect: asp, view3D: is3D, lv: lv}
				uintView := isUintColor(im.Format) || isSintFormat(im.Format) || asp == aspectStencil // sint.go: an SINT image through its unsigned twin
				var err error
				switch {
				case im.Samples > 1:
					// One slot per layer (a 2D view), element z its sample.
					c := catS2MS
					if uintView {
						c = catS2MSU
					}
					s.d = im.Samples
					for l := sp.layer0; l < sp.layer0+sp.layers && err == nil; l++ {
						s.layer = int32(l)
						err = add(c, s, fRead)
					}
				case is3D && !uintView:
					err = add(catS3F, s, fRead)
				case is3D:
					err = add(catS3U, s, fRead) // texel.go
				case uintView:
					s.d = sp.layers
					err = add(catS2U, s, fRead)
				default:
					s.d = sp.layers
					err = add(catS2F, s, fRead)
				}
				if err != nil {
					return err
				}
			}
		}
	}
	if acc&(vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite) == 0 {
		return nil
	}
	if im.Usage&vk.ImageUsageStorage == 0 {
		return bad("a storage access needs STORAGE usage (Vulkan)")
	}
	if a.Layout != vk.LayoutGeneral && a.Layout != vk.LayoutSharedPresent {
		return bad("storage images must be in GENERAL (Vulkan)")
	}
	if im.Samples > 1 {
		return addMSStorage(w, st, im, acc, add, bad) // msstorage.go
	}
	if im.Format.IsDepthStencil() {
		return bad("storage access to a depth/stencil image (Vulkan formats have no storage support for depth/stencil)")
	}
	for level := sp.mip0; level < sp.mip0+sp.mips; level++ {
		s := slot{level: level, w: max(1, im.Width>>level), h: max(1, im.Height>>level), d: max(1, im.Depth>>level), aspect: aspectColor, view3D: is3D, lv: lv}
		if !is3D {
			s.d = sp.layers
		}
		if acc&vk.AccessShaderStorageRead != 0 {
			c, ok := storageCategory(im.Format, is3D)
			if is3D && im.Format == vk.FormatR32Uint {
				c, ok = catR32UI3D, true // texel.go
			}
			if !ok || c.size(st) == 0 {
				// fmtless.go; also a format whose array the stage lacks
				// (storageformats.go: not in the tessellation, geometry,
				// task and mesh stages)
				if nc, nok := fmtlessCategory(im.Format, is3D, false, st); nok || !ok {
					c, ok = nc, nok
				}
			}
			if !ok {
				return bad("storage-image reads of format %s (3D: %v) have no replay shader (lavapipe reads storage images only with a format qualifier; see docs/replay.md)", im.Format, is3D)
			}
			if err := add(c, s, fRead); err != nil {
				return err
			}
		}
		if acc&vk.AccessShaderStorageWrite != 0 {
			c := catIW
			switch {
			case is3D && isUintFormat(im.Format):
				c = catIW3U // texel.go
			case is3D && isSintFormat(im.Format):
				c = catIW3I // sint.go
			case is3D:
				c = catIW3
			case isUintFormat(im.Format):
				c = catIWU
			case isSintFormat(im.Format):
				c = catIWI // sint.go
			}
			if err := add(c, s, fWrite|uintFit(c, im.Format)); err != nil { // fsr.go
				return err
			}
		}
	}
	return nil
}

// shapeDraw pairs multisampled colour attachments with their resolve
// targets, groups every attachment subresource into passes and decides
// the vertex count of the full-screen draw.
func shapeDraw(g *p.Graph, w *work) error {
	cmd := &g.Commands[w.cmd]
	// A single-sampled, write-only colour attachment of one mip level
	// with the format, extent and layers of a multisampled one resolves
	// it (how renderers declare an attachment resolve).
	for i := range w.colors {
		ms := &w.colors[i]
		if ms.samples == 1 || !ms.write { // colorread.go: a read-only attachment resolves nothing
			continue
		}
		mi := &g.Resources[ms.res].Image
		for j := range w.colors {
			t := &w.colors[j]
			ti := &g.Resources[t.res].Image
			if t.samples != 1 || t.read || t.resolved || ti.MipLevels != 1 || ti.Depth != 1 || ti.Format != mi.Format ||
				ti.Width != mi.Width || ti.Height != mi.Height || ti.ArrayLayers != mi.ArrayLayers {
				continue
			}
			ms.resolve, t.resolved = j, true
			break
		}
	}
	type key struct{ w, h, samples uint32 }
	var order []key
	colors := map[key][][]sub{} // per key, per attachment: its subresources
	depths := map[key][]sub{}
	seen := map[key]bool{}
	for i, a := range w.colors {
		if a.resolved {
			continue
		}
		im := &g.Resources[a.res].Image
		byKey := map[key][]sub{}
		var keys []key
		for _, sr := range subresourcesOf(im, a.sp) {
			k := key{sr.w, sr.h, a.samples}
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], sub{att: i, level: sr.level, layer: sr.layer})
		}
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
			colors[k] = append(colors[k], byKey[k])
		}
	}
	for i, a := range w.depths {
		im := &g.Resources[a.res].Image
		for _, sr := range subresourcesOf(im, a.sp) {
			k := key{sr.w, sr.h, a.samples}
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
			depths[k] = append(depths[k], sub{att: i, level: sr.level, layer: sr.layer})
		}
	}
	for _, k := range order {
		lists, ds := colors[k], depths[k]
		if len(lists) > 8 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.colors[lists[8][0].att].res].Name, Access: "colour attachment",
				Reason: "more than 8 colour attachments of one extent and sample count (Vulkan's maxColorAttachments is at least 4; the replay's shaders have 8)"}
		}
		nu := 0
		for _, l := range lists {
			if w.colors[l[0].att].uint {
				nu++
			}
		}
		if nu > 4 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.colors[lists[0][0].att].res].Name, Access: "colour attachment",
				Reason: "more than 4 unsigned-integer colour attachments of one extent"}
		}
		// Pass i draws subresource i of every attachment that has one,
		// and depth subresource i.
		n := len(ds)
		for _, l := range lists {
			n = max(n, len(l))
		}
		for i := 0; i < n; i++ {
			ps := pass{depth: sub{att: -1}, width: k.w, height: k.h, samples: k.samples}
			for _, l := range lists {
				if i < len(l) {
					ps.colors = append(ps.colors, l[i])
				}
			}
			if i < len(ds) {
				ps.depth = ds[i]
			}
			w.passes = append(w.passes, ps)
		}
	}
	if len(w.passes) == 0 {
		// No attachments: a render area large enough that fragment p
		// reads about one element of each fragment-stage slot.
		n := uint64(1)
		if f := w.parts[stFragment]; f != nil {
			n = max(1, f.maxCount())
		}
		aw := uint32(min(uint64(4096), n))
		ah := uint32(min(uint64(4096), (n+uint64(aw)-1)/uint64(aw)))
		w.passes = []pass{{depth: sub{att: -1}, width: aw, height: ah, samples: 1}}
	}
	v := uint64(3)
	if vp := w.parts[stVertex]; vp != nil {
		v = max(v, min(vp.maxCount(), 1<<20))
	}
	v = (v + 2) / 3 * 3
	w.vertices = uint32(v)
	for _, id := range w.vertex {
		if g.Resources[id].Buffer.Size/4 > 1<<30 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[id].Name, Access: "vertex input", Reason: "more than 2^30 vertices"}
		}
	}
	return nil
}
