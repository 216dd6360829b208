package proptest

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
)

// memoryTypeBits are the masks random resources draw from: H200-like
// images (0x3), buffers (0x1f), and masks that share no type with some
// others, so that groups split by memory type.
var memoryTypeBits = []uint32{0x1f, 0x3, 0x2, 0x1e, 0x10, 0x12}

// RandomGraph builds a valid frame of n commands from a seed: branches
// that run in parallel (each command writes fresh resources and reads or
// rewrites earlier ones), buffers and optimal and linear images, explicit
// requirements over several memory types (sizes are multiples of the
// alignment, as drivers report them), plus imported, host-visible,
// dedicated and unused resources.
func RandomGraph(seed uint64, n int) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	g := &planner.Graph{}
	imported := g.AddResource(planner.Resource{Name: "imported", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			InitialLayout: vk.LayoutPresentSrc}})
	req := func() *planner.Requirements {
		align := uint64(1) << rng.IntN(17)
		return &planner.Requirements{Size: align * uint64(1+rng.IntN(16)), Alignment: align, MemoryTypeBits: memoryTypeBits[rng.IntN(len(memoryTypeBits))]}
	}
	var live []planner.ResourceID
	for ci := 0; ci < n; ci++ {
		var acc []planner.Access
		touched := map[planner.ResourceID]bool{}
		for k := 0; k < 1+rng.IntN(3); k++ {
			if len(live) == 0 || rng.IntN(3) == 0 {
				name := fmt.Sprintf("r%d", len(g.Resources))
				res := planner.Resource{Name: name, Requirements: req()}
				switch rng.IntN(3) {
				case 0:
					res.Kind, res.Buffer = planner.KindBuffer, planner.BufferDesc{Size: 1 + uint64(rng.IntN(4096))}
				default:
					res.Kind = planner.KindImage
					res.Image = planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1}
					if rng.IntN(4) == 0 {
						res.Image.Tiling = vk.TilingLinear
					}
				}
				// Requirements never below the resource's own bytes
				// (planner.RuleRequirementsTooSmall); rounding draws nothing
				// from rng, so the graphs keep their shape.
				own := res.Buffer.Size
				if res.Kind == planner.KindImage {
					own, _ = planner.ImageBytes(&res.Image)
				}
				if q := res.Requirements; q.Size < own {
					q.Size = (own + q.Alignment - 1) &^ (q.Alignment - 1)
				}
				switch rng.IntN(12) {
				case 0:
					res.Memory = planner.GPUToCPU
				case 1:
					res.Dedicated = true
				case 2:
					res.Requirements.PrefersDedicated = true
				}
				r := g.AddResource(res)
				touched[r] = true
				acc = append(acc, writeAccess(g, r, rng))
				live = append(live, r)
				continue
			}
			r := live[rng.IntN(len(live))]
			if touched[r] {
				continue
			}
			touched[r] = true
			acc = append(acc, laterAccess(g, r, rng))
		}
		if rng.IntN(5) == 0 {
			acc = append(acc, planner.Access{Resource: imported, Stages: vk.StageColorAttachmentOutput,
				Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
		}
		g.AddCommand(fmt.Sprintf("c%d", ci), acc...)
	}
	unused := req()
	unused.Size = max(unused.Size, unused.Alignment*((64+unused.Alignment-1)/unused.Alignment))
	g.AddResource(planner.Resource{Name: "unused", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 64}, Requirements: unused})
	return g
}

func writeAccess(g *planner.Graph, r planner.ResourceID, rng *rand.Rand) planner.Access {
	if g.Resources[r].Kind == planner.KindBuffer {
		if rng.IntN(2) == 0 {
			return planner.Access{Resource: r, Stages: vk.StageCopy, Access: vk.AccessTransferWrite}
		}
		return planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	if rng.IntN(2) == 0 {
		return planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	return planner.Access{Resource: r, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
}

// laterAccess reads (usually) or rewrites an existing resource; images are
// read in several layouts so that transitions appear.
func laterAccess(g *planner.Graph, r planner.ResourceID, rng *rand.Rand) planner.Access {
	if rng.IntN(5) == 0 {
		return writeAccess(g, r, rng)
	}
	stage := []vk.Stage{vk.StageComputeShader, vk.StageFragmentShader, vk.StageVertexShader}[rng.IntN(3)]
	if g.Resources[r].Kind == planner.KindBuffer {
		return planner.Access{Resource: r, Stages: stage, Access: vk.AccessShaderStorageRead}
	}
	layout := []vk.Layout{vk.LayoutShaderReadOnlyOptimal, vk.LayoutGeneral}[rng.IntN(2)]
	return planner.Access{Resource: r, Stages: stage, Access: vk.AccessShaderSampledRead, Layout: layout}
}

// RandomIntervals builds an interval problem of n items from a seed:
// lifetimes over [0, 4n), sizes spread over three orders of magnitude,
// alignments up to 256 (sizes are multiples of them).
func RandomIntervals(seed uint64, n int) []planner.Item {
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	items := make([]planner.Item, n)
	for i := range items {
		start := int64(rng.IntN(4 * n))
		align := uint64(1) << rng.IntN(9)
		items[i] = planner.Item{
			Size:      align * uint64(1+rng.IntN(1000)),
			Alignment: align,
			Start:     start,
			End:       start + 1 + int64(rng.IntN(2*n)),
		}
	}
	return items
}
