// Command gentestdata writes the repository's test data (testdata/ at the
// module root): small members of each family of the held-out data set,
// made by the project's generators (package proptest, the root package's
// SampleFrame, and the frame families in frames.go), with a README per directory stating what each
// file is and its figures. Every test runs on these files; the held-out
// set (../shared/data), when present, is an extra run (internal/datadir).
//
//	go run ./scripts/gentestdata            # rewrites testdata/
//	go run ./scripts/gentestdata -dir /tmp/td
//
// The output is deterministic: running it again changes nothing unless a
// generator or the planner changed. Frames get explicit requirements (the
// H200 profile's estimates), so that they plan the same without a device.
// After regenerating, refresh the golden files that depend on the frames:
// go test ./barriers ./planner ./format -update.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

// frames are the repository's frames: name, family in the held-out set,
// and the generator.
var frames = []struct {
	name, like string
	gen        func() *planner.Graph
}{
	{"deferred-320x180", "deferred-1080p", func() *planner.Graph { return &aliasplan.SampleFrame(320, 180).Graph }},
	{"deferred-640x360", "deferred-4k", func() *planner.Graph { return &aliasplan.SampleFrame(640, 360).Graph }},
	{"forwardplus-320x180", "forwardplus-1080p", func() *planner.Graph { return forwardPlusFrame(320, 180) }},
	{"compute-16", "compute-1", func() *planner.Graph { return computeFrame(1, 16) }},
	{"compute-32", "compute-120", func() *planner.Graph { return computeFrame(2, 32) }},
	{"random-16", "random-200", func() *planner.Graph { return proptest.RandomFrame(1, 16) }},
	{"random-48", "random-1000", func() *planner.Graph { return proptest.RandomFrame(2, 48) }},
}

// Interval problems: perfect and slack tilings of time [0, 1024) × bytes
// [0, 65536), and ML-like traces.
const (
	slots    = 1024
	capacity = 65536
)

var problems = []struct {
	dir, name, like string
	gen             func() []planner.Item
}{
	{"perfect", fmt.Sprintf("perfect-1.%d", capacity), "perfect-1", func() []planner.Item { return proptest.PerfectTiling(1, 16, slots, capacity) }},
	{"perfect", fmt.Sprintf("perfect-2.%d", capacity), "perfect-2", func() []planner.Item { return proptest.PerfectTiling(2, 32, slots, capacity) }},
	{"perfect", fmt.Sprintf("perfect-3.%d", capacity), "perfect-3", func() []planner.Item { return proptest.PerfectTiling(3, 48, slots, capacity) }},
	{"perfect", fmt.Sprintf("perfect-4.%d", capacity), "perfect-1", func() []planner.Item { return proptest.PerfectTiling(4, 120, slots, capacity) }},
	{"slack", fmt.Sprintf("slack-1.%d", capacity), "slack-1", func() []planner.Item { return proptest.SlackTiling(1, 24, slots, capacity, 0.2) }},
	{"slack", fmt.Sprintf("slack-2.%d", capacity), "slack-2", func() []planner.Item { return proptest.SlackTiling(2, 40, slots, capacity, 0.2) }},
	{"slack", fmt.Sprintf("slack-3.%d", capacity), "slack-6", func() []planner.Item { return proptest.SlackTiling(3, 56, slots, capacity, 0.3) }},
	{"traces", "trace-1", "idealloc/iree/iree_first", func() []planner.Item { return proptest.Trace(1, 24) }},
	{"traces", "trace-2", "idealloc/somas/resnet50", func() []planner.Item { return proptest.Trace(2, 96) }},
}

func main() {
	dir := flag.String("dir", "testdata", "output directory (the module root's testdata/)")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gentestdata:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	var readme bytes.Buffer
	readme.WriteString(framesReadme)
	for _, f := range frames {
		g := f.gen()
		makeReplayable(g)
		if err := fillRequirements(g); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		var b bytes.Buffer
		if err := format.WriteGraph(&b, g); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		plan, err := aliasplan.New(aliasplan.Options{}).Plan(&aliasplan.Graph{Graph: *g})
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		st := plan.Stats
		fmt.Fprintf(&readme, "| %s.json | %s | %d | %d | %s | %s | %.3f |\n", f.name, f.like, len(g.Commands), len(g.Resources),
			commas(st.TransientBytes), commas(st.LowerBound), float64(st.PooledBytes)/float64(st.LowerBound))
		if err := write(filepath.Join(dir, "frames", f.name+".json"), b.Bytes()); err != nil {
			return err
		}
	}
	if err := write(filepath.Join(dir, "frames", "README.md"), readme.Bytes()); err != nil {
		return err
	}
	if err := writeQueueFrames(dir); err != nil { // queues.go
		return err
	}
	readmes := map[string]*bytes.Buffer{}
	for _, p := range problems {
		items := p.gen()
		var b bytes.Buffer
		b.WriteString("id,lower,upper,size\n")
		for i, it := range items {
			fmt.Fprintf(&b, "b%03d,%d,%d,%d\n", i, it.Start, it.End, it.Size)
		}
		if err := write(filepath.Join(dir, p.dir, p.name+".csv"), b.Bytes()); err != nil {
			return err
		}
		r := readmes[p.dir]
		if r == nil {
			r = bytes.NewBufferString(problemReadmes[p.dir])
			readmes[p.dir] = r
		}
		fmt.Fprintf(r, "| %s.csv | %s | %d | %s |\n", p.name, p.like, len(items), commas(maxLoad(items)))
	}
	for d, r := range readmes {
		if err := write(filepath.Join(dir, d, "README.md"), r.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// fillRequirements gives every resource that lacks them the H200
// profile's estimated requirements (imported ones need none).
func fillRequirements(g *planner.Graph) error {
	for i := range g.Resources {
		r := &g.Resources[i]
		if r.Imported || r.Requirements != nil {
			continue
		}
		req, err := planner.ProfileH200.Requirements(r)
		if err != nil {
			return err
		}
		r.Requirements = &req
	}
	return nil
}

// maxLoad is the max-load bound: the largest total size live at once.
func maxLoad(items []planner.Item) uint64 {
	var end int64
	for _, it := range items {
		end = max(end, it.End)
	}
	load := make([]uint64, end+1)
	for _, it := range items {
		load[it.Start] += it.Size
		load[it.End] -= it.Size
	}
	var best, cur uint64
	for _, d := range load {
		cur += d
		best = max(best, cur)
	}
	return best
}

// write writes data to path, creating its directory.
func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(data)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// commas writes n with thousands separators.
func commas(n uint64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

const framesReadme = `# Render-graph frames (graph files, SPEC §5): the repository's own

Written by ` + "`go run ./scripts/gentestdata`" + ` (do not edit): small members of the
families of the held-out frames (../shared/data/frames), for tests that must run
from a clean clone. deferred is aliasplan.SampleFrame, forwardplus and compute
are scripts/gentestdata/frames.go, random is proptest.RandomFrame. Requirements
are the H200 profile's estimates, written into the files.

"lower bound" is the planner's exact lower bound (default options); "pooled /
bound" is the default strategy's pooled bytes over it, as generated.

| file | like | commands | resources | transient bytes | lower bound | pooled / bound |
|---|---|---|---|---|---|---|
`

var problemReadmes = map[string]string{
	"perfect": `# Interval problems with a known optimum (MiniMalloc CSV): the repository's own

Written by ` + "`go run ./scripts/gentestdata`" + ` (proptest.PerfectTiling; do not edit).
Each file cuts time [0, 1024) × bytes [0, 65536) into rectangles by guillotine
cuts, one buffer each: the optimum peak is exactly the capacity in the file name,
which is also the max-load bound. Lifetimes are half-open [lower, upper).

| file | like | buffers | max load |
|---|---|---|---|
`,
	"slack": `# Interval problems with slack (MiniMalloc CSV): the repository's own

Written by ` + "`go run ./scripts/gentestdata`" + ` (proptest.SlackTiling; do not edit).
Perfect tilings of time [0, 1024) × bytes [0, 65536) with a fraction of the
rectangles removed: each fits in the capacity in its name; where the busiest
moment is below it, the optimum lies between the max load and the capacity.

| file | like | buffers | max load |
|---|---|---|---|
`,
	"traces": `# ML-like memory traces (MiniMalloc CSV): the repository's own

Written by ` + "`go run ./scripts/gentestdata`" + ` (proptest.Trace; do not edit). One
layer per time step: an activation read by the next one to three layers (now and
then a skip connection read much later) and a one-step workspace, as the
held-out idealloc traces (../shared/data/idealloc) are shaped.

| file | like | buffers | max load |
|---|---|---|---|
`,
}
