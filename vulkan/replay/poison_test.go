package replay

import (
	"fmt"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
)

// TestPoisonCatchesUndefinedReads: a frame whose reads see memory no
// command wrote must show digest differences under the pool poison
// (poison.go), on every device; its reads of written resources must not.
// The planner refuses a graph that reads a transient resource before
// writing it (rule read-before-write), so such a read only comes from a
// replay (or driver) defect: the test makes one, dropping the replay's
// work of the commands that clear a storage buffer and a sampled image
// (as a resolve into a 3D image that skips slices leaves them unwritten).
// With ALIASPLAN_REPLAY_POISON=0 the reads see whatever the memory held,
// the same in both aliased runs, and the test fails.
func TestPoisonCatchesUndefinedReads(t *testing.T) {
	g := &p.Graph{}
	sb := vk.BufferUsageStorageBuffer | vk.BufferUsageTransferDst
	written := g.AddBuffer("written", p.BufferDesc{Size: 4096, Usage: sb})
	never := g.AddBuffer("never", p.BufferDesc{Size: 4096, Usage: sb})
	img := g.AddImage("never-img", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageTransferDst})
	cs := vk.StageComputeShader
	g.AddCommand("write", p.Access{Resource: written, Stages: cs, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("read.written", p.Access{Resource: written, Stages: cs, Access: vk.AccessShaderStorageRead})
	dropped := g.AddCommand("clear.dropped", p.Access{Resource: never, Stages: vk.StageClear, Access: vk.AccessTransferWrite},
		p.Access{Resource: img, Stages: vk.StageClear, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	g.AddCommand("read.never", p.Access{Resource: never, Stages: cs, Access: vk.AccessShaderStorageRead})
	g.AddCommand("read.never-img", csampled(img))
	d := sharedDevice(t)
	r, plan := prepare(t, d, g)
	if w := &r.works[dropped]; len(w.clears) != 2 {
		t.Fatalf("clear.dropped has %d clears, want 2", len(w.clears))
	}
	r.works[dropped].clears = nil // the defect: the declared writes are not recorded
	t.Logf("poison %v (ALIASPLAN_REPLAY_POISON)", r.poison)
	rep, err := r.Compare(plan, Config{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Messages) != 0 || rep.ValidationMessages != 0 {
		t.Errorf("%d validation messages: %v", rep.ValidationMessages, rep.Messages)
	}
	for _, m := range rep.Mismatches {
		t.Logf("mismatch: %s", m)
	}
	has := func(cmd, runs string) bool {
		for _, m := range rep.Mismatches {
			if strings.HasPrefix(m, runs) && strings.Contains(m, `"`+cmd+`"`) {
				return true
			}
		}
		return false
	}
	// Without the poison the aliased runs agree with each other (the
	// bytes left where the write was dropped are the same every run), and
	// aliased and unaliased may or may not differ (which bytes were
	// there). The poison makes every run differ, the aliased runs too.
	for _, c := range []string{"read.never", "read.never-img"} {
		if !has(c, "aliased run 2 vs 1") || !has(c, "unaliased run 1 vs aliased run 1") {
			t.Errorf("%s reads memory whose write was dropped, yet its digests agree across runs: the pools were not poisoned (ALIASPLAN_REPLAY_POISON=%q)", c, poisonEnv())
		}
	}
	for _, c := range []string{"write", "read.written"} {
		if has(c, "") {
			t.Errorf("%s reads only what the frame wrote, yet its digests differ", c)
		}
	}
}

func poisonEnv() string {
	if poisonDefault {
		return "on"
	}
	return "0"
}

// BenchmarkPoison measures what the pool poison adds to a replay: one
// Compare (a warm-up and one timed run per mode, as TestGeneratedFrames
// does) of generated frames, poison on and off.
//
//	go test -run '^$' -bench BenchmarkPoison ./vulkan/replay
func BenchmarkPoison(b *testing.B) {
	d := sharedDevice(b)
	for _, seed := range []uint64{3, 35} {
		g := proptest.ReplayFrame(seed)
		r, plan := prepare(b, d, g)
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("seed-%d/poison-%v", seed, on), func(b *testing.B) {
				r.poison = on
				for i := 0; i < b.N; i++ {
					if _, err := r.Compare(plan, Config{Runs: 1}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(r.poisonRun)/float64(b.N), "fills/op")
				r.poisonRun = 0
			})
		}
	}
}
