package planner

import (
	"fmt"
	"iter"
	"math/bits"
	"sort"

	"github.com/aliasplan/aliasplan/internal/radix"
	"github.com/aliasplan/aliasplan/interval"
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
// A graph problem stores interference as a symmetric bit matrix, one row
// of ⌈n/64⌉ words per item: n²/8 bytes, never a list of integers per
// pair. An interval problem stores nothing: interference is lifetime
// overlap.
//
// A Problem is immutable once built and safe for concurrent reads.
type Problem struct {
	Items []Item
	// MaxPoolSize caps every pool's size; 0 means no cap. When it is set,
	// every item fits in an empty pool (Size rounded up to the alignment
	// does not exceed it): NewGraphProblem and NewIntervalProblem check.
	MaxPoolSize uint64

	intervals bool
	adj       bitMatrix // graph problems: row i holds bit j when i and j interfere (i ≠ j)
	// order, when set (by Place), is the order whose incomparable pairs
	// are adj, given by the compiled DAG: LowerBound's network follows it
	// instead of linking item pairs (bound.go).
	order *beforeOrder
}

// NewGraphProblem builds a problem whose interference is given by a
// predicate, called once per unordered pair (i < j). Cost O(n²) calls,
// O(n²/64) memory kept (the bit matrix).
func NewGraphProblem(items []Item, maxPoolSize uint64, interferes func(i, j int) bool) (*Problem, error) {
	p := &Problem{Items: items, MaxPoolSize: maxPoolSize}
	if err := p.check(); err != nil {
		return nil, err
	}
	n := len(items)
	m := newBitMatrix(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if interferes(i, j) {
				m.setPair(i, j)
			}
		}
	}
	p.adj = m
	return p, nil
}

// bitMatrix is a square matrix of bits, one row of words per item.
type bitMatrix struct {
	words int
	bits  []uint64
}

func newBitMatrix(n int) bitMatrix {
	words := (n + 63) / 64
	return bitMatrix{words: words, bits: make([]uint64, n*words)}
}

func (m *bitMatrix) row(i int) []uint64 { return m.bits[i*m.words : (i+1)*m.words : (i+1)*m.words] }

func (m *bitMatrix) setPair(i, j int) {
	m.bits[i*m.words+j>>6] |= 1 << (uint(j) & 63)
	m.bits[j*m.words+i>>6] |= 1 << (uint(i) & 63)
}

// mirror makes the matrix symmetric: every bit (i, j) is copied to (j, i).
// It transposes 64×64 blocks (O(n²/64) word operations), so building a
// triangle row by row and mirroring it never writes down a column.
func (m *bitMatrix) mirror() {
	var a, b [64]uint64
	blocks := m.words
	n := len(m.bits) / max(m.words, 1)
	load := func(dst *[64]uint64, bi, bj int) {
		for r := range 64 {
			if i := bi*64 + r; i < n {
				dst[r] = m.bits[i*m.words+bj]
			} else {
				dst[r] = 0
			}
		}
	}
	store := func(src *[64]uint64, bi, bj int) {
		for r := range 64 {
			if i := bi*64 + r; i < n {
				m.bits[i*m.words+bj] = src[r]
			}
		}
	}
	for bi := 0; bi < blocks; bi++ {
		for bj := bi; bj < blocks; bj++ {
			load(&a, bi, bj)
			load(&b, bj, bi)
			ta, tb := a, b
			transpose64(&ta)
			transpose64(&tb)
			for r := range 64 {
				a[r] |= tb[r]
				b[r] |= ta[r]
			}
			store(&a, bi, bj)
			if bj != bi {
				store(&b, bj, bi)
			}
		}
	}
}

// transpose64 transposes a 64×64 bit block in place: bit c of row r moves
// to bit r of row c (the recursive block swap of Hacker's Delight, 7-3).
func transpose64(x *[64]uint64) {
	mask := uint64(0x00000000ffffffff)
	for j := 32; j != 0; j, mask = j>>1, mask^(mask<<(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (x[k]>>j ^ x[k+j]) & mask
			x[k] ^= t << j
			x[k+j] ^= t
		}
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
// problem). Then Row and Neighbors are unavailable: strategies index the
// lifetimes.
func (p *Problem) Intervals() bool { return p.intervals }

// Interferes reports whether items i and j must not overlap in memory. An
// item interferes with itself. O(1).
func (p *Problem) Interferes(i, j int) bool {
	if i == j {
		return true
	}
	if p.intervals {
		a, b := &p.Items[i], &p.Items[j]
		return a.Start < b.End && b.Start < a.End
	}
	return p.adj.bits[i*p.adj.words+j>>6]&(1<<(uint(j)&63)) != 0
}

// Row returns item i's interference row: bit j (word j/64, bit j%64) is
// set when i and j interfere, i ≠ j. The slice aliases the problem: do
// not modify. It panics on an interval problem, which stores no pairs.
func (p *Problem) Row(i int) []uint64 {
	if p.intervals {
		panic("planner: Row on an interval problem")
	}
	return p.adj.row(i)
}

// Neighbors yields the items that interfere with i (i excluded),
// ascending, from its row: O(n/64 + degree), no allocation. It panics on
// an interval problem, which stores no pairs.
func (p *Problem) Neighbors(i int) iter.Seq[int32] {
	row := p.Row(i)
	return func(yield func(int32) bool) {
		for w, x := range row {
			for ; x != 0; x &= x - 1 {
				if !yield(int32(w<<6 + bits.TrailingZeros64(x))) {
					return
				}
			}
		}
	}
}

// Degree returns the number of items that interfere with i (i excluded).
// O(n/64). It panics on an interval problem.
func (p *Problem) Degree(i int) int {
	d := 0
	for _, x := range p.Row(i) {
		d += bits.OnesCount64(x)
	}
	return d
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

// CheckSolution verifies s against p independently of any strategy: a
// solution at all, every item placed, offsets aligned, pools within MaxPoolSize and sized exactly
// to their contents, no two interfering items sharing a byte. Cost
// O(n log n) for an interval problem (a sweep over lifetimes), O(n log n +
// byte-overlapping pairs) for a graph problem.
func CheckSolution(p *Problem, s *Solution) error {
	if s == nil {
		return fmt.Errorf("planner: the solution is nil")
	}
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
		if z == 0 {
			return fmt.Errorf("planner: pool %d holds no item", k)
		}
		if z != size[k] {
			return fmt.Errorf("planner: pool %d: size %d, but its items end at %d", k, z, size[k])
		}
		if p.MaxPoolSize != 0 && z > p.MaxPoolSize {
			return fmt.Errorf("planner: pool %d: size %d exceeds the maximum pool size %d", k, z, p.MaxPoolSize)
		}
	}
	if p.intervals {
		return checkIntervalOverlaps(p, s)
	}
	// Any pair whose byte ranges overlap in a pool must not interfere.
	at := func(i int) interval.Placed {
		return interval.Placed{Group: int(s.Pool[i]), Range: interval.Range{Start: s.Offset[i], End: s.Offset[i] + p.Items[i].Size}}
	}
	for j, i := range interval.Overlaps(n, at) {
		if p.Interferes(i, j) {
			return &OverlapError{A: j, B: i, Pool: int(s.Pool[i]),
				OffsetA: s.Offset[j], SizeA: p.Items[j].Size, OffsetB: s.Offset[i], SizeB: p.Items[i].Size}
		}
	}
	return nil
}

// checkIntervalOverlaps finds two items of an interval problem that are
// live at one time and share a byte, by a sweep over lifetimes: items
// start in order of Start (an item ending at that time has left, lifetimes
// being half-open), and the live items, as long as no two share a byte,
// are disjoint ranges; a new one overlaps one of them exactly when it
// overlaps the live item just below it or just above it in (pool, offset)
// order. The live set is a Fenwick tree over the items' ranks in that
// order: O(log n) to insert, remove, or find the neighbours. O(n log n)
// time (the sorts linear), 4 int32s and 3 uint64s per item of memory,
// however many pairs share bytes.
func checkIntervalOverlaps(p *Problem, s *Solution) error {
	n := len(p.Items)
	// Sorts by radix (internal/radix), stable over index order: byOffset
	// by offset, then pool, is (pool, offset, index) order; starts by
	// Start, ties by index; ends by End.
	keys := make([]uint64, n)
	byOffset := make([]int32, n) // items by (pool, offset, index)
	for i := range byOffset {
		byOffset[i], keys[i] = int32(i), s.Offset[i]
	}
	radix.Sort(keys, byOffset)
	for r, i := range byOffset {
		keys[r] = uint64(s.Pool[i])
	}
	radix.Sort(keys, byOffset)
	rank := make([]int32, n)
	for r, i := range byOffset {
		rank[i] = int32(r)
	}
	starts, startAt := make([]int32, n), keys // keys is free again
	ends, endAt := make([]int32, n), make([]uint64, n)
	for i := range starts {
		starts[i], startAt[i] = int32(i), radix.Int64(p.Items[i].Start)
		ends[i], endAt[i] = int32(i), radix.Int64(p.Items[i].End)
	}
	radix.Sort(startAt, starts)
	radix.Sort(endAt, ends)
	live := newFenwick(n)
	overlap := func(a, b int32) error {
		return &OverlapError{A: int(a), B: int(b), Pool: int(s.Pool[a]),
			OffsetA: s.Offset[a], SizeA: p.Items[a].Size, OffsetB: s.Offset[b], SizeB: p.Items[b].Size}
	}
	e := 0
	for x, i := range starts {
		for ; e < len(ends) && endAt[e] <= startAt[x]; e++ {
			live.add(int(rank[ends[e]]), -1)
		}
		r := int(rank[i])
		below := live.prefix(r) // live items ranked before i
		if below > 0 {
			if j := byOffset[live.find(below)]; s.Pool[j] == s.Pool[i] && s.Offset[j]+p.Items[j].Size > s.Offset[i] {
				return overlap(j, i)
			}
		}
		if below < live.n {
			if j := byOffset[live.find(below+1)]; s.Pool[j] == s.Pool[i] && s.Offset[j] < s.Offset[i]+p.Items[i].Size {
				return overlap(i, j)
			}
		}
		live.add(r, 1)
	}
	return nil
}

// fenwick is a set of ranks 0..len-1 as a binary indexed tree of counts.
type fenwick struct {
	tree []int32 // 1-based
	n    int     // members
	top  int     // the largest power of two ≤ len(tree)-1
}

func newFenwick(size int) *fenwick {
	f := &fenwick{tree: make([]int32, size+1), top: 1}
	for f.top*2 <= size {
		f.top *= 2
	}
	return f
}

// add adds d (±1) to rank r's count.
func (f *fenwick) add(r int, d int32) {
	f.n += int(d)
	for x := r + 1; x < len(f.tree); x += x & -x {
		f.tree[x] += d
	}
}

// prefix returns the number of members ranked before r.
func (f *fenwick) prefix(r int) int {
	var c int32
	for x := r; x > 0; x -= x & -x {
		c += f.tree[x]
	}
	return int(c)
}

// find returns the rank of the k-th member (1 ≤ k ≤ f.n), ascending.
func (f *fenwick) find(k int) int {
	x, rest := 0, int32(k)
	for step := f.top; step > 0; step >>= 1 {
		if y := x + step; y < len(f.tree) && f.tree[y] < rest {
			x, rest = y, rest-f.tree[y]
		}
	}
	return x // the (x+1)-th tree slot, rank x
}

// OverlapError reports two interfering items (or resources) that share
// bytes: the worst bug a plan can have.
type OverlapError struct {
	A, B           int // item indexes (or resource IDs)
	NameA, NameB   string
	Pool           int
	OffsetA, SizeA uint64
	OffsetB, SizeB uint64
	// Note, when set, says why they interfere where no declared access
	// shows it (an implied read).
	Note string
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
	msg := fmt.Sprintf("planner: %s [%d, %d) and %s [%d, %d) interfere but overlap in pool %d",
		a, e.OffsetA, e.OffsetA+e.SizeA, b, e.OffsetB, e.OffsetB+e.SizeB, e.Pool)
	if e.Note != "" {
		msg += " (" + e.Note + ")"
	}
	return msg
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
