package barriers

import (
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// TestSubresourceRangeOf: a barrier without a range records the whole
// image (the format's aspects, REMAINING levels and layers, as before
// ranges); one with a range records exactly it.
func TestSubresourceRangeOf(t *testing.T) {
	ds := &planner.ImageDesc{Format: vk.FormatD24UnormS8Uint, Width: 8, Height: 8, MipLevels: 4, ArrayLayers: 6}
	whole := SubresourceRangeOf(&planner.Barrier{}, ds)
	if want := (ImageSubresourceRange{AspectDepth | AspectStencil, 0, RemainingMipLevels, 0, RemainingArrayLayers}); whole != want {
		t.Errorf("whole image: %+v, want %+v", whole, want)
	}
	x := planner.Barrier{Mips: planner.MipRange{Base: 2, Count: 1}, Layers: planner.LayerRange{Base: 3, Count: 2}, Aspects: vk.AspectStencil}
	if got, want := SubresourceRangeOf(&x, ds), (ImageSubresourceRange{AspectStencil, 2, 1, 3, 2}); got != want {
		t.Errorf("range: %+v, want %+v", got, want)
	}
	x = planner.Barrier{Mips: planner.MipRange{Base: 1}}
	if got, want := SubresourceRangeOf(&x, ds), (ImageSubresourceRange{AspectDepth | AspectStencil, 1, RemainingMipLevels, 0, RemainingArrayLayers}); got != want {
		t.Errorf("mips from 1 on: %+v, want %+v", got, want)
	}
}
