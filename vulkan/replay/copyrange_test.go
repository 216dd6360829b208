package replay

import (
	"fmt"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// blitChain is a mip chain made by vkCmdBlitImage, as engines build one:
// render mip 0 of a 6-mip image, blit mip i into mip i+1 one command at a
// time, sample the whole chain, and copy mip 2 into an imported image of
// that extent (a ranged copy the read-back sees).
func blitChain() *p.Graph {
	g := &p.Graph{}
	chain := g.AddImage("chain", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 6, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
	sum := g.AddImage("sum", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst | vk.ImageUsageSampled})
	g.Resources[out].Imported = true
	g.AddCommand("scene", p.Access{Resource: chain, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite,
		Layout: vk.LayoutColorAttachmentOptimal}.WithMips(0, 1))
	for i := 0; i < 5; i++ {
		g.AddCommand(fmt.Sprintf("mip%d", i+1),
			p.Access{Resource: chain, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}.WithMips(i, 1),
			p.Access{Resource: chain, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithMips(i+1, 1))
	}
	g.AddCommand("combine",
		p.Access{Resource: chain, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}.WithMips(1, 5),
		p.Access{Resource: sum, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("export",
		p.Access{Resource: chain, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}.WithMips(2, 1),
		p.Access{Resource: out, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	g.AddCommand("show", p.Access{Resource: sum, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: out, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	return g
}

// TestBlitMipChain replays the blit-made mip chain aliased and unaliased:
// zero validation messages, digests and the imported copy equal. Before
// per-range transfers the replay refused it by name.
func TestBlitMipChain(t *testing.T) {
	g := blitChain()
	if _, err := p.Compile(g); err != nil {
		t.Fatal(err)
	}
	rep := compare(t, sharedDevice(t), g, 1)
	if !rep.DigestsEqual {
		t.Errorf("digests differ")
	}
	t.Logf("blit chain: %d commands, %d alias barriers, digests equal %v", rep.Commands, rep.AliasBarriers, rep.DigestsEqual)
}

// TestRangedTransferRefusals: what a ranged transfer cannot be is refused
// by name, before any device work; what tiling made possible is accepted
// (a blit of one level into two, a ranged copy between levels of
// different extents: on the base commit refused as "as many mip levels"
// and "equal extents").
func TestRangedTransferRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(g *p.Graph)
		want string // "": accepted
	}{
		{"levels", func(g *p.Graph) { g.Commands[1].Accesses[1] = g.Commands[1].Accesses[1].WithMips(1, 2) }, ""},
		{"overlap", func(g *p.Graph) {
			g.Commands[1].Accesses[0] = g.Commands[1].Accesses[0].WithMips(0, 2)
			g.Commands[1].Accesses[1] = g.Commands[1].Accesses[1].WithMips(1, 2)
			g.Commands[1].Accesses[1].Layout = vk.LayoutGeneral
			g.Commands[1].Accesses[0].Layout = vk.LayoutGeneral
		}, "disjoint"},
		{"copy-extents", func(g *p.Graph) {
			for i := range g.Commands[1].Accesses {
				g.Commands[1].Accesses[i].Stages = vk.StageCopy
			}
		}, ""},
		{"blit-3d-layers", func(g *p.Graph) {
			// A blit from a 3D image into two layers of a 2D one.
			vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 1, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferSrc})
			arr := g.AddImage("arr", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 3, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst})
			g.Commands[1].Accesses = []p.Access{
				{Resource: vol, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
				p.Access{Resource: arr, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithLayers(0, 2)}
		}, "VUID-vkCmdBlitImage-srcImage-00240"},
		{"blit-3d-layer1", func(g *p.Graph) {
			// A blit from a 3D image into layer 1 alone of a 2D one.
			vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 1, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferSrc})
			arr := g.AddImage("arr", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 3, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst})
			g.Commands[1].Accesses = []p.Access{
				{Resource: vol, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
				p.Access{Resource: arr, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithLayers(1, 1)}
		}, "VUID-vkCmdBlitImage-srcImage-00240"},
		{"blit-3d-layer0", func(g *p.Graph) {
			// Layer 0 of a 2D image blitted over a 3D image: accepted.
			vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 1, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst})
			arr := g.AddImage("arr", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 3, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferSrc})
			g.Commands[1].Accesses = []p.Access{
				p.Access{Resource: arr, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}.WithLayers(0, 1),
				{Resource: vol, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}}
		}, ""},
		{"resolve-3d", func(g *p.Graph) {
			ms := g.AddImage("ms", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 4,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferSrc | vk.ImageUsageColorAttachment})
			vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 2, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst})
			g.Commands[1].Accesses = []p.Access{
				{Resource: ms, Stages: vk.StageResolve, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
				p.Access{Resource: vol, Stages: vk.StageResolve, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithMips(1, 1)}
		}, ""}, // session 8: layer 0 resolved into each slice (extents.go)
		{"resolve-3d-layer-1", func(g *p.Graph) {
			ms := g.AddImage("ms", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 4,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferSrc | vk.ImageUsageColorAttachment})
			vol := g.AddImage("vol", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 4, MipLevels: 2, ArrayLayers: 1, Samples: 1,
				Tiling: vk.TilingOptimal, Usage: vk.ImageUsageTransferDst})
			g.Commands[1].Accesses = []p.Access{
				p.Access{Resource: ms, Stages: vk.StageResolve, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal}.WithLayers(1, 1),
				p.Access{Resource: vol, Stages: vk.StageResolve, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal}.WithMips(1, 1)}
		}, "VUID-vkCmdResolveImage-srcImage-04446"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := blitChain()
			tc.edit(g)
			_, err := analyzeCommand(g, 1)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
