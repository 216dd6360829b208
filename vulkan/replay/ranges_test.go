package replay

import (
	"path/filepath"
	"slices"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// rangedFrames are issue 23's frames (proptest/testdata/frames): a bloom
// chain in one 6-mip image, a depth pyramid one mip per dispatch, four
// shadow cascades in one array, a cube map per face, a depth-read-only +
// stencil-write pass.
var rangedFrames = []string{"bloom", "depth-pyramid", "cascades", "cubemap", "depth-stencil"}

func rangedFrame(t testing.TB, name string) string {
	return filepath.Join("..", "..", "proptest", "testdata", "frames", name+".json")
}

// TestRangedFrames replays the ranged frames, scaled, aliased and not:
// zero validation messages, every digest equal. Before per-range replay
// New refused each of them by name.
func TestRangedFrames(t *testing.T) {
	// bloom-general, the bloom chain's GENERAL twin, samples and renders
	// into its whole image in one command: own-pixel reads (selfrace.go),
	// on every device (ownLoadOp).
	for _, name := range append(slices.Clone(rangedFrames), "bloom-general") {
		t.Run(name, func(t *testing.T) {
			g, err := Scale(readFrame(t, rangedFrame(t, name)), 8)
			if err != nil {
				t.Fatal(err)
			}
			writeFirst(g)
			d := sharedDevice(t)
			// bloom-general's down passes sample what their write-only
			// attachments write: LOAD_OP_NONE, or LOAD_OP_LOAD with the
			// plan's barriers given the load's read (selfrace.go,
			// ownLoadOp); refused on the base commit without LOAD_OP_NONE.
			rep := compare(t, d, g, 1)
			if !rep.DigestsEqual {
				t.Errorf("digests differ")
			}
			t.Logf("%s /8: %d commands, transient %d B, pooled %d B, %d alias barriers, digests equal %v",
				name, rep.Commands, rep.TransientBytes, rep.PooledBytes, rep.AliasBarriers, rep.DigestsEqual)
		})
	}
}

// writeFirst makes a transient's first access write-only where the frame
// reads and writes it there (the depth pyramid's culling buffer, cleared
// by the engine before the frame): the replay cannot compare runs that
// read undefined contents. The conflicts, and so the plan, are the same.
func writeFirst(g *p.Graph) {
	seen := make([]bool, len(g.Resources))
	for ci := range g.Commands {
		for i := range g.Commands[ci].Accesses {
			a := &g.Commands[ci].Accesses[i]
			if g.Resources[a.Resource].Imported || seen[a.Resource] {
				continue
			}
			seen[a.Resource] = true
			if a.Access&vk.AccessShaderStorageWrite != 0 {
				a.Access &^= vk.AccessShaderStorageRead | vk.AccessShaderRead
			}
		}
	}
}

// TestRangedNegativeControl breaks a per-range barrier of the bloom chain
// (the one that makes mip 1's write visible to the pass sampling it), by
// removing it and by moving it to the next mip (a barrier on the wrong
// range), and checks that the replay detects it: a validation message
// (a synchronization hazard or a layout mismatch) or digests that differ
// from the intact plan's.
func TestRangedNegativeControl(t *testing.T) {
	for _, breakage := range []string{"removed", "wrong-mip"} {
		t.Run(breakage, func(t *testing.T) {
			g, err := Scale(readFrame(t, rangedFrame(t, "bloom")), 8)
			if err != nil {
				t.Fatal(err)
			}
			d := openDevice(t)
			r, plan := prepare(t, d, g)
			down2 := -1
			for c := range g.Commands {
				if g.Commands[c].Name == "bloom.down2" {
					down2 = c
				}
			}
			k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool {
				return int(b.Before) == down2 && g.Resources[b.Resource].Name == "bloom" && b.Mips == p.MipRange{Base: 1, Count: 1}
			})
			if k < 0 {
				t.Fatalf("no barrier on bloom mip 1 before bloom.down2: %+v", plan.Barriers)
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
				broken.Barriers[k].Mips = p.MipRange{Base: 2, Count: 1}
			}
			bad, msgs, err := r.RunPlan(&broken, 2, false)
			if err != nil {
				t.Fatal(err)
			}
			rest, _ := SplitQuirks(msgs)
			diff := append(r.Diff(good, bad), r.Deterministic(bad)...)
			t.Logf("bloom mip-1 barrier %s on %s: %d validation messages, %d digest/content differences", breakage, d.Info().Name, len(rest), len(diff))
			if len(rest) == 0 && len(diff) == 0 {
				t.Errorf("not detected: %s", describeBarrier(plan, k))
			}
		})
	}
}
