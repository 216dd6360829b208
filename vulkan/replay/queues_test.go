package replay

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/internal/stubsubmit"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// The multi-queue replay tests: submissions from internal/stubsubmit (a
// conservative builder) until the planner fills them; submit-time
// synchronization validation on (hazards across submissions and queues).

func queueSubmit(t testing.TB) {
	if os.Getenv("VK_LAYER_ENABLES") == "" {
		t.Setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT")
	}
}

// asyncSampleFrame is the sample frame with its compute passes that run
// beside raster work in engines on the compute queue: the
// hierarchical-Z build, SSAO and its blur, light culling, the shadow-mask
// resolve. Shadows, depth prepass, G-buffer and the rest stay on
// graphics.
func asyncSampleFrame(w, h uint32) *aliasplan.Graph {
	g := aliasplan.SampleFrame(w, h)
	for i := range g.Commands {
		switch g.Commands[i].Name {
		case "hiz.build", "ssao", "ssao.blur", "lights.cull", "shadow.resolve":
			g.Commands[i].Queue = p.QueueCompute
		}
	}
	return g
}

// asyncEligible: a command the compute (or, copies and clears only, the
// transfer) queue may run: no graphics stage, blit or resolve, and no
// depth/stencil image (their clears and copies need a graphics queue).
func asyncEligible(g *p.Graph, c p.CommandID, allowed vk.Stage) bool {
	for _, a := range g.Commands[c].Accesses {
		if a.Stages&^allowed != 0 {
			return false
		}
		if r := &g.Resources[a.Resource]; r.Kind == p.KindImage && r.Image.Format.IsDepthStencil() {
			return false
		}
	}
	return true
}

// withQueues moves random eligible commands of g onto compute and
// transfer.
func withQueues(g *p.Graph, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x51ed))
	for c := range g.Commands {
		switch {
		case asyncEligible(g, p.CommandID(c), vk.StageCopy|vk.StageClear) && rng.IntN(3) == 0:
			g.Commands[c].Queue = p.QueueTransfer
		case asyncEligible(g, p.CommandID(c), vk.StageComputeShader|vk.StageCopy|vk.StageClear) && rng.IntN(2) == 0:
			g.Commands[c].Queue = p.QueueCompute
		}
	}
}

// compareQueues plans g, fills its submissions and replays it on the
// device's queues; it fails on any difference or message.
func compareQueues(t testing.TB, d *vulkan.Device, g *p.Graph, runs int) *QueueReport {
	t.Helper()
	r, plan := prepare(t, d, g)
	stubsubmit.Fill(g, plan)
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

func TestAsyncSampleFrame(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	g := asyncSampleFrame(160, 90)
	rep := compareQueues(t, d, &g.Graph, 1)
	t.Logf("async sample 160x90 on %s: %d batches, %d semaphores, pooled %d B, %d alias + %d hazard barriers; GPU ns async %d (unaliased %d), one queue %d; busy %v; layer quirks %v",
		rep.Queues, rep.Batches, rep.Semaphores, rep.PooledBytes, rep.AliasBarriers, rep.HazardBarriers, rep.GPUNsAliased, rep.GPUNsUnaliased, rep.GPUNsOneQueue, rep.BusyNs, rep.LayerQuirks)
	if rep.Batches < 3 || rep.Semaphores < 2 {
		t.Errorf("%d batches, %d semaphores: the frame did not cross queues", rep.Batches, rep.Semaphores)
	}
	if !slices.ContainsFunc(rep.Digests, func(d CommandDigest) bool { return d.Digest != 0 }) {
		t.Errorf("no command recorded a digest")
	}
}

// TestRandomQueues replays random graphs with commands on compute and
// transfer: digests equal to the unaliased run and to one queue, 0
// messages. ALIASPLAN_QUEUE_GRAPHS sets how many (default 6; the H200
// script runs 100).
func TestRandomQueues(t *testing.T) {
	queueSubmit(t)
	n := 6
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
		g := randomGraph(seed)
		withQueues(g, seed)
		rep := compareQueues(t, d, g, 1)
		if rep.Semaphores > 0 {
			crossing++
		}
		for q, k := range rep.LayerQuirks {
			quirks[q] += k
		}
		if t.Failed() {
			t.Fatalf("seed %d: %d batches, %d semaphores", seed, rep.Batches, rep.Semaphores)
		}
	}
	t.Logf("%d random graphs on %s, %d of them across queues; layer quirks %v", n, d.QueueSummary(), crossing, quirks)
	if crossing == 0 {
		t.Errorf("no random graph crossed queues")
	}
}

// TestQueueMisuseRejected: a draw on the compute queue is refused before
// anything is recorded.
func TestQueueMisuseRejected(t *testing.T) {
	d := openDevice(t)
	g := asyncSampleFrame(64, 36)
	r, plan := prepare(t, d, &g.Graph)
	stubsubmit.Fill(&g.Graph, plan)
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
