package replay

import (
	"os"
	"testing"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/datadir"
	p "github.com/aliasplan/aliasplan/planner"
)

// frameScale keeps each frame to a few seconds on lavapipe (2 cores,
// -race): extents and sizes divided by it, the graph's structure kept.
// The repository's frames (internal/datadir), not listed, are divided by
// 16; the held-out ones are listed by test name.
var frameScale = map[string]uint32{
	"heldout/compute-1":         16,
	"heldout/compute-120":       16,
	"heldout/deferred-1080p":    16,
	"heldout/deferred-4k":       32,
	"heldout/forwardplus-1080p": 16,
	"heldout/random-200":        32,
	"heldout/random-1000":       64, // about 60 s under -race on 2 cores, clean since barriers stopped chaining through images
}

func readFrame(t testing.TB, name string) *p.Graph {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return g
}

// TestFrames replays every frame of the test data, scaled, both ways: zero
// validation messages, every digest and final content bit-identical.
func TestFrames(t *testing.T) {
	for _, file := range datadir.Files(t, datadir.Frames) {
		name := file.Test()
		t.Run(name, func(t *testing.T) {
			factor, ok := frameScale[name]
			if !ok {
				factor = 16
			}
			g, err := Scale(readFrame(t, file.Path), factor)
			if err != nil {
				t.Fatal(err)
			}
			// A device per frame on lavapipe: a second Replayer on one
			// device crashed its vkCreateComputePipelines (docs/replay.md).
			d := sharedDevice(t)
			rep := compare(t, d, g, 1)
			t.Logf("%s /%d: %d commands, transient %d B, pooled %d B, %d alias barriers, digests equal %v, layer quirks %v",
				name, factor, rep.Commands, rep.TransientBytes, rep.PooledBytes, rep.AliasBarriers, rep.DigestsEqual, rep.LayerQuirks)
		})
	}
}
