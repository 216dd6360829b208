package replay

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// A category is one descriptor array of the replay shaders (common.glsl):
// its binding, its offset into Params.s and its size per stage.
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
	// Write-only arrays, compute stage only (replay.comp).
	catSBW
	catIW
	catIWU
	catIW3
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

// cats mirrors common.glsl: binding = 2 + category.
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
	catSBW:        {"written storage buffer", 17, 71, 8, 0, 0},
	catIW:         {"written storage image", 18, 79, 12, 0, 0},
	catIWU:        {"written unsigned storage image", 19, 91, 2, 0, 0},
	catIW3:        {"written 3D storage image", 20, 93, 1, 0, 0},
}

const (
	numSlots    = 94
	slotBytes   = 16
	paramsBytes = 32 + numSlots*slotBytes // seed, width, stride, pad, z[4], slots
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
)

// stage is a shader stage of the replay.
type stage int

const (
	stCompute stage = iota
	stVertex
	stFragment
	numStages
)

var stageNames = [numStages]string{"compute", "vertex", "fragment"}

// slot is one descriptor of one part: a buffer, or one mip level of an
// image.
type slot struct {
	cat     category
	index   int // within the category's array
	res     p.ResourceID
	level   uint32
	layout  vk.Layout
	flags   uint32
	w, h, d uint32 // extent in elements
	aspect  uint32 // image view aspect
	view3D  bool
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

// attachment is a colour or depth/stencil attachment of a command.
type attachment struct {
	res     p.ResourceID
	layout  vk.Layout
	read    bool
	write   bool
	stencil bool // the stencil aspect is attached too
	uint    bool // an unsigned-integer colour format
	// clear: a read-write attachment's first use in the frame: the pass
	// clears it (a write) and then tests or blends against that (the
	// read), as a renderer does; later read-write uses load it.
	clear bool
}

// copyOp is one transfer copy (or a clear when src < 0).
type copyOp struct {
	src, dst           p.ResourceID
	srcLayout, dstLyot vk.Layout
}

// work is everything one command does, derived from its accesses.
type work struct {
	cmd      p.CommandID
	name     string
	seed     uint32
	parts    [numStages]*part
	colors   []attachment
	depths   []attachment
	indirect p.ResourceID // -1 when none
	vertex   p.ResourceID // -1 when none
	clears   []copyOp
	copies   []copyOp
	passes   []pass // graphics: one draw each
	vertices uint32 // vertex count of a direct draw
	graphics bool
}

// pass is one dynamic-rendering pass of a command: attachments of one
// extent (colour ones and at most one depth/stencil one) and a full-screen
// draw. A command whose attachments differ in extent, or that has several
// depth attachments, draws once per pass; every pass runs the command's
// vertex and fragment reads.
type pass struct {
	colors        []int // indices into work.colors
	depth         int   // index into work.depths, -1 for none
	width, height uint32
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
	return 0, false
}

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
		vk.AccessDepthStencilAttachmentRead | vk.AccessTransferRead | vk.AccessIndirectCommandRead | vk.AccessVertexAttributeRead
	writeFlags = vk.AccessShaderStorageWrite | vk.AccessColorAttachmentWrite | vk.AccessDepthStencilAttachmentWrite | vk.AccessTransferWrite
)

func analyzeCommand(g *p.Graph, c p.CommandID) (work, error) {
	cmd := &g.Commands[c]
	w := work{cmd: c, name: cmd.Name, seed: hashString(cmd.Name) ^ hash32(uint32(c)), indirect: -1, vertex: -1}
	seen := make(map[p.ResourceID]bool, len(cmd.Accesses))
	var copySrc, copyDst []copyOp
	for i := range cmd.Accesses {
		a := &cmd.Accesses[i]
		r := &g.Resources[a.Resource]
		bad := func(format string, args ...any) error {
			return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, a), Reason: fmt.Sprintf(format, args...)}
		}
		if seen[a.Resource] {
			return w, bad("the command accesses the resource twice; the replay needs one access per resource and command")
		}
		seen[a.Resource] = true
		if a.Access&^(readFlags|writeFlags) != 0 {
			return w, bad("access flags %s have no replay", (a.Access &^ (readFlags | writeFlags)).String())
		}
		if r.Kind == p.KindImage {
			im := &r.Image
			if im.Samples != 1 || im.ArrayLayers != 1 {
				return w, bad("multisampled and layered images have no replay (samples %d, layers %d)", im.Samples, im.ArrayLayers)
			}
			if im.Tiling != vk.TilingOptimal {
				return w, bad("linear-tiled images have no replay")
			}
		}
		switch a.Stages {
		case vk.StageComputeShader, vk.StageVertexShader, vk.StageFragmentShader:
			st := map[vk.Stage]stage{vk.StageComputeShader: stCompute, vk.StageVertexShader: stVertex, vk.StageFragmentShader: stFragment}[a.Stages]
			if err := addShaderAccess(g, &w, st, a, bad); err != nil {
				return w, err
			}
		case vk.StageColorAttachmentOutput:
			if r.Kind != p.KindImage || a.Access&^(vk.AccessColorAttachmentRead|vk.AccessColorAttachmentWrite) != 0 || a.Access&vk.AccessColorAttachmentWrite == 0 {
				return w, bad("a colour attachment access must be an image written (and maybe read) as a colour attachment")
			}
			if a.Layout != vk.LayoutColorAttachmentOptimal && a.Layout != vk.LayoutGeneral {
				return w, bad("a colour attachment must be in COLOR_ATTACHMENT_OPTIMAL or GENERAL")
			}
			if r.Image.MipLevels != 1 || r.Image.Depth != 1 || r.Image.Format.IsDepthStencil() {
				return w, bad("a colour attachment must be a 2D colour image with one mip level (the draw covers level 0 only)")
			}
			w.colors = append(w.colors, attachment{res: a.Resource, layout: a.Layout, read: a.Access&vk.AccessColorAttachmentRead != 0,
				write: true, uint: isUintFormat(r.Image.Format)})
			w.graphics = true
		case vk.StageEarlyFragmentTests | vk.StageLateFragmentTests, vk.StageEarlyFragmentTests, vk.StageLateFragmentTests:
			if r.Kind != p.KindImage || !r.Image.Format.HasDepth() || a.Access&^(vk.AccessDepthStencilAttachmentRead|vk.AccessDepthStencilAttachmentWrite) != 0 || a.Access == 0 {
				return w, bad("a fragment-test access must be a depth image read and/or written as a depth/stencil attachment")
			}
			if r.Image.MipLevels != 1 || r.Image.Depth != 1 {
				return w, bad("a depth attachment must be a 2D image with one mip level")
			}
			att := attachment{res: a.Resource, layout: a.Layout, read: a.Access&vk.AccessDepthStencilAttachmentRead != 0,
				write: a.Access&vk.AccessDepthStencilAttachmentWrite != 0}
			switch a.Layout {
			case vk.LayoutDepthStencilAttachmentOptimal, vk.LayoutGeneral:
				att.stencil = r.Image.Format.HasStencil()
			case vk.LayoutDepthStencilReadOnlyOptimal:
				att.stencil = r.Image.Format.HasStencil()
				if att.write {
					return w, bad("a depth write in a read-only layout")
				}
			case vk.LayoutDepthAttachmentOptimal:
			case vk.LayoutDepthReadOnlyOptimal:
				if att.write {
					return w, bad("a depth write in a read-only layout")
				}
			default:
				return w, bad("layout %s is not a depth/stencil attachment layout", a.Layout)
			}
			w.depths = append(w.depths, att)
			w.graphics = true
		case vk.StageDrawIndirect:
			if r.Kind != p.KindBuffer || a.Access != vk.AccessIndirectCommandRead || w.indirect >= 0 {
				return w, bad("DRAW_INDIRECT must be one buffer read with INDIRECT_COMMAND_READ")
			}
			if r.Buffer.Size < 16 || r.Buffer.Usage&vk.BufferUsageIndirectBuffer == 0 {
				return w, bad("an indirect buffer needs INDIRECT_BUFFER usage and 16 bytes of arguments")
			}
			w.indirect = a.Resource
			w.graphics = true
		case vk.StageVertexAttributeInput, vk.StageVertexInput:
			if r.Kind != p.KindBuffer || a.Access != vk.AccessVertexAttributeRead || w.vertex >= 0 || r.Buffer.Usage&vk.BufferUsageVertexBuffer == 0 {
				return w, bad("vertex input must be one buffer with VERTEX_BUFFER usage read with VERTEX_ATTRIBUTE_READ")
			}
			w.vertex = a.Resource
			w.graphics = true
		case vk.StageClear:
			if a.Access != vk.AccessTransferWrite {
				return w, bad("CLEAR must be TRANSFER_WRITE")
			}
			if err := transferUsage(r, a, false); err != "" {
				return w, bad("%s", err)
			}
			w.clears = append(w.clears, copyOp{src: -1, dst: a.Resource, dstLyot: a.Layout})
		case vk.StageCopy, vk.StageTransfer:
			switch a.Access {
			case vk.AccessTransferRead:
				if err := transferUsage(r, a, true); err != "" {
					return w, bad("%s", err)
				}
				copySrc = append(copySrc, copyOp{src: a.Resource, srcLayout: a.Layout})
			case vk.AccessTransferWrite:
				if err := transferUsage(r, a, false); err != "" {
					return w, bad("%s", err)
				}
				copyDst = append(copyDst, copyOp{dst: a.Resource, dstLyot: a.Layout})
			default:
				return w, bad("a copy access must be TRANSFER_READ or TRANSFER_WRITE")
			}
		default:
			return w, bad("stages %s have no replay (compute, vertex and fragment shaders, attachments, draw indirect, vertex input, clear and copy do)", a.Stages)
		}
	}
	if len(copyDst) > 0 && len(copySrc) == 0 {
		a := findAccess(cmd, copyDst[0].dst)
		return w, &UnsupportedError{Command: cmd.Name, Resource: g.Resources[copyDst[0].dst].Name, Access: describe(g, a),
			Reason: "a copy destination needs a copy source (TRANSFER_READ) in the same command"}
	}
	if len(copySrc) > 0 && len(copyDst) == 0 {
		a := findAccess(cmd, copySrc[0].src)
		return w, &UnsupportedError{Command: cmd.Name, Resource: g.Resources[copySrc[0].src].Name, Access: describe(g, a),
			Reason: "a copy source needs a copy destination (TRANSFER_WRITE) in the same command"}
	}
	for j, d := range copyDst {
		s := copySrc[j%len(copySrc)]
		op := copyOp{src: s.src, srcLayout: s.srcLayout, dst: d.dst, dstLyot: d.dstLyot}
		if err := copyCompatible(g, op); err != "" {
			a := findAccess(cmd, d.dst)
			return w, &UnsupportedError{Command: cmd.Name, Resource: g.Resources[d.dst].Name, Access: describe(g, a), Reason: err}
		}
		w.copies = append(w.copies, op)
	}
	if w.parts[stVertex] != nil || w.parts[stFragment] != nil {
		w.graphics = true
	}
	if w.graphics {
		if err := shapeDraw(g, &w); err != nil {
			return w, err
		}
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
			return "a copy source buffer needs TRANSFER_SRC usage"
		}
		if !src && r.Buffer.Usage&vk.BufferUsageTransferDst == 0 {
			return "a transfer destination buffer needs TRANSFER_DST usage"
		}
		return ""
	}
	if src && r.Image.Usage&vk.ImageUsageTransferSrc == 0 && !r.Imported {
		return "a copy source image needs TRANSFER_SRC usage"
	}
	if !src && r.Image.Usage&vk.ImageUsageTransferDst == 0 && !r.Imported {
		return "a transfer destination image needs TRANSFER_DST usage"
	}
	want := vk.LayoutTransferDstOptimal
	if src {
		want = vk.LayoutTransferSrcOptimal
	}
	if a.Layout != want && a.Layout != vk.LayoutGeneral {
		return fmt.Sprintf("a transfer needs the image in %s or GENERAL", want)
	}
	if r.Image.MipLevels != 1 {
		return "transfers of mipmapped images have no replay"
	}
	return ""
}

// copyCompatible says why op cannot be a faithful copy: the destination
// must be covered entirely (with the source repeated if smaller).
func copyCompatible(g *p.Graph, op copyOp) string {
	s, d := &g.Resources[op.src], &g.Resources[op.dst]
	switch {
	case s.Kind == p.KindBuffer && d.Kind == p.KindBuffer:
		return ""
	case s.Kind == p.KindImage && d.Kind == p.KindImage:
		if s.Image.Format.BytesPerBlock() != d.Image.Format.BytesPerBlock() || s.Image.Format.IsDepthStencil() != d.Image.Format.IsDepthStencil() {
			return fmt.Sprintf("copy from %s (%s) needs a format of the same size class, not %s", s.Name, s.Image.Format, d.Image.Format)
		}
		if s.Image.Width != d.Image.Width || s.Image.Height != d.Image.Height || s.Image.Depth != d.Image.Depth {
			return fmt.Sprintf("copy from %s needs the same extent (%dx%dx%d, not %dx%dx%d)", s.Name,
				s.Image.Width, s.Image.Height, s.Image.Depth, d.Image.Width, d.Image.Height, d.Image.Depth)
		}
		return ""
	}
	im, bufSize := &s.Image, d.Buffer.Size
	if s.Kind == p.KindBuffer {
		im, bufSize = &d.Image, s.Buffer.Size
	}
	if im.Format.IsDepthStencil() {
		return "buffer/image copies of depth/stencil images have no replay"
	}
	if n := uint64(im.Width) * uint64(im.Height) * uint64(im.Depth) * im.Format.BytesPerBlock(); n != bufSize {
		return fmt.Sprintf("a buffer/image copy needs the buffer to hold the image exactly (%d bytes, not %d)", n, bufSize)
	}
	return ""
}

func addShaderAccess(g *p.Graph, w *work, st stage, a *p.Access, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if w.parts[st] == nil {
		w.parts[st] = &part{stage: st}
	}
	pt := w.parts[st]
	var flags uint32
	if a.Access&(vk.AccessShaderStorageRead|vk.AccessShaderSampledRead|vk.AccessUniformRead) != 0 {
		flags |= fRead
	}
	if a.Access&vk.AccessShaderStorageWrite != 0 {
		if st != stCompute {
			return bad("shader-storage writes from vertex or fragment shaders have no replay")
		}
		flags |= fWrite
	}
	if a.Access&^(vk.AccessShaderStorageRead|vk.AccessShaderSampledRead|vk.AccessUniformRead|vk.AccessShaderStorageWrite) != 0 || flags == 0 {
		return bad("a shader access must be storage, sampled or uniform reads and storage writes")
	}
	salt := hashString(r.Name)
	add := func(c category, s slot, flags uint32) error {
		n := 0
		for i := range pt.slots {
			if pt.slots[i].cat == c {
				n++
			}
		}
		size := cats[c].graphic
		if st == stCompute {
			size = cats[c].compute
		}
		if n >= size {
			return bad("the %s part of the command needs more than %d %s slots", stageNames[st], size, cats[c].name)
		}
		s.cat, s.index, s.res, s.layout = c, n, a.Resource, a.Layout
		s.flags = flags | (hash32(salt^s.level)&0xffffff)<<8
		pt.slots = append(pt.slots, s)
		return nil
	}
	if r.Kind == p.KindBuffer {
		switch {
		case a.Access == vk.AccessUniformRead:
			if r.Buffer.Usage&vk.BufferUsageUniformBuffer == 0 {
				return bad("a uniform read needs UNIFORM_BUFFER usage")
			}
			if r.Buffer.Size > maxUBBytes {
				return bad("a uniform buffer must be at most %d bytes to be read whole", maxUBBytes)
			}
			return add(catUB, slot{w: uint32(r.Buffer.Size / 16), h: 1, d: 1}, fRead)
		case a.Access&(vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite) == a.Access:
			if r.Buffer.Usage&vk.BufferUsageStorageBuffer == 0 {
				return bad("a storage access needs STORAGE_BUFFER usage")
			}
			if r.Buffer.Size/4 > 1<<31 {
				return bad("buffer too large")
			}
			s := slot{w: uint32(r.Buffer.Size / 4), h: 1, d: 1}
			if flags&fRead != 0 {
				if err := add(catSB, s, fRead); err != nil {
					return err
				}
			}
			if flags&fWrite != 0 {
				wf := uint32(fWrite)
				if r.Buffer.Usage&vk.BufferUsageIndirectBuffer != 0 {
					wf |= fIndirect
				}
				return add(catSBW, s, wf)
			}
			return nil
		}
		return bad("a buffer's shader access must be uniform reads or storage reads/writes")
	}
	im := &r.Image
	is3D := im.Depth > 1
	aspect := uint32(aspectColor)
	if im.Format.HasDepth() {
		aspect = aspectDepth
	}
	for level := uint32(0); level < im.MipLevels; level++ {
		s := slot{level: level, w: max(1, im.Width>>level), h: max(1, im.Height>>level), d: max(1, im.Depth>>level), aspect: aspect, view3D: is3D}
		var err error
		switch {
		case a.Access == vk.AccessShaderSampledRead:
			if im.Usage&vk.ImageUsageSampled == 0 {
				return bad("a sampled read needs SAMPLED usage")
			}
			switch a.Layout {
			case vk.LayoutShaderReadOnlyOptimal, vk.LayoutGeneral, vk.LayoutDepthReadOnlyOptimal, vk.LayoutDepthStencilReadOnlyOptimal, vk.LayoutReadOnlyOptimal:
			default:
				return bad("layout %s cannot be sampled", a.Layout)
			}
			if im.Format.IsDepthStencil() != (a.Layout == vk.LayoutDepthReadOnlyOptimal || a.Layout == vk.LayoutDepthStencilReadOnlyOptimal) && a.Layout != vk.LayoutGeneral && a.Layout != vk.LayoutReadOnlyOptimal {
				return bad("layout %s does not suit a %s image", a.Layout, im.Format)
			}
			switch {
			case is3D && !isUintFormat(im.Format):
				err = add(catS3F, s, fRead)
			case is3D:
				return bad("sampled 3D unsigned-integer images have no replay")
			case isUintFormat(im.Format):
				err = add(catS2U, s, fRead)
			default:
				err = add(catS2F, s, fRead)
			}
		case a.Access&(vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite) == a.Access:
			if im.Usage&vk.ImageUsageStorage == 0 {
				return bad("a storage access needs STORAGE usage")
			}
			if a.Layout != vk.LayoutGeneral {
				return bad("storage images must be in GENERAL")
			}
			if flags&fRead != 0 {
				c, ok := storageCategory(im.Format, is3D)
				if !ok {
					return bad("storage-image reads of format %s (3D: %v) have no replay shader (lavapipe reads storage images only with a format qualifier; see docs/replay.md)", im.Format, is3D)
				}
				if err = add(c, s, fRead); err != nil {
					return err
				}
			}
			if flags&fWrite != 0 {
				c := catIW
				switch {
				case is3D && isUintFormat(im.Format):
					return bad("3D unsigned-integer storage images have no replay")
				case is3D:
					c = catIW3
				case isUintFormat(im.Format):
					c = catIWU
				}
				err = add(c, s, fWrite)
			}
		default:
			return bad("an image's shader access must be sampled reads or storage reads/writes")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// shapeDraw groups a command's attachments into passes and decides the
// vertex count of its draws.
func shapeDraw(g *p.Graph, w *work) error {
	cmd := &g.Commands[w.cmd]
	type extent struct{ w, h uint32 }
	var order []extent
	byExt := map[extent][]int{} // colours
	depths := map[extent][]int{}
	add := func(e extent) {
		if _, ok := byExt[e]; !ok {
			if _, ok := depths[e]; !ok {
				order = append(order, e)
			}
		}
	}
	for i, a := range w.colors {
		im := &g.Resources[a.res].Image
		e := extent{im.Width, im.Height}
		add(e)
		byExt[e] = append(byExt[e], i)
	}
	for i, a := range w.depths {
		im := &g.Resources[a.res].Image
		e := extent{im.Width, im.Height}
		add(e)
		depths[e] = append(depths[e], i)
	}
	for _, e := range order {
		cs, ds := byExt[e], depths[e]
		if len(cs) > 8 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.colors[cs[8]].res].Name, Access: "colour attachment", Reason: "more than 8 colour attachments of one extent"}
		}
		nu := 0
		for _, c := range cs {
			if w.colors[c].uint {
				nu++
			}
		}
		if nu > 4 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.colors[cs[0]].res].Name, Access: "colour attachment", Reason: "more than 4 unsigned-integer colour attachments"}
		}
		first := pass{colors: cs, depth: -1, width: e.w, height: e.h}
		if len(ds) > 0 {
			first.depth = ds[0]
		}
		w.passes = append(w.passes, first)
		for _, d := range ds[min(1, len(ds)):] {
			w.passes = append(w.passes, pass{depth: d, width: e.w, height: e.h})
		}
	}
	if w.indirect >= 0 && w.vertex >= 0 {
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.vertex].Name, Access: "VERTEX_ATTRIBUTE_INPUT VERTEX_ATTRIBUTE_READ",
			Reason: "a draw with both indirect arguments and a vertex buffer has no replay (the arguments decide how much of the buffer is read)"}
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
		w.passes = []pass{{depth: -1, width: aw, height: ah}}
	}
	v := uint64(3)
	if vp := w.parts[stVertex]; vp != nil {
		v = max(v, min(vp.maxCount(), 1<<20))
	}
	if w.vertex >= 0 {
		v = max(v, g.Resources[w.vertex].Buffer.Size/4)
	}
	v = (v + 2) / 3 * 3
	if v > 1<<30 {
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.vertex].Name, Access: "vertex input", Reason: "too many vertices"}
	}
	w.vertices = uint32(v)
	return nil
}
