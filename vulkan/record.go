package vulkan

import (
	"fmt"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Work records a renderer's own Vulkan commands for one graph command
// into cb. Record calls it once per command, in the plan's execution
// order, after the command's barriers.
type Work func(cb vk.CommandBuffer, cmd planner.CommandID) error

// Record is the executor: for each command in the bound plan's execution
// order it records the barriers anchored before that command with one
// vkCmdPipelineBarrier2, or two where the plan has barriers of call 1 (barriers.Dependencies gives them as
// VkDependencyInfo-shaped values; Record substitutes the handles), then
// calls work (nil records barriers only); after the last command it
// records the plan's final barriers (RecordFinalBarriers). cb must be in
// the recording state. It allocates nothing once warm.
func (r *Resources) Record(cb vk.CommandBuffer, work Work) error {
	if !r.bound {
		return errNotBound
	}
	for k := range r.deps {
		cmd := r.deps[k].Command
		if err := r.recordAcquires(cb, cmd); err != nil { // ownership.go
			return err
		}
		if err := r.recordDependency(cb, &r.deps[k]); err != nil {
			return err
		}
		if work != nil {
			if err := work(cb, cmd); err != nil {
				return fmt.Errorf("vulkan: command %q: %w", r.g.Commands[cmd].Name, err)
			}
		}
		if err := r.RecordReleases(cb, cmd); err != nil {
			return err
		}
	}
	return r.recordDependency(cb, &r.final)
}

// RecordFinalBarriers records the bound plan's final barriers
// (Plan.FinalBarriers: imported images into their final layouts) in one
// vkCmdPipelineBarrier2, nothing when there are none, for a renderer that
// drives the order itself: after the last command's work.
func (r *Resources) RecordFinalBarriers(cb vk.CommandBuffer) error {
	if !r.bound {
		return errNotBound
	}
	return r.recordDependency(cb, &r.final)
}

// RecordBarriers records the barriers the bound plan anchors before cmd,
// in one vkCmdPipelineBarrier2 (two when it has barriers of call 1, in
// order; nothing when there are none), for a
// renderer that drives the order itself. Buffer barriers cover the whole
// buffer, image barriers every mip level and layer of the image's aspects.
func (r *Resources) RecordBarriers(cb vk.CommandBuffer, cmd planner.CommandID) error {
	if !r.bound {
		return errNotBound
	}
	if cmd < 0 || int(cmd) >= len(r.pos) || r.pos[cmd] < 0 {
		return fmt.Errorf("vulkan: command %d is not in the plan's order", cmd)
	}
	if err := r.recordAcquires(cb, cmd); err != nil { // ownership.go: before the command's own barriers
		return err
	}
	return r.recordDependency(cb, &r.deps[r.pos[cmd]])
}

// recordDependency records b's two calls in order: the barriers of call 1
// chain after those of call 0 (SPEC §4), so they are never merged.
func (r *Resources) recordDependency(cb vk.CommandBuffer, b *barriers.Batch) error {
	if err := r.recordCall(cb, b.Command, &b.Dependency); err != nil {
		return err
	}
	return r.recordCall(cb, b.Command, &b.Then)
}

func (r *Resources) recordCall(cb vk.CommandBuffer, cmd planner.CommandID, dep *barriers.DependencyInfo) error {
	if dep.Empty() {
		return nil
	}
	s := &r.scratch
	s.Reset()
	for _, m := range dep.MemoryBarriers {
		s.Memory = append(s.Memory, vkext.Scope{SrcStages: uint64(m.SrcStageMask), SrcAccess: uint64(m.SrcAccessMask),
			DstStages: uint64(m.DstStageMask), DstAccess: uint64(m.DstAccessMask)})
	}
	for _, x := range dep.BufferMemoryBarriers {
		h := r.objs[x.Buffer].buffer
		if h == vk.NullBuffer {
			return r.noHandle(x.Buffer, cmd)
		}
		s.Buffer = append(s.Buffer, vkext.BufferBarrier{
			Scope: vkext.Scope{SrcStages: uint64(x.SrcStageMask), SrcAccess: uint64(x.SrcAccessMask),
				DstStages: uint64(x.DstStageMask), DstAccess: uint64(x.DstAccessMask)},
			Buffer: unsafe.Pointer(h), Offset: x.Offset, Size: x.Size})
	}
	for _, x := range dep.ImageMemoryBarriers {
		h := r.objs[x.Image].image
		if h == vk.NullImage {
			return r.noHandle(x.Image, cmd)
		}
		sr := &x.SubresourceRange
		s.Image = append(s.Image, vkext.ImageBarrier{
			Scope: vkext.Scope{SrcStages: uint64(x.SrcStageMask), SrcAccess: uint64(x.SrcAccessMask),
				DstStages: uint64(x.DstStageMask), DstAccess: uint64(x.DstAccessMask)},
			OldLayout: uint32(x.OldLayout), NewLayout: uint32(x.NewLayout), Image: unsafe.Pointer(h),
			Aspect: uint32(sr.AspectMask), BaseMip: sr.BaseMipLevel, Mips: sr.LevelCount,
			BaseLayer: sr.BaseArrayLayer, Layers: sr.LayerCount})
	}
	r.dev.asCopyStages(s) // replay_rtm1.go
	r.dev.dext.PipelineBarrier2(unsafe.Pointer(cb), s)
	return nil
}

func (r *Resources) noHandle(id planner.ResourceID, cmd planner.CommandID) error {
	res := &r.g.Resources[id]
	hint := "it was destroyed"
	if res.Imported {
		hint = "it is imported: call ImportBuffer or ImportImage first"
	}
	if cmd == planner.EndOfFrame {
		return fmt.Errorf("vulkan: final barrier: resource %q has no handle (%s)", res.Name, hint)
	}
	return fmt.Errorf("vulkan: barrier before command %q: resource %q has no handle (%s)", r.g.Commands[cmd].Name, res.Name, hint)
}

// prepareRecording turns the plan's barriers into one dependency per
// command of the order, and indexes the commands' positions.
func (r *Resources) prepareRecording() {
	r.deps = barriers.Dependencies(r.g, r.plan)
	r.pos = make([]int32, len(r.g.Commands))
	for i := range r.pos {
		r.pos[i] = -1
	}
	for k, cmd := range r.plan.Order {
		r.pos[cmd] = int32(k)
	}
	r.prepareOwnership() // ownership.go
	r.final = barriers.Batch{Command: planner.EndOfFrame}
	for _, x := range r.plan.FinalBarriers {
		r.final.Dependency.ImageMemoryBarriers = append(r.final.Dependency.ImageMemoryBarriers, barriers.ImageMemoryBarrier2{
			SrcStageMask: x.SrcStages, SrcAccessMask: x.SrcAccess, DstStageMask: x.DstStages, DstAccessMask: x.DstAccess,
			OldLayout: x.OldLayout, NewLayout: x.NewLayout, Image: x.Resource,
			SubresourceRange: barriers.SubresourceRangeOf(&x, &r.g.Resources[x.Resource].Image)})
	}
}
