package planner

import (
	"math/rand/v2"
	"testing"
)

// TestOverlapCostsMatchBruteForce: the budget order's cost of one
// dependency Last → Next is the number of command pairs (x, y), x at or
// before Last and y at or after Next in happens-before, that the DAG
// leaves unordered; OrderedPairs of a plan with that one serialization
// counts the same pairs.
func TestOverlapCostsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for trial := range 40 {
		g := randomGraph(rng, 5+rng.IntN(40), 1.0)
		c, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		n := len(g.Commands)
		p := &Plan{Order: make([]CommandID, n)}
		for i := range p.Order {
			p.Order[i] = CommandID(i)
		}
		var og []orderedGroup
		var cands []candidate
		var pairs [][2]CommandID
		for range 20 {
			l := CommandID(rng.IntN(n - 1))
			nx := l + 1 + CommandID(rng.IntN(n-1-int(l)))
			og = append(og, orderedGroup{items: []Item{{Size: 1, Alignment: 1, Start: 0, End: int64(l) + 1}, {Size: 1, Alignment: 1, Start: int64(nx), End: int64(nx) + 1}}})
			cands = append(cands, candidate{group: int32(len(og) - 1), i: 0, j: 1})
			pairs = append(pairs, [2]CommandID{l, nx})
		}
		overlapCosts(c, p, og, cands)
		hb := func(a, b CommandID) bool { return a == b || c.HappensBefore(a, b) }
		for k, pr := range pairs {
			l, nx := pr[0], pr[1]
			var want int64
			for x := range CommandID(n) {
				for y := range CommandID(n) {
					if hb(x, l) && hb(nx, y) && !c.HappensBefore(x, y) {
						want++
					}
				}
			}
			if cands[k].cost != want {
				t.Fatalf("trial %d: cost of %d → %d = %d, brute force %d", trial, l, nx, cands[k].cost, want)
			}
			p.Serializations = []Serialization{{Last: l, Next: nx}}
			if got := OrderedPairs(c, p); got != want {
				t.Fatalf("trial %d: OrderedPairs of %d → %d = %d, brute force %d", trial, l, nx, got, want)
			}
		}
		// Two dependencies together order at least what each orders alone.
		p.Serializations = []Serialization{{Last: pairs[0][0], Next: pairs[0][1]}, {Last: pairs[1][0], Next: pairs[1][1]}}
		if both := OrderedPairs(c, p); both < max(cands[0].cost, cands[1].cost) || both > cands[0].cost+cands[1].cost+int64(n*n) {
			t.Fatalf("trial %d: two dependencies order %d pairs, alone %d and %d", trial, both, cands[0].cost, cands[1].cost)
		}
	}
	// A Last that does not precede its Next is refused.
	g := randomGraph(rng, 6, 1.0)
	c, _ := Compile(g)
	p := &Plan{Order: []CommandID{0, 1, 2, 3, 4, 5}, Serializations: []Serialization{{Last: 3, Next: 2}}}
	if got := OrderedPairs(c, p); got != -1 {
		t.Errorf("OrderedPairs with Next before Last = %d, want -1", got)
	}
}

// TestPlaceOrderingOptions: OrderBudget needs a budget; an unknown
// ordering is refused.
func TestPlaceOrderingOptions(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(1, 2)), 10, 1.0)
	c, err := Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Strategy: noAliasingStrategy{}, Order: OrderBudget}, {Strategy: noAliasingStrategy{}, Order: 9}} {
		if _, err := Place(c, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// noAliasingStrategy stacks every item (a test strategy).
type noAliasingStrategy struct{}

func (noAliasingStrategy) Name() string                        { return "none" }
func (noAliasingStrategy) Place(p *Problem) (*Solution, error) { return NoAliasing(p), nil }
