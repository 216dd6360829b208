package replay

import (
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// The batches of random queue graph 3 (the H200 run that showed the
// quirk): transfer's batch 6 waits only on graphics' batch 3, which
// graphics' batch 5 and compute's batch 4 follow.
func graph3Batches() []p.Submission {
	op := func(s int) []p.SemaphoreOp { return []p.SemaphoreOp{{Semaphore: s}} }
	return []p.Submission{
		{Queue: p.QueueGraphics, Signal: op(0)},
		{Queue: p.QueueCompute, Wait: op(0), Signal: append(op(1), op(2)...)},
		{Queue: p.QueueTransfer, Wait: op(1), Signal: op(3)},
		{Queue: p.QueueGraphics, Wait: append(op(2), op(3)...), Signal: append(op(4), op(6)...)},
		{Queue: p.QueueCompute, Wait: op(4), Signal: op(5)},
		{Queue: p.QueueGraphics, Wait: op(5)},
		{Queue: p.QueueTransfer, Wait: op(6)},
	}
}

func TestBatchOrder(t *testing.T) {
	q := &qmode{subs: graph3Batches()}
	_, before := q.batchOrder()
	for _, c := range []struct {
		x, z int
		want bool
	}{{3, 6, true}, {0, 6, true}, {2, 6, true}, {1, 6, true}, {4, 6, false}, {5, 6, false}, {6, 5, false}, {3, 5, true}, {2, 4, true}, {4, 3, false}} {
		if before[c.x][c.z] != c.want {
			t.Errorf("batch %d before batch %d: %v, want %v", c.x, c.z, before[c.x][c.z], c.want)
		}
	}
	// Without semaphores only each queue's own order remains.
	for i := range q.subs {
		q.subs[i].Wait, q.subs[i].Signal = nil, nil
	}
	_, before = q.batchOrder()
	if before[3][6] || !before[3][5] || !before[2][6] {
		t.Errorf("without semaphores: 3→6 %v, 3→5 %v, 2→6 %v; want false, true, true", before[3][6], before[3][5], before[2][6])
	}
}

func TestAsyncQuirk(t *testing.T) {
	q := &qmode{subs: graph3Batches()}
	_, before := q.batchOrder()
	of := map[string]int{"0x7fc6b85920c0": 6, "0x7fc710aa0000": 3, "0x7fc710bb0000": 5}
	// The H200 message (shortened), prior access in batch 3.
	text := func(prior string) string {
		return "Validation Error: [ SYNC-HAZARD-WRITE-RACING-WRITE ] Object 0: handle = 0x2b931860, type = VK_OBJECT_TYPE_QUEUE; | MessageID = 0x743c6069 | " +
			"vkQueueSubmit2: Hazard WRITE_RACING_WRITE for entry 0, VkCommandBuffer 0x7fc6b85920c0[], Recorded access info (recorded_usage: SYNC_COPY_TRANSFER_WRITE, command: vkCmdCopyBuffer, seq_no: 1, reset_no: 1). " +
			"Access info (prior_usage: SYNC_COPY_TRANSFER_WRITE, write_barriers: 0, queue: VkQueue 0x2c3ad410[], submit: 49, batch: 0, batch_tag: 345, command: vkCmdCopyBuffer, seq_no: 1, command_buffer: VkCommandBuffer " + prior + "[], reset_no: 1)."
	}
	for _, c := range []struct {
		name string
		m    vulkan.Message
		want bool
	}{
		{"prior in batch 3, waited through semaphore 6", vulkan.Message{ID: "SYNC-HAZARD-WRITE-RACING-WRITE", Text: text("0x7fc710aa0000")}, true},
		{"prior in batch 5, not waited", vulkan.Message{ID: "SYNC-HAZARD-WRITE-RACING-WRITE", Text: text("0x7fc710bb0000")}, false},
		{"prior outside the plan's batches", vulkan.Message{ID: "SYNC-HAZARD-WRITE-RACING-WRITE", Text: text("0x7fc710cc0000")}, false},
		{"not a racing hazard", vulkan.Message{ID: "SYNC-HAZARD-WRITE-AFTER-WRITE", Text: text("0x7fc710aa0000")}, false},
	} {
		if got := AsyncQuirk(c.m, of, before); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
