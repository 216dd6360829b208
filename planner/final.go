package planner

import "fmt"

// The end of the frame: where imported images are left in their final
// layout (ImageDesc.FinalLayout), and what the plan warns about.

// EndOfFrame is the Before of a final barrier (Plan.FinalBarriers): it is
// recorded after the last command of the order, not before a command.
const EndOfFrame CommandID = -1

// RuleFinalLayout is the rule of a final layout: given only on imported
// images, into a layout a barrier can reach, and, in a plan, reached by
// one final barrier after the image's last use. A Warning under this rule
// says that a frame leaves an imported image in a layout other than the
// one it arrived in, with no final layout given.
const RuleFinalLayout Rule = "final-layout"

// Warning is something a plan does as asked but that its caller likely did
// not mean. Plans carry them (Plan.Warnings); they never make a plan
// invalid.
type Warning struct {
	Resource string // the resource concerned
	Rule     Rule
	Detail   string
}

func (w Warning) String() string {
	return fmt.Sprintf("resource %q: %s (rule %s)", w.Resource, w.Detail, w.Rule)
}
