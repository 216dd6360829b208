package replay

import (
	"path/filepath"
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
	for _, name := range rangedFrames {
		t.Run(name, func(t *testing.T) {
			g, err := Scale(readFrame(t, rangedFrame(t, name)), 8)
			if err != nil {
				t.Fatal(err)
			}
			writeFirst(g)
			if err := partialRange(g); err != nil {
				t.Fatalf("refused: %v", err)
			}
			d := sharedDevice(t)
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
