package replay

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// TestGeneratedFrames replays proptest.ReplayFrame for seeds 1..50
// (ALIASPLAN_REPLAY_FRAMES overrides the count) both ways: every kind of
// use the model has (multisampling, layers, cubes, 3D, mipmapped
// attachments, read-only and sampled depth/stencil, several indirect,
// vertex and index buffers, ordering-only uses, transfers of mips and
// layers), zero validation messages, every digest equal.
// logDigests (ALIASPLAN_REPLAY_DIGESTS=1, scripts/h200-standin.sh) logs
// every command's digest of the aliased run and every mismatch.
var logDigests = os.Getenv("ALIASPLAN_REPLAY_DIGESTS") == "1"

// onlyKind (ALIASPLAN_REPLAY_KIND) keeps TestGeneratedFrames to the seeds
// whose frame has that proptest.ReplayKinds kind.
var onlyKind = os.Getenv("ALIASPLAN_REPLAY_KIND")

func TestGeneratedFrames(t *testing.T) {
	n := 50
	if s := os.Getenv("ALIASPLAN_REPLAY_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	// One device for every seed (its replayers share pipelines,
	// sharedkit.go): a device per seed made 474 pipelines of 79 kinds.
	d := sharedDevice(t)
	for seed := uint64(1); seed <= uint64(n); seed++ {
		if onlyKind != "" && !slices.Contains(proptest.ReplayFrameKinds(seed), onlyKind) {
			continue
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := proptest.ReplayFrame(seed)
			if slices.Contains(proptest.ReplayFrameKinds(seed), "graphics-slots") && !hasExtraDraw(g) {
				t.Errorf("graphics-slots drawn, but no command of the frame has an extra draw (gfxsplit.go)")
			}
			rep := compare(t, d, g, 1)
			if logDigests {
				for _, c := range rep.Digests {
					t.Logf("digest %016x %s", c.Digest, c.Command)
				}
				for _, m := range rep.Mismatches {
					t.Logf("%s", m)
				}
			}
			if !rep.DigestsEqual {
				t.Errorf("digests differ (kinds %v)", proptest.ReplayFrameKinds(seed))
			}
			if t.Failed() {
				t.Logf("kinds %v", proptest.ReplayFrameKinds(seed))
			}
		})
	}
}

// hasExtraDraw says whether a command of g needs more than one draw
// (gfxsplit.go: more graphics slots than the shaders declare).
func hasExtraDraw(g *p.Graph) bool {
	for c := range g.Commands {
		if w, err := analyzeCommand(g, p.CommandID(c)); err == nil && len(w.gfxMore) > 0 {
			return true
		}
	}
	return false
}
