package replay

import (
	"encoding/binary"
	"fmt"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// HOST-stage uses: HOST_WRITE and HOST_READ of a host-visible resource
// (Memory cpu_to_gpu or gpu_to_cpu: its own mapped, host-coherent
// allocation). The replay performs them on the mapping
// (vulkan.Resources.Map), where the library's contract puts them: a host
// write before the frame's submission (its command must come before every
// GPU use of the resource in the order), a host read after the frame's
// fence (every GPU write of the resource must come before it). The plan's
// barriers from and to the HOST stage are recorded as they are. A host
// write fills the mapping with words derived from the command and the
// word index; what a host read sees is compared as the resource's final
// bytes (every host-visible resource's are).

// addHostAccess takes a's HOST_READ and HOST_WRITE.
func addHostAccess(g *p.Graph, w *work, a *p.Access, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if !r.Memory.HostVisible() {
		return bad("a HOST access needs a host-visible resource (memory cpu_to_gpu or gpu_to_cpu, not %s)", r.Memory)
	}
	if r.Imported {
		return bad("a HOST access of an imported resource: the replay maps only the allocations the plan makes (host-visible ones are its own)")
	}
	if a.Access&vk.AccessHostWrite != 0 {
		w.hostWrites = append(w.hostWrites, a.Resource)
	}
	if a.Access&vk.AccessHostRead != 0 {
		w.hostReads = append(w.hostReads, a.Resource)
	}
	return nil
}

// checkHost says whether order puts every host write before the
// resource's GPU uses and every host read after its GPU writes.
func (r *Replayer) checkHost(order []p.CommandID) error {
	g := r.g
	gpuUsed := make([]bool, len(g.Resources))
	gpuWrite := make([]int, len(g.Resources)) // position+1 of the last GPU write
	for pos, c := range order {
		for _, a := range g.Commands[c].Accesses {
			if a.Access&^(vk.AccessHostRead|vk.AccessHostWrite) == 0 && a.Stages&vk.StageHost != 0 {
				continue
			}
			gpuUsed[a.Resource] = true
			if a.Access&writeFlags&^vk.AccessHostWrite != 0 {
				gpuWrite[a.Resource] = pos + 1
			}
		}
		for _, id := range r.works[c].hostWrites {
			if gpuUsed[id] {
				a := findAccess(&g.Commands[c], id)
				return &UnsupportedError{Command: g.Commands[c].Name, Resource: g.Resources[id].Name, Access: describe(g, a),
					Reason: "a host write after a GPU use of the resource in the frame: the host writes only before the frame is submitted (vulkan.Resources.Map)"}
			}
		}
	}
	for pos, c := range order {
		for _, id := range r.works[c].hostReads {
			if gpuWrite[id] > pos+1 {
				a := findAccess(&g.Commands[c], id)
				return &UnsupportedError{Command: g.Commands[c].Name, Resource: g.Resources[id].Name, Access: describe(g, a),
					Reason: fmt.Sprintf("a host read before the GPU write of %q at position %d: the host reads only after the frame's fence (vulkan.Resources.Map)", g.Commands[order[gpuWrite[id]-1]].Name, gpuWrite[id]-1)}
			}
		}
	}
	return nil
}

// hostWrite performs m's host writes on the mappings, in order, before
// the frame is submitted.
func (r *Replayer) hostWrite(m *mode) error {
	for _, c := range m.plan.Order {
		w := &r.works[c]
		for _, id := range w.hostWrites {
			b, err := m.res.Map(id)
			if err != nil {
				return err
			}
			salt := w.seed ^ hashString(r.g.Resources[id].Name)
			for i := 0; i+4 <= len(b); i += 4 {
				binary.LittleEndian.PutUint32(b[i:], hash32(salt^uint32(i))&0x3BFF3BFF)
			}
			if len(b) >= 16 {
				// Valid indirect draw arguments, as in fillPattern.
				binary.LittleEndian.PutUint32(b[0:], indirectStride)
				binary.LittleEndian.PutUint32(b[4:], 1)
				binary.LittleEndian.PutUint32(b[8:], 0)
				binary.LittleEndian.PutUint32(b[12:], 0)
			}
		}
	}
	return nil
}
