package replay

import (
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
)

func TestDebugCompute(t *testing.T) {
	d := openDevice(t)
	g := &p.Graph{}
	a := g.AddBuffer("a", p.BufferDesc{Size: 1024, Usage: p.BufferUsageStorageBuffer})
	b := g.AddBuffer("b", p.BufferDesc{Size: 1024, Usage: p.BufferUsageStorageBuffer})
	g.AddCommand("w", p.Access{Resource: a, Stages: p.StageComputeShader, Access: p.AccessShaderStorageWrite})
	g.AddCommand("r", p.Access{Resource: a, Stages: p.StageComputeShader, Access: p.AccessShaderStorageRead},
		p.Access{Resource: b, Stages: p.StageComputeShader, Access: p.AccessShaderStorageWrite})
	g.AddCommand("r2", p.Access{Resource: b, Stages: p.StageComputeShader, Access: p.AccessShaderStorageRead})
	rep := compare(t, d, g, 2)
	t.Logf("%+v", rep)
}

func TestDebugDraw(t *testing.T) {
	d := openDevice(t)
	g := &p.Graph{}
	a := g.AddImage("a", p.ImageDesc{Format: p.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: p.TilingOptimal, Usage: p.ImageUsageColorAttachment | p.ImageUsageSampled})
	b := g.AddBuffer("b", p.BufferDesc{Size: 1024, Usage: p.BufferUsageStorageBuffer})
	g.AddCommand("w", p.Access{Resource: a, Stages: p.StageColorAttachmentOutput, Access: p.AccessColorAttachmentWrite, Layout: p.LayoutColorAttachmentOptimal})
	g.AddCommand("r", p.Access{Resource: a, Stages: p.StageComputeShader, Access: p.AccessShaderSampledRead, Layout: p.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: b, Stages: p.StageComputeShader, Access: p.AccessShaderStorageWrite})
	g.AddCommand("r2", p.Access{Resource: b, Stages: p.StageFragmentShader, Access: p.AccessShaderStorageRead})
	rep := compare(t, d, g, 2)
	t.Logf("%+v", rep)
}

func TestDebugDraw1(t *testing.T) {
	d := openDevice(t)
	g := &p.Graph{}
	a := g.AddImage("a", p.ImageDesc{Format: p.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: p.TilingOptimal, Usage: p.ImageUsageColorAttachment | p.ImageUsageSampled})
	g.AddCommand("w", p.Access{Resource: a, Stages: p.StageColorAttachmentOutput, Access: p.AccessColorAttachmentWrite, Layout: p.LayoutColorAttachmentOptimal})
	g.AddCommand("r", p.Access{Resource: a, Stages: p.StageFragmentShader, Access: p.AccessShaderSampledRead, Layout: p.LayoutShaderReadOnlyOptimal})
	rep := compare(t, d, g, 2)
	t.Logf("%+v", rep)
}
