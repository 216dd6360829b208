package format

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// TestOwnershipRoundTrip: a plan with exclusive sharing writes its
// sharing, transfers and exclusive flags, reads them back the same, and
// the plan read back verifies; an unknown sharing name is refused naming
// the file and the item.
func TestOwnershipRoundTrip(t *testing.T) {
	doc := graphDoc(fileBuf+`, {"name": "b2", "type": "buffer", "buffer": {"size": 256, "usage": ["STORAGE_BUFFER"]}}`,
		`{"name": "w", "accesses": [`+fileWrite+`]}, {"name": "r", "queue": "compute", "accesses": [`+fileRead+
			`, {"resource": "b2", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}]}, {"name": "g", "accesses": [{"resource": "b2", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_STORAGE_READ"]}]}`)
	g, err := ReadGraph(strings.NewReader(doc), "q.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), Sharing: planner.SharingExclusive})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if len(p.Transfers) != 2 {
		t.Fatalf("%d transfers, want 2 (b: graphics → compute, b2: compute → graphics)", len(p.Transfers))
	}
	var b bytes.Buffer
	if err := WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"sharing": "exclusive"`, `"transfers"`, `"exclusive": true`} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("written plan lacks %s:\n%s", want, b.String())
		}
	}
	q, err := ReadPlan(bytes.NewReader(b.Bytes()), "q.plan.json", g)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if q.Sharing != p.Sharing || !reflect.DeepEqual(q.Transfers, p.Transfers) {
		t.Fatalf("read back sharing %s, transfers %+v; want %s, %+v", q.Sharing, q.Transfers, p.Sharing, p.Transfers)
	}
	for r := range p.Resources {
		if p.Resources[r].Exclusive != q.Resources[r].Exclusive {
			t.Errorf("resource %d: exclusive %v read back as %v", r, p.Resources[r].Exclusive, q.Resources[r].Exclusive)
		}
	}
	if err := verify.Plan(c, q); err != nil {
		t.Fatalf("plan read back: %v", err)
	}
	bad := strings.Replace(b.String(), `"sharing": "exclusive"`, `"sharing": "exclusiv"`, 1)
	_, err = ReadPlan(strings.NewReader(bad), "q.plan.json", g)
	var ge *planner.GraphError
	if !errors.As(err, &ge) || ge.File != "q.plan.json" || !strings.Contains(err.Error(), "sharing") {
		t.Errorf("unknown sharing: %v, want an error naming q.plan.json and sharing", err)
	}
	// Concurrent plans write neither field.
	p2, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p2); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WritePlan(&b, g, p2); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"sharing"`) || strings.Contains(b.String(), `"transfers"`) || strings.Contains(b.String(), `"exclusive"`) {
		t.Errorf("concurrent plan writes ownership fields:\n%s", b.String())
	}
}
