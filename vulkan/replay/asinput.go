package replay

import (
	"unsafe"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Acceleration-structure builds whose inputs are graph buffers (issue 21).
// A buffer the frame reads in ACCELERATION_STRUCTURE_BUILD with
// SHADER_READ (Vulkan's access for build inputs), or with
// ACCELERATION_STRUCTURE_READ when it is no acceleration structure (it
// lacks ACCELERATION_STRUCTURE_STORAGE usage; with _WRITE too it would be
// scratch: refused, the builds' scratch is the replay's), is vertex data of the
// command's builds: R16G16B16A16_SNORM triangles (a format every device
// with acceleration structures builds from; its vertices are finite and
// in [-1,1]^3 whatever the bits), 24 bytes each, not indexed, no
// transform, one geometry per buffer, at the buffer's device address
// where the plan put it. So whatever words the buffer's writers leave
// make triangles, most of them large enough that the trace's rays over
// the unit square hit one: a stale or clobbered input moves what the
// rays hit, and the trace's digest sees it (TestASInputClobber). Index,
// transform and instance data are never graph buffers' (hashed words as
// indices or instance addresses would be invalid, not a digest): the
// replay reads every build input as vertices.
//
//   - A bottom-level build (a buffer some build reads as a structure)
//     builds from the inputs alone.
//   - A top-level build first builds a bottom-level structure of its own
//     (replay-owned memory) from the inputs, behind a build-to-build
//     barrier, and instances it after the frame's bottom-level structures
//     it reads (one more instance tile).
//
// Each geometry takes the first asGeomTris triangles of its buffer (fewer
// where the buffer is smaller, or where the bottom-level buffer cannot
// hold the structure: halved until it does). Vulkan's rules: the buffer
// has SHADER_DEVICE_ADDRESS and ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY
// usage, and its memory DEVICE_ADDRESS (vulkan/address.go allocates it).

const (
	asGeomTris    = 256 // per geometry, at most
	asGeomVertex  = 8   // bytes: R16G16B16A16_SNORM
	asGeomTriSize = 3 * asGeomVertex
)

// isBuildInput says whether access a (in stages st) reads vertex data of
// a build.
func isBuildInput(r *p.Resource, a *p.Access, st vk.Stage) bool {
	if st&vk.StageAccelerationStructureBuild == 0 {
		return false
	}
	if a.Access&vk.AccessShaderRead != 0 {
		return true
	}
	asFlags := vk.AccessAccelerationStructureRead | vk.AccessAccelerationStructureWrite
	return a.Access&asFlags != 0 && r.Kind == p.KindBuffer && r.Buffer.Usage&vk.BufferUsageAccelerationStructureStorage == 0
}

// addBuildInput takes a build input access (isBuildInput).
func addBuildInput(g *p.Graph, w *work, a *p.Access, left *vk.AccessFlags, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindBuffer {
		return bad("an acceleration-structure build input is a buffer (Vulkan: vertex, index, transform and instance data are device addresses)")
	}
	if r.Buffer.Usage&vk.BufferUsageAccelerationStructureStorage != 0 {
		return bad("a build reads an acceleration structure with ACCELERATION_STRUCTURE_READ (SHADER_READ in the build stage is for vertex, index, transform and instance data, which do not live in structure storage)")
	}
	const need = vk.BufferUsageShaderDeviceAddress | vk.BufferUsageAccelerationStructureBuildInputReadOnly
	if r.Buffer.Usage&need != need {
		return bad("an acceleration-structure build input needs SHADER_DEVICE_ADDRESS and ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY usage (Vulkan); the buffer has %s", r.Buffer.Usage)
	}
	if a.Access&(writeFlags|vk.AccessAccelerationStructureWrite) != 0 {
		return bad("a command that writes a buffer its build reads (no barrier can order the two inside it)")
	}
	if r.Buffer.Size < asGeomTriSize {
		return bad("a build input of %d bytes holds no triangle (the replay reads build inputs as R16G16B16A16_SNORM triangles, %d bytes each)", r.Buffer.Size, asGeomTriSize)
	}
	if w.rt == nil {
		w.rt = &rtWork{}
	}
	w.rt.geom = append(w.rt.geom, a.Resource)
	*left &^= a.Access & (vk.AccessShaderRead | vk.AccessAccelerationStructureRead)
	return nil
}

// geomInstance is the one more instance a top-level build over inputs has.
func (rt *rtWork) geomInstance() int {
	if len(rt.geom) > 0 {
		return 1
	}
	return 0
}

// geomCounts are a command's geometries' triangles: each buffer's, at
// most asGeomTris, then all of them at most limit.
func geomCounts(g *p.Graph, rt *rtWork, limit uint32) []uint32 {
	var out []uint32
	for _, r := range rt.geom {
		out = append(out, min(uint32(g.Resources[r].Buffer.Size/asGeomTriSize), asGeomTris, limit))
	}
	return out
}

// geomCheck refuses what the replay's builds over inputs cannot take
// (rtDevice, once levels are known) and decides every such build's
// triangles; it returns, per bottom-level buffer, the size its builds
// over inputs need (rtDevice sizes the structure to the largest).
func (k *kit) geomCheck(g *p.Graph, ws []work, refuse func(*work, p.ResourceID, string, ...any) error) (map[p.ResourceID]uint64, error) {
	rk := k.rt
	rk.geomTris = map[ownKey][]uint32{}
	need := map[p.ResourceID]uint64{}
	for i := range ws {
		w := &ws[i]
		rt := w.rt
		if rt == nil || len(rt.geom) == 0 {
			continue
		}
		if len(rt.builds) == 0 {
			return nil, refuse(w, rt.geom[0], "a build input read by a command that builds no acceleration structure (ACCELERATION_STRUCTURE_BUILD reads inputs for a build: the command has no ACCELERATION_STRUCTURE_WRITE)")
		}
		if len(rt.geom) > vkext.GeomMax {
			return nil, refuse(w, rt.geom[vkext.GeomMax], "more than %d build inputs read by one command (the replay's builds take %d geometries)", vkext.GeomMax, vkext.GeomMax)
		}
		for _, r := range rt.builds {
			limit := uint32(asGeomTris)
			counts := geomCounts(g, rt, limit)
			if !rk.top[r] {
				size := g.Resources[r].Buffer.Size
				for {
					s, _ := rk.fns.GeomASSizes(counts)
					if s <= size {
						need[r] = max(need[r], s)
						break
					}
					if limit == 1 {
						return nil, refuse(w, r, "a bottom-level structure of one triangle per build input (%d inputs) needs %d bytes on %s; the buffer has %d", len(counts), s, k.dev.Info().Name, size)
					}
					limit /= 2
					counts = geomCounts(g, rt, limit)
				}
			}
			rk.geomTris[ownKey{w.cmd, r}] = counts
		}
	}
	return need, nil
}

// geomOwn makes what a build over inputs uses of the replay's own
// (rtOwn): scratch, and for a top-level build its bottom-level structure,
// that structure's scratch and (reading no frame bottom-level structure)
// its one instance.
func (k *kit) geomOwn(w *work, r p.ResourceID, ob *ownBuild) error {
	rk := k.rt
	size, scratch := rk.fns.GeomASSizes(rk.geomTris[ownKey{w.cmd, r}])
	if !rk.top[r] {
		addr, err := k.ownScratch(w, scratch) // asscratch.go
		ob.scratch = addr
		ob.ownBase, ob.need = addr, scratch
		return err
	}
	var err error
	if ob.blas, ob.instances, err = k.ownBLAS(size, "bottom level over build inputs", len(w.rt.inputs) == 0); err != nil {
		return err
	}
	_, s := rk.fns.ASSizes(true, rk.instances[r])
	addr, err := k.ownScratch(w, scratch+rtScratch+s)
	ob.scratch, ob.scratch2 = addr, addr+(scratch+rtScratch-1)/rtScratch*rtScratch
	ob.ownBase, ob.need = addr, scratch+rtScratch+s
	return err
}

// geomAddresses are the mode's device addresses of every build input
// (prepareRT: where this mode's plan put them).
func (m *mode) geomAddresses() map[p.ResourceID]uint64 {
	out := map[p.ResourceID]uint64{}
	for i := range m.r.works {
		if rt := m.r.works[i].rt; rt != nil {
			for _, r := range rt.geom {
				buf, _ := m.handle(r)
				out[r] = m.r.k.rt.fns.BufferAddress(unsafe.Pointer(buf))
			}
		}
	}
	return out
}

// recordGeomBuild records one build over inputs (recordRT).
func (m *mode) recordGeomBuild(cb vkg.CommandBuffer, w *work, r p.ResourceID, ob *ownBuild) {
	k := m.r.k
	rk, rm := k.rt, m.rt
	c := unsafe.Pointer(cb)
	var addrs []uint64
	for _, in := range w.rt.geom {
		addrs = append(addrs, rm.geom[in])
	}
	key := ownKey{w.cmd, r}
	if !rk.top[r] {
		rk.fns.CmdBuildGeomAS(c, rm.as[r], addrs, rk.geomTris[key], ob.scratch)
		return
	}
	rk.fns.CmdBuildGeomAS(c, ob.blas, addrs, rk.geomTris[key], ob.scratch)
	k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(vk.StageAccelerationStructureBuild), SrcAccess: uint64(vk.AccessAccelerationStructureWrite),
		DstStages: uint64(vk.StageAccelerationStructureBuild), DstAccess: uint64(vk.AccessAccelerationStructureRead)}}})
	inst := ob.instances
	if len(w.rt.inputs) > 0 {
		inst = rm.instances[key]
	}
	rk.fns.CmdBuildAS(c, rm.as[r], true, inst, uint32(len(w.rt.inputs)+1), ob.scratch2)
}
