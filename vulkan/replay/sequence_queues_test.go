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
	avk "github.com/aliasplan/aliasplan/vk"
)

// asyncSeqFrame is the replayable async sample frame at w×h (256² shadow
// cascades unless full) with an async compute tail (asyncTail), or, with
// !async, the same frame on one queue (async compute toggled off).
func asyncSeqFrame(w, h uint32, async, full bool) *aliasplan.Graph {
	g := asyncTail(replayableAsync(w, h))
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

// asyncTail adds to the async frame g a compute-queue tail that nothing
// on graphics waits for within the frame: a luminance downsample of the
// TAA output into a transient image (at half resolution) and a pass that
// reads it (an analysis whose result the next frames would use). It
// overlaps the frame's last graphics work (tonemap) and, submitted back
// to back, the next frame's first graphics batch: there the frame wait
// "graphics after compute" is the only thing that orders the next
// frame's first writes of pooled bytes after the tail's uses of them.
// Without a tail (the plain async frame) every queue's last work is
// already ordered before the next frame through the frame's own
// semaphores (graphics' last batch waits for compute's last), and the
// frame waits are redundant.
func asyncTail(g *aliasplan.Graph) *aliasplan.Graph {
	taa, _ := g.ResourceByName("taa.output")
	im := g.Resources[taa].Image
	luma := g.AddImage("luma.half", aliasplan.ImageDesc{Format: avk.FormatR16G16B16A16Sfloat, Width: max(1, im.Width/2), Height: max(1, im.Height/2),
		Usage: avk.ImageUsageStorage | avk.ImageUsageSampled})
	g.AddCommand("luma.downsample", g.Sampled(taa, avk.StageComputeShader), g.WriteImage(luma, avk.StageComputeShader))
	g.AddCommand("luma.analyze", g.ReadImage(luma, avk.StageComputeShader))
	for _, name := range []string{"luma.downsample", "luma.analyze"} {
		c, _ := g.CommandByName(name)
		g.Commands[c].Queue = p.QueueCompute
	}
	return g
}

// unorderedReuse lists the pairs of pooled resources (prev's, next's)
// that share bytes of one held allocation where prev's resource is used
// by a batch on a queue other than graphics that no later batch of prev
// signals from (so nothing in prev orders it before prev's graphics work,
// and so before next's entry barrier), and next's resource by next's
// first graphics batch: reuse that only the frame waits order, so the
// negative control can fail.
func unorderedReuse(prev, next *aliasplan.FramePlan, pg, ng *p.Graph) []string {
	type bytes struct {
		held     int
		lo, hi   uint64
		resource p.ResourceID
	}
	touched := func(fp *aliasplan.FramePlan, batches []p.Submission, g *p.Graph) []bytes {
		var out []bytes
		for _, s := range batches {
			for _, c := range s.Commands {
				for _, a := range g.Commands[c].Accesses {
					rp := &fp.Resources[a.Resource]
					if rp.Status != p.StatusPooled {
						continue
					}
					pl := rp.Placement
					out = append(out, bytes{held: fp.Held[fp.PoolOf[pl.Pool]].ID, lo: pl.Offset, hi: pl.Offset + rp.Requirements.Size, resource: a.Resource})
				}
			}
		}
		return out
	}
	var tail []p.Submission
	last := map[p.Queue]int{}
	for i, s := range prev.Submissions {
		if len(s.Signal) > 0 {
			last[s.Queue] = i
		}
	}
	for i, s := range prev.Submissions {
		if j, ok := last[s.Queue]; s.Queue != p.QueueGraphics && (!ok || i > j) {
			tail = append(tail, s)
		}
	}
	head := []p.Submission{{Queue: p.QueueGraphics, Commands: next.Order}} // one queue: one batch
	if len(next.Submissions) > 0 {
		head = nil
		if i := slices.IndexFunc(next.Submissions, func(s p.Submission) bool { return s.Queue == p.QueueGraphics }); i >= 0 {
			head = next.Submissions[i : i+1]
		}
	}
	var out []string
	for _, x := range touched(prev, tail, pg) {
		for _, y := range touched(next, head, ng) {
			if x.held == y.held && x.lo < y.hi && y.lo < x.hi {
				out = append(out, pg.Resources[x.resource].Name+"/"+ng.Resources[y.resource].Name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// queueFrame is one frame of TestFrameQueueSequence: its width in
// percent of the first frame's, and whether it uses async compute.
type queueFrame struct {
	pct   uint32
	async bool
}

// queueSeq is TestFrameQueueSequence's sequence; long adds the H200's
// two frames. Async compute is off in the second frame; the last two
// frames use both queues (the negative control needs the compute tail
// in the frame before the last).
func queueSeq(long bool) []queueFrame {
	seq := []queueFrame{{100, true}, {100, false}, {90, true}, {80, true}}
	if long {
		seq = append(seq, queueFrame{70, true}, queueFrame{100, true})
	}
	return seq
}

// TestQueueSequenceShape plans TestFrameQueueSequence's sequences with
// the H200 profile (no device) at the widths scripts/h200-frames.sh runs:
// in each, the frame before the last leaves pooled bytes that only the
// frame waits order before the last frame's first graphics batch, so the
// H200's negative control can fail (the device test checks the same on
// the device's plans).
func TestQueueSequenceShape(t *testing.T) {
	for _, w0 := range []uint32{160, 640, 1920, 3840} {
		f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
		var fps []*aliasplan.FramePlan
		var gs []*p.Graph
		for _, fr := range queueSeq(true) {
			w := w0 * fr.pct / 100
			g := asyncSeqFrame(w, w*9/16, fr.async, w0 >= 1280)
			fp, err := f.Plan(g)
			if err != nil {
				t.Fatalf("width %d: %v", w0, err)
			}
			fps, gs = append(fps, fp), append(gs, &g.Graph)
		}
		k := len(fps) - 1
		reuse := unorderedReuse(fps[k-1], fps[k], gs[k-1], gs[k])
		if len(reuse) == 0 {
			t.Errorf("width %d: frames %d and %d share no bytes that only the frame waits order", w0, k, k+1)
		}
		t.Logf("width %d: frame waits of the last frame %v; bytes only they order: %v", w0, fps[k].FrameWaits, reuse)
	}
}

// TestFrameQueueSequence plans a multi-queue frame sequence through one
// aliasplan.Frames (the async sample frame with a compute tail at varying
// sizes, async compute toggled off and on), binds each frame into the held
// allocations and submits every frame's batches back to back on the
// device's queues, ordered across frames only by the plans' entry
// barriers and frame waits, under submit-time synchronization
// validation: no message, digests equal to each frame's unaliased run.
// The negative control drops the last frame's frame waits: the layer
// must report a hazard (where the queues are distinct, the H200: the
// frame before it ends with compute work nothing waits for, whose pooled
// bytes the last frame's first graphics batch reuses, which the test
// checks on the plans). ALIASPLAN_SEQUENCE_WIDTH scales the frames (160 here;
// 1920 with full-size shadow cascades on the H200: scripts/h200-frames.sh).
func TestFrameQueueSequence(t *testing.T) {
	t.Setenv("VK_LAYER_ENABLES", queueSubmitSync)
	d := openDevice(t)
	w0, full, long := uint32(160), false, false
	if v, err := strconv.Atoi(os.Getenv("ALIASPLAN_SEQUENCE_WIDTH")); err == nil && v >= 16 {
		w0, full, long = uint32(v), v >= 1280, true
	}
	seq := queueSeq(long)
	src := &frameSource{}
	frames := aliasplan.NewFrames(aliasplan.Options{Source: src, MaxPoolSize: d.Info().MaxMemoryAllocationSize}, aliasplan.FrameOptions{})
	held := d.NewHeld()
	t.Cleanup(held.Close)
	var sf []SequenceFrame
	var fps []*aliasplan.FramePlan
	var gs []*p.Graph
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
		fps, gs = append(fps, fp), append(gs, &g.Graph)
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
	// The control below drops the last frame's frame waits: it can fail
	// only if the frame before it has pooled bytes used on compute with
	// nothing in that frame ordering them before graphics, which the last
	// frame's first graphics batch reuses.
	k := len(sf) - 1
	reuse := unorderedReuse(fps[k-1], fps[k], gs[k-1], gs[k])
	if len(reuse) == 0 {
		t.Fatalf("frames %d and %d: no pooled bytes of an unwaited compute batch reused by the next frame's first graphics batch: the negative control could not fail", k, k+1)
	}
	t.Logf("frames %d -> %d: bytes only the frame waits order (tail/head): %v", k, k+1, reuse)
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
