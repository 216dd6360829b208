package replay

import (
	"fmt"

	p "github.com/aliasplan/aliasplan/planner"
)

// Uniform buffers larger than the 64 KiB block the shaders declare are
// read as several uniform-buffer slots, one per 64 KiB range (descriptor
// offsets 0, 64 KiB, ...: multiples of every device's
// minUniformBufferOffsetAlignment), so every 16-byte row is read; a stage
// has four such slots (256 KiB). A device whose maxUniformBufferRange is
// below a range the frame binds is refused naming the limit.

// uniformRanges are the slots reading a uniform buffer of size bytes.
func uniformRanges(size uint64) []slot {
	var out []slot
	for off := uint64(0); off == 0 || off < size; off += maxUBBytes {
		out = append(out, slot{w: uint32(min(size-off, maxUBBytes) / 16), h: 1, d: 1, boff: off})
	}
	return out
}

// uniformRangeDevice refuses uniform ranges over maxUniformBufferRange.
func (k *kit) uniformRangeDevice(g *p.Graph, ws []work) error {
	limit := uint64(k.limits.MaxUniformBufferRange)
	for i := range ws {
		for _, pt := range ws[i].allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if s.cat != catUB {
					continue
				}
				if n := min(g.Resources[s.res].Buffer.Size-s.boff, maxUBBytes); n > limit {
					cmd := &g.Commands[ws[i].cmd]
					return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[s.res].Name, Access: describe(g, findAccess(cmd, s.res)),
						Reason: fmt.Sprintf("%s's maxUniformBufferRange is %d bytes, below the %d-byte range the replay binds", k.dev.Info().Name, limit, n)}
				}
			}
		}
	}
	return nil
}
