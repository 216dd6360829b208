package planner

import "github.com/aliasplan/aliasplan/vk"

// CellBox is a box of cells of a ranged image: mip cells [M0, M1], layer
// cells [L0, L1] (indices into the cell grid, not mip levels or layers)
// and the aspect cells whose bit is set in Aspects (bit k: aspect cell k).
// Its cells, ascending, are (m*layers+l)*aspects+a for m, l, a in the box.
type CellBox struct {
	M0, M1, L0, L1 int
	Aspects        uint8
}

// CellBoxOf returns the cells of ranged image r that the resolved range s
// (explicit counts, as BarrierRange and CellRange give) covers, when s
// lies inside the image and cuts no cell: every cell is then inside s or
// disjoint from it. ok is false otherwise (s cuts a cell, leaves the
// image, or is empty), and the caller compares s with each cell's range.
// The box may be empty of aspects (s names none of the format's).
func (c *Compiled) CellBoxOf(r ResourceID, s SubresourceRange) (box CellBox, ok bool) {
	rr := c.rangedOf(int(r))
	if rr == nil || s.Mips.Count == 0 || s.Layers.Count == 0 {
		return CellBox{}, false
	}
	mb, me := uint32(s.Mips.Base), uint32(s.Mips.Base)+uint32(s.Mips.Count)
	lb, le := uint32(s.Layers.Base), uint32(s.Layers.Base)+uint32(s.Layers.Count)
	mc, lc := rr.mipCuts, rr.layerCuts
	// The uint8 and uint16 sums of SubresourceRange's own tests must not
	// wrap either, so that both ways agree.
	if me > mc[len(mc)-1] || le > lc[len(lc)-1] || me > 0xff || le > 0xffff {
		return CellBox{}, false
	}
	box.M0, box.M1 = cutIndex(mc, mb), cutIndex(mc, me-1)
	box.L0, box.L1 = cutIndex(lc, lb), cutIndex(lc, le-1)
	if mc[box.M0] != mb || mc[box.M1+1] != me || lc[box.L0] != lb || lc[box.L1+1] != le {
		return CellBox{}, false
	}
	for k, bit := range rr.aspects {
		if s.Aspects&bit != 0 {
			box.Aspects |= 1 << k
		}
	}
	return box, true
}

// BoxRange returns the subresource range of a box of ranged image r's
// cells (explicit counts; the aspects of its aspect cells).
func (c *Compiled) BoxRange(r ResourceID, box CellBox) (MipRange, LayerRange, vk.Aspect) {
	rr := c.rangedOf(int(r))
	mc, lc := rr.mipCuts, rr.layerCuts
	var asp vk.Aspect
	for k, bit := range rr.aspects {
		if box.Aspects&(1<<k) != 0 {
			asp |= bit
		}
	}
	return MipRange{Base: uint8(mc[box.M0]), Count: uint8(mc[box.M1+1] - mc[box.M0])},
		LayerRange{Base: uint16(lc[box.L0]), Count: uint16(lc[box.L1+1] - lc[box.L0])}, asp
}

// NumCellUses returns the number of (use, cell) entries of ranged image r
// (the sum of len(CellUses(r, i)) over its uses; 0 for any other
// resource).
func (c *Compiled) NumCellUses(r ResourceID) int {
	rr := c.rangedOf(int(r))
	if rr == nil {
		return 0
	}
	return len(rr.ent)
}
