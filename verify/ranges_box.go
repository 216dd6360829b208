package verify

import "github.com/aliasplan/aliasplan/planner"

// Cheaper ways through the per-cell checks of ranges.go, with the same
// results: a barrier range that is a union of whole cells (every range
// the builder writes) reaches the cells of its box, found from the cell
// grid's cuts, instead of being compared with every cell of the image.

// rangesByCell turns the shortcuts off (a test compares both ways).
var rangesByCell = false

// appendBox appends e for every cell of box (a grid of nl layer cells and
// na aspect cells), ascending, as reach's per-cell loop would.
func appendBox(effs []effect, box planner.CellBox, nl, na int, e effect) []effect {
	for m := box.M0; m <= box.M1; m++ {
		for l := box.L0; l <= box.L1; l++ {
			for a := range na {
				if box.Aspects&(1<<a) != 0 {
					e.k = (m*nl+l)*na + a
					effs = append(effs, e)
				}
			}
		}
	}
	return effs
}

// uncovered returns the first cell of ranged image r (cell ranges spans)
// that none of the barriers ks covers, or -1.
func (v *barrierCheck) uncovered(r planner.ResourceID, ks []int32, spans []planner.SubresourceRange, w *rangeWork) int {
	im := &v.c.Graph.Resources[r].Image
	_, nl, na := v.c.CellGrid(r)
	w.cover = grow(w.cover, len(spans))
	cover := w.cover
	for _, k := range ks {
		br := planner.BarrierRange(&v.p.Barriers[k], im)
		if box, ok := v.c.CellBoxOf(r, br); ok && !rangesByCell {
			for m := box.M0; m <= box.M1; m++ {
				for l := box.L0; l <= box.L1; l++ {
					for a := range na {
						if box.Aspects&(1<<a) != 0 {
							cover[(m*nl+l)*na+a] = true
						}
					}
				}
			}
			continue
		}
		for cell := range spans {
			if br.Covers(spans[cell]) {
				cover[cell] = true
			}
		}
	}
	for cell, ok := range cover {
		if !ok {
			return cell
		}
	}
	return -1
}
