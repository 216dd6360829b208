package replay

import (
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Transform feedback (VK_EXT_transform_feedback). Each op is one
// vkCmdBeginTransformFeedbackEXT … draw … vkCmdEndTransformFeedbackEXT
// in a rendering pass of its own (no attachments, rasterizer discard,
// xfb.vert): point v captures one word derived from v and the command, so
// what is written is the same in every run and the buffer's later
// readers digest it.
//
//   - TRANSFORM_FEEDBACK_WRITE of a buffer: size/4 points captured into
//     the whole buffer (binding 0, offset 0: the model has no buffer
//     ranges), every 32-bit word written.
//   - TRANSFORM_FEEDBACK_COUNTER_WRITE: the End of a capture writes the
//     counter (the byte count) into the buffer's first word; paired with
//     a captured buffer of the command when there is one, else with a
//     capture into the replay's own sink.
//   - TRANSFORM_FEEDBACK_COUNTER_READ in the TRANSFORM_FEEDBACK stage: the
//     Begin of a capture into the replay's sink (a 256-byte region of the
//     command's own) reads the counter and resumes there, so what the
//     sink holds after the run (hashed like a digest) depends on the
//     counter's value. A captured graph buffer never resumes at a counter:
//     the bytes before it would keep undefined contents.
//   - TRANSFORM_FEEDBACK_COUNTER_READ in DRAW_INDIRECT:
//     vkCmdDrawIndirectByteCountEXT reads the counter and draws
//     counter/64 points into a sink region (the first 64 of them land).
//
// A counter write writes 4 bytes: the rest of a larger counter buffer is
// not written by it.

const (
	xfbSinkBytes       = 256 // one sink region
	xfbByteCountStride = 64
)

// xfbOp is one capture.
type xfbOp struct {
	buf          p.ResourceID // the captured buffer; -1: a sink region
	counterRead  p.ResourceID // -1: none; read by Begin, or by the draw when byteCount
	counterWrite p.ResourceID // -1: none; written by End
	byteCount    bool
	sink         uint64 // the sink region's offset (setupXfb)
}

// resource is the graph resource the op is mostly about (for errors).
func (op *xfbOp) resource() p.ResourceID {
	switch {
	case op.buf >= 0:
		return op.buf
	case op.counterRead >= 0:
		return op.counterRead
	}
	return op.counterWrite
}

const xfbFlags = vk.AccessTransformFeedbackWriteEXT | vk.AccessTransformFeedbackCounterReadEXT | vk.AccessTransformFeedbackCounterWriteEXT

// xfbUses collects one access's transform feedback flags in w.xfbUse;
// shapeXfb turns them into ops once the command is analysed.
func addXfb(g *p.Graph, w *work, a *p.Access, st vk.Stage, bad func(string, ...any) error) (vk.AccessFlags, error) {
	r := &g.Resources[a.Resource]
	done := vk.AccessFlags(0)
	if r.Kind != p.KindBuffer {
		return 0, bad("transform feedback needs a buffer (Vulkan)")
	}
	tf := st&vk.StageTransformFeedbackEXT != 0
	if tf && a.Access&vk.AccessTransformFeedbackWriteEXT != 0 {
		if r.Buffer.Usage&vk.BufferUsageTransformFeedbackBufferEXT == 0 || r.Buffer.Size < 4 {
			return 0, bad("a transform feedback write needs a buffer with TRANSFORM_FEEDBACK_BUFFER usage of 4 bytes or more (Vulkan)")
		}
		w.xfbUse.writes = append(w.xfbUse.writes, a.Resource)
		done |= vk.AccessTransformFeedbackWriteEXT
	}
	counter := func() error {
		if r.Buffer.Usage&vk.BufferUsageTransformFeedbackCounterBufferEXT == 0 || r.Buffer.Size < 4 {
			return bad("a transform feedback counter needs a buffer with TRANSFORM_FEEDBACK_COUNTER_BUFFER usage of 4 bytes or more (Vulkan)")
		}
		return nil
	}
	if tf && a.Access&vk.AccessTransformFeedbackCounterWriteEXT != 0 {
		if err := counter(); err != nil {
			return 0, err
		}
		w.xfbUse.counterWrites = append(w.xfbUse.counterWrites, a.Resource)
		done |= vk.AccessTransformFeedbackCounterWriteEXT
	}
	if a.Access&vk.AccessTransformFeedbackCounterReadEXT != 0 && st&(vk.StageTransformFeedbackEXT|vk.StageDrawIndirect) != 0 {
		if err := counter(); err != nil {
			return 0, err
		}
		if tf {
			w.xfbUse.counterReads = append(w.xfbUse.counterReads, a.Resource)
		}
		if st&vk.StageDrawIndirect != 0 {
			if r.Buffer.Usage&vk.BufferUsageIndirectBuffer == 0 {
				return 0, bad("a counter read in DRAW_INDIRECT (vkCmdDrawIndirectByteCountEXT) needs INDIRECT_BUFFER usage too (Vulkan: VUID-vkCmdDrawIndirectByteCountEXT-counterBuffer-02290)")
			}
			w.xfbUse.byteCounts = append(w.xfbUse.byteCounts, a.Resource)
		}
		done |= vk.AccessTransformFeedbackCounterReadEXT
	}
	return done, nil
}

// xfbUse is what a command's accesses ask of transform feedback.
type xfbUse struct {
	writes, counterWrites, counterReads, byteCounts []p.ResourceID
}

// shapeXfb pairs the command's transform feedback uses into captures.
func shapeXfb(w *work) {
	u := &w.xfbUse
	if len(u.writes)+len(u.counterWrites)+len(u.counterReads)+len(u.byteCounts) == 0 {
		return
	}
	cw := u.counterWrites
	take := func(prefer p.ResourceID) p.ResourceID {
		for i, c := range cw {
			if c == prefer {
				cw = append(cw[:i:i], cw[i+1:]...)
				return c
			}
		}
		if prefer >= 0 || len(cw) == 0 {
			return -1
		}
		c := cw[0]
		cw = cw[1:]
		return c
	}
	// A counter read and written in one command resumes and then
	// records where it stopped (the append idiom).
	for _, c := range u.counterReads {
		w.xfb = append(w.xfb, xfbOp{buf: -1, counterRead: c, counterWrite: take(c)})
	}
	for _, b := range u.writes {
		w.xfb = append(w.xfb, xfbOp{buf: b, counterRead: -1, counterWrite: take(-1)})
	}
	for _, c := range u.byteCounts {
		w.xfb = append(w.xfb, xfbOp{buf: -1, counterRead: c, counterWrite: -1, byteCount: true})
	}
	for _, c := range cw {
		w.xfb = append(w.xfb, xfbOp{buf: -1, counterRead: -1, counterWrite: c})
	}
}

// xfbState is the replay's transform feedback kit: the pipeline and the
// sink.
type xfbState struct {
	pipe      vkg.Pipeline
	sink      ownBuffer
	size      uint64
	stride    uint32    // vkCmdDrawIndirectByteCountEXT's vertex stride
	reset     ownBuffer // a zero VkDrawIndirectCommand (xfbquirk.go)
	resetting bool      // reset is in use
}

// setupXfb places every sink capture in the sink and makes the pipeline.
func (r *Replayer) setupXfb() error {
	k := r.k
	var n uint64
	for i := range r.works {
		for j := range r.works[i].xfb {
			op := &r.works[i].xfb[j]
			if op.buf < 0 {
				op.sink = n
				n += xfbSinkBytes
			}
		}
	}
	any := n > 0
	for i := range r.works {
		any = any || len(r.works[i].xfb) > 0
	}
	if !any {
		return nil
	}
	r.xfb.size = n
	r.xfb.stride = min(xfbByteCountStride, max(k.hooks.XfbCondSupport().MaxStride, 4))
	var err error
	if r.xfb.sink, err = k.newBuffer(max(n, 16), vkg.BufferUsageFlags(0x800|vkg.BufferUsageTransferDstBit), true); err != nil { // TRANSFORM_FEEDBACK_BUFFER_BIT_EXT
		return err
	}
	if r.xfb.pipe, err = k.xfbPipeline(); err != nil {
		return err
	}
	return r.setupByteCountReset()
}

// xfbKey is the key of the transform feedback pipeline among the
// graphics pipelines (kit.close destroys those).
var xfbKey = gfxKey{nuint: -1}

func (k *kit) xfbPipeline() (vkg.Pipeline, error) {
	defer k.lockPipes()() // sharedkit.go
	if pl, ok := k.gfxPipes[xfbKey]; ok {
		return pl, nil
	}
	chain := vkext.PipelineRendering(nil, int32(vkg.FormatUndefined), int32(vkg.FormatUndefined))
	defer chain.Free()
	info := []vkg.GraphicsPipelineCreateInfo{{
		SType:      vkg.StructureTypeGraphicsPipelineCreateInfo,
		PNext:      chain.Head(),
		StageCount: 1,
		PStages: []vkg.PipelineShaderStageCreateInfo{{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageVertexBit,
			Module: k.modules["xfb.spv"], PName: "main\x00"}},
		PVertexInputState: &vkg.PipelineVertexInputStateCreateInfo{SType: vkg.StructureTypePipelineVertexInputStateCreateInfo},
		PInputAssemblyState: &vkg.PipelineInputAssemblyStateCreateInfo{SType: vkg.StructureTypePipelineInputAssemblyStateCreateInfo,
			Topology: vkg.PrimitiveTopologyPointList},
		PRasterizationState: &vkg.PipelineRasterizationStateCreateInfo{SType: vkg.StructureTypePipelineRasterizationStateCreateInfo,
			RasterizerDiscardEnable: vkg.True, PolygonMode: vkg.PolygonModeFill, CullMode: vkg.CullModeFlags(vkg.CullModeNone), LineWidth: 1},
		Layout: k.gfxLay, // xfb.vert uses no descriptors or push constants
	}}
	pipes := make([]vkg.Pipeline, 1)
	res := vkg.CreateGraphicsPipelines(k.vd, vkg.NullPipelineCache, 1, info, nil, pipes)
	info[0].Free()
	if err := vkCheck("vkCreateGraphicsPipelines (transform feedback)", res); err != nil {
		return vkg.NullPipeline, err
	}
	k.gfxPipes[xfbKey] = pipes[0]
	return pipes[0], nil
}

// recordXfbInit zeroes the sink before every run (recordInit).
func (r *Replayer) recordXfbInit(cb vkg.CommandBuffer) {
	if r.xfb.size > 0 {
		vkg.CmdFillBuffer(cb, r.xfb.sink.buf, 0, vkg.DeviceSize(vkg.WholeSize), 0)
	}
}

// xfbHashes hashes every sink region after a run, in work order.
func (r *Replayer) xfbHashes() []uint64 {
	if r.xfb.size == 0 {
		return nil
	}
	b := r.xfb.sink.bytes()
	var out []uint64
	for off := uint64(0); off < r.xfb.size; off += xfbSinkBytes {
		out = append(out, hashBytes(b[off:off+xfbSinkBytes]))
	}
	return out
}

// recordXfb records w's captures, each in a pass of its own.
func (m *mode) recordXfb(cb vkg.CommandBuffer, w *work) {
	if len(w.xfb) == 0 {
		return
	}
	r := m.r
	x := r.k.hooks.XfbCond()
	c := unsafe.Pointer(cb)
	handle := func(id p.ResourceID) unsafe.Pointer {
		if id < 0 {
			return nil
		}
		b, _ := m.handle(id)
		return unsafe.Pointer(b)
	}
	r.k.hooks.Rendering().BeginRendering(c, 1, 1, nil, nil, nil)
	vkg.CmdBindPipeline(cb, vkg.PipelineBindPointGraphics, r.xfb.pipe)
	for _, op := range w.xfb {
		buf, off, size := unsafe.Pointer(r.xfb.sink.buf), op.sink, uint64(xfbSinkBytes)
		if op.buf >= 0 {
			buf, off, size = handle(op.buf), 0, m.r.g.Resources[op.buf].Buffer.Size/4*4
		}
		x.BindBuffer(c, buf, off, size)
		begin := op.counterRead
		if op.byteCount {
			begin = -1
		}
		x.Begin(c, handle(begin), 0)
		if op.byteCount {
			m.recordByteCountReset(cb)
			x.DrawByteCount(c, handle(op.counterRead), 0, r.xfb.stride)
		} else {
			vkg.CmdDraw(cb, uint32(size/4), 1, 0, w.seed)
		}
		x.End(c, handle(op.counterWrite), 0)
	}
	r.k.hooks.Rendering().EndRendering(c)
}
