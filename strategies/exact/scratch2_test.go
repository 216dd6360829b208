package exact

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

func TestScratchSweep(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "perfect", os.Getenv("FILES")))
	for _, f := range files {
		p := readCSV(t, f)
		comps := components(p)
		m := buildModel(p, comps[0], true)
		s := newSearch(m)
		w := newSweeper(m, s.firstItem)
		t0 := time.Now()
		st := w.run(m.maxLoad, 20_000_000)
		t.Logf("%s tight %v: status %d nodes %d %v", filepath.Base(f), m.tight(m.maxLoad), st, w.nodes, time.Since(t0))
		if st == found {
			sol := &planner.Solution{Pool: make([]int32, len(p.Items)), Offset: make([]uint64, len(p.Items)), PoolSizes: []uint64{m.maxLoad}}
			for mi, pi := range m.orig {
				sol.Offset[pi] = w.off[mi]
			}
			if err := planner.CheckSolution(p, sol); err != nil {
				t.Fatal(err)
			}
		}
	}
}
