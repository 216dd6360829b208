package firstfit_test

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/strategies/strategytest"
)

func TestContract(t *testing.T) { strategytest.Run(t, firstfit.New) }

func Example() {
	// Four buffers of an ML model: a and b are live together, c reuses
	// a's memory once a is dead, d overlaps everything but a.
	items := []planner.Item{
		{Size: 256, Alignment: 64, Start: 0, End: 2}, // a
		{Size: 128, Alignment: 64, Start: 0, End: 4}, // b
		{Size: 192, Alignment: 64, Start: 2, End: 4}, // c
		{Size: 64, Alignment: 64, Start: 2, End: 3},  // d
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	sol, err := firstfit.New().Place(p)
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"a", "b", "c", "d"} {
		fmt.Printf("%s: pool %d offset %d\n", name, sol.Pool[i], sol.Offset[i])
	}
	fmt.Println("peak", sol.Peak())
	// Output:
	// a: pool 0 offset 0
	// b: pool 0 offset 256
	// c: pool 0 offset 0
	// d: pool 0 offset 192
	// peak 384
}
