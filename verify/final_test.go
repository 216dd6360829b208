package verify_test

import (
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// finalFrame: two imported images. "history" is sampled, then written by
// a copy, and must end in SHADER_READ_ONLY_OPTIMAL; "swap" is written as
// a colour attachment and ends as it is.
func finalFrame(t *testing.T) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	var g planner.Graph
	desc := planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64,
		Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst | vk.ImageUsageColorAttachment}
	h := desc
	h.InitialLayout, h.FinalLayout = vk.LayoutShaderReadOnlyOptimal, vk.LayoutShaderReadOnlyOptimal
	history := g.AddResource(planner.Resource{Name: "history", Kind: planner.KindImage, Imported: true, Image: h})
	swap := g.AddResource(planner.Resource{Name: "swap", Kind: planner.KindImage, Imported: true, Image: desc})
	g.AddCommand("resolve",
		planner.Access{Resource: history, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: swap, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("store", planner.Access{Resource: history, Stages: vk.StageCopy, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	c, err := planner.Compile(&g)
	if err != nil {
		t.Fatal(err)
	}
	p := &planner.Plan{Strategy: "test", Resources: make([]planner.ResourcePlan, len(g.Resources))}
	for r := range p.Resources {
		p.Resources[r].Status = planner.StatusImported
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	if len(p.FinalBarriers) != 1 {
		t.Fatalf("final barriers %+v, want one", p.FinalBarriers)
	}
	return c, p
}

func TestVerifyFinal(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *planner.Compiled, p *planner.Plan)
		want string
	}{
		{"missing", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers = nil },
			`resource "history": the frame leaves the image in TRANSFER_DST_OPTIMAL and no final barrier takes it to its final layout SHADER_READ_ONLY_OPTIMAL`},
		{"anchored before a command", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].Before = 1 },
			"anchored before command 1"},
		{"wrong old layout", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].OldLayout = vk.LayoutGeneral },
			"transitions from GENERAL, the frame leaves the image in TRANSFER_DST_OPTIMAL"},
		{"wrong new layout", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].NewLayout = vk.LayoutGeneral },
			"transitions into GENERAL, the final layout is SHADER_READ_ONLY_OPTIMAL"},
		{"source misses the copy", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].SrcStages = vk.StageClear },
			`source stages CLEAR miss the last use by command "store" (COPY)`},
		{"source misses the write", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].SrcAccess = 0 },
			`source access NONE misses the writes of the last use by command "store"`},
		{"destination too narrow", func(c *planner.Compiled, p *planner.Plan) {
			p.FinalBarriers[0].DstStages = vk.StageBottomOfPipe
			p.FinalBarriers[0].DstAccess = 0
		},
			"destination BOTTOM_OF_PIPE / NONE"},
		{"not an image barrier", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].Type = planner.BufferBarrier },
			"a final barrier is an image hazard barrier"},
		{"twice", func(c *planner.Compiled, p *planner.Plan) {
			p.FinalBarriers = append(p.FinalBarriers, p.FinalBarriers[0])
		},
			"final barrier 1: a second final barrier on the image"},
		{"on an image without a final layout", func(c *planner.Compiled, p *planner.Plan) {
			x := p.FinalBarriers[0]
			x.Resource, x.OldLayout, x.SrcStages, x.SrcAccess = 1, vk.LayoutColorAttachmentOptimal, vk.StageColorAttachmentOutput, vk.AccessColorAttachmentWrite
			p.FinalBarriers = append(p.FinalBarriers, x)
		}, `resource "swap": final barrier 1: the image has no final layout`},
		{"no resource", func(c *planner.Compiled, p *planner.Plan) { p.FinalBarriers[0].Resource = 7 },
			"final barrier 0: resource 7 does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, p := finalFrame(t)
			tc.edit(c, p)
			errs := verify.All(c, p, 0)
			var all []string
			found := false
			for _, err := range errs {
				all = append(all, err.Error())
				found = found || strings.Contains(err.Error(), tc.want)
			}
			if !found {
				t.Errorf("violations %q; want one containing %q", all, tc.want)
			}
			if err := verify.Plan(c, p); err == nil {
				t.Error("verify.Plan accepts it")
			}
		})
	}
}
