package proptest

import (
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// TestRandomFrame checks the scale generator: frames compile, have about
// 1.46 transients per command, and are deterministic.
func TestRandomFrame(t *testing.T) {
	g := RandomFrame(1, 2000)
	if _, err := planner.Compile(g); err != nil {
		t.Fatal(err)
	}
	if r := float64(len(g.Resources)) / float64(len(g.Commands)); r < 1.35 || r > 1.6 {
		t.Errorf("%d resources for %d commands: %.2f per command, want about 1.46", len(g.Resources), len(g.Commands), r)
	}
	h := RandomFrame(1, 2000)
	if len(h.Resources) != len(g.Resources) || len(h.Commands) != len(g.Commands) {
		t.Fatal("RandomFrame is not deterministic")
	}
	for i := range g.Commands {
		a, b := g.Commands[i].Accesses, h.Commands[i].Accesses
		if len(a) != len(b) {
			t.Fatalf("command %d differs between two runs", i)
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("command %d differs between two runs", i)
			}
		}
	}
}
