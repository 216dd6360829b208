package bytemodel_test

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/bytemodel"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// modes are issue 18's four flag sets.
var modes = []string{"dag", "execution", "budget", "pool-prefers-dedicated"}

// planMode plans g under mode; the budget is halfway between the
// execution-order and the DAG-order pooled bytes (or the smallest
// reachable when that is out of reach).
func planMode(t testing.TB, g *aliasplan.Graph, mode string) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	var o aliasplan.Options
	switch mode {
	case "execution":
		o.Order = planner.OrderExecution
	case "pool-prefers-dedicated":
		o.PoolPrefersDedicated = true
	case "budget":
		pooled := func(o aliasplan.Options) uint64 {
			p, err := aliasplan.New(o).Plan(g)
			if err != nil {
				t.Fatalf("Plan (%v): %v", o.Order, err)
			}
			return p.Stats.PooledBytes
		}
		dag := pooled(o)
		o.Order, o.Budget = planner.OrderBudget, max(1, (dag+pooled(aliasplan.Options{Order: planner.OrderExecution}))/2)
	}
	c, p, err := aliasplan.New(o).PlanCompiled(g)
	var be *planner.BudgetError
	if errors.As(err, &be) {
		o.Budget = be.Reachable
		c, p, err = aliasplan.New(o).PlanCompiled(g)
	}
	if err != nil {
		t.Fatalf("Plan (%s): %v", mode, err)
	}
	return c, p
}

// checkClean fails t for every hazard the model finds in p.
func checkClean(t *testing.T, c *planner.Compiled, p *planner.Plan) {
	t.Helper()
	hs, err := bytemodel.Check(c, p, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		t.Errorf("%s", h.String(c.Graph))
	}
}

func readFrame(t testing.TB, path string) *aliasplan.Graph {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return &aliasplan.Graph{Graph: *g}
}

// corpus is what the byte model runs over: the property generator's
// graphs (RandomGraph and the replay's ReplayFrame), the sample frame and
// every frame of the test data (the held-out ones under heldout/).
func corpus(t *testing.T) ([]string, []*aliasplan.Graph) {
	var names []string
	var graphs []*aliasplan.Graph
	add := func(n string, g *aliasplan.Graph) { names, graphs = append(names, n), append(graphs, g) }
	for seed := uint64(1); seed <= 40; seed++ {
		add(fmt.Sprintf("random/seed=%d", seed), &aliasplan.Graph{Graph: *proptest.RandomGraph(seed, 10+int(seed*13%60))})
	}
	for seed := uint64(1); seed <= 20; seed++ {
		add(fmt.Sprintf("replayframe/seed=%d", seed), &aliasplan.Graph{Graph: *proptest.ReplayFrame(seed)})
	}
	add("frame/sample", aliasplan.SampleFrame(1920, 1080))
	for _, f := range datadir.Files(t, datadir.Frames) {
		add("frame/"+f.Test(), readFrame(t, f.Path))
	}
	return names, graphs
}

// maximalTerminal is what barriers.Build named as an old occupant's
// terminal scope before issue 18: its terminal uses that no other use of it
// follows in happens-before (the maximal ones), so a read ordered before a
// later read of the same resource only through another resource was left
// out.
func maximalTerminal(c *planner.Compiled, r planner.ResourceID) []planner.CommandID {
	term := c.Terminal(r)
	var out []planner.CommandID
	for _, a := range term {
		maximal := true
		for _, b := range term {
			if a != b && c.HappensBefore(a, b) {
				maximal = false
			}
		}
		if maximal {
			out = append(out, a)
		}
	}
	return out
}

// useOf returns r's use by cmd.
func useOf(c *planner.Compiled, r planner.ResourceID, cmd planner.CommandID) planner.Use {
	for _, u := range c.Uses(r) {
		if u.Command == cmd {
			return u
		}
	}
	panic("no use")
}

// clonePlan copies p deeply enough to edit its barriers.
func clonePlan(p *planner.Plan) *planner.Plan {
	q := *p
	q.Barriers = append([]planner.Barrier(nil), p.Barriers...)
	return &q
}

// oldSourceScopes rebuilds every alias barrier's source scope the old way:
// from the old occupants' maximal terminal uses only. It returns nil when
// that changes nothing.
func oldSourceScopes(c *planner.Compiled, p *planner.Plan) *planner.Plan {
	q := clonePlan(p)
	changed := false
	for i := range q.Barriers {
		b := &q.Barriers[i]
		if b.Kind != planner.Alias || len(b.Previous) == 0 || (b.Type == planner.ImageBarrier && b.Call == 1) {
			continue // call 1's source is call 0's destination stages
		}
		var st planner.Barrier
		for _, r := range b.Previous {
			for _, cmd := range maximalTerminal(c, r) {
				u := useOf(c, r, cmd)
				st.SrcStages |= u.Stages
				st.SrcAccess |= u.Access.Writes()
			}
		}
		if st.SrcStages != b.SrcStages || st.SrcAccess != b.SrcAccess {
			b.SrcStages, b.SrcAccess, changed = st.SrcStages, st.SrcAccess, true
		}
	}
	if !changed {
		return nil
	}
	return q
}

// foldImageAliases records every image alias barrier after writes the old
// way: the memory barrier of call 0 folded into the image barrier (its
// source stages and accesses on the image barrier, one call). nil when the
// plan has none.
func foldImageAliases(p *planner.Plan) *planner.Plan {
	q := clonePlan(p)
	var keep []planner.Barrier
	changed := false
	for i := range q.Barriers {
		b := q.Barriers[i]
		if b.Kind == planner.Alias && b.Type == planner.ImageBarrier && b.Call == 1 {
			for k := len(keep) - 1; k >= 0 && keep[k].Before == b.Before; k-- {
				m := keep[k]
				if m.Kind == planner.Alias && m.Type == planner.MemoryBarrier && m.Resource == b.Resource && m.Call == 0 {
					b.SrcStages |= m.SrcStages
					b.SrcAccess |= m.SrcAccess
					keep = append(keep[:k], keep[k+1:]...)
					break
				}
			}
			b.Call, changed = 0, true
		}
		keep = append(keep, b)
	}
	if !changed {
		return nil
	}
	q.Barriers = keep
	return q
}

// heavy are the frames TestByteModel models only with
// ALIASPLAN_BYTEMODEL_HEAVY=1: planning random-1000 six times takes 40 s
// under -tags invariants alone, minutes more under -race (make test).
var heavy = map[string]bool{"frame/heldout/random-1000": true}

// TestByteModel runs the byte model over the corpus under each of the four
// flag sets. Every plan the library returns is free of hazards. The same
// plans built the way barriers.Build did before issue 18 are flagged, and
// verify.Plan rejects every plan the model flags: alias source scopes
// from the maximal terminal uses only (a read left to an execution chain
// through another resource's barrier, the H200's
// SYNC-HAZARD-WRITE-AFTER-READ), and image alias barriers that fold an old
// occupant's writes into the image barrier.
func TestByteModel(t *testing.T) {
	names, graphs := corpus(t)
	all := os.Getenv("ALIASPLAN_BYTEMODEL_HEAVY") == "1"
	type tally struct{ built, flagged, war int }
	var scopes, folds tally
	for i, g := range graphs {
		t.Run(names[i], func(t *testing.T) {
			if heavy[names[i]] && !all {
				t.Skip("heavy frame: ALIASPLAN_BYTEMODEL_HEAVY=1 models it")
			}
			for _, mode := range modes {
				t.Run(mode, func(t *testing.T) {
					c, p := planMode(t, g, mode)
					checkClean(t, c, p)
					try := func(q *planner.Plan, n *tally, what string) {
						if q == nil {
							return
						}
						n.built++
						hs, err := bytemodel.Check(c, q, 0)
						if err != nil {
							t.Fatal(err)
						}
						if len(hs) == 0 {
							return
						}
						n.flagged++
						for _, h := range hs {
							if h.Kind == "WRITE_AFTER_READ" {
								n.war++
								break
							}
						}
						if err := verify.Plan(c, q); err == nil {
							t.Errorf("%s: the byte model flags %s, verify.Plan accepts it", what, hs[0].String(c.Graph))
						}
					}
					try(oldSourceScopes(c, p), &scopes, "old source scopes")
					try(foldImageAliases(p), &folds, "folded image alias")
				})
			}
		})
	}
	t.Logf("old source scopes: %d plans differ from the current ones, %d flagged (%d with a write-after-read)", scopes.built, scopes.flagged, scopes.war)
	t.Logf("folded image aliases: %d plans, %d flagged", folds.built, folds.flagged)
	if scopes.war == 0 {
		t.Errorf("no plan with old source scopes flagged for a write-after-read (%d built)", scopes.built)
	}
	// A folded plan passes where a memory barrier recorded between the
	// old occupant's write and the alias (another alias's, which reaches
	// every byte) already made the write available: then the fold is
	// valid. So not every folded plan is flagged.
	if folds.flagged == 0 {
		t.Errorf("folded image aliases: none of %d plans flagged", folds.built)
	}
}

// issuePattern is issue 18's H200 case in four commands: old occupant a is
// cleared (c0), read at COMPUTE_SHADER (c1) and at FRAGMENT_SHADER (c2), the compute read
// ordered before the fragment one only through x's hazard barrier; b then
// takes a's bytes (c3, after x's write-after-read barrier).
func issuePattern() *aliasplan.Graph {
	g := &planner.Graph{}
	req := &planner.Requirements{Size: 65536, Alignment: 256, MemoryTypeBits: 1}
	buf := func(name string) planner.ResourceID {
		r := g.AddBuffer(name, planner.BufferDesc{Size: 65536, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageTransferDst})
		g.Resources[r].Requirements = req
		return r
	}
	a, x, b := buf("a"), buf("x"), buf("b")
	// A clear: a's own hazard barriers (source CLEAR) then chain neither
	// read, so only x's barriers order c1 before c2.
	g.AddCommand("c0", planner.Access{Resource: a, Stages: vk.StageClear, Access: vk.AccessTransferWrite})
	g.AddCommand("c1", planner.Access{Resource: a, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("c2", planner.Access{Resource: a, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: x, Stages: vk.StageFragmentShader, Access: vk.AccessShaderStorageRead})
	g.AddCommand("c3", planner.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite},
		planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	return &aliasplan.Graph{Graph: *g}
}

// TestIssuePattern: the plan barriers.Build makes for issue 18's pattern
// passes the byte model; the same plan with the alias barrier's source
// narrowed to a's maximal terminal use (FRAGMENT_SHADER, the old code's)
// is flagged: c3's write of b after c1's compute read of a, the read's
// only chain running through x's buffer barriers, which do not reach a's
// bytes.
func TestIssuePattern(t *testing.T) {
	g := issuePattern()
	c, p := planMode(t, g, "dag")
	a, _ := g.ResourceByName("a")
	b, _ := g.ResourceByName("b")
	if pa, pb := p.Resources[a].Placement, p.Resources[b].Placement; p.Resources[b].Status != planner.StatusPooled || pa.Offset != pb.Offset || pa.Pool != pb.Pool {
		t.Fatalf("b does not take a's bytes: %+v %+v", pa, pb)
	}
	checkClean(t, c, p)
	old := oldSourceScopes(c, p)
	if old == nil {
		t.Fatal("the old source scope is the current one")
	}
	hs, err := bytemodel.Check(c, old, 0)
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := g.CommandByName("c1")
	c3, _ := g.CommandByName("c3")
	found := false
	for _, h := range hs {
		t.Logf("old way: %s", h.String(c.Graph))
		if h.Kind == "WRITE_AFTER_READ" && h.Resource == b && h.Command == c3 && h.PriorResource == a && h.PriorCommand == c1 {
			found = true
		}
	}
	if !found {
		t.Errorf("the model does not flag c3's write of b after c1's read of a (%d hazards)", len(hs))
	}
	if err := verify.Plan(c, old); err == nil {
		t.Errorf("verify.Plan accepts the old plan")
	}
}
