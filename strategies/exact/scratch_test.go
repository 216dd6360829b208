package exact

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestScratchDecide(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "perfect", os.Getenv("FILES")))
	for _, f := range files {
		p := readCSV(t, f)
		comps := components(p)
		m := buildModel(p, comps[0], true)
		for round := 0; round < 1; round++ {
			dbgHist = make([]int64, 10)
			s := newSearch(m)
			s.setOrder(valueOrder(m, round))
			t0 := time.Now()
			st := s.run(m.maxLoad, 500_000)
			t.Logf("%s round %d: status %d nodes %d %v hist %v", filepath.Base(f), round, st, s.nodes, time.Since(t0), dbgHist)
			if st == found && os.Getenv("REF") != "" {
				dbgRef = append([]uint64(nil), s.off...)
				s2 := newSearch(m)
				s2.setOrder(valueOrder(m, round))
				s2.run(m.maxLoad, 500_000)
				dbgRef = nil
			}
		}
	}
}

func TestScratchDump(t *testing.T) {
	f := filepath.Join(dataDir, "perfect", os.Getenv("FILES"))
	p := readCSV(t, f)
	sol, _, _ := New(Options{NodeLimit: 2_000_000}).Solve(p)
	out, _ := os.Create("/tmp/sol.csv")
	defer out.Close()
	for i, it := range p.Items {
		fmt.Fprintf(out, "%d,%d,%d,%d\n", it.Start, it.End, it.Size, sol.Offset[i])
	}
}
