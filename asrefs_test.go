package aliasplan_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// asFrame is a bottom level built, a top level built over it, the top
// level traced into sink, and (when rebuild) the top level rebuilt over a
// second bottom level other before a second trace. sink has blas's size, so
// the plan would give it blas's memory if blas ended at the top-level
// build.
func asFrame(rebuild bool) (*aliasplan.Graph, map[string]planner.ResourceID) {
	g := &aliasplan.Graph{}
	as := aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageAccelerationStructureStorage}
	ids := map[string]planner.ResourceID{}
	ids["blas"] = g.AddBuffer("blas", as)
	ids["tlas"] = g.AddBuffer("tlas", as)
	ids["sink"] = g.AddBuffer("sink", aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc})
	build := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureWrite}
	}
	ref := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead}
	}
	trace := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: vk.StageRayTracingShader, Access: vk.AccessAccelerationStructureRead}
	}
	g.AddCommand("build.blas", build(ids["blas"]))
	g.AddCommand("build.tlas", ref(ids["blas"]), build(ids["tlas"]))
	g.AddCommand("trace", trace(ids["tlas"]), g.WriteBuffer(ids["sink"], vk.StageRayTracingShader))
	if rebuild {
		ids["other"] = g.AddBuffer("other", as)
		ids["sink2"] = g.AddBuffer("sink2", aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc})
		g.AddCommand("build.other", build(ids["other"]))
		g.AddCommand("rebuild.tlas", ref(ids["other"]), build(ids["tlas"]))
		g.AddCommand("trace2", trace(ids["tlas"]), g.WriteBuffer(ids["sink2"], vk.StageRayTracingShader))
		g.AddCommand("readback", g.TransferSrc(ids["sink"]), g.TransferSrc(ids["sink2"]))
	} else {
		g.AddCommand("readback", g.TransferSrc(ids["sink"]))
	}
	return g, ids
}

func sharesBytes(p *aliasplan.Plan, a, b planner.ResourceID) bool {
	x, y := p.Resources[a], p.Resources[b]
	if x.Status != planner.StatusPooled || y.Status != planner.StatusPooled || x.Placement.Pool != y.Placement.Pool {
		return false
	}
	return x.Placement.Offset < y.Placement.Offset+y.Placement.Size && y.Placement.Offset < x.Placement.Offset+x.Placement.Size
}

// TestImpliedASReads: a trace of a top level reads the bottom levels its
// build read (docs/decisions.md, "Implicit acceleration-structure
// reads"), so the trace's output never takes a bottom level's memory while
// the top level is in use, the use is marked Implied, and the alias
// barrier into a later occupant waits for the trace's stage. A rebuild of
// the top level over another bottom level ends the first one's references.
func TestImpliedASReads(t *testing.T) {
	for _, strategy := range []planner.Strategy{firstfit.New(), bestfit.New()} {
		t.Run(strategy.Name(), func(t *testing.T) {
			g, ids := asFrame(false)
			c, p, err := aliasplan.New(aliasplan.Options{Strategy: strategy}).PlanCompiled(g)
			if err != nil {
				t.Fatal(err)
			}
			if sharesBytes(p, ids["blas"], ids["sink"]) {
				t.Errorf("sink shares blas's memory while the trace reads blas through tlas")
			}
			var implied []string
			for _, u := range c.Uses(ids["blas"]) {
				if u.Implied {
					implied = append(implied, g.Commands[u.Command].Name)
					if u.Access != vk.AccessAccelerationStructureRead || u.Stages != vk.StageRayTracingShader {
						t.Errorf("implied use by %s is %s in %s, want ACCELERATION_STRUCTURE_READ in RAY_TRACING_SHADER", g.Commands[u.Command].Name, u.Access, u.Stages)
					}
				}
			}
			if len(implied) != 1 || implied[0] != "trace" {
				t.Errorf("blas's implied uses are by %v, want [trace]", implied)
			}
			for _, u := range c.Uses(ids["tlas"]) {
				if u.Implied {
					t.Errorf("tlas's use by %s is marked implied; it is declared", g.Commands[u.Command].Name)
				}
			}
		})
	}
	t.Run("rebuild", func(t *testing.T) {
		g, ids := asFrame(true)
		c, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(g)
		if err != nil {
			t.Fatal(err)
		}
		var blasBy, otherBy []string
		for _, u := range c.Uses(ids["blas"]) {
			blasBy = append(blasBy, g.Commands[u.Command].Name)
		}
		for _, u := range c.Uses(ids["other"]) {
			otherBy = append(otherBy, g.Commands[u.Command].Name)
		}
		if want := []string{"build.blas", "build.tlas", "trace"}; !slices.Equal(blasBy, want) {
			t.Errorf("blas used by %v, want %v (the rebuild over other ends blas's references)", blasBy, want)
		}
		if want := []string{"build.other", "rebuild.tlas", "trace2"}; !slices.Equal(otherBy, want) {
			t.Errorf("other used by %v, want %v", otherBy, want)
		}
		for _, pair := range [][2]string{{"blas", "sink"}, {"other", "sink2"}, {"blas", "other"}} {
			if sharesBytes(p, ids[pair[0]], ids[pair[1]]) {
				t.Errorf("%s shares %s's memory while a trace reads %s through tlas", pair[1], pair[0], pair[0])
			}
		}
	})
	t.Run("alias-barrier", func(t *testing.T) {
		// A transient after the trace that may take blas's memory: its
		// alias barrier must name the trace's stage as blas's last use.
		g, ids := asFrame(false)
		late := g.AddBuffer("late", aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc})
		g.AddCommand("late.write", g.ReadBuffer(ids["sink"], vk.StageComputeShader), g.WriteBuffer(late, vk.StageComputeShader))
		g.AddCommand("late.read", g.TransferSrc(late))
		_, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(g)
		if err != nil {
			t.Fatal(err)
		}
		if !sharesBytes(p, ids["blas"], late) {
			t.Skipf("late does not take blas's memory in this plan; nothing to check (pools: %+v)", p.Resources[late].Placement)
		}
		found := false
		for _, b := range p.Barriers {
			if b.Resource == late && b.Kind == planner.Alias && slices.Contains(b.Previous, ids["blas"]) {
				found = true
				if b.SrcStages&vk.StageRayTracingShader == 0 {
					t.Errorf("alias barrier blas → late waits for %s, not the trace's RAY_TRACING_SHADER", b.SrcStages)
				}
			}
		}
		if !found {
			t.Errorf("no alias barrier from blas into late")
		}
	})
}

// TestImpliedASReadsVerify: a plan that puts the trace's output in the
// bottom level's memory fails verify.Plan, and the error says why the two
// interfere (no declared access of the trace names blas).
func TestImpliedASReadsVerify(t *testing.T) {
	g, ids := asFrame(false)
	c, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(g)
	if err != nil {
		t.Fatal(err)
	}
	bad := *p
	bad.Resources = slices.Clone(p.Resources)
	bad.Resources[ids["sink"]].Placement = p.Resources[ids["blas"]].Placement
	bad.Resources[ids["sink"]].Placement.Aliased, bad.Resources[ids["blas"]].Placement.Aliased = true, true
	var oe *planner.OverlapError
	errs := verify.All(c, &bad, 10)
	if !slices.ContainsFunc(errs, func(err error) bool { return errors.As(err, &oe) }) {
		t.Fatalf("sink moved into blas's memory: verify says %v, want an overlap of interfering resources", errs)
	}
	if want := `"blas" is read through an acceleration structure that refers to it by "trace"`; !strings.Contains(oe.Error(), want) {
		t.Errorf("overlap error %q does not say %s", oe, want)
	}
}

// TestImportedStructureWarning: an imported top level built over a
// transient bottom level warns (a later frame's trace of it reads memory
// this plan reuses); with the bottom level imported too it does not.
func TestImportedStructureWarning(t *testing.T) {
	for _, importBLAS := range []bool{false, true} {
		g, ids := asFrame(false)
		g.Resources[ids["tlas"]].Imported = true
		g.Resources[ids["blas"]].Imported = importBLAS
		p, err := aliasplan.New(aliasplan.Options{}).Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range p.Warnings {
			if w.Rule == planner.RuleStructureRefs {
				got = append(got, w.String())
			}
		}
		switch {
		case importBLAS && len(got) != 0:
			t.Errorf("blas imported too: warnings %q, want none", got)
		case !importBLAS && (len(got) != 1 || !strings.Contains(got[0], `resource "tlas"`) || !strings.Contains(got[0], `"blas"`)):
			t.Errorf("tlas imported over a transient blas: warnings %q, want one on tlas naming blas", got)
		}
	}
}
