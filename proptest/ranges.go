package proptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// RangedGraph builds a valid frame of n commands whose image accesses name
// random subresource ranges (mips, layers, aspects), from a seed: colour
// arrays with mip chains, depth/stencil and depth-only images, a few
// buffers and an imported image; accesses write, read in several layouts
// (so that transitions appear per subresource) or read and write disjoint
// ranges of one image in one command. Every subresource of a transient is
// first accessed by a write (a read of a never-written subresource is
// turned into a write); accesses of one image in one command that overlap
// share a layout.
func RangedGraph(seed uint64, n int) *planner.Graph {
	rng := rand.New(rand.NewPCG(seed, 0x51ed270b27c6a3b1))
	g := &planner.Graph{}
	formats := []vk.Format{vk.FormatR16G16B16A16Sfloat, vk.FormatR16G16B16A16Sfloat, vk.FormatD24UnormS8Uint, vk.FormatD32Sfloat}
	nres := 2 + rng.IntN(5)
	for i := 0; i < nres; i++ {
		name := fmt.Sprintf("r%d", i)
		if rng.IntN(6) == 0 {
			g.AddBuffer(name, planner.BufferDesc{Size: 256})
			continue
		}
		g.AddImage(name, planner.ImageDesc{Format: formats[rng.IntN(len(formats))], Width: 16, Height: 16,
			MipLevels: uint32(1 + rng.IntN(4)), ArrayLayers: uint32(1 + rng.IntN(4))})
	}
	g.AddResource(planner.Resource{Name: "imported", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, MipLevels: 3, ArrayLayers: 2, InitialLayout: vk.LayoutGeneral}})
	// written[r][sub]: the subresource has been written (imported: always).
	written := make([][]bool, len(g.Resources))
	for r := range g.Resources {
		written[r] = make([]bool, subCount(&g.Resources[r]))
		if g.Resources[r].Imported {
			for k := range written[r] {
				written[r][k] = true
			}
		}
	}
	for ci := 0; ci < n; ci++ {
		var acc []planner.Access
		for k := 0; k < 1+rng.IntN(3); k++ {
			r := planner.ResourceID(rng.IntN(len(g.Resources)))
			res := &g.Resources[r]
			a := planner.Access{Resource: r}
			if res.Kind == planner.KindImage {
				a = randomRange(rng, res, a)
			}
			write := rng.IntN(3) == 0
			subs := subsOf(res, a)
			for _, s := range subs {
				write = write || !written[r][s]
			}
			a = randomUse(rng, res, a, write)
			if res.Kind == planner.KindImage {
				// Overlapping accesses of one command share a layout; skip
				// one that overlaps two in different layouts.
				clash := false
				var layout vk.Layout
				for _, b := range acc {
					if b.Resource == r && overlaps(res, a, b) {
						if layout != 0 && layout != b.Layout {
							clash = true
						}
						layout = b.Layout
					}
				}
				if clash {
					continue
				}
				if layout != 0 {
					a.Layout = layout
				}
			}
			if write {
				for _, s := range subs {
					written[r][s] = true
				}
			}
			acc = append(acc, a)
		}
		g.AddCommand(fmt.Sprintf("c%d", ci), acc...)
	}
	return g
}

// randomRange narrows a to a random range of res (or leaves it whole).
func randomRange(rng *rand.Rand, res *planner.Resource, a planner.Access) planner.Access {
	im := &res.Image
	if rng.IntN(4) == 0 {
		return a
	}
	if m := int(im.MipLevels); m > 1 && rng.IntN(3) != 0 {
		base := rng.IntN(m)
		a = a.WithMips(base, 1+rng.IntN(m-base))
	}
	if l := int(im.ArrayLayers); l > 1 && rng.IntN(3) != 0 {
		base := rng.IntN(l)
		a = a.WithLayers(base, rng.IntN(l-base+1)) // count 0: the rest
	}
	if has := im.Format.Aspects(); has == vk.AspectDepth|vk.AspectStencil && rng.IntN(2) == 0 {
		a = a.WithAspects([]vk.Aspect{vk.AspectDepth, vk.AspectStencil, has}[rng.IntN(3)])
	}
	return a
}

// randomUse fills in stages, access flags and layout: a write, or a read
// in one of two layouts.
func randomUse(rng *rand.Rand, res *planner.Resource, a planner.Access, write bool) planner.Access {
	if res.Kind == planner.KindBuffer {
		a.Stages = vk.StageComputeShader
		a.Access = vk.AccessShaderStorageRead
		if write {
			a.Access = vk.AccessShaderStorageWrite
		}
		return a
	}
	depth := res.Image.Format.IsDepthStencil()
	switch {
	case write && depth && rng.IntN(2) == 0:
		a.Stages, a.Access, a.Layout = vk.StageEarlyFragmentTests, vk.AccessDepthStencilAttachmentWrite, vk.LayoutDepthStencilAttachmentOptimal
	case write && !depth && rng.IntN(2) == 0:
		a.Stages, a.Access, a.Layout = vk.StageColorAttachmentOutput, vk.AccessColorAttachmentWrite, vk.LayoutColorAttachmentOptimal
	case write:
		a.Stages, a.Access, a.Layout = vk.StageCopy, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal
	default:
		a.Stages = []vk.Stage{vk.StageComputeShader, vk.StageFragmentShader}[rng.IntN(2)]
		a.Access = vk.AccessShaderSampledRead
		a.Layout = []vk.Layout{vk.LayoutShaderReadOnlyOptimal, vk.LayoutGeneral}[rng.IntN(2)]
		if depth && a.Layout == vk.LayoutShaderReadOnlyOptimal {
			a.Layout = vk.LayoutDepthStencilReadOnlyOptimal
		}
	}
	return a
}

// Subresources are numbered (mip·layers + layer)·aspects + aspect index;
// a buffer has one.

func aspectBits(res *planner.Resource) []vk.Aspect {
	var out []vk.Aspect
	for _, b := range []vk.Aspect{vk.AspectColor, vk.AspectDepth, vk.AspectStencil} {
		if res.Image.Format.Aspects()&b != 0 {
			out = append(out, b)
		}
	}
	return out
}

func subCount(res *planner.Resource) int {
	if res.Kind != planner.KindImage {
		return 1
	}
	return int(res.Image.MipLevels*res.Image.ArrayLayers) * len(aspectBits(res))
}

// subsOf lists the subresources access a touches, computed from the
// fields directly (independently of the planner's resolution).
func subsOf(res *planner.Resource, a planner.Access) []int {
	if res.Kind != planner.KindImage {
		return []int{0}
	}
	im := &res.Image
	m0, m1 := int(a.Mips.Base), int(im.MipLevels)
	if a.Mips.Count != 0 {
		m1 = m0 + int(a.Mips.Count)
	}
	l0, l1 := int(a.Layers.Base), int(im.ArrayLayers)
	if a.Layers.Count != 0 {
		l1 = l0 + int(a.Layers.Count)
	}
	bits := aspectBits(res)
	var out []int
	for m := m0; m < m1; m++ {
		for l := l0; l < l1; l++ {
			for k, b := range bits {
				if a.Aspects == 0 || a.Aspects&b != 0 {
					out = append(out, (m*int(im.ArrayLayers)+l)*len(bits)+k)
				}
			}
		}
	}
	return out
}

func overlaps(res *planner.Resource, a, b planner.Access) bool {
	in := map[int]bool{}
	for _, s := range subsOf(res, a) {
		in[s] = true
	}
	for _, s := range subsOf(res, b) {
		if in[s] {
			return true
		}
	}
	return false
}
