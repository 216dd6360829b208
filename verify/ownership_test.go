package verify_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// exclusivePlan plans the async sample frame with exclusive sharing.
func exclusivePlan(t *testing.T) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	c, p, err := aliasplan.New(aliasplan.Options{Sharing: planner.SharingExclusive}).PlanCompiled(aliasplan.AsyncSampleFrame(1920, 1080))
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

func wantOwnershipError(t *testing.T, name string, err error, want string) {
	t.Helper()
	var be *planner.BarrierError
	if !errors.As(err, &be) || be.Rule != planner.RuleOwnership || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want a %s error holding %q", name, err, planner.RuleOwnership, want)
	}
}

// TestOwnershipTampered: the async frame's exclusive plan has transfers
// (some on images) and verifies; each tamper (a transfer removed, one
// whose layouts mismatch, released too early, acquired too late, with a
// narrowed scope, from the wrong queue, an extra one, a transfer or an
// exclusive flag in a concurrent plan) fails with rule ownership.
func TestOwnershipTampered(t *testing.T) {
	c, p := exclusivePlan(t)
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	img := -1
	for k, tr := range p.Transfers {
		if c.Graph.Resources[tr.Resource].Kind == planner.KindImage && tr.OldLayout != vk.LayoutUndefined {
			img = k
			break
		}
	}
	if len(p.Transfers) < 2 || img < 0 {
		t.Fatalf("%d transfers (image transfer %d): the async frame should hand images over", len(p.Transfers), img)
	}
	tamper := func(name, want string, f func(q *planner.Plan)) {
		q := clone(p)
		q.Transfers = slices.Clone(p.Transfers)
		f(q)
		wantOwnershipError(t, name, verify.Plan(c, q), want)
	}
	for k := range p.Transfers {
		tamper("transfer removed", "" /* a missing hand-over or the next one mismatched */, func(q *planner.Plan) { q.Transfers = slices.Delete(q.Transfers, k, k+1) })
	}
	tamper("release layout mismatch", "layouts", func(q *planner.Plan) { q.Transfers[img].OldLayout = vk.LayoutGeneral })
	tamper("acquire layout mismatch", "layouts", func(q *planner.Plan) { q.Transfers[img].NewLayout = vk.LayoutTransferSrcOptimal })
	tamper("queues swapped", "the hand-over is from", func(q *planner.Plan) {
		q.Transfers[0].From, q.Transfers[0].To = q.Transfers[0].To, q.Transfers[0].From
	})
	tamper("acquired before another command", "acquired before", func(q *planner.Plan) { q.Transfers[0].Before = q.Transfers[0].After })
	tamper("released after another command", "released after", func(q *planner.Plan) { q.Transfers[0].After = q.Transfers[0].Before })
	tamper("release scope narrowed", "release scope", func(q *planner.Plan) { q.Transfers[0].SrcStages = vk.StageNone })
	tamper("acquire scope narrowed", "acquire scope", func(q *planner.Plan) { q.Transfers[0].DstAccess = 0; q.Transfers[0].DstStages = vk.StageNone })
	tamper("extra transfer", "belongs to no hand-over", func(q *planner.Plan) {
		q.Transfers = append(q.Transfers, q.Transfers[len(q.Transfers)-1])
	})
	tamper("concurrent plan with transfers", "ownership transfers in a plan with concurrent sharing", func(q *planner.Plan) { q.Sharing = planner.SharingConcurrent })
	tamper("exclusive flag in a concurrent plan", "exclusive in a plan with concurrent", func(q *planner.Plan) {
		q.Sharing, q.Transfers = planner.SharingConcurrent, nil
	})
	// The default plan has none.
	c2, p2 := asyncPlan(t)
	if len(p2.Transfers) != 0 || p2.Sharing != planner.SharingConcurrent {
		t.Errorf("concurrent plan: %d transfers, sharing %s", len(p2.Transfers), p2.Sharing)
	}
	for r := range p2.Resources {
		if p2.Resources[r].Exclusive {
			t.Errorf("concurrent plan: %s exclusive", c2.Graph.Resources[r].Name)
		}
	}
}

// TestOwnershipRandom: random graphs with queues plan with exclusive
// sharing and verify, some hand contents over, and each plan fails with
// any one of its transfers removed.
func TestOwnershipRandom(t *testing.T) {
	pl := aliasplan.New(aliasplan.Options{Sharing: planner.SharingExclusive})
	transfers, exclusive := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		g := proptest.RandomFrame(seed, 40)
		proptest.AssignQueues(g, seed)
		c, p, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := verify.Plan(c, p); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		transfers += len(p.Transfers)
		for k := range p.Transfers { // each transfer removed: the plan fails
			q := clone(p)
			q.Transfers = slices.Delete(slices.Clone(p.Transfers), k, k+1)
			var be *planner.BarrierError
			if err := verify.Plan(c, q); !errors.As(err, &be) || be.Rule != planner.RuleOwnership {
				t.Fatalf("seed %d, transfer %d removed: %v, want rule ownership", seed, k, err)
			}
		}
		for r := range p.Resources {
			if p.Resources[r].Exclusive {
				exclusive++
			}
		}
	}
	t.Logf("40 random graphs: %d transfers, %d exclusive resources", transfers, exclusive)
	if transfers == 0 || exclusive == 0 {
		t.Errorf("no transfers (%d) or no exclusive resources (%d)", transfers, exclusive)
	}
}
