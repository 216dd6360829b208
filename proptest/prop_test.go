package proptest

import (
	"errors"
	"github.com/aliasplan/aliasplan/verify"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
	"github.com/aliasplan/aliasplan/strategies/exact"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// cases is the number of successful cases each property needs.
func cases() int {
	if s := os.Getenv("ALIASPLAN_PROPTEST_CASES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 2000
}

func parameters() *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(20261202)
	p.MinSuccessfulTests = cases()
	p.Workers = 1 // deterministic order of cases
	return p
}

func strategies() []planner.Strategy {
	return []planner.Strategy{firstfit.New(), bestfit.New(), exact.New(exact.Options{NodeLimit: 2000})}
}

// graphOK plans a random graph with one strategy and checks every
// plan-level property; it returns a reason on failure.
func graphOK(seed uint64, n int, s planner.Strategy, maxPool uint64) string {
	g := RandomGraph(seed, n)
	pl := aliasplan.New(aliasplan.Options{Strategy: s, MaxPoolSize: maxPool})
	c, plan, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		return "plan: " + err.Error()
	}
	if err := verify.Plan(c, plan); err != nil {
		return "verify: " + err.Error()
	}
	// Independent pairwise check: no two interfering pooled resources
	// share a byte; offsets aligned; inside their pool.
	for a := range plan.Resources {
		pa := &plan.Resources[a]
		if pa.Status != planner.StatusPooled {
			continue
		}
		x := pa.Placement
		if x.Offset%x.Alignment != 0 || x.Offset+x.Size > plan.Pools[x.Pool].Size {
			return "alignment or bounds: " + g.Resources[a].Name
		}
		if maxPool != 0 && plan.Pools[x.Pool].Size > maxPool {
			return "pool over the cap"
		}
		for b := a + 1; b < len(plan.Resources); b++ {
			pb := &plan.Resources[b]
			if pb.Status != planner.StatusPooled || pb.Placement.Pool != x.Pool {
				continue
			}
			y := pb.Placement
			if x.Offset < y.Offset+y.Size && y.Offset < x.Offset+x.Size && c.Interferes(planner.ResourceID(a), planner.ResourceID(b)) {
				return "overlap: " + g.Resources[a].Name + " " + g.Resources[b].Name
			}
		}
	}
	st := plan.Stats
	if st.PooledBytes < st.LowerBound {
		return "pooled below the lower bound"
	}
	if maxPool == 0 && st.PooledBytes > st.TransientBytes {
		return "pooled above the no-aliasing cost"
	}
	again, err := pl.Plan(&aliasplan.Graph{Graph: *RandomGraph(seed, n)})
	if err != nil || !reflect.DeepEqual(plan, again) {
		return "not deterministic"
	}
	return ""
}

func TestGraphPlans(t *testing.T) {
	props := gopter.NewProperties(parameters())
	for _, s := range strategies() {
		props.Property(s.Name()+": plans verify, are deterministic and lie between bound and cost", prop.ForAll(
			func(seed uint64, n int) string { return graphOK(seed, n, s, 0) },
			gen.UInt64(), gen.IntRange(1, 24),
		))
	}
	props.Property("firstfit: a small maximum pool size opens more pools, none over the cap", prop.ForAll(
		func(seed uint64, n int) string { return graphOK(seed, n, firstfit.New(), 1<<21) },
		gen.UInt64(), gen.IntRange(1, 24),
	))
	props.TestingRun(t)
}

func TestIntervalSolutions(t *testing.T) {
	props := gopter.NewProperties(parameters())
	for _, s := range strategies() {
		// The exact search is exponential: smaller problems keep its 2,000
		// cases fast while still exercising proofs and node limits.
		maxItems := 40
		if s.Name() == "exact" {
			maxItems = 14
		}
		props.Property(s.Name()+": interval solutions check, are deterministic and above the max load", prop.ForAll(
			func(seed uint64, n int) string {
				p, err := planner.NewIntervalProblem(RandomIntervals(seed, n), 0)
				if err != nil {
					return err.Error()
				}
				sol, err := s.Place(p)
				if err != nil {
					return err.Error()
				}
				if err := planner.CheckSolution(p, sol); err != nil {
					return err.Error()
				}
				if sol.Peak() < planner.LowerBound(p) {
					return "peak below the max load"
				}
				var sum uint64
				for _, it := range p.Items {
					sum += it.Size
				}
				if sol.Peak() > sum {
					return "peak above the no-aliasing cost"
				}
				again, err := s.Place(p)
				if err != nil || !reflect.DeepEqual(sol, again) {
					return "not deterministic"
				}
				return ""
			},
			gen.UInt64(), gen.IntRange(0, maxItems),
		))
	}
	props.TestingRun(t)
}

// TestVerifyCatchesFaults injects the faults Verify exists for: two
// interfering resources moved onto each other, and a missing alias barrier.
func TestVerifyCatchesFaults(t *testing.T) {
	props := gopter.NewProperties(parameters())
	props.Property("Verify rejects an injected overlap of interfering resources", prop.ForAll(
		func(seed uint64, n int) string {
			g := RandomGraph(seed, n)
			c, plan, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(&aliasplan.Graph{Graph: *g})
			if err != nil {
				return err.Error()
			}
			a, b, ok := interferingPooledPair(c, plan)
			if !ok {
				return "" // nothing to inject into
			}
			pa, pb := &plan.Resources[a].Placement, &plan.Resources[b].Placement
			pb.Pool = pa.Pool
			pb.Offset = pa.Offset &^ (pb.Alignment - 1)
			restoreBookkeeping(c, plan)
			var ov *planner.OverlapError
			if err := verify.Plan(c, plan); !errors.As(err, &ov) {
				return "Verify did not report the overlap: " + errString(err)
			}
			return ""
		},
		gen.UInt64(), gen.IntRange(2, 24),
	))
	props.Property("Verify rejects a plan missing an alias barrier", prop.ForAll(
		func(seed uint64, n int) string {
			g := RandomGraph(seed, n)
			c, plan, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(&aliasplan.Graph{Graph: *g})
			if err != nil {
				return err.Error()
			}
			for i, br := range plan.Barriers {
				if br.Kind == planner.Alias {
					plan.Barriers = append(plan.Barriers[:i:i], plan.Barriers[i+1:]...)
					if verify.Plan(c, plan) == nil {
						return "Verify accepted a plan without its alias barrier before " + g.Commands[br.Before].Name
					}
					return ""
				}
			}
			return ""
		},
		gen.UInt64(), gen.IntRange(2, 24),
	))
	props.TestingRun(t)
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// interferingPooledPair finds two interfering resources of one pool.
// Sizes are multiples of alignments, so moving the second down onto the
// first's aligned offset always overlaps.
func interferingPooledPair(c *planner.Compiled, plan *planner.Plan) (a, b planner.ResourceID, ok bool) {
	g := c.Graph
	for x := range plan.Resources {
		if plan.Resources[x].Status != planner.StatusPooled {
			continue
		}
		for y := range plan.Resources {
			if x == y || plan.Resources[y].Status != planner.StatusPooled || g.Resources[x].Class() != g.Resources[y].Class() {
				continue
			}
			px, py := plan.Resources[x].Placement, plan.Resources[y].Placement
			if px.Pool != py.Pool {
				continue
			}
			if c.Interferes(planner.ResourceID(x), planner.ResourceID(y)) {
				return planner.ResourceID(x), planner.ResourceID(y), true
			}
		}
	}
	return 0, 0, false
}

// restoreBookkeeping recomputes pool sizes, Aliased flags and stats after
// a placement was edited, so that only the injected rule is broken.
func restoreBookkeeping(c *planner.Compiled, plan *planner.Plan) {
	for i := range plan.Pools {
		plan.Pools[i].Size = 0
	}
	for r := range plan.Resources {
		if plan.Resources[r].Status == planner.StatusPooled {
			pl := &plan.Resources[r].Placement
			plan.Pools[pl.Pool].Size = max(plan.Pools[pl.Pool].Size, pl.Offset+pl.Size)
		}
	}
	plan.Stats.PooledBytes = 0
	for _, p := range plan.Pools {
		plan.Stats.PooledBytes += p.Size
	}
	for a := range plan.Resources {
		if plan.Resources[a].Status != planner.StatusPooled {
			continue
		}
		pa := &plan.Resources[a].Placement
		pa.Aliased = false
		for b := range plan.Resources {
			pb := plan.Resources[b].Placement
			if a != b && plan.Resources[b].Status == planner.StatusPooled && pb.Pool == pa.Pool &&
				pa.Offset < pb.Offset+pb.Size && pb.Offset < pa.Offset+pa.Size {
				pa.Aliased = true
			}
		}
	}
	plan.Barriers = nil
	_ = barriers.Build(c, plan)
}
