package aliasplan_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
)

// asyncSequence is a multi-queue frame sequence: the async sample frame
// at varying sizes (resized below the held maximum, and above it), with
// async compute toggled off (the one-queue sample frame) and on again.
func asyncSequence() []*aliasplan.Graph {
	var gs []*aliasplan.Graph
	for _, f := range []struct {
		pct   uint32
		async bool
	}{{100, true}, {80, true}, {90, true}, {90, false}, {70, true}, {110, true}, {110, false}, {100, true}} {
		w, h := 640*f.pct/100, 360*f.pct/100
		if f.async {
			gs = append(gs, aliasplan.AsyncSampleFrame(w, h))
		} else {
			gs = append(gs, aliasplan.SampleFrame(w, h))
		}
	}
	return gs
}

func waitNames(ws []planner.FrameWait) string {
	var s []string
	for _, w := range ws {
		s = append(s, fmt.Sprintf("%s<-%s", w.Queue, w.After))
	}
	return strings.Join(s, " ")
}

// TestFramesQueuesSequence: a Frames sequence over several queues carries
// frame waits (Plan.FrameWaits) that order each queue's first batch after
// the earlier frames' batches on the other queues (and, on the compute
// queue, its own), the whole sequence passes verify.Sequence, and with
// the frame waits of any one frame removed it fails.
func TestFramesQueuesSequence(t *testing.T) {
	gs := asyncSequence()
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	var cs []*planner.Compiled
	var ps []*planner.Plan
	var got []string
	for _, g := range gs {
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		checkFrame(t, g, fp)
		c, err := planner.Compile(&g.Graph)
		if err != nil {
			t.Fatal(err)
		}
		cs, ps = append(cs, c), append(ps, fp.Plan)
		got = append(got, waitNames(fp.FrameWaits))
	}
	// Frame 1: nothing before it. Frame 2 (async): graphics after compute,
	// compute after both. Frame 4 (graphics only): after frame 3's
	// compute. Frame 5: compute after frames 3 (its own) and 4 (graphics).
	want := []string{"", "graphics<-compute compute<-graphics compute<-compute", "graphics<-compute compute<-graphics compute<-compute",
		"graphics<-compute", "compute<-graphics compute<-compute", "graphics<-compute compute<-graphics compute<-compute",
		"graphics<-compute", "compute<-graphics compute<-compute"}
	if !slices.Equal(got, want) {
		t.Errorf("frame waits:\n got %q\nwant %q", got, want)
	}
	if err := verify.Sequence(cs, ps); err != nil {
		t.Fatalf("the sequence: %v", err)
	}
	for k := range ps {
		if len(ps[k].FrameWaits) == 0 {
			continue
		}
		for i := range ps[k].FrameWaits {
			q := *ps[k]
			q.FrameWaits = slices.Delete(slices.Clone(q.FrameWaits), i, i+1)
			ctl := slices.Clone(ps)
			ctl[k] = &q
			err := verify.Sequence(cs, ctl)
			if err == nil {
				t.Errorf("frame %d without frame wait %s: the sequence passed", k+1, waitNames(ps[k].FrameWaits[i:i+1]))
			} else if !strings.Contains(err.Error(), "does not wait for queue") {
				t.Errorf("frame %d without frame wait %s: %v; want the cross-queue rule", k+1, waitNames(ps[k].FrameWaits[i:i+1]), err)
			}
		}
	}
}

// TestFramesOneQueueNoWaits: one-queue sequences need no frame waits (the
// entry barriers order them) and get none.
func TestFramesOneQueueNoWaits(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	for _, pct := range []uint32{100, 80, 120, 90} {
		fp, err := f.Plan(aliasplan.SampleFrame(640*pct/100, 360*pct/100))
		if err != nil {
			t.Fatal(err)
		}
		if len(fp.FrameWaits) != 0 {
			t.Errorf("frame %d: frame waits %s on one queue", fp.Frame, waitNames(fp.FrameWaits))
		}
	}
}

// TestFrameWaitsFile: a plan's frame waits survive a plan file, and a
// file naming an unknown queue is rejected with the item named.
func TestFrameWaitsFile(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	var fp *aliasplan.FramePlan
	var g *aliasplan.Graph
	for _, pct := range []uint32{100, 90} {
		g = aliasplan.AsyncSampleFrame(640*pct/100, 360*pct/100)
		var err error
		if fp, err = f.Plan(g); err != nil {
			t.Fatal(err)
		}
	}
	if len(fp.FrameWaits) == 0 {
		t.Fatal("the second async frame has no frame waits")
	}
	var b bytes.Buffer
	if err := format.WritePlan(&b, &g.Graph, fp.Plan); err != nil {
		t.Fatal(err)
	}
	p2, err := format.ReadPlan(bytes.NewReader(b.Bytes()), "plan.json", &g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p2.FrameWaits, fp.FrameWaits) {
		t.Errorf("frame waits read back %v; wrote %v", p2.FrameWaits, fp.FrameWaits)
	}
	bad := strings.Replace(b.String(), `"after": "graphics"`, `"after": "video"`, 1)
	if bad == b.String() {
		t.Fatalf("no frame wait after graphics in the file:\n%s", b.String())
	}
	_, err = format.ReadPlan(strings.NewReader(bad), "plan.json", &g.Graph)
	if err == nil || !strings.Contains(err.Error(), "plan.json") || !strings.Contains(err.Error(), "frameWaits[") || !strings.Contains(err.Error(), `"video"`) {
		t.Errorf("unknown queue: %v; want an error naming the file, the frame wait and the queue", err)
	}
}
