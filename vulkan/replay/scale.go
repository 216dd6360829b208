package replay

import (
	"fmt"
	"math/bits"
	"slices"

	p "github.com/aliasplan/aliasplan/planner"
)

// Scale returns a copy of g for replay with every image extent and
// buffer size divided by factor, keeping the graph's structure: the same
// resources, formats, usages, commands and accesses. Extents stay at
// least 1 and mip chains are cut to what the smaller image has; buffer
// sizes stay multiples of 16 bytes (at least 16). Explicit requirements
// are dropped in every case (factor 1 too): replay binds real resources,
// so the device must supply their requirements.
func Scale(g *p.Graph, factor uint32) (*p.Graph, error) {
	if factor == 0 {
		return nil, fmt.Errorf("replay: scale factor 0: it divides extents and sizes, so it must be at least 1")
	}
	out := &p.Graph{Resources: slices.Clone(g.Resources), Commands: make([]p.Command, len(g.Commands))}
	for i := range g.Commands {
		out.Commands[i] = g.Commands[i]
		out.Commands[i].Accesses = slices.Clone(g.Commands[i].Accesses)
	}
	for i := range out.Resources {
		r := &out.Resources[i]
		r.Requirements = nil
		if factor == 1 {
			continue
		}
		if r.Kind == p.KindBuffer {
			size := (r.Buffer.Size/uint64(factor) + 15) / 16 * 16
			r.Buffer.Size = max(size, 16)
			continue
		}
		im := &r.Image
		keep := keptExtent(g, p.ResourceID(i)) // ranges.go: the mips a ranged access names survive
		im.Width = max(1, im.Width/factor, min(im.Width, keep))
		im.Height = max(1, im.Height/factor, min(im.Height, keep))
		if im.Depth > 1 {
			im.Depth = max(2, im.Depth/factor) // a 3D image stays 3D
		}
		levels := uint32(bits.Len32(max(im.Width, im.Height, im.Depth)))
		im.MipLevels = min(im.MipLevels, levels)
	}
	return out, nil
}
