package vulkan

import (
	"fmt"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Queue family ownership transfers (planner.Options.Sharing exclusive,
// Plan.Transfers). With SetSharing(SharingExclusive) the resources a plan
// with exclusive sharing hands over are created EXCLUSIVE (the others
// CONCURRENT, as by default) and the plan's transfers are recorded: the release
// right after its After command (RecordReleases, or Record), the acquire
// right before its Before command's barriers (RecordBarriers, Record),
// with the families of the logical queues filled in. Where both queues
// map to one family (lavapipe) the pair degenerates into two plain
// barriers with VK_QUEUE_FAMILY_IGNORED and old == new layout, which
// order nothing the semaphore does not (recorded all the same, so the
// path runs there). With SharingConcurrent the transfers are ignored:
// CONCURRENT resources take none.

// exclusive reports whether resource id is created EXCLUSIVE under
// SharingExclusive: what a plan with Options.Sharing exclusive hands over
// by transfers (planner.Compiled.Exclusive, a function of the graph
// alone, so it is known before planning). The others are CONCURRENT as
// under SharingConcurrent. A graph that does not compile gets none.
func (r *Resources) exclusive(id planner.ResourceID) bool {
	if r.excl == nil {
		r.excl = make([]bool, len(r.g.Resources))
		if c, err := planner.Compile(r.g); err == nil {
			for i := range r.excl {
				r.excl[i] = c.Exclusive(planner.ResourceID(i))
			}
		}
	}
	return r.excl[id]
}

// prepareOwnership indexes the bound plan's transfers by command.
func (r *Resources) prepareOwnership() {
	r.releases, r.acquires = nil, nil
	if r.sharing != SharingExclusive || len(r.plan.Transfers) == 0 {
		return
	}
	r.releases = make([][]int32, len(r.g.Commands))
	r.acquires = make([][]int32, len(r.g.Commands))
	for k, t := range r.plan.Transfers {
		r.releases[t.After] = append(r.releases[t.After], int32(k))
		r.acquires[t.Before] = append(r.acquires[t.Before], int32(k))
	}
}

// checkOwnership: a Resources creating resources EXCLUSIVE binds only a
// plan whose contents crossing families are handed over.
func (r *Resources) checkOwnership(plan *planner.Plan) error {
	if r.sharing != SharingExclusive {
		return nil
	}
	for id := range plan.Resources {
		rid := planner.ResourceID(id)
		if r.g.Resources[id].Imported || plan.Resources[id].Exclusive == r.exclusive(rid) || usedFamilies(r.g, rid, r.dev.info.Queues) == nil {
			continue
		}
		return &BindError{Step: "validate", Rule: RulePlan, Resource: r.g.Resources[id].Name,
			Detail: fmt.Sprintf("with SharingExclusive this resource is created %s, but the plan (sharing %s) marks it exclusive: %v: plan with Options.Sharing exclusive", map[bool]string{true: "EXCLUSIVE", false: "CONCURRENT"}[r.exclusive(rid)], plan.Sharing, plan.Resources[id].Exclusive)}
	}
	for _, t := range plan.Transfers {
		if t.After < 0 || int(t.After) >= len(r.g.Commands) || t.Before < 0 || int(t.Before) >= len(r.g.Commands) ||
			t.Resource < 0 || int(t.Resource) >= len(r.g.Resources) {
			return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("ownership transfer of resource %d between commands %d and %d: not in the graph", t.Resource, t.After, t.Before)}
		}
	}
	return nil
}

// RecordReleases records the release halves of the ownership transfers
// the bound plan anchors after cmd (nothing when none), for a renderer
// that drives the order itself: right after cmd's work, in the same
// command buffer.
func (r *Resources) RecordReleases(cb vk.CommandBuffer, cmd planner.CommandID) error {
	if !r.bound {
		return errNotBound
	}
	if r.releases == nil || cmd < 0 || int(cmd) >= len(r.releases) {
		return nil
	}
	return r.recordOwnership(cb, cmd, r.releases[cmd], true)
}

// recordAcquires records the acquire halves anchored before cmd.
func (r *Resources) recordAcquires(cb vk.CommandBuffer, cmd planner.CommandID) error {
	if r.acquires == nil || cmd < 0 || int(cmd) >= len(r.acquires) {
		return nil
	}
	return r.recordOwnership(cb, cmd, r.acquires[cmd], false)
}

func (r *Resources) recordOwnership(cb vk.CommandBuffer, cmd planner.CommandID, ks []int32, release bool) error {
	if len(ks) == 0 {
		return nil
	}
	s := &r.scratch
	s.Reset()
	for _, k := range ks {
		t := &r.plan.Transfers[k]
		// The release's second scope and the acquire's first are the
		// stages the semaphore's signal and wait masks hold (so both
		// chain with it); neither has an access there.
		sc := vkext.Scope{SrcStages: uint64(t.SrcStages), SrcAccess: uint64(t.SrcAccess), DstStages: uint64(t.SrcStages)}
		if !release {
			sc = vkext.Scope{SrcStages: uint64(t.DstStages), DstStages: uint64(t.DstStages), DstAccess: uint64(t.DstAccess)}
		}
		sf, df := r.dev.Family(t.From), r.dev.Family(t.To)
		own := vkext.Ownership{Transfer: sf != df, SrcFamily: sf, DstFamily: df}
		res := &r.g.Resources[t.Resource]
		if res.Kind == planner.KindBuffer {
			h := r.objs[t.Resource].buffer
			if h == vk.NullBuffer {
				return r.noHandle(t.Resource, cmd)
			}
			s.Buffer = append(s.Buffer, vkext.BufferBarrier{Scope: sc, Buffer: unsafe.Pointer(h), Size: uint64(vk.WholeSize), Ownership: own})
			continue
		}
		h := r.objs[t.Resource].image
		if h == vk.NullImage {
			return r.noHandle(t.Resource, cmd)
		}
		sr := barriers.SubresourceRangeOf(&planner.Barrier{Resource: t.Resource}, &res.Image)
		s.Image = append(s.Image, vkext.ImageBarrier{Scope: sc, OldLayout: uint32(t.OldLayout), NewLayout: uint32(t.NewLayout),
			Image: unsafe.Pointer(h), Aspect: uint32(sr.AspectMask), BaseMip: sr.BaseMipLevel, Mips: sr.LevelCount,
			BaseLayer: sr.BaseArrayLayer, Layers: sr.LayerCount, Ownership: own})
	}
	r.dev.dext.PipelineBarrier2(unsafe.Pointer(cb), s)
	return nil
}
