package replay

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
)

// asyncSeqFrame is the replayable async sample frame at w×h (256² shadow
// cascades unless full), or, with !async, the same frame on one queue
// (async compute toggled off).
func asyncSeqFrame(w, h uint32, async, full bool) *aliasplan.Graph {
	g := replayableAsync(w, h)
	if !full {
		for i := range g.Resources {
			if strings.HasPrefix(g.Resources[i].Name, "shadow.cascade") {
				g.Resources[i].Image.Width, g.Resources[i].Image.Height = 256, 256
			}
		}
	}
	if !async {
		g = oneQueue(g)
	}
	return g
}

// TestFrameQueueSequence plans a multi-queue frame sequence through one
// aliasplan.Frames (the async sample frame at varying sizes, async
// compute toggled off and on), binds each frame into the held
// allocations and submits every frame's batches back to back on the
// device's queues, ordered across frames only by the plans' entry
// barriers and frame waits, under submit-time synchronization
// validation: no message, digests equal to each frame's unaliased run.
// The negative control drops one frame's frame waits: the layer must
// report a hazard. ALIASPLAN_SEQUENCE_WIDTH scales the frames (160 here;
// 1920 with full-size shadow cascades on the H200: scripts/h200-frames.sh).
func TestFrameQueueSequence(t *testing.T) {
	t.Setenv("VK_LAYER_ENABLES", queueSubmitSync)
	d := openDevice(t)
	type fr struct {
		pct   uint32
		async bool
	}
	seq := []fr{{100, true}, {90, true}, {100, false}, {80, true}}
	w0, full := uint32(160), false
	if v, err := strconv.Atoi(os.Getenv("ALIASPLAN_SEQUENCE_WIDTH")); err == nil && v >= 16 {
		w0, full = uint32(v), v >= 1280
		seq = append(seq, fr{70, true}, fr{100, true})
	}
	src := &frameSource{}
	frames := aliasplan.NewFrames(aliasplan.Options{Source: src, MaxPoolSize: d.Info().MaxMemoryAllocationSize}, aliasplan.FrameOptions{})
	held := d.NewHeld()
	t.Cleanup(held.Close)
	var sf []SequenceFrame
	var base []*Run
	var paths []string
	var frees []int
	waits := 0
	for i, f := range seq {
		w := w0 * f.pct / 100
		g := asyncSeqFrame(w, w*9/16, f.async, full)
		rep, err := New(d, &g.Graph)
		if err != nil {
			t.Fatalf("frame %d: replay.New: %v", i+1, err)
		}
		t.Cleanup(rep.Close)
		src.cur = rep.Source()
		fp, err := frames.Plan(g)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		paths = append(paths, fp.Path)
		waits += len(fp.FrameWaits)
		for _, h := range fp.Held {
			switch h.State {
			case aliasplan.PoolNew:
				if err := held.Allocate(h.ID, h.MemoryTypeIndex, h.Size); err != nil {
					t.Fatal(err)
				}
			case aliasplan.PoolFree:
				frees = append(frees, h.ID)
			}
		}
		mem := make([]vk.DeviceMemory, len(fp.Pools))
		for k := range fp.Pools {
			mem[k] = held.Memory(fp.Held[fp.PoolOf[k]].ID)
		}
		un, err := Unaliased(&g.Graph, fp.Plan)
		if err != nil {
			t.Fatal(err)
		}
		u, msgs, err := rep.RunQueuesOnce(un)
		if err != nil {
			t.Fatalf("frame %d unaliased: %v", i+1, err)
		}
		rest, _ := SplitQuirks(msgs)
		for _, m := range rest {
			t.Errorf("frame %d unaliased: validation: %s", i+1, m)
		}
		base = append(base, u)
		sf = append(sf, SequenceFrame{Replayer: rep, Plan: fp.Plan, Memory: mem})
	}
	t.Logf("on %s: paths %v, %d frame waits, %d held", d.QueueSummary(), paths, waits, held.Len())
	if waits == 0 {
		t.Fatalf("no frame waits: the sequence did not cross queues")
	}
	runs, msgs, err := RunQueueSequence(sf)
	if err != nil {
		t.Fatal(err)
	}
	rest, quirks := SplitQuirks(msgs)
	for _, m := range rest {
		t.Errorf("sequence: validation: %s", m)
	}
	if len(quirks) > 0 {
		t.Logf("layer quirks: %v", quirks)
	}
	for i := range sf {
		for _, dd := range sf[i].Replayer.Diff(runs[i], base[i]) {
			t.Errorf("frame %d: differs from its unaliased run: %s", i+1, dd)
		}
	}
	// Negative control: the last frame without its frame waits. Where
	// compute shares the graphics VkQueue (lavapipe), every batch runs in
	// submission order on it and the entry barrier orders the frames
	// without them, so the control there also drops the entry barrier
	// (it shows submit-time validation on; the cross-queue control runs
	// where the queues are distinct: the H200).
	k := len(sf) - 1
	ctl := slices.Clone(sf)
	q := *ctl[k].Plan
	q.FrameWaits = nil
	shared := d.Queues()[p.QueueCompute].Shared
	if shared {
		q.Entry = nil
	}
	ctl[k].Plan = &q
	_, msgs, err = RunQueueSequence(ctl)
	if err != nil {
		t.Fatal(err)
	}
	rest, _ = SplitQuirks(msgs)
	hazards := 0
	for _, m := range rest {
		if strings.HasPrefix(m.ID, "SYNC-HAZARD") {
			hazards++
			if hazards == 1 {
				t.Logf("first: %.400s", m)
			}
		}
	}
	t.Logf("negative control (frame %d without its %d frame waits, compute on the graphics VkQueue %v, entry barrier dropped too: %v): %d hazards of %d messages",
		k+1, len(sf[k].Plan.FrameWaits), shared, shared, hazards, len(msgs))
	if hazards == 0 {
		t.Errorf("negative control: frame %d without its frame waits raised no hazard", k+1)
	}
	for _, id := range frees {
		held.Free(id)
	}
}
