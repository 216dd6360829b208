package planner

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// LowerBound returns the largest total size of a set of pairwise interfering
// items of p: a maximum-weight clique of the interference graph. Any
// placement of p, in any number of pools, needs at least that many bytes,
// because the members of such a set must all occupy different bytes.
// Alignment padding is not counted.
//
// Interval problems: the largest total size live at one time (MaxLoad),
// O(n log n).
//
// Graph problems: for the graphs Compile produces, two items that do not
// interfere are ordered (one is entirely before the other, and it starts
// earlier), and "entirely before" is a strict partial order whose
// incomparable pairs are exactly the interfering pairs. A clique is then an
// antichain, and the bound is a maximum-weight antichain, computed exactly
// with one maximum flow (see maxAntichain). For the problems Place builds,
// the network follows the compiled DAG (beforeOrder): 2n + 2V + 2 nodes
// and about 5n + V + E arcs for V commands and E stored edges, however
// many pairs the order relates. For other graph problems it links a
// generating set of r pairs of the order: O(n²/64 + r·n/64) word
// operations (each successor row is the complement of an interference
// row) and O(n²/64) memory, then a network of 2n+2 nodes and 3n + r arcs,
// r ≤ the number of comparable pairs (about 8 per item on
// render-graph-like problems, n² on two passes ordered by one token).
// Then Dinic's algorithm.
//
// The result is never more than the true maximum clique, whatever the
// problem: when the non-interfering pairs of a graph problem are not a
// partial order compatible with Start (a problem not made by Compile), it
// is the heaviest set that is an antichain of the order those pairs
// generate, which is a clique but maybe not the heaviest. When the total
// size of all items exceeds 2⁶⁴−1 the flow runs on sizes scaled down by a
// power of two, and the result is the true total of the antichain it finds
// (within n·2^k bytes of the optimum, k = bits.Len(n)). A total that does
// not fit in a uint64 saturates to math.MaxUint64.
func LowerBound(p *Problem) uint64 {
	if p.intervals {
		return MaxLoad(p.Items)
	}
	w, _ := maxAntichain(p)
	return w
}

// MaxLoad returns the largest total size of the items live at one time, an
// item being live during its lifetime [Start, End). Items with an empty
// lifetime (End ≤ Start) are never live. The total saturates to
// math.MaxUint64. For an interval problem this is the maximum-weight clique
// (intervals that pairwise overlap share a point). O(n log n).
func MaxLoad(items []Item) uint64 {
	starts := make([]event, 0, len(items))
	ends := make([]event, 0, len(items))
	for _, it := range items {
		if it.End > it.Start {
			starts = append(starts, event{it.Start, it.Size})
			ends = append(ends, event{it.End, it.Size})
		}
	}
	sortEvents(starts) // maxload.go
	sortEvents(ends)
	// The live total is kept in 128 bits (hi, lo) so that no sum of item
	// sizes overflows before saturation at the end.
	var hi, lo, bestHi, bestLo uint64
	j := 0
	for _, s := range starts {
		// Half-open lifetimes: an item ending at s.t is no longer live.
		for ; j < len(ends) && ends[j].t <= s.t; j++ {
			var borrow uint64
			lo, borrow = bits.Sub64(lo, ends[j].size, 0)
			hi -= borrow
		}
		var carry uint64
		lo, carry = bits.Add64(lo, s.size, 0)
		hi += carry
		if hi > bestHi || hi == bestHi && lo > bestLo {
			bestHi, bestLo = hi, lo
		}
	}
	if bestHi != 0 {
		return math.MaxUint64
	}
	return bestLo
}

// maxAntichain returns the weight of a maximum-weight antichain of a graph
// problem's "entirely before" order and its items, ascending.
//
// The order. Items are ranked by (Start, End, index); i ≺ j when i and j do
// not interfere and i ranks before j. For problems from Compile this is the
// "entirely before" order (an item entirely before another starts earlier,
// and non-interfering items never share a Start); in general it is an
// acyclic orientation of the non-interfering pairs, and the network below
// models its transitive closure <.
//
// The network. Nodes s, t, and two per item: L_i and R_i. Arcs:
//
//	s → L_i   capacity w_i
//	R_i → t   capacity w_i
//	L_i → R_j ∞   for each pair (i, j) of a generating set E of <
//	R_j → L_j ∞   (pass-through)
//
// A path of ∞ arcs leads from L_i to R_k exactly when i < k: through the
// pass-through arcs, L_i → R_j → L_j → R_k chains the pairs of E.
//
// Claim: max flow = W − (maximum antichain weight), W = Σ w_i.
// A finite cut (X ∋ s) is given by A = {i : L_i ∉ X} (s → L_i cut) and
// B = {j : R_j ∈ X} (R_j → t cut), costs w(A) + w(B), and no ∞ arc leaves X.
//
//   - Every finite cut leaves an antichain: S = {x : x ∉ A, x ∉ B}. If i < k
//     were both in S, then L_i ∈ X and the ∞ path from L_i to R_k would put
//     R_k in X, so k ∈ B. Hence w(S) ≥ W − w(A) − w(B): min cut ≥ W − max
//     antichain.
//   - Every antichain S, extended to a maximal one (weights are positive, so
//     this only adds weight), gives a finite cut of cost W − w(S): each
//     x ∉ S is comparable with some s ∈ S, and is either below one (Down)
//     or above one (Up), never both (s' < x < s would order s' < s). Let
//     A = Down, B = Up, X = {s} ∪ {L_x : x ∉ Down} ∪ {R_x : x ∈ Up}. An ∞
//     arc L_i → R_j (i < j) with i ∉ Down has i ∈ S ∪ Up, so j is above an
//     element of S and j ∈ Up: R_j ∈ X. A pass-through R_j → L_j with
//     j ∈ Up has j ∉ Down: L_j ∈ X. So no ∞ arc leaves X, and the cut
//     costs w(Down) + w(Up) = W − w(S): min cut ≤ W − max antichain.
//
// So the bound is W − max flow, and the antichain is read off a minimum
// cut: the items whose L is reachable from s in the residual network and
// whose R is not.
//
// The generating set E is found with bitsets: processing i from the last
// rank down, its ≺-successors are visited in item order and j is linked
// (L_i → R_j) unless an already linked k has j among its ≺-successors
// (then L_i → R_k → L_k ⇝ R_j already exists, by induction on rank). Every
// covering pair is linked (nothing lies between its ends to cover it), so
// for a transitive order E is its transitive reduction plus the few pairs
// linked before an item below them in the order was visited: item order is
// close to rank order for the problems Place builds, and the network stays
// sparse. The successor rows are kept by item, so each is one word-wise
// complement of an interference row.
func maxAntichain(p *Problem) (uint64, []int32) {
	w, items, _ := maxAntichainUntil(p, nil)
	return w, items
}

// maxAntichainUntil is maxAntichain that gives up, reporting false, once
// stop (when not nil) reports true; it asks between rows of the
// successor rows and of linkPairs and between augmenting paths.
func maxAntichainUntil(p *Problem, stop func() bool) (uint64, []int32, bool) {
	n := len(p.Items)
	if n == 0 {
		return 0, nil, true
	}
	order := make([]int32, n) // order[r] is the item of rank r
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := &p.Items[a], &p.Items[b]
		if c := cmp.Compare(x.Start, y.Start); c != 0 {
			return c
		}
		if c := cmp.Compare(x.End, y.End); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})

	rank := make([]int32, n)
	for r, i := range order {
		rank[i] = int32(r)
	}

	// succ row r, indexed by item: bit j is set when j ranks after r and
	// j, order[r] do not interfere (j is a ≺-successor of order[r]). Each
	// row is the complement of the item's interference row within the
	// items not yet ranked: word operations, O(n²/64) in all. A problem
	// that carries its DAG (p.order) needs none of this: its network
	// follows the DAG's edges.
	words := (n + 63) / 64
	var succ []uint64
	comparable := p.order != nil
	if p.order == nil {
		succ = make([]uint64, n*words)
		later := make([]uint64, words)
		for j := 0; j < n; j++ {
			later[j>>6] |= 1 << (uint(j) & 63)
		}
		for r, i := range order {
			if r&63 == 63 && stop != nil && stop() {
				return 0, nil, false
			}
			later[i>>6] &^= 1 << (uint(i) & 63)
			row := succ[r*words : (r+1)*words]
			adj := p.Row(int(i))
			for x := range row {
				row[x] = later[x] &^ adj[x]
				comparable = comparable || row[x] != 0
			}
		}
	}

	// Weights by rank, scaled down when their total does not fit.
	w := make([]uint64, n)
	var total, overflow uint64
	for r, i := range order {
		w[r] = p.Items[i].Size
		var c uint64
		total, c = bits.Add64(total, w[r], 0)
		overflow |= c
	}
	if !comparable {
		// Every pair interferes: the whole problem is the clique.
		items := slices.Clone(order)
		slices.Sort(items)
		if overflow != 0 {
			return math.MaxUint64, items, true
		}
		return total, items, true
	}
	shift := 0
	if overflow != 0 {
		// Σ (w >> k) ≤ n·2^(64−k) < 2^64 when 2^k > n.
		shift = bits.Len(uint(n))
		for r := range w {
			w[r] >>= shift
		}
	}

	nodes, arcs := 2*n+2, 4*n
	if p.order != nil {
		nodes, arcs = nodes+2*p.order.commands(), arcs+p.order.arcs()
	}
	net := newFlowNetwork(nodes, arcs)
	const src, sink = 0, 1
	left := func(r int) int32 { return int32(2 + 2*r) }
	right := func(r int) int32 { return int32(3 + 2*r) }
	for r := 0; r < n; r++ {
		net.addArc(src, left(r), w[r])
		net.addArc(right(r), sink, w[r])
		net.addArc(right(r), left(r), infCap)
	}
	if p.order != nil {
		p.order.link(net, rank, 2+2*int32(n))
	} else if !linkPairs(net, succ, rank, words, stop) {
		return 0, nil, false
	}
	net.build()
	net.stop = stop
	if net.maxFlow(src, sink); net.stopped {
		return 0, nil, false
	}

	reach := net.residualReach(src)
	var items []int32
	var sum, hi uint64
	for r := 0; r < n; r++ {
		if reach[left(r)] && !reach[right(r)] {
			items = append(items, order[r])
			var c uint64
			sum, c = bits.Add64(sum, p.Items[order[r]].Size, 0)
			hi += c
		}
	}
	slices.Sort(items)
	// Without scaling, sum == total − flow by the cut argument.
	if hi != 0 {
		return math.MaxUint64, items, true
	}
	return sum, items, true
}

// linkPairs adds the item-to-item arcs L_r → R_q of a generating set of
// the order (see maxAntichain), from the successor rows by rank; false
// when stop (not nil) said so first.
func linkPairs(net *flowNetwork, succ []uint64, rank []int32, words int, stop func() bool) bool {
	n := len(rank)
	left := func(r int) int32 { return int32(2 + 2*r) }
	right := func(r int) int32 { return int32(3 + 2*r) }
	covered := make([]uint64, words)
	for r := n - 1; r >= 0; r-- {
		if r&63 == 0 && stop != nil && stop() {
			return false
		}
		clear(covered)
		row := succ[r*words : (r+1)*words]
		for x := range row {
			for cand := row[x] &^ covered[x]; cand != 0; cand = row[x] &^ covered[x] & cand {
				b := bits.TrailingZeros64(cand)
				q := int(rank[x<<6|b])
				cand &^= 1 << uint(b)
				net.addArc(left(r), right(q), infCap)
				other := succ[q*words : (q+1)*words]
				for y := range covered {
					covered[y] |= other[y]
				}
			}
		}
	}
	return true
}

// beforeOrder is a graph problem's "entirely before" order given by the
// compiled DAG instead of by item pairs, for the lower bound's network.
// Item i is before item j exactly when j's one initial command is in
// A_i, the commands that every terminal use of i happens-before (the
// rule Compiled.Before and groupInterference apply). A_i is closed
// upwards in the DAG, so the network reaches it through two nodes per
// command, In(c) ("c or later") and Out(c) ("strictly after c"):
//
//	In(c) → Out(c)          ∞, every command
//	Out(c) → In(d)          ∞, every stored DAG edge c → d
//	In(init_j) → R_j        ∞, every item
//	L_i → Out(t)            ∞, an item with one terminal use t: A_i = reach(t)
//	L_i → In(m)             ∞, an item with several terminal uses, for each m
//	                          of M_i, the minimal commands of A_i among the
//	                          items' initial commands
//
// so that an ∞ path leads from L_i to R_j exactly when i is before j, as
// maxAntichain's cut argument needs. Memory is O(V + E + n + Σ|M_i|): near
// the DAG's edges, whatever the number of pairs the order relates. (Two
// passes of n buffers ordered by one token relate n² pairs, all of them
// covering pairs, and take one DAG edge here.) Each m ∈ M_i is the initial
// command of items that cover i in the order (nothing lies between), so
// Σ|M_i| never exceeds the pair-linking network's arc count.
type beforeOrder struct {
	succ      []CommandID // the stored DAG: succ[succStart[c]:succStart[c+1]]
	succStart []int32
	init      []CommandID // per item: its initial command
	terminal  []CommandID // per item: its one terminal command, or -1
	links     []CommandID // items with several terminal uses: M_i = links[linkStart[i]:linkStart[i+1]]
	linkStart []int32
}

func (o *beforeOrder) commands() int { return len(o.succStart) - 1 }

// arcs is the number of arcs link adds.
func (o *beforeOrder) arcs() int { return o.commands() + len(o.succ) + 2*len(o.init) + len(o.links) }

// link adds the order's arcs to net; item nodes are by rank as in
// maxAntichain, command nodes start at base.
func (o *beforeOrder) link(net *flowNetwork, rank []int32, base int32) {
	left := func(i int) int32 { return 2 + 2*rank[i] }
	right := func(i int) int32 { return 3 + 2*rank[i] }
	in := func(c CommandID) int32 { return base + 2*int32(c) }
	out := func(c CommandID) int32 { return base + 2*int32(c) + 1 }
	for c := range o.commands() {
		net.addArc(in(CommandID(c)), out(CommandID(c)), infCap)
		for _, d := range o.succ[o.succStart[c]:o.succStart[c+1]] {
			net.addArc(out(CommandID(c)), in(d), infCap)
		}
	}
	for i, c := range o.init {
		net.addArc(in(c), right(i), infCap)
		if t := o.terminal[i]; t >= 0 {
			net.addArc(left(i), out(t), infCap)
			continue
		}
		for _, m := range o.links[o.linkStart[i]:o.linkStart[i+1]] {
			net.addArc(left(i), in(m), infCap)
		}
	}
}

// beforeOrder returns the DAG form of the order among a pool group's
// members (item i is members[i]), or nil when some member does not have
// exactly one initial use (not a transient as Compile guarantees them;
// LowerBound then links item pairs). Cost O(n + V + E) for the members
// with one terminal use; a member with several costs the intersection of
// their closure rows and one closure row union per element of M_i,
// O((T + 1 + |M_i|)·V/64) word operations.
func (c *Compiled) beforeOrder(members []ResourceID) *beforeOrder {
	nc := len(c.Graph.Commands)
	words := (nc + 63) / 64
	o := &beforeOrder{succ: c.succ, succStart: c.succStart,
		init: make([]CommandID, len(members)), terminal: make([]CommandID, len(members)),
		linkStart: make([]int32, len(members)+1)}
	inits := make([]uint64, words) // the members' initial commands
	for i, r := range members {
		in := c.Initial(r)
		if len(in) != 1 {
			return nil
		}
		o.init[i] = in[0]
		inits[in[0]>>6] |= 1 << (uint(in[0]) & 63)
	}
	var scratch, covered []uint64
	for i, r := range members {
		o.linkStart[i] = int32(len(o.links))
		ts := c.Terminal(r)
		if len(ts) == 1 {
			o.terminal[i] = ts[0]
			continue
		}
		o.terminal[i] = -1
		// M_i: walk A_i ∩ inits upwards (command order is topological);
		// a command is minimal unless an earlier pick happens-before it.
		after := c.after(r, &scratch)
		covered = c.scratchRow(&covered)
		for x := range words {
			for cand := after[x] & inits[x] &^ covered[x]; cand != 0; cand &^= covered[x] {
				b := bits.TrailingZeros64(cand)
				cand &^= 1 << uint(b)
				m := CommandID(x<<6 | b)
				o.links = append(o.links, m)
				// Edges point forward: reach(m) holds only later commands.
				row, base := c.reach.row(m)
				for y, z := range row {
					covered[base+y] |= z
				}
			}
		}
	}
	o.linkStart[len(members)] = int32(len(o.links))
	return o
}

// infCap is the capacity of an arc that is never cut. Flows stay below
// the sum of the finite capacities, which fits in a uint64.
const infCap = math.MaxUint64

// flowNetwork is a residual network in CSR form for Dinic's algorithm.
// Arcs are added as (from, to, capacity) and laid out by build; each arc
// knows its reverse.
type flowNetwork struct {
	n             int
	from, to      []int32
	capacity      []uint64
	start         []int32 // arcs of node v: adj[start[v]:start[v+1]]
	head          []int32 // CSR target per slot
	rev           []int32 // slot of the reverse arc
	residual      []uint64
	level, cursor []int32
	queue         []int32
	// stop, when not nil, is asked between augmenting paths (every 64)
	// and phases; once it reports true maxFlow returns, stopped set.
	stop    func() bool
	stopped bool
}

func newFlowNetwork(nodes, arcs int) *flowNetwork {
	return &flowNetwork{
		n:        nodes,
		from:     make([]int32, 0, arcs),
		to:       make([]int32, 0, arcs),
		capacity: make([]uint64, 0, arcs),
	}
}

func (f *flowNetwork) addArc(u, v int32, c uint64) {
	f.from = append(f.from, u)
	f.to = append(f.to, v)
	f.capacity = append(f.capacity, c)
}

// build lays every arc and its reverse (capacity 0) out per node.
func (f *flowNetwork) build() {
	f.start = make([]int32, f.n+1)
	for k := range f.from {
		f.start[f.from[k]+1]++
		f.start[f.to[k]+1]++
	}
	for v := 0; v < f.n; v++ {
		f.start[v+1] += f.start[v]
	}
	m := 2 * len(f.from)
	f.head = make([]int32, m)
	f.rev = make([]int32, m)
	f.residual = make([]uint64, m)
	fill := slices.Clone(f.start[:f.n])
	for k := range f.from {
		u, v := f.from[k], f.to[k]
		a, b := fill[u], fill[v]
		fill[u]++
		fill[v]++
		f.head[a], f.rev[a], f.residual[a] = v, b, f.capacity[k]
		f.head[b], f.rev[b], f.residual[b] = u, a, 0
	}
	f.level = make([]int32, f.n)
	f.cursor = make([]int32, f.n)
	f.queue = make([]int32, 0, f.n)
}

// maxFlow runs Dinic's algorithm: BFS levels, then a blocking flow along
// level-increasing arcs, pushed one source arc at a time (stop is asked
// every 64 of them).
func (f *flowNetwork) maxFlow(s, t int32) uint64 {
	var total uint64
	for k := 0; f.bfs(s, t); {
		copy(f.cursor, f.start[:f.n])
		for ; f.cursor[s] < f.start[s+1]; f.cursor[s]++ {
			if k++; k&63 == 0 && f.stop != nil && f.stop() {
				f.stopped = true
				return total
			}
			a := f.cursor[s]
			u := f.head[a]
			if f.residual[a] == 0 || f.level[u] != 1 {
				continue
			}
			// dfs pushes all it can from u: whatever it leaves of the
			// arc's residual, u can take no more this phase.
			if p := f.dfs(u, t, f.residual[a]); p != 0 {
				f.residual[a] -= p
				f.residual[f.rev[a]] += p
				total += p
			}
		}
	}
	return total
}

// bfs labels levels from s over arcs with residual capacity and reports
// whether t is reachable. It stops at t's level: a node at that level or
// beyond lies on no shortest path to t, and dfs never enters a node it
// left unlabelled.
func (f *flowNetwork) bfs(s, t int32) bool {
	for i := range f.level {
		f.level[i] = -1
	}
	f.level[s] = 0
	q := append(f.queue[:0], s)
	for k := 0; k < len(q); k++ {
		v := q[k]
		if lt := f.level[t]; lt >= 0 && f.level[v] >= lt-1 {
			break
		}
		for a := f.start[v]; a < f.start[v+1]; a++ {
			if u := f.head[a]; f.residual[a] != 0 && f.level[u] < 0 {
				f.level[u] = f.level[v] + 1
				q = append(q, u)
			}
		}
	}
	f.queue = q
	return f.level[t] >= 0
}

// dfs pushes up to limit units from v to t along the level graph, through
// as many arcs as it takes, and returns the amount pushed. A node that
// can push nothing more is cut from the level graph (level −1), so no
// later path of the phase tries it again. The recursion depth is at most
// the level of t (≤ the number of nodes).
func (f *flowNetwork) dfs(v, t int32, limit uint64) uint64 {
	if v == t {
		return limit
	}
	var pushed uint64
	for ; f.cursor[v] < f.start[v+1]; f.cursor[v]++ {
		a := f.cursor[v]
		u := f.head[a]
		if f.residual[a] == 0 || f.level[u] != f.level[v]+1 {
			continue
		}
		if p := f.dfs(u, t, min(limit-pushed, f.residual[a])); p != 0 {
			f.residual[a] -= p
			f.residual[f.rev[a]] += p
			if pushed += p; pushed == limit {
				return pushed
			}
		}
	}
	f.level[v] = -1
	return pushed
}

// residualReach marks the nodes reachable from s over arcs with residual
// capacity: the source side of a minimum cut once the flow is maximum.
func (f *flowNetwork) residualReach(s int32) []bool {
	seen := make([]bool, f.n)
	seen[s] = true
	q := append(f.queue[:0], s)
	for k := 0; k < len(q); k++ {
		v := q[k]
		for a := f.start[v]; a < f.start[v+1]; a++ {
			if u := f.head[a]; f.residual[a] != 0 && !seen[u] {
				seen[u] = true
				q = append(q, u)
			}
		}
	}
	return seen
}
