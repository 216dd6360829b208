package format

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

const finalGraphDoc = `{"version": 1, "resources": [
  {"name": "history", "type": "image", "imported": true, "image": {"format": "R8G8B8A8_UNORM", "width": 4, "height": 4,
   "usage": ["SAMPLED", "TRANSFER_DST"], "initialLayout": "SHADER_READ_ONLY_OPTIMAL", "finalLayout": "SHADER_READ_ONLY_OPTIMAL"}}],
 "commands": [
  {"name": "resolve", "accesses": [{"resource": "history", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_SAMPLED_READ"], "layout": "SHADER_READ_ONLY_OPTIMAL"}]},
  {"name": "store", "accesses": [{"resource": "history", "stages": ["COPY"], "access": ["TRANSFER_WRITE"], "layout": "TRANSFER_DST_OPTIMAL"}]}]}`

// TestFinalLayoutFiles: finalLayout reads and writes back in graph files,
// and final barriers in plan files (finalBarriers, no before).
func TestFinalLayoutFiles(t *testing.T) {
	g, err := ReadGraph(strings.NewReader(finalGraphDoc), "final.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Resources[0].Image.FinalLayout; got != vk.LayoutShaderReadOnlyOptimal {
		t.Fatalf("FinalLayout = %s", got)
	}
	var gb bytes.Buffer
	if err := WriteGraph(&gb, g); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gb.String(), `"finalLayout": "SHADER_READ_ONLY_OPTIMAL"`) {
		t.Errorf("written graph has no finalLayout:\n%s", gb.String())
	}
	g2, err := ReadGraph(&gb, "again.json")
	if err != nil || !reflect.DeepEqual(g, g2) {
		t.Fatalf("graph does not read back: %v", err)
	}

	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p := &planner.Plan{Strategy: "test", Requirements: "graph", Resources: []planner.ResourcePlan{{Status: planner.StatusImported}}}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	var pb bytes.Buffer
	if err := WritePlan(&pb, g, p); err != nil {
		t.Fatal(err)
	}
	want := `  "finalBarriers": [
    {"kind": "hazard", "type": "image", "resource": "history", "srcStages": ["COPY"], "srcAccess": ["TRANSFER_WRITE"], "dstStages": ["ALL_COMMANDS"], "dstAccess": ["MEMORY_READ", "MEMORY_WRITE"], "oldLayout": "TRANSFER_DST_OPTIMAL", "newLayout": "SHADER_READ_ONLY_OPTIMAL"}
  ],
`
	if !strings.Contains(pb.String(), want) {
		t.Errorf("plan file lacks\n%s\ngot\n%s", want, pb.String())
	}
	p2, err := ReadPlan(bytes.NewReader(pb.Bytes()), "plan.json", g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.FinalBarriers, p2.FinalBarriers) {
		t.Errorf("final barriers read back as %+v, want %+v", p2.FinalBarriers, p.FinalBarriers)
	}

	// A final barrier with a before is malformed.
	bad := strings.Replace(pb.String(), `{"kind": "hazard", "type": "image", "resource": "history", "srcStages": ["COPY"]`,
		`{"before": "store", "kind": "hazard", "type": "image", "resource": "history", "srcStages": ["COPY"]`, 1)
	if _, err := ReadPlan(strings.NewReader(bad), "bad.json", g); err == nil || !strings.Contains(err.Error(), "finalBarriers[0].before") {
		t.Errorf("a final barrier with a before: err = %v", err)
	}
}
