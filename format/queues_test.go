package format

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

func TestReadGraphQueue(t *testing.T) {
	both := fileBuf + ", " + fileImg
	for _, tc := range []struct {
		doc, command, want string
		rule               planner.Rule
	}{
		{graphDoc(fileBuf, `{"name": "c0", "queue": "asynk", "accesses": [`+fileWrite+`]}`), "c0", `unknown queue "asynk"`, planner.RuleQueue},
		{graphDoc(fileBuf, `{"name": "c0", "queue": 1, "accesses": [`+fileWrite+`]}`), "c0", "want a string", planner.RuleField},
		{graphDoc(both, `{"name": "draw", "queue": "compute", "accesses": [`+fileImgOut+`]}`), "draw", "COLOR_ATTACHMENT_OUTPUT cannot run on the compute queue", planner.RuleQueue},
		{graphDoc(fileBuf, `{"name": "cs", "queue": "transfer", "accesses": [`+fileWrite+`]}`), "cs", "COMPUTE_SHADER cannot run on the transfer queue", planner.RuleQueue},
	} {
		_, err := ReadGraph(strings.NewReader(tc.doc), "q.json")
		var ge *planner.GraphError
		if !errors.As(err, &ge) {
			t.Fatalf("%s: error %v, want a *GraphError", tc.doc, err)
		}
		if ge.File != "q.json" || ge.Rule != tc.rule || ge.Command != tc.command || !strings.Contains(ge.Error(), tc.want) {
			t.Errorf("%s: %v (file %q, command %q, rule %s), want %q in command %q, rule %s", tc.doc, err, ge.File, ge.Command, ge.Rule, tc.want, tc.command, tc.rule)
		}
	}
}

// TestQueuesRoundTrip: a graph with queues writes and reads back the
// same, its plan's submissions and resource queue sets too, and the plan
// read back verifies.
func TestQueuesRoundTrip(t *testing.T) {
	doc := graphDoc(fileBuf+`, {"name": "b2", "type": "buffer", "buffer": {"size": 256, "usage": ["STORAGE_BUFFER"]}}`,
		`{"name": "w", "accesses": [`+fileWrite+`]}, {"name": "r", "queue": "compute", "accesses": [`+fileRead+
			`, {"resource": "b2", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}]}, {"name": "g", "accesses": [{"resource": "b2", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_STORAGE_READ"]}]}`)
	g, err := ReadGraph(strings.NewReader(doc), "q.json")
	if err != nil {
		t.Fatal(err)
	}
	if g.Commands[1].Queue != planner.QueueCompute || g.Commands[0].Queue != planner.QueueGraphics {
		t.Fatalf("queues read %s, %s", g.Commands[0].Queue, g.Commands[1].Queue)
	}
	var b bytes.Buffer
	if err := WriteGraph(&b, g); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"queue": "compute"`) || strings.Contains(b.String(), `"queue": "graphics"`) {
		t.Fatalf("written graph:\n%s", b.String())
	}
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if len(p.Submissions) != 3 || p.Semaphores != 2 {
		t.Fatalf("%d submissions, %d semaphores, want 3 and 2", len(p.Submissions), p.Semaphores)
	}
	b.Reset()
	if err := WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadPlan(bytes.NewReader(b.Bytes()), "q.plan.json", g)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(q.Submissions) != len(p.Submissions) || q.Semaphores != p.Semaphores {
		t.Fatalf("read back %d submissions, %d semaphores", len(q.Submissions), q.Semaphores)
	}
	for i := range p.Submissions {
		x, y := p.Submissions[i], q.Submissions[i]
		if x.Queue != y.Queue || len(x.Commands) != len(y.Commands) || len(x.Wait) != len(y.Wait) || len(x.Signal) != len(y.Signal) {
			t.Fatalf("submission %d: %+v read back as %+v", i, x, y)
		}
	}
	for r := range p.Resources {
		if p.Resources[r].Queues != q.Resources[r].Queues {
			t.Fatalf("resource %d: queues %s read back as %s", r, p.Resources[r].Queues, q.Resources[r].Queues)
		}
	}
	if err := verify.Plan(c, q); err != nil {
		t.Fatal(err)
	}
	// A plan file without its submissions fails check.
	bad := strings.Replace(b.String(), `"submissions"`, `"submissionz"`, 1)
	if _, err := ReadPlan(strings.NewReader(bad), "q.plan.json", g); err == nil {
		t.Fatal("unknown field accepted")
	}
	q.Submissions, q.Semaphores = nil, 0
	if err := verify.Plan(c, q); err == nil || !strings.Contains(err.Error(), "submission") {
		t.Fatalf("a plan without submissions verified: %v", err)
	}
}
