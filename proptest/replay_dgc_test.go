package proptest

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// TestDGCFrameCoversKinds: the seeds the replay tests run (1..20) use
// every DGCReplayKinds kind; every frame of 1..40 has a generating
// command (a COMMAND_PREPROCESS read of a count buffer with
// INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usage, with DRAW_INDIRECT in
// the same command or, in the split kinds, an execution's DRAW_INDIRECT
// read of it in a later one), plans (Plan verifies), and most alias
// something.
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
		preprocessed := map[planner.ResourceID]bool{}
		for _, c := range g.Commands {
			for _, a := range c.Accesses {
				u := g.Resources[a.Resource].Buffer.Usage
				if a.Stages&vk.StageCommandPreprocessNV != 0 && a.Access&vk.AccessCommandPreprocessReadNV != 0 && u&dgcUsage == dgcUsage {
					if a.Stages&vk.StageDrawIndirect != 0 {
						gen = true
					}
					preprocessed[a.Resource] = true
				} else if preprocessed[a.Resource] && a.Stages == vk.StageDrawIndirect && a.Access == vk.AccessIndirectCommandRead {
					gen = true // an execution of an earlier preprocessing
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

// TestIndirectBuildFrameCoversKinds: seeds 1..10 (the replay test's) use
// every IndirectBuildReplayKinds kind; each frame of 1..20 has a build
// command reading a range (INDIRECT_COMMAND_READ in
// ACCELERATION_STRUCTURE_BUILD of a buffer with INDIRECT_BUFFER and
// SHADER_DEVICE_ADDRESS usage) and plans (Plan verifies).
func TestIndirectBuildFrameCoversKinds(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		g, kinds := IndirectBuildReplayFrame(seed, vk.StageComputeShader)
		if seed <= 10 {
			for _, k := range kinds {
				seen[k] = true
			}
		}
		ranges := 0
		for _, c := range g.Commands {
			for _, a := range c.Accesses {
				if a.Stages == vk.StageAccelerationStructureBuild && a.Access == vk.AccessIndirectCommandRead && g.Resources[a.Resource].Buffer.Usage&dgcUsage == dgcUsage {
					ranges++
				}
			}
		}
		if ranges != len(kinds) {
			t.Errorf("seed %d (%v): %d range reads, want one a kind", seed, kinds, ranges)
		}
		if _, err := aliasplan.New(aliasplan.Options{Source: planner.ProfileH200}).Plan(&aliasplan.Graph{Graph: *g}); err != nil {
			t.Fatalf("seed %d (%v): %v", seed, kinds, err)
		}
	}
	for _, k := range IndirectBuildReplayKinds {
		if !seen[k] {
			t.Errorf("kind %q never used in seeds 1..10", k)
		}
	}
}
