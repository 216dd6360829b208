package aliasplan_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// TestFramesInFlight: with K frames in flight, an allocation that a
// larger frame replaces stays held (no pool goes into it) and is announced
// PoolFree exactly at the frame K frames after the last frame that used
// it, once.
func TestFramesInFlight(t *testing.T) {
	for _, k := range []int{1, 2, 3} {
		f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{InFlight: k})
		gs := []*aliasplan.Graph{aliasplan.SampleFrame(1920, 1080), aliasplan.SampleFrame(2560, 1440)}
		for range 5 {
			gs = append(gs, aliasplan.SampleFrame(2560, 1440))
		}
		lastUsed := map[int]uint64{}
		freed := map[int]uint64{}
		for _, g := range gs {
			fp, err := f.Plan(g)
			if err != nil {
				t.Fatal(err)
			}
			checkFrame(t, g, fp)
			for _, i := range fp.PoolOf {
				lastUsed[fp.Held[i].ID] = fp.Frame
			}
			for _, h := range fp.Held {
				if h.State != aliasplan.PoolFree {
					continue
				}
				if _, twice := freed[h.ID]; twice {
					t.Errorf("K=%d: allocation %d freed twice", k, h.ID)
				}
				freed[h.ID] = fp.Frame
				if h.LastUsed != lastUsed[h.ID] {
					t.Errorf("K=%d: allocation %d LastUsed %d; it was last used in frame %d", k, h.ID, h.LastUsed, lastUsed[h.ID])
				}
				if want := h.LastUsed + uint64(k); fp.Frame != want {
					t.Errorf("K=%d: allocation %d (last used in frame %d) freed at frame %d; want %d", k, h.ID, h.LastUsed, fp.Frame, want)
				}
			}
		}
		if len(freed) == 0 {
			t.Errorf("K=%d: the 1080p allocations were never freed", k)
		}
	}
}

// TestFramesEntry: every frame of the 1,000-frame sequence (resolution
// changes, SSR toggled, a window resize) carries an entry barrier that
// verify.Sequence accepts over the whole sequence, its source the
// previous frame's terminal scope (the first frame's the full scope), and
// each plan verifies alone.
func TestFramesEntry(t *testing.T) {
	gs := frameSequence()[:300]
	gs = append(gs, frameSequence()[495:520]...)
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	var cs []*planner.Compiled
	var ps []*planner.Plan
	for i, g := range gs {
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		c, err := planner.Compile(&g.Graph)
		if err != nil {
			t.Fatal(err)
		}
		if len(fp.Entry) != 1 {
			t.Fatalf("frame %d: %d entry barriers", i+1, len(fp.Entry))
		}
		first, last := barriers.FrameScopes(c, fp.Plan)
		if e := fp.Entry[0]; e.DstStages != first.Stages || e.DstAccess != first.Access {
			t.Fatalf("frame %d: entry destination %s / %s; want the first uses' %s / %s", i+1, e.DstStages, e.DstAccess, first.Stages, first.Access)
		}
		if i == 0 && fp.Entry[0].SrcStages != vk.StageAllCommands {
			t.Fatalf("first frame: entry source %s; want the full scope", fp.Entry[0].SrcStages)
		}
		if i > 0 {
			pf, pl := barriers.FrameScopes(cs[i-1], ps[i-1])
			if want := barriers.EntrySource(pl, pf); fp.Entry[0].SrcStages != want.Stages || fp.Entry[0].SrcAccess != want.Access {
				t.Fatalf("frame %d: entry source %s / %s; want %s / %s", i+1, fp.Entry[0].SrcStages, fp.Entry[0].SrcAccess, want.Stages, want.Access)
			}
		}
		_ = last
		cs, ps = append(cs, c), append(ps, fp.Plan)
	}
	if err := verify.Sequence(cs, ps); err != nil {
		t.Fatal(err)
	}
}

// TestSequenceTamper: verify catches an entry barrier removed, its
// source or destination narrowed, and a first-use transition that no
// longer chains after it.
func TestSequenceTamper(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	var cs []*planner.Compiled
	var ps []*planner.Plan
	for _, g := range []*aliasplan.Graph{sequenceFrame(1280, 720, true), sequenceFrame(1100, 620, false), sequenceFrame(1280, 720, true)} {
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		c, err := planner.Compile(&g.Graph)
		if err != nil {
			t.Fatal(err)
		}
		cs, ps = append(cs, c), append(ps, fp.Plan)
	}
	if err := verify.Sequence(cs, ps); err != nil {
		t.Fatalf("untampered: %v", err)
	}
	tamper := func(name string, frame int, edit func(p *planner.Plan)) {
		t.Run(name, func(t *testing.T) {
			q := *ps[frame]
			q.Entry = append([]planner.Barrier(nil), q.Entry...)
			q.Barriers = append([]planner.Barrier(nil), q.Barriers...)
			edit(&q)
			tps := append([]*planner.Plan(nil), ps...)
			tps[frame] = &q
			err := verify.Sequence(cs, tps)
			var be *planner.BarrierError
			if !errors.As(err, &be) || be.Rule != planner.RuleEntryBarrier {
				t.Fatalf("got %v; want an %s error", err, planner.RuleEntryBarrier)
			}
			t.Log(err)
		})
	}
	tamper("removed", 1, func(p *planner.Plan) { p.Entry = nil })
	tamper("first frame not full", 0, func(p *planner.Plan) { p.Entry[0].SrcStages = vk.StageFragmentShader })
	tamper("source stages narrowed", 2, func(p *planner.Plan) {
		// Frame 2 ends with the lighting pass and the tonemap: drop one
		// of its terminal stages.
		_, last := barriers.FrameScopes(cs[1], ps[1])
		lowest := last.Stages & -last.Stages
		p.Entry[0].SrcStages &^= lowest
	})
	tamper("source writes narrowed", 0, func(p *planner.Plan) { p.Entry[0].SrcAccess = 0 }) // later frames end with reads: no writes to wait for
	tamper("destination narrowed", 1, func(p *planner.Plan) {
		d := p.Entry[0].DstStages
		p.Entry[0].DstStages = d &^ (d & -d)
	})
	tamper("destination access narrowed", 1, func(p *planner.Plan) { p.Entry[0].DstAccess = 0 })
	tamper("wrong call", 1, func(p *planner.Plan) { p.Entry[0].Call = 1 })
	tamper("transition not chained", 1, func(p *planner.Plan) {
		for k := range p.Barriers {
			x := &p.Barriers[k]
			if x.Type == planner.ImageBarrier && x.OldLayout == vk.LayoutUndefined && p.Resources[x.Resource].Status == planner.StatusPooled {
				x.SrcStages, x.SrcAccess = 0, 0
				return
			}
		}
		t.Fatal("no pooled image transition")
	})
	tamper("transition in call 0 of the first command", 1, func(p *planner.Plan) {
		for k := range p.Barriers {
			x := &p.Barriers[k]
			if x.Before == p.Order[0] && x.Type == planner.ImageBarrier && x.OldLayout == vk.LayoutUndefined {
				x.Call = 0
				// keep grouping by call: move it to the front
				y := *x
				copy(p.Barriers[1:k+1], p.Barriers[:k])
				p.Barriers[0] = y
				return
			}
		}
		t.Fatal("no transition before the first command")
	})
}

// TestEntryPlanFile: a frame's entry barrier is written to the plan file
// ("entry") and read back whole; a file whose entry names no command of
// the graph is an error naming the item.
func TestEntryPlanFile(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	g := sequenceFrame(640, 360, true)
	if _, err := f.Plan(sequenceFrame(700, 400, false)); err != nil {
		t.Fatal(err)
	}
	fp, err := f.Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := format.WritePlan(&b, &g.Graph, fp.Plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"entry": {"before":`) {
		t.Fatalf("no entry in the plan file:\n%s", b.String())
	}
	p2, err := format.ReadPlan(bytes.NewReader(b.Bytes()), "plan.json", &g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p2.Entry, fp.Entry) {
		t.Fatalf("entry read back as %+v, want %+v", p2.Entry, fp.Entry)
	}
	c, err := planner.Compile(&g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p2); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(b.String(), `"entry": {"before": "shadow0"`, `"entry": {"before": "nope"`, 1)
	if bad == b.String() {
		t.Fatalf("the entry is not before shadow0:\n%s", b.String())
	}
	_, err = format.ReadPlan(strings.NewReader(bad), "plan.json", &g.Graph)
	if err == nil || !strings.Contains(err.Error(), "entry.before") || !strings.Contains(err.Error(), "plan.json") {
		t.Fatalf("got %v; want an error naming plan.json and entry.before", err)
	}
}

// TestFramesEntryRandom: random graphs of different structures planned
// one after another through one Frames (each frame a new structure, some
// repeated): every plan verifies alone and the sequence passes
// verify.Sequence.
func TestFramesEntryRandom(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	var cs []*planner.Compiled
	var ps []*planner.Plan
	for i := range 40 {
		g := &aliasplan.Graph{Graph: *proptest.RandomGraph(uint64(1+i%13), 40)}
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		checkFrame(t, g, fp)
		c, err := planner.Compile(&g.Graph)
		if err != nil {
			t.Fatal(err)
		}
		cs, ps = append(cs, c), append(ps, fp.Plan)
	}
	if err := verify.Sequence(cs, ps); err != nil {
		t.Fatal(err)
	}
}
