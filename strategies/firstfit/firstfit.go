package firstfit

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/internal/greedy"
)

// New returns the first-fit strategy, named "firstfit". It keeps no state
// between calls: one value may serve concurrent Place calls.
func New() planner.Strategy { return strategy{} }

type strategy struct{}

func (strategy) Name() string { return "firstfit" }

// Place places p's items greedily, each at the lowest aligned offset that
// is free of the items already placed that interfere with it, in the
// lowest-numbered pool where it fits below p.MaxPoolSize. It does so once
// per item order of the package doc and returns the solution with the
// smallest total pool size, or the no-aliasing placement when that costs
// less. Cost: see the package doc.
func (strategy) Place(p *planner.Problem) (*planner.Solution, error) {
	return greedy.Place("firstfit", p, greedy.FirstFit, greedy.Size, greedy.Load, greedy.SizeClass)
}
