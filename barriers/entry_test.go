package barriers_test

import (
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// TestEntryBarrier: a fresh image first used by the first command and a
// buffer aliasing it later. FrameScopes, the entry barrier, the chained
// first-use transitions (the image's moves to call 1 of the first
// command, with its own stages as source) and Dependencies, which
// records the entry in the first command's call 0 and the transition in
// its call 1.
func TestEntryBarrier(t *testing.T) {
	var f frame
	img := f.image("img", vk.FormatR8G8B8A8Unorm, 4096)
	out := f.image("out", vk.FormatR8G8B8A8Unorm, 4096)
	f.cmd("draw", useImage(img, vk.StageColorAttachmentOutput, caw, attachment))
	f.cmd("light", useImage(img, vk.StageComputeShader, sampled, readOnly), useImage(out, vk.StageComputeShader, ssw, general))
	f.cmd("read", useImage(out, vk.StageComputeShader, ssr, general))
	c, p := placed(t, &f, map[string]at{"img": {0, 0}, "out": {0, 4096}})
	build(t, c, p)
	if n := barriers.ChainFirstUses(p); n != 2 {
		t.Fatalf("ChainFirstUses changed %d barriers; want 2 (both images' first transitions)", n)
	}
	first, last := barriers.FrameScopes(c, p)
	if first.Stages != vk.StageColorAttachmentOutput|vk.StageComputeShader || first.Access != caw|ssw {
		t.Fatalf("first %s / %s", first.Stages, first.Access)
	}
	if last.Stages != vk.StageComputeShader || last.Access != 0 {
		t.Fatalf("last %s / %s", last.Stages, last.Access)
	}
	x, ok := barriers.EntryBarrier(p, barriers.FullScope, first)
	if !ok {
		t.Fatal("no entry barrier")
	}
	p.Entry = []planner.Barrier{x}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	for _, b := range p.Barriers {
		if b.Type == planner.ImageBarrier && b.OldLayout == vk.LayoutUndefined && b.SrcStages&b.DstStages != b.DstStages {
			t.Errorf("transition of %s before %d: source %s lacks its own stages %s", f.g.Resources[b.Resource].Name, b.Before, b.SrcStages, b.DstStages)
		}
	}
	deps := barriers.Dependencies(&f.g, p)
	d0 := deps[0]
	if len(d0.Dependency.MemoryBarriers) != 1 || d0.Dependency.MemoryBarriers[0].DstStageMask != first.Stages ||
		d0.Dependency.MemoryBarriers[0].SrcStageMask != vk.StageAllCommands {
		t.Fatalf("first command's call 0: %+v; want the entry barrier", d0.Dependency)
	}
	if len(d0.Then.ImageMemoryBarriers) != 1 || d0.Then.ImageMemoryBarriers[0].Image != img {
		t.Fatalf("first command's call 1: %+v; want img's transition", d0.Then)
	}
	for _, d := range deps[1:] {
		for _, m := range d.Dependency.MemoryBarriers {
			if m.SrcStageMask == vk.StageAllCommands {
				t.Errorf("the entry barrier recorded before command %d too", d.Command)
			}
		}
	}
}
