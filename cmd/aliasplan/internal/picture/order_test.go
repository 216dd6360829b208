package picture

import (
	"bytes"
	"github.com/aliasplan/aliasplan/vk"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// TestSVGMarksSerializations: under the execution order the alias
// barrier that orders a serialized pair is drawn in its own colour and
// says so, and the dashed bound is the execution order's (the DAG bound,
// 8 KiB here, is no floor for the plan); under the DAG order nothing is.
func TestSVGMarksSerializations(t *testing.T) {
	g := &planner.Graph{}
	for _, n := range []string{"a", "b"} {
		r := g.AddResource(planner.Resource{Name: n, Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 4096},
			Requirements: &planner.Requirements{Size: 4096, Alignment: 256, MemoryTypeBits: 1}})
		g.AddCommand(n+".w", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		g.AddCommand(n+".r", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	}
	for _, order := range []planner.Ordering{planner.OrderDAG, planner.OrderExecution} {
		c, p, err := aliasplan.New(aliasplan.Options{Order: order}).PlanCompiled(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := SVG(&b, c, p, Options{Title: "t"}); err != nil {
			t.Fatal(err)
		}
		svg := b.String()
		marked := strings.Contains(svg, serialColour) && strings.Contains(svg, "serialization: orders a before it") &&
			strings.Contains(svg, "execution order, 1 serialization") && strings.Contains(svg, "execution-order bound 4.0 KiB")
		if marked != (order == planner.OrderExecution) {
			t.Errorf("%s order: serialization marked %v", order, marked)
		}
	}
}
