package replay

import (
	"fmt"
	"unsafe"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Build scratch in a graph buffer (issue 21, session 12). A buffer
// without ACCELERATION_STRUCTURE_STORAGE usage that a command reads and
// writes with ACCELERATION_STRUCTURE_READ|ACCELERATION_STRUCTURE_WRITE in
// ACCELERATION_STRUCTURE_BUILD (Vulkan's scratch accesses) is the scratch
// of the command's builds: an engine's transient scratch, which the plan
// may alias like any transient. The replay lays the command's builds out
// in it one after another, each where its own scratch would have been
// (the sizes vkGetAccelerationStructureBuildSizesKHR gave, aligned to
// rtScratch), from the buffer's first aligned device address where the
// plan put it. A buffer smaller than that layout is refused naming both
// sizes (the sizes are the replay's builds'), as is a scratch buffer
// without STORAGE_BUFFER and SHADER_DEVICE_ADDRESS usage (Vulkan). Its
// contents are the implementation's: no digest sees them, and a read of
// the buffer by another command, an import or host visibility is refused
// (scratchRules). Writes by other commands are fine: the build overwrites
// them. A clobber of the scratch during a build corrupts the structure,
// which the trace's digest sees; the plan's alias barriers after the
// build are checked by synchronization validation (TestASScratch*).

// isBuildScratch says whether access a (in stages st) is a build's use
// of a graph buffer as its scratch.
func isBuildScratch(r *p.Resource, a *p.Access, st vk.Stage) bool {
	return st&vk.StageAccelerationStructureBuild != 0 && a.Access&vk.AccessAccelerationStructureWrite != 0 &&
		r.Kind == p.KindBuffer && r.Buffer.Usage&vk.BufferUsageAccelerationStructureStorage == 0
}

// addBuildScratch takes a build scratch access (isBuildScratch).
func addBuildScratch(g *p.Graph, w *work, a *p.Access, left *vk.AccessFlags, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	const need = vk.BufferUsageStorageBuffer | vk.BufferUsageShaderDeviceAddress
	if r.Buffer.Usage&need != need {
		return bad("a build's scratch buffer needs STORAGE_BUFFER and SHADER_DEVICE_ADDRESS usage (Vulkan: scratchData is a device address of such a buffer); the buffer has %s", r.Buffer.Usage)
	}
	const rw = vk.AccessAccelerationStructureRead | vk.AccessAccelerationStructureWrite
	if a.Access&rw != rw {
		return bad("a build's scratch is read and written: Vulkan synchronizes scratch accesses as ACCELERATION_STRUCTURE_READ|ACCELERATION_STRUCTURE_WRITE in ACCELERATION_STRUCTURE_BUILD, so declare both")
	}
	if other := a.Access &^ rw; other != 0 {
		return bad("a build's scratch buffer used with %s too in the same command (a build's scratch is the build's alone)", other)
	}
	if w.rt == nil {
		w.rt = &rtWork{}
	}
	if len(w.rt.scratch) > 0 {
		return bad("a second scratch buffer in one command: the replay lays every build of the command out in one")
	}
	w.rt.scratch = append(w.rt.scratch, a.Resource)
	*left &^= rw
	return nil
}

// scratchRules refuses what a frame does with a build scratch buffer that
// no replay could compare (see the top of this file), and a scratch
// access in a command that builds nothing.
func scratchRules(g *p.Graph, ws []work) error {
	scratch := map[p.ResourceID]bool{}
	for i := range ws {
		w := &ws[i]
		if w.rt == nil || len(w.rt.scratch) == 0 {
			continue
		}
		s := w.rt.scratch[0]
		cmd := &g.Commands[w.cmd]
		if len(w.rt.builds) == 0 {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[s].Name, Access: describe(g, findAccess(cmd, s)),
				Reason: "a build scratch access in a command that builds no acceleration structure (ACCELERATION_STRUCTURE_WRITE of a structure buffer)"}
		}
		if r := &g.Resources[s]; r.Imported || r.Memory.HostVisible() {
			return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, findAccess(cmd, s)),
				Reason: "an imported or host-visible build scratch buffer: the replay compares such a buffer's final bytes, and a scratch buffer's are the implementation's"}
		}
		scratch[s] = true
	}
	for i := range ws {
		w := &ws[i]
		cmd := &g.Commands[w.cmd]
		for j := range cmd.Accesses {
			a := &cmd.Accesses[j]
			if !scratch[a.Resource] || w.rt != nil && len(w.rt.scratch) > 0 && w.rt.scratch[0] == a.Resource {
				continue
			}
			if a.Access&readFlags != 0 || a.Access&vk.AccessMemoryRead != 0 {
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[a.Resource].Name, Access: describe(g, a),
					Reason: "a read of a build's scratch buffer outside the build: its contents are the implementation's (Vulkan), so no run's could be compared"}
			}
		}
	}
	return nil
}

// ownScratch is the scratch of size bytes of one of w's builds: a buffer
// of the replay's own, its aligned device address returned; or, where w's
// builds use a graph scratch buffer, none (address 0: graphScratch moves
// the build's scratch addresses into the graph buffer when recording).
func (k *kit) ownScratch(w *work, size uint64) (uint64, error) {
	if len(w.rt.scratch) > 0 {
		return 0, nil
	}
	_, addr, err := k.addrBuffer(size, 0x20 /* STORAGE_BUFFER */, false, rtScratch)
	return addr, err
}

// scratchLayout gives each build of a command with a graph scratch buffer
// its offset in that buffer, and refuses a buffer too small for the
// command's builds (rtOwn, after every build's own scratch is sized).
func (k *kit) scratchLayout(g *p.Graph, ws []work) error {
	for i := range ws {
		w := &ws[i]
		if w.rt == nil || len(w.rt.scratch) == 0 {
			continue
		}
		var off uint64
		for _, r := range w.rt.builds {
			ob := k.rt.own[ownKey{w.cmd, r}]
			ob.graphOff = off
			off += (ob.need + rtScratch - 1) / rtScratch * rtScratch
		}
		s := w.rt.scratch[0]
		if have, want := g.Resources[s].Buffer.Size, off+rtScratch-1; have < want {
			cmd := &g.Commands[w.cmd]
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[s].Name, Access: describe(g, findAccess(cmd, s)),
				Reason: fmt.Sprintf("the build scratch buffer has %d bytes; the command's %d builds need %d on %s (vkGetAccelerationStructureBuildSizesKHR for the replay's builds, queried, each aligned to %d, plus the alignment of the buffer's address)",
					have, len(w.rt.builds), want, k.dev.Info().Name, rtScratch)}
		}
	}
	return nil
}

// graphScratch is ob with its scratch addresses moved into the command's
// graph scratch buffer, where this mode's plan put it; nil (m.recErr set)
// when the buffer cannot hold it there.
func (m *mode) graphScratch(w *work, ob *ownBuild) *ownBuild {
	k := m.r.k
	s := w.rt.scratch[0]
	buf, _ := m.handle(s)
	addr := k.rt.fns.BufferAddress(unsafe.Pointer(buf))
	base := (addr+rtScratch-1)/rtScratch*rtScratch + ob.graphOff
	if end := addr + m.r.g.Resources[s].Buffer.Size; base+ob.need > end {
		cmd := &m.r.g.Commands[w.cmd]
		m.recErr = &UnsupportedError{Command: cmd.Name, Resource: m.r.g.Resources[s].Name, Access: describe(m.r.g, findAccess(cmd, s)),
			Reason: fmt.Sprintf("the build scratch buffer at device address %#x cannot hold the build's %d bytes at offset %d", addr, ob.need, base-addr)}
		return nil
	}
	moved := *ob
	moved.scratch = ob.scratch - ob.ownBase + base
	moved.scratch2 = ob.scratch2 - ob.ownBase + base
	return &moved
}
