package planner

import "fmt"

// checkInvariants panics when the compiled graph breaks a structural
// invariant the rest of the package relies on. Run only under the
// invariants build tag.
func (c *Compiled) checkInvariants() {
	nc := len(c.Graph.Commands)
	for a := 0; a < nc; a++ {
		// Edges point forward in recorded order, batches strictly increase
		// along them, and every successor is reachable.
		for _, b := range c.Successors(CommandID(a)) {
			if int(b) <= a {
				panic(fmt.Sprintf("planner: invariant: edge %d->%d points backwards", a, b))
			}
			if c.batch[b] <= c.batch[a] {
				panic(fmt.Sprintf("planner: invariant: edge %d->%d within or against batches %d->%d", a, b, c.batch[a], c.batch[b]))
			}
			if !c.HappensBefore(CommandID(a), b) {
				panic(fmt.Sprintf("planner: invariant: successor %d of %d not in the closure", b, a))
			}
		}
		// A row holds only later commands: the closure is irreflexive.
		for b := 0; b <= a; b++ {
			if c.HappensBefore(CommandID(a), CommandID(b)) {
				panic(fmt.Sprintf("planner: invariant: closure row %d holds %d", a, b))
			}
		}
	}
	for r := range c.Graph.Resources {
		us := c.Uses(ResourceID(r))
		for i := 1; i < len(us); i++ {
			if us[i].Command <= us[i-1].Command {
				panic(fmt.Sprintf("planner: invariant: uses of resource %d out of order", r))
			}
		}
		if len(us) > 0 && (len(c.Initial(ResourceID(r))) == 0 || len(c.Terminal(ResourceID(r))) == 0) {
			panic(fmt.Sprintf("planner: invariant: used resource %d without initial or terminal use", r))
		}
	}
}
