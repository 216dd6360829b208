package planner

import (
	"fmt"
	"math/bits"
	"sort"
)

// BudgetError reports a budget that no plan found fits: even the
// execution order, which lets every pair with disjoint execution windows
// share bytes, needs Reachable pooled bytes.
type BudgetError struct {
	Budget uint64
	// Reachable is the smallest pooled size found (the smaller of the
	// DAG-order and execution-order plans).
	Reachable uint64
	// ExecutionBound is the execution-order lower bound: no plan of this
	// execution order can pool fewer bytes.
	ExecutionBound uint64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("planner: budget of %d bytes cannot be met: the smallest pooled size reachable is %d bytes (with --order execution; its lower bound is %d bytes)",
		e.Budget, e.Reachable, e.ExecutionBound)
}

// candidate is a pair of one group's items that the DAG makes interfere
// but whose execution windows are disjoint (i's before j's): a possible
// serialization.
type candidate struct {
	group int32
	i, j  int32
	bytes uint64 // the most it can save: the smaller size
	cost  int64  // command pairs its dependency alone orders (overlapCost)
}

// fitBudget chooses the groups' solutions under OrderBudget: the DAG plan
// when it fits; otherwise the shortest prefix of the candidate pairs,
// ranked by bytes per lost overlap, whose release lets the strategy fit
// the budget (binary search over the prefix length; the strategy, or
// Options.BudgetPilot when set, is run once per group per probe whose
// release set changed for that group), then one run of the strategy that
// releases only the pairs the search's solutions use (with a pilot, when
// that does not fit, the strategy places longer prefixes until one does).
// A released pair that ends up sharing bytes is a serialization.
//
// Ranking: a candidate (i, j) may save at most min(size i, size j) bytes,
// and it costs the command pairs the DAG leaves unordered that the
// dependency from i's last use to j's first use orders (OrderedPairs for
// that one dependency). Candidates are ranked by bytes/(1 + cost),
// descending, ties by bytes, then group and items.
func fitBudget(c *Compiled, p *Plan, og []orderedGroup, opts Options) error {
	budget := opts.Budget
	dagSol := make([]*Solution, len(og))
	var dagTotal uint64
	for k := range og {
		dagSol[k] = og[k].dagSol
		dagTotal = satAdd(dagTotal, dagSol[k].Peak())
	}
	if dagTotal <= budget {
		for k := range og {
			og[k].sol = dagSol[k]
		}
		return nil
	}
	execSol := make([]*Solution, len(og))
	var execTotal uint64
	for k := range og {
		sol, err := og[k].solve(c, og[k].interval, opts.Strategy)
		if err != nil {
			return err
		}
		execSol[k] = sol
		execTotal = satAdd(execTotal, sol.Peak())
	}
	if execTotal > budget {
		return &BudgetError{Budget: budget, Reachable: min(execTotal, dagTotal), ExecutionBound: p.Stats.ExecutionBound}
	}

	cands := budgetCandidates(c, p, og)
	// per group, the candidate indexes in rank order
	byGroup := make([][]int32, len(og))
	for x := range cands {
		g := cands[x].group
		byGroup[g] = append(byGroup[g], int32(x))
	}
	// released[g] is how many of group g's candidates a prefix of length
	// k releases.
	releasedIn := func(k int) []int {
		cnt := make([]int, len(og))
		for _, cd := range cands[:k] {
			cnt[cd.group]++
		}
		return cnt
	}
	solveWith := func(g int, pairs []int32, s Strategy) (*Solution, error) {
		o := &og[g]
		m := &bitMatrix{words: o.dag.words, bits: append([]uint64(nil), o.dag.bits...)}
		for _, x := range pairs {
			cd := &cands[x]
			m.bits[int(cd.i)*m.words+int(cd.j)>>6] &^= 1 << (uint(cd.j) & 63)
			m.bits[int(cd.j)*m.words+int(cd.i)>>6] &^= 1 << (uint(cd.i) & 63)
		}
		prob, err := NewGraphProblem(o.items, opts.MaxPoolSize, m.test)
		if err != nil {
			return nil, &PlacementError{Detail: "building the placement problem", Err: err}
		}
		return o.solve(c, prob, s)
	}
	// probe returns the solutions strategy s finds for a prefix of length
	// k, and their total; memo keeps them per group and released count.
	probe := func(k int, s Strategy, memo []map[int]*Solution) ([]*Solution, uint64, error) {
		cnt := releasedIn(k)
		sols := make([]*Solution, len(og))
		var total uint64
		for g := range og {
			switch {
			case cnt[g] == 0:
				sols[g] = dagSol[g]
			default:
				if memo[g] == nil {
					memo[g] = map[int]*Solution{}
				}
				sol, ok := memo[g][cnt[g]]
				if !ok {
					var err error
					if sol, err = solveWith(g, byGroup[g][:cnt[g]], s); err != nil {
						return nil, 0, err
					}
					if cnt[g] == len(byGroup[g]) && execSol[g].Peak() < sol.Peak() {
						// Every candidate released: the execution-order
						// solution is valid too.
						sol = execSol[g]
					}
					memo[g][cnt[g]] = sol
				}
				sols[g] = sol
			}
			total = satAdd(total, sols[g].Peak())
		}
		return sols, total, nil
	}
	// The search probes with the pilot strategy (a fast one, when the
	// chosen strategy is slow), then the chosen strategy places the prefix
	// found, releasing more while it does not fit.
	pilot := opts.Strategy
	if opts.BudgetPilot != nil {
		pilot = opts.BudgetPilot
	}
	pilotMemo := make([]map[int]*Solution, len(og))
	lo, hi := 0, len(cands) // prefix lo does not fit; prefix hi does
	best, bestTotal, err := probe(hi, pilot, pilotMemo)
	if err != nil {
		return err
	}
	if bestTotal > budget {
		// The graph problems with every candidate released were solved no
		// better than the interval problems, which fit.
		best = execSol
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		sols, total, err := probe(mid, pilot, pilotMemo)
		if err != nil {
			return err
		}
		if total <= budget {
			hi, best = mid, sols
		} else {
			lo = mid
		}
	}
	// Place again, with the chosen strategy, releasing only the pairs the
	// search's solutions use: fewer pairs to spend, and one run per group.
	var trimmed []*Solution
	var trimmedTotal uint64
	for g := range og {
		used := usedCandidates(og[g].items, best[g], byGroup[g], cands)
		sol := dagSol[g]
		if len(used) > 0 {
			if sol, err = solveWith(g, used, opts.Strategy); err != nil {
				return err
			}
		}
		trimmed = append(trimmed, sol)
		trimmedTotal = satAdd(trimmedTotal, sol.Peak())
	}
	switch {
	case trimmedTotal <= budget && (opts.BudgetPilot != nil || countShared(og, trimmed) < countShared(og, best)):
		best = trimmed
	case trimmedTotal > budget && opts.BudgetPilot != nil:
		// The chosen strategy did worse than the pilot: release more
		// until it fits (all released, the interval solutions do).
		finalMemo := make([]map[int]*Solution, len(og))
		for {
			sols, total, err := probe(hi, opts.Strategy, finalMemo)
			if err != nil {
				return err
			}
			if total <= budget {
				best = sols
				break
			}
			if hi == len(cands) {
				best = execSol
				break
			}
			hi = min(len(cands), 2*hi+1)
		}
	}
	for k := range og {
		og[k].sol = best[k]
	}
	return nil
}

// usedCandidates returns the candidates of one group (indexes into cands)
// whose two items share bytes in sol.
func usedCandidates(items []Item, sol *Solution, group []int32, cands []candidate) []int32 {
	var out []int32
	for _, x := range group {
		cd := &cands[x]
		if shareBytes(items, sol, int(cd.i), int(cd.j)) {
			out = append(out, x)
		}
	}
	return out
}

func shareBytes(items []Item, sol *Solution, i, j int) bool {
	return sol.Pool[i] == sol.Pool[j] && sol.Offset[i] < sol.Offset[j]+items[j].Size && sol.Offset[j] < sol.Offset[i]+items[i].Size
}

// countShared counts the pairs of items that share bytes although the DAG
// makes them interfere: the serializations.
func countShared(og []orderedGroup, sols []*Solution) int {
	n := 0
	for g := range og {
		o := &og[g]
		for i := range o.items {
			for j := i + 1; j < len(o.items); j++ {
				if o.dag.test(i, j) && shareBytes(o.items, sols[g], i, j) {
					n++
				}
			}
		}
	}
	return n
}

// budgetCandidates lists every group's candidate pairs, ranked.
func budgetCandidates(c *Compiled, p *Plan, og []orderedGroup) []candidate {
	var cands []candidate
	for g := range og {
		o := &og[g]
		for i := range o.items {
			for j := range o.items {
				if i != j && o.items[i].End <= o.items[j].Start && o.dag.test(i, j) {
					cands = append(cands, candidate{group: int32(g), i: int32(i), j: int32(j),
						bytes: min(o.items[i].Size, o.items[j].Size)})
				}
			}
		}
	}
	overlapCosts(c, p, og, cands)
	sort.Slice(cands, func(a, b int) bool {
		x, y := &cands[a], &cands[b]
		// x.bytes/(1+x.cost) > y.bytes/(1+y.cost), in 128 bits.
		xh, xl := bits.Mul64(x.bytes, uint64(1+y.cost))
		yh, yl := bits.Mul64(y.bytes, uint64(1+x.cost))
		if xh != yh {
			return xh > yh
		}
		if xl != yl {
			return xl > yl
		}
		if x.bytes != y.bytes {
			return x.bytes > y.bytes
		}
		if x.group != y.group {
			return x.group < y.group
		}
		if x.i != y.i {
			return x.i < y.i
		}
		return x.j < y.j
	})
	return cands
}

// overlapCosts sets each candidate's cost: the command pairs (x, y) with x
// at or before Last and y at or after Next in happens-before that the DAG
// leaves unordered, Last being i's last use and Next j's first use. With
// A the ancestors of Last and Last itself, it is the sum over y in Next
// and its descendants of |A \ ancestors(y)|; that count is computed once
// per distinct Last for every y (O(V²/64)), then summed per candidate.
func overlapCosts(c *Compiled, p *Plan, og []orderedGroup, cands []candidate) {
	n := len(c.Graph.Commands)
	words := (n + 63) / 64
	anc := make([]uint64, n*words) // anc row y: the commands that happen-before y
	for a := range n {
		row, base := c.reach.row(CommandID(a))
		for k, x := range row {
			for w := base + k; x != 0; x &= x - 1 {
				b := w<<6 + bits.TrailingZeros64(x)
				anc[b*words+a>>6] |= 1 << (uint(a) & 63)
			}
		}
	}
	type ref struct {
		last, next CommandID
		x          int
	}
	refs := make([]ref, len(cands))
	for x := range cands {
		cd := &cands[x]
		o := &og[cd.group]
		refs[x] = ref{last: p.Order[o.items[cd.i].End-1], next: p.Order[o.items[cd.j].Start], x: x}
	}
	sort.Slice(refs, func(a, b int) bool {
		if refs[a].last != refs[b].last {
			return refs[a].last < refs[b].last
		}
		return refs[a].next < refs[b].next
	})
	cnt := make([]int64, n)
	A := make([]uint64, words)
	for k := 0; k < len(refs); {
		last := refs[k].last
		copy(A, anc[int(last)*words:(int(last)+1)*words])
		A[last>>6] |= 1 << (uint(last) & 63)
		size := 0
		for _, x := range A {
			size += bits.OnesCount64(x)
		}
		for y := range n {
			in := 0
			for w, x := range anc[y*words : (y+1)*words] {
				in += bits.OnesCount64(A[w] & x)
			}
			cnt[y] = int64(size - in)
		}
		for ; k < len(refs) && refs[k].last == last; k++ {
			next := refs[k].next
			if k > 0 && refs[k-1].last == last && refs[k-1].next == next {
				cands[refs[k].x].cost = cands[refs[k-1].x].cost
				continue
			}
			sum := cnt[next]
			row, base := c.reach.row(next)
			for k, x := range row {
				for w := base + k; x != 0; x &= x - 1 {
					sum += cnt[w<<6+bits.TrailingZeros64(x)]
				}
			}
			cands[refs[k].x].cost = sum
		}
	}
}

func satAdd(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}
