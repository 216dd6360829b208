package planner

import (
	"errors"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"
)

// A depth/stencil image cleared or copied off graphics is refused with
// rule queue-depth-transfer (Vulkan needs a graphics-capable family for
// vkCmdClearDepthStencilImage and depth/stencil buffer-image copies);
// the same on graphics, or a colour image cleared on compute or
// transfer, is accepted. CanRunOn agrees with Validate.
func TestQueueDepthTransfer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format vk.Format
		q      Queue
		stages vk.Stage
		access vk.AccessFlags
		layout vk.Layout
		want   Rule // "" accepted
	}{
		{"clear depth on compute", vk.FormatD32Sfloat, QueueCompute, vk.StageClear, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, RuleQueueDepthTransfer},
		{"clear depth-stencil on transfer", vk.FormatD24UnormS8Uint, QueueTransfer, vk.StageClear, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, RuleQueueDepthTransfer},
		{"copy depth on transfer", vk.FormatD32Sfloat, QueueTransfer, vk.StageCopy, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, RuleQueueDepthTransfer},
		{"copy depth via ALL_TRANSFER on compute", vk.FormatD32SfloatS8Uint, QueueCompute, vk.StageAllTransfer, vk.AccessTransferRead, vk.LayoutTransferSrcOptimal, RuleQueueDepthTransfer},
		{"clear depth on graphics", vk.FormatD32Sfloat, QueueGraphics, vk.StageClear, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, ""},
		{"clear colour on compute", vk.FormatR8G8B8A8Unorm, QueueCompute, vk.StageClear, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, ""},
		{"copy colour on transfer", vk.FormatR8G8B8A8Unorm, QueueTransfer, vk.StageCopy, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal, ""},
		{"sample depth on compute", vk.FormatD32Sfloat, QueueCompute, vk.StageComputeShader, vk.AccessShaderSampledRead, vk.LayoutShaderReadOnlyOptimal, ""},
	} {
		var g Graph
		img := g.AddResource(Resource{Name: "img", Kind: KindImage, Imported: true, Image: ImageDesc{
			Format: tc.format, Width: 16, Height: 16,
			Usage:         vk.ImageUsageTransferDst | vk.ImageUsageTransferSrc | vk.ImageUsageSampled,
			InitialLayout: tc.layout, FinalLayout: tc.layout,
		}})
		cmd := g.AddCommandOn(tc.q, "c", Access{Resource: img, Stages: tc.stages, Access: tc.access, Layout: tc.layout})
		err := Validate(&g)
		var ge *GraphError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Validate = %v, want nil", tc.name, err)
		case tc.want != "" && (!errors.As(err, &ge) || ge.Rule != tc.want || ge.Command != "c" || ge.Resource != "img" || !strings.Contains(err.Error(), tc.q.String())):
			t.Errorf("%s: Validate = %v, want rule %s naming command c, resource img and the %s queue", tc.name, err, tc.want, tc.q)
		}
		if got := g.CanRunOn(cmd, tc.q); got != (tc.want == "") {
			t.Errorf("%s: CanRunOn(%s) = %v, Validate says %v", tc.name, tc.q, got, err)
		}
		if !g.CanRunOn(cmd, QueueGraphics) {
			t.Errorf("%s: CanRunOn(graphics) = false", tc.name)
		}
	}
}

// Compiled.Exclusive: a buffer written on graphics and read on compute
// can move; one read on both queues with no order between the reads
// cannot (EXCLUSIVE is owned by one family at a time), nor an imported
// one, nor one used on one queue.
func TestCompiledExclusive(t *testing.T) {
	var g Graph
	desc := BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer}
	moved := g.AddBuffer("moved", desc)
	shared := g.AddBuffer("shared", desc)
	one := g.AddBuffer("one", desc)
	imp := g.AddResource(Resource{Name: "imp", Kind: KindBuffer, Imported: true, Buffer: desc})
	w := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	rd := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}
	}
	g.AddCommand("write", w(moved), w(shared), w(one), w(imp))
	g.AddCommandOn(QueueCompute, "read.compute", rd(moved), rd(shared), rd(imp))
	g.AddCommand("read.graphics", rd(shared), rd(one))
	c, err := Compile(&g)
	if err != nil {
		t.Fatal(err)
	}
	for r, want := range map[ResourceID]bool{moved: true, shared: false, one: false, imp: false} {
		if got := c.Exclusive(r); got != want {
			t.Errorf("%s: Exclusive = %v, want %v", g.Resources[r].Name, got, want)
		}
	}
}
