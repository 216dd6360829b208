package replay

import (
	vk "github.com/goki/vulkan"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"

	p "github.com/aliasplan/aliasplan/planner"
)

// Ranges of imported images (issue 23, item 6). An imported image is the
// replay's own, given the same contents before every run and read back
// whole after it; ranged accesses touch parts of it. Only the read-back
// depends on them: the frame leaves each subresource (mip, layer, aspect)
// in the layout of the last access that named it, or in the layout the
// initialisation left where none did, and each is moved from there into
// TRANSFER_SRC_OPTIMAL. An image the frame leaves in one layout keeps one
// barrier, as before ranges.

// readbackBarriers are the read-back's image barriers for the frame run
// in order.
func (r *Replayer) readbackBarriers(order []p.CommandID) []vkext.ImageBarrier {
	var out []vkext.ImageBarrier
	for _, o := range r.imports {
		if o.img == vk.NullImage {
			continue
		}
		im := &r.g.Resources[o.id].Image
		start := im.InitialLayout
		if start == avk.LayoutUndefined {
			start = avk.LayoutTransferDstOptimal
		}
		type sub struct{ level, layer, aspect uint32 }
		var subs []sub
		for asp := uint32(1); asp <= aspectStencil; asp <<= 1 {
			if colorOrDepth(im.Format)&asp == 0 {
				continue
			}
			for l := uint32(0); l < max(im.MipLevels, 1); l++ {
				for k := uint32(0); k < max(im.ArrayLayers, 1); k++ {
					subs = append(subs, sub{l, k, asp})
				}
			}
		}
		layout := make(map[sub]avk.Layout, len(subs))
		for _, s := range subs {
			layout[s] = start
		}
		for _, c := range order {
			for i := range r.g.Commands[c].Accesses {
				a := &r.g.Commands[c].Accesses[i]
				if a.Resource != o.id {
					continue
				}
				sp := accessSpan(im, a)
				for _, s := range subs {
					if s.aspect&sp.aspects != 0 && s.level >= sp.mip0 && s.level < sp.mip0+sp.mips && s.layer >= sp.layer0 && s.layer < sp.layer0+sp.layers {
						layout[s] = a.Layout
					}
				}
			}
		}
		one := true
		for _, s := range subs {
			one = one && layout[s] == layout[subs[0]]
		}
		if one {
			out = append(out, imageBarrier(o.img, colorOrDepth(im.Format), avk.StageAllCommands, avk.AccessMemoryWrite, avk.StageAllTransfer, avk.AccessTransferRead,
				layout[subs[0]], avk.LayoutTransferSrcOptimal))
			continue
		}
		for _, s := range subs {
			b := imageBarrier(o.img, s.aspect, avk.StageAllCommands, avk.AccessMemoryWrite, avk.StageAllTransfer, avk.AccessTransferRead,
				layout[s], avk.LayoutTransferSrcOptimal)
			b.BaseMip, b.Mips, b.BaseLayer, b.Layers = s.level, 1, s.layer, 1
			out = append(out, b)
		}
	}
	return out
}
