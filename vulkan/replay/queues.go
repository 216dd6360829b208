package replay

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

// sharing is how the replay creates its own buffers and images (lanes,
// imports, readback): CONCURRENT over the device's queue families when
// the logical queues use more than one, so that every queue may read and
// write them without ownership transfers.
func (k *kit) sharing() (vk.SharingMode, uint32, []uint32) {
	fams := k.dev.Families()
	if len(fams) < 2 {
		return vk.SharingModeExclusive, 0, nil
	}
	return vk.SharingModeConcurrent, uint32(len(fams)), fams
}

// QueueReport is what CompareQueues measured: Report's fields for the
// plan run per its submissions (GPUNsAliased, GPUNsUnaliased: the whole
// frame, first timestamp to last across every queue used). The same frame
// on one queue is another plan (the planner's barriers are per queue: a
// multi-queue plan in one command buffer lacks the cross-queue ones):
// plan the graph with every command on graphics and Compare it.
type QueueReport struct {
	Report
	Queues     string `json:"queues"` // the device queue of each logical queue (vulkan.Device.QueueSummary)
	Batches    int    `json:"batches"`
	Semaphores int    `json:"semaphores"`
	// BusyNs sums, per logical queue, the median GPU time of its batches
	// (first to last timestamp of each): with Async, what could overlap.
	BusyNs map[string]uint64 `json:"busyNs"`
}

// qmode is one bound plan recorded per submission: a command buffer per
// batch from its queue family's pool, two timestamps around each.
type qmode struct {
	m       *mode
	subs    []p.Submission
	cbs     []vk.CommandBuffer
	queries vk.QueryPool
	sems    *vulkan.Semaphores
	extra   int // index of the first of the replay's own semaphores
	// init and done: the replay's semaphores from the initialisation to
	// each queue's first batch and from its last batch to the read-back
	// (per logical queue; -1 where the queue has no batch or is graphics).
	init, done [p.NumQueues]int
	first      [p.NumQueues]int // the queue's first and last batch
	last       [p.NumQueues]int
	// fences: one per queue other than graphics with a batch, signalled
	// by its last batch and waited on by the host with the read-back's.
	// The read-back's semaphores already order every queue's work before
	// it, but submit-time synchronization validation retires a queue's
	// accesses only at a host wait on that queue: without these, the next
	// run's first uses (barriers from UNDEFINED with no source stage)
	// were reported against the previous run's accesses on the other
	// queue (44 messages on the H200 in session 4).
	fences  [p.NumQueues]vk.Fence
	traced  int  // messages already printed by trace
	tracing bool // ALIASPLAN_TRACE_SUBMITS is set
}

// submissions is the plan's, or one graphics batch of its order.
func submissions(plan *p.Plan) []p.Submission {
	if len(plan.Submissions) > 0 {
		return plan.Submissions
	}
	return []p.Submission{{Queue: p.QueueGraphics, Commands: plan.Order}}
}

// checkQueues: every command in exactly one submission, no draw, blit or
// resolve on a queue without graphics.
func (r *Replayer) checkQueues(plan *p.Plan) error {
	seen := make([]bool, len(r.g.Commands))
	for k, s := range submissions(plan) {
		if int(s.Queue) >= p.NumQueues {
			return fmt.Errorf("replay: submission %d: no queue %s", k, s.Queue)
		}
		for _, c := range s.Commands {
			if c < 0 || int(c) >= len(seen) || seen[c] {
				return fmt.Errorf("replay: submission %d: command %d missing from the graph or submitted twice", k, c)
			}
			seen[c] = true
			w := &r.works[c]
			if s.Queue == p.QueueGraphics {
				continue
			}
			// The rule is the logical queue's, whatever family it got.
			if w.graphics {
				return fmt.Errorf("replay: command %q draws but runs on the %s queue", w.name, s.Queue)
			}
			if DepthTransfer(r.g, c) && r.k.dev.Queues()[s.Queue].Dedicated {
				return fmt.Errorf("replay: command %q clears or copies a depth/stencil image but runs on the %s queue, family %d, which has no graphics (Vulkan allows that on graphics queues only)",
					w.name, s.Queue, r.k.dev.Family(s.Queue))
			}
			for _, op := range w.copies {
				if op.blit || op.resolve {
					return fmt.Errorf("replay: command %q blits or resolves but runs on the %s queue", w.name, s.Queue)
				}
			}
		}
	}
	for c, ok := range seen {
		if !ok {
			return fmt.Errorf("replay: command %q is in no submission", r.g.Commands[c].Name)
		}
	}
	return nil
}

// DepthTransfer reports whether command c clears or copies a
// depth/stencil image: vkCmdClearDepthStencilImage and depth/stencil
// aspects of buffer-image copies need a queue family with graphics.
func DepthTransfer(g *p.Graph, c p.CommandID) bool {
	for _, a := range g.Commands[c].Accesses {
		res := &g.Resources[a.Resource]
		if res.Kind == p.KindImage && res.Image.Format.IsDepthStencil() && a.Stages&(avk.StageClear|avk.StageCopy|avk.StageAllTransfer|avk.StageBlit|avk.StageResolve) != 0 {
			return true
		}
	}
	return false
}

func (r *Replayer) prepareQueues(m *mode) (*qmode, error) {
	k := r.k
	q := &qmode{m: m, subs: submissions(m.plan), tracing: os.Getenv("ALIASPLAN_TRACE_SUBMITS") != ""}
	for i := range q.first {
		q.first[i], q.last[i], q.init[i], q.done[i] = -1, -1, -1, -1
	}
	for i, s := range q.subs {
		if q.first[s.Queue] < 0 {
			q.first[s.Queue] = i
		}
		q.last[s.Queue] = i
	}
	for i := range q.fences {
		if q.last[i] < 0 || p.Queue(i) == p.QueueGraphics {
			continue
		}
		fi := vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
		var f vk.Fence
		res := vk.CreateFence(k.vd, &fi, nil, &f)
		fi.Free()
		if err := vkCheck("vkCreateFence", res); err != nil {
			q.close()
			return nil, err
		}
		q.fences[i] = f
	}
	q.extra = m.plan.Semaphores
	n := q.extra
	for i := range q.init {
		if q.first[i] >= 0 && p.Queue(i) != p.QueueGraphics {
			q.init[i], q.done[i] = n, n+1
			n += 2
		}
	}
	var err error
	if q.sems, err = k.dev.NewSemaphores(n); err != nil {
		return nil, err
	}
	nq := uint32(2 * len(q.subs))
	qi := vk.QueryPoolCreateInfo{SType: vk.StructureTypeQueryPoolCreateInfo, QueryType: vk.QueryTypeTimestamp, QueryCount: nq}
	var qp vk.QueryPool
	res := vk.CreateQueryPool(k.vd, &qi, nil, &qp)
	qi.Free()
	if err := vkCheck("vkCreateQueryPool", res); err != nil {
		q.close()
		return nil, err
	}
	q.queries = qp
	q.cbs = make([]vk.CommandBuffer, len(q.subs))
	for i, s := range q.subs {
		cbs := make([]vk.CommandBuffer, 1)
		ai := vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: k.dev.CommandPool(s.Queue),
			Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 1}
		res := vk.AllocateCommandBuffers(k.vd, &ai, cbs)
		ai.Free()
		if err := vkCheck("vkAllocateCommandBuffers", res); err != nil {
			q.close()
			return nil, err
		}
		q.cbs[i] = cbs[0]
		if err := q.record(i); err != nil {
			q.close()
			return nil, err
		}
	}
	return q, nil
}

// record records batch i: its commands' barriers and work between two
// timestamps (bottom of pipe, as the one-queue recording).
func (q *qmode) record(i int) error {
	m, r, cb := q.m, q.m.r, q.cbs[i]
	bi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo}
	res := vk.BeginCommandBuffer(cb, &bi)
	bi.Free()
	if err := vkCheck("vkBeginCommandBuffer", res); err != nil {
		return err
	}
	vk.CmdResetQueryPool(cb, q.queries, uint32(2*i), 2)
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, q.queries, uint32(2*i))
	for _, cmd := range q.subs[i].Commands {
		if err := m.res.RecordBarriers(cb, cmd); err != nil {
			return err
		}
		if err := m.recordWork(cb, &r.works[cmd]); err != nil {
			return fmt.Errorf("replay: command %q: %w", r.works[cmd].name, err)
		}
		if err := m.res.RecordReleases(cb, cmd); err != nil { // ownership transfers (exclusive sharing)
			return err
		}
	}
	vk.CmdWriteTimestamp(cb, vk.PipelineStageBottomOfPipeBit, q.queries, uint32(2*i+1))
	return vkCheck("vkEndCommandBuffer", vk.EndCommandBuffer(cb))
}

func (q *qmode) close() {
	k := q.m.r.k
	vk.DeviceWaitIdle(k.vd)
	for i, cb := range q.cbs {
		if cb != nil {
			vk.FreeCommandBuffers(k.vd, k.dev.CommandPool(q.subs[i].Queue), 1, []vk.CommandBuffer{cb})
		}
	}
	q.cbs = nil
	for i, f := range q.fences {
		if f != vk.NullFence {
			vk.DestroyFence(k.vd, f, nil)
			q.fences[i] = vk.NullFence
		}
	}
	if q.queries != vk.NullQueryPool {
		vk.DestroyQueryPool(k.vd, q.queries, nil)
		q.queries = vk.NullQueryPool
	}
	if q.sems != nil {
		q.sems.Close()
		q.sems = nil
	}
}

// run submits one frame: the initialisation on the graphics queue
// (signalling each other queue's start), every batch in the plan's
// submission order with its semaphores, the read-back on the graphics
// queue (waiting for each other queue's last batch) with the fence; then
// reads back.
func (q *qmode) run() (result, []uint64, error) {
	r, k := q.m.r, q.m.r.k
	dev := k.dev
	if err := r.ensureReadback(q.m.plan.Order); err != nil {
		return result{}, nil, err
	}
	if err := r.poisonPools(q.m); err != nil { // poison.go
		return result{}, nil, err
	}
	all := avk.StageAllCommands
	var initSig, doneWait []p.SemaphoreOp
	for i := range q.init {
		if q.init[i] >= 0 {
			initSig = append(initSig, p.SemaphoreOp{Semaphore: q.init[i], Stages: all})
			doneWait = append(doneWait, p.SemaphoreOp{Semaphore: q.done[i], Stages: all})
		}
	}
	if err := dev.Submit(p.QueueGraphics, r.initCB, q.sems, nil, initSig, k.fence); err != nil {
		return result{}, nil, err
	}
	q.trace("init on graphics signal %v", initSig)
	if err := q.waitFence(); err != nil {
		return result{}, nil, err
	}
	for i, s := range q.subs {
		waits, signals := s.Wait, s.Signal
		if q.first[s.Queue] == i && q.init[s.Queue] >= 0 {
			waits = append(slices.Clip(waits), p.SemaphoreOp{Semaphore: q.init[s.Queue], Stages: all})
		}
		if q.last[s.Queue] == i && q.done[s.Queue] >= 0 {
			signals = append(slices.Clip(signals), p.SemaphoreOp{Semaphore: q.done[s.Queue], Stages: all})
		}
		fence := vk.NullFence
		if q.last[s.Queue] == i {
			fence = q.fences[s.Queue]
		}
		if err := dev.Submit(s.Queue, q.cbs[i], q.sems, waits, signals, fence); err != nil {
			vk.DeviceWaitIdle(k.vd)
			return result{}, nil, fmt.Errorf("replay: submission %d (%s): %w", i, s.Queue, err)
		}
		q.trace("batch %d on %s %v wait %v signal %v", i, s.Queue, q.names(i), waits, signals)
	}
	if err := dev.Submit(p.QueueGraphics, r.readCB, q.sems, doneWait, nil, k.fence); err != nil {
		vk.DeviceWaitIdle(k.vd)
		return result{}, nil, err
	}
	q.trace("read-back on graphics wait %v", doneWait)
	if err := q.waitFence(); err != nil {
		return result{}, nil, err
	}
	for _, f := range q.fences {
		if f == vk.NullFence {
			continue
		}
		if err := q.waitOn(f); err != nil {
			return result{}, nil, err
		}
	}
	// Every queue's work is done: the read-back waited for each.
	x, err := r.collect(q.m, 0)
	if err != nil {
		return x, nil, err
	}
	n := uint32(2 * len(q.subs))
	ts := make([]uint64, n)
	res := vk.GetQueryPoolResults(k.vd, q.queries, 0, n, uint64(8*n), unsafe.Pointer(&ts[0]), 8,
		vk.QueryResultFlags(vk.QueryResult64Bit|vk.QueryResultWaitBit))
	if err := vkCheck("vkGetQueryPoolResults", res); err != nil {
		return x, nil, err
	}
	return x, ts, nil
}

// trace, with ALIASPLAN_TRACE_SUBMITS set, prints a submission and the
// validation messages that it drew (the layer reports a submit-time
// hazard during the vkQueueSubmit2 of the later batch).
func (q *qmode) trace(format string, args ...any) {
	if !q.tracing {
		return
	}
	what := fmt.Sprintf(format, args...)
	ms := q.m.r.k.dev.Messages()
	fmt.Fprintf(os.Stderr, "trace: %s\n", what)
	for _, m := range ms[min(q.traced, len(ms)):] {
		fmt.Fprintf(os.Stderr, "trace:   %.900s\n", m.Text)
	}
	q.traced = len(ms)
}

func (q *qmode) names(i int) []string {
	s := q.subs[i]
	names := make([]string, len(s.Commands))
	for j, c := range s.Commands {
		names[j] = q.m.r.works[c].name
	}
	return names
}

func (q *qmode) waitFence() error { return q.waitOn(q.m.r.k.fence) }

// waitOn waits for fence f and resets it.
func (q *qmode) waitOn(f vk.Fence) error {
	k := q.m.r.k
	if err := vkCheck("vkWaitForFences", vk.WaitForFences(k.vd, 1, []vk.Fence{f}, vk.True, ^uint64(0))); err != nil {
		return err
	}
	return vkCheck("vkResetFences", vk.ResetFences(k.vd, 1, []vk.Fence{f}))
}

var queueHandle = regexp.MustCompile(`Object 0: handle = (0x[0-9a-f]+), type = VK_OBJECT_TYPE_QUEUE;`)

// SubmitQuirk names the false positive of submit-time synchronization
// validation (layer 1.3.239) that m is, or returns "":
//
//   - "cross-submission-chain": a layout transition reported against a
//     write of an earlier submission on the same VkQueue, where the
//     plan orders the two by a chain of barriers (a barrier after the
//     write makes it available to stage S; the transition's barrier has
//     source stage S). The layer follows such chains within a command
//     buffer but not across submissions: on one queue the same barriers
//     recorded in one command buffer pass record-time validation, and
//     widening the transition's source access to the write makes the
//     message go (measured on lavapipe with a conservative test-only
//     batching of random graph 6).
//     Only same-queue pairs qualify: across queues only semaphores
//     order, and such a message stays an error.
func SubmitQuirk(m vulkan.Message) string {
	if !strings.HasPrefix(m.ID, "SYNC-HAZARD-WRITE-AFTER-WRITE") || !strings.Contains(m.Text, "vkQueueSubmit2: Hazard") ||
		!strings.Contains(m.Text, "recorded_usage: SYNC_IMAGE_LAYOUT_TRANSITION, command: vkCmdPipelineBarrier2") {
		return ""
	}
	q := queueHandle.FindStringSubmatch(m.Text)
	if q == nil || !strings.Contains(m.Text, "queue: VkQueue "+q[1]+"[]") {
		return ""
	}
	return "cross-submission-chain"
}

func splitSubmitQuirks(msgs []vulkan.Message, quirks map[string]int) []vulkan.Message {
	var rest []vulkan.Message
	for _, m := range msgs {
		if q := SubmitQuirk(m); q != "" {
			quirks[q]++
			continue
		}
		rest = append(rest, m)
	}
	return rest
}

// frameNs is the frame's GPU time from the batches' timestamps: the
// first start to the last end across every queue.
func (q *qmode) frameNs(ts []uint64) uint64 {
	lo, hi := ts[0], ts[1]
	for i := 0; i < len(ts); i += 2 {
		lo, hi = min(lo, ts[i]), max(hi, ts[i+1])
	}
	return uint64(float64(hi-lo) * float64(q.m.r.k.limits.TimestampPeriod))
}

// CompareQueues runs plan (made with Source) per its submissions (a
// command buffer per batch on its queue, vkQueueSubmit2 with the plan's
// binary semaphores) and its unaliased twin the same way; Runs timed runs
// each after a warm-up, alternating. Every run's digests and final contents must
// equal the first's. A plan without submissions runs as one graphics
// batch. On a device whose logical queues share one VkQueue (lavapipe)
// the batches run in submission order there, with the same semaphores:
// correct, but nothing overlaps.
func (r *Replayer) CompareQueues(plan *p.Plan, cfg Config) (*QueueReport, error) {
	defer pauseGC()()
	if err := r.checkOrder(plan.Order); err != nil {
		return nil, err
	}
	if err := r.checkQueues(plan); err != nil {
		return nil, err
	}
	runs := max(cfg.Runs, 1)
	rep := &QueueReport{Report: Report{Device: r.k.dev.Describe(), Commands: len(r.g.Commands), Resources: len(r.g.Resources), Runs: runs,
		TransientBytes: plan.Stats.TransientBytes, PooledBytes: plan.Stats.PooledBytes, Serializations: len(plan.Serializations)},
		Queues: r.k.dev.QueueSummary(), Batches: len(submissions(plan)), Semaphores: plan.Semaphores, BusyNs: map[string]uint64{}}
	for _, b := range plan.Barriers {
		if b.Kind == p.Alias {
			rep.AliasBarriers++
		} else {
			rep.HazardBarriers++
		}
	}
	a, err := r.bind(r.src, plan, false)
	if err != nil {
		return nil, err
	}
	defer a.close()
	up, err := Unaliased(r.g, plan)
	if err != nil {
		return nil, err
	}
	u, err := r.bind(r.k.dev.NewResources(r.g), up, true)
	if err != nil {
		return nil, err
	}
	defer u.close()
	qa, err := r.prepareQueues(a)
	if err != nil {
		return nil, err
	}
	defer qa.close()
	qu, err := r.prepareQueues(u)
	if err != nil {
		return nil, err
	}
	defer qu.close()
	var all []result
	var labels []string
	var ta, tu []uint64
	busy := make([][]uint64, len(qa.subs))
	for i := 0; i <= runs; i++ { // run 0 is the warm-up, compared but not timed
		x, tsa, err := qa.run()
		if err != nil {
			return nil, err
		}
		y, tsu, err := qu.run()
		if err != nil {
			return nil, err
		}
		all = append(all, x, y)
		labels = append(labels, fmt.Sprintf("aliased run %d", i), fmt.Sprintf("unaliased run %d", i))
		if i == 0 {
			continue
		}
		ta, tu = append(ta, qa.frameNs(tsa)), append(tu, qu.frameNs(tsu))
		for k := range qa.subs {
			busy[k] = append(busy[k], uint64(float64(tsa[2*k+1]-tsa[2*k])*float64(r.k.limits.TimestampPeriod)))
		}
	}
	rep.GPUNsAliased, rep.GPUNsUnaliased = median(ta), median(tu)
	for k, s := range qa.subs {
		rep.BusyNs[s.Queue.String()] += median(busy[k])
	}
	for i, x := range all {
		for _, d := range r.diff(all[0], x) {
			rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("%s vs aliased run 0: %s", labels[i], d))
		}
	}
	rep.DigestsEqual = len(rep.Mismatches) == 0
	for _, c := range plan.Order {
		rep.Digests = append(rep.Digests, CommandDigest{Command: r.g.Commands[c].Name, Digest: r.digest(all[0], &r.works[c])})
	}
	msgs, quirks := SplitQuirks(r.k.dev.TakeMessages())
	msgs = splitSubmitQuirks(msgs, quirks)
	msgs = splitAsyncQuirks(msgs, quirks, qa, qu)
	rep.LayerQuirks = quirks
	rep.ValidationMessages = len(msgs)
	names := r.handleNames(map[string]*mode{"aliased": a, "unaliased": u})
	for i, m := range msgs {
		if i == 20 {
			rep.Messages = append(rep.Messages, fmt.Sprintf("... and %d more", len(msgs)-20))
			break
		}
		rep.Messages = append(rep.Messages, annotate(m.String(), names))
	}
	return rep, nil
}
