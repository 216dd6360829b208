package format

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
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
		want planner.GraphError // File is always "test.json"; Detail is a substring
	}{
		// Names.
		{"unknown resource", graphDoc(both, cmdDoc("c0", fileWrite, strings.Replace(fileRead, `"buf"`, `"nope"`, 1))),
			planner.GraphError{Command: "c0", Access: 1, Resource: "nope", Rule: planner.RuleUnknownResource, Detail: `no resource is named "nope"`}},
		{"duplicate resource", graphDoc(both+", "+fileBuf, okCmds),
			planner.GraphError{Resource: "buf", Access: -1, Rule: planner.RuleDuplicateName}},
		{"duplicate command", graphDoc(both, okCmds+", "+cmdDoc("c0", fileRead)),
			planner.GraphError{Command: "c0", Access: -1, Rule: planner.RuleDuplicateName}},
		{"empty resource name", graphDoc(both+`, {"name": "", "type": "buffer", "buffer": {"size": 1}}`, okCmds),
			planner.GraphError{Item: "resources[2]", Access: -1, Rule: planner.RuleEmptyName}},
		{"empty command name", graphDoc(both, okCmds+", "+cmdDoc("", fileRead)),
			planner.GraphError{Item: "commands[1]", Access: -1, Rule: planner.RuleEmptyName}},
		{"unknown stage", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "COMPUTE_SHADER", "COMPUTE_SHADERS", 1))),
			planner.GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "stages", Rule: planner.RuleUnknownName, Detail: `"COMPUTE_SHADERS"`}},
		{"unknown access", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, "SHADER_STORAGE_WRITE", "STORAGE_WRITE", 1))),
			planner.GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "access", Rule: planner.RuleUnknownName, Detail: `"STORAGE_WRITE"`}},
		{"unknown layout", graphDoc(both, cmdDoc("c0", fileWrite, strings.Replace(fileImgOut, `"COLOR_ATTACHMENT_OPTIMAL"`, `"COLOR_OPTIMAL"`, 1))),
			planner.GraphError{Command: "c0", Access: 1, Resource: "img", Item: "layout", Rule: planner.RuleUnknownName, Detail: `"COLOR_OPTIMAL"`}},
		{"unknown format", graphDoc(strings.Replace(fileImg, "R8G8B8A8_UNORM", "RGBA8", 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Item: "image.format", Rule: planner.RuleUnknownName, Detail: `"RGBA8"`}},
		{"unknown buffer usage", graphDoc(strings.Replace(fileBuf, "STORAGE_BUFFER", "STORAGE", 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Item: "buffer.usage", Rule: planner.RuleUnknownName, Detail: `"STORAGE"`}},
		{"unknown image usage", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "usage": ["STORAGE_BUFFER"]`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Item: "image.usage", Rule: planner.RuleUnknownName, Detail: `"STORAGE_BUFFER"`}},
		{"unknown tiling", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "tiling": "TILED"`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Item: "image.tiling", Rule: planner.RuleUnknownName, Detail: `"TILED"`}},
		{"unknown initial layout", graphDoc(strings.Replace(fileImg, `"height": 4`, `"height": 4, "initialLayout": "NONE"`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Item: "image.initialLayout", Rule: planner.RuleUnknownName, Detail: `"NONE"`}},
		{"unknown memory", graphDoc(strings.Replace(fileBuf, `"type": "buffer"`, `"type": "buffer", "memory": "host"`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Item: "memory", Rule: planner.RuleUnknownName, Detail: `"host"`}},
		{"unknown type", graphDoc(`{"name": "t", "type": "texture"}`, ""),
			planner.GraphError{Resource: "t", Access: -1, Item: "type", Rule: planner.RuleField, Detail: `"texture"`}},

		// Rules of Validate, reported with the file.
		{"two layouts", graphDoc(both, cmdDoc("c0", fileImgOut, strings.Replace(fileImgOut, "COLOR_ATTACHMENT_OPTIMAL", "GENERAL", 1))),
			planner.GraphError{Command: "c0", Access: 1, Resource: "img", Rule: planner.RuleTwoLayouts}},
		{"no stages", graphDoc(both, cmdDoc("c0", `{"resource": "buf", "stages": [], "access": ["SHADER_STORAGE_WRITE"]}`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "buf", Rule: planner.RuleNoStages}},
		{"stages absent", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf"}`)),
			planner.GraphError{Command: "c0", Access: 1, Resource: "buf", Rule: planner.RuleNoStages}},
		{"no layout", graphDoc(both, cmdDoc("c0", `{"resource": "img", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_SAMPLED_READ"]}`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "img", Rule: planner.RuleNoLayout}},
		{"zero width", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 0`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Rule: planner.RuleZeroExtent}},
		{"zero mip levels", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 4, "mipLevels": 0`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Rule: planner.RuleZeroExtent}},
		{"samples", graphDoc(strings.Replace(fileImg, `"width": 4`, `"width": 4, "samples": 3`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Rule: planner.RuleSamples}},
		{"zero buffer size", graphDoc(strings.Replace(fileBuf, `"size": 256`, `"size": 0`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Rule: planner.RuleZeroSize}},
		{"alignment", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "alignment": 96, "memoryTypeBits": 1}}`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Rule: planner.RuleAlignment, Detail: "96"}},
		{"memory type bits", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "alignment": 256, "memoryTypeBits": 0}}`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Rule: planner.RuleMemoryTypeBits}},

		// Version.
		{"version 2", `{"version": 2, "resources": [], "commands": []}`,
			planner.GraphError{Access: -1, Rule: planner.RuleVersion, Detail: "version 2"}},
		{"version missing", `{"resources": [], "commands": []}`,
			planner.GraphError{Access: -1, Rule: planner.RuleVersion, Detail: "missing"}},
		{"version string", `{"version": "1"}`,
			planner.GraphError{Access: -1, Rule: planner.RuleVersion}},
		{"version before unknown fields", `{"version": 3, "passes": []}`,
			planner.GraphError{Access: -1, Rule: planner.RuleVersion}},

		// Syntax.
		{"trailing comma", "{\"version\": 1,\n  \"resources\": [1,]}",
			planner.GraphError{Access: -1, Item: "line 2 column 19", Rule: planner.RuleSyntax, Detail: "invalid character ']'"}},
		{"truncated", `{"version": 1, "resources": [`,
			planner.GraphError{Access: -1, Item: "line 1 column 29", Rule: planner.RuleSyntax, Detail: "unexpected end"}},
		{"empty", ``, planner.GraphError{Access: -1, Item: "line 1 column 1", Rule: planner.RuleSyntax}},
		{"two values", `{"version": 1} {}`, planner.GraphError{Access: -1, Item: "line 1 column 16", Rule: planner.RuleSyntax}},
		{"not an object", `[]`, planner.GraphError{Access: -1, Rule: planner.RuleSyntax}},
		{"duplicate key", `{"version": 1, "version": 1}`, planner.GraphError{Access: -1, Item: "line 1 column 24", Rule: planner.RuleSyntax, Detail: "twice"}},

		// Unknown fields.
		{"unknown top-level field", "{\"version\": 1,\n \"passes\": []}",
			planner.GraphError{Access: -1, Item: "passes", Rule: planner.RuleUnknownField, Detail: "line 2 column 9"}},
		{"unknown resource field", graphDoc(strings.Replace(fileBuf, `"type"`, `"size": 4, "type"`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Rule: planner.RuleUnknownField, Detail: `"size"`}},
		{"unknown image field", graphDoc(strings.Replace(fileImg, `"width"`, `"levels": 2, "width"`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Rule: planner.RuleUnknownField, Detail: `"levels"`}},
		{"unknown field of an unnamed resource", graphDoc(`{"type": "buffer", "colour": 1}`, ""),
			planner.GraphError{Item: "resources[0]", Access: -1, Rule: planner.RuleUnknownField, Detail: `"colour"`}},
		{"unknown command field", graphDoc(both, `{"name": "c0", "priority": 1, "accesses": []}`),
			planner.GraphError{Command: "c0", Access: -1, Rule: planner.RuleUnknownField, Detail: `"priority"`}},
		{"unknown access field", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf", "stage": ["COMPUTE_SHADER"]}`)),
			planner.GraphError{Command: "c0", Access: 1, Rule: planner.RuleUnknownField, Detail: `"stage"`}},

		// Missing fields.
		{"missing name", graphDoc(`{"type": "buffer", "buffer": {"size": 1}}`, ""),
			planner.GraphError{Item: "resources[0].name", Access: -1, Rule: planner.RuleMissingField}},
		{"missing type", graphDoc(`{"name": "x", "buffer": {"size": 1}}`, ""),
			planner.GraphError{Resource: "x", Item: "type", Access: -1, Rule: planner.RuleMissingField}},
		{"missing buffer", graphDoc(`{"name": "x", "type": "buffer"}`, ""),
			planner.GraphError{Resource: "x", Item: "buffer", Access: -1, Rule: planner.RuleMissingField}},
		{"missing size", graphDoc(`{"name": "x", "type": "buffer", "buffer": {"usage": []}}`, ""),
			planner.GraphError{Resource: "x", Item: "buffer.size", Access: -1, Rule: planner.RuleMissingField}},
		{"missing format", graphDoc(`{"name": "x", "type": "image", "image": {"width": 1, "height": 1}}`, ""),
			planner.GraphError{Resource: "x", Item: "image.format", Access: -1, Rule: planner.RuleMissingField}},
		{"missing height", graphDoc(`{"name": "x", "type": "image", "image": {"format": "R8_UNORM", "width": 1}}`, ""),
			planner.GraphError{Resource: "x", Item: "image.height", Access: -1, Rule: planner.RuleMissingField}},
		{"missing alignment", graphDoc(strings.Replace(fileBuf, `}}`, `}, "requirements": {"size": 256, "memoryTypeBits": 1}}`, 1), ""),
			planner.GraphError{Resource: "buf", Item: "requirements.alignment", Access: -1, Rule: planner.RuleMissingField}},
		{"missing command name", graphDoc(both, `{"accesses": []}`),
			planner.GraphError{Item: "commands[0].name", Access: -1, Rule: planner.RuleMissingField}},
		{"missing access resource", graphDoc(both, cmdDoc("c0", `{"stages": ["COMPUTE_SHADER"]}`)),
			planner.GraphError{Command: "c0", Access: 0, Item: "resource", Rule: planner.RuleMissingField}},

		// Values of the wrong type or outside their domain.
		{"width is a string", graphDoc("\n"+strings.Replace(fileImg, `"width": 4`, `"width": "4"`, 1), ""),
			planner.GraphError{Resource: "img", Access: -1, Item: "image.width", Rule: planner.RuleField, Detail: "line 2 column 83: want a uint32, got JSON string"}},
		{"negative size", graphDoc(strings.Replace(fileBuf, `"size": 256`, `"size": -1`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Item: "buffer.size", Rule: planner.RuleField, Detail: "number -1"}},
		{"stages is a string", graphDoc(both, cmdDoc("c0", fileWrite, `{"resource": "buf", "stages": "COMPUTE_SHADER"}`)),
			planner.GraphError{Command: "c0", Access: 1, Item: "stages", Rule: planner.RuleField, Detail: "want an array"}},
		{"resource is not an object", graphDoc(`1`, ""),
			planner.GraphError{Item: "resources[0]", Access: -1, Rule: planner.RuleField, Detail: "want an object"}},
		{"resources is not an array", `{"version": 1, "resources": {}}`,
			planner.GraphError{Item: "resources", Access: -1, Rule: planner.RuleField, Detail: "want an array"}},
		{"buffer access with a layout", graphDoc(both, cmdDoc("c0", strings.Replace(fileWrite, `}`, `, "layout": "GENERAL"}`, 1))),
			planner.GraphError{Command: "c0", Access: 0, Resource: "buf", Item: "layout", Rule: planner.RuleField}},
		{"buffer with an image", graphDoc(strings.Replace(fileBuf, `}}`, `}, "image": {}}`, 1), ""),
			planner.GraphError{Resource: "buf", Access: -1, Item: "image", Rule: planner.RuleField}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGraph(strings.NewReader(tc.doc), "test.json")
			if err == nil {
				t.Fatalf("no error; graph %+v", g)
			}
			t.Log(err)
			var ge *planner.GraphError
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
	want := &planner.Graph{
		Resources: []planner.Resource{
			{Name: "buf", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256, Usage: vk.BufferUsageStorageBuffer}},
			{Name: "img", Kind: planner.KindImage, Image: planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 4, Height: 4, Depth: 1,
				MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: vk.TilingOptimal, InitialLayout: vk.LayoutUndefined}},
			// A resource may share a command's name: separate name spaces.
			{Name: "c0", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 16}},
		},
		Commands: []planner.Command{
			{Name: "c0", Accesses: []planner.Access{
				{Resource: 0, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite},
				{Resource: 1, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
				{Resource: 0, Stages: vk.StageComputeShader},
				{Resource: 2, Stages: vk.StageAllCommands},
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
		if !reflect.DeepEqual(g, &planner.Graph{}) {
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
	_, err = planner.Compile(g)
	var ge *planner.GraphError
	if !errors.As(err, &ge) || ge.Rule != planner.RuleReadBeforeWrite || ge.Resource != "buf" || ge.Command != "c0" {
		t.Fatalf("Compile: got %v, want %s on buf in c0", err, planner.RuleReadBeforeWrite)
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
func roundTrip(t *testing.T, g *planner.Graph) []byte {
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
	for _, f := range datadir.Files(t, datadir.Frames) {
		t.Run(f.Test(), func(t *testing.T) {
			roundTrip(t, readFrame(t, f.Path))
		})
	}
}

func TestGraphFileRoundTripBuilt(t *testing.T) {
	g := &planner.Graph{}
	imp := g.AddResource(planner.Resource{Name: "swapchain", Kind: planner.KindImage, Imported: true,
		Image: planner.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: 1920, Height: 1080, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
			Usage: vk.ImageUsageColorAttachment | vk.ImageUsageTransferDst, InitialLayout: vk.LayoutPresentSrc}})
	lin := g.AddResource(planner.Resource{Name: "staging <&>", Kind: planner.KindImage, Memory: planner.CPUToGPU,
		Image: planner.ImageDesc{Format: vk.FormatBc1RgbUnormBlock, Width: 64, Height: 64, Depth: 1, MipLevels: 7, ArrayLayers: 6, Samples: 1,
			Tiling: vk.TilingLinear, Usage: vk.ImageUsageTransferSrc, InitialLayout: vk.LayoutPreinitialized}})
	buf := g.AddResource(planner.Resource{Name: "ünïcödé", Kind: planner.KindBuffer, Dedicated: true, Memory: planner.GPUToCPU,
		Buffer:       planner.BufferDesc{Size: 1 << 40, Usage: vk.BufferUsageTransferDst | vk.BufferUsageStorageBuffer},
		Requirements: &planner.Requirements{Size: 1<<64 - 1, Alignment: 1 << 63, MemoryTypeBits: 0xffffffff, PrefersDedicated: true, RequiresDedicated: true}})
	ms := g.AddImage("msaa", planner.ImageDesc{Format: vk.FormatD32Sfloat, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 8,
		Usage: vk.ImageUsageDepthStencilAttachment})
	g.AddCommand("upload", planner.Access{Resource: lin, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
		planner.Access{Resource: buf, Stages: vk.StageCopy | vk.StageComputeShader, Access: vk.AccessTransferWrite | vk.AccessShaderStorageRead})
	g.AddCommand("depth", planner.Access{Resource: ms, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthAttachmentOptimal})
	g.AddCommand("present", planner.Access{Resource: imp, Stages: vk.StageNone | vk.StageBottomOfPipe, Layout: vk.LayoutPresentSrc})
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

	for seed := range uint64(20) {
		roundTrip(t, proptest.RandomGraph(seed, 1+int(seed*7%30)))
	}
}

func TestWriteGraphErrors(t *testing.T) {
	tests := []struct {
		name string
		g    *planner.Graph
		rule planner.Rule
	}{
		{"format without a name", &planner.Graph{Resources: []planner.Resource{{Name: "x", Kind: planner.KindImage, Image: planner.ImageDesc{Format: 999}}}}, planner.RuleUnknownName},
		{"usage bit without a name", &planner.Graph{Resources: []planner.Resource{{Name: "x", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1, Usage: 1 << 31}}}}, planner.RuleUnknownName},
		{"kind", &planner.Graph{Resources: []planner.Resource{{Name: "x", Kind: 7}}}, planner.RuleField},
		{"memory", &planner.Graph{Resources: []planner.Resource{{Name: "x", Kind: planner.KindBuffer, Memory: 9}}}, planner.RuleUnknownName},
		{"name not UTF-8", &planner.Graph{Resources: []planner.Resource{{Name: "\xff", Kind: planner.KindBuffer}}}, planner.RuleField},
		{"resource id", &planner.Graph{Commands: []planner.Command{{Name: "c", Accesses: []planner.Access{{Resource: 3, Stages: vk.StageCopy}}}}}, planner.RuleUnknownResource},
		{"layout without a name", &planner.Graph{Resources: []planner.Resource{{Name: "x", Kind: planner.KindImage, Image: planner.ImageDesc{Format: vk.FormatR8Unorm}}},
			Commands: []planner.Command{{Name: "c", Accesses: []planner.Access{{Resource: 0, Stages: vk.StageCopy, Layout: 12345}}}}}, planner.RuleUnknownName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := WriteGraph(&out, tc.g)
			var ge *planner.GraphError
			if !errors.As(err, &ge) || ge.Rule != tc.rule {
				t.Fatalf("got %v, want a *GraphError with rule %s", err, tc.rule)
			}
			if out.Len() != 0 {
				t.Errorf("partial output written: %s", out.Bytes())
			}
		})
	}
	if err := WriteGraph(failWriter{}, &planner.Graph{}); err == nil {
		t.Error("no error from a failing writer")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
