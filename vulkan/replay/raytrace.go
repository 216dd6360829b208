package replay

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Acceleration structures and ray queries (VK_KHR_acceleration_structure,
// VK_KHR_ray_query, bufferDeviceAddress). The model knows an acceleration
// structure as a buffer with ACCELERATION_STRUCTURE_STORAGE usage and its
// accesses:
//
//   - ACCELERATION_STRUCTURE_BUILD / ACCELERATION_STRUCTURE_WRITE: a real
//     build (vkCmdBuildAccelerationStructuresKHR) into a structure created
//     on the buffer at offset 0 (vkCreateAccelerationStructureKHR; the
//     buffer lives where the plan put it). A buffer some build reads
//     (ACCELERATION_STRUCTURE_BUILD / ACCELERATION_STRUCTURE_READ) is
//     bottom-level: its builds are 16 opaque triangles (fewer where the
//     buffer is too small) derived from the command's seed, in a
//     replay-owned vertex buffer. Every other one is top-level: one
//     instance per bottom-level buffer the build reads (tiled along x), or,
//     reading none, one instance of a bottom-level structure the command
//     builds first in replay-owned memory (from its own triangles, behind
//     a barrier from that build to the top-level one). Scratch memory and
//     instance data are the replay's own.
//   - A bottom-level build that also reads the structure it writes, or
//     reads one other bottom level, is an update (mode UPDATE) of that
//     source into the buffer: the source's triangle count, moved to the
//     command's own triangles. Every build of a structure an update
//     reads or writes has ALLOW_UPDATE (and its sizes are queried so).
//     A top-level build that reads the structure it writes is an
//     in-place update from the bottom levels it reads, moved along y; it
//     must instance as many as the structure's last build did (Vulkan
//     keeps the count), and that build must have been over graph bottom
//     levels.
//   - ACCELERATION_STRUCTURE_COPY, READ of one structure and WRITE of
//     another: vkCmdCopyAccelerationStructureKHR (CLONE); the destination
//     has the source's level and size.
//   - COMPUTE_SHADER / ACCELERATION_STRUCTURE_READ of a top-level
//     structure: a ray-query dispatch (replay_rq.comp) after the command's
//     other work: 256 rays per instance tile straight down through a grid;
//     what each hits (committed type, instance, primitive, distance) is
//     hashed into lanes of the command's own (part stRayQuery), so it is in
//     the command's digest.
//   - RAY_TRACING_SHADER / ACCELERATION_STRUCTURE_READ: the same rays
//     traced by the ray tracing pipeline (replay.rgen), into the lanes of
//     part stRayTrace. An access in both stages (or accesses of each) is
//     traced by both, each into its own lanes.
//   - VERTEX / TESSELLATION_* / GEOMETRY / FRAGMENT_SHADER /
//     ACCELERATION_STRUCTURE_READ: the same rays traced by ray queries in
//     a draw of that stage (rqgfx.go), each stage into lanes of its own.
//
// The digests never see the structures' bytes: their layout is opaque
// and need not be the same from one build to the next, so the replay
// digests what tracing them returns. A structure whose bytes another
// resource clobbered traces differently (TestAccelClobber). Storage,
// sampled and uniform accesses in RAY_TRACING_SHADER stages are
// raygen.go's ray generation part (a pipeline of its own, sharing
// rtPipelineSBT); ray queries in vertex, tessellation, geometry,
// fragment, task and mesh shaders are rqgfx.go's. Refused, by name:
// tracing a bottom-level structure or one the frame does
// not build, a command that builds or copies a structure it also traces.
// Builds whose inputs are graph buffers (SHADER_READ in the build stage)
// build from those buffers' words as vertices instead of their own
// triangles (asinput.go).
// Devices without the extensions and features are refused naming what is
// missing; the device must be opened with vulkan.Config.ReplayStages
// naming ACCELERATION_STRUCTURE_BUILD (Stages(g) does).

// stRayQuery is the compute ray-query trace's part (its lanes), stRayTrace
// the ray tracing pipeline trace's: a command may trace in both.
const (
	stRayQuery stage = stMesh + 1
	stRayTrace stage = stMesh + 2
)

func init() { stageNames[stRayQuery], stageNames[stRayTrace] = "ray query", "ray trace" }

// ownSetStage says whether a part's descriptor set is raytrace.go's own
// (not one of the kit's stage layouts).
func ownSetStage(st stage) bool {
	return st == stRayQuery || st == stRayTrace || isRQGfx(st) || st == stDGC
} // dgc.go too

const (
	rtTriangles = 16
	rtMaxSlots  = 4 // replay_rq.comp's structures per dispatch
	rtScratch   = 256
	// VkAccelerationStructureInstanceKHR
	rtInstanceBytes = 64
	// buffer usages (VkBufferUsageFlagBits)
	usageDeviceAddress = 0x00020000
	usageASInput       = 0x00080000
	usageASStorage     = 0x00100000
	descriptorTypeAS   = 1000150000
)

// rtWork is one command's acceleration-structure work.
type rtWork struct {
	builds           []p.ResourceID // built
	inputs           []p.ResourceID // bottom-level structures its top-level builds instance
	copySrc, copyDst []p.ResourceID
	traces           []p.ResourceID           // ray-query reads (compute)
	rtTraces         []p.ResourceID           // RAY_TRACING_SHADER reads: a ray tracing pipeline's trace
	geom             []p.ResourceID           // graph buffers its builds read as vertices (asinput.go)
	scratch          []p.ResourceID           // the graph buffer its builds use as scratch, if any (asscratch.go)
	ranges           []p.ResourceID           // the graph buffer its indirect builds read their range from, if any (asindirect.go)
	gfx              [numRQGfx][]p.ResourceID // ray queries in graphics stage i (rqgfx.go)
	// updates are its bottom-level builds that update (mode UPDATE) a
	// structure: destination → source (the same buffer for an in-place
	// update: a read and a write of it in the build stage; another bottom
	// level for one read beside the write).
	updates map[p.ResourceID]p.ResourceID
}

// traced is what the command traces, by both paths.
func (rt *rtWork) traced() []p.ResourceID {
	out := append(rt.traces[:len(rt.traces):len(rt.traces)], rt.rtTraces...)
	for _, l := range rt.gfx {
		out = append(out, l...)
	}
	return out
}

// tracePath is one of a command's traces: ray queries in a compute
// dispatch, the ray tracing pipeline, or ray queries in a graphics
// stage's draw (rqgfx.go).
type tracePath struct {
	list []p.ResourceID
	st   stage // its part
	rtp  bool
}

func (rt *rtWork) paths() []tracePath {
	var out []tracePath
	if len(rt.traces) > 0 {
		out = append(out, tracePath{rt.traces, stRayQuery, false})
	}
	if len(rt.rtTraces) > 0 {
		out = append(out, tracePath{rt.rtTraces, stRayTrace, true})
	}
	for i, l := range rt.gfx {
		if len(l) > 0 {
			out = append(out, tracePath{l, stRQVertex + stage(i), false})
		}
	}
	return out
}

// addRTAccess performs the acceleration-structure flags of one access.
func addRTAccess(g *p.Graph, w *work, a *p.Access, st vk.Stage, left *vk.AccessFlags, bad func(string, ...any) error) error {
	asFlags := a.Access & (vk.AccessAccelerationStructureRead | vk.AccessAccelerationStructureWrite)
	if isBuildRange(a, st) {
		if err := addBuildRange(g, w, a, left, bad); err != nil { // asindirect.go
			return err
		}
		if a.Access&^vk.AccessIndirectCommandRead == 0 {
			return nil
		}
	}
	if isBuildScratch(&g.Resources[a.Resource], a, st) {
		return addBuildScratch(g, w, a, left, bad) // asscratch.go
	}
	if isBuildInput(&g.Resources[a.Resource], a, st) {
		return addBuildInput(g, w, a, left, bad) // asinput.go
	}
	if asFlags == 0 {
		// Storage, uniform and sampled accesses in RAY_TRACING_SHADER
		// stages are the ray generation part's (raygen.go).
		return nil
	}
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindBuffer || r.Buffer.Usage&vk.BufferUsageAccelerationStructureStorage == 0 {
		return bad("an acceleration structure lives in a buffer with ACCELERATION_STRUCTURE_STORAGE usage (Vulkan)")
	}
	if w.rt == nil {
		w.rt = &rtWork{}
	}
	rt := w.rt
	switch {
	case st&vk.StageAccelerationStructureBuild != 0:
		if asFlags&vk.AccessAccelerationStructureWrite != 0 {
			rt.builds = append(rt.builds, a.Resource)
		}
		if asFlags&vk.AccessAccelerationStructureRead != 0 {
			rt.inputs = append(rt.inputs, a.Resource)
		}
	case st&vk.StageAccelerationStructureCopy != 0:
		if asFlags == vk.AccessAccelerationStructureRead|vk.AccessAccelerationStructureWrite {
			return bad("a copy reads one acceleration structure and writes another (Vulkan: source and destination differ)")
		}
		if asFlags&vk.AccessAccelerationStructureRead != 0 {
			rt.copySrc = append(rt.copySrc, a.Resource)
		} else {
			rt.copyDst = append(rt.copyDst, a.Resource)
		}
	case st&(vk.StageRayTracingShader|vk.StageComputeShader|rqGfxStages) != 0 && asFlags == vk.AccessAccelerationStructureRead:
		// Traced by the ray tracing pipeline, by a compute ray query, by a
		// ray-query draw of each graphics stage named (rqgfx.go), or by
		// several: each trace has a part (lanes) of its own.
		for i, s := range rqGfx {
			if st&s.vk != 0 {
				rt.gfx[i] = append(rt.gfx[i], a.Resource)
				if w.parts[stRQVertex+stage(i)] == nil {
					w.parts[stRQVertex+stage(i)] = &part{stage: stRQVertex + stage(i)}
				}
			}
		}
		if st&vk.StageRayTracingShader != 0 {
			rt.rtTraces = append(rt.rtTraces, a.Resource)
			if w.parts[stRayTrace] == nil {
				w.parts[stRayTrace] = &part{stage: stRayTrace}
			}
		}
		if st&vk.StageComputeShader != 0 {
			rt.traces = append(rt.traces, a.Resource)
			if w.parts[stRayQuery] == nil {
				w.parts[stRayQuery] = &part{stage: stRayQuery}
			}
		}
	case asFlags&vk.AccessAccelerationStructureWrite != 0:
		return bad("an acceleration-structure write outside the build and copy stages (Vulkan writes them there only)")
	default:
		return bad("acceleration-structure reads in stages %s: the replay reads them in builds, copies, and traces in compute, vertex, tessellation, geometry, fragment and ray tracing shaders", st)
	}
	*left &^= asFlags
	return nil
}

// rtKit is the replay's acceleration-structure state: every structure's
// level and size, the pipeline of ray-query dispatches and what the
// builds use of the replay's own.
type rtKit struct {
	top       map[p.ResourceID]bool
	size      map[p.ResourceID]uint64 // of the structure created on the buffer
	tris      map[p.ResourceID]uint32 // a bottom-level buffer's triangles
	instances map[p.ResourceID]uint32 // a top-level one's instances (the most any build gives it)
	updatable map[p.ResourceID]bool   // built with ALLOW_UPDATE: a source or destination of an update
	own       map[ownKey]*ownBuild
	geomTris  map[ownKey][]uint32 // a build's triangles per input (asinput.go)
	setLay    vkg.DescriptorSetLayout
	pipeLay   vkg.PipelineLayout
	pipe      vkg.Pipeline           // ray queries (compute)
	rtPipe    vkg.Pipeline           // the ray tracing pipeline
	gfxPipe   [numRQGfx]vkg.Pipeline // graphics stages' ray-query draws (rqgfx.go), where used
	sbt       [3]vkext.Region
	rgLay     vkg.PipelineLayout       // raygen.go: the ray generation part's (its one set)
	rgPipes   map[specMasks]rgPipeline // raygen.go: by the part's masks
	stages    vkg.ShaderStageFlags     // of the set and push constants
	fns       *vkext.Extras
}

type ownKey struct {
	cmd p.CommandID
	res p.ResourceID
}

// ownBuild is what one build of one structure uses of the replay's own.
type ownBuild struct {
	verts     uint64 // device address of its triangles (bottom, or the own bottom-level structure)
	ntris     uint32
	scratch   uint64 // aligned device addresses of its scratch
	scratch2  uint64 // the top-level build's, after an own bottom-level one
	ownBase   uint64 // the aligned address of its own scratch buffer
	need      uint64 // that buffer's size: what a graph scratch buffer gives it (asscratch.go)
	graphOff  uint64 // its offset in the command's graph scratch buffer (asscratch.go)
	blas      unsafe.Pointer
	instances uint64 // device address of the one instance of blas
}

func hasRT(ws []work) bool {
	for i := range ws {
		if ws[i].rt != nil {
			return true
		}
	}
	return false
}

// skipRTModule says whether the device cannot take the shader module.
func (k *kit) skipRTModule(name string) bool {
	_, rq, rtp := k.hooks.RayQueries()
	return name == "rq.spv" && !rq || k.skipRQGfxModule(name) || (name == "rgen.spv" || name == "rgen_slots.spv" || name == "rgen_slots_x.spv" || name == "rgen_slots_nf.spv" || name == "rmiss.spv" || name == "rchit.spv") && !rtp
}

// rtDevice checks every acceleration-structure use of g against the
// device and the rules above, decides levels and sizes, and makes the
// replay's own build inputs and the ray-query pipeline.
func (k *kit) rtDevice(g *p.Graph, ws []work) error {
	if !hasRT(ws) && !hasRayGen(ws) {
		return nil
	}
	if err := k.rayGenDevice(g, ws); err != nil { // raygen.go
		return err
	}
	refuse := func(w *work, r p.ResourceID, format string, args ...any) error {
		cmd := &g.Commands[w.cmd]
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[r].Name, Access: describe(g, findAccess(cmd, r)), Reason: fmt.Sprintf(format, args...)}
	}
	first := func() (*work, p.ResourceID) {
		for i := range ws {
			if rt := ws[i].rt; rt != nil {
				for _, l := range append([][]p.ResourceID{rt.builds, rt.traces, rt.rtTraces, rt.copySrc, rt.copyDst, rt.inputs, rt.geom}, rt.gfx[:]...) {
					if len(l) > 0 {
						return &ws[i], l[0]
					}
				}
			}
		}
		return &ws[0], 0
	}
	name := k.dev.Info().Name
	exts, fas, frq, frtp, fbda := k.hooks.RaySupport()
	has, hasRQ, hasRTP := k.hooks.RayQueries()
	notOpened := func(w *work, r p.ResourceID, ext string) error {
		return refuse(w, r, "%s has %s, but the device was opened without ACCELERATION_STRUCTURE_BUILD or RAY_TRACING_SHADER in vulkan.Config.ReplayStages (replay.Stages(graph) gives them), so it is not enabled", name, ext)
	}
	if !has {
		w, r := first()
		for _, e := range []string{"VK_KHR_acceleration_structure", "VK_KHR_deferred_host_operations"} {
			if !exts[e] {
				return refuse(w, r, "%s lacks %s (queried): the device cannot build or trace acceleration structures", name, e)
			}
		}
		if !fas || !fbda {
			return refuse(w, r, "%s lacks the accelerationStructure or bufferDeviceAddress feature (queried: %v, %v)", name, fas, fbda)
		}
		return notOpened(w, r, "VK_KHR_acceleration_structure")
	}
	for i := range ws {
		w := &ws[i]
		if w.rt == nil {
			continue
		}
		type need struct {
			list    []p.ResourceID
			ext     string
			feature bool
			enabled bool
			what    string
		}
		needs := []need{{w.rt.traces, "VK_KHR_ray_query", frq, hasRQ, "ray queries in compute shaders"}, {w.rt.rtTraces, "VK_KHR_ray_tracing_pipeline", frtp, hasRTP, "ray tracing shaders"}}
		for i, s := range rqGfx {
			needs = append(needs, need{w.rt.gfx[i], "VK_KHR_ray_query", frq, hasRQ, "ray queries in " + s.name + " shaders"})
		}
		for _, c := range needs {
			if len(c.list) == 0 || c.enabled {
				continue
			}
			switch {
			case !exts[c.ext]:
				return refuse(w, c.list[0], "%s lacks %s (queried): the device cannot run %s (ray-related extensions: %s)", name, c.ext, c.what, rayExts(exts))
			case !c.feature:
				return refuse(w, c.list[0], "%s has %s without its feature (queried): the device cannot run %s", name, c.ext, c.what)
			default:
				return notOpened(w, c.list[0], c.ext)
			}
		}
		for i, l := range w.rt.gfx {
			if why := k.rqGfxFeature(i); len(l) > 0 && why != "" { // rqgfx.go
				return refuse(w, l[0], "%s", why)
			}
		}
	}
	rk := &rtKit{top: map[p.ResourceID]bool{}, size: map[p.ResourceID]uint64{}, tris: map[p.ResourceID]uint32{}, instances: map[p.ResourceID]uint32{},
		updatable: map[p.ResourceID]bool{}, own: map[ownKey]*ownBuild{}, fns: k.hooks.Extras()}
	k.rt = rk
	// A structure a build both reads and writes is updated in place: it is
	// the update's source, not an input the build instances.
	for i := range ws {
		rt := ws[i].rt
		if rt == nil {
			continue
		}
		for _, r := range rt.builds {
			if slices.Contains(rt.inputs, r) {
				if rt.updates == nil {
					rt.updates = map[p.ResourceID]p.ResourceID{}
				}
				rt.updates[r] = r
				rt.inputs = slices.DeleteFunc(rt.inputs, func(x p.ResourceID) bool { return x == r })
			}
		}
	}
	bottom := map[p.ResourceID]bool{}
	for i := range ws {
		if rt := ws[i].rt; rt != nil {
			for _, r := range rt.inputs {
				bottom[r] = true
			}
		}
	}
	// Levels, in recorded order (a copy's destination takes its source's).
	built := map[p.ResourceID]bool{}
	level := map[p.ResourceID]bool{}     // decided: top
	lastInputs := map[p.ResourceID]int{} // a top level's last build: the bottom levels it instanced (-1: its own or graph triangles)
	for i := range ws {
		w := &ws[i]
		rt := w.rt
		if rt == nil {
			continue
		}
		if len(rt.copySrc) != len(rt.copyDst) {
			r := append(rt.copySrc, rt.copyDst...)[0]
			return refuse(w, r, "acceleration-structure copies pair one source with one destination (%d sources, %d destinations)", len(rt.copySrc), len(rt.copyDst))
		}
		for _, r := range rt.traced() {
			for _, l := range [][]p.ResourceID{rt.builds, rt.copyDst} {
				for _, x := range l {
					if x == r {
						return refuse(w, r, "a command that writes the acceleration structure it traces (no barrier can order the two inside it)")
					}
				}
			}
		}
		for _, r := range rt.builds {
			if bottom[r] && len(rt.inputs) > 0 {
				// A bottom-level build reading one other bottom level
				// updates it into this buffer (mode UPDATE, src → dst).
				if len(rt.inputs) > 1 || len(rt.builds) > 1 || !bottom[rt.inputs[0]] {
					return refuse(w, r, "a bottom-level build that reads %d acceleration structures beside %d builds: an update reads one bottom-level source for one destination (Vulkan), and a bottom level instances nothing", len(rt.inputs), len(rt.builds))
				}
				if rt.updates == nil {
					rt.updates = map[p.ResourceID]p.ResourceID{}
				}
				rt.updates[r] = rt.inputs[0]
				rt.inputs = nil
			}
			if src, ok := rt.updates[r]; ok {
				switch {
				case !bottom[r] && (len(rt.inputs) == 0 || lastInputs[r] != len(rt.inputs)):
					return refuse(w, r, "an update of a top-level acceleration structure instancing %d graph bottom levels, where its last build instanced %d (-1: the replay's own): Vulkan keeps the instance count, and the replay updates top levels built over graph bottom levels only", len(rt.inputs), lastInputs[r])
				case !built[src]:
					return refuse(w, src, "an update of an acceleration structure the frame has not built (Vulkan: the source must have been built with ALLOW_UPDATE; its contents are opaque: the replay can give it none)")
				case len(rt.geom) > 0:
					return refuse(w, r, "an update whose triangles are graph buffers (the replay's updates move its own triangles: not built)")
				}
				rk.updatable[r], rk.updatable[src] = true, true
			}
			if t, ok := level[r]; ok && t == bottom[r] {
				return refuse(w, r, "the buffer holds both a top- and a bottom-level acceleration structure in the frame")
			}
			level[r], built[r] = !bottom[r], true
			if !bottom[r] {
				rk.instances[r] = max(rk.instances[r], uint32(max(1, len(rt.inputs)+rt.geomInstance())))
				lastInputs[r] = len(rt.inputs)
				if len(rt.inputs) == 0 || rt.geomInstance() > 0 {
					lastInputs[r] = -1
				}
			}
		}
		for j, s := range rt.copySrc {
			d := rt.copyDst[j]
			if !built[s] {
				return refuse(w, s, "a copy of an acceleration structure the frame has not built (its contents are opaque: the replay can give it none)")
			}
			if t, ok := level[d]; ok && t != level[s] {
				return refuse(w, d, "the buffer holds both a top- and a bottom-level acceleration structure in the frame")
			}
			level[d], built[d] = level[s], true
			if level[s] {
				rk.instances[d] = max(rk.instances[d], rk.instances[s])
			}
		}
		for _, r := range rt.inputs {
			if !built[r] {
				return refuse(w, r, "a build reading an acceleration structure the frame has not built (its contents are opaque: the replay can give it none)")
			}
		}
		for _, r := range rt.traced() {
			if !built[r] {
				return refuse(w, r, "a trace of an acceleration structure the frame has not built (its contents are opaque: the replay can give it none)")
			}
			if !level[r] {
				return refuse(w, r, "a ray query traces a top-level acceleration structure; this buffer is bottom-level (a build reads it)")
			}
		}
		for _, tp := range rt.paths() {
			if len(tp.list) > rtMaxSlots {
				return refuse(w, tp.list[rtMaxSlots], "more than %d acceleration structures traced by one command in one stage (replay_rq.comp's and replay.rgen's slots)", rtMaxSlots)
			}
		}
	}
	// Sizes: every buffer must hold its structure.
	for r, top := range level {
		rk.top[r] = top
		res := &g.Resources[r]
		if top {
			size, _, _ := rk.fns.ASSizesUpdatable(true, rk.instances[r], rk.updatable[r])
			if size > res.Buffer.Size {
				w, _ := first()
				return refuse(w, r, "a top-level structure of %d instances needs %d bytes on %s; the buffer has %d", rk.instances[r], size, k.dev.Info().Name, res.Buffer.Size)
			}
			rk.size[r] = size
			continue
		}
		n := uint32(rtTriangles)
		for ; n > 0; n-- {
			if size, _, _ := rk.fns.ASSizesUpdatable(false, n, rk.updatable[r]); size <= res.Buffer.Size {
				rk.size[r], rk.tris[r] = size, n
				break
			}
		}
		if n == 0 {
			size, _, _ := rk.fns.ASSizesUpdatable(false, 1, rk.updatable[r])
			w, _ := first()
			return refuse(w, r, "a bottom-level structure of one triangle needs %d bytes on %s; the buffer has %d", size, k.dev.Info().Name, res.Buffer.Size)
		}
	}
	// An update keeps its source's triangle count (Vulkan): a source and
	// its destinations take the smallest count any of them holds.
	for changed := true; changed; {
		changed = false
		for i := range ws {
			if rt := ws[i].rt; rt != nil {
				for dst, src := range rt.updates {
					if n := min(rk.tris[dst], rk.tris[src]); rk.tris[dst] != n || rk.tris[src] != n {
						rk.tris[dst], rk.tris[src], changed = n, n, true
					}
				}
			}
		}
	}
	for r := range rk.updatable {
		rk.size[r], _, _ = rk.fns.ASSizesUpdatable(false, rk.tris[r], true)
	}
	need, err := k.geomCheck(g, ws, refuse) // asinput.go
	if err != nil {
		return err
	}
	for i := range ws {
		if err := k.rangeDevice(g, &ws[i], refuse); err != nil { // asindirect.go
			return err
		}
	}
	for r, s := range need {
		rk.size[r] = max(rk.size[r], s)
	}
	if err := k.rtOwn(g, ws); err != nil {
		return err
	}
	return k.rtPipeline(ws)
}

// triangles are rtTriangles opaque triangles over the unit square at
// distinct depths, placed from seed.
func triangles(seed uint32, n uint32) []byte {
	out := make([]byte, 0, n*36)
	put := func(f float32) { out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f)) }
	for t := uint32(0); t < n; t++ {
		h := hash32(seed ^ (t * 0x9E3779B1))
		cx := 0.15 + 0.7*float32(h&0xffff)/65536
		cy := 0.15 + 0.7*float32(h>>16)/65536
		z := 0.1 + 0.8*float32(t)/float32(n)
		for _, v := range [][2]float32{{-0.15, -0.15}, {0.15, -0.15}, {0, 0.15}} {
			put(cx + v[0])
			put(cy + v[1])
			put(z)
		}
	}
	return out
}

// instanceBytes are VkAccelerationStructureInstanceKHRs of the
// bottom-level structures at addrs, instance j shifted by j in x.
func instanceBytes(addrs []uint64) []byte { return instanceBytesAt(addrs, 0) }

// instanceBytesAt is instanceBytes with every instance shifted by dy in y.
func instanceBytesAt(addrs []uint64, dy float32) []byte {
	out := make([]byte, 0, rtInstanceBytes*len(addrs))
	for j, a := range addrs {
		for i, v := range [12]float32{1, 0, 0, float32(j), 0, 1, 0, dy, 0, 0, 1, 0} {
			_ = i
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(j)|0xff<<24) // custom index j, mask 0xff
		out = binary.LittleEndian.AppendUint32(out, 0x1<<24)            // SBT offset 0, TRIANGLE_FACING_CULL_DISABLE
		out = binary.LittleEndian.AppendUint64(out, a)
	}
	return out
}

// addrBuffer is newBuffer with SHADER_DEVICE_ADDRESS usage and memory
// allocated for device addresses; it returns the buffer and its address
// (rounded up to align).
func (k *kit) addrBuffer(size uint64, usage uint32, host bool, align uint64) (ownBuffer, uint64, error) {
	info := vkg.BufferCreateInfo{SType: vkg.StructureTypeBufferCreateInfo, Size: vkg.DeviceSize(size + align), Usage: vkg.BufferUsageFlags(usage | usageDeviceAddress),
		SharingMode: vkg.SharingModeExclusive}
	info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
	var b vkg.Buffer
	r := vkg.CreateBuffer(k.vd, &info, nil, &b)
	info.Free()
	if err := vkCheck("vkCreateBuffer (acceleration-structure input)", r); err != nil {
		return ownBuffer{}, 0, err
	}
	ob := ownBuffer{buf: b, size: size + align}
	var req vkg.MemoryRequirements
	vkg.GetBufferMemoryRequirements(k.vd, b, &req)
	req.Deref()
	t, err := k.memoryType(req.MemoryTypeBits, host, false)
	if err == nil {
		flags := vkext.AllocateFlags()
		ai := vkg.MemoryAllocateInfo{SType: vkg.StructureTypeMemoryAllocateInfo, PNext: flags.Head(), AllocationSize: req.Size, MemoryTypeIndex: t}
		var m vkg.DeviceMemory
		r := vkg.AllocateMemory(k.vd, &ai, nil, &m)
		ai.Free()
		flags.Free()
		ob.mem, err = m, vkCheck("vkAllocateMemory (device address)", r)
	}
	if err == nil {
		err = vkCheck("vkBindBufferMemory", vkg.BindBufferMemory(k.vd, b, ob.mem, 0))
	}
	if err == nil && host {
		var ptr unsafe.Pointer
		err = vkCheck("vkMapMemory", vkg.MapMemory(k.vd, ob.mem, 0, vkg.DeviceSize(vkg.WholeSize), 0, &ptr))
		ob.mapped = ptr
	}
	k.buffers = append(k.buffers, ob)
	if err != nil {
		return ob, 0, err
	}
	addr := k.rt.fns.BufferAddress(unsafe.Pointer(b))
	return ob, (addr + align - 1) / align * align, nil
}

// rtOwn makes every build's own inputs: triangles, scratch, and for a
// top-level build that reads no bottom-level buffer its own bottom-level
// structure and instance.
func (k *kit) rtOwn(g *p.Graph, ws []work) error {
	rk := k.rt
	for i := range ws {
		w := &ws[i]
		if w.rt == nil {
			continue
		}
		for _, r := range w.rt.builds {
			ob := &ownBuild{}
			rk.own[ownKey{w.cmd, r}] = ob
			if len(w.rt.geom) > 0 {
				if err := k.geomOwn(w, r, ob); err != nil { // asinput.go
					return err
				}
				continue
			}
			seed := w.seed ^ hashString(g.Resources[r].Name)
			top := rk.top[r]
			n := rk.tris[r]
			if top {
				n = rtTriangles
			}
			var scratch uint64
			if !top || len(w.rt.inputs) == 0 {
				ob.ntris = n
				data := triangles(seed, n)
				_, addr, err := k.inputBuffer(data)
				if err != nil {
					return err
				}
				ob.verts = addr
				_, s, u := rk.fns.ASSizesUpdatable(false, n, !top && rk.updatable[r])
				scratch = s
				if _, ok := w.rt.updates[r]; ok {
					scratch = max(u, 1)
				}
			}
			if top {
				_, s, u := rk.fns.ASSizesUpdatable(true, rk.instances[r], rk.updatable[r])
				if _, ok := w.rt.updates[r]; ok {
					s = max(u, 1)
				}
				if len(w.rt.inputs) == 0 {
					// The command's own bottom-level structure.
					size, _ := rk.fns.ASSizes(false, n)
					var err error
					if ob.blas, ob.instances, err = k.ownBLAS(size, "own bottom level", true); err != nil {
						return err
					}
				}
				addr, err := k.ownScratch(w, scratch+rtScratch+s) // asscratch.go
				if err != nil {
					return err
				}
				ob.ownBase, ob.need = addr, scratch+rtScratch+s
				ob.scratch, ob.scratch2 = addr, addr+(scratch+rtScratch-1)/rtScratch*rtScratch
				if scratch == 0 {
					ob.scratch2 = addr
				}
				continue
			}
			addr, err := k.ownScratch(w, scratch)
			if err != nil {
				return err
			}
			ob.scratch = addr
			ob.ownBase, ob.need = addr, scratch
		}
	}
	return k.scratchLayout(g, ws) // asscratch.go
}

// inputBuffer is a replay-owned, host-visible build-input buffer holding
// data: the buffer and the data's device address (16-byte aligned).
func (k *kit) inputBuffer(data []byte) (ownBuffer, uint64, error) {
	b, addr, err := k.addrBuffer(uint64(len(data)), usageASInput, true, 16)
	if err != nil {
		return b, 0, err
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(b.mapped, addr-k.rt.fns.BufferAddress(unsafe.Pointer(b.buf)))), len(data)), data)
	return b, addr, nil
}

// ownBLAS creates a bottom-level structure of size bytes in replay-owned
// memory (what names it in errors) and, where instance is set, a buffer
// holding its one instance: the structure and the instance's address.
func (k *kit) ownBLAS(size uint64, what string, instance bool) (unsafe.Pointer, uint64, error) {
	rk := k.rt
	bb, _, err := k.addrBuffer(size, usageASStorage, false, rtScratch)
	if err != nil {
		return nil, 0, err
	}
	as, res := rk.fns.CreateAS(unsafe.Pointer(bb.buf), 0, size, false)
	if err := vkCheck("vkCreateAccelerationStructureKHR ("+what+")", vkg.Result(res)); err != nil {
		return nil, 0, err
	}
	if !instance {
		return as, 0, nil
	}
	_, addr, err := k.inputBuffer(instanceBytes([]uint64{rk.fns.ASAddress(as)}))
	return as, addr, err
}

// rtPipeline makes the ray-query dispatch's set layout, pipeline layout
// and pipeline.
func (k *kit) rtPipeline(ws []work) error {
	rk := k.rt
	_, rq, rtp := k.hooks.RayQueries()
	cs := vkg.ShaderStageFlags(vkg.ShaderStageComputeBit)
	if rtp {
		cs |= 0x100 // VK_SHADER_STAGE_RAYGEN_BIT_KHR
	}
	var gfxUsed [numRQGfx]bool
	for i := range ws {
		if rt := ws[i].rt; rt != nil {
			for j, l := range rt.gfx {
				if len(l) > 0 {
					gfxUsed[j] = true
					cs |= rqGfx[j].flags
				}
			}
		}
	}
	rk.stages = cs
	binds := []vkg.DescriptorSetLayoutBinding{
		{Binding: 0, DescriptorType: vkg.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: cs},
		{Binding: 1, DescriptorType: vkg.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: cs},
		{Binding: 2, DescriptorType: descriptorTypeAS, DescriptorCount: rtMaxSlots, StageFlags: cs},
	}
	info := vkg.DescriptorSetLayoutCreateInfo{SType: vkg.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: uint32(len(binds)), PBindings: binds}
	var sl vkg.DescriptorSetLayout
	r := vkg.CreateDescriptorSetLayout(k.vd, &info, nil, &sl)
	info.Free()
	rk.setLay = sl
	if err := vkCheck("vkCreateDescriptorSetLayout (ray query)", r); err != nil {
		return err
	}
	pl := vkg.PipelineLayoutCreateInfo{SType: vkg.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1, PSetLayouts: []vkg.DescriptorSetLayout{rk.setLay},
		PushConstantRangeCount: 1, PPushConstantRanges: []vkg.PushConstantRange{{StageFlags: cs, Size: 16}}}
	var lay vkg.PipelineLayout
	r = vkg.CreatePipelineLayout(k.vd, &pl, nil, &lay)
	pl.Free()
	rk.pipeLay = lay
	if err := vkCheck("vkCreatePipelineLayout (ray query)", r); err != nil {
		return err
	}
	if rtp {
		if err := k.rtTracingPipeline(); err != nil {
			return err
		}
		var err error
		if rk.rgLay, err = k.pipelineLayout(k.setsLay[stRayGen]); err != nil { // raygen.go
			return err
		}
	}
	for i, used := range gfxUsed {
		if used {
			var err error
			if rk.gfxPipe[i], err = k.rqGfxPipeline(i); err != nil {
				return err
			}
		}
	}
	if !rq {
		return nil
	}
	ci := []vkg.ComputePipelineCreateInfo{{SType: vkg.StructureTypeComputePipelineCreateInfo,
		Stage: vkg.PipelineShaderStageCreateInfo{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageComputeBit,
			Module: k.modules["rq.spv"], PName: "main\x00"}, Layout: rk.pipeLay}}
	pipes := make([]vkg.Pipeline, 1)
	r = vkg.CreateComputePipelines(k.vd, vkg.NullPipelineCache, 1, ci, nil, pipes)
	ci[0].Free()
	if err := vkCheck("vkCreateComputePipelines (ray query)", r); err != nil {
		return err
	}
	rk.pipe = pipes[0]
	return nil
}

// rtTracingPipeline makes the ray tracing pipeline (raygen, miss,
// closest hit) and its shader binding table, a replay-owned buffer.
func (k *kit) rtTracingPipeline() error {
	rk := k.rt
	pl, sbt, err := k.rtPipelineSBT(rk.pipeLay, k.modules["rgen.spv"], nil)
	rk.rtPipe, rk.sbt = pl, sbt
	return err
}

// rtPipelineSBT makes a ray tracing pipeline of raygen module rgen (its
// specialization constants consts), replay.rmiss and replay.rchit in
// layout lay, and its shader binding table (a replay-owned buffer): one
// region per group.
func (k *kit) rtPipelineSBT(lay vkg.PipelineLayout, rgen vkg.ShaderModule, consts []uint32) (vkg.Pipeline, [3]vkext.Region, error) {
	rk := k.rt
	var regions [3]vkext.Region
	pl, res := rk.fns.CreateRTPipeline(unsafe.Pointer(lay), unsafe.Pointer(rgen), unsafe.Pointer(k.modules["rmiss.spv"]), unsafe.Pointer(k.modules["rchit.spv"]), consts)
	if err := vkCheck("vkCreateRayTracingPipelinesKHR", vkg.Result(res)); err != nil {
		return vkg.NullPipeline, regions, err
	}
	size, align, base := k.hooks.RTProperties()
	handles, res := rk.fns.GroupHandles(pl, 3, 3*size)
	if err := vkCheck("vkGetRayTracingShaderGroupHandlesKHR", vkg.Result(res)); err != nil {
		return vkg.Pipeline(pl), regions, err
	}
	up := func(x, a uint64) uint64 { return (x + a - 1) / a * a }
	rec := up(uint64(size), uint64(max(align, 1)))
	region := up(rec, uint64(max(base, 1)))
	sb, addr, err := k.addrBuffer(3*region, 0x400 /* SHADER_BINDING_TABLE */, true, uint64(max(base, 1)))
	if err != nil {
		return vkg.Pipeline(pl), regions, err
	}
	off := addr - rk.fns.BufferAddress(unsafe.Pointer(sb.buf))
	for g := uint64(0); g < 3; g++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(sb.mapped, off+g*region)), size), handles[g*uint64(size):(g+1)*uint64(size)])
		regions[g] = vkext.Region{Address: addr + g*region, Stride: rec, Size: rec}
	}
	return vkg.Pipeline(pl), regions, nil
}

// closeRT destroys the kit's structures and pipeline (before its buffers).
func (k *kit) closeRT() {
	rk := k.rt
	if rk == nil {
		return
	}
	vkg.DeviceWaitIdle(k.vd)
	for _, ob := range rk.own {
		if ob.blas != nil {
			rk.fns.DestroyAS(ob.blas)
		}
	}
	pls := append([]vkg.Pipeline{rk.pipe, rk.rtPipe}, rk.gfxPipe[:]...)
	for _, rp := range rk.rgPipes {
		pls = append(pls, rp.pipe)
	}
	for _, pl := range pls {
		if pl != vkg.NullPipeline {
			vkg.DestroyPipeline(k.vd, pl, nil)
		}
	}
	for _, l := range []vkg.PipelineLayout{rk.pipeLay, rk.rgLay} {
		if l != vkg.NullPipelineLayout {
			vkg.DestroyPipelineLayout(k.vd, l, nil)
		}
	}
	if rk.setLay != vkg.NullDescriptorSetLayout {
		vkg.DestroyDescriptorSetLayout(k.vd, rk.setLay, nil)
	}
	k.rt = nil
}

// rtMode is one bound plan's acceleration structures: one per buffer,
// created where the plan put the buffer, the instance data of top-level
// builds over graph bottom-level structures (their addresses are this
// mode's), and the ray-query descriptor sets.
type rtMode struct {
	as        map[p.ResourceID]unsafe.Pointer
	instances map[ownKey]uint64
	geom      map[p.ResourceID]uint64 // build inputs' device addresses (asinput.go)
	bufs      []ownBuffer
	pool      vkg.DescriptorPool
	sets      map[ownKey]vkg.DescriptorSet // by command and trace part (ownKey.res: the part's stage)
}

func (m *mode) prepareRT() error {
	k := m.r.k
	rk := k.rt
	if rk == nil {
		return nil
	}
	rm := &rtMode{as: map[p.ResourceID]unsafe.Pointer{}, instances: map[ownKey]uint64{}, sets: map[ownKey]vkg.DescriptorSet{}}
	m.rt = rm
	rm.geom = m.geomAddresses()
	for r, top := range rk.top {
		buf, _ := m.handle(r)
		as, res := rk.fns.CreateAS(unsafe.Pointer(buf), 0, rk.size[r], top)
		if err := vkCheck("vkCreateAccelerationStructureKHR "+m.r.g.Resources[r].Name, vkg.Result(res)); err != nil {
			return err
		}
		rm.as[r] = as
	}
	ntrace := 0
	for i := range m.r.works {
		w := &m.r.works[i]
		if w.rt == nil {
			continue
		}
		ntrace += len(w.rt.paths())
		if len(w.rt.inputs) == 0 {
			continue
		}
		var addrs []uint64
		for _, in := range w.rt.inputs {
			addrs = append(addrs, rk.fns.ASAddress(rm.as[in]))
		}
		for _, r := range w.rt.builds {
			inst := instanceBytes(addrs)
			if _, ok := w.rt.updates[r]; ok {
				// An update moves the instances (by up to half a tile
				// along y, from the command's seed), so the trace sees it.
				inst = instanceBytesAt(addrs, 0.1+0.4*float32(hash32(w.seed^hashString(m.r.g.Resources[r].Name))&0xffff)/65536)
			}
			if ob := rk.own[ownKey{w.cmd, r}]; ob.blas != nil {
				// The bottom-level structure over the build's inputs, last.
				inst = instanceBytes(append(addrs[:len(addrs):len(addrs)], rk.fns.ASAddress(ob.blas)))
			}
			ib, addr, err := k.inputBuffer(inst)
			if err != nil {
				return err
			}
			k.buffers = k.buffers[:len(k.buffers)-1] // the mode's, freed with it
			rm.bufs = append(rm.bufs, ib)
			rm.instances[ownKey{w.cmd, r}] = addr
		}
	}
	if ntrace == 0 {
		return nil
	}
	sizes := []vkg.DescriptorPoolSize{{Type: vkg.DescriptorTypeStorageBuffer, DescriptorCount: uint32(2 * ntrace)}, {Type: descriptorTypeAS, DescriptorCount: uint32(rtMaxSlots * ntrace)}}
	pi := vkg.DescriptorPoolCreateInfo{SType: vkg.StructureTypeDescriptorPoolCreateInfo, MaxSets: uint32(ntrace), PoolSizeCount: uint32(len(sizes)), PPoolSizes: sizes}
	var pool vkg.DescriptorPool
	r := vkg.CreateDescriptorPool(k.vd, &pi, nil, &pool)
	pi.Free()
	rm.pool = pool
	if err := vkCheck("vkCreateDescriptorPool (ray query)", r); err != nil {
		return err
	}
	align := max(uint64(k.limits.MinStorageBufferOffsetAlignment), 16)
	stride := (uint64(paramsBytes) + align - 1) / align * align
	for i := range m.r.works {
		w := &m.r.works[i]
		if w.rt == nil {
			continue
		}
		for _, tp := range w.rt.paths() {
			ai := vkg.DescriptorSetAllocateInfo{SType: vkg.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: rm.pool, DescriptorSetCount: 1,
				PSetLayouts: []vkg.DescriptorSetLayout{rk.setLay}}
			var set vkg.DescriptorSet
			r := vkg.AllocateDescriptorSets(k.vd, &ai, &set)
			ai.Free()
			if err := vkCheck("vkAllocateDescriptorSets (ray query)", r); err != nil {
				return err
			}
			pt := w.parts[tp.st]
			var as []unsafe.Pointer
			for s := 0; s < rtMaxSlots; s++ {
				tr := tp.list
				as = append(as, rm.as[tr[min(s, len(tr)-1)]]) // unused slots repeat a traced structure
			}
			chain := vkext.ASWrite(as)
			writes := []vkg.WriteDescriptorSet{
				{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 0, DescriptorCount: 1, DescriptorType: vkg.DescriptorTypeStorageBuffer,
					PBufferInfo: []vkg.DescriptorBufferInfo{{Buffer: m.r.params.buf, Offset: vkg.DeviceSize(uint64(pt.index) * stride), Range: vkg.DeviceSize(paramsBytes)}}},
				{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: 1, DescriptorCount: 1, DescriptorType: vkg.DescriptorTypeStorageBuffer,
					PBufferInfo: []vkg.DescriptorBufferInfo{{Buffer: m.r.lanes.buf, Offset: vkg.DeviceSize(uint64(pt.index) * laneBytes), Range: laneBytes}}},
				{SType: vkg.StructureTypeWriteDescriptorSet, PNext: chain.Head(), DstSet: set, DstBinding: 2, DescriptorCount: rtMaxSlots, DescriptorType: descriptorTypeAS},
			}
			vkg.UpdateDescriptorSets(k.vd, uint32(len(writes)), writes, 0, nil)
			for i := range writes {
				writes[i].Free()
			}
			chain.Free()
			rm.sets[ownKey{w.cmd, p.ResourceID(tp.st)}] = set
		}
	}
	return nil
}

func (m *mode) closeRT() {
	rm := m.rt
	if rm == nil {
		return
	}
	k := m.r.k
	vkg.DeviceWaitIdle(k.vd)
	for _, as := range rm.as {
		k.rt.fns.DestroyAS(as)
	}
	if rm.pool != vkg.NullDescriptorPool {
		vkg.DestroyDescriptorPool(k.vd, rm.pool, nil)
	}
	for _, b := range rm.bufs {
		vkg.DestroyBuffer(k.vd, b.buf, nil)
		vkg.FreeMemory(k.vd, b.mem, nil)
	}
	m.rt = nil
}

// recordRT records a command's builds, copies and ray-query dispatch.
func (m *mode) recordRT(cb vkg.CommandBuffer, w *work) {
	if w.rt == nil || m.rt == nil {
		return
	}
	k := m.r.k
	rk, rm := k.rt, m.rt
	c := unsafe.Pointer(cb)
	for _, r := range w.rt.builds {
		ob := rk.own[ownKey{w.cmd, r}]
		if len(w.rt.scratch) > 0 {
			if ob = m.graphScratch(w, ob); ob == nil { // asscratch.go
				return
			}
		}
		switch {
		case len(w.rt.geom) > 0:
			m.recordGeomBuild(cb, w, r, ob) // asinput.go
		case !rk.top[r] && len(w.rt.ranges) > 0:
			rk.fns.CmdBuildASIndirect(c, rm.as[r], ob.verts, ob.ntris, ob.scratch, m.rangeAddress(w)) // asindirect.go
		case !rk.top[r]:
			var src unsafe.Pointer // an update's source (rtDevice)
			if s, ok := w.rt.updates[r]; ok {
				src = rm.as[s]
			}
			rk.fns.CmdUpdateAS(c, src, rm.as[r], false, ob.verts, ob.ntris, ob.scratch, rk.updatable[r])
		case len(w.rt.inputs) == 0:
			rk.fns.CmdBuildAS(c, ob.blas, false, ob.verts, ob.ntris, ob.scratch)
			// The own bottom-level structure, written, then read by the
			// top-level build.
			k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(vk.StageAccelerationStructureBuild), SrcAccess: uint64(vk.AccessAccelerationStructureWrite),
				DstStages: uint64(vk.StageAccelerationStructureBuild), DstAccess: uint64(vk.AccessAccelerationStructureRead)}}})
			rk.fns.CmdUpdateAS(c, nil, rm.as[r], true, ob.instances, 1, ob.scratch2, rk.updatable[r])
		default:
			var src unsafe.Pointer // an in-place update of a top level (rtDevice)
			if _, ok := w.rt.updates[r]; ok {
				src = rm.as[r]
			}
			rk.fns.CmdUpdateAS(c, src, rm.as[r], true, rm.instances[ownKey{w.cmd, r}], uint32(len(w.rt.inputs)), ob.scratch, rk.updatable[r])
		}
	}
	for j, s := range w.rt.copySrc {
		rk.fns.CmdCopyAS(c, rm.as[s], rm.as[w.rt.copyDst[j]])
	}
	for _, tp := range w.rt.paths() {
		var rays [rtMaxSlots]uint32
		n := uint32(0)
		for s, r := range tp.list {
			rays[s] = 256 * rk.instances[r]
			n = max(n, rays[s])
		}
		bp, pl := vkg.PipelineBindPointCompute, rk.pipe
		if tp.rtp {
			bp, pl = vkg.PipelineBindPointRayTracing, rk.rtPipe
		}
		if isRQGfx(tp.st) {
			bp, pl = vkg.PipelineBindPointGraphics, rk.gfxPipe[tp.st-stRQVertex]
		}
		vkg.CmdBindPipeline(cb, bp, pl)
		vkg.CmdBindDescriptorSets(cb, bp, rk.pipeLay, 0, 1, []vkg.DescriptorSet{rm.sets[ownKey{w.cmd, p.ResourceID(tp.st)}]}, 0, nil)
		vkg.CmdPushConstants(cb, rk.pipeLay, rk.stages, 0, 16, unsafe.Pointer(&rays[0]))
		if tp.rtp {
			rk.fns.CmdTraceRays(c, rk.sbt[0], rk.sbt[1], rk.sbt[2], n)
			continue
		}
		if isRQGfx(tp.st) {
			m.recordRQGfx(cb, int(tp.st-stRQVertex)) // rqgfx.go
			continue
		}
		vkg.CmdDispatch(cb, (n+63)/64, 1, 1)
	}
}

func rayExts(exts map[string]bool) string {
	out := ""
	for _, e := range []string{"VK_KHR_acceleration_structure", "VK_KHR_deferred_host_operations", "VK_KHR_ray_query", "VK_KHR_ray_tracing_pipeline"} {
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s %v", e, exts[e])
	}
	return out
}
