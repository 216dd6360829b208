package replay

import (
	"fmt"

	p "github.com/aliasplan/aliasplan/planner"
)

// partialRange returns the first access of g that names part of its image
// (some mips, layers or aspects, not all): the replay reads and writes
// whole images, so it cannot yet replay per-range work (issue 23, item 6)
// and says so instead of recording wrong work.
func partialRange(g *p.Graph) error {
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		for i := range cmd.Accesses {
			a := &cmd.Accesses[i]
			if !a.HasRange() || int(a.Resource) >= len(g.Resources) {
				continue
			}
			img := &g.Resources[a.Resource].Image
			mips, layers := max(img.MipLevels, 1), max(img.ArrayLayers, 1)
			partial := (a.Mips.Count != 0 && (a.Mips.Base != 0 || uint32(a.Mips.Count) != mips)) ||
				(a.Layers.Count != 0 && (a.Layers.Base != 0 || uint32(a.Layers.Count) != layers)) ||
				(a.Aspects != 0 && a.Aspects != img.Format.Aspects())
			if partial {
				return fmt.Errorf("replay: command %q: resource %q: the access names a subresource range (mips %d+%d, layers %d+%d, aspects %s); replaying per-range work is not built yet (the plan itself is valid: aliasplan check accepts it)",
					cmd.Name, g.Resources[a.Resource].Name, a.Mips.Base, a.Mips.Count, a.Layers.Base, a.Layers.Count, a.Aspects)
			}
		}
	}
	return nil
}
