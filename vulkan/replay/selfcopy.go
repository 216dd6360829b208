package replay

import (
	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// A transfer that reads and writes one buffer (TRANSFER_READ and
// TRANSFER_WRITE in one use) is replayed as vkCmdCopyBuffer from the
// buffer's first half to its second: distinct regions, as Vulkan wants,
// one COPY-stage read and write of the same memory.

const selfTransfer = vk.AccessTransferRead | vk.AccessTransferWrite

// isSelfCopy says whether a (in stages st) is a copy of a resource onto
// itself (images: selfimage.go).
func isSelfCopy(r *p.Resource, a *p.Access, st vk.Stage) bool {
	return st&transferStages != 0 && a.Access&selfTransfer == selfTransfer
}

// addSelfCopy adds the copy, or says why the resource cannot have one.
func addSelfCopy(w *work, r *p.Resource, a *p.Access, st vk.Stage) string {
	if r.Kind == p.KindImage {
		return addSelfImage(w, r, a, st) // selfimage.go
	}
	switch {
	case st&(vk.StageCopy|vk.StageAllTransfer) == 0:
		return "a buffer read and written by one transfer is a copy (vkCmdCopyBuffer): declare the COPY or ALL_TRANSFER stage"
	case r.Buffer.Usage&(vk.BufferUsageTransferSrc|vk.BufferUsageTransferDst) != vk.BufferUsageTransferSrc|vk.BufferUsageTransferDst:
		return "a buffer copied onto itself needs TRANSFER_SRC and TRANSFER_DST usage (Vulkan)"
	case r.Buffer.Size < 8:
		return "a buffer copied onto itself needs 8 bytes (two distinct 4-byte regions)"
	}
	w.copies = append(w.copies, copyOp{src: a.Resource, dst: a.Resource})
	return ""
}

// selfCopyRegion is the region of a buffer's copy onto itself.
func selfCopyRegion(size uint64) []vkg.BufferCopy {
	half := size / 2 &^ 3
	return []vkg.BufferCopy{{DstOffset: vkg.DeviceSize(half), Size: vkg.DeviceSize(half)}}
}
