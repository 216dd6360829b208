package exact_test

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/exact"
)

// Five buffers that first fit and best fit place in 10 bytes; the search
// finds 9, the largest total live at one time, so 9 is proven optimal.
func Example() {
	items := []planner.Item{
		{Size: 3, Alignment: 1, Start: 0, End: 3},
		{Size: 5, Alignment: 1, Start: 3, End: 6},
		{Size: 2, Alignment: 1, Start: 1, End: 4},
		{Size: 4, Alignment: 1, Start: 0, End: 2},
		{Size: 1, Alignment: 1, Start: 2, End: 5},
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	sol, res, err := exact.New(exact.Options{NodeLimit: 10_000}).Solve(p)
	if err != nil {
		panic(err)
	}
	fmt.Println("offsets:", sol.Offset)
	fmt.Println("peak:", res.Peak, "bound:", res.Bound, "optimal:", res.Optimal)
	// Output:
	// offsets: [0 0 7 3 5]
	// peak: 9 bound: 9 optimal: true
}
