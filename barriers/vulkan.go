package barriers

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan/planner"
)

// The types below map field for field onto Vulkan's synchronization2
// structures, without cgo. Stage and access masks are planner.Stage and
// planner.AccessFlags, whose values are Vulkan's 64-bit flags; layouts are
// planner.Layout (VkImageLayout). Buffers and images are named by
// planner.ResourceID: the recorder substitutes the handles. Queue family
// indices are left out: single queue, so the recorder writes
// VK_QUEUE_FAMILY_IGNORED for both.

// WholeSize is VK_WHOLE_SIZE: a buffer barrier over the rest of the buffer.
const WholeSize = ^uint64(0)

// RemainingMipLevels and RemainingArrayLayers are VK_REMAINING_MIP_LEVELS
// and VK_REMAINING_ARRAY_LAYERS.
const (
	RemainingMipLevels   = ^uint32(0)
	RemainingArrayLayers = ^uint32(0)
)

// ImageAspect is VkImageAspectFlags.
type ImageAspect uint32

// Image aspects (VK_IMAGE_ASPECT_*).
const (
	AspectColor   ImageAspect = 0x1
	AspectDepth   ImageAspect = 0x2
	AspectStencil ImageAspect = 0x4
)

// AspectOf returns the aspects of every subresource of an image of format
// f: depth and/or stencil for depth/stencil formats, else color.
func AspectOf(f vk.Format) ImageAspect {
	var a ImageAspect
	if f.HasDepth() {
		a |= AspectDepth
	}
	if f.HasStencil() {
		a |= AspectStencil
	}
	if a == 0 {
		a = AspectColor
	}
	return a
}

// DependencyFlags is VkDependencyFlags.
type DependencyFlags uint32

// MemoryBarrier2 is VkMemoryBarrier2: a dependency on all memory.
type MemoryBarrier2 struct {
	SrcStageMask  vk.Stage
	SrcAccessMask vk.AccessFlags
	DstStageMask  vk.Stage
	DstAccessMask vk.AccessFlags
}

// BufferMemoryBarrier2 is VkBufferMemoryBarrier2 (queue family indices
// VK_QUEUE_FAMILY_IGNORED).
type BufferMemoryBarrier2 struct {
	SrcStageMask  vk.Stage
	SrcAccessMask vk.AccessFlags
	DstStageMask  vk.Stage
	DstAccessMask vk.AccessFlags
	Buffer        planner.ResourceID
	Offset        uint64
	Size          uint64 // WholeSize for the whole buffer
}

// ImageSubresourceRange is VkImageSubresourceRange.
type ImageSubresourceRange struct {
	AspectMask     ImageAspect
	BaseMipLevel   uint32
	LevelCount     uint32 // RemainingMipLevels for all
	BaseArrayLayer uint32
	LayerCount     uint32 // RemainingArrayLayers for all
}

// ImageMemoryBarrier2 is VkImageMemoryBarrier2 (queue family indices
// VK_QUEUE_FAMILY_IGNORED). OldLayout != NewLayout makes it a layout
// transition.
type ImageMemoryBarrier2 struct {
	SrcStageMask     vk.Stage
	SrcAccessMask    vk.AccessFlags
	DstStageMask     vk.Stage
	DstAccessMask    vk.AccessFlags
	OldLayout        vk.Layout
	NewLayout        vk.Layout
	Image            planner.ResourceID
	SubresourceRange ImageSubresourceRange
}

// DependencyInfo is VkDependencyInfo: the argument of one
// vkCmdPipelineBarrier2.
type DependencyInfo struct {
	DependencyFlags      DependencyFlags // always 0
	MemoryBarriers       []MemoryBarrier2
	BufferMemoryBarriers []BufferMemoryBarrier2
	ImageMemoryBarriers  []ImageMemoryBarrier2
}

// Empty reports whether d holds no barrier: nothing to record.
func (d *DependencyInfo) Empty() bool {
	return len(d.MemoryBarriers) == 0 && len(d.BufferMemoryBarriers) == 0 && len(d.ImageMemoryBarriers) == 0
}

// Batch is the dependency to record before one command: Dependency in one
// vkCmdPipelineBarrier2 (the barriers of call 0), then Then in a second one
// (call 1: an image alias barrier after writes, which chains after the
// memory barrier of call 0 that makes the old occupants' writes
// available). Either may be empty; Then is empty for most commands.
type Batch struct {
	Command    planner.CommandID
	Dependency DependencyInfo // call 0
	Then       DependencyInfo // call 1, recorded after Dependency
}

// Dependencies returns one Batch per command of p.Order, in that order:
// batches[k].Command == p.Order[k]. Each holds p's barriers before that
// command as Vulkan structures: buffer hazard barriers over the whole
// buffer, image barriers over every subresource (aspects from the format),
// and memory barriers for buffer aliasing. A memory barrier whose scopes
// another memory barrier of the same batch includes is left out, and so is
// a buffer barrier that one of them includes: a memory barrier covers all
// memory.
//
// p must have passed verify.Plan or come from Build; a barrier before a
// command that is not in p.Order, or naming a resource g does not have, is
// misuse and panics. Cost O(len(p.Order) + len(p.Barriers)·m) for m memory
// barriers per batch; the batches share three backing arrays.
func Dependencies(g *planner.Graph, p *planner.Plan) []Batch {
	pos := make([]int32, len(g.Commands))
	for i := range pos {
		pos[i] = -1
	}
	for i, cmd := range p.Order {
		pos[cmd] = int32(i)
	}
	// Bucket the barriers by position (stable), so that a plan whose
	// barriers are not grouped still records each before its command.
	start := make([]int32, len(p.Order)+1)
	for i := range p.Barriers {
		x := &p.Barriers[i]
		if x.Before < 0 || int(x.Before) >= len(pos) || pos[x.Before] < 0 {
			panic(fmt.Sprintf("barriers: barrier %d is before command %d, which is not in the order", i, x.Before))
		}
		if x.Resource < 0 || int(x.Resource) >= len(g.Resources) {
			panic(fmt.Sprintf("barriers: barrier %d names resource %d, which the graph does not have", i, x.Resource))
		}
		start[pos[x.Before]+1]++
	}
	for k := range p.Order {
		start[k+1] += start[k]
	}
	sorted := make([]*planner.Barrier, len(p.Barriers))
	fill := append([]int32(nil), start[:len(p.Order)]...)
	for i := range p.Barriers {
		k := pos[p.Barriers[i].Before]
		sorted[fill[k]] = &p.Barriers[i]
		fill[k]++
	}
	var nm, nb, ni int
	for _, x := range sorted {
		switch x.Type {
		case planner.MemoryBarrier:
			nm++
		case planner.BufferBarrier:
			nb++
		default:
			ni++
		}
	}
	nm += len(p.Entry)
	mem := make([]MemoryBarrier2, 0, nm)
	buf := make([]BufferMemoryBarrier2, 0, nb)
	img := make([]ImageMemoryBarrier2, 0, ni)
	out := make([]Batch, len(p.Order))
	var call0, call1 []*planner.Barrier
	for k, cmd := range p.Order {
		xs := sorted[start[k]:start[k+1]]
		call0, call1 = call0[:0], call1[:0]
		for _, x := range xs {
			if x.Call == 1 {
				call1 = append(call1, x)
			} else {
				call0 = append(call0, x)
			}
		}
		out[k].Command = cmd
		if k == 0 {
			call0 = appendEntry(call0, p) // entry.go
		}
		for c, xs := range [2][]*planner.Barrier{call0, call1} {
			m0, b0, i0 := len(mem), len(buf), len(img)
			for j, x := range xs {
				if x.Type == planner.MemoryBarrier && !memoryImplied(xs, j) {
					mem = append(mem, MemoryBarrier2{x.SrcStages, x.SrcAccess, x.DstStages, x.DstAccess})
				}
			}
			for _, x := range xs {
				switch x.Type {
				case planner.BufferBarrier:
					if !coveredByMemory(mem[m0:], x) {
						buf = append(buf, BufferMemoryBarrier2{x.SrcStages, x.SrcAccess, x.DstStages, x.DstAccess, x.Resource, 0, WholeSize})
					}
				case planner.ImageBarrier:
					img = append(img, ImageMemoryBarrier2{x.SrcStages, x.SrcAccess, x.DstStages, x.DstAccess, x.OldLayout, x.NewLayout, x.Resource,
						SubresourceRangeOf(x, &g.Resources[x.Resource].Image)}) // ranges.go
				}
			}
			d := DependencyInfo{
				MemoryBarriers:       nilIfEmpty(mem[m0:len(mem):len(mem)]),
				BufferMemoryBarriers: nilIfEmpty(buf[b0:len(buf):len(buf)]),
				ImageMemoryBarriers:  nilIfEmpty(img[i0:len(img):len(img)]),
			}
			if c == 0 {
				out[k].Dependency = d
			} else {
				out[k].Then = d
			}
		}
	}
	return out
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// memoryImplied reports whether memory barrier xs[j] is included in
// another memory barrier of xs; of two equal ones the first is kept.
func memoryImplied(xs []*planner.Barrier, j int) bool {
	x := xs[j]
	for i, y := range xs {
		if i == j || y.Type != planner.MemoryBarrier || !scopeIncludes(y, x) {
			continue
		}
		if !scopeIncludes(x, y) || i < j {
			return true
		}
	}
	return false
}

// coveredByMemory reports whether one of the memory barriers includes the
// scopes of x.
func coveredByMemory(mem []MemoryBarrier2, x *planner.Barrier) bool {
	for _, m := range mem {
		if scopeIncludes(&planner.Barrier{SrcStages: m.SrcStageMask, SrcAccess: m.SrcAccessMask, DstStages: m.DstStageMask, DstAccess: m.DstAccessMask}, x) {
			return true
		}
	}
	return false
}

// scopeIncludes reports whether y's four masks include x's.
func scopeIncludes(y, x *planner.Barrier) bool {
	return y.SrcStages&x.SrcStages == x.SrcStages && y.SrcAccess&x.SrcAccess == x.SrcAccess &&
		y.DstStages&x.DstStages == x.DstStages && y.DstAccess&x.DstAccess == x.DstAccess
}
