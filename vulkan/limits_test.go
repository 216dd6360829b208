package vulkan

import (
	"errors"
	"github.com/aliasplan/aliasplan/vk"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// The device reports its image limits, and the planner checks images
// against them before creating anything (issue 12 item 1).
func TestDeviceLimits(t *testing.T) {
	d := openDevice(t)
	l := d.Limits()
	t.Logf("limits: 1D %d, 2D %d, 3D %d, layers %d, sample counts %#x",
		l.MaxImageDimension1D, l.MaxImageDimension2D, l.MaxImageDimension3D, l.MaxImageArrayLayers, l.SampleCounts)
	// Vulkan's required minimums (Table "Required Limits").
	if l.MaxImageDimension1D < 4096 || l.MaxImageDimension2D < 4096 || l.MaxImageDimension3D < 256 ||
		l.MaxImageArrayLayers < 256 || l.SampleCounts&1 == 0 {
		t.Fatalf("limits below Vulkan's minimums: %+v", l)
	}
	t.Logf("maxMemoryAllocationSize %#x", l.MaxMemoryAllocationSize)
	for i, mt := range d.MemoryTypes() {
		t.Logf("memory type %d: heap %d of %d bytes", i, mt.Heap, mt.HeapSize)
		if mt.HeapSize == 0 {
			t.Errorf("memory type %d: heap size unknown", i)
		}
	}
	if l.MaxMemoryAllocationSize == 0 && d.Info().MaxMemoryAllocationSize != 0 {
		t.Error("Limits lacks the device's maxMemoryAllocationSize")
	}
	g := &planner.Graph{}
	img := g.AddImage("huge", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: l.MaxImageDimension2D + 1, Height: 16,
		Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1})
	g.AddCommand("w", planner.Access{Resource: img, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	res := d.NewResources(g)
	var src planner.RequirementsSource = res
	ls, ok := src.(planner.LimitsSource)
	if !ok {
		t.Fatal("Resources does not report limits")
	}
	var ge *planner.GraphError
	if err := ls.Limits().CheckImage(&g.Resources[img]); !errors.As(err, &ge) || ge.Rule != planner.RuleImageLimit {
		t.Fatalf("CheckImage = %v; want rule %s", err, planner.RuleImageLimit)
	}
}
