package replay

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vulkan"
)

// compareSharing plans g with the given sharing (planner and vulkan side
// alike), replays it on the device's queues and fails on any difference
// or message; it returns the report and the plan.
func compareSharing(t testing.TB, d *vulkan.Device, g *p.Graph, runs int, sharing p.Sharing) (*QueueReport, *p.Plan) {
	t.Helper()
	r, err := New(d, g)
	if err != nil {
		t.Fatalf("replay.New: %v", err)
	}
	t.Cleanup(r.Close)
	vs := vulkan.SharingConcurrent
	if sharing == p.SharingExclusive {
		vs = vulkan.SharingExclusive
	}
	if err := r.Source().SetSharing(vs); err != nil {
		t.Fatal(err)
	}
	pl := aliasplan.New(aliasplan.Options{Source: r.Source(), MaxPoolSize: d.Info().MaxMemoryAllocationSize, Sharing: sharing})
	c, plan, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if err := verify.Plan(c, plan); err != nil {
		t.Fatalf("verify: %v", err)
	}
	rep, err := r.CompareQueues(plan, Config{Runs: runs})
	if err != nil {
		t.Fatalf("CompareQueues (%s): %v", sharing, err)
	}
	for _, m := range rep.Mismatches {
		t.Errorf("%s: mismatch: %s", sharing, m)
	}
	for _, m := range rep.Messages {
		t.Errorf("%s: validation: %s", sharing, m)
	}
	if rep.ValidationMessages != 0 && len(rep.Messages) == 0 {
		t.Errorf("%s: %d validation messages", sharing, rep.ValidationMessages)
	}
	return rep, plan
}

// TestExclusiveSharing replays the async sample frame and random queue
// graphs with exclusive sharing (EXCLUSIVE resources, release/acquire
// pairs recorded): digests equal, 0 messages. On a device whose logical
// queues share one family (lavapipe) the pairs degenerate into plain
// barriers with VK_QUEUE_FAMILY_IGNORED and old == new layout: this shows
// they record and break nothing, not that a real transfer is right (that
// needs two families: the H200, scripts/h200-queues.sh). With
// ALIASPLAN_ASYNC_FRAME=WxH it replays the frame at that size with both
// sharings and logs their GPU times (the H200 comparison).
func TestExclusiveSharing(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	w, h, runs := uint32(160), uint32(90), 1
	s := os.Getenv("ALIASPLAN_ASYNC_FRAME")
	full := s != ""
	if full {
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
	g := replayableAsync(w, h)
	if !full {
		for i := range g.Resources {
			if strings.HasPrefix(g.Resources[i].Name, "shadow.cascade") {
				g.Resources[i].Image.Width, g.Resources[i].Image.Height = 256, 256
			}
		}
	}
	families := len(d.Families())
	rep, plan := compareSharing(t, d, &g.Graph, runs, p.SharingExclusive)
	if len(plan.Transfers) == 0 {
		t.Fatalf("the async frame's exclusive plan has no ownership transfers")
	}
	t.Logf("async sample %dx%d on %s (%d families%s): exclusive: %d transfers, GPU ns %d, pooled %d B, %d batches, %d semaphores",
		w, h, d.QueueSummary(), families, map[bool]string{true: ": the pairs degenerate", false: ""}[families < 2],
		len(plan.Transfers), rep.GPUNsAliased, rep.PooledBytes, rep.Batches, rep.Semaphores)
	if full {
		crep, _ := compareSharing(t, d, &g.Graph, runs, p.SharingConcurrent)
		t.Logf("  concurrent: GPU ns %d, pooled %d B; exclusive/concurrent GPU time %.3f",
			crep.GPUNsAliased, crep.PooledBytes, float64(rep.GPUNsAliased)/float64(max(crep.GPUNsAliased, 1)))
	}
	n := 4
	if s := os.Getenv("ALIASPLAN_QUEUE_GRAPHS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ALIASPLAN_QUEUE_GRAPHS=%q: %v", s, err)
		}
	}
	transfers := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		ok := t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) { // its replayer closed when it ends
			rg := randomGraph(seed)
			proptest.AssignQueues(rg, seed)
			_, rp := compareSharing(t, d, rg, 1, p.SharingExclusive)
			transfers += len(rp.Transfers)
			if t.Failed() {
				t.Logf("seed %d: %d transfers", seed, len(rp.Transfers))
			}
		})
		if !ok {
			t.FailNow()
		}
	}
	t.Logf("%d random graphs with exclusive sharing: %d transfers", n, transfers)
	if transfers == 0 {
		t.Errorf("no random graph handed contents over")
	}
}
