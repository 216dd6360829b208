package replay

import (
	"encoding/binary"
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"hash/fnv"
	"math"
	"slices"
	"unsafe"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Replayer replays one graph on one device. New analyses every command
// (an access with no faithful replay is an *UnsupportedError); Source is
// the requirements source to plan the graph with; Compare runs the plan
// and its unaliased twin and compares them.
type Replayer struct {
	k      *kit
	g      *p.Graph
	src    *vulkan.Resources
	works  []work
	nparts int
	stride uint64 // bytes per Params record

	params   ownBuffer
	lanes    ownBuffer
	readback ownBuffer
	staging  ownBuffer
	imports  []importObj
	lone     loneBuffers // lonecopy.go
	edges    ownBuffer   // blocks.go: partial edge blocks of uncompressed-to-compressed copies
	xfb      xfbState    // xfb.go
	queries  vk.QueryPool
	nq       uint32
	// initCB and readCB run before and after every frame; readCB is
	// recorded for one order (readOrder).
	initCB, readCB vk.CommandBuffer
	readOrder      []p.CommandID
	// poison: fill the pools with a per-run pattern before every run
	// (poison.go); poisonRun counts the fills.
	poison    bool
	poisonRun uint64
	// scratch3D: the 2D array images of resolves into 3D images through
	// scratch (resolve3d.go).
	scratch3D map[scratchKey]vk.Image
	// hostBytes, where a test sets it, keeps a copy of each host-visible
	// resource's final bytes of the last run (what collect hashes).
	hostBytes map[p.ResourceID][]byte
}

type importObj struct {
	id     p.ResourceID
	buf    vk.Buffer
	img    vk.Image
	bytes  uint64 // readback bytes
	offset uint64 // in the readback buffer
}

// New prepares the replay of g on dev, which must have been opened with
// vulkan.Config{Replay: true}. The graph must not change afterwards.
func New(dev *vulkan.Device, g *p.Graph) (*Replayer, error) {
	defer pauseGC()()
	g = replayGraph(g)   // inputattach.go
	g = dgcGraph(g)      // dgc.go
	g = mutableGraph(g)  // sint.go
	g = concreteGraph(g) // generic.go
	ws := make([]work, len(g.Commands))
	for c := range g.Commands {
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			return nil, refineUnbuilt(dev, g, p.CommandID(c), err) // unbuilt.go
		}
		ws[c] = w
	}
	if err := scratchRules(g, ws); err != nil { // asscratch.go
		return nil, err
	}
	if err := rangeRules(g, ws); err != nil { // asindirect.go
		return nil, err
	}
	k, err := newKit(dev)
	if err != nil {
		return nil, err
	}
	r := &Replayer{k: k, g: g, works: ws, poison: poisonDefault}
	if err := k.formatFeatures(g, ws); err != nil {
		k.close()
		return nil, err
	}
	if err := k.xfbCondFeatures(g, ws); err != nil { // condrender.go
		k.close()
		return nil, err
	}
	if err := k.dgcDevice(g, ws); err != nil { // dgc.go
		k.close()
		return nil, err
	}
	if err := r.setup(); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.setupDGC(); err != nil { // dgc.go
		r.Close()
		return nil, err
	}
	r.src = dev.NewResources(g)
	return r, nil
}

// Source is the requirements source of the aliased run: plan the graph
// with it (the plan then binds the very handles it measured).
func (r *Replayer) Source() *vulkan.Resources { return r.src }

// Close destroys everything the replayer made. The device stays open.
func (r *Replayer) Close() {
	defer pauseGC()()
	if r.src != nil {
		r.src.Close()
		r.src = nil
	}
	if r.k == nil {
		return
	}
	if r.initCB != nil {
		vk.FreeCommandBuffers(r.k.vd, r.k.hooks.CommandPool(), 2, []vk.CommandBuffer{r.initCB, r.readCB})
	}
	if r.queries != vk.NullQueryPool {
		vk.DestroyQueryPool(r.k.vd, r.queries, nil)
	}
	r.k.close()
	r.k = nil
}

func (r *Replayer) setup() error {
	k := r.k
	// Every graphics command has a vertex and a fragment part (their
	// shaders always run), even when they read nothing.
	for i := range r.works {
		w := &r.works[i]
		if w.graphics {
			for _, st := range []stage{stVertex, stFragment} {
				if w.parts[st] == nil {
					w.parts[st] = &part{stage: st}
				}
			}
			ensureTessParts(w) // prerast.go
		}
		for _, pt := range w.allParts() {
			if pt != nil {
				pt.index = r.nparts
				r.nparts++
			}
		}
	}
	align := max(uint64(k.limits.MinStorageBufferOffsetAlignment), 16)
	stride := (uint64(paramsBytes) + align - 1) / align * align
	n := uint64(max(r.nparts, 1))
	var err error
	if r.params, err = k.newBuffer(n*stride, vk.BufferUsageFlags(vk.BufferUsageStorageBufferBit), true); err != nil {
		return err
	}
	if r.lanes, err = k.newBuffer(n*laneBytes, vk.BufferUsageFlags(vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferSrcBit|vk.BufferUsageTransferDstBit), false); err != nil {
		return err
	}
	r.stride = stride
	r.writeParams(stride)
	if err := r.setupLone(); err != nil { // lonecopy.go
		return err
	}
	if err := r.setupEdges(); err != nil { // blocks.go
		return err
	}
	if err := r.setupXfb(); err != nil { // xfb.go
		return err
	}
	// Imported resources: the replay's own, initialised before every run
	// and read back after it.
	off := n * laneBytes
	var stage uint64
	for id := range r.g.Resources {
		res := &r.g.Resources[id]
		if !res.Imported {
			continue
		}
		o := importObj{id: p.ResourceID(id), offset: off}
		if res.Kind == p.KindBuffer {
			b, err := k.newBuffer(res.Buffer.Size, vk.BufferUsageFlags(res.Buffer.Usage)|vk.BufferUsageFlags(vk.BufferUsageTransferSrcBit|vk.BufferUsageTransferDstBit), false)
			if err != nil {
				return fmt.Errorf("replay: imported %q: %w", res.Name, err)
			}
			o.buf, o.bytes = b.buf, res.Buffer.Size
		} else {
			im := &res.Image
			img, err := k.newImage(im, vk.ImageUsageFlags(im.Usage)|vk.ImageUsageFlags(vk.ImageUsageTransferSrcBit|vk.ImageUsageTransferDstBit))
			if err != nil {
				return fmt.Errorf("replay: imported %q: %w", res.Name, err)
			}
			o.img = img.img
			if im.Samples == 1 {
				// Multisampled images cannot be copied to a buffer: the
				// digests of the commands that read them cover them.
				o.bytes = copyBufferBytes(im)
			}
		}
		stage = max(stage, o.bytes)
		off += (o.bytes + 255) / 256 * 256
		r.imports = append(r.imports, o)
	}
	if r.readback, err = k.newBuffer(max(off, 16), vk.BufferUsageFlags(vk.BufferUsageTransferDstBit), true); err != nil {
		return err
	}
	if r.staging, err = k.newBuffer(max(stage, 16), vk.BufferUsageFlags(vk.BufferUsageTransferSrcBit), true); err != nil {
		return err
	}
	fillPattern(r.staging.bytes())
	r.nq = uint32(len(r.g.Commands) + 2)
	qi := vk.QueryPoolCreateInfo{SType: vk.StructureTypeQueryPoolCreateInfo, QueryType: vk.QueryTypeTimestamp, QueryCount: r.nq}
	var qp vk.QueryPool
	res := vk.CreateQueryPool(k.vd, &qi, nil, &qp)
	qi.Free()
	if err := vkCheck("vkCreateQueryPool", res); err != nil {
		return err
	}
	r.queries = qp
	cbs := make([]vk.CommandBuffer, 2)
	ai := vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: k.hooks.CommandPool(),
		Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 2}
	res = vk.AllocateCommandBuffers(k.vd, &ai, cbs)
	ai.Free()
	if err := vkCheck("vkAllocateCommandBuffers", res); err != nil {
		return err
	}
	r.initCB, r.readCB = cbs[0], cbs[1]
	return r.recordInit(r.initCB)
}

// ensureReadback (re)records the read-back for order: the imported
// images' final layouts follow it.
func (r *Replayer) ensureReadback(order []p.CommandID) error {
	if slices.Equal(order, r.readOrder) {
		return nil
	}
	if err := vkCheck("vkResetCommandBuffer", vk.ResetCommandBuffer(r.readCB, 0)); err != nil {
		return err
	}
	r.readOrder = slices.Clone(order)
	return r.recordReadback(r.readCB, order)
}

func texels(im *p.ImageDesc, level uint32) uint64 {
	return uint64(max(1, im.Width>>level)) * uint64(max(1, im.Height>>level)) * uint64(max(1, im.Depth>>level))
}

// copyBytes is the bytes per texel of an image copy: the depth aspect's
// for depth formats.
func copyBytes(f avk.Format) uint64 {
	switch f {
	case avk.FormatD16Unorm, avk.FormatD16UnormS8Uint:
		return 2
	case avk.FormatD32Sfloat, avk.FormatD24UnormS8Uint, avk.FormatX8D24UnormPack32, avk.FormatD32SfloatS8Uint:
		return 4
	}
	return f.BytesPerBlock()
}

// fillPattern writes the initial contents of imported resources: words
// that are finite, positive floats below 1 in every float format (fp32,
// fp16 halves), and valid indirect draw arguments at the start.
func fillPattern(b []byte) {
	for i := 0; i+4 <= len(b); i += 4 {
		binary.LittleEndian.PutUint32(b[i:], hash32(uint32(i))&0x3BFF3BFF)
	}
	if len(b) >= 16 {
		binary.LittleEndian.PutUint32(b[0:], indirectStride)
		binary.LittleEndian.PutUint32(b[4:], 1)
		binary.LittleEndian.PutUint32(b[8:], 0)
		binary.LittleEndian.PutUint32(b[12:], 0)
	}
}

// SetSpin makes the compute part of the named command hash rounds more
// times per invocation before it writes (its values stay a function of
// what it read): a slow command, for racing controls, whose writes come
// late. It changes the next runs' work, not the graph's accesses.
func (r *Replayer) SetSpin(command string, rounds uint32) error {
	for i := range r.works {
		w := &r.works[i]
		if w.name != command {
			continue
		}
		pt := w.parts[stCompute]
		if pt == nil {
			return fmt.Errorf("replay: SetSpin: command %q has no compute work", command)
		}
		w.spin = rounds
		binary.LittleEndian.PutUint32(r.params.bytes()[uint64(pt.index)*r.stride+12:], rounds)
		return nil
	}
	return fmt.Errorf("replay: SetSpin: no command %q", command)
}

// writeParams fills every part's Params record (common.glsl).
func (r *Replayer) writeParams(stride uint64) {
	buf := r.params.bytes()
	for i := range r.works {
		w := &r.works[i]
		for _, pt := range w.allParts() {
			if pt == nil {
				continue
			}
			b := buf[uint64(pt.index)*stride:]
			put := func(off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }
			put(0, w.seed^hash32(uint32(pt.stage)+1))
			switch pt.stage {
			case stVertex, stTessControl, stTessEval, stGeometry:
				st := w.vertices
				if len(w.indirect) > 0 {
					st = indirectStride
				}
				if pt.stage != stVertex {
					st = preRasterStride(pt.stage, st) // prerast.go
				}
				put(8, st)
			case stTask, stMesh:
				meshParams(w, pt.stage, put) // mesh.go
			case stRayGen:
				put(8, rayGenLaunches(pt)) // raygen.go
			default:
				put(8, 1)
			}
			if pt.stage == stCompute {
				put(12, w.spin)
			}
			for j := 0; j < 3; j++ {
				z := 0.2 + 0.6*float32(hash32(w.seed^uint32(j+7))>>8)/16777216
				put(16+4*j, math.Float32bits(z))
			}
			put(28, math.Float32bits(1))
			for s := 0; s < numSlots; s++ {
				o := 32 + s*slotBytes
				put(o, 0)
				put(o+4, 0)
				put(o+8, 0)
				put(o+12, 0)
			}
			for _, s := range pt.slots {
				o := 32 + (cats[s.cat].offset+s.index)*slotBytes
				put(o, s.w)
				put(o+4, s.h)
				put(o+8, s.d)
				put(o+12, s.flags)
			}
		}
	}
}

// checkOrder: no transient (and no imported image starting UNDEFINED) may
// be read before the frame writes it.
func (r *Replayer) checkOrder(order []p.CommandID) error {
	g := r.g
	written := make([]bool, len(g.Resources))
	for id := range g.Resources {
		res := &g.Resources[id]
		written[id] = res.Imported && (res.Kind == p.KindBuffer || res.Image.InitialLayout != avk.LayoutUndefined)
	}
	subs := subWritten{} // ranges.go: transients per subresource
	for _, c := range order {
		cmd := &g.Commands[c]
		w := &r.works[c]
		for i := range w.colors {
			w.colors[i].clear = !written[w.colors[i].res] || !g.Resources[w.colors[i].res].Imported && !subs.covers(w.colors[i].res, w.colors[i].sp)
		}
		for i := range w.depths {
			w.depths[i].clear = !written[w.depths[i].res] || !g.Resources[w.depths[i].res].Imported && !subs.covers(w.depths[i].res, w.depths[i].sp)
		}
		if err := ownDefined(g, w, subs, written); err != nil { // selfrace.go
			return err
		}
		for i := range cmd.Accesses {
			a := &cmd.Accesses[i]
			rw := a.Access&(avk.AccessColorAttachmentWrite|avk.AccessDepthStencilAttachmentWrite) != 0
			rw = rw || a.Access&avk.AccessCommandPreprocessWriteNV != 0 // dgc.go: the execution reads what the preprocessing wrote
			if !written[a.Resource] && a.Access&readFlags != 0 && !rw {
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[a.Resource].Name, Access: describe(g, a),
					Reason: "read before any command writes it: its contents are undefined, so runs could not be compared"}
			}
		}
		for i := range cmd.Accesses {
			if cmd.Accesses[i].Access&writeFlags != 0 {
				written[cmd.Accesses[i].Resource] = true
				subs.mark(g, &cmd.Accesses[i])
			}
		}
	}
	return r.checkHost(order) // host.go
}

// result is what one run produced.
type result struct {
	lanes   []uint32 // every part's lanes
	imports []uint64 // a hash of each imported resource's final bytes
	host    []uint64 // a hash of each host-visible resource's final bytes
	lone    []uint64 // a hash of each lone copy read's bytes (lonecopy.go)
	hostIDs []p.ResourceID
	ns      []uint64 // timestamps, relative to the first
}

func hashBytes(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func (r *Replayer) submit(cb vk.CommandBuffer) error {
	// Three submissions, each waited for: synchronization validation
	// (this layer version) checks each alone, so it sees the frame's own
	// barriers only.
	for _, c := range []vk.CommandBuffer{r.initCB, cb, r.readCB} {
		if err := r.submitOne(c); err != nil {
			return err
		}
	}
	return nil
}

func (r *Replayer) submitOne(cb vk.CommandBuffer) error {
	k := r.k
	si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo, CommandBufferCount: 1, PCommandBuffers: []vk.CommandBuffer{cb}}}
	if err := vkCheck("vkQueueSubmit", vk.QueueSubmit(k.dev.Queue(), 1, si, k.fence)); err != nil {
		return err
	}
	if err := vkCheck("vkWaitForFences", vk.WaitForFences(k.vd, 1, []vk.Fence{k.fence}, vk.True, ^uint64(0))); err != nil {
		return err
	}
	return vkCheck("vkResetFences", vk.ResetFences(k.vd, 1, []vk.Fence{k.fence}))
}

// collect reads back one run's results; nts timestamps were written.
func (r *Replayer) collect(m *mode, nts uint32) (result, error) {
	var out result
	rb := r.readback.bytes()
	out.lanes = make([]uint32, r.nparts*lanesPerCmd)
	for i := range out.lanes {
		out.lanes[i] = binary.LittleEndian.Uint32(rb[4*i:])
	}
	for _, o := range r.imports {
		out.imports = append(out.imports, hashBytes(rb[o.offset:o.offset+o.bytes]))
	}
	out.lone = append(r.loneHashes(), r.xfbHashes()...) // lonecopy.go, xfb.go
	for id := range m.plan.Resources {
		if m.plan.Resources[id].Status != p.StatusHostVisible {
			continue
		}
		b, err := m.res.Map(p.ResourceID(id))
		if err != nil {
			return out, err
		}
		out.host = append(out.host, hashBytes(b))
		if r.hostBytes != nil {
			r.hostBytes[p.ResourceID(id)] = slices.Clone(b)
		}
		out.hostIDs = append(out.hostIDs, p.ResourceID(id))
	}
	if nts > 0 {
		ts := make([]uint64, nts)
		res := vk.GetQueryPoolResults(r.k.vd, r.queries, 0, nts, uint64(8*nts), unsafe.Pointer(&ts[0]), 8,
			vk.QueryResultFlags(vk.QueryResult64Bit|vk.QueryResultWaitBit))
		if err := vkCheck("vkGetQueryPoolResults", res); err != nil {
			return out, err
		}
		period := float64(r.k.limits.TimestampPeriod)
		out.ns = make([]uint64, nts)
		for i := range ts {
			out.ns[i] = uint64(float64(ts[i]-ts[0]) * period)
		}
	}
	return out, nil
}
