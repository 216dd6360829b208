package exact

import (
	"math"
	"math/rand/v2"
	"slices"
)

// tiler is the skyline search for zero-waste interval components (every
// time section's load equals the capacity C): a placement of peak C then
// tiles the time × bytes rectangle [0, nsec) × [0, C) exactly, and the
// item covering the lowest point of the leftmost lowest run of sections
// lies at that run's floor, starts at its first section and ends within
// it (docs/exact.md, "Skyline tiling"). The search branches over those
// candidates only, with no propagation: a node costs the length of the
// runs it touches, about a microsecond, where a node of the propagating
// search costs a millisecond at n = 3,000.
type tiler struct {
	m       *model
	C       uint64
	fl      []uint64 // floor of each section
	tree    floorTree
	byStart [][]int32 // items by first section, ascending last section
	byEnd   [][]int32 // items by last section, descending first section
	placed  []bool
	off     []uint64
	rank    []int32 // candidate preference of the current restart
	left    int     // items not placed
	nodes   int64
	budget  int64 // node budget of the current run
	stop    func() bool
	cand    [][]int32 // per depth: scratch candidate lists
	// forced: starts of valleys with a single candidate, found by the
	// checks after a placement; dfs fills them first.
	forced []int32
	// The deepest node of the runs since the last reset (items placed),
	// kept for repair: a partial tiling, overlap-free within C.
	deep       int
	deepOff    []uint64
	deepPlaced []bool
	// The failed-state memo: the state of a node is its set of placed
	// items (the floors are their sums), hashed as the sum of a random
	// key per item, one key for identical items (same lifetime, size and
	// alignment: interchangeable). memo holds hashes of states whose
	// subtree was exhausted, one per slot (lossy); a state found there
	// is not searched again, in this run or a later one.
	key  []uint64
	hash uint64
	memo []uint64
	// mark/stamp: the sections a chain reaches (check).
	mark  []uint32
	stamp uint32
	// Switches for measurements (TestTileProbe): the stack rule and the
	// chain check; both on in the driver.
	noMemo, noChain bool
}

// cmpKey orders items by size, then alignment.
func cmpKey(m *model, a, b int32) int {
	switch {
	case m.size[a] < m.size[b]:
		return -1
	case m.size[a] > m.size[b]:
		return 1
	case m.align[a] < m.align[b]:
		return -1
	case m.align[a] > m.align[b]:
		return 1
	}
	return 0
}

func newTiler(m *model, C uint64) *tiler {
	n := len(m.size)
	t := &tiler{m: m, C: C, fl: make([]uint64, m.ntime), placed: make([]bool, n), off: make([]uint64, n), rank: make([]int32, n)}
	t.byStart = make([][]int32, m.ntime)
	for i := 0; i < n; i++ {
		t.byStart[m.sa[i]] = append(t.byStart[m.sa[i]], int32(i))
	}
	// Ascending end, then size and alignment, so that identical items
	// (same lifetime, size, alignment) are adjacent for dfs's dedupe.
	for _, st := range t.byStart {
		slices.SortStableFunc(st, func(a, b int32) int {
			if m.sb[a] != m.sb[b] {
				return int(m.sb[a]) - int(m.sb[b])
			}
			return cmpKey(m, a, b)
		})
	}
	t.byEnd = make([][]int32, m.ntime)
	for i := 0; i < n; i++ {
		t.byEnd[m.sb[i]-1] = append(t.byEnd[m.sb[i]-1], int32(i))
	}
	for _, st := range t.byEnd {
		slices.SortStableFunc(st, func(a, b int32) int { return int(m.sa[b]) - int(m.sa[a]) })
	}
	t.tree = newFloorTree(m.ntime)
	t.deepOff, t.deepPlaced = make([]uint64, n), make([]bool, n)
	t.mark = make([]uint32, m.ntime+1)
	t.key = make([]uint64, n)
	type class struct {
		sa, sb int32
		size   uint64
		align  uint64
	}
	keys := map[class]uint64{}
	rng := rand.New(rand.NewPCG(uint64(n), 0x7e57))
	for i := 0; i < n; i++ {
		c := class{m.sa[i], m.sb[i], m.size[i], m.align[i]}
		k, ok := keys[c]
		if !ok {
			k = rng.Uint64() | 1
			keys[c] = k
		}
		t.key[i] = k
	}
	t.memo = make([]uint64, memoSize(n))
	return t
}

// memoSize is the number of slots of a tiler's memo: a power of two,
// about 256 per item, from 2^12 to 2^20 (8 MiB).
func memoSize(n int) int {
	s := 1 << 12
	for s < 256*n && s < 1<<20 {
		s *= 2
	}
	return s
}

// zeroWaste reports whether every time section of m holds exactly C
// bytes (the tiler's precondition).
func zeroWaste(m *model, C uint64) bool {
	if len(m.nbr) > 0 || m.ntime != m.nsec || m.ntime == 0 {
		return false
	}
	for t := 0; t < m.ntime; t++ {
		if m.load[t] != C {
			return false
		}
	}
	return true
}

// run searches for a tiling with a node budget and the candidate
// preference rank (lower first); found leaves it in t.off.
func (t *tiler) run(budget int64, rank []int32) status {
	m := t.m
	for i := range t.placed {
		t.placed[i] = false
	}
	for s := range t.fl {
		t.fl[s] = 0
	}
	t.tree.assign(0, m.ntime, 0)
	t.left = len(m.size)
	t.hash = 0x9e3779b97f4a7c15 // not 0: empty slots hold 0
	copy(t.rank, rank)
	t.budget = t.nodes + budget
	return t.dfs(0)
}

// get is the floor of section s, MaxUint64 outside [0, ntime).
func (t *tiler) get(s int) uint64 {
	if s < 0 || s >= len(t.fl) {
		return math.MaxUint64
	}
	return t.fl[s]
}

func (t *tiler) dfs(depth int) status {
	if t.left == 0 {
		return found
	}
	if depth > t.deep {
		t.deep = depth
		copy(t.deepOff, t.off)
		copy(t.deepPlaced, t.placed)
	}
	if t.nodes >= t.budget || (t.nodes&1023 == 0 && t.stop != nil && t.stop()) {
		return aborted
	}
	slot := &t.memo[t.hash&uint64(len(t.memo)-1)]
	if !t.noMemo && *slot == t.hash {
		return exhausted
	}
	n0 := t.nodes
	m := t.m
	nf := len(t.forced)
	defer func() { t.forced = t.forced[:nf] }()
	var f uint64
	a, b := -1, 0
	for len(t.forced) > 0 {
		s := int(t.forced[len(t.forced)-1])
		t.forced = t.forced[:len(t.forced)-1]
		if ok, bb := t.isValley(s); ok {
			a, b, f = s, bb, t.fl[s]
			break
		}
	}
	if a < 0 {
		f, a = t.tree.min()
		b = t.tree.firstAbove(a, f)
	}
	if depth >= len(t.cand) {
		t.cand = append(t.cand, nil)
	}
	cs := t.cand[depth][:0]
	for _, i := range t.byStart[a] {
		if int(m.sb[i]) > b {
			break
		}
		if !t.placed[i] && f%m.align[i] == 0 && f+m.size[i] <= t.C {
			if k := len(cs) - 1; k >= 0 && m.sb[cs[k]] == m.sb[i] && m.size[cs[k]] == m.size[i] && m.align[cs[k]] == m.align[i] {
				continue // the same item again: the same subtrees
			}
			cs = append(cs, i)
		}
	}
	t.cand[depth] = cs
	if len(cs) == 0 {
		return exhausted
	}
	lf, rf := t.get(a-1), t.get(b)
	// Value order: an item that closes the valley flush (ends at b)
	// first, then one whose top meets a neighbouring floor; ties by the
	// restart's rank. Heuristic only: every candidate is tried.
	score := func(i int32) int {
		s := 0
		if int(m.sb[i]) == b {
			s += 2
		}
		top := f + m.size[i]
		if top == lf || (int(m.sb[i]) == b && top == rf) {
			s++
		}
		return s
	}
	slices.SortFunc(cs, func(x, y int32) int {
		if sx, sy := score(x), score(y); sx != sy {
			return sy - sx
		}
		return int(t.rank[x]) - int(t.rank[y])
	})
	res := exhausted
	for k := 0; k < len(t.cand[depth]); k++ {
		j := t.cand[depth][k]
		t.nodes++
		t.place(j, f)
		st := exhausted
		if t.viable(j, f, a, b) {
			st = t.dfs(depth + 1)
		}
		if st == found {
			return found
		}
		t.unplace(j, f)
		if st == aborted {
			res = aborted
			break
		}
	}
	if res == exhausted && t.nodes-n0 > 1 {
		*slot = t.hash
	}
	return res
}

func (t *tiler) place(j int32, f uint64) {
	m := t.m
	top := f + m.size[j]
	for s := m.sa[j]; s < m.sb[j]; s++ {
		t.fl[s] = top
	}
	t.tree.assign(int(m.sa[j]), int(m.sb[j]), top)
	t.placed[j] = true
	t.off[j] = f
	t.left--
	t.hash += t.key[j]

}

func (t *tiler) unplace(j int32, f uint64) {
	m := t.m
	for s := m.sa[j]; s < m.sb[j]; s++ {
		t.fl[s] = f
	}
	t.tree.assign(int(m.sa[j]), int(m.sb[j]), f)
	t.placed[j] = false
	t.left++
	t.hash -= t.key[j]

}

// viable checks the runs that placing j at f in the valley [a, b) may
// have changed (the one j's top joins, its neighbours, and the rest of
// the valley): each must have its end points coverable.
func (t *tiler) viable(j int32, f uint64, a, b int) bool {
	e := int(t.m.sb[j])
	return t.check(a) && (a == 0 || t.check(a-1)) && (e == len(t.fl) || t.check(e))
}

// check reports false when the run containing section s, at a floor f
// below C, has an end point that no remaining item can cover: where the
// left neighbour is higher, point (a, f) is covered by an item at offset
// f that starts at a and ends before the first higher section to the
// right; where the right neighbour is higher, point (b-1, f) by one that
// ends at b and starts after the last higher section to the left.
func (t *tiler) check(s int) bool {
	m := t.m
	f := t.fl[s]
	if f >= t.C {
		return true
	}
	a, b := s, s+1
	for a > 0 && t.fl[a-1] == f {
		a--
	}
	for b < len(t.fl) && t.fl[b] == f {
		b++
	}
	lh := a == 0 || t.fl[a-1] > f
	rh := b == len(t.fl) || t.fl[b] > f
	if t.noChain {
		return t.checkEnds(a, b, f, lh, rh)
	}
	fits := func(i int32) bool { return !t.placed[i] && f%m.align[i] == 0 && f+m.size[i] <= t.C }
	if lh {
		// The items at offset f covering the run form a chain of
		// lifetimes from a (byte f of section a-1 is occupied) through
		// [a, b), within [a, R) (byte f is occupied at R).
		R := b
		if !rh {
			R = t.tree.firstAbove(b, f)
		}
		st := t.nextStamp()
		t.mark[a] = st
		cnt, ok := 0, false
		for p := a; p < b && !ok; p++ {
			if t.mark[p] != st {
				continue
			}
			for _, i := range t.byStart[p] {
				e := int(m.sb[i])
				if e > R {
					break
				}
				if !fits(i) {
					continue
				}
				if p == a {
					cnt++
				}
				if e >= b {
					ok = true
					if p != a {
						break
					}
				}
				t.mark[e] = st
			}
		}
		if !ok {
			return false
		}
		if cnt == 1 && rh {
			t.forced = append(t.forced, int32(a))
		}
		return true
	}
	if rh {
		// The mirror image: a chain ending at b, starting after the
		// last higher section L-1 to the left.
		L := t.lastAbove(a-1, f) + 1
		st := t.nextStamp()
		t.mark[b] = st
		for p := b; p > a; p-- {
			if t.mark[p] != st {
				continue
			}
			for _, i := range t.byEnd[p-1] {
				s0 := int(m.sa[i])
				if s0 < L {
					break
				}
				if !fits(i) {
					continue
				}
				if s0 <= a {
					return true
				}
				t.mark[s0] = st
			}
		}
		return false
	}
	return true
}

func (t *tiler) nextStamp() uint32 {
	t.stamp++
	if t.stamp == 0 {
		clear(t.mark)
		t.stamp = 1
	}
	return t.stamp
}

// checkEnds is check without chains: only the end points of the run.
func (t *tiler) checkEnds(a, b int, f uint64, lh, rh bool) bool {
	m := t.m
	if lh {
		R := b
		if !rh {
			R = t.tree.firstAbove(b, f)
		}
		cnt := 0
		for _, i := range t.byStart[a] {
			if int(m.sb[i]) > R {
				break
			}
			if !t.placed[i] && f%m.align[i] == 0 && f+m.size[i] <= t.C {
				if cnt++; cnt > 1 {
					break
				}
			}
		}
		if cnt == 0 {
			return false
		}
		if cnt == 1 && rh {
			t.forced = append(t.forced, int32(a))
		}
	}
	if rh {
		L := a
		if !lh {
			L = t.lastAbove(a-1, f) + 1
		}
		hit := false
		for _, i := range t.byEnd[b-1] {
			if int(m.sa[i]) < L {
				break
			}
			if !t.placed[i] && f%m.align[i] == 0 && f+m.size[i] <= t.C {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// lastAbove returns the last section ≤ s whose floor exceeds f, or -1.
func (t *tiler) lastAbove(s int, f uint64) int {
	for s >= 0 && t.fl[s] <= f {
		s--
	}
	return s
}

// isValley reports whether section s starts a valley below C and where
// it ends.
func (t *tiler) isValley(s int) (bool, int) {
	f := t.fl[s]
	if f >= t.C || (s > 0 && t.fl[s-1] <= f) {
		return false, 0
	}
	b := s + 1
	for b < len(t.fl) && t.fl[b] == f {
		b++
	}
	if b < len(t.fl) && t.fl[b] < f {
		return false, 0
	}
	return true, b
}

// tileRank sets a candidate preference: longest first for r = 0, else
// a seeded shuffle.
func tileRank(m *model, r int, rank []int32) {
	n := len(m.size)
	o := make([]int32, n)
	for i := range o {
		o[i] = int32(i)
	}
	if r == 0 {
		slices.SortStableFunc(o, func(x, y int32) int {
			if dx, dy := m.sb[x]-m.sa[x], m.sb[y]-m.sa[y]; dx != dy {
				return int(dy - dx)
			}
			if m.size[x] != m.size[y] {
				if m.size[x] > m.size[y] {
					return -1
				}
				return 1
			}
			return 0
		})
	} else {
		rng := rand.New(rand.NewPCG(uint64(r), 0x711e))
		rng.Shuffle(n, func(a, b int) { o[a], o[b] = o[b], o[a] })
	}
	for k, i := range o {
		rank[i] = int32(k)
	}
}
