package barriers_test

import (
	"math/rand/v2"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
)

func TestDebugMut(t *testing.T) {
	seed := 258
	rng := rand.New(rand.NewPCG(uint64(seed), 13))
	g := randomFrame(rng, 2+rng.IntN(30), 1+rng.IntN(16))
	c, _ := planner.Compile(g)
	p, _ := planner.Place(c, planner.Options{Strategy: greedy{}})
	barriers.Build(c, p)
	t.Logf("\n%s", describe(g, p))
	for i, cmd := range g.Commands {
		t.Logf("c%d: %+v", i, cmd.Accesses)
	}
	for r := range g.Resources {
		t.Logf("r%d %s %+v", r, g.Resources[r].Kind, p.Resources[r].Placement)
	}
}
