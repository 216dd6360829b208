package replay

import (
	"testing"

	"github.com/aliasplan/aliasplan/vk"
)

// TestOwnLoadPlan: with the LOAD_OP_LOAD path for own-pixel reads of
// write-only attachments (lavapipe, which lacks LOAD_OP_NONE; forced
// elsewhere), the bloom twin's plan is recorded with COLOR_ATTACHMENT_READ
// added to exactly the barriers that let bloom.down1..5 write the bloom
// image (one each), and nothing else changes; the up passes (read-write
// attachments, loaded anyway) and the other barriers keep the plan's
// scopes.
func TestOwnLoadPlan(t *testing.T) {
	g, err := Scale(readFrame(t, rangedFrame(t, "bloom-general")), 8)
	if err != nil {
		t.Fatal(err)
	}
	writeFirst(g)
	save := forceOwnLoad
	forceOwnLoad = true
	defer func() { forceOwnLoad = save }()
	r, plan := prepare(t, sharedDevice(t), g)
	got := r.ownLoadPlan(plan)
	if len(got.Barriers) != len(plan.Barriers) {
		t.Fatalf("%d barriers, want %d", len(got.Barriers), len(plan.Barriers))
	}
	widened := map[string]int{}
	for i, b := range got.Barriers {
		o := plan.Barriers[i]
		if b.DstAccess == o.DstAccess {
			continue
		}
		name := g.Commands[b.Before].Name
		if b.DstAccess != o.DstAccess|vk.AccessColorAttachmentRead || g.Resources[b.Resource].Name != "bloom" || o.DstAccess&vk.AccessColorAttachmentWrite == 0 {
			t.Errorf("barrier %d before %s on %s: destination access %v, the plan's %v", i, name, g.Resources[b.Resource].Name, b.DstAccess, o.DstAccess)
		}
		if b.SrcAccess != o.SrcAccess || b.SrcStages != o.SrcStages || b.DstStages != o.DstStages || b.OldLayout != o.OldLayout || b.NewLayout != o.NewLayout {
			t.Errorf("barrier %d before %s: more than its destination access changed", i, name)
		}
		widened[name]++
	}
	for _, c := range []string{"bloom.down1", "bloom.down2", "bloom.down3", "bloom.down4", "bloom.down5"} {
		if widened[c] != 1 {
			t.Errorf("%s: %d barriers given the load's read, want 1 (all: %v)", c, widened[c], widened)
		}
	}
	if len(widened) != 5 {
		t.Errorf("barriers given the load's read before %v, want bloom.down1..5 only", widened)
	}
}
