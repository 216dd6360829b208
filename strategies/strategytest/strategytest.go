package strategytest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// Run tests the planner.Strategy contract on newStrategy's values: every
// item placed once, interfering items never sharing a byte (checked by
// planner.CheckSolution and again pair by pair), offsets aligned, pools
// sized exactly to their contents, each holding an item, none above
// Problem.MaxPoolSize (more pools opened instead), no pool larger than its
// items stacked, the problem left unchanged, and the same solution for the
// same problem. It covers empty and one-item problems, all items
// interfering, none interfering, sizes near 2⁶³ and 2⁶⁴, mixed alignments,
// and seeded random graph problems (interference from a random partial
// order, as planner.Compile makes it) and interval problems, with and
// without a maximum pool size. Where the optimum is obvious (no
// interference: everything at offset 0; all interfering with alignment 1:
// no gap; two huge items that just fit in 2⁶⁴−1 bytes; items that exactly
// fill a capped pool) the strategy must reach it. Problems have at most a
// few dozen items, so that exact strategies finish quickly.
func Run(t *testing.T, newStrategy func() planner.Strategy) {
	t.Helper()
	if s := newStrategy(); s == nil || s.Name() == "" {
		t.Fatal("strategytest: newStrategy returned a nil strategy or an empty name")
	}
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			for _, kind := range c.kinds {
				p, err := c.build(kind)
				if err != nil {
					t.Fatalf("%s: building the problem: %v", kind, err)
				}
				sol := place(t, newStrategy(), p, kind)
				if sol != nil && c.check != nil {
					c.check(t, p, sol, kind)
				}
			}
		})
	}
	t.Run("determinism", func(t *testing.T) {
		for _, kind := range []kind{graphKind, intervalKind} {
			for seed := uint64(0); seed < 4; seed++ {
				p1, _ := randomProblem(kind, seed, 40, 0)
				p2, _ := randomProblem(kind, seed, 40, 0)
				s := newStrategy()
				a := place(t, s, p1, kind)
				b := place(t, s, p2, kind)
				c := place(t, newStrategy(), p1, kind)
				if a == nil || b == nil || c == nil {
					return
				}
				if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
					t.Errorf("%s seed %d: the same problem placed twice gave different solutions:\n%+v\n%+v\n%+v", kind, seed, a, b, c)
				}
			}
		}
	})
}

type kind string

const (
	graphKind    kind = "graph"
	intervalKind kind = "interval"
)

var both = []kind{graphKind, intervalKind}

type testCase struct {
	name  string
	kinds []kind
	build func(kind) (*planner.Problem, error)
	check func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) // extra checks
}

// fixed builds a problem of items whose interference is all (every pair)
// or none. Interval problems get a common lifetime (all) or consecutive
// ones (none).
func fixed(items []planner.Item, maxPool uint64, all bool) func(kind) (*planner.Problem, error) {
	return func(k kind) (*planner.Problem, error) {
		its := slices.Clone(items)
		for i := range its {
			if all {
				its[i].Start, its[i].End = 0, 1
			} else {
				its[i].Start, its[i].End = int64(i), int64(i+1)
			}
		}
		if k == intervalKind {
			return planner.NewIntervalProblem(its, maxPool)
		}
		return planner.NewGraphProblem(its, maxPool, func(i, j int) bool { return all })
	}
}

func items(sizes ...uint64) []planner.Item {
	its := make([]planner.Item, len(sizes))
	for i, s := range sizes {
		its[i] = planner.Item{Size: s, Alignment: 1}
	}
	return its
}

func cases() []testCase {
	const big = 1 << 63
	var cs []testCase
	cs = append(cs,
		testCase{name: "empty", kinds: both, build: fixed(nil, 0, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				if s.Peak() != 0 || len(s.PoolSizes) != 0 {
					t.Errorf("%s: empty problem: pools %v", k, s.PoolSizes)
				}
			}},
		testCase{name: "one", kinds: both, build: fixed([]planner.Item{{Size: 100, Alignment: 64}}, 0, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				wantPeak(t, k, s, 100)
			}},
		testCase{name: "all-interfere", kinds: both, build: fixed(items(5, 9, 1, 7, 3, 3, 8), 0, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				wantPeak(t, k, s, 36) // no aliasing is possible, and no gap is needed
			}},
		testCase{name: "none-interfere", kinds: both, build: fixed(items(5, 9, 1, 7, 3, 3, 8), 0, false),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				wantPeak(t, k, s, 9) // everything can share offset 0
			}},
		testCase{name: "none-interfere-aligned", kinds: both, build: fixed([]planner.Item{{Size: 3, Alignment: 4096}, {Size: 5000, Alignment: 1}, {Size: 1, Alignment: big}}, 0, false),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				wantPeak(t, k, s, 5000)
			}},
		testCase{name: "mixed-alignments", kinds: both, build: fixed([]planner.Item{
			{Size: 3, Alignment: 1}, {Size: 100, Alignment: 256}, {Size: 1, Alignment: 2}, {Size: 65536, Alignment: 65536},
			{Size: 7, Alignment: 8}, {Size: 1000, Alignment: 1024}, {Size: 5, Alignment: 4}}, 0, true)},
		testCase{name: "huge", kinds: both, build: fixed([]planner.Item{{Size: big, Alignment: 1}, {Size: big - 1, Alignment: 1}}, 0, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				// Together they end at 2⁶⁴−1: one pool holds both.
				wantPeak(t, k, s, math.MaxUint64)
			}},
		testCase{name: "huge-spill", kinds: both, build: fixed([]planner.Item{{Size: big, Alignment: big}, {Size: big, Alignment: 1}, {Size: big + 1, Alignment: 1}}, 0, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				// No two fit in 2⁶⁴−1 bytes: a pool each, even without a cap.
				if len(s.PoolSizes) != 3 {
					t.Errorf("%s: %d pools, want 3", k, len(s.PoolSizes))
				}
			}},
		testCase{name: "huge-capped", kinds: both, build: fixed([]planner.Item{{Size: big - 1, Alignment: 1 << 62}, {Size: 1 << 62, Alignment: 1 << 62}, {Size: 3, Alignment: 1}}, big+1<<62, true)},
		testCase{name: "max-pool-size", kinds: both, build: fixed(items(10, 10, 10, 10, 10, 10, 10, 10, 10, 10), 30, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				if len(s.PoolSizes) < 4 {
					t.Errorf("%s: 10 interfering items of 10 bytes in %d pools of at most 30", k, len(s.PoolSizes))
				}
			}},
		testCase{name: "max-pool-size-exact-fit", kinds: both, build: fixed(items(7, 8, 9), 24, true),
			check: func(t *testing.T, p *planner.Problem, s *planner.Solution, k kind) {
				wantPeak(t, k, s, 24)
			}},
		testCase{name: "max-pool-size-aligned", kinds: both, build: fixed([]planner.Item{{Size: 1, Alignment: 1}, {Size: 16, Alignment: 16}, {Size: 16, Alignment: 16}, {Size: 5, Alignment: 1}}, 32, true)},
	)
	for seed := uint64(1); seed <= 12; seed++ {
		n := 5 + int(seed)*4
		for _, capped := range []bool{false, true} {
			name := fmt.Sprintf("random-seed=%d-n=%d", seed, n)
			var maxPool uint64
			if capped {
				name += "-capped"
				maxPool = 1 << 12
			}
			cs = append(cs, testCase{name: name, kinds: both, build: func(k kind) (*planner.Problem, error) {
				return randomProblem(k, seed, n, maxPool)
			}})
		}
	}
	return cs
}

func wantPeak(t *testing.T, k kind, s *planner.Solution, want uint64) {
	t.Helper()
	if len(s.PoolSizes) != 1 || s.Peak() != want {
		t.Errorf("%s: pools %v, want one pool of %d bytes", k, s.PoolSizes, want)
	}
}

// place runs s on p and checks the solution; it returns nil after a
// failure.
func place(t *testing.T, s planner.Strategy, p *planner.Problem, k kind) *planner.Solution {
	t.Helper()
	sol, err := placeChecked(s, p)
	if err != nil {
		t.Errorf("%s: %v", k, err)
		return nil
	}
	return sol
}

// placeChecked runs s on p and returns its solution once it has passed
// planner.CheckSolution and Check, and left p unchanged. A nil solution
// without an error, or any other impossible answer, is an error naming
// the strategy, never a panic.
func placeChecked(s planner.Strategy, p *planner.Problem) (*planner.Solution, error) {
	before := slices.Clone(p.Items)
	sol, err := s.Place(p)
	if err != nil {
		return nil, fmt.Errorf("%s: Place: %w", s.Name(), err)
	}
	if !slices.Equal(before, p.Items) {
		return nil, fmt.Errorf("%s: Place modified the problem's items", s.Name())
	}
	if err := planner.CheckSolution(p, sol); err != nil {
		return nil, fmt.Errorf("%s: CheckSolution: %w", s.Name(), err)
	}
	if err := Check(p, sol); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	return sol, nil
}

// Check verifies s against p pair by pair, independently of
// planner.CheckSolution: a solution at all (not nil), every item placed in an existing pool at an
// aligned offset, no offset+size overflow, every pool holding an item and
// sized exactly to its items, none above p.MaxPoolSize or larger than its
// items stacked end to end with alignment padding, and no two interfering
// items of a pool sharing a byte. It returns the first violation found.
// O(n²) Interferes calls: for problems of up to a few thousand items.
func Check(p *planner.Problem, s *planner.Solution) error {
	if s == nil {
		return fmt.Errorf("no solution (nil)")
	}
	n := len(p.Items)
	if len(s.Pool) != n || len(s.Offset) != n {
		return fmt.Errorf("solution places %d/%d items, problem has %d", len(s.Pool), len(s.Offset), n)
	}
	end := make([]uint64, len(s.PoolSizes))
	stacked := make([]uint64, len(s.PoolSizes)) // the pool's items laid end to end, padded
	used := make([]bool, len(s.PoolSizes))
	for i, it := range p.Items {
		k := s.Pool[i]
		if k < 0 || int(k) >= len(s.PoolSizes) {
			return fmt.Errorf("item %d in pool %d of %d", i, k, len(s.PoolSizes))
		}
		if s.Offset[i]%it.Alignment != 0 {
			return fmt.Errorf("item %d at offset %d, not a multiple of %d", i, s.Offset[i], it.Alignment)
		}
		e := s.Offset[i] + it.Size
		if e < s.Offset[i] {
			return fmt.Errorf("item %d: offset %d + size %d overflows", i, s.Offset[i], it.Size)
		}
		end[k] = max(end[k], e)
		used[k] = true
		stacked[k] = satAdd(stacked[k], satAdd(it.Size, it.Alignment-1))
	}
	for k, z := range s.PoolSizes {
		switch {
		case !used[k]:
			return fmt.Errorf("pool %d holds no item", k)
		case z != end[k]:
			return fmt.Errorf("pool %d has size %d, its items end at %d", k, z, end[k])
		case p.MaxPoolSize != 0 && z > p.MaxPoolSize:
			return fmt.Errorf("pool %d has size %d, above the maximum %d", k, z, p.MaxPoolSize)
		case z > stacked[k]:
			return fmt.Errorf("pool %d has size %d, more than its items stacked end to end (%d)", k, z, stacked[k])
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if s.Pool[i] != s.Pool[j] || !p.Interferes(i, j) {
				continue
			}
			a0, a1 := s.Offset[i], s.Offset[i]+p.Items[i].Size
			b0, b1 := s.Offset[j], s.Offset[j]+p.Items[j].Size
			if a0 < b1 && b0 < a1 {
				return fmt.Errorf("items %d [%d, %d) and %d [%d, %d) interfere and overlap in pool %d", i, a0, a1, j, b0, b1, s.Pool[i])
			}
		}
	}
	return nil
}

func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}

// randomProblem returns a seeded random problem of n items. Graph problems
// take their interference from a random DAG of commands, as
// planner.Compile does: each item is used by a few commands, and two items
// interfere unless every use of one happens before every use of the other.
// Interval problems get random lifetimes. Sizes span four orders of
// magnitude, alignments are powers of two up to 256; with a maxPool, sizes
// stay below it.
func randomProblem(k kind, seed uint64, n int, maxPool uint64) (*planner.Problem, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(len(k))))
	its := make([]planner.Item, n)
	for i := range its {
		size := uint64(1) << rng.IntN(12)
		size += rng.Uint64N(size)
		if maxPool != 0 {
			size = min(size, maxPool/2)
		}
		its[i] = planner.Item{Size: size, Alignment: 1 << rng.IntN(9)}
	}
	if k == intervalKind {
		for i := range its {
			its[i].Start = rng.Int64N(3 * int64(n))
			its[i].End = its[i].Start + 1 + rng.Int64N(int64(n))
		}
		return planner.NewIntervalProblem(its, maxPool)
	}
	cmds := max(4, n/2)
	// reach[a] has bit b when a happens before b (a < b).
	words := (cmds + 63) / 64
	reach := make([][]uint64, cmds)
	for a := cmds - 1; a >= 0; a-- {
		reach[a] = make([]uint64, words)
		for b := a + 1; b < cmds; b++ {
			if rng.IntN(4) == 0 { // an edge a→b: a reaches b and all b reaches
				reach[a][b/64] |= 1 << (b % 64)
				for w := range words {
					reach[a][w] |= reach[b][w]
				}
			}
		}
	}
	before := func(a, b int) bool { return reach[a][b/64]&(1<<(b%64)) != 0 }
	uses := make([][]int, n)
	for i := range its {
		first := rng.IntN(cmds)
		uses[i] = []int{first}
		for range rng.IntN(3) {
			uses[i] = append(uses[i], first+rng.IntN(cmds-first))
		}
		its[i].Start, its[i].End = int64(slices.Min(uses[i])), int64(slices.Max(uses[i])+1)
	}
	allBefore := func(x, y int) bool {
		for _, a := range uses[x] {
			for _, b := range uses[y] {
				if !before(a, b) {
					return false
				}
			}
		}
		return true
	}
	return planner.NewGraphProblem(its, maxPool, func(i, j int) bool {
		return !allBefore(i, j) && !allBefore(j, i)
	})
}
