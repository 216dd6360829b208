package replay

import (
	"errors"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
)

// TestUnsupportedAccessNamed: an access with no faithful replay is an
// *UnsupportedError naming the command, the resource and the access.
func TestUnsupportedAccessNamed(t *testing.T) {
	g := &p.Graph{}
	b := g.AddBuffer("buf", p.BufferDesc{Size: 256, Usage: p.BufferUsageStorageBuffer})
	g.AddCommand("host.read", p.Access{Resource: b, Stages: p.StageHost, Access: p.AccessHostRead})
	_, err := analyze(g, []p.CommandID{0})
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("got %v, want an *UnsupportedError", err)
	}
	if ue.Command != "host.read" || ue.Resource != "buf" || !strings.Contains(ue.Access, "HOST") {
		t.Errorf("error names %q %q %q", ue.Command, ue.Resource, ue.Access)
	}
}

// TestUnaliasedPlan: every pooled resource alone at offset 0, no alias
// barrier left, hazard barriers and order kept.
func TestUnaliasedPlan(t *testing.T) {
	plan := &p.Plan{
		Order: []p.CommandID{0, 1},
		Pools: []p.Pool{{Index: 0, Size: 300}},
		Resources: []p.ResourcePlan{
			{Status: p.StatusPooled, Placement: p.Placement{Pool: 0, Offset: 0, Size: 200, Aliased: true}},
			{Status: p.StatusPooled, Placement: p.Placement{Pool: 0, Offset: 100, Size: 200, Aliased: true}},
		},
		Barriers: []p.Barrier{
			{Before: 1, Kind: p.Alias, Type: p.MemoryBarrier, Resource: 1, Previous: []p.ResourceID{0}, SrcStages: p.StageComputeShader},
			{Before: 1, Kind: p.Alias, Type: p.ImageBarrier, Resource: 1, Previous: []p.ResourceID{0}, SrcStages: p.StageComputeShader, SrcAccess: p.AccessShaderStorageWrite},
			{Before: 1, Kind: p.Hazard, Type: p.BufferBarrier, Resource: 0, SrcStages: p.StageComputeShader},
		},
	}
	u := Unaliased(plan)
	if len(u.Pools) != 2 || u.Stats.PooledBytes != 400 {
		t.Fatalf("pools %+v, pooled %d; want 2 pools, 400 bytes", u.Pools, u.Stats.PooledBytes)
	}
	for i, rp := range u.Resources {
		if rp.Placement.Pool != i || rp.Placement.Offset != 0 || rp.Placement.Aliased {
			t.Errorf("resource %d placed %+v", i, rp.Placement)
		}
	}
	if len(u.Barriers) != 2 || u.Barriers[0].Kind != p.Hazard || u.Barriers[0].SrcStages != 0 || u.Barriers[0].Type != p.ImageBarrier || u.Barriers[1].Kind != p.Hazard || u.Barriers[1].Type != p.BufferBarrier {
		t.Errorf("barriers %+v", u.Barriers)
	}
	if plan.Resources[1].Placement.Offset != 100 || len(plan.Barriers) != 3 {
		t.Errorf("Unaliased changed its input")
	}
}

// TestScale keeps structure, divides extents and sizes, drops explicit
// requirements.
func TestScale(t *testing.T) {
	g := &p.Graph{}
	g.AddImage("img", p.ImageDesc{Format: p.FormatR8Unorm, Width: 1920, Height: 1080, Depth: 1, MipLevels: 11, ArrayLayers: 1, Samples: 1})
	b := g.AddBuffer("buf", p.BufferDesc{Size: 1000})
	g.Resources[b].Requirements = &p.Requirements{Size: 1000, Alignment: 256, MemoryTypeBits: 1}
	g.AddCommand("c", p.Access{Resource: b, Stages: p.StageClear, Access: p.AccessTransferWrite})
	s, err := Scale(g, 16)
	if err != nil {
		t.Fatal(err)
	}
	im := s.Resources[0].Image
	if im.Width != 120 || im.Height != 67 || im.MipLevels != 7 {
		t.Errorf("image %dx%d, %d levels; want 120x67, 7", im.Width, im.Height, im.MipLevels)
	}
	if s.Resources[1].Buffer.Size != 64 || s.Resources[1].Requirements != nil {
		t.Errorf("buffer %d bytes, requirements %v", s.Resources[1].Buffer.Size, s.Resources[1].Requirements)
	}
	if len(s.Commands) != 1 || g.Resources[0].Image.Width != 1920 {
		t.Errorf("structure changed or input modified")
	}
	if _, err := Scale(g, 0); err == nil {
		t.Errorf("scale 0 accepted")
	}
}
