package exact

import (
	"cmp"
	"github.com/aliasplan/aliasplan/internal/invariants"
	"math"
	"slices"
	"sort"
)

// insertionMax is the longest member list sorted by insertion.
const insertionMax = 32

// status is the outcome of a search or of one subtree.
type status uint8

const (
	found     status = iota // every item of the scope placed within the capacity
	exhausted               // no placement within the capacity (proven)
	aborted                 // the node budget ran out
)

// undo kinds.
const (
	undoFloor = iota // floor[idx] = old
	undoLo           // lo[idx] = old
	undoHi           // hi[idx] = old
	undoEf           // ef[idx] = old
	undoSup          // sup[idx] = old
	undoPlace        // unplace item idx
)

type undo struct {
	kind uint8
	idx  int32
	old  uint64
}

// search decides whether a model fits in capacity c by depth-first search
// over canonical placements, with constraint propagation at every node.
// docs/exact.md states each rule and why it keeps an optimal solution.
//
// Every remaining item j has a domain [lo[j], hi[j]] of offsets (both
// multiples of its alignment) that every completion of the current node
// respects. Every live section t (one with remaining members) has a floor
// below which none of its remaining members lies and ef[t], the lowest
// offset its next member can take: max(floor, min lo of the members).
type search struct {
	m *model
	c uint64

	off    []uint64
	placed []bool
	floor  []uint64
	rem    []uint64 // per section: total size of the remaining members
	cnt    []int32  // per section: number of remaining members
	lo, hi []uint64
	// sup[j]: the highest end of a placed item interfering with j, aligned
	// up for j: where j would rest if placed now. A canonical placement
	// puts j exactly there.
	sup   []uint64
	ef    []uint64
	trail []undo

	queue   []int32
	inQueue []bool

	firstItem []int32 // firstItem[t]: the first item whose first section is ≥ t
	rank      []int32 // value order: lower rank is tried first

	// Scratch.
	recs  []mrec
	fill  []uint64
	lv    []uint64
	sums  []uint64
	top   []uint64
	big   []uint64
	reach []bool
	cands []int32
	mitm  [3][]uint64

	// The root fixpoint for capacity rootC.
	rootC                  uint64
	rootLo, rootHi, rootEf []uint64

	nodes int64 // nodes visited by this search, all runs
	calls int64 // out calls
	limit int64 // run aborts when nodes reaches limit
	// stop, when set, is called every 16 checks; true aborts the run and
	// sets halted.
	stop   func() bool
	halted bool
	// need is the smallest capacity at which some pruned node would have
	// survived: after an exhausted run, no placement needs less.
	need uint64
	// work counts the propagation's elementary steps; the clock is read
	// when it passes nextCheck.
	work, nextCheck int64
	// skyline selects branchLevel over branchNext where no tight section
	// lies at the lowest level.
	skyline bool
	// The deepest node of the current run (complete.go): how many items
	// are placed now, the most of any node of the run, and that node's
	// placement and lower bounds.
	nplaced, deep   int
	deepOff, deepLo []uint64
	deepPlaced      []bool
	// Window re-solves (window.go): pinned items keep the offset pinOff
	// (their domain is that one point) and are exempt from the rules that
	// assume a canonical position; nil in every other search.
	pin    []bool
	pinOff []uint64
}

func newSearch(m *model) *search {
	m.buildMembers()
	n := len(m.size)
	s := &search{
		m:         m,
		off:       make([]uint64, n),
		placed:    make([]bool, n),
		floor:     make([]uint64, m.nsec),
		rem:       make([]uint64, m.nsec),
		cnt:       make([]int32, m.nsec),
		lo:        make([]uint64, n),
		hi:        make([]uint64, n),
		sup:       make([]uint64, n),
		ef:        make([]uint64, m.nsec),
		inQueue:   make([]bool, m.nsec),
		firstItem: make([]int32, m.ntime+1),
		rank:      make([]int32, n),
		reach:     make([]bool, m.ntime+1),
	}
	i := 0
	for t := 0; t <= m.ntime; t++ {
		for i < n && int(m.sa[i]) < t {
			i++
		}
		s.firstItem[t] = int32(i)
	}
	for i := range s.rank {
		s.rank[i] = int32(i)
	}
	return s
}

// setOrder sets the value order: items earlier in order are tried first.
func (s *search) setOrder(order []int32) {
	for r, i := range order {
		s.rank[i] = int32(r)
	}
}

// run decides capacity c with at most budget more nodes. On found, s.off
// holds the placement.
func (s *search) run(c uint64, budget int64) status {
	s.limit = s.nodes + budget
	s.reset(c)
	st := s.resume()
	if st == exhausted && s.halted {
		// A failure seen after the stop may be the stop itself.
		st = aborted
	}
	return st
}

// runFrom searches at capacity c with at most budget more nodes, from the
// node in which the items of prefix sit at their offsets in off (prefix in
// (offset, index) order, each below every remaining item it interferes
// with: the bottom band of a placement). A prefix item outside its domain
// ends the prefix there; when propagation rejects the prefix, the run is
// aborted.
// The run explores a subtree only: found is a placement within c (checked
// like any other), exhausted proves nothing, and the caller must treat it
// as aborted.
func (s *search) runFrom(c uint64, budget int64, prefix []int32, off []uint64) status {
	s.limit = s.nodes + budget
	s.reset(c)
	if s.rootC == c && s.rootLo != nil {
		copy(s.lo, s.rootLo)
		copy(s.hi, s.rootHi)
		copy(s.ef, s.rootEf)
	} else {
		if st := s.root(c); st != found {
			return st
		}
		s.rootC = c
		s.rootLo = append(s.rootLo[:0], s.lo...)
		s.rootHi = append(s.rootHi[:0], s.hi...)
		s.rootEf = append(s.rootEf[:0], s.ef...)
		s.trail = s.trail[:0]
	}
	// The prefix is placed without propagating between items (one
	// propagation per item costs milliseconds on a large model): placing
	// an item only raises lo of the items it interferes with to its end,
	// which no later prefix item (higher or disjoint in time) is below.
	for _, j := range prefix {
		o := off[j]
		if s.lo[j] > o || s.hi[j] < o {
			break
		}
		s.nodes++
		if !s.place(j, o) {
			return aborted
		}
	}
	if !s.propagate() || s.halted {
		return aborted
	}
	// The prefix counts one node an item, on top of the search's budget.
	s.limit = s.nodes + budget
	st := s.dfs(0, int32(s.m.ntime))
	if st == exhausted {
		st = aborted // a subtree: nothing is proven
	}
	return st
}

// reset empties the placement for a run at capacity c.
func (s *search) reset(c uint64) {
	m := s.m
	s.c = c
	s.halted = false
	s.need = math.MaxUint64
	s.trail = s.trail[:0]
	s.nplaced, s.deep = 0, 0
	s.queue = s.queue[:0]
	for t := 0; t < m.nsec; t++ {
		s.floor[t] = 0
		s.ef[t] = 0
		s.rem[t] = m.load[t]
		s.cnt[t] = m.count[t]
		s.inQueue[t] = false
	}
	for i := range s.placed {
		s.placed[i] = false
		s.sup[i] = 0
	}
}

// resume runs the search from the root after reset.
func (s *search) resume() status {
	m, c := s.m, s.c
	if s.rootC == c && s.rootLo != nil {
		// The root fixpoint depends on c only.
		copy(s.lo, s.rootLo)
		copy(s.hi, s.rootHi)
		copy(s.ef, s.rootEf)
		return s.dfs(0, int32(m.ntime))
	}
	st := s.root(c)
	if st != found {
		return st
	}
	s.rootC = c
	s.rootLo = append(s.rootLo[:0], s.lo...)
	s.rootHi = append(s.rootHi[:0], s.hi...)
	s.rootEf = append(s.rootEf[:0], s.ef...)
	s.trail = s.trail[:0]
	return s.dfs(0, int32(m.ntime))
}

// root sets up and propagates the root node for capacity c; found means
// it did not fail.
func (s *search) root(c uint64) status {
	m := s.m
	s.rootC, s.rootLo = 0, nil
	for i := range s.placed {
		s.lo[i] = 0
		if m.size[i] > c {
			s.fail(m.size[i])
			return exhausted
		}
		s.hi[i] = alignDown(c-m.size[i], m.align[i])
		if s.pin != nil && s.pin[i] {
			o := s.pinOff[i]
			if o > s.hi[i] || o%m.align[i] != 0 {
				s.fail(satAdd(c, 1))
				return exhausted
			}
			s.lo[i], s.hi[i] = o, o
		}
	}
	for i := range s.placed {
		if tw := m.twin[i]; tw >= 0 && !s.setLo(int32(i), s.lo[tw]+m.size[tw]) {
			s.fail(satAdd(c, 1))
			return exhausted
		}
	}
	for i := len(s.placed) - 1; i >= 0; i-- {
		if tw := m.twin[i]; tw >= 0 && !s.setHi(tw, s.hi[i]-m.size[tw], s.hi[i] >= m.size[tw]) {
			s.fail(satAdd(c, 1))
			return exhausted
		}
	}
	for t := 0; t < m.nsec; t++ {
		s.enqueue(int32(t))
	}
	if !s.propagate() {
		return exhausted
	}
	return found
}

func (s *search) live(t int32) bool { return s.cnt[t] > 0 }

func (s *search) enqueue(t int32) {
	if !s.inQueue[t] {
		s.inQueue[t] = true
		s.queue = append(s.queue, t)
	}
}

// enqueueItem schedules every section of item j.
func (s *search) enqueueItem(j int32) {
	m := s.m
	for t := m.sa[j]; t < m.sb[j]; t++ {
		s.enqueue(t)
	}
	for _, t := range m.extra(j) {
		s.enqueue(t)
	}
}

// setLo raises lo[j] to x (aligned up); it returns false on an empty
// domain.
func (s *search) setLo(j int32, x uint64) bool {
	m := s.m
	x = alignUp(x, m.align[j])
	if x <= s.lo[j] {
		return true
	}
	s.trail = append(s.trail, undo{undoLo, j, s.lo[j]})
	s.lo[j] = x
	s.enqueueItem(j)
	// Twins stay in index order: the next twin lies above j.
	if k := j + 1; int(k) < len(m.size) && m.twin[k] == j && !s.placed[k] {
		if !s.setLo(k, satAdd(x, m.size[j])) {
			return false
		}
	}
	return x <= s.hi[j]
}

// setHi lowers hi[j] to x (aligned down); it returns false on an empty
// domain. x may be "negative", passed as ok=false.
func (s *search) setHi(j int32, x uint64, ok bool) bool {
	m := s.m
	if !ok {
		return false
	}
	x = alignDown(x, m.align[j])
	if x >= s.hi[j] {
		return true
	}
	s.trail = append(s.trail, undo{undoHi, j, s.hi[j]})
	s.hi[j] = x
	s.enqueueItem(j)
	if tw := m.twin[j]; tw >= 0 && !s.placed[tw] {
		if x < m.size[tw] || !s.setHi(tw, x-m.size[tw], true) {
			return false
		}
	}
	return x >= s.lo[j]
}

// fail records that the current node needs capacity need and empties the
// queue.
func (s *search) fail(need uint64) bool {
	s.need = min(s.need, need)
	for _, t := range s.queue {
		s.inQueue[t] = false
	}
	s.queue = s.queue[:0]
	return false
}

// out reports whether the run must stop: the node budget is spent, or
// stop says so (checked every 16 calls).
func (s *search) out() bool {
	if s.nodes >= s.limit || s.halted {
		return true
	}
	s.calls++
	if s.stop != nil && s.calls&15 == 0 && s.stop() {
		s.limit = s.nodes
		s.halted = true
		return true
	}
	return false
}

// propagate runs the section rules until nothing changes.
func (s *search) propagate() bool {
	for head := 0; head < len(s.queue); head++ {
		// The clock is read by work done, not by sections: one section
		// of a large clique costs as much as thousands of small ones.
		if s.work >= s.nextCheck && s.stop != nil && s.stop() {
			// Out of time in a long propagation: the caller sees a failure
			// and, through halted, reports it as aborted.
			s.halted = true
			s.limit = s.nodes
			return s.fail(math.MaxUint64)
		}
		if s.work >= s.nextCheck {
			s.nextCheck = s.work + checkWork
		}
		t := s.queue[head]
		s.inQueue[t] = false
		if !s.live(t) {
			continue
		}
		if !s.propagateSection(t) {
			return false // fail emptied the queue
		}
	}
	s.queue = s.queue[:0]
	return true
}

// mrec is a remaining member of a section, copied for the section rules.
// Copies may lag behind lo and hi while a rule runs; a lagging copy is a
// weaker bound, so the rules stay sound, and any change re-queues the
// section.
type mrec struct {
	lo, hi, size uint64
	j            int32
}

// propagateSection applies the rules of one live section t.
func (s *search) propagateSection(t int32) bool {
	m := s.m
	c := s.c
	recs := s.recs[:0]
	e := uint64(math.MaxUint64)
	var maxLo uint64
	minDue := uint64(math.MaxUint64)
	for _, j := range m.members(int(t)) {
		if s.placed[j] {
			continue
		}
		if s.lo[j] > s.hi[j] {
			s.recs = recs
			return s.fail(satAdd(c, 1))
		}
		recs = append(recs, mrec{s.lo[j], s.hi[j], m.size[j], j})
		e = min(e, s.lo[j])
		maxLo = max(maxLo, s.lo[j])
		minDue = min(minDue, s.hi[j]+m.size[j])
	}
	s.recs = recs
	e = max(e, s.floor[t])
	if e != s.ef[t] {
		s.trail = append(s.trail, undo{undoEf, t, s.ef[t]})
		s.ef[t] = e
	}
	rem := s.rem[t]
	if need := satAdd(e, rem); need > c {
		return s.fail(need)
	}
	if len(recs) == 1 {
		return true // a lone member's domain already says it all
	}
	slack := c - e - rem
	if maxLo-e <= slack && c-minDue <= slack {
		// Rules 2–4 cannot fire: each needs a release date more than
		// slack above e (x - e > slack) or a due date more than slack
		// below c (c - y > slack). Skipping them saves the sorts.
		return s.compulsory(recs, e, slack)
	}

	// Release dates: sorted by lo, the members released before x must fill
	// [e, x) but for the slack.
	// Only release dates x > e + slack can fire rules 2 and 3 (rule 2:
	// x + rem - before ≤ e + slack + rem = c; rule 3: S(x) + s_k ≤ rem for
	// a member k released before x). The members released by e + slack
	// go first, unsorted, and count in before; the others are sorted.
	nlow := partition(recs, func(r *mrec) bool { return r.lo <= e+slack })
	sortByLo(recs[nlow:])
	var before uint64
	for _, r := range recs[:nlow] {
		before += r.size
	}
	lv := s.lv[:0]     // distinct lo values, ascending
	sums := s.sums[:0] // sums[q]: total size of the members with lo ≥ lv[q]
	for k := nlow; k < len(recs); {
		x := recs[k].lo
		if need := satAdd(x, rem) - before; need > c {
			s.lv, s.sums = lv, sums
			return s.fail(need)
		}
		lv = append(lv, x)
		sums = append(sums, rem-before)
		for ; k < len(recs) && recs[k].lo == x; k++ {
			before += recs[k].size
		}
	}
	// top[q]: the largest x + S(x) over levels q and above.
	top := s.top[:0]
	for q := range lv {
		top = append(top, satAdd(lv[q], sums[q]))
	}
	for q := len(top) - 2; q >= 0; q-- {
		top[q] = max(top[q], top[q+1])
	}
	s.lv, s.sums, s.top = lv, sums, top

	// Edge finding, upper bounds: the members released at x or later all
	// lie in [x, c). A member k that cannot lie there with them starts
	// below x, so they all lie above its top: hi[k] ≤ c - size[k] - S(x).
	// The smallest such x gives the strongest bound.
	q0 := 0
	for i := range recs {
		r := &recs[i]
		for q0 < len(lv) && lv[q0] <= r.lo {
			q0++
		}
		if q0 == len(lv) || satAdd(top[q0], r.size) <= c {
			continue
		}
		for q := q0; q < len(lv); q++ {
			if satAdd(satAdd(lv[q], sums[q]), r.size) > c {
				if c < r.size+sums[q] || !s.setHi(r.j, c-r.size-sums[q], true) {
					return s.fail(satAdd(c, 1))
				}
				r.hi = s.hi[r.j]
				break
			}
		}
	}

	// Edge finding, lower bounds (the mirror image): the members due by y
	// (hi + size ≤ y) all lie in [e, y). A member that cannot lie there
	// with them ends above y, so they all lie below it.
	// Only due dates y < e + rem = c - slack can fire rule 4: for a larger
	// y, e + due ≤ e + rem ≤ y, and the members not due fit in room ≥ rem
	// - due. Those go first, sorted; the others follow, unsorted.
	ndue := partition(recs, func(r *mrec) bool { return r.hi+r.size < e+rem })
	sortByDue(recs[:ndue])
	big := s.big[:0] // big[i]: the largest size in recs[i:]
	for i := range recs {
		big = append(big, recs[i].size)
	}
	for i := len(big) - 2; i >= 0; i-- {
		big[i] = max(big[i], big[i+1])
	}
	s.big = big
	var due uint64
	for q := 0; q < ndue; {
		y := recs[q].hi + recs[q].size
		for ; q < ndue && recs[q].hi+recs[q].size == y; q++ {
			due += recs[q].size
		}
		if satAdd(e, due) > y {
			return s.fail(satAdd(c, 1))
		}
		room := y - e - due // free space below y once they are in
		if q == len(recs) || big[q] <= room {
			continue
		}
		for i := q; i < len(recs); i++ {
			r := &recs[i]
			if r.size > room && r.lo < e+due {
				if !s.setLo(r.j, e+due) {
					return s.fail(satAdd(c, 1))
				}
				r.lo = s.lo[r.j]
			}
		}
	}

	return s.compulsory(recs, e, slack)
}

// compulsory applies rules 5 and 6 of propagateSection to its members
// recs (any order): compulsory parts, and gaps between fixed members.
func (s *search) compulsory(recs []mrec, e, slack uint64) bool {
	c := s.c
	// Compulsory parts: [hi, lo+size) of a member is occupied whatever its
	// offset; no other member may overlap it.
	ncp, nfixed := 0, 0
	s.work += int64(len(recs))
	for i := range recs {
		if recs[i].hi < recs[i].lo+recs[i].size {
			ncp++
			if recs[i].hi == recs[i].lo {
				nfixed++
			}
		}
	}
	if ncp > 0 {
		s.work += int64(ncp) * int64(len(recs))
		for i := range recs {
			a, b := recs[i].hi, recs[i].lo+recs[i].size
			if a >= b {
				continue
			}
			for k := range recs {
				if k == i {
					continue
				}
				r := &recs[k]
				if r.lo < b && r.lo+r.size > a {
					if !s.setLo(r.j, b) {
						return s.fail(satAdd(c, 1))
					}
					r.lo = s.lo[r.j]
				}
				if r.hi < b && r.hi+r.size > a {
					if a < r.size || !s.setHi(r.j, a-r.size, true) {
						return s.fail(satAdd(c, 1))
					}
					r.hi = s.hi[r.j]
				}
			}
		}
	}
	if nfixed == 0 {
		return true
	}
	// Gaps between fixed members: every other member lies wholly inside
	// one gap, so the gaps' best fills must leave no more waste than the
	// slack.
	for i := range recs {
		recs[i].lo, recs[i].hi = s.lo[recs[i].j], s.hi[recs[i].j]
	}
	sortByLo(recs)
	waste := uint64(0)
	a := e
	for q := 0; q <= len(recs); q++ {
		b := c
		if q < len(recs) {
			if recs[q].lo != recs[q].hi {
				continue
			}
			b = recs[q].lo
		}
		if b > a {
			waste += (b - a) - s.bestFill(recs, a, b)
			if waste > slack {
				return s.fail(satAdd(c, 1))
			}
		}
		if q < len(recs) {
			a = max(a, recs[q].lo+recs[q].size)
		}
	}
	return true
}

// sortByLo sorts by lo, stably. Long lists (a section of a large model
// has hundreds of members in index order, their lo values in any order)
// are sorted by (lo, j), which is the same order when r is in ascending j,
// as propagateSection builds it: O(m log m) instead of O(m²).
func sortByLo(r []mrec) {
	if len(r) > insertionMax {
		slices.SortFunc(r, func(x, y mrec) int {
			if c := cmp.Compare(x.lo, y.lo); c != 0 {
				return c
			}
			return cmp.Compare(x.j, y.j)
		})
		return
	}
	for i := 1; i < len(r); i++ {
		x := r[i]
		k := i
		for ; k > 0 && r[k-1].lo > x.lo; k-- {
			r[k] = r[k-1]
		}
		r[k] = x
	}
}

// partition moves the members for which low holds to the front (not
// stably: the rules do not depend on the order within a part, only on
// the sorted one) and returns their count.
func partition(r []mrec, low func(*mrec) bool) int {
	k := 0
	for i := range r {
		if low(&r[i]) {
			r[k], r[i] = r[i], r[k]
			k++
		}
	}
	return k
}

// sortByDue sorts by hi + size, stably. propagateSection calls it on a
// list sorted by (lo, j), so long lists are sorted by (due, lo, j): the
// same order.
func sortByDue(r []mrec) {
	if len(r) > insertionMax {
		slices.SortFunc(r, func(x, y mrec) int {
			if c := cmp.Compare(x.hi+x.size, y.hi+y.size); c != 0 {
				return c
			}
			if c := cmp.Compare(x.lo, y.lo); c != 0 {
				return c
			}
			return cmp.Compare(x.j, y.j)
		})
		return
	}
	for i := 1; i < len(r); i++ {
		x := r[i]
		d := x.hi + x.size
		k := i
		for ; k > 0 && r[k-1].hi+r[k-1].size > d; k-- {
			r[k] = r[k-1]
		}
		r[k] = x
	}
}

// bestFill returns the largest total size of non-fixed members that fit
// together in [a, b), each within its domain; exact for up to maxExact
// candidates, else an upper bound.
func (s *search) bestFill(recs []mrec, a, b uint64) uint64 {
	gap := b - a
	sz := s.fill[:0]
	var total uint64
	for _, r := range recs {
		if r.lo == r.hi || r.size > gap {
			continue
		}
		// Some offset o in [max(lo, a), min(hi, b-size)].
		lo := max(r.lo, a)
		if lo > r.hi || lo+r.size > b {
			continue
		}
		sz = append(sz, r.size)
		total += r.size
	}
	s.fill = sz
	if total <= gap {
		return total
	}
	if len(sz) > maxExact || (s.pin != nil && len(sz) > maxExactPinned) {
		return gap
	}
	s.work += 2 << (len(sz) / 2)
	return maxSubsetSum(sz, gap, &s.mitm)
}

// maxSubsetSum returns the largest sum of a subset of sz that does not
// exceed cap, meeting in the middle: O(2^(n/2)).
func maxSubsetSum(sz []uint64, cap uint64, scratch *[3][]uint64) uint64 {
	h := len(sz) / 2
	left := subsetSums(sz[:h], cap, scratch[0][:0], &scratch[2])
	right := subsetSums(sz[h:], cap, scratch[1][:0], &scratch[2])
	scratch[0], scratch[1] = left, right
	best := uint64(0)
	r := len(right) - 1
	for _, x := range left {
		for r >= 0 && x+right[r] > cap {
			r--
		}
		if r < 0 {
			break
		}
		best = max(best, x+right[r])
		if best == cap {
			break
		}
	}
	return best
}

// subsetSums returns the distinct subset sums of sz up to cap, ascending,
// built by merging (no sort).
func subsetSums(sz []uint64, cap uint64, out []uint64, tmp *[]uint64) []uint64 {
	out = append(out, 0)
	for _, x := range sz {
		t := (*tmp)[:0]
		a, b := 0, 0
		for a < len(out) || b < len(out) {
			var v uint64
			switch {
			case b == len(out) || (a < len(out) && out[a] <= out[b]+x):
				v = out[a]
				a++
			default:
				v = out[b] + x
				b++
			}
			if v > cap {
				if a == len(out) {
					break
				}
				continue
			}
			if len(t) == 0 || t[len(t)-1] != v {
				t = append(t, v)
			}
		}
		*tmp = out
		out = t
	}
	return out
}

// dfs places every remaining item whose sections lie in [lo, hi). The
// state is at a propagation fixpoint on entry. On exhausted or aborted it
// leaves the state as it found it.
func (s *search) dfs(lo, hi int32) status {
	m := s.m
	if s.out() {
		return aborted
	}
	if invariants.Enabled {
		s.checkInvariants()
	}
	s.snapshot()

	// The scope: time sections [lo, hi) and, with cliques (never split
	// into blocks), every clique section.
	scope := [2][2]int32{{lo, hi}, {int32(m.ntime), int32(m.nsec)}}
	mark := len(s.trail)
	var fstar uint64
	for {
		fstar = math.MaxUint64
		for _, r := range scope {
			for t := r[0]; t < r[1]; t++ {
				if s.live(t) {
					fstar = min(fstar, s.ef[t])
				}
			}
		}
		if fstar == math.MaxUint64 {
			return found
		}
		// A pinned item whose offset is the lowest level goes there now
		// (window.go): nothing remaining lies below fstar.
		if s.pin != nil {
			forced, ok := s.placePinned(lo, hi, fstar)
			if !ok || (forced && !s.propagate()) {
				s.unwind(mark)
				if s.halted {
					return aborted
				}
				return exhausted
			}
			if forced {
				continue
			}
		}
		// Items that could sit at fstar but would float there (nothing
		// placed ends at fstar below them) rest, in a canonical placement,
		// on a remaining item, which sits at fstar or higher.
		lifted, ok := s.liftFloating(lo, hi, fstar)
		if !ok || (lifted && !s.propagate()) {
			s.unwind(mark)
			if s.halted {
				return aborted
			}
			return exhausted
		}
		if !lifted {
			break
		}
	}

	// Independent blocks: live sections separated by dead ones.
	if st, split := s.blocks(lo, hi); split {
		if st != found {
			s.unwind(mark)
		}
		return st
	}

	// Level fstar: every tight section at fstar needs an item exactly at
	// fstar, and items at one offset do not overlap in time.
	if !s.coverable(lo, hi, fstar) {
		s.need = min(s.need, satAdd(s.c, 1))
		s.unwind(mark)
		return exhausted
	}

	// A tight section at fstar (no slack) has a member exactly at fstar:
	// branch on which one, in the section with the fewest candidates (fail
	// first). Without a tight section, branch on the next item of the
	// canonical order instead.
	best, bestN := int32(-1), int32(math.MaxInt32)
	for _, r := range scope {
		for t := r[0]; t < r[1]; t++ {
			if !s.live(t) || s.ef[t] != fstar || s.ef[t]+s.rem[t] != s.c {
				continue
			}
			n := int32(0)
			for _, j := range m.members(int(t)) {
				if !s.placed[j] && s.lo[j] == fstar {
					n++
				}
			}
			if n < bestN {
				best, bestN = t, n
			}
		}
	}
	var st status
	if best >= 0 {
		st = s.branchPoint(lo, hi, best, fstar)
	} else {
		// Prefer the candidates of the section at fstar with the fewest
		// (as if covering it first), the others later.
		for _, r := range scope {
			for t := r[0]; t < r[1]; t++ {
				if !s.live(t) || s.ef[t] != fstar {
					continue
				}
				n := int32(0)
				for _, j := range m.members(int(t)) {
					if !s.placed[j] && s.lo[j] == fstar {
						n++
					}
				}
				if n < bestN {
					best, bestN = t, n
				}
			}
		}
		if s.skyline {
			st = s.branchLevel(lo, hi, best, fstar)
		} else {
			st = s.branchNext(lo, hi, best)
		}
	}
	if st != found {
		s.unwind(mark)
	}
	return st
}

// branchPoint branches on which member of tight section t lies at f.
func (s *search) branchPoint(lo, hi, t int32, f uint64) status {
	m := s.m
	base := len(s.cands) // this node's candidates; deeper nodes append
	for _, j := range m.members(int(t)) {
		if !s.placed[j] && s.lo[j] == f {
			s.cands = append(s.cands, j)
		}
	}
	if len(s.cands)-base > 1 {
		s.orderCands(s.cands[base:])
	}
	defer func() { s.cands = s.cands[:base] }()
	mark := len(s.trail)
	for k := base; k < len(s.cands); k++ {
		j := s.cands[k]
		if s.out() {
			return aborted
		}
		s.nodes++ // a node is a child tried, whether or not it survives propagation
		st := exhausted
		if s.place(j, f) && s.propagate() {
			st = s.dfs(lo, hi)
		}
		if st == exhausted && s.halted {
			st = aborted
		}
		if st != exhausted {
			return st
		}
		s.unwind(mark)
	}
	return exhausted
}

// branchLevel branches on what lies at level f in section t (any live
// section whose ef is f): one of its members whose lo is f, or none of
// them; in the last child every such member rests on a remaining item,
// so lies at least the smallest remaining interfering size above f.
func (s *search) branchLevel(lo, hi, t int32, f uint64) status {
	m := s.m
	base := len(s.cands)
	for _, j := range m.members(int(t)) {
		if !s.placed[j] && s.lo[j] == f {
			s.cands = append(s.cands, j)
		}
	}
	if len(s.cands)-base > 1 {
		if t < int32(m.ntime) {
			s.orderByFit(s.cands[base:], t, f)
		} else {
			s.orderCands(s.cands[base:])
		}
	}
	defer func() { s.cands = s.cands[:base] }()
	mark := len(s.trail)
	for k := base; k <= len(s.cands); k++ {
		if s.out() {
			return aborted
		}
		s.nodes++
		st := exhausted
		if k < len(s.cands) {
			if s.place(s.cands[k], f) && s.propagate() {
				st = s.dfs(lo, hi)
			}
		} else if s.liftAll(s.cands[base:], f) && s.propagate() {
			st = s.dfs(lo, hi)
		}
		if st == exhausted && s.halted {
			st = aborted
		}
		if st != exhausted {
			return st
		}
		s.unwind(mark)
	}
	return exhausted
}

// orderByFit orders the candidates for level f of time section t: those
// that fill the run of sections at level f to an end first (a boundary
// shared with a neighbour), then those whose top meets a neighbouring
// floor, then by rank.
func (s *search) orderByFit(cands []int32, t int32, f uint64) {
	m := s.m
	a, b := t, t+1 // the run at level f around t: [a, b)
	for a > 0 && s.live(a-1) && s.ef[a-1] == f {
		a--
	}
	for int(b) < m.ntime && s.live(b) && s.ef[b] == f {
		b++
	}
	var left, right uint64 = math.MaxUint64, math.MaxUint64
	if a > 0 {
		left = s.ef[a-1]
	}
	if int(b) < m.ntime {
		right = s.ef[b]
	}
	score := func(j int32) int {
		sc := 0
		if m.sa[j] == a {
			sc += 2
			if f+m.size[j] == left {
				sc++
			}
		}
		if m.sb[j] == b {
			sc += 2
			if f+m.size[j] == right {
				sc++
			}
		}
		return sc
	}
	sort.Slice(cands, func(x, y int) bool {
		sx, sy := score(cands[x]), score(cands[y])
		if sx != sy {
			return sx > sy
		}
		return s.rank[cands[x]] < s.rank[cands[y]]
	})
}

// liftAll records that none of cands (remaining, lo == f) lies at f.
func (s *search) liftAll(cands []int32, f uint64) bool {
	for _, k := range cands {
		below := s.minInterfering(k)
		if below == math.MaxUint64 || !s.setLo(k, satAdd(f, below)) {
			return s.fail(satAdd(s.c, 1))
		}
	}
	return true
}

// branchNext branches on the next item of the canonical order: the
// remaining item with the lowest offset (ties: the lowest index). It sits
// where it rests (lo == sup), below every other item's top (else that one
// could drop below it), and every other item lies at or above it.
func (s *search) branchNext(lo, hi, first int32) status {
	m := s.m
	ilo, ihi := int32(0), int32(len(m.size))
	if m.nsec == m.ntime {
		ilo, ihi = s.firstItem[lo], s.firstItem[hi]
	}
	top := uint64(math.MaxUint64)
	for k := ilo; k < ihi; k++ {
		if !s.placed[k] {
			top = min(top, satAdd(s.lo[k], m.size[k]))
		}
	}
	base := len(s.cands)
	for j := ilo; j < ihi; j++ {
		if !s.placed[j] && (s.lo[j] == s.sup[j] || (s.pin != nil && s.pin[j])) && s.lo[j] < top {
			s.cands = append(s.cands, j)
		}
	}
	cands := s.cands[base:]
	in := func(j int32) bool { // is j a member of section first?
		if first < int32(m.ntime) {
			return m.sa[j] <= first && first < m.sb[j]
		}
		for _, t := range m.extra(j) {
			if t == first {
				return true
			}
		}
		return false
	}
	sort.Slice(cands, func(a, b int) bool {
		x, y := cands[a], cands[b]
		if s.lo[x] != s.lo[y] {
			return s.lo[x] < s.lo[y]
		}
		if ix, iy := in(x), in(y); ix != iy {
			return ix
		}
		return s.rank[x] < s.rank[y]
	})
	defer func() { s.cands = s.cands[:base] }()
	mark := len(s.trail)
	for k := base; k < len(s.cands); k++ {
		j := s.cands[k]
		if s.out() {
			return aborted
		}
		s.nodes++
		w := s.lo[j]
		st := exhausted
		if s.watermark(ilo, ihi, j, w) && s.place(j, w) && s.propagate() {
			st = s.dfs(lo, hi)
		}
		if st == exhausted && s.halted {
			st = aborted
		}
		if st != exhausted {
			return st
		}
		s.unwind(mark)
	}
	return exhausted
}

// watermark records that j is the next item, at w: every other remaining
// item lies at w or above, and those of lower index strictly above, so
// resting on a remaining item.
func (s *search) watermark(ilo, ihi, j int32, w uint64) bool {
	for k := ilo; k < ihi; k++ {
		if s.placed[k] || k == j {
			continue
		}
		if s.lo[k] < w && !s.setLo(k, w) {
			return s.fail(satAdd(s.c, 1))
		}
		if k < j && s.lo[k] == w {
			below := s.minInterfering(k)
			if below == math.MaxUint64 || !s.setLo(k, satAdd(w, below)) {
				return s.fail(satAdd(s.c, 1))
			}
		}
	}
	return true
}

// orderCands sorts candidates by rank.
func (s *search) orderCands(cands []int32) {
	sort.Slice(cands, func(a, b int) bool { return s.rank[cands[a]] < s.rank[cands[b]] })
}

// liftFloating raises lo of every remaining item of the scope that could
// sit at f but has no support there (sup < f): it will rest on a
// remaining interfering item, which sits at f or higher. It reports
// whether it raised any, and false on a contradiction.
func (s *search) liftFloating(lo, hi int32, f uint64) (lifted, ok bool) {
	m := s.m
	ilo, ihi := int32(0), int32(len(m.size))
	if m.nsec == m.ntime {
		ilo, ihi = s.firstItem[lo], s.firstItem[hi]
	}
	for j := ilo; j < ihi; j++ {
		if s.placed[j] || s.lo[j] != f || s.sup[j] >= f || (s.pin != nil && s.pin[j]) {
			continue
		}
		below := s.minInterfering(j)
		if below == math.MaxUint64 || !s.setLo(j, satAdd(f, below)) {
			return lifted, s.fail(satAdd(s.c, 1))
		}
		lifted = true
	}
	return lifted, true
}

// minInterfering returns the smallest size of a remaining item that
// interferes with j, or MaxUint64.
func (s *search) minInterfering(j int32) uint64 {
	m := s.m
	below := uint64(math.MaxUint64)
	// In each section the first remaining member in order of size is
	// the smallest there.
	smallest := func(u int32) {
		for _, k := range m.membersBySize(int(u)) {
			if m.size[k] >= below {
				return
			}
			if k != j && !s.placed[k] {
				below = m.size[k]
				return
			}
		}
	}
	for u := m.sa[j]; u < m.sb[j]; u++ {
		smallest(u)
	}
	for _, u := range m.extra(j) {
		smallest(u)
	}
	for _, k := range m.neighbours(int(j)) {
		if !s.placed[k] {
			below = min(below, m.size[k])
		}
	}
	return below
}

// coverable reports whether the tight sections at level f (those whose
// slack is zero) can be covered by pairwise time-disjoint candidates at f.
func (s *search) coverable(lo, hi int32, f uint64) bool {
	m := s.m
	tight := func(t int32) bool { return s.live(t) && s.ef[t] == f && s.ef[t]+s.rem[t] == s.c }
	any := false
	for t := lo; t < hi && !any; t++ {
		any = tight(t)
	}
	if !any {
		return true
	}
	for t := lo; t <= hi; t++ {
		s.reach[t] = false
	}
	s.reach[lo] = true
	i := s.firstItem[lo]
	ihi := s.firstItem[hi]
	for t := lo; t < hi; t++ {
		if !s.reach[t] {
			for i < ihi && m.sa[i] == t {
				i++
			}
			continue
		}
		if !tight(t) {
			s.reach[t+1] = true
		}
		for ; i < ihi && m.sa[i] == t; i++ {
			if !s.placed[i] && s.lo[i] == f {
				s.reach[m.sb[i]] = true
			}
		}
	}
	return s.reach[hi]
}

// blocks splits the live sections of [lo, hi) into maximal runs separated
// by dead sections. When there are several and no extra interference
// crosses between them, it solves them one after another (a failure in one
// fails the node: the others cannot help) and reports split = true.
func (s *search) blocks(lo, hi int32) (status, bool) {
	m := s.m
	type block struct {
		lo, hi int32
		slack  uint64
	}
	var bs []block
	for t := lo; t < hi; {
		if !s.live(t) {
			t++
			continue
		}
		b := block{lo: t, slack: math.MaxUint64}
		for t < hi && s.live(t) {
			b.slack = min(b.slack, s.c-s.ef[t]-s.rem[t])
			t++
		}
		b.hi = t
		bs = append(bs, b)
	}
	if len(bs) < 2 || m.nsec > m.ntime {
		return found, false
	}
	if len(m.nbr) > 0 {
		for _, b := range bs {
			for i := s.firstItem[b.lo]; i < s.firstItem[b.hi]; i++ {
				if s.placed[i] {
					continue
				}
				for _, k := range m.neighbours(int(i)) {
					if !s.placed[k] && (m.sa[k] < b.lo || m.sa[k] >= b.hi) {
						return found, false
					}
				}
			}
		}
	}
	// Tightest block first: it is the likeliest to fail.
	sort.SliceStable(bs, func(a, b int) bool { return bs[a].slack < bs[b].slack })
	mark := len(s.trail)
	for _, b := range bs {
		if st := s.dfs(b.lo, b.hi); st != found {
			s.unwind(mark)
			return st, true
		}
	}
	return found, true
}

// place puts item j at offset f, the level of the lowest point, and
// schedules the affected sections.
func (s *search) place(j int32, f uint64) bool {
	m := s.m
	end := f + m.size[j]
	s.placed[j] = true
	s.nplaced++
	s.off[j] = f
	s.trail = append(s.trail, undo{undoPlace, j, 0})
	for t := m.sa[j]; t < m.sb[j]; t++ {
		s.cover(t, j, end)
	}
	for _, t := range m.extra(j) {
		s.cover(t, j, end)
	}
	for t := m.sa[j]; t < m.sb[j]; t++ {
		for _, k := range m.members(int(t)) {
			if !s.rest(k, end) {
				return s.fail(satAdd(s.c, 1))
			}
		}
	}
	for _, t := range m.extra(j) {
		for _, k := range m.members(int(t)) {
			if !s.rest(k, end) {
				return s.fail(satAdd(s.c, 1))
			}
		}
	}
	for _, k := range m.neighbours(int(j)) {
		if !s.rest(k, end) {
			return s.fail(satAdd(s.c, 1))
		}
	}
	return true
}

// rest records that an item interfering with k now ends at end.
func (s *search) rest(k int32, end uint64) bool {
	if s.placed[k] {
		return true
	}
	if a := alignUp(end, s.m.align[k]); s.sup[k] < a {
		s.trail = append(s.trail, undo{undoSup, k, s.sup[k]})
		s.sup[k] = a
	}
	return s.lo[k] >= end || s.setLo(k, end)
}

// cover records that item j, just placed, ends at end in section t.
func (s *search) cover(t, j int32, end uint64) {
	s.trail = append(s.trail, undo{undoFloor, t, s.floor[t]})
	s.floor[t] = end
	s.rem[t] -= s.m.size[j]
	s.cnt[t]--
	s.enqueue(t)
}

func (s *search) unwind(mark int) {
	m := s.m
	for k := len(s.trail) - 1; k >= mark; k-- {
		u := s.trail[k]
		switch u.kind {
		case undoFloor:
			s.floor[u.idx] = u.old
		case undoLo:
			s.lo[u.idx] = u.old
		case undoHi:
			s.hi[u.idx] = u.old
		case undoEf:
			s.ef[u.idx] = u.old
		case undoSup:
			s.sup[u.idx] = u.old
		case undoPlace:
			j := u.idx
			s.placed[j] = false
			s.nplaced--
			for t := m.sa[j]; t < m.sb[j]; t++ {
				s.rem[t] += m.size[j]
				s.cnt[t]++
			}
			for _, t := range m.extra(j) {
				s.rem[t] += m.size[j]
				s.cnt[t]++
			}
		}
	}
	s.trail = s.trail[:mark]
}

// alignDown rounds x down to a multiple of the power of two a.
func alignDown(x, a uint64) uint64 { return x &^ (a - 1) }

// checkWork is the propagation work between two clock readings: well
// under a millisecond.
const checkWork = 1 << 14

// maxExact caps the candidates of an exact best fill: 2^(maxExact/2)
// subset sums a side.
const maxExact = 18

// maxExactPinned is maxExact in a window re-solve (window.go), whose
// sections hold many fixed members and so many gaps.
const maxExactPinned = 10
