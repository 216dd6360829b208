package strategytest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// naive is a reference first fit: items in index order, each at the lowest
// aligned offset clear of its placed interfering items, in the first pool
// with room. O(n³); for the suite's own test.
type naive struct{}

func (naive) Name() string { return "naive" }

func (naive) Place(p *planner.Problem) (*planner.Solution, error) {
	n := len(p.Items)
	s := &planner.Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	limit := p.MaxPoolSize
	if limit == 0 {
		limit = ^uint64(0)
	}
	for i, it := range p.Items {
		for k := 0; ; k++ {
			off, ok := uint64(0), true
			for moved := true; ok && moved; {
				moved = false
				for j := range i {
					if int(s.Pool[j]) != k || !p.Interferes(i, j) {
						continue
					}
					if o, e := s.Offset[j], s.Offset[j]+p.Items[j].Size; off < e && o < off+it.Size {
						off = (e + it.Alignment - 1) / it.Alignment * it.Alignment
						ok = off >= e && it.Size <= limit-off
						moved = true
					}
				}
				ok = ok && it.Size <= limit-off
			}
			if ok {
				s.Pool[i], s.Offset[i] = int32(k), off
				for len(s.PoolSizes) <= k {
					s.PoolSizes = append(s.PoolSizes, 0)
				}
				s.PoolSizes[k] = max(s.PoolSizes[k], off+it.Size)
				break
			}
		}
	}
	return s, nil
}

func TestRunNaive(t *testing.T) {
	Run(t, func() planner.Strategy { return naive{} })
}

func TestCheckRejects(t *testing.T) {
	p, err := planner.NewGraphProblem([]planner.Item{
		{Size: 8, Alignment: 8, Start: 0, End: 1},
		{Size: 8, Alignment: 1, Start: 0, End: 1},
		{Size: 4, Alignment: 1, Start: 1, End: 2},
	}, 32, func(i, j int) bool { return i+j == 1 }) // 0 and 1 interfere
	if err != nil {
		t.Fatal(err)
	}
	good := planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 8, 0}, PoolSizes: []uint64{16}}
	if err := Check(p, &good); err != nil {
		t.Fatalf("good solution rejected: %v", err)
	}
	tests := []struct {
		name string
		s    planner.Solution
		want string
	}{
		{"overlap", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 4, 0}, PoolSizes: []uint64{12}}, "overlap"},
		{"misaligned", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{4, 12, 0}, PoolSizes: []uint64{20}}, "multiple"},
		{"pool size", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 8, 0}, PoolSizes: []uint64{17}}, "size 17"},
		{"empty pool", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 8, 0}, PoolSizes: []uint64{16, 0}}, "no item"},
		{"above cap", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 30, 0}, PoolSizes: []uint64{38}}, "maximum"},
		{"missing", planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 8}, PoolSizes: []uint64{16}}, "places"},
		{"bad pool", planner.Solution{Pool: []int32{0, 1, 0}, Offset: []uint64{0, 0, 0}, PoolSizes: []uint64{8}}, "pool 1"},
		{"wasteful", planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 8, 24}, PoolSizes: []uint64{28}}, "stacked"},
	}
	for _, tt := range tests {
		err := Check(p, &tt.s)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Check = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	if err := Check(p, nil); err == nil {
		t.Error("Check accepted a nil solution")
	}
}

// answer is a strategy that returns a fixed answer.
type answer struct {
	sol *planner.Solution
	err error
}

func (answer) Name() string { return "answer" }

func (a answer) Place(*planner.Problem) (*planner.Solution, error) { return a.sol, a.err }

// Issue 19 (Why 4): a strategy's (nil, nil) crashed Planner.Plan in
// planner.CheckSolution. The contract reports it, and every other
// impossible answer, as an error naming the strategy.
func TestImpossibleAnswers(t *testing.T) {
	p, err := planner.NewGraphProblem([]planner.Item{{Size: 8, Alignment: 8, Start: 0, End: 1}, {Size: 8, Alignment: 1, Start: 0, End: 1}}, 0,
		func(i, j int) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sol  *planner.Solution
		want string
	}{
		{"nil", nil, "nil"},
		{"empty", &planner.Solution{}, "places 0/0 items"},
		{"empty pool", &planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 8}, PoolSizes: []uint64{16, 0}}, "holds no item"},
		{"negative pool", &planner.Solution{Pool: []int32{0, -1}, Offset: []uint64{0, 8}, PoolSizes: []uint64{16}}, "pool -1"},
		{"overflow", &planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 1<<64 - 8}, PoolSizes: []uint64{16}}, "overflows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := placeChecked(answer{sol: tc.sol}, p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "answer: ") {
				t.Errorf("got %v; want an error naming the strategy and containing %q", err, tc.want)
			}
		})
	}
}

func TestRandomGraphInterferes(t *testing.T) {
	// The generator must produce both interfering and ordered pairs.
	p, err := randomProblem(graphKind, 7, 40, 0)
	if err != nil {
		t.Fatal(err)
	}
	var yes, no int
	for i := range p.Items {
		for j := range i {
			if p.Interferes(i, j) {
				yes++
			} else {
				no++
				a, b := p.Items[i], p.Items[j]
				if !(a.End <= b.Start || b.End <= a.Start) {
					t.Errorf("items %d and %d do not interfere but their windows overlap: %+v %+v", i, j, a, b)
				}
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Errorf("interfering pairs %d, ordered pairs %d: want both", yes, no)
	}
}

func ExampleCheck() {
	// Two buffers live at the same time, placed on top of each other.
	p, err := planner.NewIntervalProblem([]planner.Item{
		{Size: 64, Alignment: 16, Start: 0, End: 2},
		{Size: 32, Alignment: 16, Start: 1, End: 3},
	}, 0)
	if err != nil {
		panic(err)
	}
	bad := &planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 32}, PoolSizes: []uint64{64}}
	fmt.Println(Check(p, bad))
	good := &planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 64}, PoolSizes: []uint64{96}}
	fmt.Println(Check(p, good))
	// Output:
	// items 0 [0, 64) and 1 [32, 64) interfere and overlap in pool 0
	// <nil>
}
