package replay

import (
	vk "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// clearRange is the range a clear of op's destination covers: the
// access's range (ranges.go), every subresource for a whole-image access.
func clearRange(res *p.Resource, op copyOp) []vk.ImageSubresourceRange {
	s := op.sp
	if s.mips == 0 {
		s = accessSpan(&res.Image, &p.Access{})
	}
	asp := colorOrDepth(res.Image.Format) & s.aspects
	return []vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(asp), BaseMipLevel: s.mip0, LevelCount: s.mips, BaseArrayLayer: s.layer0, LayerCount: s.layers}}
}

// layerView is the layers of a shader slot's array view: [layer0,
// layer0+layers); layers 0 is every layer of the image.
type layerView struct{ layer0, layers uint32 }
