package bestfit

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/internal/greedy"
)

// New returns the best-fit strategy, named "bestfit". It keeps no state
// between calls: one value may serve concurrent Place calls.
func New() planner.Strategy { return strategy{} }

type strategy struct{}

func (strategy) Name() string { return "bestfit" }

// Place places p's items greedily, each in the smallest free gap that
// holds it among the items already placed that interfere with it (at the
// gap's lowest aligned offset; the space above the highest of them counts
// as an unbounded gap), in the lowest-numbered pool where it fits below
// p.MaxPoolSize. It does so once per item order of the package doc and
// returns the solution with the smallest total pool size, or the
// no-aliasing placement when that costs less.
func (strategy) Place(p *planner.Problem) (*planner.Solution, error) {
	return greedy.Place("bestfit", p, greedy.BestFit, greedy.Size, greedy.Load, greedy.SizeClass)
}
