package proptest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
)

var updateFrames = flag.Bool("update", false, "rewrite testdata/frames/*.json and testdata/frames/summary.txt")

// frameStats are the figures issue 23 compares: DAG edges (the
// transitive reduction: the dependencies no path of others implies; the
// stored, reachability-equivalent set is larger where it is not a chain),
// ordered pairs of commands (happens-before), batches, and, where the
// frame can be planned, barriers.
func frameStats(t *testing.T, g *planner.Graph) (stored, edges, ordered, batches int, c *planner.Compiled) {
	t.Helper()
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	hb := func(a, b int) bool { return c.HappensBefore(planner.CommandID(a), planner.CommandID(b)) }
	for a := range g.Commands {
		stored += len(c.Successors(planner.CommandID(a)))
		for b := range g.Commands {
			if !hb(a, b) {
				continue
			}
			ordered++
			implied := false
			for m := a + 1; m < b && !implied; m++ {
				implied = hb(a, m) && hb(m, b)
			}
			if !implied {
				edges++
			}
		}
	}
	return stored, edges, ordered, c.NumBatches(), c
}

// TestRangeFrames: the subresource frames compile, read back from their
// files unchanged, and meet issue 23's targets: the cascades' and cube
// faces' commands are mutually unordered, each chain step depends on the
// one before, SSAO's depth read runs beside the decals' stencil write;
// no frame orders more pairs of commands or has more batches than its
// whole-image GENERAL twin, and the cascades, the cube faces and the
// depth/stencil pass order fewer pairs in fewer batches (the chains stay
// chains: their gain is per-mip barriers in optimal layouts). Edge counts
// are reported, not compared: four parallel cascades need as many
// edges as a chain of four. The
// summary (edges, ordered pairs, batches, barriers of the twins) is a
// golden file.
func TestRangeFrames(t *testing.T) {
	var sum strings.Builder
	fmt.Fprintf(&sum, "%-22s %7s %10s %8s %8s %9s %6s\n", "frame", "stored", "reduction", "ordered", "batches", "barriers", "calls")
	general := RangeFrames(true)
	for i, f := range RangeFrames(false) {
		gf := general[i]
		for _, nf := range []NamedFrame{f, gf} {
			var buf bytes.Buffer
			if err := format.WriteGraph(&buf, nf.Graph); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "frames", nf.Name+".json")
			if *updateFrames {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(data, buf.Bytes()) {
				t.Errorf("%s differs from the frame built in Go (go test -update)", path)
			}
			if _, err := format.ReadGraph(bytes.NewReader(data), path); err != nil {
				t.Fatal(err)
			}
		}
		st, e, o, nb, c := frameStats(t, f.Graph)
		gst, ge, gord, gnb, _ := frameStats(t, gf.Graph)
		if o > gord || nb > gnb {
			t.Errorf("%s: %d ordered pairs in %d batches, its GENERAL twin %d in %d: want no more", f.Name, o, nb, gord, gnb)
		}
		if strict := f.Name != "bloom" && f.Name != "depth-pyramid"; strict && (o >= gord || nb >= gnb) {
			t.Errorf("%s: %d ordered pairs in %d batches, its GENERAL twin %d in %d: want fewer", f.Name, o, nb, gord, gnb)
		}
		pl := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
		_, rp, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *f.Graph})
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		fmt.Fprintf(&sum, "%-22s %7d %10d %8d %8d %9d %6d\n", f.Name, st, e, o, nb, len(rp.Barriers), barrierCalls(rp))
		_, p, err := pl.PlanCompiled(&aliasplan.Graph{Graph: *gf.Graph})
		if err != nil {
			t.Fatalf("%s: %v", gf.Name, err)
		}
		fmt.Fprintf(&sum, "%-22s %7d %10d %8d %8d %9d %6d\n", gf.Name, gst, ge, gord, gnb, len(p.Barriers), barrierCalls(p))
		// Barriers: no more than the twin's, fewer for the cascades and
		// the cube faces (depth-stencil: as many, in fewer batches); the chains (bloom, depth pyramid) record as many
		// barrier calls, each with two per-mip transitions in optimal
		// layouts where the twin has one GENERAL-to-GENERAL barrier.
		if chain := f.Name == "bloom" || f.Name == "depth-pyramid"; chain && barrierCalls(rp) > barrierCalls(p) ||
			!chain && len(rp.Barriers) > len(p.Barriers) ||
			(f.Name == "cascades" || f.Name == "cubemap") && len(rp.Barriers) >= len(p.Barriers) {
			t.Errorf("%s: %d barriers in %d calls, its GENERAL twin %d in %d", f.Name, len(rp.Barriers), barrierCalls(rp), len(p.Barriers), barrierCalls(p))
		}
		checkFrameTargets(t, f, c)
		checkFrameBarriers(t, f, rp)
	}
	path := filepath.Join("testdata", "frames", "summary.txt")
	if *updateFrames {
		if err := os.WriteFile(path, []byte(sum.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(path); err != nil || string(want) != sum.String() {
		t.Errorf("%s differs (go test -update):\n%s", path, sum.String())
	}
	t.Log("\n" + sum.String())
}

func checkFrameTargets(t *testing.T, f NamedFrame, c *planner.Compiled) {
	t.Helper()
	g := f.Graph
	cmd := func(name string) planner.CommandID {
		id, ok := g.CommandByName(name)
		if !ok {
			t.Fatalf("%s: no command %s", f.Name, name)
		}
		return id
	}
	hb := func(a, b string) bool { return c.HappensBefore(cmd(a), cmd(b)) }
	unordered := func(names ...string) {
		for _, a := range names {
			for _, b := range names {
				if hb(a, b) {
					t.Errorf("%s: %s happens-before %s; want them unordered", f.Name, a, b)
				}
			}
		}
	}
	chain := func(names ...string) {
		for i := 1; i < len(names); i++ {
			if !hb(names[i-1], names[i]) {
				t.Errorf("%s: %s does not happen-before %s", f.Name, names[i-1], names[i])
			}
		}
	}
	switch f.Name {
	case "bloom":
		chain("scene", "bloom.down0", "bloom.down1", "bloom.down5", "bloom.up4", "bloom.up0", "tonemap")
	case "depth-pyramid":
		chain("prepass", "hiz0", "hiz1", "hiz9", "cull", "draw")
	case "cascades":
		unordered("cascade0", "cascade1", "cascade2", "cascade3")
		chain("cascade3", "lighting")
		r, _ := g.ResourceByName("shadow")
		if n := len(c.Initial(r)); n != 4 {
			t.Errorf("cascades: shadow has %d initial uses, want 4 (one per cascade)", n)
		}
	case "cubemap":
		unordered("env.face0", "env.face1", "env.face2", "env.face3", "env.face4", "env.face5")
		chain("env.face5", "convolve")
	case "depth-stencil":
		unordered("decals", "ssao")
		chain("decals", "outline")
		chain("ssao", "outline")
	}
}

// checkFrameBarriers: issue 23's barrier targets on a frame's plan. The
// cascades' four commands (mutually unordered) have no barrier between
// them: only the first one, in execution order, has one (the whole-image
// first-use transition, which the others' first accesses extend); so do
// the cube faces.
func checkFrameBarriers(t *testing.T, f NamedFrame, p *planner.Plan) {
	t.Helper()
	g := f.Graph
	noneBefore := func(res string, names ...string) {
		r, _ := g.ResourceByName(res)
		with := 0
		for _, name := range names {
			cmd, _ := g.CommandByName(name)
			for _, x := range p.Barriers {
				if x.Before == cmd && x.Resource == r {
					with++
					break
				}
			}
		}
		if with != 1 {
			t.Errorf("%s: %d of %v have barriers on %s before them, want 1 (the first-use transition)", f.Name, with, names, res)
		}
	}
	switch f.Name {
	case "cascades":
		noneBefore("shadow", "cascade0", "cascade1", "cascade2", "cascade3")
	case "cubemap":
		noneBefore("env", "env.face0", "env.face1", "env.face2", "env.face3", "env.face4", "env.face5")
	}
}

// barrierCalls counts the vkCmdPipelineBarrier2 calls a plan records.
func barrierCalls(p *planner.Plan) int {
	n := 0
	for k := range p.Barriers {
		if k == 0 || p.Barriers[k].Before != p.Barriers[k-1].Before || p.Barriers[k].Call != p.Barriers[k-1].Call {
			n++
		}
	}
	return n
}
