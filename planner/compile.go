package planner

import (
	"fmt"
	"github.com/aliasplan/aliasplan/internal/invariants"
	"github.com/aliasplan/aliasplan/vk"
	"math/bits"
	"slices"
)

// Use is one command's aggregated access to one resource: the stages and
// access flags of all its accesses to that resource in the command, OR-ed.
type Use struct {
	Command CommandID
	Stages  vk.Stage
	Access  vk.AccessFlags
	// Layout is the layout the command needs (images only); PrevLayout is
	// the layout before it: the previous use's, or the initial layout.
	// Where accesses of the image name subresource ranges, they are those
	// of the use's first subresource, and Modifies is set when it modifies
	// any of them.
	Layout, PrevLayout vk.Layout
	// Modifies is set when the use writes the resource: a write access flag,
	// or an image layout transition.
	Modifies bool
	// Implied is set when no access of the command names the resource:
	// the use is a read through an acceleration structure (asrefs.go).
	Implied bool
	// Transition is, for a read that shares one layout transition with
	// other reads (SPEC §2), the index in Uses of the read that makes the
	// transition in recorded order (its own index for that read); -1 for
	// every other use. Readers sharing a transition get no DAG edge among
	// themselves: each depends on the transition's predecessors.
	Transition int32
}

// UseRef names the use of Resource at index Index in Compiled.Uses(Resource).
type UseRef struct {
	Resource ResourceID
	Index    int32
}

// Lifetime is the batch range [First, Last] of a resource's uses. It is for
// reporting only: batches never prove ordering.
type Lifetime struct {
	First, Last int32
}

// Compiled is the analysed graph: aggregated uses, the dependency DAG, its
// batches, the happens-before closure, initial and terminal uses and
// interference. It is immutable after Compile and safe for concurrent
// reads. Slices returned by its methods alias its storage: do not modify.
type Compiled struct {
	Graph *Graph

	uses     []Use   // all uses, grouped by resource, recorded order within a group
	useStart []int32 // uses of r: uses[useStart[r]:useStart[r+1]]

	cmdUses  []UseRef // all uses grouped by command, in access order of first appearance
	cmdStart []int32

	succ      []CommandID // DAG successors of c: succ[succStart[c]:succStart[c+1]], ascending
	succStart []int32
	pred      []CommandID
	predStart []int32

	batch   []int32 // Kahn level per command
	batches int

	// reach is the happens-before closure, upper triangle only: row a
	// holds the closure's words a>>6 onwards (reach.store[reach.start[a]:
	// reach.start[a+1]]); the words below are zero, edges pointing
	// forward. V²/128 bytes instead of V²/64: 225 MB at 60,000 commands.
	reach closureRows

	initial   []CommandID // per resource, grouped like useStart with initStart
	initStart []int32
	terminal  []CommandID // per resource, the SPEC's terminal uses: no conflicting use after them
	termStart []int32
	last      []CommandID // per resource, the maximal terminal uses (Before needs only these)
	lastStart []int32

	asRefs map[ResourceID][]ResourceID // acceleration structures' references at the end of the frame (asrefs.go)

	ranged []*ranged // per resource: its per-subresource analysis (subresource.go); nil when no access names a partial range
}

// Compile validates g and analyses it. It does no I/O and needs no device.
// The returned value retains g; g must not change while it is in use.
//
// Cost: O(A + V·E/64) time for A accesses, V commands and E stored DAG
// edges (the closure), O(A + V²/64) memory.
func Compile(g *Graph) (*Compiled, error) {
	if err := Validate(g); err != nil {
		return nil, err
	}
	c := &Compiled{Graph: g}
	c.aggregate()
	if err := c.compileRanges(); err != nil { // subresource.go
		return nil, err
	}
	c.buildDAG()
	c.closure()
	c.endpoints()
	if err := c.checkFirstWrites(); err != nil {
		return nil, err
	}
	if invariants.Enabled {
		c.checkInvariants()
	}
	return c, nil
}

// aggregate folds each command's accesses into one Use per (command,
// resource) and lays the uses out per resource (CSR) and per command.
func (c *Compiled) aggregate() {
	g := c.Graph
	nr, nc := len(g.Resources), len(g.Commands)
	// Count distinct (command, resource) pairs: last[r] remembers the last
	// command that touched r, so repeated accesses in one command count once.
	last := make([]int32, nr)
	for i := range last {
		last[i] = -1
	}
	count := make([]int32, nr+1)
	c.cmdStart = make([]int32, nc+1)
	total := 0
	implied, refs := impliedReads(g) // asrefs.go; nil for most graphs
	c.asRefs = refs
	// accesses returns the command's declared accesses followed by its
	// implied ones, and the number declared: the two passes below share
	// one concatenation per command with implied reads.
	for ci, imp := range implied {
		if imp != nil {
			implied[ci] = slices.Concat(g.Commands[ci].Accesses, imp)
		}
	}
	accesses := func(ci int) ([]Access, int) {
		d := g.Commands[ci].Accesses
		if implied == nil || implied[ci] == nil {
			return d, len(d)
		}
		return implied[ci], len(d)
	}
	for ci := range g.Commands {
		all, _ := accesses(ci)
		for _, a := range all {
			if last[a.Resource] != int32(ci) {
				last[a.Resource] = int32(ci)
				count[a.Resource]++
				total++
			}
		}
		c.cmdStart[ci+1] = int32(total)
	}
	c.useStart = make([]int32, nr+1)
	for r := 0; r < nr; r++ {
		c.useStart[r+1] = c.useStart[r] + count[r]
	}
	c.uses = make([]Use, total)
	c.cmdUses = make([]UseRef, total)
	fill := count[:nr] // reuse as the per-resource fill cursor
	for r := range fill {
		fill[r] = 0
		last[r] = -1
	}
	// The layout before each use: starts at the declared initial layout.
	cur := make([]vk.Layout, nr)
	for r := range g.Resources {
		cur[r] = g.Resources[r].Image.InitialLayout
	}
	k := 0
	for ci := range g.Commands {
		all, declared := accesses(ci)
		for ai, a := range all {
			r := a.Resource
			if last[r] == int32(ci) {
				u := &c.uses[c.useStart[r]+fill[r]-1]
				u.Stages |= a.Stages
				u.Access |= a.Access
				continue
			}
			last[r] = int32(ci)
			idx := fill[r]
			fill[r]++
			c.uses[c.useStart[r]+idx] = Use{Command: CommandID(ci), Stages: a.Stages, Access: a.Access, Layout: a.Layout, Implied: ai >= declared}
			c.cmdUses[k] = UseRef{Resource: r, Index: idx}
			k++
		}
	}
	for r := range g.Resources {
		us := c.uses[c.useStart[r]:c.useStart[r+1]]
		isImage := g.Resources[r].Kind == KindImage
		for i := range us {
			u := &us[i]
			if isImage {
				u.PrevLayout = cur[r]
				cur[r] = u.Layout
				u.Modifies = u.Layout != u.PrevLayout
			} else {
				u.Layout, u.PrevLayout = 0, 0
			}
			if u.Access&vk.WriteAccess != 0 {
				u.Modifies = true
			}
		}
	}
}

// buildDAG stores a reachability-equivalent subset of the conflict edges:
// per resource, each use depends on the last modifying use before it, and a
// modifying use also depends on every read since that one (write after
// read). Every conflicting pair is then connected by a path.
//
// Reads sharing one layout transition (a read that changes the layout, and
// the reads in that layout after it up to the next modifying use) do not
// conflict with each other: each depends on the transition's own
// predecessors instead of on the transition. A transition with more than
// maxSharedPreds predecessors is not shared (its later readers depend on
// it), which bounds the edges this adds to maxSharedPreds per reader.
func (c *Compiled) buildDAG() {
	g := c.Graph
	nc := len(g.Commands)
	// Edges are collected as (from, to) pairs, then bucketed into CSR.
	var from, to []CommandID
	for r := range g.Resources {
		if rr := c.rangedOf(r); rr != nil { // per subresource: subresource.go
			from, to = append(from, rr.from...), append(to, rr.to...)
			continue
		}
		us := c.uses[c.useStart[r]:c.useStart[r+1]]
		lastMod := -1
		readsSince := 0                  // index of the first read after lastMod
		group, gLast, gFrom := -1, -1, 0 // the shared transition, and its predecessors: gLast and reads gFrom..group-1
		for i := range us {
			u := &us[i]
			u.Transition = -1
			// A reader on another queue than the transition never shares
			// it: the transition's barrier cannot reach that queue, so the
			// reader depends on it (a semaphore) like any later read, and
			// the group ends there (groups stay contiguous runs of uses).
			if group >= 0 && !u.Modifies && g.Commands[u.Command].Queue != g.Commands[us[group].Command].Queue {
				group = -1
			}
			if group >= 0 && !u.Modifies {
				u.Transition = int32(group)
				if gLast >= 0 {
					from = append(from, us[gLast].Command)
					to = append(to, u.Command)
				}
				for j := gFrom; j < group; j++ {
					if j != gLast {
						from = append(from, us[j].Command)
						to = append(to, u.Command)
					}
				}
				continue
			}
			if lastMod >= 0 {
				from = append(from, us[lastMod].Command)
				to = append(to, u.Command)
			}
			if u.Modifies {
				for j := readsSince; j < i; j++ {
					if j != lastMod {
						from = append(from, us[j].Command)
						to = append(to, u.Command)
					}
				}
				group = -1
				if u.Access&vk.WriteAccess == 0 && i-readsSince+1 <= maxSharedPreds {
					group, gLast, gFrom = i, lastMod, readsSince
					u.Transition = int32(i)
				}
				lastMod = i
				readsSince = i + 1
			}
		}
	}
	// Bucket by destination, then dedupe and derive successors.
	c.predStart = make([]int32, nc+1)
	for _, t := range to {
		c.predStart[t+1]++
	}
	for i := 0; i < nc; i++ {
		c.predStart[i+1] += c.predStart[i]
	}
	pred := make([]CommandID, len(to))
	cursor := make([]int32, nc)
	copy(cursor, c.predStart[:nc])
	for i, t := range to {
		pred[cursor[t]] = from[i]
		cursor[t]++
	}
	// Dedupe each bucket with a stamp array; keep ascending order.
	stamp := cursor // reuse: stamp[f] == t+1 means f already kept for t
	for i := range stamp {
		stamp[i] = 0
	}
	w := int32(0)
	outDeg := make([]int32, nc+1)
	for t := 0; t < nc; t++ {
		lo, hi := c.predStart[t], c.predStart[t+1]
		c.predStart[t] = w
		for _, f := range pred[lo:hi] {
			if stamp[f] != int32(t)+1 {
				stamp[f] = int32(t) + 1
				pred[w] = f
				w++
				outDeg[f+1]++
			}
		}
		sortCommands(pred[c.predStart[t]:w])
	}
	c.predStart[nc] = w
	c.pred = pred[:w:w]
	c.succStart = outDeg
	for i := 0; i < nc; i++ {
		c.succStart[i+1] += c.succStart[i]
	}
	c.succ = make([]CommandID, w)
	copy(cursor, c.succStart[:nc])
	for t := 0; t < nc; t++ { // t ascending keeps each successor list sorted
		for _, f := range c.pred[c.predStart[t]:c.predStart[t+1]] {
			c.succ[cursor[f]] = CommandID(t)
			cursor[f]++
		}
	}
	// Kahn levels: edges point forward in recorded order, so one pass works.
	c.batch = make([]int32, nc)
	for t := 0; t < nc; t++ {
		lvl := int32(0)
		for _, f := range c.pred[c.predStart[t]:c.predStart[t+1]] {
			lvl = max(lvl, c.batch[f]+1)
		}
		c.batch[t] = lvl
		c.batches = max(c.batches, int(lvl)+1)
	}
}

// maxSharedPreds bounds the predecessors of a layout transition that its
// readers share (see buildDAG).
const maxSharedPreds = 64

// sortCommands sorts a short slice in place (insertion sort; buckets are
// small and nearly sorted).
func sortCommands(s []CommandID) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// closureRows is the happens-before closure as one row of bits per
// command, each stored from its own word on (a row has bits above its
// command only): row a is store[start[a]:start[a+1]], word w of the
// full-width row (w ≥ a>>6) at index w − a>>6.
type closureRows struct {
	store []uint64
	start []int
}

// row returns command a's closure row from word base = a>>6 on: ws[k] is
// word base+k of the full row, whose words below base are zero.
func (r *closureRows) row(a CommandID) (ws []uint64, base int) {
	return r.store[r.start[a]:r.start[a+1]:r.start[a+1]], int(a) >> 6
}

// test reports whether b is in a's row: a happens-before b.
func (r *closureRows) test(a, b CommandID) bool {
	w := int(b)>>6 - int(a)>>6
	return w >= 0 && r.store[r.start[a]+w]&(1<<(uint(b)&63)) != 0
}

// closure builds one reachability row per command, in reverse recorded
// order: reach[a] = ∪ over successors b of ({b} ∪ reach[b]). All rows share
// one allocation. Row a only has bits above a, so it is stored from word
// a>>6 on, and the union only touches the words from a's first successor
// on.
func (c *Compiled) closure() {
	nc := len(c.Graph.Commands)
	words := (nc + 63) / 64
	start := make([]int, nc+1)
	for a := range nc {
		start[a+1] = start[a] + words - a>>6
	}
	c.reach = closureRows{store: make([]uint64, start[nc]), start: start}
	for a := nc - 1; a >= 0; a-- {
		row, ba := c.reach.row(CommandID(a))
		for _, b := range c.succ[c.succStart[a]:c.succStart[a+1]] {
			row[int(b)>>6-ba] |= 1 << (uint(b) & 63)
			other, bb := c.reach.row(b)
			dst := row[bb-ba:]
			for k, x := range other {
				dst[k] |= x
			}
		}
	}
}

// endpoints finds each resource's initial uses (no other use of it before
// them in happens-before) and terminal uses (no conflicting use after them).
//
// Only reads can be unordered with each other: every use is ordered after
// the last modifying use before it (or after that one's predecessors, for
// reads sharing its transition) and every modifying use after all earlier
// uses. So the initial uses are the first use if it modifies (with the
// reads sharing its transition), else the minimal reads of the run before
// the first modification. The terminal uses are the reads after the last
// modification, all of them (trailing reads conflict with nothing after
// them), and the last modification itself when nothing follows it or when
// it is a read whose transition the reads after it share. Before needs only
// the maximal terminal uses (every other one happens-before one of them),
// kept apart in last.
func (c *Compiled) endpoints() {
	nr := len(c.Graph.Resources)
	c.initStart = make([]int32, nr+1)
	c.termStart = make([]int32, nr+1)
	c.lastStart = make([]int32, nr+1)
	c.initial = make([]CommandID, 0, nr)
	c.terminal = make([]CommandID, 0, nr)
	c.last = make([]CommandID, 0, nr)
	var scratch []uint64 // lazily sized: only long runs of reads need it
	for r := 0; r < nr; r++ {
		us := c.uses[c.useStart[r]:c.useStart[r+1]]
		if rr := c.rangedOf(r); rr != nil { // per subresource: subresource.go
			c.initial = c.minimalUses(us, c.initial, &scratch)
			c.terminal = append(c.terminal, rr.terminal...)
			// Conservative for Before: the maximal uses of all (each use
			// is at or before one of them). Place refuses ranged graphs
			// until barriers serve ranges.
			c.last = c.maximalUses(us, c.last, &scratch)
		} else if len(us) > 0 {
			// Initial: uses before the first modification (inclusive of it when
			// it is the very first use), minus those some earlier one precedes.
			firstMod := len(us)
			for i := range us {
				if us[i].Modifies {
					firstMod = i
					break
				}
			}
			end := firstMod
			if firstMod == 0 {
				end = 1
				for end < len(us) && us[end].Transition == 0 {
					end++
				}
			}
			c.initial = c.minimalUses(us[:end], c.initial, &scratch)
			lastMod := -1
			for i := len(us) - 1; i >= 0; i-- {
				if us[i].Modifies {
					lastMod = i
					break
				}
			}
			from := lastMod
			if lastMod < 0 {
				from = 0
			} else if lastMod < len(us)-1 && us[lastMod].Transition != int32(lastMod) {
				from = lastMod + 1
			}
			for _, u := range us[from:] {
				c.terminal = append(c.terminal, u.Command)
			}
			c.last = c.maximalUses(us[from:], c.last, &scratch)
		}
		c.initStart[r+1] = int32(len(c.initial))
		c.termStart[r+1] = int32(len(c.terminal))
		c.lastStart[r+1] = int32(len(c.last))
	}
}

// shortRun is the run length up to which pairwise happens-before checks
// beat word-wise bitset unions.
const shortRun = 16

// minimalUses appends the commands of us that no earlier use of us
// happens-before. us is in recorded order.
func (c *Compiled) minimalUses(us []Use, dst []CommandID, scratch *[]uint64) []CommandID {
	if len(us) <= shortRun {
		for i := range us {
			minimal := true
			for j := 0; j < i && minimal; j++ {
				minimal = !c.HappensBefore(us[j].Command, us[i].Command)
			}
			if minimal {
				dst = append(dst, us[i].Command)
			}
		}
		return dst
	}
	// seen accumulates the closure rows of the uses visited so far, so each
	// test is O(1) and each step O(V/64): linear in the run, not quadratic.
	seen := c.scratchRow(scratch)
	for _, u := range us {
		if seen[u.Command>>6]&(1<<(uint(u.Command)&63)) == 0 {
			dst = append(dst, u.Command)
		}
		row, base := c.reach.row(u.Command)
		for k, x := range row {
			seen[base+k] |= x
		}
	}
	return dst
}

// maximalUses appends the commands of us that happen-before no later use of
// us. us is in recorded order.
func (c *Compiled) maximalUses(us []Use, dst []CommandID, scratch *[]uint64) []CommandID {
	if len(us) <= shortRun {
		for i := range us {
			maximal := true
			for j := i + 1; j < len(us) && maximal; j++ {
				maximal = !c.HappensBefore(us[i].Command, us[j].Command)
			}
			if maximal {
				dst = append(dst, us[i].Command)
			}
		}
		return dst
	}
	// later marks the uses after the current one; a use is maximal when its
	// closure row misses all of them.
	later := c.scratchRow(scratch)
	for _, u := range us {
		later[u.Command>>6] |= 1 << (uint(u.Command) & 63)
	}
	for _, u := range us {
		later[u.Command>>6] &^= 1 << (uint(u.Command) & 63)
		row, base := c.reach.row(u.Command)
		hit := false
		for k := 0; k < len(row) && !hit; k++ {
			hit = row[k]&later[base+k] != 0
		}
		if !hit {
			dst = append(dst, u.Command)
		}
	}
	return dst
}

// scratchRow returns a zeroed row of closure width.
func (c *Compiled) scratchRow(scratch *[]uint64) []uint64 {
	words := (len(c.Graph.Commands) + 63) / 64
	if cap(*scratch) < words {
		*scratch = make([]uint64, words)
	}
	row := (*scratch)[:words]
	clear(row)
	return row
}

// checkFirstWrites reports a transient whose first access writes nothing:
// it would read undefined memory.
func (c *Compiled) checkFirstWrites() error {
	g := c.Graph
	for r := range g.Resources {
		res := &g.Resources[r]
		if res.Imported {
			continue
		}
		us := c.Uses(ResourceID(r))
		if len(us) == 0 || us[0].Access&vk.WriteAccess != 0 {
			continue
		}
		cmd := us[0].Command
		return &GraphError{Resource: res.Name, Command: g.Commands[cmd].Name, Access: -1, Rule: RuleReadBeforeWrite,
			Detail: fmt.Sprintf("transient %s is first accessed without a write access (%s): it would read undefined memory", res.Kind, us[0].Access)}
	}
	return nil
}

// HappensBefore reports whether a path a→b exists in the dependency DAG.
// O(1), no allocation.
func (c *Compiled) HappensBefore(a, b CommandID) bool {
	return c.reach.test(a, b)
}

// Uses returns r's aggregated uses in recorded order.
func (c *Compiled) Uses(r ResourceID) []Use {
	return c.uses[c.useStart[r]:c.useStart[r+1]]
}

// CommandUses returns the uses made by command cmd, in the order the
// command first names each resource.
func (c *Compiled) CommandUses(cmd CommandID) []UseRef {
	return c.cmdUses[c.cmdStart[cmd]:c.cmdStart[cmd+1]]
}

// Use returns the use a UseRef names.
func (c *Compiled) Use(ref UseRef) Use {
	return c.uses[c.useStart[ref.Resource]+ref.Index]
}

// Successors returns the commands with a stored DAG edge from cmd, ascending.
func (c *Compiled) Successors(cmd CommandID) []CommandID {
	return c.succ[c.succStart[cmd]:c.succStart[cmd+1]]
}

// Predecessors returns the commands with a stored DAG edge to cmd, ascending.
func (c *Compiled) Predecessors(cmd CommandID) []CommandID {
	return c.pred[c.predStart[cmd]:c.predStart[cmd+1]]
}

// Batch returns cmd's Kahn level (0-based).
func (c *Compiled) Batch(cmd CommandID) int { return int(c.batch[cmd]) }

// NumBatches returns the number of Kahn levels.
func (c *Compiled) NumBatches() int { return c.batches }

// Batches returns the commands of each Kahn level, ascending within a level.
// It allocates; it is meant for reporting.
func (c *Compiled) Batches() [][]CommandID {
	out := make([][]CommandID, c.batches)
	for cmd, b := range c.batch {
		out[b] = append(out[b], CommandID(cmd))
	}
	return out
}

// Initial returns r's initial uses (commands), ascending. Every used
// transient has exactly one, unless accesses name subresource ranges:
// disjoint first writes may then be unordered.
func (c *Compiled) Initial(r ResourceID) []CommandID {
	return c.initial[c.initStart[r]:c.initStart[r+1]]
}

// Terminal returns r's terminal uses (commands), ascending: the uses with
// no conflicting use of r after them in happens-before (SPEC §2). Trailing
// reads are all terminal, even when another resource orders one before
// another: an alias barrier's source scope must cover each of them.
func (c *Compiled) Terminal(r ResourceID) []CommandID {
	return c.terminal[c.termStart[r]:c.termStart[r+1]]
}

// lastUses returns the maximal terminal uses of r: those that happen-before
// no other use of r. Every terminal use happens-before one of them (or is
// one), so ordering them orders all: Before and interference need only
// these.
func (c *Compiled) lastUses(r ResourceID) []CommandID {
	return c.last[c.lastStart[r]:c.lastStart[r+1]]
}

// Used reports whether any command accesses r.
func (c *Compiled) Used(r ResourceID) bool { return c.useStart[r+1] > c.useStart[r] }

// Lifetime returns the batch range of r's uses; ok is false when r is unused.
func (c *Compiled) Lifetime(r ResourceID) (lt Lifetime, ok bool) {
	us := c.Uses(r)
	if len(us) == 0 {
		return Lifetime{}, false
	}
	lt = Lifetime{First: c.batch[us[0].Command], Last: c.batch[us[0].Command]}
	for _, u := range us[1:] {
		lt.First = min(lt.First, c.batch[u.Command])
		lt.Last = max(lt.Last, c.batch[u.Command])
	}
	return lt, true
}

// Before reports whether every terminal use of a happens-before every
// initial use of b: b may then reuse a's memory.
func (c *Compiled) Before(a, b ResourceID) bool {
	ib := c.Initial(b)
	ta := c.lastUses(a)
	if len(ib) == 0 || len(ta) == 0 {
		return false
	}
	for _, t := range ta {
		for _, i := range ib {
			if !c.reach.test(t, i) {
				return false
			}
		}
	}
	return true
}

// Interferes reports whether a and b must not share memory: neither is
// entirely before the other. A resource interferes with itself; an unused
// resource interferes with nothing.
func (c *Compiled) Interferes(a, b ResourceID) bool {
	if !c.Used(a) || !c.Used(b) {
		return false
	}
	if a == b {
		return true
	}
	return !c.Before(a, b) && !c.Before(b, a)
}

// isPow2 reports whether x is a power of two (x > 0).
func isPow2(x uint64) bool { return x != 0 && bits.OnesCount64(x) == 1 }
