package format

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// orderedSample is planSample as a budget plan with one serialization.
func orderedSample() (*planner.Graph, *planner.Plan) {
	g, p := planSample()
	p.Ordering, p.Budget = planner.OrderBudget, 1<<20
	p.Serializations = []planner.Serialization{{First: 0, Second: 1, Last: 1, Next: 1, Bytes: 65536}}
	p.Stats.ExecutionBound = 65536
	return g, p
}

// TestPlanOrderingRoundTrip: ordering, budget, serializations and the
// execution-order bound are written as SPEC §5 names them and read back.
func TestPlanOrderingRoundTrip(t *testing.T) {
	g, p := orderedSample()
	text := writePlanString(t, g, p)
	for _, want := range []string{
		`"ordering": "budget",`, `"budget": 1048576,`,
		`"serializations": [` + "\n" + `    {"first": "gbuffer.albedo", "second": "ssao", "last": "ssao \"quoted\"", "next": "ssao \"quoted\"", "bytes": 65536}` + "\n  ],",
		`"executionBound": 65536}`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("plan file lacks %s:\n%s", want, text)
		}
	}
	got, err := ReadPlan(strings.NewReader(text), "o.plan.json", g)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", got, p)
	}
	// An execution plan without serializations still writes the list.
	p.Ordering, p.Budget, p.Serializations = planner.OrderExecution, 0, nil
	text = writePlanString(t, g, p)
	if !strings.Contains(text, `"ordering": "execution",`) || !strings.Contains(text, `"serializations": [],`) || strings.Contains(text, `"budget"`) {
		t.Errorf("execution plan file:\n%s", text)
	}
	if got, err := ReadPlan(strings.NewReader(text), "o.plan.json", g); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("execution plan read back: %v\n%+v\nwant\n%+v", err, got, p)
	}
}

// TestPlanOrderingOldFiles: a file written before the ordering fields
// existed reads as a DAG-order plan without serializations.
func TestPlanOrderingOldFiles(t *testing.T) {
	g, p := planSample()
	text := writePlanString(t, g, p)
	old := strings.Replace(text, "  \"ordering\": \"dag\",\n", "", 1)
	old = strings.Replace(old, ", \"executionBound\": 0}", "}", 1)
	if old == text || strings.Contains(old, "ordering") || strings.Contains(old, "executionBound") {
		t.Fatalf("could not strip the new fields:\n%s", old)
	}
	got, err := ReadPlan(strings.NewReader(old), "old.plan.json", g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", got, p)
	}
}

func TestPlanOrderingErrors(t *testing.T) {
	g, p := orderedSample()
	text := writePlanString(t, g, p)
	for _, c := range []struct {
		old, new string
		rule     planner.Rule
		item     string
	}{
		{`"ordering": "budget"`, `"ordering": "fifo"`, planner.RuleUnknownName, "ordering"},
		{`"first": "gbuffer.albedo"`, `"first": "nope"`, planner.RuleUnknownResource, "serializations[0].first"},
		{`"next": "ssao \"quoted\""`, `"next": "nope"`, planner.RuleUnknownCommand, "serializations[0].next"},
		{`, "bytes": 65536}`, `}`, planner.RuleMissingField, "serializations[0].bytes"},
		{`"last": "ssao \"quoted\"", `, ``, planner.RuleMissingField, "serializations[0].last"},
		{`"bytes": 65536}`, `"bytes": 65536, "cost": 1}`, planner.RuleUnknownField, ""},
		{`"budget": 1048576`, `"budget": -1`, planner.RuleField, "budget"},
	} {
		bad := strings.Replace(text, c.old, c.new, 1)
		if bad == text {
			t.Fatalf("%q not in the plan file", c.old)
		}
		_, err := ReadPlan(strings.NewReader(bad), "bad.plan.json", g)
		var ge *planner.GraphError
		if !errors.As(err, &ge) || ge.Rule != c.rule || ge.Item != c.item || ge.File != "bad.plan.json" {
			t.Errorf("%s → %s: got %v, want rule %s at %q", c.old, c.new, err, c.rule, c.item)
		}
	}
}
