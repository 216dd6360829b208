package replay

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vulkan"
)

// The multi-queue replay tests: the planner's submissions (barriers.Build
// fills them for graphs on several queues); submit-time synchronization
// validation on (hazards across submissions and queues).

func queueSubmit(t testing.TB) {
	if os.Getenv("VK_LAYER_ENABLES") == "" {
		t.Setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT")
	}
}

// compareQueues plans g, fills its submissions and replays it on the
// device's queues; it fails on any difference or message.
func compareQueues(t testing.TB, d *vulkan.Device, g *p.Graph, runs int) *QueueReport {
	t.Helper()
	r, plan := prepare(t, d, g)
	rep, err := r.CompareQueues(plan, Config{Runs: runs})
	if err != nil {
		t.Fatalf("CompareQueues: %v", err)
	}
	for _, m := range rep.Mismatches {
		t.Errorf("mismatch: %s", m)
	}
	for _, m := range rep.Messages {
		t.Errorf("validation: %s", m)
	}
	if rep.ValidationMessages != 0 && len(rep.Messages) == 0 {
		t.Errorf("%d validation messages", rep.ValidationMessages)
	}
	return rep
}

// replayableAsync is aliasplan.AsyncSampleFrame with its particle
// simulation writing the particles first (the replay compares runs, so
// no transient may be read before the frame writes it).
func replayableAsync(w, h uint32) *aliasplan.Graph {
	g := aliasplan.AsyncSampleFrame(w, h)
	sim, _ := g.CommandByName("particles.simulate")
	particles, _ := g.ResourceByName("particles")
	for i := range g.Commands[sim].Accesses {
		if a := &g.Commands[sim].Accesses[i]; a.Resource == particles {
			a.Access = vk.AccessShaderStorageWrite
		}
	}
	return g
}

// oneQueue is g with every command on graphics.
func oneQueue(g *aliasplan.Graph) *aliasplan.Graph {
	o := &aliasplan.Graph{Graph: g.Graph}
	o.Commands = slices.Clone(g.Commands)
	for i := range o.Commands {
		o.Commands[i].Queue = p.QueueGraphics
	}
	return o
}

// TestAsyncSampleFrame replays the async sample frame on the device's
// queues: digests equal, 0 messages. With ALIASPLAN_ASYNC_FRAME=WxH (the
// H200 script: 1920x1080) it also replays the same frame planned on one
// queue, demands equal digests across the two and logs the table (GPU
// time, pooled bytes, batches, semaphores, barriers); ALIASPLAN_ASYNC_RUNS
// sets the timed runs (default 1). Without it (make test, lavapipe) the
// frame is 160x90 with 256² shadow cascades and only the async plan runs.
func TestAsyncSampleFrame(t *testing.T) {
	queueSubmit(t)
	w, h, runs := uint32(160), uint32(90), 1
	s := os.Getenv("ALIASPLAN_ASYNC_FRAME")
	both := s != ""
	if both {
		if _, err := fmt.Sscanf(s, "%dx%d", &w, &h); err != nil {
			t.Fatalf("ALIASPLAN_ASYNC_FRAME=%q: %v", s, err)
		}
	}
	if s := os.Getenv("ALIASPLAN_ASYNC_RUNS"); s != "" {
		var err error
		if runs, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ALIASPLAN_ASYNC_RUNS=%q: %v", s, err)
		}
	}
	d := openDevice(t)
	g := replayableAsync(w, h)
	if !both {
		// make test: the same frame with 256² shadow cascades (lavapipe
		// spends most of a frame on the 2048² ones).
		for i := range g.Resources {
			if strings.HasPrefix(g.Resources[i].Name, "shadow.cascade") {
				g.Resources[i].Image.Width, g.Resources[i].Image.Height = 256, 256
			}
		}
	}
	rep := compareQueues(t, d, &g.Graph, runs)
	t.Logf("async sample %dx%d on %s", w, h, rep.Queues)
	t.Logf("  async:     GPU ns %d (unaliased %d), pooled %d B, %d batches, %d semaphores, %d alias + %d hazard barriers, busy ns %v, layer quirks %v",
		rep.GPUNsAliased, rep.GPUNsUnaliased, rep.PooledBytes, rep.Batches, rep.Semaphores, rep.AliasBarriers, rep.HazardBarriers, rep.BusyNs, rep.LayerQuirks)
	if rep.Batches < 3 || rep.Semaphores < 2 {
		t.Errorf("%d batches, %d semaphores: the frame did not cross queues", rep.Batches, rep.Semaphores)
	}
	if !slices.ContainsFunc(rep.Digests, func(d CommandDigest) bool { return d.Digest != 0 }) {
		t.Errorf("no command recorded a digest")
	}
	if !both {
		return
	}
	one := compare(t, d, &oneQueue(g).Graph, runs)
	t.Logf("  one queue: GPU ns %d (unaliased %d), pooled %d B, 1 batch, 0 semaphores, %d alias + %d hazard barriers, layer quirks %v",
		one.GPUNsAliased, one.GPUNsUnaliased, one.PooledBytes, one.AliasBarriers, one.HazardBarriers, one.LayerQuirks)
	if one.PooledBytes > 0 {
		t.Logf("  async/one queue: GPU time %.3f, pooled bytes %.3f", float64(rep.GPUNsAliased)/float64(max(one.GPUNsAliased, 1)), float64(rep.PooledBytes)/float64(one.PooledBytes))
	}
	want := map[string]uint64{}
	for _, dg := range one.Digests {
		want[dg.Command] = dg.Digest
	}
	for _, dg := range rep.Digests {
		if dg.Digest != want[dg.Command] {
			t.Errorf("command %q: digest %016x async, %016x on one queue", dg.Command, dg.Digest, want[dg.Command])
		}
	}
}

// TestRandomQueues replays random graphs with commands on compute and
// transfer (proptest.AssignQueues): digests equal to the unaliased run,
// 0 messages. ALIASPLAN_QUEUE_GRAPHS sets how many (default 4; the H200
// script runs 100).
func TestRandomQueues(t *testing.T) {
	queueSubmit(t)
	n := 4
	if s := os.Getenv("ALIASPLAN_QUEUE_GRAPHS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ALIASPLAN_QUEUE_GRAPHS=%q: %v", s, err)
		}
	}
	d := openDevice(t)
	crossing := 0
	quirks := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		// One subtest per seed: its replayer is closed when it ends (the
		// validation layer's state for 100 live replayers ran the H200's
		// test process out of memory).
		ok := t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			g := randomGraph(seed)
			proptest.AssignQueues(g, seed) // CanRunOn keeps depth/stencil clears and copies on graphics
			rep := compareQueues(t, d, g, 1)
			if rep.Semaphores > 0 {
				crossing++
			}
			for q, k := range rep.LayerQuirks {
				quirks[q] += k
			}
			if t.Failed() {
				t.Logf("seed %d: %d batches, %d semaphores", seed, rep.Batches, rep.Semaphores)
			}
		})
		if !ok {
			t.FailNow()
		}
	}
	t.Logf("%d random graphs on %s, %d of them across queues; layer quirks %v", n, d.QueueSummary(), crossing, quirks)
	if crossing == 0 {
		t.Errorf("no random graph crossed queues")
	}
}

// TestQueueMisuseRejected: a draw on the compute queue is refused before
// anything is recorded, and so is a multi-queue plan given to Compare.
func TestQueueMisuseRejected(t *testing.T) {
	d := openDevice(t)
	g := replayableAsync(64, 36)
	r, plan := prepare(t, d, &g.Graph)
	// One command buffer of a multi-queue plan lacks its cross-queue
	// barriers: Compare refuses it.
	if _, err := r.Compare(plan, Config{}); err == nil {
		t.Error("Compare accepted a plan with submissions")
	}
	gb, _ := g.CommandByName("gbuffer")
	for k := range plan.Submissions {
		if slices.Contains(plan.Submissions[k].Commands, gb) {
			plan.Submissions[k].Queue = p.QueueCompute
		}
	}
	if _, err := r.CompareQueues(plan, Config{}); err == nil {
		t.Fatal("CompareQueues accepted a draw on the compute queue")
	} else {
		t.Logf("refused as expected: %v", err)
	}
}
