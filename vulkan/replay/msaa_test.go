package replay

import (
	"testing"

	"github.com/aliasplan/aliasplan/proptest"
)

// TestMSAAFrame replays the full-size MSAA frame's graph small (320×180;
// the H200 replays it at 1080p and 4K: scripts/genmsaa, h200-replay.sh):
// a 4× depth prepass, texelFetch of every depth sample, an attachment
// resolve, a 4× storage image written and read by fragment shaders.
func TestMSAAFrame(t *testing.T) {
	d := openDevice(t)
	rep := compare(t, d, proptest.MSAAFrame(320, 180), 1)
	if !rep.DigestsEqual {
		t.Error("digests differ")
	}
	if rep.AliasBarriers == 0 {
		t.Error("the frame aliases nothing")
	}
}
