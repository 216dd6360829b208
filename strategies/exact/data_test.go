package exact

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

const dataDir = "../../../shared/data"

func TestPerfectScratch(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "perfect", os.Getenv("FILES")))
	for _, f := range files {
		p := readCSV(t, f)
		tl := 10 * time.Second
		sol, res, err := New(Options{TimeLimit: tl}).Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := planner.CheckSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", filepath.Base(f), res)
	}
}
