package barriers_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/plans/*.txt, ../format/testdata/plans/*.plan.json)")

const (
	// goldenDir holds one drawing per frame of the repository's test data
	// (and per ordering of orderingFrame): FRAME.txt.
	goldenDir = "testdata/plans"
	// planFileDir holds the one plan file kept machine-readable, the
	// format's golden (and FuzzReadPlan's seed).
	planFileDir = "../format/testdata/plans"
	// planFileFrame is the frame whose plan file is kept.
	planFileFrame = "forwardplus-320x180"
	// orderingFrame is the frame planned under the three orderings.
	orderingFrame = "compute-16"
	// regenerate is what a golden failure tells the reader to run.
	regenerate = "go test ./barriers -run TestGolden -update, then review the diff (git diff barriers/testdata format/testdata)"
)

// planFrame runs the library's pipeline with its defaults: Compile, Place
// (first fit, 64 MiB dedicated threshold), Build, Verify.
func planFrame(t *testing.T, path string) (*planner.Graph, *planner.Compiled, *planner.Plan) {
	t.Helper()
	return planFrameOrdered(t, path, planner.OrderDAG, 0)
}

// planFrameOrdered is planFrame under an ordering (and budget).
func planFrameOrdered(t *testing.T, path string, order planner.Ordering, budget uint64) (*planner.Graph, *planner.Compiled, *planner.Plan) {
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
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Place(c, planner.Options{Strategy: firstfit.New(), DedicatedThreshold: planner.DefaultDedicatedThreshold, Order: order, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatal(err)
	}
	return g, c, p
}

// TestGoldenPlans plans every frame of the test data. For the repository's
// frames it compares a drawing of the plan (describePlan) with
// testdata/plans/FRAME.txt, and for planFrameFrame the plan file with
// ../format/testdata/plans/FRAME.plan.json; -update rewrites them. For
// every frame the plan file reads back to the same plan, which passes
// Verify again.
func TestGoldenPlans(t *testing.T) {
	want := map[string]bool{}
	for _, f := range datadir.Files(t, datadir.Frames) {
		if !f.HeldOut {
			want[f.Name+".txt"] = true
		}
		t.Run(f.Test(), func(t *testing.T) {
			g, c, p := planFrame(t, f.Path)
			b := roundTrip(t, g, c, p)
			if f.HeldOut {
				return
			}
			checkGolden(t, filepath.Join(goldenDir, f.Name+".txt"), []byte(describePlan(f.Name, g, c, p)))
			if f.Name == planFileFrame {
				checkGolden(t, filepath.Join(planFileDir, f.Name+".plan.json"), b)
			}
		})
	}
	for _, o := range []string{"execution", "budget"} {
		want[orderingFrame+"."+o+".txt"] = true
	}
	stale(t, goldenDir, ".txt", want)
	stale(t, planFileDir, ".plan.json", map[string]bool{planFileFrame + ".plan.json": true})
}

// TestGoldenOrderings plans orderingFrame under the execution order and
// under a budget halfway between the DAG and execution plans' pooled
// bytes, and compares their drawings with FRAME.execution.txt and
// FRAME.budget.txt.
func TestGoldenOrderings(t *testing.T) {
	path := datadir.Lookup(t, datadir.Frames, orderingFrame).Path
	_, _, dag := planFrame(t, path)
	g, c, exec := planFrameOrdered(t, path, planner.OrderExecution, 0)
	if len(exec.Serializations) == 0 || exec.Stats.PooledBytes >= dag.Stats.PooledBytes {
		t.Errorf("execution order: %d serializations, pooled %d against %d under the DAG order", len(exec.Serializations), exec.Stats.PooledBytes, dag.Stats.PooledBytes)
	}
	roundTrip(t, g, c, exec)
	checkGolden(t, filepath.Join(goldenDir, orderingFrame+".execution.txt"), []byte(describePlan(orderingFrame+" (execution order)", g, c, exec)))
	budget := (dag.Stats.PooledBytes + exec.Stats.PooledBytes) / 2
	g, c, bud := planFrameOrdered(t, path, planner.OrderBudget, budget)
	if bud.Stats.PooledBytes > budget || len(bud.Serializations) == 0 || len(bud.Serializations) >= len(exec.Serializations) {
		t.Errorf("budget %d: pooled %d with %d serializations (execution order: %d)", budget, bud.Stats.PooledBytes, len(bud.Serializations), len(exec.Serializations))
	}
	roundTrip(t, g, c, bud)
	checkGolden(t, filepath.Join(goldenDir, orderingFrame+".budget.txt"), []byte(describePlan(fmt.Sprintf("%s (budget %d)", orderingFrame, budget), g, c, bud)))
}

// roundTrip writes p's plan file, reads it back, checks that it reads to p
// and passes Verify, and returns the file.
func roundTrip(t *testing.T, g *planner.Graph, c *planner.Compiled, p *planner.Plan) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := format.WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	back, err := format.ReadPlan(bytes.NewReader(b.Bytes()), "plan.json", g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Error("the plan file does not read back to the plan")
	}
	if err := verify.Plan(c, back); err != nil {
		t.Error(err)
	}
	return b.Bytes()
}

// checkGolden compares got with the golden file, or rewrites it under
// -update.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v: to create it, run %s", err, regenerate)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the plan made now; if the change is intended, run %s\n%s", golden, regenerate, firstLineDiff(string(want), string(got)))
	}
}

// stale reports golden files in dir (ending in ext) that no test writes
// any more, or removes them under -update.
func stale(t *testing.T, dir, ext string, want map[string]bool) {
	t.Helper()
	if t.Failed() {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	for _, f := range files {
		if want[filepath.Base(f)] {
			continue
		}
		if *update {
			if err := os.Remove(f); err != nil {
				t.Error(err)
			}
			continue
		}
		t.Errorf("%s: no frame of the repository's test data has this golden file; run %s (which removes it)", f, regenerate)
	}
}

// firstLineDiff shows the first line where want and got differ.
func firstLineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  golden: %s\n  now:    %s", i+1, a, b)
		}
	}
	return ""
}

// letters name a pool's resources in its drawing, in order of offset
// then first use; a pool with more resources draws the rest as '*'.
const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// describePlan draws a plan for review: per pool, offsets down (one row
// per band between the offsets where a resource starts or ends) and
// commands across (one column per command, in execution order), each cell
// the letter of the resource that holds the band during that command ('.'
// when none does, '!' when two do: a broken plan); then the legend, the
// resources outside pools, the serializations and the barriers, one per
// line.
func describePlan(title string, g *planner.Graph, c *planner.Compiled, p *planner.Plan) string {
	var b strings.Builder
	st := p.Stats
	fmt.Fprintf(&b, "%s: %d commands, %d resources; strategy %s, ordering %s\n", title, len(g.Commands), len(g.Resources), p.Strategy, p.Ordering)
	fmt.Fprintf(&b, "transient %d, pooled %d, lower bound %d, execution bound %d, dedicated %d bytes\n",
		st.TransientBytes, st.PooledBytes, st.LowerBound, st.ExecutionBound, st.DedicatedBytes)
	pos := make([]int, len(g.Commands)) // execution position of each command
	for i, cmd := range p.Order {
		pos[cmd] = i
	}
	// span is a resource's first and last use, as execution positions.
	span := func(r planner.ResourceID) (int, int) {
		first, last := len(pos), -1
		for _, u := range c.Uses(r) {
			first, last = min(first, pos[u.Command]), max(last, pos[u.Command])
		}
		return first, last
	}
	name := func(r planner.ResourceID) string { return g.Resources[r].Name }
	cmdName := func(cmd planner.CommandID) string { return g.Commands[cmd].Name }
	for _, pool := range p.Pools {
		var rs []planner.ResourceID
		cuts := []uint64{0, pool.Size}
		for r, rp := range p.Resources {
			if rp.Status == planner.StatusPooled && rp.Placement.Pool == pool.Index {
				rs = append(rs, planner.ResourceID(r))
				cuts = append(cuts, rp.Placement.Offset, rp.Placement.Offset+rp.Placement.Size)
			}
		}
		slices.SortFunc(rs, func(x, y planner.ResourceID) int {
			px, py := p.Resources[x].Placement, p.Resources[y].Placement
			if px.Offset != py.Offset {
				return cmpU64(px.Offset, py.Offset)
			}
			fx, _ := span(x)
			fy, _ := span(y)
			return fx - fy
		})
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		letter := func(i int) byte {
			if i < len(letters) {
				return letters[i]
			}
			return '*'
		}
		fmt.Fprintf(&b, "\npool %d: memory type %d, %s, %d bytes, %d resources\n", pool.Index, pool.MemoryTypeIndex, pool.Class, pool.Size, len(rs))
		label := 0
		for k := 0; k+1 < len(cuts); k++ {
			label = max(label, len(fmt.Sprintf("[%d, %d)", cuts[k], cuts[k+1])))
		}
		for _, div := range []int{10, 1} { // the ruler: tens, then units
			ruler := []byte(strings.Repeat(" ", label+2))
			for x := range p.Order {
				if div == 10 && x%10 != 0 {
					ruler = append(ruler, ' ')
					continue
				}
				ruler = append(ruler, byte('0'+x/div%10))
			}
			b.Write(bytes.TrimRight(ruler, " "))
			b.WriteByte('\n')
		}
		for k := 0; k+1 < len(cuts); k++ {
			lo, hi := cuts[k], cuts[k+1]
			row := []byte(strings.Repeat(".", len(p.Order)))
			for i, r := range rs {
				pl := p.Resources[r].Placement
				if pl.Offset > lo || pl.Offset+pl.Size < hi {
					continue
				}
				first, last := span(r)
				for x := first; x <= last; x++ {
					if row[x] != '.' {
						row[x] = '!'
					} else {
						row[x] = letter(i)
					}
				}
			}
			fmt.Fprintf(&b, "%*s  %s\n", label, fmt.Sprintf("[%d, %d)", lo, hi), row)
		}
		for i, r := range rs {
			pl := p.Resources[r].Placement
			first, last := span(r)
			aliased := ""
			if pl.Aliased {
				aliased = ", aliased"
			}
			fmt.Fprintf(&b, "  %c %s [%d, %d) align %d, commands %d-%d%s\n", letter(i), name(r), pl.Offset, pl.Offset+pl.Size, pl.Alignment, first, last, aliased)
		}
	}
	b.WriteString("\nnot pooled:\n")
	for r, rp := range p.Resources {
		if rp.Status != planner.StatusPooled {
			fmt.Fprintf(&b, "  %s: %s", name(planner.ResourceID(r)), rp.Status)
			if rp.Reason != "" {
				fmt.Fprintf(&b, " (%s)", rp.Reason)
			}
			b.WriteByte('\n')
		}
	}
	if len(p.Serializations) > 0 {
		b.WriteString("\nserializations (first's last use before second's first use):\n")
		for _, s := range p.Serializations {
			fmt.Fprintf(&b, "  %s then %s: %s before %s, %d bytes shared\n", name(s.First), name(s.Second), cmdName(s.Last), cmdName(s.Next), s.Bytes)
		}
	}
	fmt.Fprintf(&b, "\nbarriers (%d), before the command at each execution position:\n", len(p.Barriers))
	for _, br := range p.Barriers {
		fmt.Fprintf(&b, "  %d %s: %s %s %s", pos[br.Before], cmdName(br.Before), br.Kind, br.Type, name(br.Resource))
		if len(br.Previous) > 0 {
			prev := make([]string, len(br.Previous))
			for i, r := range br.Previous {
				prev[i] = name(r)
			}
			fmt.Fprintf(&b, " after %s", strings.Join(prev, ","))
		}
		fmt.Fprintf(&b, "; %s %s -> %s %s", br.SrcStages, br.SrcAccess, br.DstStages, br.DstAccess)
		if br.Type == planner.ImageBarrier {
			fmt.Fprintf(&b, "; %s -> %s", br.OldLayout, br.NewLayout)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
