package replay

import (
	"fmt"

	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// SequenceFrame is one frame of a sequence: its replayer (one per frame:
// each keeps its own digest lanes), the plan, and the memory each plan
// pool is bound into (vulkan.Resources.BindHeld; frames of a sequence
// share it).
type SequenceFrame struct {
	Replayer *Replayer
	Plan     *p.Plan
	Memory   []vk.DeviceMemory
}

// RunSequence replays frames back to back on the queue, as a renderer
// submits them: every frame is bound into its held memory (its own
// objects, fresh Resources), each frame's initialisation runs first (its
// imports and digest lanes; nothing pooled), then the frames are submitted
// one vkQueueSubmit each, with no fence, semaphore or CPU wait between
// them (only the last signals a fence), so submit-time synchronization
// validation sees frame N+1's first uses of the shared pool bytes after
// frame N's last ones, ordered only by the plans' entry barriers. It
// returns each frame's results (compare with Diff against the frame's
// unaliased RunPlan) and the validation messages of the whole sequence.
func RunSequence(frames []SequenceFrame) ([]*Run, []vulkan.Message, error) {
	defer pauseGC()()
	if len(frames) == 0 {
		return nil, nil, nil
	}
	seen := map[*Replayer]bool{}
	for i, f := range frames {
		if seen[f.Replayer] {
			return nil, nil, fmt.Errorf("replay: sequence frame %d reuses frame %d's replayer: each frame needs its own (its digest lanes)", i+1, i)
		}
		seen[f.Replayer] = true
		if err := f.Replayer.checkOrder(f.Plan.Order); err != nil {
			return nil, nil, fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
	}
	dev := frames[0].Replayer.k.dev
	ms := make([]*mode, 0, len(frames))
	defer func() {
		for _, m := range ms {
			m.close()
		}
	}()
	for i, f := range frames {
		m, err := f.Replayer.bindHeld(f.Plan, f.Memory)
		if err != nil {
			return nil, dev.TakeMessages(), fmt.Errorf("replay: sequence frame %d: %w", i+1, err)
		}
		ms = append(ms, m)
		if err := f.Replayer.ensureReadback(f.Plan.Order); err != nil {
			return nil, dev.TakeMessages(), err
		}
	}
	for _, f := range frames {
		if err := f.Replayer.submitOne(f.Replayer.initCB); err != nil {
			return nil, dev.TakeMessages(), err
		}
	}
	k := frames[0].Replayer.k
	for i, m := range ms {
		fence := vk.NullFence
		if i == len(ms)-1 {
			fence = k.fence
		}
		si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo, CommandBufferCount: 1, PCommandBuffers: []vk.CommandBuffer{m.cbs[0]}}}
		if err := vkCheck("vkQueueSubmit", vk.QueueSubmit(dev.Queue(), 1, si, fence)); err != nil {
			return nil, dev.TakeMessages(), err
		}
	}
	if err := vkCheck("vkWaitForFences", vk.WaitForFences(k.vd, 1, []vk.Fence{k.fence}, vk.True, ^uint64(0))); err != nil {
		return nil, dev.TakeMessages(), err
	}
	if err := vkCheck("vkResetFences", vk.ResetFences(k.vd, 1, []vk.Fence{k.fence})); err != nil {
		return nil, dev.TakeMessages(), err
	}
	out := make([]*Run, len(frames))
	for i, f := range frames {
		r := f.Replayer
		if err := r.submitOne(r.readCB); err != nil {
			return nil, dev.TakeMessages(), err
		}
		x, err := r.collect(ms[i], 2)
		if err != nil {
			return nil, dev.TakeMessages(), err
		}
		out[i] = &Run{res: []result{x}}
	}
	return out, dev.TakeMessages(), nil
}

// bindHeld is bind into held memory, with a fresh Resources of the graph.
func (r *Replayer) bindHeld(plan *p.Plan, memory []vk.DeviceMemory) (*mode, error) {
	plan = r.ownLoadPlan(plan) // selfrace.go, as bind
	res := r.k.dev.NewResources(r.g)
	m := &mode{r: r, res: res, plan: plan, own: true, views: map[viewKey]vk.ImageView{}}
	for _, o := range r.imports {
		var err error
		if o.buf != vk.NullBuffer {
			err = res.ImportBuffer(o.id, o.buf)
		} else {
			err = res.ImportImage(o.id, o.img)
		}
		if err != nil {
			res.Close()
			return nil, err
		}
	}
	if err := res.BindHeld(plan, memory); err != nil {
		res.Close()
		return nil, err
	}
	if err := m.prepare(); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}
