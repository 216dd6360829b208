package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aliasplan/aliasplan/format"
	p "github.com/aliasplan/aliasplan/planner"
)

// framesDir holds the shared frames, relative to this package.
const framesDir = "../../../shared/data/frames"

// frameScale keeps each frame to a few seconds on lavapipe (2 cores,
// -race): extents and sizes divided by it, the graph's structure kept.
var frameScale = map[string]uint32{
	"compute-1.json":         16,
	"compute-120.json":       16,
	"deferred-1080p.json":    16,
	"deferred-4k.json":       32,
	"forwardplus-1080p.json": 16,
	"random-200.json":        32,
	"random-1000.json":       64, // about 60 s under -race on 2 cores, clean since barriers stopped chaining through images
}

func readFrame(t testing.TB, name string) *p.Graph {
	t.Helper()
	f, err := os.Open(filepath.Join(framesDir, name))
	if err != nil {
		t.Skipf("SKIP: shared frames not here (%v); they live in ../shared/data/frames", err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return g
}

// TestFrames replays every shared frame, scaled, both ways: zero
// validation messages, every digest and final content bit-identical.
func TestFrames(t *testing.T) {
	entries, err := filepath.Glob(filepath.Join(framesDir, "*.json"))
	if err != nil || len(entries) == 0 {
		t.Skipf("SKIP: no shared frames in %s", framesDir)
	}
	for _, path := range entries {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			factor, ok := frameScale[name]
			if !ok {
				factor = 32
			}
			g, err := Scale(readFrame(t, name), factor)
			if err != nil {
				t.Fatal(err)
			}
			// A device per frame: a second Replayer on one device crashed
			// lavapipe's vkCreateComputePipelines (see docs/replay.md).
			d := openDevice(t)
			rep := compare(t, d, g, 1)
			t.Logf("%s /%d: %d commands, transient %d B, pooled %d B, %d alias barriers, digests equal %v, layer quirks %v",
				name, factor, rep.Commands, rep.TransientBytes, rep.PooledBytes, rep.AliasBarriers, rep.DigestsEqual, rep.LayerQuirks)
		})
	}
}
