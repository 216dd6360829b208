package picture

import (
	"fmt"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// useLayouts returns the layout and previous layout the details show for
// use i of image r: the use's own for a whole-image image; per subresource
// cell for a ranged one ("SHADER_READ_ONLY_OPTIMAL on mips [0, 1] …; …").
func useLayouts(c *planner.Compiled, r planner.ResourceID, i int) (layout, prev string) {
	u := c.Uses(r)[i]
	if !c.Ranged(r) {
		return u.Layout.String(), u.PrevLayout.String()
	}
	var l, p []string
	for _, e := range c.CellUses(r, i) {
		m, ly, a := c.CellRange(r, e.Cell())
		where := rangeText(m, ly, a)
		l = append(l, e.Layout().String()+" on "+where)
		p = append(p, e.PrevLayout().String()+" on "+where)
	}
	return strings.Join(l, "; "), strings.Join(p, "; ")
}

// barrierLayouts returns an image barrier's old and new layouts as the
// details show them, with its range when it has one (equal suffixes keep
// old == new for a barrier that changes no layout).
func barrierLayouts(br *planner.Barrier) (oldL, newL string) {
	oldL, newL = br.OldLayout.String(), br.NewLayout.String()
	if br.Mips != (planner.MipRange{}) || br.Layers != (planner.LayerRange{}) || br.Aspects != 0 {
		where := " on " + rangeText(br.Mips, br.Layers, br.Aspects)
		oldL, newL = oldL+where, newL+where
	}
	return oldL, newL
}

func rangeText(m planner.MipRange, l planner.LayerRange, a interface{ String() string }) string {
	return fmt.Sprintf("mips [%d, %d] layers [%d, %d] aspects %s", m.Base, m.Count, l.Base, l.Count, a)
}
