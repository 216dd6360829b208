package exact

import (
	"fmt"
	"sort"
)

// checkInvariants panics if the search state is inconsistent: section
// counts, loads and floors against the placed items, placed items not
// overlapping, every remaining item's domain non-empty and above where it
// would rest.
func (s *search) checkInvariants() {
	m := s.m
	cnt := make([]int32, m.nsec)
	rem := make([]uint64, m.nsec)
	top := make([]uint64, m.nsec)
	sections := func(i int32, fn func(t int32)) {
		for t := m.sa[i]; t < m.sb[i]; t++ {
			fn(t)
		}
		for _, t := range m.extra(i) {
			fn(t)
		}
	}
	for i := range m.size {
		j := int32(i)
		sections(j, func(t int32) {
			if s.placed[j] {
				top[t] = max(top[t], s.off[j]+m.size[j])
			} else {
				cnt[t]++
				rem[t] += m.size[j]
			}
		})
		if !s.placed[j] {
			if s.lo[j] > s.hi[j] {
				panic(fmt.Sprintf("exact: item %d: empty domain [%d, %d] at a node", j, s.lo[j], s.hi[j]))
			}
			if s.sup[j] > s.lo[j] || s.lo[j]%m.align[j] != 0 {
				panic(fmt.Sprintf("exact: item %d: lo %d, sup %d, alignment %d", j, s.lo[j], s.sup[j], m.align[j]))
			}
		}
	}
	for t := 0; t < m.nsec; t++ {
		if cnt[t] != s.cnt[t] || rem[t] != s.rem[t] || top[t] != s.floor[t] {
			panic(fmt.Sprintf("exact: section %d: count %d/%d, remaining %d/%d, floor %d/%d", t, s.cnt[t], cnt[t], s.rem[t], rem[t], s.floor[t], top[t]))
		}
		var ranges [][2]uint64
		for _, j := range m.members(t) {
			if s.placed[j] {
				ranges = append(ranges, [2]uint64{s.off[j], s.off[j] + m.size[j]})
			}
		}
		sort.Slice(ranges, func(a, b int) bool { return ranges[a][0] < ranges[b][0] })
		for k := 1; k < len(ranges); k++ {
			if ranges[k][0] < ranges[k-1][1] {
				panic(fmt.Sprintf("exact: section %d: placed members overlap", t))
			}
		}
	}
}
