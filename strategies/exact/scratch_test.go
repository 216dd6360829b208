package exact

import (
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
		}
	}
}
