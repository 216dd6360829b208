package barriers_test

import (
	"errors"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// branches builds independent branches, one per name: a command that
// writes the buffer NAME and one that reads it, in that recorded order.
// The DAG orders no two branches.
func branches(names ...string) *frame {
	f := &frame{}
	for _, n := range names {
		r := f.buffer(n, 1024)
		f.cmd(n+".w", use(r, compute, ssw))
		f.cmd(n+".r", use(r, fragment, ssr))
	}
	return f
}

// serialize returns a setup that marks the plan as an execution-order
// plan serializing the given (first, second) pairs, with Last, Next and
// Bytes derived from the plan.
func serialize(pairs ...[2]string) func(*planner.Compiled, *planner.Plan) {
	return func(c *planner.Compiled, p *planner.Plan) {
		g := c.Graph
		id := func(name string) planner.ResourceID {
			for r := range g.Resources {
				if g.Resources[r].Name == name {
					return planner.ResourceID(r)
				}
			}
			panic("no resource " + name)
		}
		pos := make([]int, len(p.Order))
		for i, cmd := range p.Order {
			pos[cmd] = i
		}
		p.Ordering = planner.OrderExecution
		for _, pr := range pairs {
			a, b := id(pr[0]), id(pr[1])
			last := c.Uses(a)[0].Command
			for _, u := range c.Uses(a) {
				if pos[u.Command] > pos[last] {
					last = u.Command
				}
			}
			pa, pb := &p.Resources[a].Placement, &p.Resources[b].Placement
			shared := min(pa.Offset+pa.Size, pb.Offset+pb.Size) - max(pa.Offset, pb.Offset)
			p.Serializations = append(p.Serializations, planner.Serialization{First: a, Second: b, Last: last, Next: c.Initial(b)[0], Bytes: shared})
		}
		slices.SortFunc(p.Serializations, func(x, y planner.Serialization) int {
			if x.First != y.First {
				return int(x.First - y.First)
			}
			return int(x.Second - y.Second)
		})
	}
}

// TestExecutionOrderPlace: two branches the DAG leaves unordered share
// bytes under the execution order, the plan lists the serialization, and
// the alias barrier before the second branch's first use orders them.
func TestExecutionOrderPlace(t *testing.T) {
	f := branches("a", "b")
	c, err := planner.Compile(&f.g)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []planner.Ordering{planner.OrderDAG, planner.OrderExecution} {
		p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), Order: order})
		if err != nil {
			t.Fatal(err)
		}
		build(t, c, p)
		want := uint64(2048)
		if order == planner.OrderExecution {
			want = 1024
		}
		if p.Stats.PooledBytes != want || p.Stats.LowerBound != 2048 || p.Stats.ExecutionBound != 1024 || p.Ordering != order {
			t.Errorf("%s: pooled %d (want %d), bounds %d and %d, ordering %s", order, p.Stats.PooledBytes, want, p.Stats.LowerBound, p.Stats.ExecutionBound, p.Ordering)
		}
		if order == planner.OrderDAG {
			if len(p.Serializations) != 0 {
				t.Errorf("DAG order with serializations %v", p.Serializations)
			}
			continue
		}
		wantSer := []planner.Serialization{{First: 0, Second: 1, Last: 1, Next: 2, Bytes: 1024}}
		if !slices.Equal(p.Serializations, wantSer) {
			t.Errorf("serializations %v, want %v", p.Serializations, wantSer)
		}
		if got, want := describe(c.Graph, p), "b.w: alias memory b prev=a FRAGMENT_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE\nb.r: hazard buffer b COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ\n"; !strings.Contains(got, want) {
			t.Errorf("barriers:\n%s\nwant them to contain:\n%s", got, want)
		}
		// The dependency a.r → b.w orders a.w and a.r before b.w and b.r.
		if n := planner.OrderedPairs(c, p); n != 4 {
			t.Errorf("OrderedPairs = %d, want 4", n)
		}
	}
}

// TestVerifySerializations: Verify rejects every way a serialized pair
// can be wrong.
func TestVerifySerializations(t *testing.T) {
	good := func(t *testing.T) (*planner.Compiled, *planner.Plan) {
		f := branches("a", "b")
		c, p := placed(t, f, map[string]at{"a": {0, 0}, "b": {0, 512}}, serialize([2]string{"a", "b"}))
		build(t, c, p)
		return c, p
	}
	for _, tc := range []struct {
		name   string
		mutate func(c *planner.Compiled, p *planner.Plan)
		want   string
	}{
		{"unlisted", func(c *planner.Compiled, p *planner.Plan) {
			p.Serializations = nil
			p.Ordering = planner.OrderExecution
		}, "interfere but overlap"},
		{"dag ordering", func(c *planner.Compiled, p *planner.Plan) { p.Ordering = planner.OrderDAG }, "under the DAG order lists 1 serializations"},
		{"no alias barrier", func(c *planner.Compiled, p *planner.Plan) {
			p.Barriers = slices.DeleteFunc(p.Barriers, func(x planner.Barrier) bool { return x.Kind == planner.Alias })
		}, "missing alias barrier"},
		{"narrow source", func(c *planner.Compiled, p *planner.Plan) {
			for i := range p.Barriers {
				if p.Barriers[i].Kind == planner.Alias {
					p.Barriers[i].SrcStages = compute
				}
			}
		}, "do not include the old occupant's terminal scope"},
		{"interleaved", func(c *planner.Compiled, p *planner.Plan) {
			p.Order = []planner.CommandID{0, 2, 1, 3}
			if err := barriers.Build(c, p); err != nil {
				panic(err)
			}
		}, "interleave in execution order"},
		{"bytes", func(c *planner.Compiled, p *planner.Plan) { p.Serializations[0].Bytes = 1024 }, "share 512 bytes, not 1024"},
		{"last", func(c *planner.Compiled, p *planner.Plan) { p.Serializations[0].Last = 0 }, "last use in execution order"},
		{"next", func(c *planner.Compiled, p *planner.Plan) { p.Serializations[0].Next = 3 }, "initial use"},
		{"reversed", func(c *planner.Compiled, p *planner.Plan) {
			s := &p.Serializations[0]
			s.First, s.Second, s.Last, s.Next = s.Second, s.First, 3, 0
		}, "interleave"},
		{"duplicate", func(c *planner.Compiled, p *planner.Plan) {
			p.Serializations = append(p.Serializations, p.Serializations[0])
		}, "not ascending"},
		{"no shared bytes", func(c *planner.Compiled, p *planner.Plan) {
			p.Resources[1].Placement.Offset = 1024
			p.Resources[0].Placement.Aliased, p.Resources[1].Placement.Aliased = false, false
			p.Pools[0].Size, p.Stats.PooledBytes = 2048, 2048
		}, "share no bytes"},
		{"over budget", func(c *planner.Compiled, p *planner.Plan) { p.Ordering, p.Budget = planner.OrderBudget, 1024 }, "exceed the budget"},
		{"unknown command", func(c *planner.Compiled, p *planner.Plan) { p.Serializations[0].Last = 99 }, "not two commands"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, p := good(t)
			tc.mutate(c, p)
			err := verify.Plan(c, p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Verify: %v, want an error containing %q\n%s", err, tc.want, describe(c.Graph, p))
			}
		})
	}
}

// TestSerializedChain: three branches in the same bytes. c's alias
// barrier need not name a: b reuses all a's shared bytes, and b's own
// barrier orders a before b. Without b's barrier the chain breaks.
func TestSerializedChain(t *testing.T) {
	f := branches("a", "b", "c")
	where := map[string]at{"a": {0, 0}, "b": {0, 0}, "c": {0, 0}}
	c, p := placed(t, f, where, serialize([2]string{"a", "b"}, [2]string{"a", "c"}, [2]string{"b", "c"}))
	build(t, c, p)
	if got := describe(c.Graph, p); !strings.Contains(got, "c.w: alias memory c prev=b ") || !strings.Contains(got, "b.w: alias memory b prev=a ") {
		t.Errorf("barriers:\n%s", got)
	}
	p.Barriers = slices.DeleteFunc(p.Barriers, func(x planner.Barrier) bool {
		return x.Kind == planner.Alias && c.Graph.Resources[x.Resource].Name == "b"
	})
	var be *planner.BarrierError
	if err := verify.Plan(c, p); !errors.As(err, &be) || be.Rule != planner.RuleAliasBarrier {
		t.Errorf("Verify without b's alias barrier: %v", err)
	}
	// b covering only part of a's bytes: c's barrier names both.
	where["b"] = at{0, 512}
	c, p = placed(t, f, where, serialize([2]string{"a", "b"}, [2]string{"a", "c"}, [2]string{"b", "c"}))
	build(t, c, p)
	if got := describe(c.Graph, p); !strings.Contains(got, "c.w: alias memory c prev=a,b ") {
		t.Errorf("barriers:\n%s", got)
	}
}

// TestSerializedImages: an image serialized after another gets the old
// scope folded into its first-use transition out of UNDEFINED.
func TestSerializedImages(t *testing.T) {
	f := &frame{}
	a := f.image("a", vk.FormatR8G8B8A8Unorm, 4096)
	b := f.image("b", vk.FormatR8G8B8A8Unorm, 4096)
	f.cmd("a.w", useImage(a, color, caw, attachment))
	f.cmd("a.r", useImage(a, fragment, sampled, readOnly))
	f.cmd("b.w", useImage(b, compute, ssw, general))
	f.cmd("b.r", useImage(b, fragment, sampled, readOnly))
	c, err := planner.Compile(&f.g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), Order: planner.OrderExecution})
	if err != nil {
		t.Fatal(err)
	}
	build(t, c, p)
	if len(p.Serializations) != 1 {
		t.Fatalf("serializations %v", p.Serializations)
	}
	if got := describe(c.Graph, p); !strings.Contains(got, "b.w: alias image b prev=a FRAGMENT_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE UNDEFINED -> GENERAL") {
		t.Errorf("barriers:\n%s", got)
	}
}

// TestVerifyExecutionBound: an execution plan's executionBound must be
// its order's.
func TestVerifyExecutionBound(t *testing.T) {
	f := branches("a", "b", "c")
	c, err := planner.Compile(&f.g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), Order: planner.OrderExecution})
	if err != nil {
		t.Fatal(err)
	}
	build(t, c, p)
	p.Stats.ExecutionBound--
	if err := verify.Plan(c, p); err == nil || !strings.Contains(err.Error(), "executionBound is 1023") {
		t.Errorf("Verify with a wrong executionBound: %v", err)
	}
}

// TestImagesDoNotChainOldOccupants: three generations of images in the
// same bytes. c holds every byte of a that b reuses, but c's alias barrier
// is an image barrier: its access scope is c's subresources, which need
// not fill the bytes c is placed in, so b's barrier names a as well (with
// buffers, c's memory barrier chains a: TestSerializedChain). This is
// random-1000's r0722 (after r0682, through r0689) at 1/64 on lavapipe.
func TestImagesDoNotChainOldOccupants(t *testing.T) {
	f := &frame{}
	for _, n := range []string{"a", "c", "b"} {
		r := f.image(n, vk.FormatR8G8B8A8Unorm, 1024)
		f.cmd(n+".w", useImage(r, compute, ssw, general))
		f.cmd(n+".rw", useImage(r, compute, ssr|ssw, general))
	}
	where := map[string]at{"a": {0, 0}, "c": {0, 0}, "b": {0, 0}}
	c, p := placed(t, f, where, serialize([2]string{"a", "c"}, [2]string{"a", "b"}, [2]string{"c", "b"}))
	build(t, c, p)
	if got := describe(c.Graph, p); !strings.Contains(got, "b.w: alias image b prev=a,c COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE UNDEFINED -> GENERAL") {
		t.Errorf("barriers:\n%s", got)
	}
}
