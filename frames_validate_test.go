package aliasplan_test

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// TestFramesRefuseInvalidSizes: a frame with the structure of a
// remembered one (its anchor; Frames then checks only the sizes,
// planner.ValidateSizes) but an invalid new size is refused with
// Validate's own error, and the next valid frame still plans (resized).
func TestFramesRefuseInvalidSizes(t *testing.T) {
	set := func(g *aliasplan.Graph, name string, f func(*planner.Resource)) {
		r, ok := g.ResourceByName(name)
		if !ok {
			t.Fatalf("no resource %q", name)
		}
		f(&g.Resources[r])
	}
	cases := []struct {
		name   string
		change func(*aliasplan.Graph)
	}{
		{"zero width", func(g *aliasplan.Graph) { set(g, "depth", func(r *planner.Resource) { r.Image.Width = 0 }) }},
		{"zero buffer", func(g *aliasplan.Graph) { set(g, "lights.grid", func(r *planner.Resource) { r.Buffer.Size = 0 }) }},
		{"requirements below the texels", func(g *aliasplan.Graph) {
			// 1280×720 RGBA16F is 7,372,800 bytes; a driver never says less.
			set(g, "hdr", func(r *planner.Resource) {
				r.Requirements = &planner.Requirements{Size: 1 << 20, Alignment: 1024, MemoryTypeBits: 3}
			})
		}},
		{"requirements below the buffer", func(g *aliasplan.Graph) {
			set(g, "lights.grid", func(r *planner.Resource) {
				r.Requirements = &planner.Requirements{Size: 4096, Alignment: 16, MemoryTypeBits: 3}
			})
		}},
		{"alignment not a power of two", func(g *aliasplan.Graph) {
			set(g, "exposure.histogram", func(r *planner.Resource) {
				r.Requirements = &planner.Requirements{Size: 1024, Alignment: 48, MemoryTypeBits: 3}
			})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
			if _, err := f.Plan(aliasplan.SampleFrame(1280, 720)); err != nil {
				t.Fatal(err)
			}
			bad := aliasplan.SampleFrame(1152, 648)
			tc.change(bad)
			if !planner.SameStructure(&aliasplan.SampleFrame(1280, 720).Graph, &bad.Graph) {
				t.Fatal("the change altered the structure: Frames would run the full Validate")
			}
			want := planner.Validate(&bad.Graph)
			if want == nil {
				t.Fatal("the changed frame is valid: the case tests nothing")
			}
			fp, err := f.Plan(bad)
			if err == nil {
				t.Fatalf("an invalid frame was planned (%s)", fp.Path)
			}
			if err.Error() != want.Error() {
				t.Errorf("error %q, want Validate's %q", err, want)
			}
			g := aliasplan.SampleFrame(1024, 576)
			fp, err = f.Plan(g)
			if err != nil {
				t.Fatal(err)
			}
			if fp.Path != "resized" {
				t.Errorf("the next valid frame: path %s, want resized", fp.Path)
			}
			checkFrame(t, g, fp)
		})
	}
}
