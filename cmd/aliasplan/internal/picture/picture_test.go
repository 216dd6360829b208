package picture

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.svg golden files")

func planOf(t *testing.T, g *planner.Graph) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	c, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

// wellFormed parses doc as XML to the end.
func wellFormed(t *testing.T, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
}

// TestSampleGolden pins the picture of the embedded frame (first fit, H200
// profile) so that reviewers see every change to it. Regenerate with
// go test ./cmd/aliasplan/internal/picture -update.
func TestSampleGolden(t *testing.T) {
	c, p := planOf(t, &(aliasplan.SampleFrame(1920, 1080)).Graph)
	var b bytes.Buffer
	if err := SVG(&b, c, p, Options{Title: "aliasplan: embedded sample frame 1920x1080"}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	golden := filepath.Join("testdata", "sample.svg")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("SVG differs from %s; run with -update and review the diff", golden)
	}
	// What the picture must show.
	svg := b.String()
	for _, s := range []string{
		"pool 0 · linear", "pool 1 · optimal", // a panel per pool
		"<title>gbuffer.albedo\n", // every pooled resource, with details
		"first use #6 gbuffer", "status pooled",
		"alias barrier (image) before",                        // alias barriers
		"lower bound ",                                        // the bound line
		"without aliasing ",                                   // legend
		"host_visible", "exposure.readback", "debug.overdraw", // the side table
		"requirements: profile h200 (estimates)",
	} {
		if !strings.Contains(svg, s) {
			t.Errorf("SVG lacks %q", s)
		}
	}
	// Every pooled resource has a rectangle.
	for r, rp := range p.Resources {
		if rp.Status == planner.StatusPooled && !strings.Contains(svg, "<title>"+c.Graph.Resources[r].Name+"\n") {
			t.Errorf("no rectangle for %s", c.Graph.Resources[r].Name)
		}
	}
}

func TestHTMLSelfContained(t *testing.T) {
	c, p := planOf(t, &(aliasplan.SampleFrame(1920, 1080)).Graph)
	var b bytes.Buffer
	if err := HTML(&b, c, p, Options{Title: "a <frame> & more </script>"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || strings.Count(page, "<script") != 2 || strings.Count(page, "</script>") != 2 {
		t.Fatalf("not a page with its data and one script:\n%.300s", page)
	}
	if !strings.Contains(page, "<title>a &lt;frame&gt; &amp; more &lt;/script&gt;</title>") {
		t.Errorf("title not escaped")
	}
	// Nothing is fetched: no src or href attributes, no url() or @import,
	// no URL at all.
	for _, re := range []string{`\ssrc=`, `\shref=`, `url\(`, `@import`, `https?:`, `fetch\(`, `XMLHttpRequest`} {
		if regexp.MustCompile(re).MatchString(page) {
			t.Errorf("page matches %s: it might fetch something", re)
		}
	}
	// The data is JSON, embedded once, and describes every resource and
	// command.
	const open = `<script type="application/json" id="data">`
	i := strings.Index(page, open)
	j := strings.Index(page[i:], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no data")
	}
	var d pageData
	if err := json.Unmarshal([]byte(page[i+len(open):i+j]), &d); err != nil {
		t.Fatalf("data: %v", err)
	}
	if len(d.Res) != len(c.Graph.Resources) || len(d.Cmds) != len(c.Graph.Commands) || len(d.Plans) != 1 ||
		len(d.Plans[0].RPlan) != 9*len(p.Resources) || len(d.Plans[0].Bar) != 11*len(p.Barriers) ||
		len(d.UseStart) != len(d.Res)+1 || len(d.Uses) != 5*d.UseStart[len(d.Res)] || d.Title != "a <frame> & more </script>" {
		t.Errorf("data does not match the plan: %v", &d)
	}
	if d.Plans[0].Ser != nil {
		t.Errorf("serializations in a DAG-ordered plan: %v", d.Plans[0].Ser)
	}
}

// TestPageData checks the compact records against the plan they encode.
func TestPageData(t *testing.T) {
	c, p := planOf(t, &(aliasplan.SampleFrame(1920, 1080)).Graph)
	d, err := newPageData(c, []*planner.Plan{p, p}, []string{"", "again"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Plans[0].Name != "firstfit" || d.Plans[1].Name != "again" {
		t.Errorf("names %q, %q", d.Plans[0].Name, d.Plans[1].Name)
	}
	pd := d.Plans[0]
	for r, rp := range p.Resources {
		rec := pd.RPlan[9*r : 9*r+9]
		if rec[0] != int64(rp.Status) || rec[2] != int64(rp.Requirements.Size) {
			t.Errorf("%s: record %v", c.Graph.Resources[r].Name, rec)
		}
		if rp.Status == planner.StatusPooled && (rec[6] != int64(rp.Placement.Pool) || rec[7] != int64(rp.Placement.Offset)) {
			t.Errorf("%s: placement %v, want pool %d offset %d", c.Graph.Resources[r].Name, rec, rp.Placement.Pool, rp.Placement.Offset)
		}
		if rp.Status != planner.StatusPooled && rec[6] != -1 {
			t.Errorf("%s: not pooled but pool %d", c.Graph.Resources[r].Name, rec[6])
		}
		if (rp.Reason == "") != (rec[1] == -1) || (rec[1] >= 0 && d.Strs[rec[1]] != rp.Reason) {
			t.Errorf("%s: reason %d, want %q", c.Graph.Resources[r].Name, rec[1], rp.Reason)
		}
	}
	for i, br := range p.Barriers {
		rec := pd.Bar[11*i : 11*i+11]
		if rec[0] != int(br.Before) || rec[1] != int(br.Kind) || rec[3] != int(br.Resource) || d.Strs[rec[4]] != br.SrcStages.String() ||
			pd.Prev[rec[10]] != len(br.Previous) {
			t.Errorf("barrier %d: record %v", i, rec)
		}
	}
	var bound uint64
	for _, g := range pd.Groups {
		bound += g.Bound
	}
	if bound != p.Stats.LowerBound {
		t.Errorf("groups' bounds sum to %d, plan's lower bound %d", bound, p.Stats.LowerBound)
	}
	cats := map[int]bool{}
	for r := range d.Res {
		cats[d.RInfo[4*r+1]] = true
	}
	for _, want := range []int{catColour, catDepth, catStorageImage} {
		if !cats[want] {
			t.Errorf("no resource of category %s in the sample", catNames[want])
		}
	}
}

// chainFrame is n commands; command i writes resource i and reads a few
// earlier ones, so lifetimes vary and many resources alias.
func chainFrame(n int) *planner.Graph {
	g := &planner.Graph{}
	for i := 0; i < n; i++ {
		w := uint32(256 << (i % 4))
		g.AddImage(fmt.Sprintf("pass%03d.out", i), planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
			Width: w, Height: w / 2, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Tiling: vk.TilingOptimal, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
	}
	for i := 0; i < n; i++ {
		acc := []planner.Access{{Resource: planner.ResourceID(i), Stages: vk.StageComputeShader,
			Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}}
		for _, back := range []int{1, 2 + i%5, 3 + (i*7)%17} {
			if j := i - back; j >= 0 {
				acc = append(acc, planner.Access{Resource: planner.ResourceID(j), Stages: vk.StageComputeShader,
					Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
			}
		}
		// A resource read twice in one command keeps one layout.
		seen := map[planner.ResourceID]bool{}
		var uniq []planner.Access
		for _, a := range acc {
			if !seen[a.Resource] {
				seen[a.Resource] = true
				uniq = append(uniq, a)
			}
		}
		g.AddCommand(fmt.Sprintf("pass%03d", i), uniq...)
	}
	return g
}

var svgSize = regexp.MustCompile(`<svg [^>]*width="(\d+)" height="(\d+)"`)

func dimensions(t *testing.T, svg []byte) (w, h int) {
	t.Helper()
	m := svgSize.FindSubmatch(svg)
	if m == nil {
		t.Fatal("no width and height")
	}
	fmt.Sscan(string(m[1]), &w)
	fmt.Sscan(string(m[2]), &h)
	return w, h
}

// Test300Commands: a 300-command frame stays readable and bounded:
// columns of at least 3 px, a plot no wider than the budget, a picture
// that fits a screen or two, and a file of modest size.
func Test300Commands(t *testing.T) {
	c, p := planOf(t, chainFrame(300))
	var b bytes.Buffer
	if err := SVG(&b, c, p, Options{}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	w, h := dimensions(t, b.Bytes())
	if w > 1400 || h > 1200 {
		t.Errorf("picture is %dx%d px; want at most 1400x1200", w, h)
	}
	if b.Len() > 1<<20 {
		t.Errorf("picture is %d bytes; want at most 1 MiB", b.Len())
	}
	m, err := build(c, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.colW < 3 || m.plotW > maxPlotW {
		t.Errorf("columns %d px, plot %d px", m.colW, m.plotW)
	}
	// Labels only where they fit: command names on every k-th column,
	// with k·colW at least the rotated label spacing.
	if labels := strings.Count(b.String(), `transform="rotate(-60`); labels > 300/m.labelK+1 || float64(m.labelK*m.colW) < 12 {
		t.Errorf("%d command labels, every %d columns of %d px", labels, m.labelK, m.colW)
	}
}

// TestSharedFrames draws the test data's frames (internal/datadir), but
// for the held-out random-1000 (whose planning takes seconds under -race;
// Test300Commands covers size).
func TestSharedFrames(t *testing.T) {
	for _, file := range datadir.Files(t, datadir.Frames) {
		if file.Test() == "heldout/random-1000" {
			continue
		}
		f := file.Path
		t.Run(file.Test(), func(t *testing.T) {
			r, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			g, err := format.ReadGraph(r, f)
			if err != nil {
				t.Fatal(err)
			}
			c, p := planOf(t, g)
			var b bytes.Buffer
			if err := SVG(&b, c, p, Options{}); err != nil {
				t.Fatal(err)
			}
			wellFormed(t, b.Bytes())
			w, _ := dimensions(t, b.Bytes())
			if want := leftW + max(maxPlotW, 3*len(g.Commands)) + 24 + tableW; w > want {
				t.Errorf("width %d px, want at most %d", w, want)
			}
		})
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		size uint64
		h    int
		want string
	}{
		{128 << 20, 520, "[0 16 32 48 64 80 96 112 128]"}, // MiB
		{8 << 20, 56, "[0 8]"},
		{1000, 100, "[0 512]"},
		{0, 56, "[0]"},
	} {
		var got []uint64
		for _, x := range ticks(tc.size, tc.h) {
			if tc.size >= 1<<20 {
				x >>= 20
			}
			got = append(got, x)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("ticks(%d, %d) = %v, want %s", tc.size, tc.h, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"gbuffer.albedo", 20, "gbuffer.albedo"}, {"gbuffer.albedo", 8, "gbuffer…"}, {"gbuffer", 3, ""}} {
		if got := fit(tc.s, tc.n); got != tc.want {
			t.Errorf("fit(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestMinimumHeight: every pooled resource is drawn at least minDrawH
// high and inside its pool's panel, however small it is beside its pool
// (the sample's 2 KiB bloom mip in a 74 MiB pool; random graphs' bytes).
func TestMinimumHeight(t *testing.T) {
	for _, g := range []*planner.Graph{&(aliasplan.SampleFrame(1920, 1080)).Graph, proptest.RandomGraph(3, 300)} {
		c, p := planOf(t, g)
		m, err := build(c, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for r, rp := range p.Resources {
			if rp.Status != planner.StatusPooled {
				continue
			}
			n++
			_, y, _, h := m.resourceRect(planner.ResourceID(r))
			pn := &m.panels[rp.Placement.Pool]
			if h < minDrawH || y < float64(pn.y) || y+h > float64(pn.y+pn.h)+1e-9 {
				t.Errorf("%s: drawn at y %.2f, %.2f px high; panel [%d, %d]", g.Resources[r].Name, y, h, pn.y, pn.y+pn.h)
			}
		}
		if n == 0 {
			t.Fatal("nothing pooled")
		}
	}
}

// BenchmarkHTML writes the page of a random frame: the Go side of the
// viewer (the data, the lower bounds and the page text).
func BenchmarkHTML(b *testing.B) {
	for _, n := range []int{300, 3000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			c, p, err := aliasplan.New(aliasplan.Options{}).PlanCompiled(&aliasplan.Graph{Graph: *proptest.RandomGraph(7, n)})
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := HTML(&buf, c, p, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "page-bytes")
		})
	}
}

// TestPageImpliedUse: a bottom level's read by the trace of its top level
// (the planner's implied read) is in the page's uses, marked implied.
func TestPageImpliedUse(t *testing.T) {
	g := &aliasplan.Graph{}
	as := aliasplan.BufferDesc{Size: 1 << 16, Usage: vk.BufferUsageAccelerationStructureStorage}
	blas, tlas := g.AddBuffer("blas", as), g.AddBuffer("tlas", as)
	g.AddCommand("build.blas", planner.Access{Resource: blas, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureWrite})
	g.AddCommand("build.tlas", planner.Access{Resource: blas, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead},
		planner.Access{Resource: tlas, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureWrite})
	trace := g.AddCommand("trace", planner.Access{Resource: tlas, Stages: vk.StageRayTracingShader, Access: vk.AccessAccelerationStructureRead})
	c, p := planOf(t, &g.Graph)
	d, err := newPageData(c, []*planner.Plan{p}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := d.UseStart[blas]; i < d.UseStart[blas+1]; i++ {
		rec := d.Uses[5*i : 5*i+5]
		got = append(got, fmt.Sprintf("%s: %s", d.Cmds[rec[0]], d.Strs[rec[2]]))
	}
	want := fmt.Sprintf("%s: ACCELERATION_STRUCTURE_READ_KHR (implied: read through an acceleration structure)", g.Commands[trace].Name)
	if len(got) != 3 || got[2] != want {
		t.Errorf("blas's uses on the page: %q, want the third %q", got, want)
	}
}
