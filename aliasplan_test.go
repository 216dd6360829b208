package aliasplan_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
)

// frameFile is a frame of the test data by its test name
// ("deferred-320x180", "heldout/deferred-1080p": see internal/datadir).
func frameFile(tb testing.TB, name string) string {
	tb.Helper()
	return datadir.Lookup(tb, datadir.Frames, name).Path
}

func readGraph(t testing.TB, path string) *aliasplan.Graph {
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

// TestFrames plans every frame of the test data (the repository's, then
// the held-out set's) with the default options and checks the figures the
// frames READMEs state: the exact lower bound, and the default strategy
// within 5% of it.
func TestFrames(t *testing.T) {
	// Readers sharing one layout transition (SPEC §2, issue 18) order
	// less, so more pairs interfere: compute-1, compute-120, random-200 and
	// random-1000 have higher bounds than the frames README states
	// (397359360, 459114752, 1287731200, 6386554624 before).
	bounds := map[string]uint64{
		"deferred-320x180":          76956672, // testdata/frames/README.md
		"deferred-640x360":          81054720,
		"forwardplus-320x180":       2411008,
		"compute-16":                9902336,
		"compute-32":                22834944,
		"random-16":                 36203008,
		"random-48":                 96407040,
		"heldout/deferred-1080p":    162268416, // the held-out frames README
		"heldout/deferred-4k":       359631360,
		"heldout/forwardplus-1080p": 55050752,
		"heldout/compute-1":         408330752,
		"heldout/compute-120":       477925376,
		"heldout/random-200":        1361496832,
		"heldout/random-1000":       6873815296,
	}
	for _, f := range datadir.Files(t, datadir.Frames) {
		name := f.Test()
		t.Run(name, func(t *testing.T) {
			g := readGraph(t, f.Path)
			c, plan, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Plan(c, plan); err != nil {
				t.Fatal(err)
			}
			st := plan.Stats
			if want, ok := bounds[name]; !ok {
				t.Errorf("no lower bound listed for %s", name)
			} else if st.LowerBound != want {
				t.Errorf("lower bound %d, README says %d", st.LowerBound, want)
			}
			ratio := float64(st.PooledBytes) / float64(st.LowerBound)
			t.Logf("%s: transient %d pooled %d bound %d ratio %.4f pools %d barriers %d", name, st.TransientBytes, st.PooledBytes, st.LowerBound, ratio, len(plan.Pools), len(plan.Barriers))
			if ratio > 1.05 {
				t.Errorf("pooled/bound = %.4f, target <= 1.05", ratio)
			}
			if st.PooledBytes > st.TransientBytes {
				t.Errorf("pooled %d > transient %d", st.PooledBytes, st.TransientBytes)
			}
		})
	}
}

func TestSampleFrame(t *testing.T) {
	g := aliasplan.SampleFrame(1920, 1080)
	plan, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	count := map[planner.Status]int{}
	for _, rp := range plan.Resources {
		count[rp.Status]++
	}
	for _, s := range []planner.Status{planner.StatusPooled, planner.StatusImported, planner.StatusHostVisible, planner.StatusUnused} {
		if count[s] == 0 {
			t.Errorf("sample frame has no %s resource: it should show every path", s)
		}
	}
	if plan.Stats.PooledBytes >= plan.Stats.TransientBytes {
		t.Errorf("no saving: pooled %d, transient %d", plan.Stats.PooledBytes, plan.Stats.TransientBytes)
	}
	if plan.Requirements != "profile h200" {
		t.Errorf("requirements source %q, want the profile named", plan.Requirements)
	}
}

func Example() {
	// Build a frame: a compute pass writes a scratch buffer, a second pass
	// reads it and writes a result; a third reads the result. The scratch
	// buffer's memory can be reused for the result.
	g := &aliasplan.Graph{}
	scratch := g.AddBuffer("scratch", aliasplan.BufferDesc{Size: 1 << 20})
	result := g.AddBuffer("result", aliasplan.BufferDesc{Size: 1 << 20})
	out := g.AddBuffer("out", aliasplan.BufferDesc{Size: 1 << 20})
	write := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	read := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}
	}
	g.AddCommand("produce", write(scratch))
	g.AddCommand("transform", read(scratch), write(result))
	g.AddCommand("consume", read(result), write(out))

	plan, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for r, rp := range plan.Resources {
		fmt.Printf("%s: pool %d offset %d aliased %v\n", g.Resources[r].Name, rp.Placement.Pool, rp.Placement.Offset, rp.Placement.Aliased)
	}
	fmt.Printf("transient %d bytes, pooled %d, lower bound %d\n", plan.Stats.TransientBytes, plan.Stats.PooledBytes, plan.Stats.LowerBound)
	// Output:
	// scratch: pool 0 offset 0 aliased true
	// result: pool 0 offset 1048576 aliased false
	// out: pool 0 offset 0 aliased true
	// transient 3145728 bytes, pooled 2097152, lower bound 2097152
}

// TestPoolPrefersDedicated: a resource whose driver prefers a dedicated
// allocation gets one by default (SPEC §3) and is pooled — and aliased —
// only when the caller opts in; both plans verify.
func TestPoolPrefersDedicated(t *testing.T) {
	g := &aliasplan.Graph{}
	req := &aliasplan.Requirements{Size: 1 << 20, Alignment: 1 << 16, MemoryTypeBits: 0x3, PrefersDedicated: true}
	a := g.AddResource(aliasplan.Resource{Name: "a", Kind: aliasplan.KindBuffer, Buffer: aliasplan.BufferDesc{Size: 1 << 20}, Requirements: req})
	b := g.AddResource(aliasplan.Resource{Name: "b", Kind: aliasplan.KindBuffer, Buffer: aliasplan.BufferDesc{Size: 1 << 20}, Requirements: req})
	w := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
	}
	rd := func(r aliasplan.ResourceID) aliasplan.Access {
		return aliasplan.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead}
	}
	// c orders a's last read before b's first write.
	c := g.AddResource(aliasplan.Resource{Name: "c", Kind: aliasplan.KindBuffer, Buffer: aliasplan.BufferDesc{Size: 1 << 16},
		Requirements: &aliasplan.Requirements{Size: 1 << 16, Alignment: 1 << 16, MemoryTypeBits: 0x3}})
	g.AddCommand("wa", w(a))
	g.AddCommand("ra", rd(a), w(c))
	g.AddCommand("wb", rd(c), w(b))
	g.AddCommand("rb", rd(b))

	plan, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	if s := plan.Resources[a].Status; s != planner.StatusDedicated {
		t.Fatalf("default: status %s, want dedicated", s)
	}
	plan, err = aliasplan.New(aliasplan.Options{PoolPrefersDedicated: true}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []aliasplan.ResourceID{a, b} {
		if s := plan.Resources[r].Status; s != planner.StatusPooled {
			t.Fatalf("opted in: %s is %s, want pooled", g.Resources[r].Name, s)
		}
	}
	if plan.Stats.PooledBytes != 1<<20+1<<16 || !plan.Resources[b].Placement.Aliased {
		t.Fatalf("opted in: pooled %d bytes, b aliased %v; want a and b sharing 1 MiB beside c", plan.Stats.PooledBytes, plan.Resources[b].Placement.Aliased)
	}
}
