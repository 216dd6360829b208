package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
)

// More compute slots of one kind than replay.comp declares (a ninth
// storage buffer, a fifth 64 KiB uniform range, ...) split the command's
// compute work into several dispatches, one part each: every part has
// its own descriptor set, Params record and lanes, and the command's
// digest folds all of their lanes. The slots of one written subresource
// (resource, mip level, layer) stay in one part, so no dispatch writes
// what another of the same command reads or writes (they run without a
// barrier between them); read-only slots go wherever they fit. Graphics
// stages do not split (their extra draws would have to follow the
// one-writing-draw rule of gfxwrite.go): gfxsplit.go gives them extra
// draws.

// allParts is every part of w: one per stage (nil where the stage has
// none), then the extra compute parts.
func (w *work) allParts() []*part {
	if len(w.more) == 0 && len(w.gfxMore) == 0 && len(w.fsr) == 0 {
		return w.parts[:]
	}
	return append(append(append(w.parts[:len(w.parts):len(w.parts)], w.more...), w.gfxMoreParts()...), w.fsrParts()...) // gfxsplit.go, fsr.go
}

// splitCompute moves w's compute slots beyond the arrays' sizes into
// extra parts (w.more), numbering each part's slots of a kind from 0.
func splitCompute(g *p.Graph, w *work) error {
	pt := w.parts[stCompute]
	if pt == nil {
		return nil
	}
	var counts [numCategories]int
	over := false
	for _, s := range pt.slots {
		counts[s.cat]++
		over = over || counts[s.cat] > s.cat.size(stCompute)
	}
	if !over {
		return nil
	}
	type key struct {
		res          p.ResourceID
		level, layer int64
	}
	keyOf := func(s *slot) key { return key{s.res, int64(s.level), int64(s.layer)} }
	written := map[key]bool{}
	for i := range pt.slots {
		if pt.slots[i].flags&fWrite != 0 {
			written[keyOf(&pt.slots[i])] = true
		}
	}
	var units [][]slot
	unitOf := map[key]int{}
	for _, s := range pt.slots {
		k := keyOf(&s)
		if written[k] {
			if i, ok := unitOf[k]; ok {
				units[i] = append(units[i], s)
				continue
			}
			unitOf[k] = len(units)
		}
		units = append(units, []slot{s})
	}
	fits := func(q *part, u []slot) bool {
		var n [numCategories]int
		for _, s := range q.slots {
			n[s.cat]++
		}
		for _, s := range u {
			n[s.cat]++
			if n[s.cat] > s.cat.size(stCompute) {
				return false
			}
		}
		return true
	}
	parts := []*part{{stage: stCompute}}
	for _, u := range units {
		i := 0
		for i < len(parts) && !fits(parts[i], u) {
			i++
		}
		if i == len(parts) {
			q := &part{stage: stCompute}
			if !fits(q, u) {
				return &UnsupportedError{Command: w.name, Resource: g.Resources[u[0].res].Name, Access: "compute shader",
					Reason: fmt.Sprintf("one written subresource needs more than %d %s slots of the compute shader", u[0].cat.size(stCompute), cats[u[0].cat].name)}
			}
			parts = append(parts, q)
		}
		parts[i].slots = append(parts[i].slots, u...)
	}
	for _, q := range parts {
		var n [numCategories]int
		for j := range q.slots {
			q.slots[j].index = n[q.slots[j].cat]
			n[q.slots[j].cat]++
		}
	}
	w.parts[stCompute], w.more = parts[0], parts[1:]
	return nil
}

// recordMoreDispatches records the extra compute parts' dispatches, with
// their own sets (after the first part's, recordWork).
func (m *mode) recordMoreDispatches(cb vkg.CommandBuffer, w *work) error {
	k := m.r.k
	for i, pt := range w.more {
		pl, err := k.compPipeline(pt.masks())
		if err != nil {
			return err
		}
		vkg.CmdBindPipeline(cb, vkg.PipelineBindPointCompute, pl)
		vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointCompute, k.compLay, 0, 1, []vkg.DescriptorSet{m.moreSets[w.cmd][i]}, 0, nil)
		groups := (max(pt.maxCount(), 1) + 63) / 64
		gx := min(groups, 65535)
		gy := (groups + gx - 1) / gx
		vkg.CmdDispatch(cb, uint32(gx), uint32(gy), 1)
	}
	return nil
}

// writeMoreSets writes the extra compute parts' descriptor sets (prepare).
func (m *mode) writeMoreSets(stride uint64) error {
	m.moreSets = make([][]vkg.DescriptorSet, len(m.r.works))
	for i := range m.r.works {
		for _, pt := range m.r.works[i].more {
			set, err := m.writeSet(pt, stCompute, stride, nil)
			if err != nil {
				return fmt.Errorf("replay: command %q: %w", m.r.works[i].name, err)
			}
			m.moreSets[i] = append(m.moreSets[i], set)
		}
	}
	return m.writeGfxMoreSets(stride) // gfxsplit.go
}
