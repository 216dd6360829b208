package format

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/verify"
)

// maxFuzzSeed is the size of the largest frame file used as a fuzz seed.
const maxFuzzSeed = 64 << 10

// FuzzReadGraph: no input panics ReadGraph or Compile; every error is a
// *GraphError naming the file; a graph that reads writes back to the same
// graph. Seeds: the test data's frames up to 64 KiB (internal/datadir) and small
// hand-made files. Minimizing a large interesting input takes long: run
// with a short -fuzzminimizetime (go test -fuzz FuzzReadGraph
// -fuzzminimizetime 2s).
func FuzzReadGraph(f *testing.F) {
	for _, file := range datadir.Files(f, datadir.Frames) {
		// Large frames make each mutation slow; the round-trip tests
		// cover them.
		if data, err := os.ReadFile(file.Path); err == nil && len(data) <= maxFuzzSeed {
			f.Add(data)
		}
	}
	both := fileBuf + ", " + fileImg
	for _, doc := range []string{
		graphDoc(both, cmdDoc("c0", fileWrite, fileImgOut)+", "+cmdDoc("c1", fileRead)),
		graphDoc(both, cmdDoc("c0", fileRead)),
		graphDoc(both+`, {"name": "host", "type": "buffer", "memory": "cpu_to_gpu", "dedicated": true, "imported": true, "buffer": {"size": 4},
			"requirements": {"size": 4, "alignment": 4, "memoryTypeBits": 6, "prefersDedicated": true}}`, cmdDoc("x", `{"resource": "host", "stages": ["HOST"], "access": []}`)),
		// Issue 19's rules: names with controls and overrides, explicit
		// requirements below the resource's bytes, usage flags the
		// accesses break, sizes beyond the heap and the allocation limit.
		graphDoc(`{"name": "n\u0000ul", "type": "buffer", "buffer": {"size": 256}}`, cmdDoc("c\u202e0", `{"resource": "n\u0000ul", "stages": ["COPY"], "access": ["TRANSFER_WRITE"]}`)),
		graphDoc(`{"name": "big", "type": "buffer", "buffer": {"size": 1048576}, "requirements": {"size": 256, "alignment": 256, "memoryTypeBits": 31}}, `+fileImg[:len(fileImg)-1]+`, "requirements": {"size": 16, "alignment": 16, "memoryTypeBits": 3}}`,
			cmdDoc("c0", `{"resource": "big", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}`, fileImgOut)),
		graphDoc(`{"name": "buf", "type": "buffer", "buffer": {"size": 256, "usage": ["UNIFORM_BUFFER"]}}, {"name": "img", "type": "image", "image": {"format": "R8G8B8A8_UNORM", "width": 4, "height": 4, "usage": ["SAMPLED"]}}`,
			cmdDoc("c0", fileWrite, `{"resource": "img", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"], "layout": "COLOR_ATTACHMENT_OPTIMAL"}`)),
		graphDoc(`{"name": "huge", "type": "buffer", "buffer": {"size": 322122547200}}, {"name": "b2", "type": "buffer", "buffer": {"size": 5368709120}}`,
			cmdDoc("c0", `{"resource": "huge", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}`, `{"resource": "b2", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}`)),
		// Subresource ranges: mips, layers, aspects, disjoint layouts in one command.
		graphDoc(fileArr+", "+fileDS, cmdDoc("w", arrAccess(false, `, "mips": [0, 1], "layers": [0, 4]`))+", "+
			cmdDoc("down", arrAccess(true, `, "mips": [0, 1]`), arrAccess(false, `, "mips": [1, 1], "layers": [1, 2]`))+", "+
			cmdDoc("ds", `{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_WRITE"], "layout": "STENCIL_ATTACHMENT_OPTIMAL", "aspects": ["STENCIL"]}`)),
		graphDoc(fileArr, cmdDoc("bad", arrAccess(false, `, "mips": [4, 9], "aspects": ["DEPTH", "COLOR"]`))),
		// Queues (issue 24): a compute command, an unknown queue, graphics stages on compute.
		graphDoc(fileBuf, `{"name": "c0", "queue": "compute", "accesses": [`+fileWrite+`]}, {"name": "c1", "queue": "graphics", "accesses": [`+fileRead+`]}`),
		graphDoc(fileBuf, `{"name": "c0", "queue": "asynk", "accesses": [`+fileWrite+`]}`),
		graphDoc(both, `{"name": "c0", "queue": "transfer", "accesses": [`+fileImgOut+`]}`),
		`{"version": 1}`,
		`{"version": 1, "resources": [{}], "commands": [{}]}`,
		`{"version": 2}`,
		`{"version": 1, "resources": [1,]}`,
		`[]`,
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadGraph(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			var ge *planner.GraphError
			if !errors.As(err, &ge) || ge.File != "fuzz.json" {
				t.Fatalf("error %v (%T) is not a *GraphError naming the file", err, err)
			}
			if ge.Rule == "" || ge.Error() == "" {
				t.Fatalf("error without a rule: %#v", ge)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteGraph(&out, g); err != nil {
			t.Fatalf("WriteGraph of a graph read from a file: %v", err)
		}
		g2, err := ReadGraph(bytes.NewReader(out.Bytes()), "written.json")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(g, g2) {
			t.Fatalf("the graph read back differs:\n got %+v\nwant %+v", g2, g)
		}
		for i := range g.Resources {
			if strings.ContainsAny(g.Resources[i].Name, "\x00\u202e\u2028") || !utf8.ValidString(g.Resources[i].Name) {
				t.Fatalf("a name ReadGraph should refuse: %q", g.Resources[i].Name)
			}
		}
		c, err := planner.Compile(g)
		if err != nil {
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("Compile: error %v (%T) is not a *GraphError", err, err)
			}
			return
		}
		for r := range g.Resources {
			c.Initial(planner.ResourceID(r))
		}
		// A graph that compiles is placed (H200 profile) or refused with a
		// rule; a placement it gets holds.
		p, err := planner.Place(c, planner.Options{Strategy: firstfit.New()})
		if err != nil {
			var ge *planner.GraphError
			var pe *planner.PlacementError
			if !errors.As(err, &ge) && !errors.As(err, &pe) {
				t.Fatalf("Place: error %v (%T) is neither a *GraphError nor a *PlacementError", err, err)
			}
			return
		}
		if err := verify.Placement(c, p); err != nil {
			t.Fatalf("the planner's placement does not verify: %v", err)
		}
	})
}
