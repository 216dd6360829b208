package verify_test

import (
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
)

// TestResizedBounds: Resized takes the stats' bounds from the anchor
// rather than recomputing them, so it must reject a resized plan whose
// bounds are not the anchor's.
func TestResizedBounds(t *testing.T) {
	ag := aliasplan.SampleFrame(1920, 1080)
	ac, err := planner.Compile(&ag.Graph)
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse}).Plan(ag)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(ac, anchor); err != nil {
		t.Fatal(err)
	}
	g := aliasplan.SampleFrame(1536, 864)
	c, err := planner.Compile(&g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Resize(c, anchor, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Resized(c, p, ac, anchor); err != nil {
		t.Fatalf("resized plan: %v", err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatalf("resized plan under Plan: %v", err)
	}
	for _, bad := range []func(s *planner.Stats){
		func(s *planner.Stats) { s.LowerBound-- },
		func(s *planner.Stats) { s.ExecutionBound++ },
	} {
		q := *p
		bad(&q.Stats)
		err := verify.Resized(c, &q, ac, anchor)
		if err == nil || !strings.Contains(err.Error(), "not the anchor's") {
			t.Errorf("resized plan with stats %+v: %v; want the bounds rejected", q.Stats, err)
		}
	}
}
