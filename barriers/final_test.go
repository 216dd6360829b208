package barriers_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// historyFrame: an imported history image sampled, then overwritten by a
// copy, as a TAA resolve does; final is its FinalLayout.
func historyFrame(initial, final vk.Layout) *frame {
	f := &frame{}
	h := f.importedImage("history", initial)
	f.g.Resources[h].Image.FinalLayout = final
	out := f.image("out", vk.FormatB8G8R8A8Unorm, 1<<14)
	f.cmd("resolve", useImage(h, compute, sampled, readOnly), useImage(out, compute, ssw, general))
	f.cmd("store", useImage(out, copyS, tr, vk.LayoutTransferSrcOptimal), useImage(h, copyS, tw, vk.LayoutTransferDstOptimal))
	return f
}

func TestFinalBarrier(t *testing.T) {
	c, p := placed(t, historyFrame(readOnly, readOnly), nil)
	build(t, c, p)
	want := []planner.Barrier{{Before: planner.EndOfFrame, Kind: planner.Hazard, Type: planner.ImageBarrier, Resource: 0,
		SrcStages: copyS, SrcAccess: tw, DstStages: vk.StageAllCommands, DstAccess: vk.AccessMemoryRead | vk.AccessMemoryWrite,
		OldLayout: vk.LayoutTransferDstOptimal, NewLayout: readOnly}}
	if !reflect.DeepEqual(p.FinalBarriers, want) {
		t.Errorf("final barriers %+v\nwant %+v", p.FinalBarriers, want)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings %v, want none", p.Warnings)
	}
	// Dependencies is per command: the final barrier is not in it.
	for _, b := range barriers.Dependencies(c.Graph, p) {
		for _, x := range b.Dependency.ImageMemoryBarriers {
			if x.NewLayout == readOnly && x.Image == 0 {
				t.Errorf("the final transition is recorded before command %d", b.Command)
			}
		}
	}
}

func TestFinalBarrierNone(t *testing.T) {
	// The frame already leaves it in its final layout: nothing to do.
	c, p := placed(t, historyFrame(readOnly, vk.LayoutTransferDstOptimal), nil)
	build(t, c, p)
	if p.FinalBarriers != nil || p.Warnings != nil {
		t.Errorf("final barriers %v, warnings %v; want none", p.FinalBarriers, p.Warnings)
	}
}

func TestFinalBarrierUnused(t *testing.T) {
	// An imported image no command uses goes from its initial layout, after
	// whatever the queue ran before (ALL_COMMANDS, no access).
	f := &frame{}
	b := f.buffer("b", 256)
	f.cmd("fill", use(b, compute, ssw))
	h := f.importedImage("history", vk.LayoutGeneral)
	f.g.Resources[h].Image.FinalLayout = readOnly
	c, p := placed(t, f, nil)
	build(t, c, p)
	if len(p.FinalBarriers) != 1 {
		t.Fatalf("final barriers %+v, want one", p.FinalBarriers)
	}
	x := p.FinalBarriers[0]
	if x.Resource != h || x.SrcStages != vk.StageAllCommands || x.SrcAccess != 0 || x.OldLayout != vk.LayoutGeneral || x.NewLayout != readOnly {
		t.Errorf("final barrier %+v", x)
	}
}

func TestFinalLayoutWarning(t *testing.T) {
	c, p := placed(t, historyFrame(readOnly, vk.LayoutUndefined), nil)
	p.Warnings = []planner.Warning{{Resource: "x", Rule: "other", Detail: "kept"}}
	build(t, c, p)
	build(t, c, p) // rebuilding replaces its own warnings, not others'
	if len(p.Warnings) != 2 || p.Warnings[0].Rule != "other" {
		t.Fatalf("warnings %v, want the other one and one final-layout warning", p.Warnings)
	}
	w := p.Warnings[1]
	if w.Resource != "history" || w.Rule != planner.RuleFinalLayout ||
		!strings.Contains(w.Detail, "leaves it in TRANSFER_DST_OPTIMAL but it arrives in SHADER_READ_ONLY_OPTIMAL") {
		t.Errorf("warning %v", w)
	}
	if p.FinalBarriers != nil {
		t.Errorf("final barriers %v without a final layout", p.FinalBarriers)
	}

	// An image that arrives UNDEFINED (a swapchain image, contents not
	// kept) may end anywhere: the next frame can always declare UNDEFINED.
	c, p = placed(t, historyFrame(vk.LayoutUndefined, vk.LayoutUndefined), nil)
	build(t, c, p)
	if p.Warnings != nil {
		t.Errorf("warnings %v for an image that arrives UNDEFINED", p.Warnings)
	}
}

func TestFinalLayoutValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(g *planner.Graph)
		want string
	}{
		{"transient", func(g *planner.Graph) { g.Resources[1].Image.FinalLayout = readOnly }, "on a transient image"},
		{"preinitialized", func(g *planner.Graph) { g.Resources[0].Image.FinalLayout = vk.LayoutPreinitialized }, "PREINITIALIZED"},
		{"unknown", func(g *planner.Graph) { g.Resources[0].Image.FinalLayout = 12345 }, "unknown final layout 12345"},
	} {
		f := historyFrame(readOnly, vk.LayoutUndefined)
		tc.edit(&f.g)
		err := planner.Validate(&f.g)
		ge := planner.GraphErrors(err)
		if len(ge) == 0 || !strings.Contains(ge[0].Detail, tc.want) {
			t.Errorf("%s: Validate = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
