package planner

import (
	"fmt"
	"math/bits"
	"sort"
)

// Item is one resource to place: a block of Size bytes at an offset that is
// a multiple of Alignment.
type Item struct {
	Size      uint64 // > 0
	Alignment uint64 // a power of two
	// Start and End (Start < End) are the item's lifetime [Start, End) in a
	// linear time. In an interval problem they define interference. In a
	// graph problem they are the execution positions of the first use and
	// one past the last use: a hint for ordering heuristics and pictures,
	// not a safety criterion (unordered branches interfere even when their
	// windows are disjoint). In both, an item that is entirely before
	// another starts earlier.
	Start, End int64
}

// Problem is one pool group's placement problem: items, which pairs
// interfere, and the largest pool a strategy may open.
//
// A Problem is immutable once built and safe for concurrent reads.
type Problem struct {
	Items []Item
	// MaxPoolSize caps every pool's size; 0 means no cap. When it is set,
	// every item fits in an empty pool (Size rounded up to the alignment
	// does not exceed it): NewGraphProblem and NewIntervalProblem check.
	MaxPoolSize uint64

	intervals bool
	adj       []int32 // graph problems: neighbours of i are adj[adjStart[i]:adjStart[i+1]], ascending
	adjStart  []int32
}

// NewGraphProblem builds a problem whose interference is given by a
// predicate, called once per unordered pair (i < j). Cost O(n²) calls and
// O(n²/64) scratch, O(n + interfering pairs) memory kept.
func NewGraphProblem(items []Item, maxPoolSize uint64, interferes func(i, j int) bool) (*Problem, error) {
	p := &Problem{Items: items, MaxPoolSize: maxPoolSize}
	if err := p.check(); err != nil {
		return nil, err
	}
	n := len(items)
	// A symmetric bit matrix first: rows then come out ascending with no
	// sort, and the compressed rows are sized exactly.
	m := newBitMatrix(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if interferes(i, j) {
				m.setPair(i, j)
			}
		}
	}
	p.setAdjacency(m)
	return p, nil
}

// bitMatrix is a square matrix of bits, one row of words per item.
type bitMatrix struct {
	words int
	bits  []uint64
	ones  int
}

func newBitMatrix(n int) *bitMatrix {
	words := (n + 63) / 64
	return &bitMatrix{words: words, bits: make([]uint64, n*words)}
}

func (m *bitMatrix) setPair(i, j int) {
	m.bits[i*m.words+j>>6] |= 1 << (uint(j) & 63)
	m.bits[j*m.words+i>>6] |= 1 << (uint(i) & 63)
	m.ones += 2
}

// setAdjacency stores a symmetric interference matrix as compressed rows.
func (p *Problem) setAdjacency(m *bitMatrix) {
	n := len(p.Items)
	p.adjStart = make([]int32, n+1)
	p.adj = make([]int32, 0, m.ones)
	for i := 0; i < n; i++ {
		for w, x := range m.bits[i*m.words : (i+1)*m.words] {
			for ; x != 0; x &= x - 1 {
				p.adj = append(p.adj, int32(w<<6+bits.TrailingZeros64(x)))
			}
		}
		p.adjStart[i+1] = int32(len(p.adj))
	}
}

// NewIntervalProblem builds a problem in which two items interfere exactly
// when their lifetimes [Start, End) overlap (the Dynamic Storage Allocation
// problem of ML compilers). It stores no pairs: O(n) memory.
func NewIntervalProblem(items []Item, maxPoolSize uint64) (*Problem, error) {
	p := &Problem{Items: items, MaxPoolSize: maxPoolSize, intervals: true}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Problem) check() error {
	for i, it := range p.Items {
		switch {
		case it.Size == 0:
			return fmt.Errorf("planner: item %d: size is 0", i)
		case !isPow2(it.Alignment):
			return fmt.Errorf("planner: item %d: alignment %d is not a power of two", i, it.Alignment)
		case it.End <= it.Start:
			return fmt.Errorf("planner: item %d: lifetime [%d, %d) is empty", i, it.Start, it.End)
		case p.MaxPoolSize != 0 && it.Size > p.MaxPoolSize:
			return fmt.Errorf("planner: item %d: size %d exceeds the maximum pool size %d", i, it.Size, p.MaxPoolSize)
		}
	}
	return nil
}

// Intervals reports whether interference is lifetime overlap (an interval
// problem). Then Neighbors is unavailable: strategies index the lifetimes.
func (p *Problem) Intervals() bool { return p.intervals }

// Interferes reports whether items i and j must not overlap in memory. An
// item interferes with itself. O(1) for intervals, O(log degree) for graphs.
func (p *Problem) Interferes(i, j int) bool {
	if i == j {
		return true
	}
	if p.intervals {
		a, b := &p.Items[i], &p.Items[j]
		return a.Start < b.End && b.Start < a.End
	}
	row := p.adj[p.adjStart[i]:p.adjStart[i+1]]
	k := sort.Search(len(row), func(k int) bool { return row[k] >= int32(j) })
	return k < len(row) && row[k] == int32(j)
}

// Neighbors returns the items that interfere with i (i excluded),
// ascending. The slice aliases the problem: do not modify. It panics on an
// interval problem, which stores no pairs.
func (p *Problem) Neighbors(i int) []int32 {
	if p.intervals {
		panic("planner: Neighbors on an interval problem")
	}
	return p.adj[p.adjStart[i]:p.adjStart[i+1]]
}

// Solution places every item of a Problem: item i lives in pool Pool[i] at
// Offset[i]. PoolSizes[k] is pool k's size: the largest Offset+Size of its
// items (every pool holds at least one item).
type Solution struct {
	Pool      []int32
	Offset    []uint64
	PoolSizes []uint64
}

// Peak returns the total size of the solution's pools, saturated at
// math.MaxUint64 so that comparisons stay right near 2^64.
func (s *Solution) Peak() uint64 {
	var t uint64
	for _, z := range s.PoolSizes {
		sum, carry := bits.Add64(t, z, 0)
		if carry != 0 {
			return ^uint64(0)
		}
		t = sum
	}
	return t
}

// Strategy places one pool group's items. Implementations must be
// deterministic (the same Problem gives the same Solution), must never
// overlap interfering items, must align every offset, and must open another
// pool rather than exceed Problem.MaxPoolSize. Place must not retain p.
type Strategy interface {
	// Name is the strategy's name as the CLI and plan files spell it.
	Name() string
	Place(p *Problem) (*Solution, error)
}

// CheckSolution verifies s against p independently of any strategy: every
// item placed, offsets aligned, pools within MaxPoolSize and sized exactly
// to their contents, no two interfering items sharing a byte. Cost
// O(n log n + byte-overlapping pairs).
func CheckSolution(p *Problem, s *Solution) error {
	n := len(p.Items)
	if len(s.Pool) != n || len(s.Offset) != n {
		return fmt.Errorf("planner: solution places %d/%d items, problem has %d", len(s.Pool), len(s.Offset), n)
	}
	size := make([]uint64, len(s.PoolSizes))
	for i, it := range p.Items {
		k, off := s.Pool[i], s.Offset[i]
		if k < 0 || int(k) >= len(s.PoolSizes) {
			return fmt.Errorf("planner: item %d: pool %d does not exist", i, k)
		}
		if off%it.Alignment != 0 {
			return fmt.Errorf("planner: item %d: offset %d is not a multiple of its alignment %d", i, off, it.Alignment)
		}
		end := off + it.Size
		if end < off {
			return fmt.Errorf("planner: item %d: offset %d + size %d overflows", i, off, it.Size)
		}
		size[k] = max(size[k], end)
	}
	for k, z := range s.PoolSizes {
		if z != size[k] {
			return fmt.Errorf("planner: pool %d: size %d, but its items end at %d", k, z, size[k])
		}
		if p.MaxPoolSize != 0 && z > p.MaxPoolSize {
			return fmt.Errorf("planner: pool %d: size %d exceeds the maximum pool size %d", k, z, p.MaxPoolSize)
		}
	}
	// Sweep each pool by offset; any pair whose byte ranges overlap must not
	// interfere.
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if s.Pool[i] != s.Pool[j] {
			return s.Pool[i] < s.Pool[j]
		}
		if s.Offset[i] != s.Offset[j] {
			return s.Offset[i] < s.Offset[j]
		}
		return i < j
	})
	var active []int32 // items of the current pool whose range is still open
	for x, i := range order {
		if x > 0 && s.Pool[order[x-1]] != s.Pool[i] {
			active = active[:0]
		}
		w := 0
		for _, j := range active {
			if s.Offset[j]+p.Items[j].Size > s.Offset[i] {
				active[w] = j
				w++
				if p.Interferes(int(i), int(j)) {
					return &OverlapError{A: int(j), B: int(i), Pool: int(s.Pool[i]),
						OffsetA: s.Offset[j], SizeA: p.Items[j].Size, OffsetB: s.Offset[i], SizeB: p.Items[i].Size}
				}
			}
		}
		active = append(active[:w], i)
	}
	return nil
}

// OverlapError reports two interfering items (or resources) that share
// bytes: the worst bug a plan can have.
type OverlapError struct {
	A, B           int // item indexes (or resource IDs)
	NameA, NameB   string
	Pool           int
	OffsetA, SizeA uint64
	OffsetB, SizeB uint64
}

func (e *OverlapError) Error() string {
	a, b := e.NameA, e.NameB
	if a == "" {
		a = fmt.Sprintf("item %d", e.A)
	} else {
		a = fmt.Sprintf("%q", a)
	}
	if b == "" {
		b = fmt.Sprintf("item %d", e.B)
	} else {
		b = fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("planner: %s [%d, %d) and %s [%d, %d) interfere but overlap in pool %d",
		a, e.OffsetA, e.OffsetA+e.SizeA, b, e.OffsetB, e.OffsetB+e.SizeB, e.Pool)
}

// NoAliasing places every item in its own bytes: items stacked in
// decreasing alignment (ties by index), so that no padding is needed when
// each size is a multiple of its alignment, as drivers report them; a new
// pool opens when the cap would be exceeded. It is the cost aliasing must
// beat, and the fallback that keeps every plan at or below it.
func NoAliasing(p *Problem) *Solution {
	n := len(p.Items)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p.Items[order[a]].Alignment > p.Items[order[b]].Alignment })
	s := &Solution{Pool: make([]int32, n), Offset: make([]uint64, n)}
	var top uint64
	for _, i := range order {
		it := p.Items[i]
		off := roundUp(top, it.Alignment)
		if len(s.PoolSizes) == 0 || off < top || off+it.Size < off || (p.MaxPoolSize != 0 && off+it.Size > p.MaxPoolSize) {
			s.PoolSizes = append(s.PoolSizes, 0)
			off = 0
		}
		k := len(s.PoolSizes) - 1
		s.Pool[i], s.Offset[i] = int32(k), off
		top = off + it.Size
		s.PoolSizes[k] = top
	}
	return s
}
