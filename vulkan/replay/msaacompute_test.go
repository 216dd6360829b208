package replay

import (
	"errors"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// msaaComputeFrame: a 4× image drawn into, then read by a compute shader
// (texelFetch of every sample) and a 4× storage image written and read by
// compute shaders, beside transients that alias.
func msaaComputeFrame() *p.Graph {
	g := &p.Graph{}
	ms := g.AddImage("ms", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 4,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	st := g.AddImage("ms.storage", p.ImageDesc{Format: vk.FormatR32Uint, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 2, Samples: 4,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage})
	out := g.AddBuffer("out", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	cs := vk.StageComputeShader
	g.AddCommand("draw", p.Access{Resource: ms, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("fetch", p.Access{Resource: ms, Stages: cs, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: st, Stages: cs, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("load", p.Access{Resource: st, Stages: cs, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral},
		p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageWrite})
	return g
}

// TestMSAACompute replays msaaComputeFrame both ways; on lavapipe, whose
// compute pipelines with multisampled images crash, it checks that the
// replay refuses it naming the device.
func TestMSAACompute(t *testing.T) {
	d := sharedDevice(t)
	if info := d.Info(); strings.Contains(strings.ToLower(info.Name+" "+info.Driver), "llvmpipe") {
		_, err := New(d, msaaComputeFrame())
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Command != "fetch" || !strings.Contains(ue.Reason, "llvmpipe") {
			t.Fatalf("lavapipe: got %v, want the fetch refused naming llvmpipe", err)
		}
		t.Logf("lavapipe refuses, as it should: %v", err)
		return
	}
	rep := compare(t, d, msaaComputeFrame(), 1)
	if !rep.DigestsEqual {
		t.Error("digests differ")
	}
}
