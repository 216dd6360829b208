package vulkan

import (
	"os"
	"slices"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
)

const (
	flagsGCT = vk.QueueFlags(vk.QueueGraphicsBit | vk.QueueComputeBit | vk.QueueTransferBit)
	flagsCT  = vk.QueueFlags(vk.QueueComputeBit | vk.QueueTransferBit)
	flagsT   = vk.QueueFlags(vk.QueueTransferBit)
)

func TestChooseQueues(t *testing.T) {
	type want struct{ cf, ci, tf, ti uint32 }
	for _, tc := range []struct {
		name   string
		fams   []familyProps
		want   want
		shared [planner.NumQueues]bool
		counts map[uint32]uint32
	}{
		// The H200 (VULKAN-NOTES): G|C|T ×16, transfer-only ×2, C|T ×8.
		{"h200", []familyProps{{flagsGCT, 16, 64}, {flagsT, 2, 64}, {flagsCT, 8, 64}}, want{2, 0, 2, 1}, [3]bool{}, map[uint32]uint32{0: 1, 2: 2}},
		// lavapipe: one family, one queue.
		{"lavapipe", []familyProps{{flagsGCT, 1, 64}}, want{0, 0, 0, 0}, [3]bool{false, true, true}, map[uint32]uint32{0: 1}},
		{"one family, 4 queues", []familyProps{{flagsGCT, 4, 64}}, want{0, 1, 0, 2}, [3]bool{}, map[uint32]uint32{0: 3}},
		{"compute family of one queue", []familyProps{{flagsGCT, 1, 64}, {flagsCT, 1, 64}}, want{1, 0, 1, 0}, [3]bool{false, false, true}, map[uint32]uint32{0: 1, 1: 1}},
		// A compute family without timestamps is passed over.
		{"compute family without timestamps", []familyProps{{flagsGCT, 2, 64}, {flagsCT, 4, 0}}, want{0, 1, 0, 1}, [3]bool{false, false, true}, map[uint32]uint32{0: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, counts := chooseQueues(tc.fams, 0)
			got := want{qs[planner.QueueCompute].Family, qs[planner.QueueCompute].Index, qs[planner.QueueTransfer].Family, qs[planner.QueueTransfer].Index}
			if got != tc.want {
				t.Errorf("compute %d.%d transfer %d.%d; want %+v", got.cf, got.ci, got.tf, got.ti, tc.want)
			}
			for q := range qs {
				if qs[q].Shared != tc.shared[q] {
					t.Errorf("%s: shared %v, want %v (%s)", planner.Queue(q), qs[q].Shared, tc.shared[q], qs[q].Note)
				}
			}
			if len(counts) != len(tc.counts) {
				t.Errorf("counts %v, want %v", counts, tc.counts)
			}
			for f, n := range tc.counts {
				if counts[f] != n {
					t.Errorf("counts %v, want %v", counts, tc.counts)
				}
			}
		})
	}
}

func TestOwnershipNeutralized(t *testing.T) {
	qs, _ := chooseQueues([]familyProps{{flagsGCT, 16, 64}, {flagsCT, 8, 64}}, 0)
	if o := ownership(qs, planner.QueueGraphics, planner.QueueCompute); !o.Transfer || o.SrcFamily != 0 || o.DstFamily != 1 {
		t.Errorf("graphics→compute across families: %+v, want a transfer 0→1", o)
	}
	if o := ownership(qs, planner.QueueCompute, planner.QueueTransfer); o.Transfer {
		t.Errorf("compute→transfer in one family: %+v, want none", o)
	}
	qs, _ = chooseQueues([]familyProps{{flagsGCT, 1, 64}}, 0)
	if o := ownership(qs, planner.QueueGraphics, planner.QueueCompute); o.Transfer {
		t.Errorf("lavapipe: %+v, want none", o)
	}
}

// queueScenario is bufferScenario with its middle commands on the compute
// queue: two cross-queue edges each way and a cross-queue alias (b
// reuses a's bytes, a last used on compute, b first written there too,
// then read on graphics).
func queueScenario() scenario { return onCompute("split.a", "make.b") }

// onCompute is bufferScenario with the named commands on compute.
func onCompute(names ...string) scenario {
	sc := bufferScenario
	base := sc.graph
	sc.name = "buffer-buffer-async"
	sc.graph = func() *planner.Graph {
		g := base()
		for i := range g.Commands {
			if slices.Contains(names, g.Commands[i].Name) {
				g.Commands[i].Queue = planner.QueueCompute
			}
		}
		return g
	}
	return sc
}

// queueSubmit switches on submit-time synchronization validation (hazards
// across submissions and queues) for the devices opened after it.
func queueSubmit(t *testing.T) {
	if os.Getenv("VK_LAYER_ENABLES") == "" {
		t.Setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT")
	}
}

// TestExecuteQueues runs a plan with submissions on two logical queues:
// a command buffer per batch, vkQueueSubmit2 with the plan's binary
// semaphores; contents right, 0 validation messages with submit-time
// validation on, nothing leaked (the device's Close checks).
func TestExecuteQueues(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	t.Logf("queues: %s", d.QueueSummary())
	sc := queueScenario()
	p := planOn(t, d, sc.graph())
	checkAliased(t, p, sc.old, sc.new)
	if len(p.plan.Submissions) < 3 || p.plan.Semaphores < 2 {
		t.Fatalf("submissions %+v, %d semaphores: want at least 3 batches and 2 semaphores", p.plan.Submissions, p.plan.Semaphores)
	}
	p.bind(t)
	for run := 0; run < 2; run++ { // semaphores are reusable once waited
		if err := p.res.Execute(sc.work(p)); err != nil {
			t.Fatal(err)
		}
		if err := sc.check(p); err != nil {
			t.Error(err)
		}
	}
	if d.live.Semaphores != 0 {
		t.Errorf("%d semaphores alive after Execute", d.live.Semaphores)
	}
	expectClean(t, d)
}

// TestMissingSemaphoreIsCaught drops every semaphore of the async plan:
// where compute runs on a queue of its own, submit-time synchronization
// validation must report a hazard. On a device where every logical queue
// is one VkQueue (lavapipe) submission order alone orders the batches,
// so the plan stays valid there: the test skips, saying so.
func TestMissingSemaphoreIsCaught(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	if qs := d.Queues(); qs[planner.QueueCompute].Shared {
		t.Skipf("SKIP: compute shares the graphics queue on %s (%s): a missing semaphore is no hazard there", d.Info().Name, d.QueueSummary())
	}
	sc := queueScenario()
	p := planOn(t, d, sc.graph())
	for k := range p.plan.Submissions {
		p.plan.Submissions[k].Wait, p.plan.Submissions[k].Signal = nil, nil
	}
	p.bind(t)
	if err := p.res.Execute(sc.work(p)); err != nil {
		t.Fatal(err)
	}
	ms := d.TakeMessages()
	ids, hazard := messageIDs(ms)
	if !hazard {
		t.Fatalf("no hazard reported without the semaphores (messages: %q)", ids)
	}
	t.Logf("caught as expected: %q", ids)
}

// TestCrossSubmissionHazardIsCaught proves submit-time validation is on
// and sees across the batches, even on one queue: a's last write is on
// compute, b (in a's bytes) is first written on graphics, and the plan
// orders the reuse by the semaphore alone (no alias barrier: a
// signal→wait pair is a full memory dependency). With the semaphores
// stripped, submission order on one VkQueue still orders execution but
// nothing makes a's write available: a hazard, reported at submit time.
func TestCrossSubmissionHazardIsCaught(t *testing.T) {
	queueSubmit(t)
	d := openDevice(t)
	sc := onCompute("split.a")
	p := planOn(t, d, sc.graph())
	if len(p.plan.Submissions) < 2 || p.plan.Semaphores == 0 {
		t.Fatalf("%d submissions, %d semaphores: want the plan across queues", len(p.plan.Submissions), p.plan.Semaphores)
	}
	a, b := p.id(t, "a"), p.id(t, "b")
	if pa, pb := p.plan.Resources[a].Placement, p.plan.Resources[b].Placement; pa.Pool != pb.Pool || pa.Offset >= pb.Offset+pb.Size || pb.Offset >= pa.Offset+pa.Size {
		t.Fatalf("a %+v and b %+v do not share bytes", pa, pb)
	}
	for k := range p.plan.Submissions {
		p.plan.Submissions[k].Wait, p.plan.Submissions[k].Signal = nil, nil
	}
	p.bind(t)
	if err := p.res.Execute(sc.work(p)); err != nil {
		t.Fatal(err)
	}
	ids, hazard := messageIDs(d.TakeMessages())
	if !hazard {
		t.Fatalf("submit-time validation reported no hazard across submissions without the semaphores (messages: %q)", ids)
	}
	t.Logf("caught as expected: %q", ids)
}
