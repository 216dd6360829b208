package format_test

import (
	"bytes"
	"github.com/aliasplan/aliasplan/verify"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// A frame that presents, written with Vulkan's own names (issue 12 item
// 5): PRESENT_SRC_KHR was rejected because the planner stripped _KHR.
const presentFrame = `{"version": 1,
 "resources": [
  {"name": "scene", "type": "image", "image": {"format": "R16G16B16A16_SFLOAT", "width": 64, "height": 64, "usage": ["COLOR_ATTACHMENT", "SAMPLED"]}},
  {"name": "backbuffer", "type": "image", "imported": true,
   "image": {"format": "B8G8R8A8_UNORM", "width": 64, "height": 64, "initialLayout": "PRESENT_SRC_KHR"}}],
 "commands": [
  {"name": "draw", "accesses": [{"resource": "scene", "stages": ["COLOR_ATTACHMENT_OUTPUT"], "access": ["COLOR_ATTACHMENT_WRITE"], "layout": "COLOR_ATTACHMENT_OPTIMAL"}]},
  {"name": "tonemap", "accesses": [
    {"resource": "scene", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_SAMPLED_READ"], "layout": "SHADER_READ_ONLY_OPTIMAL"},
    {"resource": "backbuffer", "stages": ["COLOR_ATTACHMENT_OUTPUT"], "access": ["COLOR_ATTACHMENT_WRITE"], "layout": "COLOR_ATTACHMENT_OPTIMAL"}]},
  {"name": "present", "accesses": [{"resource": "backbuffer", "stages": ["BOTTOM_OF_PIPE"], "layout": "PRESENT_SRC_KHR"}]}]}`

func TestPresentingFrame(t *testing.T) {
	for _, doc := range []string{presentFrame, strings.ReplaceAll(presentFrame, "PRESENT_SRC_KHR", "PRESENT_SRC")} {
		g, err := format.ReadGraph(strings.NewReader(doc), "present.json")
		if err != nil {
			t.Fatal(err)
		}
		c, err := planner.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
		if err != nil {
			t.Fatal(err)
		}
		if err := barriers.Build(c, p); err != nil {
			t.Fatal(err)
		}
		if err := verify.Plan(c, p); err != nil {
			t.Fatal(err)
		}
		var plan, graph bytes.Buffer
		if err := format.WritePlan(&plan, g, p); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan.String(), `"PRESENT_SRC_KHR"`) {
			t.Errorf("the plan file does not write PRESENT_SRC_KHR:\n%s", plan.String())
		}
		if err := format.WriteGraph(&graph, g); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(graph.String(), `"PRESENT_SRC_KHR"`) || strings.Contains(graph.String(), `"PRESENT_SRC"`) {
			t.Errorf("the graph file does not write PRESENT_SRC_KHR:\n%s", graph.String())
		}
		if _, err := format.ReadPlan(&plan, "present.plan.json", g); err != nil {
			t.Fatal(err)
		}
	}
}
