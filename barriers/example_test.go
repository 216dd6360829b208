package barriers_test

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// A compute pass writes a buffer that a second pass reads into an image;
// a third pass writes another buffer, which first fit places in the first
// buffer's bytes. Build adds the barriers; Dependencies gives what
// vkCmdPipelineBarrier2 records before each command.
func Example() {
	var g planner.Graph
	req := &planner.Requirements{Size: 1 << 20, Alignment: 256, MemoryTypeBits: 0x3}
	tiles := g.AddResource(planner.Resource{Name: "tiles", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 20}, Requirements: req})
	hist := g.AddResource(planner.Resource{Name: "histogram", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 20}, Requirements: req})
	out := g.AddResource(planner.Resource{Name: "out", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 256, Height: 256, Depth: 1, MipLevels: 1, ArrayLayers: 1,
			Samples: 1, Usage: vk.ImageUsageStorage}})
	g.AddCommand("classify", planner.Access{Resource: tiles, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("shade",
		planner.Access{Resource: tiles, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("measure",
		planner.Access{Resource: out, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
		planner.Access{Resource: hist, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})

	c, err := planner.Compile(&g)
	if err != nil {
		panic(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
	if err != nil {
		panic(err)
	}
	if err := barriers.Build(c, p); err != nil {
		panic(err)
	}
	if err := verify.Plan(c, p); err != nil {
		panic(err)
	}
	fmt.Println("histogram at offset", p.Resources[hist].Placement.Offset, "of pool", p.Resources[hist].Placement.Pool)
	for _, b := range barriers.Dependencies(&g, p) {
		d := &b.Dependency
		fmt.Printf("before %s:\n", g.Commands[b.Command].Name)
		for _, m := range d.MemoryBarriers {
			fmt.Printf("  memory %s/%s -> %s/%s\n", m.SrcStageMask, m.SrcAccessMask, m.DstStageMask, m.DstAccessMask)
		}
		for _, m := range d.BufferMemoryBarriers {
			fmt.Printf("  buffer %s %s/%s -> %s/%s\n", g.Resources[m.Buffer].Name, m.SrcStageMask, m.SrcAccessMask, m.DstStageMask, m.DstAccessMask)
		}
		for _, m := range d.ImageMemoryBarriers {
			fmt.Printf("  image %s %s/%s -> %s/%s, %s -> %s\n", g.Resources[m.Image].Name, m.SrcStageMask, m.SrcAccessMask,
				m.DstStageMask, m.DstAccessMask, m.OldLayout, m.NewLayout)
		}
	}
	// Output:
	// histogram at offset 0 of pool 0
	// before classify:
	// before shade:
	//   buffer tiles COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
	//   image out COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE, UNDEFINED -> GENERAL
	// before measure:
	//   memory COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE
	//   image out COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ, GENERAL -> GENERAL
}
