package planner

import (
	"errors"
	"testing"

	"github.com/aliasplan/aliasplan/vk"
)

// nopStrategy is never reached: the gate refuses the graph first.
type nopStrategy struct{}

func (nopStrategy) Name() string { return "nop" }
func (nopStrategy) Place(p *Problem) (*Solution, error) {
	return nil, errors.New("not reached")
}

// TestPlaceRefusesRanges: until barriers serve subresource ranges, Place
// plans no graph with a partial range; a range covering the whole image
// is planned as before.
func TestPlaceRefusesRanges(t *testing.T) {
	var g Graph
	arr := g.AddImage("arr", ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, MipLevels: 7})
	w := Access{Resource: arr, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	g.AddCommand("c", w.WithMips(1, 1))
	c, err := Compile(&g)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Place(c, Options{Strategy: nopStrategy{}})
	var ge *GraphError
	if !errors.As(err, &ge) || ge.Rule != RuleRangesUnsupported || ge.Command != "c" || ge.Resource != "arr" {
		t.Fatalf("Place: %v, want rule %s naming command c and resource arr", err, RuleRangesUnsupported)
	}
}
