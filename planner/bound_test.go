package planner

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// bruteClique returns the largest total size of a set of pairwise
// interfering items by enumerating every subset (n ≤ 20). Sizes must be
// small enough that no sum overflows.
func bruteClique(p *Problem) uint64 {
	n := len(p.Items)
	adj := make([]uint32, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && p.Interferes(i, j) {
				adj[i] |= 1 << j
			}
		}
	}
	ok := make([]bool, 1<<n)
	weight := make([]uint64, 1<<n)
	ok[0] = true
	var best uint64
	for mask := 1; mask < 1<<n; mask++ {
		low := bits.TrailingZeros32(uint32(mask))
		rest := mask &^ (1 << low)
		ok[mask] = ok[rest] && adj[low]&uint32(rest) == uint32(rest)
		weight[mask] = weight[rest] + p.Items[low].Size
		if ok[mask] {
			best = max(best, weight[mask])
		}
	}
	return best
}

// checkWitness checks that maxAntichain's items are a clique weighing
// what LowerBound reports.
func checkWitness(t *testing.T, p *Problem, bound uint64) {
	t.Helper()
	w, items := maxAntichain(p)
	if w != bound {
		t.Fatalf("maxAntichain says %d, LowerBound %d", w, bound)
	}
	var sum uint64
	for a, i := range items {
		sum += p.Items[i].Size
		for _, j := range items[:a] {
			if !p.Interferes(int(i), int(j)) {
				t.Fatalf("witness items %d and %d do not interfere", j, i)
			}
		}
	}
	if sum != bound {
		t.Fatalf("witness %v weighs %d, bound is %d", items, sum, bound)
	}
}

// posetProblem builds a graph problem from a random partial order: a random
// DAG over n items, closed transitively. Items start at their position in
// a linear extension; two items interfere when neither is before the other.
func posetProblem(t testing.TB, rng *rand.Rand, n int, density float64, maxSize int) *Problem {
	pos := rng.Perm(n) // item i sits at pos[i] in a linear extension
	at := make([]int, n)
	for i, x := range pos {
		at[x] = i
	}
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	for x := n - 1; x >= 0; x-- { // closure in reverse linear order
		for y := x + 1; y < n; y++ {
			if rng.Float64() < density {
				i, j := at[x], at[y]
				before[i][j] = true
				for k := range n {
					before[i][k] = before[i][k] || before[j][k]
				}
			}
		}
	}
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{Size: uint64(1 + rng.IntN(maxSize)), Alignment: 1, Start: int64(pos[i]), End: int64(pos[i] + 1 + rng.IntN(3))}
	}
	p, err := NewGraphProblem(items, 0, func(i, j int) bool { return !before[i][j] && !before[j][i] })
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dagProblem builds a graph problem the way a render graph makes one:
// commands form a DAG in which each depends on up to three of the 16
// before it (parallel branches); each item is first used by command a and
// last by b (a == b or a happens-before b); an item is before another when
// its b happens-before the other's a.
func dagProblem(t testing.TB, rng *rand.Rand, n int) *Problem {
	m := max(2, n)
	words := (m + 63) / 64
	anc := make([]uint64, m*words) // anc[c] has bit a when a happens-before c
	for c := 1; c < m; c++ {
		row := anc[c*words : (c+1)*words]
		for range 1 + rng.IntN(3) {
			p := c - 1 - rng.IntN(min(c, 16))
			row[p>>6] |= 1 << (p & 63)
			for w, x := range anc[p*words : (p+1)*words] {
				row[w] |= x
			}
		}
	}
	hb := func(a, b int) bool { return anc[b*words+a>>6]&(1<<(a&63)) != 0 }
	first, last := make([]int, n), make([]int, n)
	items := make([]Item, n)
	for i := range items {
		a := rng.IntN(m)
		b := a
		for range 4 {
			if c := a + 1 + rng.IntN(24); c < m && hb(a, c) {
				b = max(b, c)
			}
		}
		first[i], last[i] = a, b
		items[i] = Item{Size: uint64(1+rng.IntN(64)) << 16, Alignment: 1 << 16, Start: int64(a), End: int64(b + 1)}
	}
	p, err := NewGraphProblem(items, 0, func(i, j int) bool {
		return !hb(last[i], first[j]) && !hb(last[j], first[i])
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLowerBoundExample(t *testing.T) {
	// a before b and c; b and c in parallel; d after both.
	items := []Item{
		{Size: 10, Alignment: 1, Start: 0, End: 1}, // a
		{Size: 5, Alignment: 1, Start: 1, End: 2},  // b
		{Size: 7, Alignment: 1, Start: 2, End: 3},  // c
		{Size: 11, Alignment: 1, Start: 3, End: 4}, // d
	}
	p, err := NewGraphProblem(items, 0, func(i, j int) bool { return i == 1 && j == 2 })
	if err != nil {
		t.Fatal(err)
	}
	if got := LowerBound(p); got != 12 {
		t.Errorf("LowerBound = %d, want 12 (b and c)", got)
	}
	checkWitness(t, p, 12)
	// A chain: the largest item alone.
	p, _ = NewGraphProblem(items, 0, func(i, j int) bool { return false })
	if got := LowerBound(p); got != 11 {
		t.Errorf("chain: LowerBound = %d, want 11", got)
	}
	if got := LowerBound(&Problem{}); got != 0 {
		t.Errorf("empty problem: %d, want 0", got)
	}
}

func TestLowerBoundPosets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := rng.IntN(15)
		density := []float64{0.05, 0.15, 0.3, 0.6}[trial%4]
		p := posetProblem(t, rng, n, density, 100)
		got, want := LowerBound(p), bruteClique(p)
		if got != want {
			t.Fatalf("trial %d (n=%d, density %.2f): LowerBound = %d, brute force %d", trial, n, density, got, want)
		}
		checkWitness(t, p, got)
	}
}

func TestLowerBoundDAGProblems(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(14)
		p := dagProblem(t, rng, n)
		if got, want := LowerBound(p), bruteClique(p); got != want {
			t.Fatalf("trial %d (n=%d): LowerBound = %d, brute force %d", trial, n, got, want)
		}
	}
}

// The problems Compile makes: items of the used transients, interfering as
// Compiled.Interferes says, starting at their first use.
func TestLowerBoundCompiledGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tested := 0
	for trial := 0; tested < 150 && trial < 1000; trial++ {
		g := randomGraph(rng, 2+rng.IntN(8), 1+rng.Float64())
		c, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		var members []ResourceID
		var items []Item
		for r := range g.Resources {
			id := ResourceID(r)
			if g.Resources[r].Imported || !c.Used(id) {
				continue
			}
			us := c.Uses(id)
			start, end := int64(us[0].Command), int64(us[len(us)-1].Command)+1
			members = append(members, id)
			items = append(items, Item{Size: uint64(1 + rng.IntN(1000)), Alignment: 1, Start: start, End: end})
		}
		if len(items) > 16 {
			continue
		}
		tested++
		p, err := NewGraphProblem(items, 0, func(i, j int) bool { return c.Interferes(members[i], members[j]) })
		if err != nil {
			t.Fatal(err)
		}
		if got, want := LowerBound(p), bruteClique(p); got != want {
			t.Fatalf("trial %d (%d items): LowerBound = %d, brute force %d", trial, len(items), got, want)
		}
	}
	if tested < 100 {
		t.Fatalf("only %d graphs small enough", tested)
	}
}

func TestLowerBoundIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 400 {
		n := rng.IntN(15)
		items := make([]Item, n)
		for i := range items {
			s := int64(rng.IntN(20))
			items[i] = Item{Size: uint64(1 + rng.IntN(100)), Alignment: 1, Start: s, End: s + 1 + int64(rng.IntN(8))}
		}
		p, err := NewIntervalProblem(items, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := LowerBound(p), bruteClique(p); got != want {
			t.Fatalf("trial %d: LowerBound = %d, brute force %d", trial, got, want)
		}
		// The same interference as a graph problem gives the same bound.
		q, err := NewGraphProblem(items, 0, p.Interferes)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := LowerBound(q), LowerBound(p); got != want {
			t.Fatalf("trial %d: as a graph problem %d, as intervals %d", trial, got, want)
		}
	}
	// MaxLoad on raw items: half-open lifetimes, empty ones never live.
	items := []Item{
		{Size: 4, Start: 0, End: 2},
		{Size: 8, Start: 2, End: 3}, // starts as the first ends
		{Size: 100, Start: 5, End: 5},
		{Size: 100, Start: 7, End: 6},
		{Size: 1, Start: 2, End: 9},
	}
	if got := MaxLoad(items); got != 9 {
		t.Errorf("MaxLoad = %d, want 9", got)
	}
}

// Interference that is not the complement of an order (not a problem
// Compile makes): the bound is a clique, never more than the largest.
func TestLowerBoundArbitraryGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		n := rng.IntN(13)
		density := rng.Float64()
		adj := make([][]bool, n)
		for i := range adj {
			adj[i] = make([]bool, n)
		}
		items := make([]Item, n)
		for i := range items {
			s := int64(rng.IntN(4)) // ties in Start, on purpose
			items[i] = Item{Size: uint64(1 + rng.IntN(50)), Alignment: 1, Start: s, End: s + 1}
			for j := 0; j < i; j++ {
				adj[i][j] = rng.Float64() < density
				adj[j][i] = adj[i][j]
			}
		}
		p, err := NewGraphProblem(items, 0, func(i, j int) bool { return adj[i][j] })
		if err != nil {
			t.Fatal(err)
		}
		got, best := LowerBound(p), bruteClique(p)
		if got > best {
			t.Fatalf("trial %d: LowerBound %d exceeds the largest clique %d", trial, got, best)
		}
		checkWitness(t, p, got)
	}
}

func TestLowerBoundHugeSizes(t *testing.T) {
	const big = 1 << 62
	mk := func(n int, start func(i int) int64) []Item {
		items := make([]Item, n)
		for i := range items {
			s := start(i)
			items[i] = Item{Size: big, Alignment: 1, Start: s, End: s + 1}
		}
		return items
	}
	// Five items live together: 5·2⁶² saturates.
	together := mk(5, func(int) int64 { return 0 })
	ip, _ := NewIntervalProblem(together, 0)
	gp, _ := NewGraphProblem(together, 0, func(i, j int) bool { return true })
	for _, p := range []*Problem{ip, gp} {
		if got := LowerBound(p); got != math.MaxUint64 {
			t.Errorf("intervals=%v: got %d, want saturation", p.Intervals(), got)
		}
	}
	// A chain of four: the total overflows (the flow runs scaled), the
	// bound is one item.
	chain := mk(4, func(i int) int64 { return int64(i) })
	gp, _ = NewGraphProblem(chain, 0, func(i, j int) bool { return false })
	if got := LowerBound(gp); got != big {
		t.Errorf("chain: got %d, want %d", got, uint64(big))
	}
	// Two parallel chains of three, plus a small item beside everything:
	// scaled, it still finds an antichain of two big items and the small.
	items := mk(6, func(i int) int64 { return int64(i % 3) })
	items = append(items, Item{Size: 3, Alignment: 1, Start: 0, End: 3})
	gp, _ = NewGraphProblem(items, 0, func(i, j int) bool { return i == 6 || j == 6 || i%2 != j%2 })
	// Scaled by 2³, the small item weighs 0 and may be left out.
	if got := LowerBound(gp); got != 2*big+3 && got != 2*big {
		t.Errorf("two chains: got %d, want %d or %d", got, uint64(2*big+3), uint64(2*big))
	}
	checkWitness(t, gp, LowerBound(gp))
}

func BenchmarkLowerBound(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			p := dagProblem(b, rand.New(rand.NewPCG(uint64(n), 42)), n)
			b.ReportAllocs()
			for b.Loop() {
				LowerBound(p)
			}
		})
	}
}

// The lower bound of a small diamond: a before b and c, which run in
// parallel, both before d. Only b and c interfere.
func ExampleLowerBound() {
	items := []Item{
		{Size: 10 << 20, Alignment: 1 << 16, Start: 0, End: 1}, // a
		{Size: 5 << 20, Alignment: 1 << 16, Start: 1, End: 2},  // b
		{Size: 7 << 20, Alignment: 1 << 16, Start: 2, End: 3},  // c
		{Size: 11 << 20, Alignment: 1 << 16, Start: 3, End: 4}, // d
	}
	p, _ := NewGraphProblem(items, 0, func(i, j int) bool { return i == 1 && j == 2 })
	fmt.Println(LowerBound(p)>>20, "MiB")
	// Output: 12 MiB
}
