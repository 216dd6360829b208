package replay

import (
	"fmt"
	"unsafe"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Indirect acceleration-structure builds (issue 21, session 13). A
// buffer a command reads in ACCELERATION_STRUCTURE_BUILD with
// INDIRECT_COMMAND_READ (Vulkan's access for the build ranges of
// vkCmdBuildAccelerationStructuresIndirectKHR) holds the build range of
// the command's builds: each of its bottom-level builds is recorded with
// vkCmdBuildAccelerationStructuresIndirectKHR, its one geometry's
// VkAccelerationStructureBuildRangeInfoKHR read at the buffer's device
// address where the plan put it, its ppMaxPrimitiveCounts the 16
// triangles of the replay's own vertex data (rtTriangles; the structure
// is sized for them). So the primitive count the buffer holds decides how
// many of the triangles are in the structure, and the traces of a
// top-level structure over it see that: the digest depends on the word.
//
// The range must be valid (Vulkan: primitiveCount at most the maximum
// the build was sized for, offsets multiples of the vertex component
// size; a range past them is undefined behaviour, not a digest), and the
// device reads it as it is: no clamp could happen inside the declared
// access. So the buffer's writers write valid ranges: a shader storage
// write of a range buffer gets fASRange (common.glsl F_ASRANGE: words 0..3
// are 1 + (hash & 15), 0, 0, 0; the rest hashes), and a range buffer
// another kind of command writes (a copy, a fill, the host), or one that
// is imported (its first contents are the replay's upload), is refused:
// its words would be no range. A buffer that takes the range buffer's
// memory in a plan and writes it before the build (a plan bug) makes the
// build read hashed words: undefined behaviour, so the clobber control
// (TestASIndirectClobber) puts another range buffer over it, whose words
// are a valid range with another count.
//
// Vulkan's rules: INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usage, a
// range of 16 bytes, the accelerationStructureIndirectBuild feature
// (queried; refused naming it where the device lacks it, as lavapipe
// 25.0.7 and NVIDIA drivers do). Not built: indirect top-level builds and
// indirect builds over graph vertex buffers (asinput.go) (refused saying
// so); their ranges' counts would have to stay within instance counts and
// input sizes the writer does not know.

// isBuildRange says whether access a (in stages st) reads build ranges.
func isBuildRange(a *p.Access, st vk.Stage) bool {
	return st&vk.StageAccelerationStructureBuild != 0 && a.Access&vk.AccessIndirectCommandRead != 0
}

// addBuildRange takes a build range access (isBuildRange).
func addBuildRange(g *p.Graph, w *work, a *p.Access, left *vk.AccessFlags, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindBuffer {
		return bad("an indirect build's range is a buffer (Vulkan: vkCmdBuildAccelerationStructuresIndirectKHR takes device addresses)")
	}
	const need = vk.BufferUsageIndirectBuffer | vk.BufferUsageShaderDeviceAddress
	if r.Buffer.Usage&need != need {
		return bad("an indirect build's range buffer needs INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usage (Vulkan); the buffer has %s", r.Buffer.Usage)
	}
	if r.Buffer.Size < 16 {
		return bad("an indirect build's range is a VkAccelerationStructureBuildRangeInfoKHR of 16 bytes; the buffer has %d", r.Buffer.Size)
	}
	if a.Access&writeFlags != 0 {
		return bad("a command that writes the buffer its build ranges are read from (no barrier can order the two inside it)")
	}
	if w.rt == nil {
		w.rt = &rtWork{}
	}
	if len(w.rt.ranges) > 0 {
		return bad("a second build range buffer in one command (the replay's indirect builds of a command read one range; %s is it)", g.Resources[w.rt.ranges[0]].Name)
	}
	w.rt.ranges = append(w.rt.ranges, a.Resource)
	*left &^= vk.AccessIndirectCommandRead
	return nil
}

// rangeRules refuses what no indirect build could read as a valid range
// (see the top of this file), and marks the shader storage writes of
// every range buffer fASRange (New, after the analysis).
func rangeRules(g *p.Graph, ws []work) error {
	ranges := map[p.ResourceID]bool{}
	for i := range ws {
		w := &ws[i]
		if w.rt == nil || len(w.rt.ranges) == 0 {
			continue
		}
		r := w.rt.ranges[0]
		cmd := &g.Commands[w.cmd]
		refuse := func(format string, args ...any) error {
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[r].Name, Access: describe(g, findAccess(cmd, r)), Reason: fmt.Sprintf(format, args...)}
		}
		switch {
		case len(w.rt.builds) == 0:
			return refuse("a build range read by a command that builds no acceleration structure (ACCELERATION_STRUCTURE_WRITE of a structure buffer)")
		case len(w.rt.geom) > 0:
			return refuse("an indirect build over graph vertex buffers: not built (the replay's indirect builds are bottom-level builds of its own 16 triangles; docs/replay.md, what is left)")
		case g.Resources[r].Imported:
			return refuse("an imported build range buffer: its contents before the frame's writers are the replay's upload, which is no valid VkAccelerationStructureBuildRangeInfoKHR")
		}
		ranges[r] = true
	}
	if len(ranges) == 0 {
		return nil
	}
	for i := range ws {
		w := &ws[i]
		cmd := &g.Commands[w.cmd]
		for j := range cmd.Accesses {
			a := &cmd.Accesses[j]
			if !ranges[a.Resource] || a.Access&(writeFlags|vk.AccessMemoryWrite) == 0 {
				continue
			}
			if other := a.Access & (writeFlags | vk.AccessMemoryWrite) &^ (vk.AccessShaderStorageWrite | vk.AccessShaderWrite); other != 0 {
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[a.Resource].Name, Access: describe(g, a),
					Reason: fmt.Sprintf("a write (%s) of a buffer an indirect build reads its range from: the replay writes valid VkAccelerationStructureBuildRangeInfoKHRs from shader storage writes only (other writers' words are no range, and the device reads the range as it is)", other)}
			}
		}
		for _, pt := range w.allParts() {
			if pt == nil {
				continue
			}
			for s := range pt.slots {
				if sl := &pt.slots[s]; sl.cat == catSBW && ranges[sl.res] {
					sl.flags |= fASRange
				}
			}
		}
	}
	return nil
}

// rangeDevice refuses w's indirect builds where the device cannot run
// them (as queried) or the replay does not build them (rtDevice, once
// levels and sizes are known).
func (k *kit) rangeDevice(g *p.Graph, w *work, refuse func(*work, p.ResourceID, string, ...any) error) error {
	if w.rt == nil || len(w.rt.ranges) == 0 {
		return nil
	}
	r := w.rt.ranges[0]
	name := k.dev.Info().Name
	has, enabled := k.hooks.ASIndirect()
	switch {
	case !has:
		return refuse(w, r, "%s lacks accelerationStructureIndirectBuild (VkPhysicalDeviceAccelerationStructureFeaturesKHR, queried): the device cannot build acceleration structures indirectly (vkCmdBuildAccelerationStructuresIndirectKHR)", name)
	case !enabled:
		return refuse(w, r, "%s has accelerationStructureIndirectBuild, but the device was opened without ACCELERATION_STRUCTURE_BUILD in vulkan.Config.ReplayStages (replay.Stages(graph) gives it), so it is not enabled", name)
	}
	for _, b := range w.rt.builds {
		if k.rt.top[b] {
			return refuse(w, r, "an indirect top-level build (of %s): not built (the replay's indirect builds are bottom-level builds of its own 16 triangles; docs/replay.md, what is left)", g.Resources[b].Name)
		}
		if n := k.rt.tris[b]; n < rtTriangles {
			size, _ := k.rt.fns.ASSizes(false, rtTriangles)
			return refuse(w, b, "an indirect build is sized for the %d triangles its range may count (1 to %d): a bottom-level structure of them needs %d bytes on %s; the buffer has %d", rtTriangles, rtTriangles, size, name, g.Resources[b].Buffer.Size)
		}
	}
	return nil
}

// rangeAddress is the device address of w's build range where this
// mode's plan put it (recordRT).
func (m *mode) rangeAddress(w *work) uint64 {
	buf, _ := m.handle(w.rt.ranges[0])
	return m.r.k.rt.fns.BufferAddress(unsafe.Pointer(buf))
}
