package barriers

import (
	"fmt"
	"slices"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// finalBarriers appends to out the final barriers of c's imported images
// and returns them with warn, whose final-layout warnings it replaces.
//
// An imported image with a FinalLayout that its last use leaves in another
// layout gets one image barrier after the last command (Before =
// planner.EndOfFrame): source = its terminal uses' stages and writes (every
// other use is ordered before one of those by its own barriers), old
// layout = the last use's; destination = all commands and all memory
// access, so whatever the queue runs next (the next frame, which declares
// the image in that layout and so records no barrier of its own) is
// ordered after the transition. An unused one is transitioned from its
// InitialLayout with source ALL_COMMANDS and no access: like a first-use
// transition, it chains with the caller's own synchronization.
//
// Without a FinalLayout, an image that the frame leaves in another layout
// than its InitialLayout gets a warning, unless that is UNDEFINED (the
// next frame may always declare it so: its contents are not kept).
func (b *builder) finalBarriers(out []planner.Barrier, warn []planner.Warning) ([]planner.Barrier, []planner.Warning) {
	warn = slices.DeleteFunc(warn, func(w planner.Warning) bool { return w.Rule == planner.RuleFinalLayout })
	c := b.c
	g := c.Graph
	for r := range g.Resources {
		res := &g.Resources[r]
		if !res.Imported || res.Kind != planner.KindImage {
			continue
		}
		id := planner.ResourceID(r)
		if b.ranged(id) {
			out, warn = b.rangedFinal(out, warn, id) // ranges.go
			continue
		}
		x := planner.Barrier{Before: planner.EndOfFrame, Kind: planner.Hazard, Type: planner.ImageBarrier, Resource: id,
			DstStages: vk.StageAllCommands, DstAccess: vk.AccessMemoryRead | vk.AccessMemoryWrite,
			OldLayout: res.Image.InitialLayout, NewLayout: res.Image.FinalLayout}
		if us := c.Uses(id); len(us) > 0 {
			x.OldLayout = us[len(us)-1].Layout // layout changes are ordered: the last in recorded order is the last
			x.SrcStages, x.SrcAccess = b.terminalScope(id)
		} else {
			x.SrcStages = vk.StageAllCommands
		}
		switch {
		case x.NewLayout == vk.LayoutUndefined:
			if x.OldLayout != res.Image.InitialLayout && res.Image.InitialLayout != vk.LayoutUndefined {
				warn = append(warn, planner.Warning{Resource: res.Name, Rule: planner.RuleFinalLayout,
					Detail: fmt.Sprintf("the frame leaves it in %s but it arrives in %s (initialLayout), which the next frame would declare: give it a finalLayout",
						x.OldLayout, res.Image.InitialLayout)})
			}
		case x.NewLayout != x.OldLayout:
			out = append(out, x)
		}
	}
	return out, warn
}
