package exact

import (
	"github.com/aliasplan/aliasplan/internal/invariants"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// bruteForce returns the smallest peak of p in one pool by trying every
// order in which each item goes right above the interfering items placed
// before it (aligned) and offsets do not decrease (ties in index order).
// An optimal placement in which no item can move down, sorted by (offset,
// index), is such an order, so the minimum over them is the optimum.
// Branch and bound on the peak keeps it fast for about a dozen items.
func bruteForce(p *planner.Problem) uint64 {
	n := len(p.Items)
	off := make([]uint64, n)
	placed := make([]bool, n)
	order := make([]int, 0, n)
	best := uint64(math.MaxUint64)
	var rec func(peak, last uint64, lastIdx int)
	rec = func(peak, last uint64, lastIdx int) {
		if peak >= best {
			return
		}
		if len(order) == n {
			best = peak
			return
		}
		for i := 0; i < n; i++ {
			if placed[i] {
				continue
			}
			var o uint64
			for _, j := range order {
				if p.Interferes(i, j) {
					o = max(o, off[j]+p.Items[j].Size)
				}
			}
			a := p.Items[i].Alignment
			o = (o + a - 1) &^ (a - 1)
			if o < last || (o == last && i < lastIdx) {
				continue
			}
			off[i] = o
			placed[i] = true
			order = append(order, i)
			rec(max(peak, o+p.Items[i].Size), o, i)
			order = order[:len(order)-1]
			placed[i] = false
		}
	}
	rec(0, 0, -1)
	return best
}

// randomSmall returns a random interval or graph problem of n items. The
// graph problems' interference is the incomparability of the intersection
// of two interval orders: the first gives the lifetimes, so lifetimes that
// overlap always interfere, and the second adds interference between items
// whose lifetimes do not meet.
func randomSmall(rng *rand.Rand, n int, graph bool) *planner.Problem {
	items := make([]planner.Item, n)
	span := int64(2 * n)
	type iv struct{ s, e int64 }
	second := make([]iv, n)
	for i := range items {
		s := rng.Int64N(span)
		items[i] = planner.Item{
			Size:      1 + rng.Uint64N(20),
			Alignment: 1 << rng.IntN(3),
			Start:     s,
			End:       s + 1 + rng.Int64N(span/2),
		}
		s2 := rng.Int64N(span)
		second[i] = iv{s2, s2 + 1 + rng.Int64N(span/2)}
	}
	if !graph {
		p, err := planner.NewIntervalProblem(items, 0)
		if err != nil {
			panic(err)
		}
		return p
	}
	before := func(a, b int) bool {
		return items[a].End <= items[b].Start && second[a].e <= second[b].s
	}
	p, err := planner.NewGraphProblem(items, 0, func(i, j int) bool { return !before(i, j) && !before(j, i) })
	if err != nil {
		panic(err)
	}
	return p
}

// TestBruteForce checks, on small random problems, that the search proves
// optimality and that its peak equals the brute-force optimum.
func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := 300
	if testing.Short() || invariants.Enabled {
		cases = 60
	}
	for c := 0; c < cases; c++ {
		n := 2 + rng.IntN(8)
		if c%10 == 0 {
			n = 10 + rng.IntN(3)
		}
		graph := c%2 == 1
		p := randomSmall(rng, n, graph)
		want := bruteForce(p)
		sol, res, err := New(Options{NodeLimit: 2_000_000}).Solve(p)
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if !res.Optimal || res.Peak != want || sol.Peak() != want {
			t.Fatalf("case %d (n=%d graph=%v): peak %d optimal %v, brute force %d; items %+v", c, n, graph, res.Peak, res.Optimal, want, p.Items)
		}
	}
}

// TestBruteForceBranchings decides, on small random problems, the
// brute-force optimum and one byte less with each branching of the search
// (next item and level) directly: every component must fit the optimum,
// and some component must be proven not to fit one byte less. A rule that
// prunes a solution it should keep fails the first; one that accepts an
// overlap fails CheckSolution or the second.
func TestBruteForceBranchings(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 12))
	cases := 150
	if testing.Short() || invariants.Enabled {
		cases = 50
	}
	for c := 0; c < cases; c++ {
		n := 2 + rng.IntN(9)
		graph := c%2 == 1
		p := randomSmall(rng, n, graph)
		want := bruteForce(p)
		for _, skyline := range []bool{false, true} {
			tooSmall := false
			for _, items := range components(p, nil) {
				sectioned := p.Intervals() || windowsValid(p, items, nil)
				m := buildModel(p, items, sectioned, nil)
				s := newSearch(m)
				s.skyline = skyline
				if st := s.run(want, 1<<40); st != found {
					t.Fatalf("case %d (skyline %v): a component does not fit the optimum %d: %d; items %+v", c, skyline, want, st, p.Items)
				}
				sol := &planner.Solution{Pool: make([]int32, len(p.Items)), Offset: make([]uint64, len(p.Items)), PoolSizes: []uint64{want}}
				for mi, pi := range m.orig {
					k := sort.Search(len(items), func(k int) bool { return items[k] >= pi })
					sol.Offset[k] = s.off[mi]
					if s.off[mi]+m.size[mi] > want {
						t.Fatalf("case %d (skyline %v): item %d ends above %d", c, skyline, pi, want)
					}
				}
				q, err := subProblem(p, items)
				if err != nil {
					t.Fatal(err)
				}
				sol.Offset = sol.Offset[:len(items)]
				sol.Pool = sol.Pool[:len(items)]
				sol.PoolSizes[0] = 0
				for k, it := range q.Items {
					sol.PoolSizes[0] = max(sol.PoolSizes[0], sol.Offset[k]+it.Size)
				}
				if err := planner.CheckSolution(q, sol); err != nil {
					t.Fatalf("case %d (skyline %v): %v", c, skyline, err)
				}
				if want > 0 && s.run(want-1, 1<<40) == exhausted {
					tooSmall = true
				}
			}
			if !tooSmall {
				t.Fatalf("case %d (skyline %v): no component proven not to fit %d; items %+v", c, skyline, want-1, p.Items)
			}
		}
	}
}

// subProblem is p restricted to items (ascending).
func subProblem(p *planner.Problem, items []int32) (*planner.Problem, error) {
	sub := make([]planner.Item, len(items))
	for k, i := range items {
		sub[k] = p.Items[i]
	}
	if p.Intervals() {
		return planner.NewIntervalProblem(sub, 0)
	}
	return planner.NewGraphProblem(sub, 0, func(a, b int) bool { return p.Interferes(int(items[a]), int(items[b])) })
}
