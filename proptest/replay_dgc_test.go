package proptest

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// TestDGCFrameCoversKinds: the seeds the replay tests run (1..20) use
// every DGCReplayKinds kind; every frame of 1..40 has a generating
// command (COMMAND_PREPROCESS and DRAW_INDIRECT reads of a count buffer
// with INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usage), plans (Plan
// verifies), and most alias something.
func TestDGCFrameCoversKinds(t *testing.T) {
	seen := map[string]bool{}
	aliased := 0
	for seed := uint64(1); seed <= 40; seed++ {
		g, kinds := DGCReplayFrame(seed)
		if seed <= 20 {
			for _, k := range kinds {
				seen[k] = true
			}
		}
		gen := false
		for _, c := range g.Commands {
			for _, a := range c.Accesses {
				u := g.Resources[a.Resource].Buffer.Usage
				if a.Stages&(vk.StageCommandPreprocessNV|vk.StageDrawIndirect) == vk.StageCommandPreprocessNV|vk.StageDrawIndirect &&
					a.Access&vk.AccessCommandPreprocessReadNV != 0 && u&dgcUsage == dgcUsage {
					gen = true
				}
			}
		}
		if !gen {
			t.Errorf("seed %d (%v): no generating command", seed, kinds)
		}
		plan, err := aliasplan.New(aliasplan.Options{Source: planner.ProfileH200}).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatalf("seed %d (%v): %v", seed, kinds, err)
		}
		for _, b := range plan.Barriers {
			if b.Kind == planner.Alias {
				aliased++
				break
			}
		}
	}
	for _, k := range DGCReplayKinds {
		if !seen[k] {
			t.Errorf("kind %q never used in seeds 1..20", k)
		}
	}
	if aliased < 30 {
		t.Errorf("only %d of 40 frames alias anything", aliased)
	}
	t.Logf("%d of 40 frames alias", aliased)
}
