package bestfit_test

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/strategytest"
)

func TestContract(t *testing.T) { strategytest.Run(t, bestfit.New) }

func Example() {
	// When d is placed (smallest, so last), the items live with it are b
	// and e, which leave two holes below them: [0, 1000), freed by a, and
	// [1100, 1110), freed by c. Best fit takes the 10-byte hole and keeps
	// the large one whole for later; first fit would take offset 0.
	items := []planner.Item{
		{Size: 1000, Alignment: 1, Start: 0, End: 1}, // a
		{Size: 100, Alignment: 1, Start: 0, End: 2},  // b
		{Size: 10, Alignment: 1, Start: 0, End: 1},   // c
		{Size: 8, Alignment: 1, Start: 0, End: 2},    // e
		{Size: 4, Alignment: 1, Start: 1, End: 2},    // d
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		panic(err)
	}
	sol, err := bestfit.New().Place(p)
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"a", "b", "c", "e", "d"} {
		fmt.Printf("%s: offset %d\n", name, sol.Offset[i])
	}
	fmt.Println("peak", sol.Peak())
	// Output:
	// a: offset 0
	// b: offset 1000
	// c: offset 1100
	// e: offset 1110
	// d: offset 1100
	// peak 1118
}
