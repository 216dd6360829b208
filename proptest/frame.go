package proptest

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
)

// RandomFrame builds a valid frame of n commands shaped like the shared
// random-*.json frames, for scale measurements: about 1.46 fresh
// transients per command (half images with 64 KiB alignment, half buffers
// with 256-byte alignment, explicit H200-like requirements, all below the
// dedicated threshold), and 1 to 3 reads per command, half of them of a
// recent resource and half of any earlier one, so that lifetimes span from
// one command to the whole frame as they do there. Interference is then
// dense: the number of interfering pairs grows with n².
func RandomFrame(seed uint64, n int) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	g := &planner.Graph{
		Resources: make([]planner.Resource, 0, n*3/2),
		Commands:  make([]planner.Command, 0, n),
	}
	for ci := 0; ci < n; ci++ {
		acc := make([]planner.Access, 0, 6)
		// Reads first, of resources created by earlier commands.
		for k := rng.IntN(4); k > 0 && len(g.Resources) > 0; k-- {
			var r planner.ResourceID
			if rng.IntN(2) == 0 {
				r = planner.ResourceID(len(g.Resources) - 1 - rng.IntN(min(len(g.Resources), 32)))
			} else {
				r = planner.ResourceID(rng.IntN(len(g.Resources)))
			}
			dup := false
			for _, a := range acc {
				dup = dup || a.Resource == r
			}
			if dup {
				continue
			}
			if rng.IntN(10) == 0 {
				acc = append(acc, writeAccess(g, r, rng))
			} else {
				acc = append(acc, frameRead(g, r))
			}
		}
		// Then fresh resources: 1 or 2, 1.46 on average.
		fresh := 1
		if rng.IntN(100) < 46 {
			fresh = 2
		}
		for range fresh {
			r := g.AddResource(frameResource(len(g.Resources), rng))
			acc = append(acc, writeAccess(g, r, rng))
		}
		g.AddCommand(fmt.Sprintf("c%05d", ci), acc...)
	}
	return g
}

// frameResource is a transient image or buffer with H200-like explicit
// requirements: images rounded to 64 KiB (1 KiB below it), buffers to 256
// bytes, both well below the 64 MiB dedicated threshold.
func frameResource(i int, rng *rand.Rand) planner.Resource {
	name := fmt.Sprintf("r%05d", i)
	if rng.IntN(2) == 0 {
		size := uint64(256 * (1 + rng.IntN(16384)))
		return planner.Resource{Name: name, Kind: planner.KindBuffer,
			Buffer:       planner.BufferDesc{Size: size, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferDst},
			Requirements: &planner.Requirements{Size: size, Alignment: 256, MemoryTypeBits: 0x1f}}
	}
	w := uint32(8 + rng.IntN(1000))
	h := uint32(8 + rng.IntN(600))
	size := uint64(w) * uint64(h) * 8
	align := uint64(65536)
	if size < 65536 {
		align = 1024
	}
	size = (size + align - 1) &^ (align - 1)
	return planner.Resource{Name: name, Kind: planner.KindImage,
		Image: planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled | vk.ImageUsageStorage},
		Requirements: &planner.Requirements{Size: size, Alignment: align, MemoryTypeBits: 0x3}}
}

// frameRead is a shader read of r: sampled for images (read-only layout),
// storage for buffers.
func frameRead(g *planner.Graph, r planner.ResourceID) planner.Access {
	if g.Resources[r].Kind == planner.KindBuffer {
		return planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}
	}
	return planner.Access{Resource: r, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
}
