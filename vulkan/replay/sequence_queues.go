package replay

import (
	"fmt"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

const allCommands = avk.StageAllCommands

// RunQueueSequence is RunSequence for frames on several queues: each
// frame's batches (its plan's submissions; one graphics batch without)
// are submitted back to back after the frames before it, with the plan's
// own semaphores and its frame waits (Plan.FrameWaits, planner.FrameWait):
// a binary semaphore per frame wait, signalled at ALL_COMMANDS by the last
// batch submitted on After before the frame and waited on at ALL_COMMANDS
// by the frame's first batch on Queue. Nothing else orders the frames: no
// fence, no CPU wait until every frame is submitted (then one device
// wait). It returns each frame's results and the messages of the whole
// sequence.
func RunQueueSequence(frames []SequenceFrame) ([]*Run, []vulkan.Message, error) {
	defer pauseGC()()
	if len(frames) == 0 {
		return nil, nil, nil
	}
	seen := map[*Replayer]bool{}
	for i, f := range frames {
		if seen[f.Replayer] {
			return nil, nil, fmt.Errorf("replay: sequence frame %d reuses an earlier frame's replayer: each frame needs its own (its digest lanes)", i+1)
		}
		seen[f.Replayer] = true
		if err := f.Replayer.checkOrder(f.Plan.Order); err != nil {
			return nil, nil, fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
		if err := f.Replayer.checkQueues(f.Plan); err != nil {
			return nil, nil, fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
	}
	k := frames[0].Replayer.k
	dev := k.dev
	qs := make([]*qmode, 0, len(frames))
	defer func() {
		for _, q := range qs {
			m := q.m
			q.close()
			m.close()
		}
	}()
	for i, f := range frames {
		m, err := f.Replayer.bindHeld(f.Plan, f.Memory)
		if err != nil {
			return nil, dev.TakeMessages(), fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
		q, err := f.Replayer.prepareQueues(m)
		if err != nil {
			m.close()
			return nil, dev.TakeMessages(), fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
		qs = append(qs, q)
		if err := f.Replayer.ensureReadback(f.Plan.Order); err != nil {
			return nil, dev.TakeMessages(), err
		}
	}
	// The plans' semaphores, frame after frame, then one per frame wait.
	type at struct{ frame, batch int }
	base := make([]int, len(frames))
	n := 0
	for i, f := range frames {
		base[i] = n
		n += f.Plan.Semaphores
	}
	extraWait := map[at][]p.SemaphoreOp{}
	extraSig := map[at][]p.SemaphoreOp{}
	var lastOn [p.NumQueues]at
	for i := range lastOn {
		lastOn[i] = at{-1, -1}
	}
	for i, q := range qs {
		for _, w := range frames[i].Plan.FrameWaits {
			src := lastOn[w.After]
			if src.frame < 0 {
				return nil, nil, fmt.Errorf("replay: sequence frame %d: a frame wait on %s after %s, which no earlier frame used", i+1, w.Queue, w.After)
			}
			if q.first[w.Queue] < 0 {
				return nil, nil, fmt.Errorf("replay: sequence frame %d: a frame wait on %s, where it has no batch", i+1, w.Queue)
			}
			extraSig[src] = append(extraSig[src], p.SemaphoreOp{Semaphore: n, Stages: allCommands})
			dst := at{i, q.first[w.Queue]}
			extraWait[dst] = append(extraWait[dst], p.SemaphoreOp{Semaphore: n, Stages: allCommands})
			n++
		}
		for qu := range q.last {
			if q.last[qu] >= 0 {
				lastOn[qu] = at{i, q.last[qu]}
			}
		}
	}
	sems, err := dev.NewSemaphores(n)
	if err != nil {
		return nil, nil, err
	}
	defer sems.Close()
	for _, f := range frames {
		if err := f.Replayer.submitOne(f.Replayer.initCB); err != nil {
			return nil, dev.TakeMessages(), err
		}
	}
	shift := func(ops []p.SemaphoreOp, by int) []p.SemaphoreOp {
		out := make([]p.SemaphoreOp, len(ops))
		for i, o := range ops {
			o.Semaphore += by
			out[i] = o
		}
		return out
	}
	for i, q := range qs {
		for b, s := range q.subs {
			waits := append(shift(s.Wait, base[i]), extraWait[at{i, b}]...)
			signals := append(shift(s.Signal, base[i]), extraSig[at{i, b}]...)
			if err := dev.Submit(s.Queue, q.cbs[b], sems, waits, signals, vk.NullFence); err != nil {
				vk.DeviceWaitIdle(k.vd)
				return nil, dev.TakeMessages(), fmt.Errorf("replay: sequence frame %d, submission %d (%s): %w", i+1, b, s.Queue, err)
			}
		}
	}
	// One host wait on every queue: submit-time validation retires each
	// queue's accesses there.
	if err := vkCheck("vkDeviceWaitIdle", vk.DeviceWaitIdle(k.vd)); err != nil {
		return nil, dev.TakeMessages(), err
	}
	out := make([]*Run, len(frames))
	for i, f := range frames {
		r := f.Replayer
		if err := r.submitOne(r.readCB); err != nil {
			return nil, dev.TakeMessages(), err
		}
		x, err := r.collect(qs[i].m, 0)
		if err != nil {
			return nil, dev.TakeMessages(), err
		}
		out[i] = &Run{res: []result{x}}
	}
	return out, dev.TakeMessages(), nil
}

// RunQueuesOnce replays plan once on the device's queues per its
// submissions (as CompareQueues does), in its own memory: the reference
// run of a frame of a multi-queue sequence (plan: Unaliased of the
// frame's). It returns the run and the messages it drew.
func (r *Replayer) RunQueuesOnce(plan *p.Plan) (*Run, []vulkan.Message, error) {
	defer pauseGC()()
	if err := r.checkOrder(plan.Order); err != nil {
		return nil, nil, err
	}
	if err := r.checkQueues(plan); err != nil {
		return nil, nil, err
	}
	m, err := r.bind(r.k.dev.NewResources(r.g), plan, true)
	if err != nil {
		return nil, nil, err
	}
	defer m.close()
	q, err := r.prepareQueues(m)
	if err != nil {
		return nil, nil, err
	}
	defer q.close()
	x, _, err := q.run()
	if err != nil {
		return nil, r.k.dev.TakeMessages(), err
	}
	return &Run{res: []result{x}}, r.k.dev.TakeMessages(), nil
}
