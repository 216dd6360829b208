package vulkan

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Sharing says how a Resources creates the resources that commands on
// more than one queue family use (a resource of one family, or on a
// device whose logical queues share one family, is always EXCLUSIVE).
type Sharing uint8

const (
	// SharingConcurrent (the default) creates them with
	// VK_SHARING_MODE_CONCURRENT over the families that use them: no
	// ownership transfer is needed when contents cross families.
	SharingConcurrent Sharing = iota
	// SharingExclusive creates EXCLUSIVE the resources that a plan with
	// planner.Options.Sharing exclusive hands over with release/acquire
	// barriers (planner.Compiled.Exclusive), the others CONCURRENT; it
	// binds only such plans (ownership.go).
	SharingExclusive
)

func (s Sharing) String() string {
	if s == SharingExclusive {
		return "exclusive"
	}
	return "concurrent"
}

// SetSharing chooses the sharing mode of resources used on several queue
// families. Call it before the first Requirements or Bind: the sharing
// mode is fixed when a resource is created (and can change its memory
// requirements).
func (r *Resources) SetSharing(s Sharing) error {
	if r.created > 0 || r.bound {
		return errors.New("vulkan: SetSharing after resources were created")
	}
	r.sharing = s
	return nil
}

// concurrentFamilies returns the sorted families of the commands that
// use resource id when it is created CONCURRENT, nil when EXCLUSIVE.
func (r *Resources) concurrentFamilies(id planner.ResourceID) []uint32 {
	if r.sharing != SharingConcurrent && r.exclusive(id) { // ownership.go
		return nil
	}
	return usedFamilies(r.g, id, r.dev.info.Queues)
}

// usedFamilies lists the families of the commands using id when there are
// two or more, nil otherwise.
func usedFamilies(g *planner.Graph, id planner.ResourceID, qs [planner.NumQueues]QueueInfo) []uint32 {
	var fams []uint32
	for c := range g.Commands {
		cmd := &g.Commands[c]
		if int(cmd.Queue) >= len(qs) {
			continue
		}
		for i := range cmd.Accesses {
			if cmd.Accesses[i].Resource == id {
				if f := qs[cmd.Queue].Family; !slices.Contains(fams, f) {
					fams = append(fams, f)
				}
				break
			}
		}
	}
	if len(fams) < 2 {
		return nil
	}
	slices.Sort(fams)
	return fams
}

// Ownership returns the queue family indices of an ownership transfer
// from logical queue src to dst: none (both VK_QUEUE_FAMILY_IGNORED)
// when both run on one family, where a release/acquire pair would be
// invalid, or when the resource is CONCURRENT.
func (r *Resources) Ownership(id planner.ResourceID, src, dst planner.Queue) vkext.Ownership {
	if r.concurrentFamilies(id) != nil {
		return vkext.Ownership{}
	}
	return ownership(r.dev.info.Queues, src, dst)
}

func ownership(qs [planner.NumQueues]QueueInfo, src, dst planner.Queue) vkext.Ownership {
	sf, df := qs[src].Family, qs[dst].Family
	if sf == df {
		return vkext.Ownership{}
	}
	return vkext.Ownership{Transfer: true, SrcFamily: sf, DstFamily: df}
}

// Semaphores are a plan's binary semaphores (Plan.Semaphores of them).
type Semaphores struct {
	d *Device
	h []vk.Semaphore
}

// NewSemaphores creates n binary semaphores. Close them once the device
// has finished the work that uses them.
func (d *Device) NewSemaphores(n int) (*Semaphores, error) {
	s := &Semaphores{d: d}
	for range n {
		info := vk.SemaphoreCreateInfo{SType: vk.StructureTypeSemaphoreCreateInfo}
		var h vk.Semaphore
		r := vk.CreateSemaphore(d.device, &info, nil, &h)
		info.Free()
		if err := check("vkCreateSemaphore", r); err != nil {
			s.Close()
			return nil, err
		}
		s.h = append(s.h, h)
		d.live.Semaphores++
	}
	return s, nil
}

// Len is the number of semaphores.
func (s *Semaphores) Len() int { return len(s.h) }

// Close destroys the semaphores; closing twice is a no-op.
func (s *Semaphores) Close() {
	for _, h := range s.h {
		vk.DestroySemaphore(s.d.device, h, nil)
		s.d.live.Semaphores--
	}
	s.h = nil
}

func (s *Semaphores) ops(dst []vkext.SemaphoreOp, ops []planner.SemaphoreOp) ([]vkext.SemaphoreOp, error) {
	for _, op := range ops {
		if op.Semaphore < 0 || op.Semaphore >= len(s.h) {
			return dst, fmt.Errorf("vulkan: semaphore %d of a plan with %d", op.Semaphore, len(s.h))
		}
		dst = append(dst, vkext.SemaphoreOp{Semaphore: unsafe.Pointer(s.h[op.Semaphore]), Stages: uint64(op.Stages)})
	}
	return dst, nil
}

// Submit submits one batch with vkQueueSubmit2 on logical queue q's
// VkQueue: it waits on waits (each at its stage mask), runs cb (nil:
// none), signals signals; fence (vk.NullFence: none) is signalled when
// it completes.
func (d *Device) Submit(q planner.Queue, cb vk.CommandBuffer, sems *Semaphores, waits, signals []planner.SemaphoreOp, fence vk.Fence) error {
	var w, s []vkext.SemaphoreOp
	var err error
	if len(waits)+len(signals) > 0 {
		if sems == nil {
			return errors.New("vulkan: Submit with semaphore operations and no Semaphores")
		}
		if w, err = sems.ops(nil, waits); err != nil {
			return err
		}
		if s, err = sems.ops(nil, signals); err != nil {
			return err
		}
	}
	if int(q) >= len(d.queues) {
		return fmt.Errorf("vulkan: no queue %s", q)
	}
	var fp unsafe.Pointer
	if fence != vk.NullFence {
		fp = unsafe.Pointer(fence)
	}
	return check("vkQueueSubmit2", vk.Result(d.submit.QueueSubmit2(unsafe.Pointer(d.queues[q].queue), unsafe.Pointer(cb), w, s, fp)))
}

// Submissions returns the bound plan's submissions; a plan without any
// (one queue) is one graphics batch of its whole order.
func (r *Resources) Submissions() []planner.Submission {
	if len(r.plan.Submissions) > 0 {
		return r.plan.Submissions
	}
	return []planner.Submission{{Queue: planner.QueueGraphics, Commands: r.plan.Order}}
}

// RecordBatch records submission k of the bound plan (Submissions()[k])
// into cb, which must be in the recording state and come from the pool
// of that submission's queue family (Device.CommandPool): for each of
// its commands the barriers anchored before it, then work (nil: barriers
// only). The batch holding the order's last command also records the
// plan's final barriers after it (the planner orders every other use of
// those images before it by semaphores).
func (r *Resources) RecordBatch(cb vk.CommandBuffer, k int, work Work) error {
	if !r.bound {
		return errNotBound
	}
	subs := r.Submissions()
	if k < 0 || k >= len(subs) {
		return fmt.Errorf("vulkan: submission %d of %d", k, len(subs))
	}
	for _, cmd := range subs[k].Commands {
		if err := r.RecordBarriers(cb, cmd); err != nil {
			return err
		}
		if work != nil {
			if err := work(cb, cmd); err != nil {
				return fmt.Errorf("vulkan: command %q: %w", r.g.Commands[cmd].Name, err)
			}
		}
	}
	if n := len(r.plan.Order); n > 0 && slices.Contains(subs[k].Commands, r.plan.Order[n-1]) {
		return r.recordDependency(cb, &r.final)
	}
	return nil
}

// Execute runs the bound plan once on the device's queues: one command
// buffer per submission (RecordBatch with work), submitted in the plan's
// submission order with vkQueueSubmit2 and the plan's binary semaphores,
// then waits for the device to go idle. Everything it makes is freed
// before it returns.
func (r *Resources) Execute(work Work) error {
	if !r.bound {
		return errNotBound
	}
	d := r.dev
	subs := r.Submissions()
	sems, err := d.NewSemaphores(r.plan.Semaphores)
	if err != nil {
		return err
	}
	defer sems.Close()
	cbs := make([]vk.CommandBuffer, len(subs))
	defer func() {
		for k, cb := range cbs {
			if cb != nil {
				vk.FreeCommandBuffers(d.device, d.CommandPool(subs[k].Queue), 1, []vk.CommandBuffer{cb})
			}
		}
	}()
	for k := range subs {
		cb, err := d.beginCommandBuffer(subs[k].Queue)
		if err != nil {
			return err
		}
		cbs[k] = cb
		recErr := r.RecordBatch(cb, k, work)
		if err := check("vkEndCommandBuffer", vk.EndCommandBuffer(cb)); err != nil || recErr != nil {
			return errors.Join(recErr, err)
		}
	}
	for k := range subs {
		if err := d.Submit(subs[k].Queue, cbs[k], sems, subs[k].Wait, subs[k].Signal, vk.NullFence); err != nil {
			vk.DeviceWaitIdle(d.device)
			return fmt.Errorf("vulkan: submission %d (%s): %w", k, subs[k].Queue, err)
		}
	}
	return check("vkDeviceWaitIdle", vk.DeviceWaitIdle(d.device))
}

// beginCommandBuffer allocates a one-time command buffer from queue q's
// family pool and begins it.
func (d *Device) beginCommandBuffer(q planner.Queue) (vk.CommandBuffer, error) {
	cbs := make([]vk.CommandBuffer, 1)
	ai := vk.CommandBufferAllocateInfo{
		SType:              vk.StructureTypeCommandBufferAllocateInfo,
		CommandPool:        d.CommandPool(q),
		Level:              vk.CommandBufferLevelPrimary,
		CommandBufferCount: 1,
	}
	r := vk.AllocateCommandBuffers(d.device, &ai, cbs)
	ai.Free()
	if err := check("vkAllocateCommandBuffers", r); err != nil {
		return nil, err
	}
	bi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo, Flags: vk.CommandBufferUsageFlags(vk.CommandBufferUsageOneTimeSubmitBit)}
	r = vk.BeginCommandBuffer(cbs[0], &bi)
	bi.Free()
	if err := check("vkBeginCommandBuffer", r); err != nil {
		vk.FreeCommandBuffers(d.device, d.CommandPool(q), 1, cbs)
		return nil, err
	}
	return cbs[0], nil
}
