package verify

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// verifyFinal checks the final barriers (Plan.FinalBarriers): each one is
// an image transition of an imported image with a FinalLayout, recorded
// at the end of the frame (Before == planner.EndOfFrame), from the layout
// the frame leaves the image in (its use last in the execution order;
// InitialLayout when unused) into the FinalLayout; its source covers the
// image's terminal uses (their stages and writes) and its destination all
// commands and all memory access, so that what the queue runs next is
// ordered after it. Every imported image whose FinalLayout differs from
// the layout the frame leaves it in has exactly one. Violations go to errs
// (rule final-layout); it reports whether the cap was reached.
func verifyFinal(c *planner.Compiled, p *planner.Plan, errs *errList) bool {
	g := c.Graph
	if len(p.Order) != len(g.Commands) || len(p.Resources) != len(g.Resources) {
		return false // the barrier checks report these
	}
	fail := func(r planner.ResourceID, k int, format string, args ...any) bool {
		e := &planner.BarrierError{Barrier: -1, Rule: planner.RuleFinalLayout, Detail: fmt.Sprintf(format, args...)}
		if r >= 0 && int(r) < len(g.Resources) {
			e.Resource = g.Resources[r].Name
		}
		if k >= 0 {
			e.Detail = fmt.Sprintf("final barrier %d: %s", k, e.Detail)
		}
		return errs.add(e)
	}
	pos := make([]int, len(g.Commands))
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= len(g.Commands) {
			return false
		}
		pos[cmd] = i
	}
	// endLayout is the layout the frame leaves an image in.
	endLayout := func(r planner.ResourceID) vk.Layout {
		us := c.Uses(r)
		if len(us) == 0 {
			return g.Resources[r].Image.InitialLayout
		}
		last := 0
		for i := range us {
			if pos[us[i].Command] > pos[us[last].Command] {
				last = i
			}
		}
		return us[last].Layout
	}
	seen := make([]bool, len(g.Resources))
	for k := range p.FinalBarriers {
		x := &p.FinalBarriers[k]
		r := x.Resource
		if r < 0 || int(r) >= len(g.Resources) {
			if fail(-1, k, "resource %d does not exist", r) {
				return true
			}
			continue
		}
		res := &g.Resources[r]
		if c.Ranged(r) {
			continue // per cell: ranges.go
		}
		var msg string
		switch {
		case x.Before != planner.EndOfFrame:
			msg = fmt.Sprintf("anchored before command %d: a final barrier is recorded after the last command (Before = EndOfFrame)", x.Before)
		case !res.Imported || res.Kind != planner.KindImage:
			msg = fmt.Sprintf("on %s: final barriers are for imported images", describe(res))
		case x.Type != planner.ImageBarrier || x.Kind != planner.Hazard || x.Previous != nil:
			msg = fmt.Sprintf("a %s %s barrier: a final barrier is an image hazard barrier", x.Kind, x.Type)
		case seen[r]:
			msg = "a second final barrier on the image"
		case res.Image.FinalLayout == vk.LayoutUndefined:
			msg = "the image has no final layout"
		case x.NewLayout != res.Image.FinalLayout:
			msg = fmt.Sprintf("transitions into %s, the final layout is %s", x.NewLayout, res.Image.FinalLayout)
		case x.OldLayout != endLayout(r):
			msg = fmt.Sprintf("transitions from %s, the frame leaves the image in %s", x.OldLayout, endLayout(r))
		case x.OldLayout == x.NewLayout:
			msg = fmt.Sprintf("changes no layout (%s)", x.NewLayout)
		case vk.UnsupportedAccess(x.SrcStages, x.SrcAccess) != 0 || vk.UnsupportedAccess(x.DstStages, x.DstAccess) != 0:
			msg = "an access flag that none of its stages can perform"
		case x.DstStages.Expand() != vk.StageAllCommands.Expand() ||
			x.DstAccess.Expand()&(vk.AccessMemoryRead|vk.AccessMemoryWrite).Expand() != (vk.AccessMemoryRead|vk.AccessMemoryWrite).Expand():
			msg = fmt.Sprintf("destination %s / %s: the next work on the queue is ordered after it only with ALL_COMMANDS and MEMORY_READ|MEMORY_WRITE", x.DstStages, x.DstAccess)
		default:
			msg = finalSourceGap(c, r, x)
		}
		seen[r] = seen[r] || (res.Imported && res.Kind == planner.KindImage)
		if msg != "" && fail(r, k, "%s", msg) {
			return true
		}
	}
	for r := range g.Resources {
		res := &g.Resources[r]
		id := planner.ResourceID(r)
		if !res.Imported || res.Kind != planner.KindImage || res.Image.FinalLayout == vk.LayoutUndefined || seen[r] || c.Ranged(id) {
			continue
		}
		if end := endLayout(id); end != res.Image.FinalLayout {
			if fail(id, -1, "the frame leaves the image in %s and no final barrier takes it to its final layout %s", end, res.Image.FinalLayout) {
				return true
			}
		}
	}
	return false
}

// finalSourceGap returns what x's source scope misses of r's terminal
// uses, or "".
func finalSourceGap(c *planner.Compiled, r planner.ResourceID, x *planner.Barrier) string {
	us := c.Uses(r)
	for _, t := range c.Terminal(r) {
		for _, u := range us {
			if u.Command != t {
				continue
			}
			if x.SrcStages.Expand()&u.Stages.Expand() != u.Stages.Expand() {
				return fmt.Sprintf("source stages %s miss the last use by command %q (%s)", x.SrcStages, c.Graph.Commands[t].Name, u.Stages)
			}
			if w := u.Access.Writes().Expand(); x.SrcAccess.Expand()&w != w {
				return fmt.Sprintf("source access %s misses the writes of the last use by command %q (%s)", x.SrcAccess, c.Graph.Commands[t].Name, u.Access.Writes())
			}
		}
	}
	return ""
}

// describe names a resource's kind for a message: "a buffer", "a transient
// image", "an imported image".
func describe(res *planner.Resource) string {
	switch {
	case res.Kind != planner.KindImage:
		return "a buffer"
	case res.Imported:
		return "an imported image"
	}
	return "a transient image"
}
