package aliasplan_test

import (
	"github.com/aliasplan/aliasplan/vk"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// cloneGraph deep-copies g, names included (as a renderer that formats
// them every frame would have them), so that reuse is recognised by
// content, not by pointer.
func cloneGraph(g *planner.Graph) *planner.Graph {
	out := &planner.Graph{Resources: append([]planner.Resource(nil), g.Resources...)}
	for i := range out.Resources {
		out.Resources[i].Name = strings.Clone(out.Resources[i].Name)
		if r := out.Resources[i].Requirements; r != nil {
			q := *r
			out.Resources[i].Requirements = &q
		}
	}
	for _, c := range g.Commands {
		out.Commands = append(out.Commands, planner.Command{Name: strings.Clone(c.Name), Accesses: append([]planner.Access(nil), c.Accesses...)})
	}
	return out
}

// TestReuse checks that an identical graph gets the remembered plan (the
// same pointer), and that a change to any part of the graph, names
// included, gets a fresh plan equal to what a Planner without reuse makes.
func TestReuse(t *testing.T) {
	base := proptest.RandomFrame(3, 60)
	fresh := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
	pl := aliasplan.New(aliasplan.Options{})
	first, err := pl.Plan(&aliasplan.Graph{Graph: *base})
	if err != nil {
		t.Fatal(err)
	}
	again, err := pl.Plan(&aliasplan.Graph{Graph: *cloneGraph(base)})
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Fatal("an identical graph was planned again")
	}
	edits := map[string]func(g *planner.Graph){
		"resource name": func(g *planner.Graph) { g.Resources[5].Name += "x" },
		"command name":  func(g *planner.Graph) { g.Commands[7].Name += "x" },
		"requirements":  func(g *planner.Graph) { g.Resources[2].Requirements.Size *= 2 },
		"requirements dropped": func(g *planner.Graph) {
			g.Resources[2].Requirements = nil
		},
		"descriptor": func(g *planner.Graph) { g.Resources[3].Buffer.Size++; g.Resources[3].Image.Width++ },
		"dedicated":  func(g *planner.Graph) { g.Resources[4].Dedicated = true },
		"access":     func(g *planner.Graph) { g.Commands[9].Accesses[0].Stages |= vk.StageTopOfPipe },
		"accesses": func(g *planner.Graph) {
			g.Commands[40].Accesses = append(g.Commands[40].Accesses, g.Commands[40].Accesses[0])
		},
		"extra command": func(g *planner.Graph) {
			g.AddCommand("extra", g.Commands[59].Accesses...)
		},
	}
	for name, edit := range edits {
		g := cloneGraph(base)
		edit(g)
		got, gotErr := pl.Plan(&aliasplan.Graph{Graph: *g})
		want, wantErr := fresh.Plan(&aliasplan.Graph{Graph: *g})
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s: reusing planner error %v, fresh planner error %v", name, gotErr, wantErr)
		}
		if gotErr != nil {
			continue
		}
		if got == first {
			t.Fatalf("%s: the changed graph got the remembered plan", name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the reusing planner's plan differs from a fresh planner's", name)
		}
	}
}

// TestReuseSurvivesGraphEdits checks that the remembered compiled graph
// does not follow the caller's graph when the caller rebuilds it in place.
func TestReuseSurvivesGraphEdits(t *testing.T) {
	pl := aliasplan.New(aliasplan.Options{})
	g := proptest.RandomFrame(4, 30)
	c1, p1, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatal(err)
	}
	want := cloneGraph(g)
	other := proptest.RandomFrame(5, 40)
	g.Reset()
	g.Resources = append(g.Resources, other.Resources...)
	g.Commands = append(g.Commands, other.Commands...)
	if _, _, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c1.Graph, want) {
		t.Fatal("the remembered compiled graph changed with the caller's graph")
	}
	c3, p3, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *cloneGraph(want)})
	if err != nil {
		t.Fatal(err)
	}
	if c3 != c1 || p3 != p1 {
		t.Fatal("the first graph was not reused")
	}
}

// TestReuseBounds checks the count and byte caps and Forget.
func TestReuseBounds(t *testing.T) {
	gs := []*planner.Graph{proptest.RandomFrame(6, 20), proptest.RandomFrame(7, 20), proptest.RandomFrame(8, 20)}
	pl := aliasplan.New(aliasplan.Options{Reuse: 2})
	var plans []*planner.Plan
	for _, g := range gs {
		p, err := pl.Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	if p, _ := pl.Plan(&aliasplan.Graph{Graph: *gs[2]}); p != plans[2] {
		t.Error("the most recent graph was not reused")
	}
	if p, _ := pl.Plan(&aliasplan.Graph{Graph: *gs[1]}); p != plans[1] {
		t.Error("the second most recent graph was not reused")
	}
	if p, _ := pl.Plan(&aliasplan.Graph{Graph: *gs[0]}); p == plans[0] {
		t.Error("a third graph was remembered with Reuse: 2")
	}
	pl.Forget()
	if p, _ := pl.Plan(&aliasplan.Graph{Graph: *gs[0]}); p == plans[0] {
		t.Error("a graph was reused after Forget")
	}
	tiny := aliasplan.New(aliasplan.Options{ReuseBytes: 1})
	p1, _ := tiny.Plan(&aliasplan.Graph{Graph: *gs[0]})
	if p2, _ := tiny.Plan(&aliasplan.Graph{Graph: *gs[0]}); p2 == p1 {
		t.Error("a graph larger than ReuseBytes was remembered")
	}
	off := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
	p1, _ = off.Plan(&aliasplan.Graph{Graph: *gs[0]})
	if p2, _ := off.Plan(&aliasplan.Graph{Graph: *gs[0]}); p2 == p1 {
		t.Error("NoReuse reused a plan")
	}
}

// TestReuseAllocatesNothing checks that a reused plan costs no allocation.
func TestReuseAllocatesNothing(t *testing.T) {
	pl := aliasplan.New(aliasplan.Options{})
	g := proptest.RandomFrame(9, 200)
	if _, err := pl.Plan(&aliasplan.Graph{Graph: *g}); err != nil {
		t.Fatal(err)
	}
	h := &aliasplan.Graph{Graph: *cloneGraph(g)}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := pl.Plan(h); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("a reused plan costs %v allocations", n)
	}
}

// TestReuseConcurrent plans a few graphs from several goroutines (run
// with -race): every plan equals the fresh one for its graph.
func TestReuseConcurrent(t *testing.T) {
	gs := []*planner.Graph{proptest.RandomFrame(10, 30), proptest.RandomFrame(11, 30), proptest.RandomFrame(12, 30)}
	fresh := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
	want := make([]*planner.Plan, len(gs))
	for i, g := range gs {
		var err error
		if want[i], err = fresh.Plan(&aliasplan.Graph{Graph: *g}); err != nil {
			t.Fatal(err)
		}
	}
	pl := aliasplan.New(aliasplan.Options{Reuse: 2})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 4 {
		wg.Go(func() {
			for k := range 12 {
				i := (w + k) % len(gs)
				p, err := pl.Plan(&aliasplan.Graph{Graph: *gs[i]})
				if err != nil || !reflect.DeepEqual(p, want[i]) {
					errs <- "a concurrent plan differs from the fresh one"
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestEqualGraphsFields guards the reuse check: it compares the fields of
// planner.Resource, planner.Command and planner.Access listed here, so a
// field added to one of them must be added to equalGraphs (aliasplan.go)
// and then here.
func TestEqualGraphsFields(t *testing.T) {
	known := map[reflect.Type][]string{
		reflect.TypeFor[planner.Resource](): {"Name", "Kind", "Buffer", "Image", "Imported", "Memory", "Dedicated", "Requirements"},
		reflect.TypeFor[planner.Command]():  {"Name", "Accesses", "Queue"},
		reflect.TypeFor[planner.Graph]():    {"Resources", "Commands"},
	}
	for typ, fields := range known {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !reflect.DeepEqual(got, fields) {
			t.Errorf("%v has fields %v; equalGraphs compares %v: update it", typ, got, fields)
		}
	}
	// Access, BufferDesc, ImageDesc and Requirements are compared with ==,
	// which covers every field as long as they stay comparable.
	for _, typ := range []reflect.Type{reflect.TypeFor[planner.Access](), reflect.TypeFor[planner.BufferDesc](),
		reflect.TypeFor[planner.ImageDesc](), reflect.TypeFor[planner.Requirements]()} {
		if !typ.Comparable() {
			t.Errorf("%v is not comparable: equalGraphs must compare it field by field", typ)
		}
	}
}
