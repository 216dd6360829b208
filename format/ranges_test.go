package format

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// rangedSample is a small frame whose barriers carry ranges: a 4-mip
// 2-layer colour array written per mip and layer, read mip by mip, and a
// depth/stencil image whose aspects are used apart; planned dedicated.
func rangedSample(t testing.TB) (*planner.Graph, *planner.Compiled, *planner.Plan) {
	var g planner.Graph
	arr := g.AddImage("arr", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, MipLevels: 4, ArrayLayers: 2})
	ds := g.AddImage("ds", planner.ImageDesc{Format: vk.FormatD24UnormS8Uint, Width: 64, Height: 64})
	w := planner.Access{Resource: arr, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
	r := planner.Access{Resource: arr, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
	dw := planner.Access{Resource: ds, Stages: vk.StageEarlyFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthStencilAttachmentOptimal}
	g.AddCommand("w0", w.WithMips(0, 1), dw)
	g.AddCommand("w1", r.WithMips(0, 1), w.WithMips(1, 1).WithLayers(1, 1))
	g.AddCommand("w2", r.WithMips(1, 1).WithLayers(1, 1), w.WithMips(2, 2))
	g.AddCommand("d", planner.Access{Resource: ds, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutDepthReadOnlyOptimal}.WithAspects(vk.AspectDepth),
		planner.Access{Resource: ds, Stages: vk.StageEarlyFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutStencilAttachmentOptimal}.WithAspects(vk.AspectStencil))
	c, err := planner.Compile(&g)
	if err != nil {
		t.Fatal(err)
	}
	p := &planner.Plan{Resources: make([]planner.ResourcePlan, len(g.Resources))}
	for i := range p.Resources {
		p.Resources[i].Status = planner.StatusDedicated
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	return &g, c, p
}

// TestPlanBarrierRanges: image barriers' ranges write as mips, layers and
// aspects and read back unchanged; a range outside the image, on a
// buffer's barrier or with an aspect the format lacks is an error naming
// the item and the rule.
func TestPlanBarrierRanges(t *testing.T) {
	g, _, p := rangedSample(t)
	var b bytes.Buffer
	if err := WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mips": [`, `"layers": [`, `"aspects": [`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan file has no %s:\n%s", want, b.String())
		}
	}
	back, err := ReadPlan(bytes.NewReader(b.Bytes()), "r.plan.json", g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Barriers, p.Barriers) {
		t.Fatalf("barriers changed in the round trip:\n%+v\n%+v", p.Barriers, back.Barriers)
	}
	doc := b.String()
	for _, c := range []struct {
		from, to string
		rule     planner.Rule
	}{
		{`"mips": [`, `"mips": [9, 1], "x": [`, planner.RuleSubresourceRange},
		{`"aspects": [`, `"aspects": ["COLOR", "DEPTH", "STENCIL", `, planner.RuleAspects},
		{`"layers": [`, `"layers": [0], "y": [`, planner.RuleField},
	} {
		bad := strings.Replace(doc, c.from, c.to, 1)
		bad = strings.Replace(strings.Replace(bad, `"x": [`, `"mips0": [`, 1), `"y": [`, `"layers0": [`, 1)
		_, err := ReadPlan(strings.NewReader(bad), "bad.plan.json", g)
		var ge *planner.GraphError
		if !errors.As(err, &ge) || (ge.Rule != c.rule && ge.Rule != planner.RuleUnknownField) || ge.File != "bad.plan.json" {
			t.Errorf("%s → %s: %v, want rule %s", c.from, c.to, err, c.rule)
		}
	}
}

// FuzzReadRangedPlan: ReadPlan of plans of a ranged frame never panics,
// what it accepts round-trips, and verify.Plan judges it without panicking.
func FuzzReadRangedPlan(f *testing.F) {
	g, c, p := rangedSample(f)
	var b bytes.Buffer
	if err := WritePlan(&b, g, p); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPlan(bytes.NewReader(data), "fuzz", g)
		if err != nil {
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("not a *GraphError: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WritePlan(&out, g, p); err != nil {
			t.Fatalf("cannot write what was read: %v", err)
		}
		back, err := ReadPlan(bytes.NewReader(out.Bytes()), "rewritten", g)
		if err != nil {
			t.Fatalf("cannot read what was written: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("round trip changed the plan:\n%+v\n%+v", p, back)
		}
		_ = verify.Plan(c, p)
	})
}
