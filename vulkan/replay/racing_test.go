package replay

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// racingGraph is a frame built to race once its alias barrier is broken:
// "old" is written by a slow compute pass (SetSpin) that occupies only
// part of the GPU, "new" (same description) is written right after it by
// a fast one and read by a third; nothing but the alias barrier orders
// old.write before new.write (planned with OrderExecution, the DAG has no
// path between them). Without that barrier new.write runs beside
// old.write, whose late writes land in new's bytes: new.read's digest
// then differs from the unaliased run's.
//
// With war, old.read (the slow one) reads old after old.write and before
// new.write, whose writes then overtake its late reads (a
// write-after-read race; the layer sees this one, while layer 1.3.239
// reports no write-after-write between two aliased storage buffers).
func racingGraph(image, war bool, elements uint32) *p.Graph {
	g := &p.Graph{}
	sink := g.AddBuffer("sink", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer})
	var old, nw p.ResourceID
	layout := vk.LayoutUndefined
	if image {
		w := uint32(1) // a square-ish image: power-of-two width ≥ √elements
		for w*w < elements {
			w *= 2
		}
		desc := p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: w, Height: max(1, elements/w), Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled}
		old, nw = g.AddImage("old", desc), g.AddImage("new", desc)
		layout = vk.LayoutGeneral
	} else {
		desc := p.BufferDesc{Size: uint64(elements) * 4, Usage: vk.BufferUsageStorageBuffer}
		old, nw = g.AddBuffer("old", desc), g.AddBuffer("new", desc)
	}
	g.AddCommand("old.write", p.Access{Resource: old, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: layout})
	if war {
		g.AddCommand("old.read", p.Access{Resource: old, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: layout},
			p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	}
	g.AddCommand("new.write", p.Access{Resource: nw, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: layout})
	g.AddCommand("new.read", p.Access{Resource: nw, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: layout},
		p.Access{Resource: sink, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	return g
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestRacingControl breaks the alias barrier of racingGraph (removed;
// source scope narrowed to nothing) and reports, per breakage, the rate
// of runs whose digests differ from the unaliased twin's, and the
// synchronization hazards the layer reported; the intact plan must match
// the twin in every run. It fails when the intact plan differs once, or a
// broken one is detected neither by the layer nor by the digests.
// lavapipe executes serially, so there only the layer detects it; on the
// H200 (scripts/h200-race.sh) the digests do. Environment:
// ALIASPLAN_RACE_RUNS (runs per plan, default 3), ALIASPLAN_RACE_SPIN
// (hash rounds per old.write invocation, default 64),
// ALIASPLAN_RACE_ELEMENTS (words or texels per resource, default 65536:
// a quarter of an H200's resident threads, so new.write finds room).
func TestRacingControl(t *testing.T) {
	runs := envInt("ALIASPLAN_RACE_RUNS", 3)
	spin := uint32(envInt("ALIASPLAN_RACE_SPIN", 64))
	elements := uint32(envInt("ALIASPLAN_RACE_ELEMENTS", 65536))
	detected := map[string]bool{}
	for _, kind := range []string{"buffer", "image", "buffer-war", "image-war"} {
		t.Run(kind, func(t *testing.T) {
			d := openDevice(t)
			war := strings.HasSuffix(kind, "-war")
			slow := "old.write"
			if war {
				slow = "old.read"
			}
			g := racingGraph(strings.HasPrefix(kind, "image"), war, elements)
			r, err := New(d, g)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(r.Close)
			// No dedicated threshold, prefersDedicated pooled: the 64 MiB
			// configuration must alias on the H200 too.
			plan, err := aliasplan.New(aliasplan.Options{Source: r.Source(), MaxPoolSize: d.Info().MaxMemoryAllocationSize, Order: p.OrderExecution,
				DedicatedThreshold: aliasplan.NoDedicatedThreshold, PoolPrefersDedicated: true}).
				Plan(&aliasplan.Graph{Graph: *g})
			if err != nil {
				t.Fatal(err)
			}
			old, nw := plan.Resources[1].Placement, plan.Resources[2].Placement
			if plan.Resources[1].Status != p.StatusPooled || old.Pool != nw.Pool || old.Offset != nw.Offset {
				t.Fatalf("old and new do not share bytes: %s (%s) %+v, %s (%s) %+v", plan.Resources[1].Status, plan.Resources[1].Reason, old,
					plan.Resources[2].Status, plan.Resources[2].Reason, nw)
			}
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Kind == p.Alias && b.Resource == 2 })
			if k < 0 {
				t.Fatalf("no alias barrier before new.write: %+v", plan.Barriers)
			}
			if err := r.SetSpin(slow, spin); err != nil {
				t.Fatal(err)
			}
			twin, err := Unaliased(g, plan)
			if err != nil {
				t.Fatal(err)
			}
			ref, msgs, err := r.RunPlan(twin, 1, true)
			if err != nil {
				t.Fatal(err)
			}
			if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
				t.Fatalf("unaliased twin: messages %v", rest)
			}
			good, msgs, err := r.RunPlan(plan, runs, true)
			if err != nil {
				t.Fatal(err)
			}
			if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
				t.Fatalf("intact plan: messages %v", rest)
			}
			if n := r.differingRuns(ref, good); n != 0 {
				t.Errorf("intact plan: %d of %d runs differ from the unaliased twin", n, runs)
			}
			t.Logf("RACE %s intact: 0 validation messages, %d of %d runs differ (%d elements, spin %d, %s)", kind, r.differingRuns(ref, good), runs, elements, spin, d.Info().Name)
			for _, breakage := range []string{"removed", "narrowed"} {
				// Every alias barrier of new: an image's alias after writes
				// is two calls (a memory barrier, then the image barrier
				// whose source stages alone would still order the writes).
				broken := *plan
				broken.Barriers = slices.Clone(plan.Barriers)
				isAlias := func(b p.Barrier) bool { return b.Kind == p.Alias && b.Resource == 2 }
				if breakage == "removed" {
					broken.Barriers = slices.DeleteFunc(broken.Barriers, isAlias)
				} else {
					for i := range broken.Barriers {
						if isAlias(broken.Barriers[i]) {
							broken.Barriers[i].SrcStages, broken.Barriers[i].SrcAccess = 0, 0
						}
					}
				}
				bad, msgs, err := r.RunPlan(&broken, runs, true)
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
				n := r.differingRuns(ref, bad)
				t.Logf("RACE %s %s: %d of %d runs differ (%.0f%%), %d synchronization hazards, %d other messages", kind, breakage, n, runs,
					100*float64(n)/float64(runs), hazards, len(rest)-hazards)
				if n > 0 || hazards > 0 {
					detected[strings.TrimSuffix(kind, "-war")+" "+breakage] = true
				}
			}
		})
	}
	if t.Failed() {
		return
	}
	for _, k := range []string{"buffer removed", "buffer narrowed", "image removed", "image narrowed"} {
		if !detected[k] {
			t.Errorf("%s alias barrier: not detected by the layer or the digests in either frame", k)
		}
	}
}

// differingRuns counts the runs of b whose digests or final contents
// differ from a's first run.
func (r *Replayer) differingRuns(a, b *Run) int {
	n := 0
	for _, x := range b.res {
		if len(r.diff(a.res[0], x)) > 0 {
			n++
		}
	}
	return n
}
