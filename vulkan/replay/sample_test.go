package replay

import (
	"testing"

	"github.com/aliasplan/aliasplan"
)

func TestSampleFrame(t *testing.T) {
	d := openDevice(t)
	g := aliasplan.SampleFrame(320, 180)
	rep := compare(t, d, &g.Graph, 2)
	t.Logf("sample 320x180: %d commands, transient %d B, pooled %d B, %d alias barriers, GPU ns aliased %d unaliased %d, digests equal %v",
		rep.Commands, rep.TransientBytes, rep.PooledBytes, rep.AliasBarriers, rep.GPUNsAliased, rep.GPUNsUnaliased, rep.DigestsEqual)
	nonzero := 0
	for _, dg := range rep.Digests {
		if dg.Digest != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Errorf("no command recorded a digest")
	}
}
