package vulkan

import (
	"strings"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
)

// TestFinalLayoutTwoFrames records one frame twice in a row, as a renderer
// does: an imported history image arrives in SHADER_READ_ONLY_OPTIMAL, is
// sampled, then overwritten by a copy (TRANSFER_DST_OPTIMAL). With its
// finalLayout the plan's final barrier takes it back, so the second frame's
// transition out of SHADER_READ_ONLY_OPTIMAL finds it there: no validation
// message. Without the final barrier the layer reports the second frame's
// barrier, whose oldLayout the image is not in (the control that shows the
// test can fail).
func TestFinalLayoutTwoFrames(t *testing.T) {
	t.Run("final barrier", func(t *testing.T) {
		if ms := twoFrames(t, true); len(ms) != 0 {
			for _, m := range ms {
				t.Errorf("validation: %s", m)
			}
		}
	})
	t.Run("control: no final barrier", func(t *testing.T) {
		ms := twoFrames(t, false)
		found := false
		for _, m := range ms {
			t.Logf("expected: %s", m)
			found = found || strings.Contains(m.String(), "ayout")
		}
		if !found {
			t.Errorf("no layout message without the final barrier (messages: %v)", ms)
		}
	})
}

func twoFrames(t *testing.T, withFinal bool) []Message {
	d := openDevice(t)
	var g aliasplan.Graph
	desc := planner.ImageDesc{Format: avk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Usage: avk.ImageUsageSampled | avk.ImageUsageTransferDst, InitialLayout: avk.LayoutShaderReadOnlyOptimal, FinalLayout: avk.LayoutShaderReadOnlyOptimal}
	history := g.AddResource(planner.Resource{Name: "history", Kind: planner.KindImage, Imported: true, Image: desc})
	g.AddCommand("resolve", planner.Access{Resource: history, Stages: avk.StageComputeShader, Access: avk.AccessShaderSampledRead, Layout: avk.LayoutShaderReadOnlyOptimal})
	g.AddCommand("store", planner.Access{Resource: history, Stages: avk.StageCopy, Access: avk.AccessTransferWrite, Layout: avk.LayoutTransferDstOptimal})
	res := d.NewResources(&g.Graph)
	t.Cleanup(res.Close)
	plan, err := aliasplan.New(aliasplan.Options{Source: res}).Plan(&g)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.FinalBarriers) != 1 {
		t.Fatalf("final barriers %+v, want one", plan.FinalBarriers)
	}
	if !withFinal {
		cp := *plan
		cp.FinalBarriers = nil
		plan = &cp
	}
	img := ownedImage(t, d, desc)
	if err := d.Run(func(cb vk.CommandBuffer) error {
		transition(d, cb, img, avk.LayoutUndefined, avk.LayoutShaderReadOnlyOptimal, aspect(desc.Format))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := res.ImportImage(history, img); err != nil {
		t.Fatal(err)
	}
	if err := res.Bind(plan); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := d.Run(func(cb vk.CommandBuffer) error { return res.Record(cb, nil) }); err != nil {
			t.Fatal(err)
		}
	}
	return d.TakeMessages()
}
