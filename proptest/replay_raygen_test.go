package proptest

import (
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// TestRayShaderFrameCoversKinds: the seeds the replay tests run (1..10)
// use every RayShaderReplayKinds kind; every frame of 1..40 has a
// RAY_TRACING_SHADER storage, uniform or sampled access, plans (Plan
// verifies), and most alias something.
func TestRayShaderFrameCoversKinds(t *testing.T) {
	seen := map[string]bool{}
	aliased := 0
	for seed := uint64(1); seed <= 40; seed++ {
		g, kinds := RayShaderReplayFrame(seed)
		if seed <= 10 {
			for _, k := range kinds {
				seen[k] = true
			}
		}
		slots := false
		for _, c := range g.Commands {
			for _, a := range c.Accesses {
				if a.Stages&vk.StageRayTracingShader != 0 && a.Access&(vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite|vk.AccessShaderSampledRead|vk.AccessUniformRead) != 0 {
					slots = true
				}
			}
		}
		if !slots {
			t.Errorf("seed %d (%v): no storage, uniform or sampled access in RAY_TRACING_SHADER", seed, kinds)
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
	for _, k := range RayShaderReplayKinds {
		if !seen[k] {
			t.Errorf("kind %q never used in seeds 1..10", k)
		}
	}
	if aliased < 30 {
		t.Errorf("only %d of 40 frames alias anything", aliased)
	}
	t.Logf("%d of 40 frames alias", aliased)
}
