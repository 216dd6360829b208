package replay

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// workShape is what the replay records for one command: rendering
// passes, draws, compute dispatches, clears and copies, and each pass's
// depth/stencil attachment (aspects attached, layouts, test modes).
type workShape struct {
	passes, draws, dispatches, clears, copies int
	slots                                     int // shader slots (descriptors read or written)
	depth                                     []string
}

func shapeOf(g *p.Graph, w *work) workShape {
	s := workShape{passes: len(w.passes), clears: len(w.clears), copies: len(w.copies)}
	if w.parts[stCompute] != nil {
		s.dispatches = 1
	}
	for _, pt := range w.parts {
		if pt != nil {
			s.slots += len(pt.slots)
		}
	}
	s.draws = len(w.passes)
	if len(w.passes) > 0 {
		s.draws += len(w.indirect) + len(w.index) + len(w.vertex)
	}
	for _, ps := range w.passes {
		if ps.depth.att < 0 {
			continue
		}
		a := w.depths[ps.depth.att]
		d := "none"
		if g.Resources[a.res].Image.Format.HasDepth() && !a.noDepth {
			d = fmt.Sprintf("%s mode %d", a.layout, dsMode(a))
		}
		st := "none"
		if a.stencil {
			l := a.layout
			if a.split || a.noDepth {
				l = a.sLayout
			}
			st = fmt.Sprintf("%s mode %d", l, stencilMode(a))
		}
		s.depth = append(s.depth, "depth "+d+", stencil "+st)
	}
	return s
}

// TestDepthStencilWork compares what the replay records for the ranged
// depth-stencil frame and its GENERAL twin (issue 23's GPU-time miss on
// the H200: the ranged frame took 1.28-1.33x the twin's time). The
// ranged replay does no more work than the twin's: per command no more
// passes, draws, dispatches, clears or copies, and decals' two aspect
// accesses (depth read-only, stencil write) are one attachment in one
// pass, each aspect in its own layout (not two passes); the ranged plan
// has no more barriers. What differs is the tests: the ranged outline
// attaches the stencil aspect alone (its access names STENCIL), the
// twin's whole-image read attaches depth too and tests it, and the
// replay's planes (Params.z) make that test discard fragments the
// ranged outline shades (docs/replay.md, "The depth-stencil frame's GPU
// time"; ALIASPLAN_REPLAY_TESTS_ALWAYS, dstests.go).
func TestDepthStencilWork(t *testing.T) {
	shapes := map[string][]workShape{}
	barriers := map[string]int{}
	for _, name := range []string{"depth-stencil", "depth-stencil-general"} {
		g := readFrame(t, rangedFrame(t, name))
		writeFirst(g)
		for c := range g.Commands {
			w, err := analyzeCommand(g, p.CommandID(c))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			shapes[name] = append(shapes[name], shapeOf(g, &w))
		}
		plan := planFor(t, g)
		barriers[name] = len(plan.Barriers)
		t.Logf("%s: %d barriers; per command %+v", name, len(plan.Barriers), shapes[name])
	}
	r, tw := shapes["depth-stencil"], shapes["depth-stencil-general"]
	for c := range r {
		a, b := r[c], tw[c]
		if a.passes > b.passes || a.slots > b.slots || a.draws > b.draws || a.dispatches > b.dispatches || a.clears > b.clears || a.copies > b.copies {
			t.Errorf("command %d: the ranged replay records more work than the twin's: %+v against %+v", c, a, b)
		}
	}
	if barriers["depth-stencil"] > barriers["depth-stencil-general"] {
		t.Errorf("ranged plan has %d barriers, the twin's %d", barriers["depth-stencil"], barriers["depth-stencil-general"])
	}
	decals := fmt.Sprintf("depth %s mode %d, stencil %s mode %d", vk.LayoutDepthReadOnlyOptimal, dsRead, vk.LayoutStencilAttachmentOptimal, dsReadWrite)
	if d := r[1].depth; r[1].passes != 1 || len(d) != 1 || d[0] != decals {
		t.Errorf("ranged decals: %d passes, attachments %q; want one pass with %q", r[1].passes, d, decals)
	}
	outline := fmt.Sprintf("depth none, stencil %s mode %d", vk.LayoutStencilReadOnlyOptimal, dsRead)
	twin := fmt.Sprintf("depth %s mode %d, stencil %s mode %d", vk.LayoutGeneral, dsRead, vk.LayoutGeneral, dsRead)
	if len(r[3].depth) != 1 || r[3].depth[0] != outline || len(tw[3].depth) != 1 || tw[3].depth[0] != twin {
		t.Errorf("outline: ranged %q, twin %q; want %q and %q", r[3].depth, tw[3].depth, outline, twin)
	}
}

// planFor plans g without a device (the default profile's requirements).
func planFor(t *testing.T, g *p.Graph) *p.Plan {
	t.Helper()
	plan, err := aliasplan.New(aliasplan.Options{}).Plan(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return plan
}
