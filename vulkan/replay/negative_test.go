package replay

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// aliasGraph is a frame built to alias: "old" is written and read, then
// "new" (same description) is written and read after old's last use, so
// the plan puts new in old's bytes behind an alias barrier.
func aliasGraph(image bool) *p.Graph {
	g := &p.Graph{}
	var old, nw, sinkA, sinkB p.ResourceID
	sinkA = g.AddBuffer("sinkA", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	sinkB = g.AddBuffer("sinkB", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	if image {
		desc := p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled}
		old = g.AddImage("old", desc)
		nw = g.AddImage("new", desc)
	} else {
		old = g.AddBuffer("old", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
		nw = g.AddBuffer("new", p.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer})
	}
	write := func(r p.ResourceID) p.Access {
		a := p.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
		if image {
			a.Layout = vk.LayoutGeneral
		}
		return a
	}
	read := func(r p.ResourceID) p.Access {
		if image {
			return p.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
		}
		return p.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}
	}
	g.AddCommand("old.write", write(old))
	g.AddCommand("old.read", read(old), p.Access{Resource: sinkA, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	// Reading sinkA orders new's first use after old's last.
	g.AddCommand("new.write", write(nw), p.Access{Resource: sinkA, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	g.AddCommand("new.read", read(nw), p.Access{Resource: sinkB, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("sinks.read", p.Access{Resource: sinkB, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	return g
}

// TestNegativeControls breaks the one alias barrier of each aliasGraph,
// by removing it and by narrowing its source scope to nothing, and
// checks that the replay detects it: a synchronization hazard reported
// by the layer, or digests that differ from the intact plan's. It logs
// which detected what on this device (docs/replay.md keeps the table).
func TestNegativeControls(t *testing.T) {
	for _, kind := range []string{"buffer", "image"} {
		for _, breakage := range []string{"removed", "narrowed"} {
			t.Run(kind+"/"+breakage, func(t *testing.T) {
				d := openDevice(t)
				r, plan := prepare(t, d, aliasGraph(kind == "image"))
				k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Kind == p.Alias })
				if k < 0 {
					t.Fatalf("the plan has no alias barrier: pools %+v", plan.Pools)
				}
				good, msgs, err := r.RunPlan(plan, 2, true)
				if err != nil {
					t.Fatal(err)
				}
				if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
					t.Fatalf("the intact plan already has messages: %v", rest)
				}
				broken := *plan
				broken.Barriers = slices.Clone(plan.Barriers)
				if breakage == "removed" {
					broken.Barriers = slices.Delete(broken.Barriers, k, k+1)
				} else {
					broken.Barriers[k].SrcStages, broken.Barriers[k].SrcAccess = 0, 0
				}
				bad, msgs, err := r.RunPlan(&broken, 2, false)
				if err != nil {
					t.Fatal(err)
				}
				rest, _ := SplitQuirks(msgs)
				hazards := 0
				for _, m := range rest {
					if strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
						hazards++
					}
				}
				diff := r.Diff(good, bad)
				diff = append(diff, r.Deterministic(bad)...)
				t.Logf("%s alias barrier %s on %s: %d synchronization hazards reported, %d digest/content differences",
					kind, breakage, d.Info().Name, hazards, len(diff))
				if hazards == 0 && len(diff) == 0 {
					t.Errorf("not detected: %s", describeBarrier(plan, k))
				}
				// The messages were expected: they must not fail the test at cleanup.
				_ = vulkan.Message{}
			})
		}
	}
}

func describeBarrier(plan *p.Plan, k int) string {
	b := plan.Barriers[k]
	return fmt.Sprintf("%s %s barrier before command %d on resource %d (src %s/%s)", b.Kind, b.Type, b.Before, b.Resource, b.SrcStages, b.SrcAccess)
}
