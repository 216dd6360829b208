package replay

import (
	"os"
	"strconv"
	"strings"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// queueSubmitSync turns on the layer's submit-time synchronization
// validation (hazards across submissions) for the devices opened after
// it: the layer reads VK_LAYER_ENABLES at instance creation.
const queueSubmitSync = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT"

// frameSource answers requirements for the frame being planned: a Frames
// plans graphs of several Replayers, each with its own Resources.
type frameSource struct{ cur *vulkan.Resources }

func (s *frameSource) Describe() string            { return s.cur.Describe() }
func (s *frameSource) MemoryTypes() []p.MemoryType { return s.cur.MemoryTypes() }
func (s *frameSource) Limits() p.Limits            { return s.cur.Limits() }
func (s *frameSource) Requirements(r *p.Resource) (p.Requirements, error) {
	return s.cur.Requirements(r)
}

// ssrFrame is the sample frame at w×h with, when ssr, a screen-space
// reflection pass (trace at half resolution, resolve, a debug read).
func ssrFrame(w, h uint32, ssr bool) *aliasplan.Graph {
	g := aliasplan.SampleFrame(w, h)
	if !ssr {
		return g
	}
	depth, _ := g.ResourceByName("depth")
	normal, _ := g.ResourceByName("gbuffer.normal")
	trace := g.AddImage("ssr.trace", aliasplan.ImageDesc{Format: avk.FormatR16G16B16A16Sfloat, Width: w / 2, Height: h / 2,
		Usage: avk.ImageUsageStorage | avk.ImageUsageSampled})
	resolved := g.AddImage("ssr.resolved", aliasplan.ImageDesc{Format: avk.FormatR16G16B16A16Sfloat, Width: w, Height: h,
		Usage: avk.ImageUsageStorage | avk.ImageUsageSampled})
	g.AddCommand("ssr.trace", g.Sampled(depth, avk.StageComputeShader), g.Sampled(normal, avk.StageComputeShader),
		g.WriteImage(trace, avk.StageComputeShader))
	g.AddCommand("ssr.resolve", g.Sampled(trace, avk.StageComputeShader), g.WriteImage(resolved, avk.StageComputeShader))
	g.AddCommand("ssr.debug", g.ReadImage(resolved, avk.StageComputeShader))
	return g
}

type seqFrame struct {
	w, h uint32
	ssr  bool
}

// TestFrameSequence plans a sequence of frames through one
// aliasplan.Frames (resolution changes below and above the held maximum,
// SSR toggled), binds each frame's own objects into the held allocations,
// and submits the frames back to back with no wait between them, under
// submit-time synchronization validation: no message, and every frame's
// digests equal its unaliased run's. The negative control replays the
// same sequence with one frame's entry barrier removed: the layer must
// report a hazard across the submissions.
func TestFrameSequence(t *testing.T) {
	t.Setenv("VK_LAYER_ENABLES", queueSubmitSync)
	d := openDevice(t)
	// Resolution below the held maximum (resized), SSR off (another
	// structure); with ALIASPLAN_SEQUENCE_FULL=1 (about 20 s more a frame
	// under -race on lavapipe) also SSR back on at a larger size (planned
	// afresh; at these sizes the fixed shadow maps dominate, so it fits
	// the held allocations' headroom) and a smaller frame without it.
	seq := []seqFrame{{64, 40, true}, {56, 36, true}, {64, 40, false}}
	if os.Getenv("ALIASPLAN_SEQUENCE_FULL") == "1" {
		seq = append(seq, seqFrame{96, 60, true}, seqFrame{48, 32, false})
	}
	// ALIASPLAN_SEQUENCE_WIDTH scales the frames (the first frame's width;
	// 64 here, 1920 on the H200: scripts/h200-frames.sh).
	if v, err := strconv.Atoi(os.Getenv("ALIASPLAN_SEQUENCE_WIDTH")); err == nil && v >= 16 {
		for i := range seq {
			seq[i].w, seq[i].h = seq[i].w*uint32(v)/64, seq[i].h*uint32(v)/64
		}
	}
	src := &frameSource{}
	frames := aliasplan.NewFrames(aliasplan.Options{Source: src, MaxPoolSize: d.Info().MaxMemoryAllocationSize}, aliasplan.FrameOptions{})
	held := d.NewHeld()
	t.Cleanup(held.Close)
	var sf []SequenceFrame
	var base []*Run
	var paths []string
	var frees []int
	allocs := 0
	for i, f := range seq {
		g := ssrFrame(f.w, f.h, f.ssr)
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
		for _, h := range fp.Held {
			switch h.State {
			case aliasplan.PoolNew:
				allocs++
				if err := held.Allocate(h.ID, h.MemoryTypeIndex, h.Size); err != nil {
					t.Fatal(err)
				}
			case aliasplan.PoolFree:
				frees = append(frees, h.ID) // after the sequence: every frame is bound before any runs
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
		u, msgs, err := rep.RunPlan(un, 1, true)
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
	t.Logf("paths %v, %d allocations, %d held, %d to free after", paths, allocs, held.Len(), len(frees))
	runs, msgs, err := RunSequence(sf)
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

	// Negative control: frame k without its entry barrier.
	for _, k := range []int{2} {
		ctl := append([]SequenceFrame(nil), sf...)
		q := *ctl[k].Plan
		q.Entry = nil
		ctl[k].Plan = &q
		_, msgs, err := RunSequence(ctl)
		if err != nil {
			t.Fatal(err)
		}
		rest, _ := SplitQuirks(msgs)
		hazards := 0
		for _, m := range rest {
			if strings.HasPrefix(m.ID, "SYNC-HAZARD") && strings.Contains(m.Text, "vkQueueSubmit: Hazard") {
				hazards++
				if hazards == 1 {
					t.Logf("first: %.400s", m)
				}
			}
		}
		t.Logf("negative control (frame %d without its entry barrier): %d hazards across submissions of %d messages", k+1, hazards, len(msgs))
		if hazards == 0 {
			t.Errorf("negative control: frame %d without its entry barrier raised no hazard: submit-time synchronization validation is not on (VK_LAYER_ENABLES=%s)", k+1, os.Getenv("VK_LAYER_ENABLES"))
		}
	}
	for _, id := range frees {
		held.Free(id)
	}
}
