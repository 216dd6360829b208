package planner_test

import (
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// sizesGraph is a valid graph with one resource of each kind whose rules
// read a size: a buffer with explicit requirements, a mip-chained image,
// a 2D array image (depth 1), a multisampled image, a 3D image, a
// depth/stencil image with explicit requirements, and a plain image.
func sizesGraph() *planner.Graph {
	g := &planner.Graph{}
	img := func(name string, d planner.ImageDesc, q *planner.Requirements) planner.ResourceID {
		if d.Depth == 0 {
			d.Depth = 1
		}
		if d.MipLevels == 0 {
			d.MipLevels = 1
		}
		if d.ArrayLayers == 0 {
			d.ArrayLayers = 1
		}
		if d.Samples == 0 {
			d.Samples = 1
		}
		g.Resources = append(g.Resources, planner.Resource{Name: name, Kind: planner.KindImage, Image: d, Requirements: q})
		return planner.ResourceID(len(g.Resources) - 1)
	}
	g.Resources = append(g.Resources, planner.Resource{Name: "buf", Kind: planner.KindBuffer,
		Buffer:       planner.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer},
		Requirements: &planner.Requirements{Size: 4096, Alignment: 64, MemoryTypeBits: 1}})
	storage := vk.ImageUsageStorage | vk.ImageUsageSampled
	ids := []planner.ResourceID{
		img("chain", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 1024, Height: 512, MipLevels: 11, Usage: storage}, nil),
		img("array", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 256, Height: 256, ArrayLayers: 6, Usage: storage}, nil),
		img("msaa", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 256, Height: 128, Samples: 4, Usage: vk.ImageUsageColorAttachment}, nil),
		img("volume", planner.ImageDesc{Format: vk.FormatR16Sfloat, Width: 64, Height: 64, Depth: 32, MipLevels: 7, Usage: storage}, nil),
		img("ds", planner.ImageDesc{Format: vk.FormatD32SfloatS8Uint, Width: 640, Height: 360, Usage: vk.ImageUsageDepthStencilAttachment},
			&planner.Requirements{Size: 640 * 360 * 8, Alignment: 1024, MemoryTypeBits: 3}),
		img("plain", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 100, Height: 50, Usage: storage},
			&planner.Requirements{Size: 8192, Alignment: 256, MemoryTypeBits: 2}),
	}
	g.Commands = append(g.Commands, planner.Command{Name: "fill", Accesses: []planner.Access{
		{Resource: 0, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}}})
	for _, id := range ids {
		a := planner.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
		switch g.Resources[id].Name {
		case "msaa":
			a = planner.Access{Resource: id, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
		case "ds":
			a = planner.Access{Resource: id, Stages: vk.StageEarlyFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthStencilAttachmentOptimal}
		}
		g.Commands = append(g.Commands, planner.Command{Name: "write." + g.Resources[id].Name, Accesses: []planner.Access{a}})
	}
	return g
}

// TestValidateSizes: on graphs that differ from a valid one only in
// sizes (random extents, buffer sizes and requirements, many of them
// invalid: zero, too small for the mip levels, a depth on a layered or
// multisampled image, requirements below the resource, a bad alignment),
// ValidateSizes returns exactly what Validate returns.
func TestValidateSizes(t *testing.T) {
	base := sizesGraph()
	if err := planner.Validate(base); err != nil {
		t.Fatalf("the base graph: %v", err)
	}
	rng := rand.New(rand.NewPCG(25, 6))
	dim := func(v uint32) uint32 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return 1 + uint32(rng.IntN(3))
		case 2:
			return v
		}
		return 1 + uint32(rng.IntN(int(2*max(v, 1))))
	}
	size := func(v uint64) uint64 {
		switch rng.IntN(5) {
		case 0:
			return 0
		case 1:
			return v
		}
		return uint64(rng.Int64N(int64(2*max(v, 1)))) + 1
	}
	invalid, rules := 0, map[planner.Rule]bool{}
	for trial := 0; trial < 3000; trial++ {
		g := *base
		g.Resources = append([]planner.Resource(nil), base.Resources...)
		// One or two resources change: a broken rule is then often the
		// only one, which ValidateSizes must find by itself.
		for range 1 + rng.IntN(2) {
			res := &g.Resources[rng.IntN(len(g.Resources))]
			switch res.Kind {
			case planner.KindBuffer:
				res.Buffer.Size = size(res.Buffer.Size)
			case planner.KindImage:
				res.Image.Width, res.Image.Height = dim(res.Image.Width), dim(res.Image.Height)
				if rng.IntN(4) == 0 {
					res.Image.Depth = dim(max(res.Image.Depth, 2))
				}
			}
			if q := res.Requirements; q != nil || rng.IntN(4) == 0 {
				nq := planner.Requirements{Size: 1 << 20, Alignment: 256, MemoryTypeBits: 1}
				if q != nil {
					nq = *q
				}
				nq.Size = size(nq.Size)
				if rng.IntN(8) == 0 {
					nq.Alignment = []uint64{0, 3, 48, 1, 4096}[rng.IntN(5)]
				}
				if rng.IntN(10) == 0 {
					nq.MemoryTypeBits = 0
				}
				res.Requirements = &nq
			}
		}
		if !planner.SameStructure(base, &g) {
			t.Fatalf("trial %d: the mutation changed the structure", trial)
		}
		want, got := planner.Validate(&g), planner.ValidateSizes(&g)
		if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
			t.Fatalf("trial %d: ValidateSizes = %v, Validate = %v", trial, got, want)
		}
		if want != nil {
			invalid++
			for _, e := range planner.GraphErrors(want) {
				rules[e.Rule] = true
			}
		}
	}
	// The mutations must reach every size rule, or the comparison proves little.
	for _, r := range []planner.Rule{planner.RuleZeroSize, planner.RuleZeroExtent, planner.RuleMipLevels, planner.RuleImageType,
		planner.RuleAlignment, planner.RuleMemoryTypeBits, planner.RuleRequirementsTooSmall} {
		if !rules[r] {
			t.Errorf("no trial broke rule %s", r)
		}
	}
	t.Logf("%d of 3000 size-only variants invalid; rules broken: %v", invalid, rules)
}
