package exact

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestScratchDecide(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "perfect", os.Getenv("FILES")))
	for _, f := range files {
		p := readCSV(t, f)
		comps := components(p)
		m := buildModel(p, comps[0], true)
		s := newSearch(m)
		for _, flush := range []bool{false} {
			ok := 0
			lim := int64(2000)
			if v := os.Getenv("LIM"); v != "" {
				lim, _ = strconv.ParseInt(v, 10, 64)
			}
			var tot int64
			t0 := time.Now()
			for round := 0; round < 20; round++ {
				_ = flush
				if round < 3 {
					s.setOrder(valueOrder(m, round))
				} else {
					r := rand.New(rand.NewPCG(uint64(round), 1))
					o := make([]int32, len(m.size))
					for i := range o {
						o[i] = int32(i)
					}
					r.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
					s.setOrder(o)
				}
				st := s.run(m.maxLoad, lim)
				if st == found {
					ok++
					t.Logf("round %d found", round)
					if os.Getenv("REF") != "" && dbgRef == nil {
						dbgRef = append([]uint64(nil), s.off...)
						for r2 := 0; r2 < 3; r2++ {
							s.setOrder(valueOrder(m, r2))
							println("round", r2, s.run(m.maxLoad, lim))
						}
						dbgRef = nil
					}
				}
				tot += s.nodes
			}
			t.Logf("calls %d mem %d", dbgCalls, dbgMem)
			t.Logf("%s flush %v: %d/20 found, nodes %d, %v", filepath.Base(f), flush, ok, tot, time.Since(t0))
		}
	}
}
