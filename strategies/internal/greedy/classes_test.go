package greedy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// First fit through twin classes (classes.go) places every item where the
// walk over the pools' lists does, on problems made of runs of twins
// (consecutive items with one closed neighbourhood) whose classes
// interfere at random, with pairs that break a run's twins apart, mixed
// sizes and alignments (gaps that a later, smaller item fills) and, in
// some trials, a pool cap (several pools).
func TestFitClassesAgreesWithWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	classed := 0
	for trial := range 24 {
		n := minTwinItems + rng.IntN(1024)
		k := 2 + rng.IntN(n/twinRatio-2)
		group := make([]int, n)
		for i := range group {
			group[i] = i * k / n
		}
		link := make([][]bool, k)
		for a := range link {
			link[a] = make([]bool, k)
		}
		for a := range k {
			for b := range a {
				v := rng.IntN(3) == 0
				link[a][b], link[b][a] = v, v
			}
		}
		odd := map[[2]int]bool{}
		for range rng.IntN(3) {
			a, b := rng.IntN(n), rng.IntN(n)
			odd[[2]int{min(a, b), max(a, b)}] = true
		}
		interferes := func(i, j int) bool {
			a, b := group[i], group[j]
			return (a == b || link[a][b]) != odd[[2]int{min(i, j), max(i, j)}]
		}
		items := make([]planner.Item, n)
		for i := range items {
			items[i] = planner.Item{Size: uint64(1 + rng.IntN(4096)), Alignment: 1 << rng.IntN(8), Start: 0, End: 1}
		}
		var maxPool uint64
		if trial%3 == 0 {
			maxPool = 1 << 18
		}
		p, err := planner.NewGraphProblem(items, maxPool, interferes)
		if err != nil {
			t.Fatal(err)
		}
		ord := make([]int32, n)
		for i := range ord {
			ord[i] = int32(i)
		}
		if trial%2 == 1 {
			rng.Shuffle(n, func(i, j int) { ord[i], ord[j] = ord[j], ord[i] })
		} else {
			slices.SortStableFunc(ord, func(a, b int32) int { return int(items[b].Size) - int(items[a].Size) })
		}
		e := newEngine("test", p, FirstFit)
		if e.tw == nil {
			continue
		}
		classed++
		got, err := e.run(ord)
		if err != nil {
			t.Fatal(err)
		}
		e.tw = nil
		want, err := e.run(ord)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if got.Pool[i] != want.Pool[i] || got.Offset[i] != want.Offset[i] {
				t.Fatalf("trial %d (n %d, %d classes): item %d at pool %d offset %d through classes, pool %d offset %d by the walk",
					trial, n, k, i, got.Pool[i], got.Offset[i], want.Pool[i], want.Offset[i])
			}
		}
	}
	if classed < 12 {
		t.Fatalf("only %d of 24 problems had twin classes: the test checks too little", classed)
	}
}

// insertRun keeps a class's runs sorted and merged.
func TestInsertRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 6))
	for range 2000 {
		var rs []interval.Range
		var cover [256]bool
		for range rng.IntN(20) {
			s := uint64(rng.IntN(240))
			r := interval.Range{Start: s, End: s + 1 + uint64(rng.IntN(16))}
			rs = insertRun(rs, r)
			for x := r.Start; x < r.End; x++ {
				cover[x] = true
			}
		}
		var want []interval.Range
		for x := uint64(0); x < 256; x++ {
			if cover[x] {
				want = appendRun(want, interval.Range{Start: x, End: x + 1})
			}
		}
		if !slices.Equal(rs, want) {
			t.Fatalf("runs %v, want %v", rs, want)
		}
	}
}
