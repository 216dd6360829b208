package proptest

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// TestReplayFrameCoversKinds: the first 50 seeds (what make test replays)
// use every kind, every frame validates and plans, and most alias.
func TestReplayFrameCoversKinds(t *testing.T) {
	seen := map[string]int{}
	aliased := 0
	for seed := uint64(1); seed <= 50; seed++ {
		for _, k := range ReplayFrameKinds(seed) {
			seen[k]++
		}
		g := ReplayFrame(seed)
		plan, err := aliasplan.New(aliasplan.Options{Source: planner.ProfileH200}).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, b := range plan.Barriers {
			if b.Kind == planner.Alias {
				aliased++
				break
			}
		}
	}
	for _, k := range ReplayKinds {
		if seen[k] == 0 {
			t.Errorf("kind %q never used in seeds 1..50", k)
		}
	}
	if aliased < 40 {
		t.Errorf("only %d of 50 frames alias anything", aliased)
	}
}
