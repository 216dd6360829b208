package exact

import (
	"math/rand/v2"
	"sort"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// shaker improves a graph component's incumbent by randomized first fit:
// items in order of size with multiplicative noise, each at the lowest
// aligned offset free of its placed neighbours. On dense render graphs,
// where few pairs may share memory, this finds better placements than the
// canonical search does in the same time.
type shaker struct {
	m      *model
	adj    [][]int32 // every interfering item, model indexes
	order  []int32
	weight []float64
	off    []uint64
	placed []bool
	ranges []interval.Range
}

func newShaker(p *planner.Problem, m *model) *shaker {
	n := len(m.size)
	inv := make([]int32, len(p.Items))
	for mi, pi := range m.orig {
		inv[pi] = int32(mi)
	}
	sh := &shaker{m: m, adj: make([][]int32, n), order: make([]int32, n), weight: make([]float64, n),
		off: make([]uint64, n), placed: make([]bool, n)}
	for mi, pi := range m.orig {
		for pj := range p.Neighbors(int(pi)) {
			sh.adj[mi] = append(sh.adj[mi], inv[pj])
		}
	}
	return sh
}

// run places every item once with noise from rng and returns the peak;
// sh.off holds the offsets. It asks stop every 64 items (a run over a
// dense component of a thousand items takes milliseconds) and, when stop
// says so, gives up: ok is false and the offsets are incomplete.
func (sh *shaker) run(rng *rand.Rand, stop func() bool) (peak uint64, ok bool) {
	m := sh.m
	for i := range sh.order {
		sh.order[i] = int32(i)
		sh.weight[i] = float64(m.size[i]) * (0.7 + 0.6*rng.Float64())
		sh.placed[i] = false
	}
	sort.Slice(sh.order, func(a, b int) bool { return sh.weight[sh.order[a]] > sh.weight[sh.order[b]] })
	for k, i := range sh.order {
		if k&63 == 63 && stop() {
			return peak, false
		}
		rs := sh.ranges[:0]
		for _, j := range sh.adj[i] {
			if sh.placed[j] {
				rs = append(rs, interval.Range{Start: sh.off[j], End: sh.off[j] + m.size[j]})
			}
		}
		sort.Slice(rs, func(a, b int) bool { return rs[a].Start < rs[b].Start })
		sh.ranges = rs
		var x uint64
		for _, r := range rs {
			if x+m.size[i] <= r.Start {
				break
			}
			if r.End > x {
				x = alignUp(r.End, m.align[i])
			}
		}
		sh.off[i] = x
		sh.placed[i] = true
		peak = max(peak, x+m.size[i])
	}
	return peak, true
}
