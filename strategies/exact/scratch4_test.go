package exact

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// oracle walk along a reference solution, scoring candidate heuristics.
func TestScratchOracle(t *testing.T) {
	f := filepath.Join(dataDir, "perfect", os.Getenv("FILES"))
	p := readCSV(t, f)
	m := buildModel(p, components(p)[0], true)
	s := newSearch(m)
	var ref []uint64
	for round := 3; round < 40 && ref == nil; round++ {
		s.setOrder(randOrder(len(m.size), round))
		if s.run(m.maxLoad, 3000) == found {
			ref = append([]uint64(nil), s.off...)
			t.Logf("ref from round %d", round)
		}
	}
	if ref == nil {
		t.Skip("no ref")
	}
	// Walk.
	s.reset(m.maxLoad)
	s.limit = math.MaxInt64
	if s.root(m.maxLoad) != found {
		t.Fatal("root")
	}
	type feat struct{ name string; score func(j int32, f uint64, tstar int32) float64 }
	run := func(f uint64, j int32) (int32, int32) { // run bounds at level f containing sa[j]
		a := m.sa[j]
		for a > 0 && s.live(a-1) && s.ef[a-1] == f { a-- }
		b := m.sa[j]
		for int(b) < m.nsec && s.live(b) && s.ef[b] == f { b++ }
		return a, b
	}
	feats := []feat{
		{"span", func(j int32, f uint64, _ int32) float64 { return float64(m.sb[j] - m.sa[j]) }},
		{"-span", func(j int32, f uint64, _ int32) float64 { return -float64(m.sb[j] - m.sa[j]) }},
		{"size", func(j int32, f uint64, _ int32) float64 { return float64(m.size[j]) }},
		{"-size", func(j int32, f uint64, _ int32) float64 { return -float64(m.size[j]) }},
		{"-width", func(j int32, f uint64, _ int32) float64 { return -float64(s.hi[j] - s.lo[j]) }},
		{"width", func(j int32, f uint64, _ int32) float64 { return float64(s.hi[j] - s.lo[j]) }},
		{"runend", func(j int32, f uint64, _ int32) float64 {
			_, b := run(f, j)
			if m.sb[j] == b { return 1 }
			return 0
		}},
		{"flush", func(j int32, f uint64, _ int32) float64 {
			top := f + m.size[j]
			sc := 0.0
			if a := m.sa[j] - 1; a >= 0 && s.live(a) && s.ef[a] == top { sc++ }
			if b := m.sb[j]; int(b) < m.nsec && s.live(b) && s.ef[b] == top { sc++ }
			return sc
		}},
	}
	hits := make([]int, len(feats))
	ties := make([]int, len(feats))
	nodes := 0
	for {
		f := uint64(math.MaxUint64)
		for tt := int32(0); tt < int32(m.nsec); tt++ {
			if s.live(tt) { f = min(f, s.ef[tt]) }
		}
		if f == math.MaxUint64 { break }
		best, bestN := int32(-1), 1<<30
		for tt := int32(0); tt < int32(m.nsec); tt++ {
			if !s.live(tt) || s.ef[tt] != f { continue }
			n := 0
			for _, j := range m.members(int(tt)) {
				if !s.placed[j] && s.lo[j] == f { n++ }
			}
			if n < bestN { best, bestN = tt, n }
		}
		var cands []int32
		var refj int32 = -1
		for _, j := range m.members(int(best)) {
			if !s.placed[j] && s.lo[j] == f {
				cands = append(cands, j)
				if ref[j] == f { refj = j }
			}
		}
		if refj < 0 { t.Fatalf("hole on ref path at level %d", f) }
		if len(cands) > 1 && os.Getenv("REFUTE") != "" {
			for _, j := range cands {
				if j == refj {
					continue
				}
				mark := len(s.trail)
				saved := s.limit
				n0 := s.nodes
				s.limit = s.nodes + 20000
				st := exhausted
				if s.place(j, f) && s.propagate() {
					st = s.dfs(0, int32(m.nsec))
				}
				if st != found {
					s.unwind(mark)
				} else {
					// restore: rerun is simplest — unwind to mark also works since found keeps state
					s.unwind(mark)
				}
				s.limit = saved
				if s.nodes-n0 > 20 {
					np := 0
					for _, q := range s.placed {
						if q {
							np++
						}
					}
					t.Logf("depth %d level %d cands %d alt %d: status %d nodes %d", np, f, len(cands), j, st, s.nodes-n0)
				}
			}
		}
		if len(cands) > 1 {
			nodes++
			for k, ft := range feats {
				bs := math.Inf(-1)
				for _, j := range cands { bs = max(bs, ft.score(j, f, best)) }
				nb := 0
				for _, j := range cands { if ft.score(j, f, best) == bs { nb++ } }
				if ft.score(refj, f, best) == bs {
					if nb == 1 { hits[k]++ } else { ties[k]++ }
				}
			}
		}
		if !s.place(refj, f) || !s.propagate() {
			t.Fatal("ref path failed")
		}
	}
	t.Logf("branch nodes %d", nodes)
	for k, ft := range feats {
		t.Logf("%-8s unique-best %d tied-best %d", ft.name, hits[k], ties[k])
	}
}
