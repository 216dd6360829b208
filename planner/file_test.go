package planner

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// Building blocks of small graph files for the table tests.
const (
	fileBuf    = `{"name": "buf", "type": "buffer", "buffer": {"size": 256, "usage": ["STORAGE_BUFFER"]}}`
	fileImg    = `{"name": "img", "type": "image", "image": {"format": "R8G8B8A8_UNORM", "width": 4, "height": 4}}`
	fileWrite  = `{"resource": "buf", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_WRITE"]}`
	fileRead   = `{"resource": "buf", "stages": ["COMPUTE_SHADER"], "access": ["SHADER_STORAGE_READ"]}`
	fileImgOut = `{"resource": "img", "stages": ["COLOR_ATTACHMENT_OUTPUT"], "access": ["COLOR_ATTACHMENT_WRITE"], "layout": "COLOR_ATTACHMENT_OPTIMAL"}`
)

// graphDoc assembles a version-1 graph file from resource and command JSON.
func graphDoc(resources, commands string) string {
	return `{"version": 1, "resources": [` + resources + `], "commands": [` + commands + `]}`
}

// cmdDoc is one command's JSON.
func cmdDoc(name string, accesses ...string) string {
	return fmt.Sprintf(`{"name": %q, "accesses": [%s]}`, name, strings.Join(accesses, ", "))
}

func TestReadGraphErrors(t *testing.T) {
	both := fileBuf + ", " + fileImg
	okCmds := cmdDoc("c0", fileWrite, fileImgOut)
	tests := []struct {
		name string
		doc  string
		want GraphError // File is always "test.json"; Detail is a substring
	}{
		// Names.
		{"unknown resource", graphDoc(both, cmdDoc("c0", fileWrite, strings.Replace(fileRead, `"buf"`, `"nope"`, 1))),
			GraphError{Command: "c0", Access: 1, Resource: "nope", Rule: RuleUnknownResource, Detail: `no resource is named "nope"`}},
		{"duplicate resource", graphDoc(both+", "+fileBuf, okCmds),
			GraphError{Resource: "buf", Access: -1, Rule: RuleDuplicateName}},
		{"duplicate command", graphDoc(both, okCmds+", "+cmdDoc("c0", fileRead)),
			GraphError{Command: "c0", Access: -1, Rule: RuleDuplicateName}},
		{"empty resource name", graphDoc(both+`, {"name": "", "type": "buffer", "buffer": {"size": 1}}`, okCmds),
			GraphError{Item: "resources[2]", Access: -1, Rule: RuleEmptyName}},
		{"empty command name", graphDoc(both, okCmds+", "+cmdDoc("", fileRead)),
			GraphError{Item: "commands[1]", Access: -1, Rule: RuleEmptyName}},
		{"unknown stage", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "COMPUTE_SHADER", "COMPUTE_SHADERS", 1))),
			GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "stages", Rule: RuleUnknownName, Detail: `"COMPUTE_SHADERS"`}},
		{"unknown access", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "SHADER_STORAGE_WRITE", "STORAGE_WRITE", 1))),
			GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "access", Rule: RuleUnknownName, Detail: `"STORAGE_WRITE"`}},
		{"unknown layout", graphDoc(both, cmdDoc("c0", fileWrite, strings.Replace(fileImgOut, `"COLOR_ATTACHMENT_OPTIMAL"`, `"COLOR_OPTIMAL"`, 1))),
			GraphError{Command: "c0", Access: 1, Resource: "img", Item: "layout", Rule: RuleUnknownName, Detail: `"COLOR_OPTIMAL"`}},
		{"unknown format", graphDoc(strings.Replace(fileImg, "R8G8B8A8_UNORM", "RGBA8", 1), ""),
			GraphError{Resource: "img", Access: -1, Item: "image.format", Rule: RuleUnknownName, Detail: `"RGBA8"`}},
		{"unknown buffer usage", graphDoc(strings.Replace(fileBuf, "STORAGE_BUFFER", "STORAGE", 1), ""),
			GraphError{Resource: "buf", Access: -1, Item: "buffer.usage", Rule: RuleUnknownName, Detail: `"STORAGE"`}},
		{"unknown image usage", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "usage": ["STORAGE_BUFFER"]`, 1), ""),
			GraphError{Resource: "img", Access: -1, Item: "image.usage", Rule: RuleUnknownName, Detail: `"STORAGE_BUFFER"`}},
		{"unknown tiling", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "tiling": "TILED"`, 1), ""),
			GraphError{Resource: "img", Access: -1, Item: "image.tiling", Rule: RuleUnknownName, Detail: `"TILED"`}},
		{"unknown initial layout", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "initialLayout": "NONE"`, 1), ""),
			GraphError{Resource: "img", Access: -1, Item: "image.initialLayout", Rule: RuleUnknownName, Detail: `"NONE"`}},
		{"unknown memory", graphDoc(strings.Replace(fileBuf, `"type": "buffer"`, `"type": "buffer", "memory": "host"`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Item: "memory", Rule: RuleUnknownName, Detail: `"host"`}},
		{"unknown type", graphDoc(`{"name": "t", "type": "texture"}`, ""),
			GraphError{Resource: "t", Access: -1, Item: "type", Rule: RuleField, Detail: `"texture"`}},

		// Rules of Validate, reported with the file.
		{"two layouts", graphDoc(both, cmdDoc("c0", fileImgOut, strings.Replace(fileImgOut, "COLOR_ATTACHMENT_OPTIMAL", "GENERAL", 1))),
			GraphError{Command: "c0", Access: 1, Resource: "img", Rule: RuleTwoLayouts}},
		{"no stages", graphDoc(both, cmdDoc("c0", `{"resource": "buf", "stages": [], "access": ["SHADER_STORAGE_WRITE"]}`)),
			GraphError{Command: "c0", Access: 0, Resource: "buf", Rule: RuleNoStages}},
		{"stages absent", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf"}`)),
			GraphError{Command: "c0", Access: 1, Resource: "buf", Rule: RuleNoStages}},
		{"no layout", graphDoc(both, cmdDoc("c0", `{"resource": "img", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_SAMPLED_READ"]}`)),
			GraphError{Command: "c0", Access: 0, Resource: "img", Rule: RuleNoLayout}},
		{"zero width", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 0`, 1), ""),
			GraphError{Resource: "img", Access: -1, Rule: RuleZeroExtent}},
		{"zero mip levels", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 4, "mipLevels": 0`, 1), ""),
			GraphError{Resource: "img", Access: -1, Rule: RuleZeroExtent}},
		{"samples", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 4, "samples": 3`, 1), ""),
			GraphError{Resource: "img", Access: -1, Rule: RuleSamples}},
		{"zero buffer size", graphDoc(strings.Replace(fileBuf, `"size": 256`, `"size": 0`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Rule: RuleZeroSize}},
		{"alignment", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "alignment": 96, "memoryTypeBits": 1}}`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Rule: RuleAlignment, Detail: "96"}},
		{"memory type bits", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "alignment": 256, "memoryTypeBits": 0}}`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Rule: RuleMemoryTypeBits}},

		// Version.
		{"version 2", `{"version": 2, "resources": [], "commands": []}`,
			GraphError{Access: -1, Rule: RuleVersion, Detail: "version 2"}},
		{"version missing", `{"resources": [], "commands": []}`,
			GraphError{Access: -1, Rule: RuleVersion, Detail: "missing"}},
		{"version string", `{"version": "1"}`,
			GraphError{Access: -1, Rule: RuleVersion}},
		{"version before unknown fields", `{"version": 3, "passes": []}`,
			GraphError{Access: -1, Rule: RuleVersion}},

		// Syntax.
		{"trailing comma", "{\"version\": 1,\n  \"resources\": [1,]}",
			GraphError{Access: -1, Item: "line 2 column 19", Rule: RuleSyntax, Detail: "invalid character ']'"}},
		{"truncated", `{"version": 1, "resources": [`,
			GraphError{Access: -1, Item: "line 1 column 29", Rule: RuleSyntax, Detail: "unexpected end"}},
		{"empty", ``, GraphError{Access: -1, Item: "line 1 column 1", Rule: RuleSyntax}},
		{"two values", `{"version": 1} {}`, GraphError{Access: -1, Item: "line 1 column 16", Rule: RuleSyntax}},
		{"not an object", `[]`, GraphError{Access: -1, Rule: RuleSyntax}},
		{"duplicate key", `{"version": 1, "version": 1}`, GraphError{Access: -1, Item: "line 1 column 24", Rule: RuleSyntax, Detail: "twice"}},

		// Unknown fields.
		{"unknown top-level field", "{\"version\": 1,\n \"passes\": []}",
			GraphError{Access: -1, Item: "passes", Rule: RuleUnknownField, Detail: "line 2 column 9"}},
		{"unknown resource field", graphDoc(strings.Replace(fileBuf, `"type"`, `"size": 4, "type"`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Rule: RuleUnknownField, Detail: `"size"`}},
		{"unknown image field", graphDoc(strings.Replace(fileImg, `"width"`, `"levels": 2, "width"`, 1), ""),
			GraphError{Resource: "img", Access: -1, Rule: RuleUnknownField, Detail: `"levels"`}},
		{"unknown field of an unnamed resource", graphDoc(`{"type": "buffer", "colour": 1}`, ""),
			GraphError{Item: "resources[0]", Access: -1, Rule: RuleUnknownField, Detail: `"colour"`}},
		{"unknown command field", graphDoc(both, `{"name": "c0", "queue": 1, "accesses": []}`),
			GraphError{Command: "c0", Access: -1, Rule: RuleUnknownField, Detail: `"queue"`}},
		{"unknown access field", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf", "stage": ["COMPUTE_SHADER"]}`)),
			GraphError{Command: "c0", Access: 1, Rule: RuleUnknownField, Detail: `"stage"`}},

		// Missing fields.
		{"missing name", graphDoc(`{"type": "buffer", "buffer": {"size": 1}}`, ""),
			GraphError{Item: "resources[0].name", Access: -1, Rule: RuleMissingField}},
		{"missing type", graphDoc(`{"name": "x", "buffer": {"size": 1}}`, ""),
			GraphError{Resource: "x", Item: "type", Access: -1, Rule: RuleMissingField}},
		{"missing buffer", graphDoc(`{"name": "x", "type": "buffer"}`, ""),
			GraphError{Resource: "x", Item: "buffer", Access: -1, Rule: RuleMissingField}},
		{"missing size", graphDoc(`{"name": "x", "type": "buffer", "buffer": {"usage": []}}`, ""),
			GraphError{Resource: "x", Item: "buffer.size", Access: -1, Rule: RuleMissingField}},
		{"missing format", graphDoc(`{"name": "x", "type": "image", "image": {"width": 1, "height": 1}}`, ""),
			GraphError{Resource: "x", Item: "image.format", Access: -1, Rule: RuleMissingField}},
		{"missing height", graphDoc(`{"name": "x", "type": "image", "image": {"format": "R8_UNORM", "width": 1}}`, ""),
			GraphError{Resource: "x", Item: "image.height", Access: -1, Rule: RuleMissingField}},
		{"missing alignment", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "memoryTypeBits": 1}}`, 1), ""),
			GraphError{Resource: "buf", Item: "requirements.alignment", Access: -1, Rule: RuleMissingField}},
		{"missing command name", graphDoc(both, `{"accesses": []}`),
			GraphError{Item: "commands[0].name", Access: -1, Rule: RuleMissingField}},
		{"missing access resource", graphDoc(both, cmdDoc("c0", `{"stages": ["COMPUTE_SHADER"]}`)),
			GraphError{Command: "c0", Access: 0, Item: "resource", Rule: RuleMissingField}},

		// Values of the wrong type or outside their domain.
		{"width is a string", graphDoc("\n"+strings.Replace(fileImg, `"width": 4`, `"width": "4"`, 1), ""),
			GraphError{Resource: "img", Access: -1, Item: "image.width", Rule: RuleField, Detail: "line 2 column 83: want a uint32, got JSON string"}},
		{"negative size", graphDoc(strings.Replace(fileBuf, `"size": 256`, `"size": -1`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Item: "buffer.size", Rule: RuleField, Detail: "number -1"}},
		{"stages is a string", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf", "stages": "COMPUTE_SHADER"}`)),
			GraphError{Command: "c0", Access: 1, Item: "stages", Rule: RuleField, Detail: "want an array"}},
		{"resource is not an object", graphDoc(`1`, ""),
			GraphError{Item: "resources[0]", Access: -1, Rule: RuleField, Detail: "want an object"}},
		{"resources is not an array", `{"version": 1, "resources": {}}`,
			GraphError{Item: "resources", Access: -1, Rule: RuleField, Detail: "want an array"}},
		{"buffer access with a layout", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, `}`, `, "layout": "GENERAL"}`, 1))),
			GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "layout", Rule: RuleField}},
		{"buffer with an image", graphDoc(strings.Replace(fileBuf, `}}`, `}, "image": {}}`, 1), ""),
			GraphError{Resource: "buf", Access: -1, Item: "image", Rule: RuleField}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGraph(strings.NewReader(tc.doc), "test.json")
			if err == nil {
				t.Fatalf("no error; graph %+v", g)
			}
			t.Log(err)
			var ge *GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T) is not a *GraphError", err, err)
			}
			w := tc.want
			if ge.File != "test.json" || ge.Rule != w.Rule || ge.Resource != w.Resource || ge.Command != w.Command ||
				ge.Access != w.Access || ge.Item != w.Item || !strings.Contains(ge.Detail, w.Detail) {
				t.Errorf("got  %#v\nwant %#v (Detail as a substring, File test.json)\nerror: %v", *ge, w, err)
			}
			if !strings.Contains(err.Error(), "test.json") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestReadGraphDefaults(t *testing.T) {
	doc := graphDoc(fileBuf+", "+fileImg+`, {"name": "c0", "type": "buffer", "buffer": {"size": 16}}`,
		cmdDoc("c0", fileWrite, fileImgOut, `{"resource": "buf", "stages": ["COMPUTE_SHADER"]}`, `{"resource": "c0", "stages": ["ALL_COMMANDS"], "access": []}`)+
			`, {"name": "empty"}`)
	g, err := ReadGraph(strings.NewReader(doc), "defaults.json")
	if err != nil {
		t.Fatal(err)
	}
	want := &Graph{
		Resources: []Resource{
			{Name: "buf", Kind: KindBuffer, Buffer: BufferDesc{Size: 256, Usage: BufferUsageStorageBuffer}},
			{Name: "img", Kind: KindImage, Image: ImageDesc{Format: FormatR8G8B8A8Unorm, Width: 4, Height: 4, Depth: 1,
				MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: TilingOptimal, InitialLayout: LayoutUndefined}},
			// A resource may share a command's name: separate name spaces.
			{Name: "c0", Kind: KindBuffer, Buffer: BufferDesc{Size: 16}},
		},
		Commands: []Command{
			{Name: "c0", Accesses: []Access{
				{Resource: 0, Stages: StageComputeShader, Access: AccessShaderStorageWrite},
				{Resource: 1, Stages: StageColorAttachmentOutput, Access: AccessColorAttachmentWrite, Layout: LayoutColorAttachmentOptimal},
				{Resource: 0, Stages: StageComputeShader},
				{Resource: 2, Stages: StageAllCommands},
			}},
			{Name: "empty"},
		},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got  %+v\nwant %+v", g, want)
	}
	// An empty graph: nil slices, and null arrays read as empty.
	for _, doc := range []string{`{"version": 1}`, `{"version": 1, "resources": [], "commands": null}`} {
		g, err := ReadGraph(strings.NewReader(doc), "")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, &Graph{}) {
			t.Errorf("%s: got %+v, want an empty graph", doc, g)
		}
	}
}

// A transient read before it is written is an error of Compile, which
// needs the analysis; the file itself reads fine.
func TestReadGraphThenCompileReadBeforeWrite(t *testing.T) {
	doc := graphDoc(fileBuf, cmdDoc("c0", fileRead)+", "+cmdDoc("c1", fileWrite))
	g, err := ReadGraph(strings.NewReader(doc), "rbw.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(g)
	var ge *GraphError
	if !errors.As(err, &ge) || ge.Rule != RuleReadBeforeWrite || ge.Resource != "buf" || ge.Command != "c0" {
		t.Fatalf("Compile: got %v, want %s on buf in c0", err, RuleReadBeforeWrite)
	}
}

func TestReadGraphReaderError(t *testing.T) {
	boom := errors.New("boom")
	_, err := ReadGraph(iotest.ErrReader(boom), "r.json")
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "r.json") {
		t.Fatalf("got %v, want the reader's error wrapped with the file name", err)
	}
}

// roundTrip writes g, reads it back and checks that the graph is equal and
// that writing again gives the same bytes.
func roundTrip(t *testing.T, g *Graph) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := WriteGraph(&out, g); err != nil {
		t.Fatalf("WriteGraph: %v", err)
	}
	g2, err := ReadGraph(bytes.NewReader(out.Bytes()), "written.json")
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, out.Bytes())
	}
	if !reflect.DeepEqual(g, g2) {
		t.Fatalf("the graph read back differs:\n got %+v\nwant %+v", g2, g)
	}
	var again bytes.Buffer
	if err := WriteGraph(&again, g2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Fatalf("writing twice gives different bytes:\n%s", firstDiff(out.String(), again.String()))
	}
	return out.Bytes()
}

func TestGraphFileRoundTripFrames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(framesDir(t), "*.json"))
	if err != nil || len(files) == 0 {
		t.Skip("no frames")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			roundTrip(t, readFrame(t, path))
		})
	}
}

func TestGraphFileRoundTripBuilt(t *testing.T) {
	g := &Graph{}
	imp := g.AddResource(Resource{Name: "swapchain", Kind: KindImage, Imported: true,
		Image: ImageDesc{Format: FormatB8G8R8A8Unorm, Width: 1920, Height: 1080, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: ImageUsageColorAttachment | ImageUsageTransferDst, InitialLayout: LayoutPresentSrc}})
	lin := g.AddResource(Resource{Name: "staging <&>", Kind: KindImage, Memory: CPUToGPU,
		Image: ImageDesc{Format: FormatBc1RgbUnormBlock, Width: 64, Height: 64, Depth: 1, MipLevels: 7, ArrayLayers: 6, Samples: 1,
			Tiling: TilingLinear, Usage: ImageUsageTransferSrc, InitialLayout: LayoutPreinitialized}})
	buf := g.AddResource(Resource{Name: "ünïcödé", Kind: KindBuffer, Dedicated: true, Memory: GPUToCPU,
		Buffer:       BufferDesc{Size: 1 << 40, Usage: BufferUsageTransferDst | BufferUsageStorageBuffer},
		Requirements: &Requirements{Size: 1<<64 - 1, Alignment: 1 << 63, MemoryTypeBits: 0xffffffff, PrefersDedicated: true, RequiresDedicated: true}})
	ms := g.AddImage("msaa", ImageDesc{Format: FormatD32Sfloat, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 8,
		Usage: ImageUsageDepthStencilAttachment})
	g.AddCommand("upload", Access{Resource: lin, Stages: StageCopy, Access: AccessTransferRead, Layout: LayoutTransferSrcOptimal},
		Access{Resource: buf, Stages: StageCopy | StageComputeShader, Access: AccessTransferWrite | AccessShaderStorageRead})
	g.AddCommand("depth", Access{Resource: ms, Stages: StageEarlyFragmentTests | StageLateFragmentTests,
		Access: AccessDepthStencilAttachmentRead | AccessDepthStencilAttachmentWrite, Layout: LayoutDepthAttachmentOptimal})
	g.AddCommand("present", Access{Resource: imp, Stages: StageNone | StageBottomOfPipe, Layout: LayoutPresentSrc})
	g.AddCommand("nothing")
	out := roundTrip(t, g)
	for _, s := range []string{`"staging <&>"`, `"ünïcödé"`, `"access": []`, `"requiresDedicated": true`, `"tiling": "LINEAR"`} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("output lacks %s:\n%s", s, out)
		}
	}
	for _, s := range []string{`"imported": false`, `"memory": "gpu_only"`, `"dedicated": false`} {
		if bytes.Contains(out, []byte(s)) {
			t.Errorf("output has %s, which is the default:\n%s", s, out)
		}
	}
	// The layout of a buffer access is not written.
	if n := bytes.Count(out, []byte(`"layout"`)); n != 3 {
		t.Errorf("%d layouts written, want 3 (image accesses only)", n)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	for range 20 {
		roundTrip(t, randomGraph(rng, 1+rng.IntN(30), 1.5))
	}
}

func TestWriteGraphErrors(t *testing.T) {
	tests := []struct {
		name string
		g    *Graph
		rule Rule
	}{
		{"format without a name", &Graph{Resources: []Resource{{Name: "x", Kind: KindImage, Image: ImageDesc{Format: 999}}}}, RuleUnknownName},
		{"usage bit without a name", &Graph{Resources: []Resource{{Name: "x", Kind: KindBuffer, Buffer: BufferDesc{Size: 1, Usage: 1 << 31}}}}, RuleUnknownName},
		{"kind", &Graph{Resources: []Resource{{Name: "x", Kind: 7}}}, RuleField},
		{"memory", &Graph{Resources: []Resource{{Name: "x", Kind: KindBuffer, Memory: 9}}}, RuleUnknownName},
		{"name not UTF-8", &Graph{Resources: []Resource{{Name: "\xff", Kind: KindBuffer}}}, RuleField},
		{"resource id", &Graph{Commands: []Command{{Name: "c", Accesses: []Access{{Resource: 3, Stages: StageCopy}}}}}, RuleUnknownResource},
		{"layout without a name", &Graph{Resources: []Resource{{Name: "x", Kind: KindImage, Image: ImageDesc{Format: FormatR8Unorm}}},
			Commands: []Command{{Name: "c", Accesses: []Access{{Resource: 0, Stages: StageCopy, Layout: 12345}}}}}, RuleUnknownName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := WriteGraph(&out, tc.g)
			var ge *GraphError
			if !errors.As(err, &ge) || ge.Rule != tc.rule {
				t.Fatalf("got %v, want a *GraphError with rule %s", err, tc.rule)
			}
			if out.Len() != 0 {
				t.Errorf("partial output written: %s", out.Bytes())
			}
		})
	}
	if err := WriteGraph(failWriter{}, &Graph{}); err == nil {
		t.Error("no error from a failing writer")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
