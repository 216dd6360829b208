package replay

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
)

// TestUnsupportedAccessNamed: an access with no faithful replay is an
// *UnsupportedError naming the command, the resource and the access.
func TestUnsupportedAccessNamed(t *testing.T) {
	g := &p.Graph{}
	b := g.AddBuffer("buf", p.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("host.read", p.Access{Resource: b, Stages: vk.StageHost, Access: vk.AccessHostRead})
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
// barrier left, the order kept, the hazard barriers rebuilt (the plan
// verifies).
func TestUnaliasedPlan(t *testing.T) {
	for _, image := range []bool{false, true} {
		g := aliasGraph(image)
		plan, err := aliasplan.New(aliasplan.Options{Source: p.ProfileH200}).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(plan.Barriers, func(b p.Barrier) bool { return b.Kind == p.Alias }) {
			t.Fatalf("image %v: the test frame does not alias", image)
		}
		u, err := Unaliased(g, plan)
		if err != nil {
			t.Fatal(err)
		}
		var pooled uint64
		for i, rp := range u.Resources {
			if rp.Status != p.StatusPooled {
				continue
			}
			pooled += rp.Placement.Size
			if rp.Placement.Offset != 0 || rp.Placement.Aliased || u.Pools[rp.Placement.Pool].Size != rp.Placement.Size {
				t.Errorf("resource %d placed %+v", i, rp.Placement)
			}
		}
		if u.Stats.PooledBytes != pooled || pooled != plan.Stats.TransientBytes {
			t.Errorf("pooled %d, sum %d, transient %d", u.Stats.PooledBytes, pooled, plan.Stats.TransientBytes)
		}
		if slices.ContainsFunc(u.Barriers, func(b p.Barrier) bool { return b.Kind == p.Alias }) {
			t.Errorf("alias barrier left: %+v", u.Barriers)
		}
		if !slices.Equal(u.Order, plan.Order) {
			t.Errorf("order changed")
		}
		if !slices.ContainsFunc(plan.Barriers, func(b p.Barrier) bool { return b.Kind == p.Alias }) {
			t.Errorf("Unaliased changed its input")
		}
	}
}

// TestScale keeps structure, divides extents and sizes, drops explicit
// requirements.
func TestScale(t *testing.T) {
	g := &p.Graph{}
	g.AddImage("img", p.ImageDesc{Format: vk.FormatR8Unorm, Width: 1920, Height: 1080, Depth: 1, MipLevels: 11, ArrayLayers: 1, Samples: 1})
	b := g.AddBuffer("buf", p.BufferDesc{Size: 1000})
	g.Resources[b].Requirements = &p.Requirements{Size: 1000, Alignment: 256, MemoryTypeBits: 1}
	g.AddCommand("c", p.Access{Resource: b, Stages: vk.StageClear, Access: vk.AccessTransferWrite})
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

func TestAnnotate(t *testing.T) {
	names := map[string]string{"0x2a": `buffer "b" (aliased)`}
	got := annotate("Hazard for VkBuffer 0x2a[] and 0x2a", names)
	if !strings.HasSuffix(got, ` [buffer "b" (aliased)]`) || strings.Count(got, "buffer \"b\"") != 1 {
		t.Errorf("annotate: %q", got)
	}
	if annotate("nothing 0x99", names) != "nothing 0x99" {
		t.Errorf("annotated a message naming no resource")
	}
}

// TestUnaliasedPlanEveryOrdering: the unaliased twin of an execution-order
// or budget plan is a plain DAG plan (no serializations, no budget), so
// that Verify accepts it although it pools more than the budget.
func TestUnaliasedPlanEveryOrdering(t *testing.T) {
	budgets := 0
	for seed := uint64(1); seed <= 40 && budgets < 3; seed++ {
		g := proptest.RandomGraph(seed, 40)
		plan := func(o aliasplan.Options) *p.Plan {
			o.Source = p.ProfileH200
			pl, err := aliasplan.New(o).Plan(&aliasplan.Graph{Graph: *g})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return pl
		}
		dag := plan(aliasplan.Options{})
		exe := plan(aliasplan.Options{Order: p.OrderExecution})
		plans := []*p.Plan{exe}
		if exe.Stats.PooledBytes < dag.Stats.PooledBytes {
			plans = append(plans, plan(aliasplan.Options{Order: p.OrderBudget, Budget: (dag.Stats.PooledBytes + exe.Stats.PooledBytes) / 2}))
			budgets++
		}
		for _, pl := range plans {
			u, err := Unaliased(g, pl)
			if err != nil {
				t.Fatalf("seed %d, %v order: %v", seed, pl.Ordering, err)
			}
			if u.Ordering != p.OrderDAG || u.Budget != 0 || len(u.Serializations) != 0 {
				t.Errorf("seed %d: twin of a %v plan: ordering %v, budget %d, %d serializations", seed, pl.Ordering, u.Ordering, u.Budget, len(u.Serializations))
			}
		}
	}
	if budgets == 0 {
		t.Fatal("no random graph gave a budget between the dag and execution plans")
	}
}
