package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// maxFuzzSeed is the size of the largest frame file used as a fuzz seed.
const maxFuzzSeed = 64 << 10

// FuzzReadGraph: no input panics ReadGraph or Compile; every error is a
// *GraphError naming the file; a graph that reads writes back to the same
// graph. Seeds: the shared frames up to 64 KiB (when present) and small
// hand-made files. Minimizing a large interesting input takes long: run
// with a short -fuzzminimizetime (go test -fuzz FuzzReadGraph
// -fuzzminimizetime 2s).
func FuzzReadGraph(f *testing.F) {
	for _, dir := range []string{"../../shared/data/frames", "../shared/data/frames"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, path := range files {
			// Large frames make each mutation slow; the round-trip tests
			// cover them.
			if data, err := os.ReadFile(path); err == nil && len(data) <= maxFuzzSeed {
				f.Add(data)
			}
		}
		if len(files) > 0 {
			break
		}
	}
	both := fileBuf + ", " + fileImg
	for _, doc := range []string{
		graphDoc(both, cmdDoc("c0", fileWrite, fileImgOut)+", "+cmdDoc("c1", fileRead)),
		graphDoc(both, cmdDoc("c0", fileRead)),
		graphDoc(both+`, {"name": "host", "type": "buffer", "memory": "cpu_to_gpu", "dedicated": true, "imported": true, "buffer": {"size": 4},
			"requirements": {"size": 4, "alignment": 4, "memoryTypeBits": 6, "prefersDedicated": true}}`, cmdDoc("x", `{"resource": "host", "stages": ["HOST"], "access": []}`)),
		// Subresource ranges: mips, layers, aspects, disjoint layouts in one command.
		graphDoc(fileArr+", "+fileDS, cmdDoc("w", arrAccess(false, `, "mips": [0, 1], "layers": [0, 4]`))+", "+
			cmdDoc("down", arrAccess(true, `, "mips": [0, 1]`), arrAccess(false, `, "mips": [1, 1], "layers": [1, 2]`))+", "+
			cmdDoc("ds", `{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_WRITE"], "layout": "STENCIL_ATTACHMENT_OPTIMAL", "aspects": ["STENCIL"]}`)),
		graphDoc(fileArr, cmdDoc("bad", arrAccess(false, `, "mips": [4, 9], "aspects": ["DEPTH", "COLOR"]`))),
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
		if c, err := planner.Compile(g); err == nil {
			for r := range g.Resources {
				c.Initial(planner.ResourceID(r))
			}
		} else {
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("Compile: error %v (%T) is not a *GraphError", err, err)
			}
		}
	})
}
