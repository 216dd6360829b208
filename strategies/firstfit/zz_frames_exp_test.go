package firstfit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

type recorder struct {
	orders []order
	mode   fitMode
	probs  *[]*planner.Problem
}

func (recorder) Name() string { return "x" }

func (r recorder) Place(p *planner.Problem) (*planner.Solution, error) {
	*r.probs = append(*r.probs, p)
	return place("x", p, r.orders, r.mode)
}

func loadFrame(t testing.TB, f string) *planner.Compiled {
	r, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, err := planner.ReadGraph(r, f)
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestExpFrames(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	files, _ := filepath.Glob("/work/shared/data/frames/*.json")
	all := append([]order{}, orders...)
	all = append(all, expOrders...)
	for _, f := range files {
		c := loadFrame(t, f)
		line := filepath.Base(f)
		for _, mode := range []fitMode{lowest, best} {
			for _, o := range all {
				var probs []*planner.Problem
				st := recorder{[]order{o}, mode, &probs}
				plan, err := planner.Place(c, planner.Options{Strategy: st, DedicatedThreshold: planner.DefaultDedicatedThreshold})
				if err != nil {
					t.Fatal(err)
				}
				m := "ff"
				if mode == best {
					m = "bf"
				}
				line += " " + m + "/" + o.name + "=" + ratio(plan.Stats.PooledBytes, plan.Stats.LowerBound)
			}
		}
		t.Log(line)
	}
}

var expOrders = []order{
	byItem("area", byArea),
	byItem("start", byStart),
}
