package verify_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// asyncPlan plans the async sample frame; the plan passed verify.Plan.
func asyncPlan(t *testing.T) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	c, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(aliasplan.AsyncSampleFrame(1920, 1080))
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

// clone copies the parts of a plan the tampers change.
func clone(p *planner.Plan) *planner.Plan {
	q := *p
	q.Resources = slices.Clone(p.Resources)
	q.Barriers = slices.Clone(p.Barriers)
	q.Submissions = slices.Clone(p.Submissions)
	for i := range q.Submissions {
		s := &q.Submissions[i]
		s.Commands, s.Wait, s.Signal = slices.Clone(s.Commands), slices.Clone(s.Wait), slices.Clone(s.Signal)
	}
	return &q
}

// wantSubmissionError checks that err is a BarrierError of rule
// submission whose message holds want.
func wantSubmissionError(t *testing.T, name string, err error, want string) {
	t.Helper()
	var be *planner.BarrierError
	if !errors.As(err, &be) || be.Rule != planner.RuleSubmission || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want a %s error holding %q", name, err, planner.RuleSubmission, want)
	}
}

// dropSemaphore removes semaphore k (its signal and its wait) and
// renumbers the later ones.
func dropSemaphore(p *planner.Plan, k int) {
	fix := func(ops []planner.SemaphoreOp) []planner.SemaphoreOp {
		ops = slices.DeleteFunc(ops, func(op planner.SemaphoreOp) bool { return op.Semaphore == k })
		for i := range ops {
			if ops[i].Semaphore > k {
				ops[i].Semaphore--
			}
		}
		return ops
	}
	for i := range p.Submissions {
		p.Submissions[i].Wait, p.Submissions[i].Signal = fix(p.Submissions[i].Wait), fix(p.Submissions[i].Signal)
	}
	p.Semaphores--
}

// TestVerifyQueuesTampered: the async frame's plan verifies, and each
// tamper (a semaphore removed, a wait stage or a signal stage narrowed, a
// wait submitted before its signal, a command moved, a resource's queue
// set cleared, a transition that no longer chains after the wait) fails
// with rule submission.
func TestVerifyQueuesTampered(t *testing.T) {
	c, p := asyncPlan(t)
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	if p.Semaphores < 3 {
		t.Fatalf("%d semaphores", p.Semaphores)
	}
	for k := range p.Semaphores {
		q := clone(p)
		dropSemaphore(q, k)
		wantSubmissionError(t, "semaphore removed", verify.Plan(c, q), "no semaphore signalled after")
	}
	for i, s := range p.Submissions {
		for w := range s.Wait {
			q := clone(p)
			q.Submissions[i].Wait[w].Stages = vk.StageHost
			wantSubmissionError(t, "wait stage narrowed", verify.Plan(c, q), "wait mask holding")
		}
		for w := range s.Signal {
			q := clone(p)
			q.Submissions[i].Signal[w].Stages = vk.StageHost
			wantSubmissionError(t, "signal stage narrowed", verify.Plan(c, q), "signal mask holding")
		}
	}
	// A waiting submission moved before the one that signals its wait.
	for i, s := range p.Submissions {
		if len(s.Wait) == 0 {
			continue
		}
		q := clone(p)
		sub := q.Submissions[i]
		q.Submissions = slices.Insert(slices.Delete(q.Submissions, i, i+1), 0, sub)
		wantSubmissionError(t, "deadlock", verify.Plan(c, q), "deadlock")
		break
	}
	// A command moved into another queue's submission, or left out.
	q := clone(p)
	q.Submissions[1].Commands = append(q.Submissions[1].Commands, q.Submissions[0].Commands[0])
	q.Submissions[0].Commands = q.Submissions[0].Commands[1:]
	wantSubmissionError(t, "command moved", verify.Plan(c, q), "runs on graphics but is in submission 1 of compute")
	q = clone(p)
	q.Submissions[0].Commands = q.Submissions[0].Commands[1:]
	wantSubmissionError(t, "command left out", verify.Plan(c, q), "in no submission")
	// Sharing: a resource used on two queues whose queue set says one (it
	// would be created EXCLUSIVE without an ownership transfer).
	shared := -1
	for r := range p.Resources {
		if p.Resources[r].Queues.Concurrent() {
			shared = r
			break
		}
	}
	if shared < 0 {
		t.Fatal("no resource is shared between queues")
	}
	q = clone(p)
	q.Resources[shared].Queues = planner.QueueSet(0).Add(planner.QueueGraphics)
	wantSubmissionError(t, "sharing removed", verify.Plan(c, q), "but it is used on")
	// The transition of ssao.blurred before lighting (graphics) after its
	// write on compute: its source must meet the wait's stages.
	ssao, _ := c.Graph.ResourceByName("ssao.blurred")
	lighting, _ := c.Graph.CommandByName("lighting")
	k := slices.IndexFunc(p.Barriers, func(x planner.Barrier) bool { return x.Resource == ssao && x.Before == lighting })
	if k < 0 || p.Barriers[k].OldLayout == p.Barriers[k].NewLayout || p.Barriers[k].SrcStages&vk.StageComputeShader == 0 {
		t.Fatalf("no transition of ssao.blurred before lighting chaining after the wait: %+v", p.Barriers)
	}
	q = clone(p)
	q.Barriers[k].SrcStages = vk.StageFragmentShader
	wantSubmissionError(t, "transition not chained after the wait", verify.Plan(c, q), "that its image barrier")
}

// TestVerifyAliasAcrossQueues: buffer b reuses a's bytes; a's last use is
// on compute, b's first on graphics, after a dependency through x. The DAG
// edge needs the wait at FRAGMENT_SHADER (x), the alias at COMPUTE_SHADER
// (b): narrowing the wait to the first fails as an alias.
func TestVerifyAliasAcrossQueues(t *testing.T) {
	g := &planner.Graph{}
	buf := func(name string) planner.ResourceID {
		return g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 16},
			Requirements: &planner.Requirements{Size: 1 << 16, Alignment: 256, MemoryTypeBits: 1}})
	}
	a, x, b := buf("a"), buf("x"), buf("b")
	w := func(r planner.ResourceID, s vk.Stage) planner.Access {
		return planner.Access{Resource: r, Stages: s, Access: vk.AccessShaderStorageWrite}
	}
	rd := func(r planner.ResourceID, s vk.Stage) planner.Access {
		return planner.Access{Resource: r, Stages: s, Access: vk.AccessShaderStorageRead}
	}
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	g.AddCommandOn(planner.QueueCompute, "c1", w(a, cs))
	g.AddCommandOn(planner.QueueCompute, "c2", rd(a, cs), w(x, cs))
	g.AddCommandOn(planner.QueueGraphics, "g1", rd(x, fs), w(b, cs))
	g.AddCommandOn(planner.QueueGraphics, "g2", rd(b, fs))
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
	if pa, pb := p.Resources[a].Placement, p.Resources[b].Placement; pa.Pool != pb.Pool || pa.Offset != pb.Offset {
		t.Fatalf("a and b do not share bytes: %+v %+v", pa, pb)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	// No alias barrier on graphics for b: the semaphore orders it.
	for _, x := range p.Barriers {
		if x.Kind == planner.Alias {
			t.Errorf("alias barrier %+v: a buffer alias across queues needs none", x)
		}
	}
	var wait *planner.SemaphoreOp
	for i := range p.Submissions {
		if p.Submissions[i].Queue == planner.QueueGraphics && len(p.Submissions[i].Wait) > 0 {
			wait = &p.Submissions[i].Wait[0]
		}
	}
	if wait == nil || wait.Stages != fs|cs {
		t.Fatalf("graphics wait %+v, want FRAGMENT_SHADER|COMPUTE_SHADER", wait)
	}
	wait.Stages = fs
	wantSubmissionError(t, "alias wait stage narrowed", verify.Plan(c, p), `alias across queues after "a"`)
}

// TestSubmissionsThroughThirdQueue: graphics → transfer → compute already
// orders g before c2: no semaphore of its own from graphics to compute.
func TestSubmissionsThroughThirdQueue(t *testing.T) {
	g := &planner.Graph{}
	buf := func(name string) planner.ResourceID {
		return g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst},
			Requirements: &planner.Requirements{Size: 1 << 16, Alignment: 256, MemoryTypeBits: 1}})
	}
	a, b, d := buf("a"), buf("b"), buf("d")
	g.AddCommandOn(planner.QueueGraphics, "g", planner.Access{Resource: a, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite},
		planner.Access{Resource: d, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommandOn(planner.QueueTransfer, "t", planner.Access{Resource: a, Stages: vk.StageCopy, Access: vk.AccessTransferRead},
		planner.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
	g.AddCommandOn(planner.QueueCompute, "c1", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	g.AddCommandOn(planner.QueueCompute, "c2", planner.Access{Resource: d, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
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
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	if p.Semaphores != 2 {
		t.Errorf("%d semaphores, want 2 (g → t, t → c1; g → c2 through them): %+v", p.Semaphores, p.Submissions)
	}
	// Without the chain's first link, c2's dependency on g is uncovered.
	q := clone(p)
	dropSemaphore(q, 0)
	wantSubmissionError(t, "first link removed", verify.Plan(c, q), "no semaphore signalled after")
}

// TestVerifyImageAliasAcrossQueues: in the async frame, an image whose
// memory an old occupant on another queue used last starts from UNDEFINED
// with a barrier whose source stages meet the wait's mask; with its source
// moved off the wait's stages the plan fails.
func TestVerifyImageAliasAcrossQueues(t *testing.T) {
	c, p := asyncPlan(t)
	g := c.Graph
	found := 0
	for k, x := range p.Barriers {
		if x.Type != planner.ImageBarrier || x.OldLayout != vk.LayoutUndefined || p.Resources[x.Resource].Status != planner.StatusPooled {
			continue
		}
		// Old occupants of x.Resource whose terminal uses are all on another queue.
		cross := false
		for o := range p.Resources {
			po, pr := p.Resources[o].Placement, p.Resources[x.Resource].Placement
			if o == int(x.Resource) || p.Resources[o].Status != planner.StatusPooled || po.Pool != pr.Pool ||
				po.Offset >= pr.Offset+pr.Size || pr.Offset >= po.Offset+po.Size || !c.Before(planner.ResourceID(o), x.Resource) {
				continue
			}
			for _, t := range c.Terminal(planner.ResourceID(o)) {
				cross = cross || g.Commands[t].Queue != g.Commands[x.Before].Queue
			}
		}
		if !cross {
			continue
		}
		found++
		q := clone(p)
		q.Barriers[k].SrcStages = vk.StageHost
		err := verify.Plan(c, q)
		if err == nil {
			t.Errorf("%s's first-use barrier with source HOST verified", g.Resources[x.Resource].Name)
		}
	}
	if found == 0 {
		t.Fatal("the async frame has no image alias across queues")
	}
}
