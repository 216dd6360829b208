package planner

import (
	"testing"
	"unsafe"

	"github.com/aliasplan/aliasplan/vk"
)

// TestAccessSize: ranges live in Access's padding, so whole-image graphs
// cost no more memory than before ranges.
func TestAccessSize(t *testing.T) {
	if n := unsafe.Sizeof(Access{}); n != 32 {
		t.Errorf("Access is %d bytes, want 32", n)
	}
}

func TestValidateRangeAPI(t *testing.T) {
	var g Graph
	arr := g.AddImage("arr", ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, MipLevels: 7, ArrayLayers: 6})
	buf := g.AddBuffer("buf", BufferDesc{Size: 64})
	w := Access{Resource: arr, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	tests := []struct {
		name string
		a    Access
		rule Rule // "" = valid
	}{
		{"whole", w, ""},
		{"one mip", w.WithMips(6, 1), ""},
		{"remaining mips", w.WithMips(3, 0), ""},
		{"explicit whole", w.WithMips(0, 7).WithLayers(0, 6).WithAspects(vk.AspectColor), ""},
		{"mip past the end", w.WithMips(6, 2), RuleSubresourceRange},
		{"negative mip", w.WithMips(-1, 1), RuleSubresourceRange},
		{"mip beyond uint8", w.WithMips(300, 1), RuleSubresourceRange},
		{"layer past the end", w.WithLayers(6, 0), RuleSubresourceRange},
		{"layer beyond uint16", w.WithLayers(1<<20, 1), RuleSubresourceRange},
		{"stencil of colour", w.WithAspects(vk.AspectStencil), RuleAspects},
		{"unnamed aspect bit", w.WithAspects(0x40), RuleAspects},
		{"buffer", Access{Resource: buf, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}.WithLayers(0, 1), RuleSubresourceRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g.Commands = nil
			g.AddCommand("c", tc.a)
			err := Validate(&g)
			ges := GraphErrors(err)
			switch {
			case tc.rule == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.rule != "" && (len(ges) != 1 || ges[0].Rule != tc.rule || ges[0].Command != "c" || ges[0].Access != 0):
				t.Fatalf("error %v, want one of rule %s naming command c access 0", err, tc.rule)
			}
			t.Log(err)
		})
	}
}
