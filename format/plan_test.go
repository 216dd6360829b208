package format

import (
	"bytes"
	"errors"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// planSample returns a small graph and a plan of it that uses every field
// of the plan file: every status, both classes, every barrier kind and
// type. The plan is not meant to pass Verify.
func planSample() (*planner.Graph, *planner.Plan) {
	g := &planner.Graph{}
	req := func(size, align uint64) *planner.Requirements {
		return &planner.Requirements{Size: size, Alignment: align, MemoryTypeBits: 3}
	}
	img := planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled | vk.ImageUsageStorage}
	albedo := g.AddResource(planner.Resource{Name: "gbuffer.albedo", Kind: planner.KindImage, Image: img, Requirements: req(65536, 65536)})
	ssao := g.AddResource(planner.Resource{Name: "ssao", Kind: planner.KindImage, Image: img, Requirements: req(65536, 65536)})
	lights := g.AddResource(planner.Resource{Name: "lights", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 20}, Dedicated: true,
		Requirements: &planner.Requirements{Size: 1 << 20, Alignment: 256, MemoryTypeBits: 0x1f, PrefersDedicated: true}})
	bb := g.AddResource(planner.Resource{Name: "backbuffer", Kind: planner.KindImage, Imported: true, Image: img})
	rb := g.AddResource(planner.Resource{Name: "readback <&>", Kind: planner.KindBuffer, Memory: planner.GPUToCPU, Buffer: planner.BufferDesc{Size: 256}, Requirements: req(256, 256)})
	g.AddResource(planner.Resource{Name: "unused", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256}})
	tmp := g.AddResource(planner.Resource{Name: "tmp", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256}, Requirements: req(256, 256)})
	g.AddCommand("gbuffer", planner.Access{Resource: albedo, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
		planner.Access{Resource: lights, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
	g.AddCommand("ssao \"quoted\"", planner.Access{Resource: albedo, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		planner.Access{Resource: ssao, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
		planner.Access{Resource: tmp, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("present", planner.Access{Resource: bb, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal},
		planner.Access{Resource: rb, Stages: vk.StageCopy, Access: vk.AccessTransferWrite}, planner.Access{Resource: ssao, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	p := &planner.Plan{
		Strategy:     "firstfit",
		Requirements: "graph",
		Order:        []planner.CommandID{0, 1, 2},
		Pools: []planner.Pool{{Index: 0, MemoryTypeIndex: 1, Class: planner.ClassOptimal, Size: 65536},
			{Index: 1, MemoryTypeIndex: 0, Class: planner.ClassLinear, Size: 256}},
		Resources: []planner.ResourcePlan{
			{Status: planner.StatusPooled, Requirements: *g.Resources[0].Requirements, Placement: planner.Placement{Pool: 0, Offset: 0, Size: 65536, Alignment: 65536, Aliased: true}},
			{Status: planner.StatusPooled, Requirements: *g.Resources[1].Requirements, Placement: planner.Placement{Pool: 0, Offset: 0, Size: 65536, Alignment: 65536, Aliased: true}},
			{Status: planner.StatusDedicated, Reason: "prefersDedicated", Requirements: *g.Resources[2].Requirements},
			{Status: planner.StatusImported, Reason: "owned by the caller"},
			{Status: planner.StatusHostVisible, Reason: "host-visible (gpu_to_cpu)", Requirements: *g.Resources[4].Requirements},
			{Status: planner.StatusUnused, Reason: "no command uses it"},
			{Status: planner.StatusPooled, Requirements: *g.Resources[6].Requirements, Placement: planner.Placement{Pool: 1, Size: 256, Alignment: 256}},
		},
		Barriers: []planner.Barrier{
			{Before: 0, Kind: planner.Hazard, Type: planner.ImageBarrier, Resource: albedo, DstStages: vk.StageColorAttachmentOutput, DstAccess: vk.AccessColorAttachmentWrite,
				OldLayout: vk.LayoutUndefined, NewLayout: vk.LayoutColorAttachmentOptimal},
			{Before: 1, Kind: planner.Hazard, Type: planner.BufferBarrier, Resource: lights, SrcStages: vk.StageCopy, SrcAccess: vk.AccessTransferWrite,
				DstStages: vk.StageComputeShader | vk.StageFragmentShader, DstAccess: vk.AccessShaderStorageRead | vk.AccessUniformRead},
			{Before: 1, Kind: planner.Alias, Type: planner.ImageBarrier, Resource: ssao, Previous: []planner.ResourceID{albedo}, SrcStages: vk.StageFragmentShader,
				DstStages: vk.StageComputeShader, DstAccess: vk.AccessShaderStorageWrite, OldLayout: vk.LayoutUndefined, NewLayout: vk.LayoutGeneral},
			{Before: 2, Kind: planner.Alias, Type: planner.MemoryBarrier, Resource: tmp, Previous: []planner.ResourceID{albedo, ssao}, SrcStages: vk.StageComputeShader,
				SrcAccess: vk.AccessShaderStorageWrite, DstStages: vk.StageCopy, DstAccess: vk.AccessTransferWrite},
		},
		Stats: planner.Stats{TransientBytes: 131328, PooledBytes: 65792, LowerBound: 65536, DedicatedBytes: 1<<20 + 256},
	}
	return g, p
}

func writePlanString(t testing.TB, g *planner.Graph, p *planner.Plan) string {
	t.Helper()
	var b bytes.Buffer
	if err := WritePlan(&b, g, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPlanFileRoundTrip(t *testing.T) {
	g, p := planSample()
	text := writePlanString(t, g, p)
	got, err := ReadPlan(strings.NewReader(text), "sample.plan.json", g)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", got, p)
	}
	if again := writePlanString(t, g, got); again != text {
		t.Errorf("second write differs:\n%s\nfirst:\n%s", again, text)
	}
}

func TestWritePlanFormat(t *testing.T) {
	g := &planner.Graph{}
	b := g.AddResource(planner.Resource{Name: "b", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256}, Requirements: &planner.Requirements{Size: 256, Alignment: 256, MemoryTypeBits: 1}})
	g.AddCommand("w", planner.Access{Resource: b, Stages: vk.StageCopy, Access: vk.AccessTransferWrite})
	g.AddCommand("r", planner.Access{Resource: b, Stages: vk.StageComputeShader | vk.StageFragmentShader, Access: vk.AccessShaderStorageRead})
	p := &planner.Plan{Strategy: "firstfit", Order: []planner.CommandID{0, 1},
		Pools:     []planner.Pool{{Index: 0, Class: planner.ClassLinear, Size: 256}},
		Resources: []planner.ResourcePlan{{Status: planner.StatusPooled, Requirements: *g.Resources[0].Requirements, Placement: planner.Placement{Size: 256, Alignment: 256}}},
		Barriers: []planner.Barrier{{Before: 1, Type: planner.BufferBarrier, Resource: b, SrcStages: vk.StageCopy, SrcAccess: vk.AccessTransferWrite,
			DstStages: vk.StageComputeShader | vk.StageFragmentShader, DstAccess: vk.AccessShaderStorageRead}},
		Stats: planner.Stats{TransientBytes: 256, PooledBytes: 256, LowerBound: 256}}
	want := `{
  "version": 1,
  "strategy": "firstfit",
  "ordering": "dag",
  "order": [
    "w",
    "r"
  ],
  "pools": [
    {"index": 0, "memoryTypeIndex": 0, "class": "linear", "size": 256}
  ],
  "resources": [
    {"name": "b", "status": "pooled", "pool": 0, "offset": 0, "size": 256, "alignment": 256, "aliased": false, "requirements": {"size": 256, "alignment": 256, "memoryTypeBits": 1}}
  ],
  "barriers": [
    {"before": "r", "kind": "hazard", "type": "buffer", "resource": "b", "srcStages": ["COPY"], "srcAccess": ["TRANSFER_WRITE"], "dstStages": ["FRAGMENT_SHADER", "COMPUTE_SHADER"], "dstAccess": ["SHADER_STORAGE_READ"]}
  ],
  "stats": {"transientBytes": 256, "pooledBytes": 256, "lowerBound": 256, "dedicatedBytes": 0, "executionBound": 0}
}
`
	if got := writePlanString(t, g, p); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// A nil order is written as the recorded order; empty lists stay lists.
	p.Order, p.Barriers = nil, nil
	got := writePlanString(t, g, p)
	if !strings.Contains(got, "\"order\": [\n    \"w\",\n    \"r\"\n  ]") || !strings.Contains(got, "\"barriers\": [],") {
		t.Errorf("got:\n%s", got)
	}
}

func TestWritePlanErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(p *planner.Plan)
		want   string
	}{
		{"order", func(p *planner.Plan) { p.Order[1] = 9 }, "command 9"},
		{"resources", func(p *planner.Plan) { p.Resources = p.Resources[:2] }, "plan has 2 resources"},
		{"status", func(p *planner.Plan) { p.Resources[0].Status = 9 }, "Status(9)"},
		{"class", func(p *planner.Plan) { p.Pools[0].Class = 7 }, "Class(7)"},
		{"before", func(p *planner.Plan) { p.Barriers[0].Before = -1 }, "command -1"},
		{"resource", func(p *planner.Plan) { p.Barriers[0].Resource = 99 }, "resource 99"},
		{"previous", func(p *planner.Plan) { p.Barriers[2].Previous = []planner.ResourceID{42} }, "old occupant 42"},
		{"kind", func(p *planner.Plan) { p.Barriers[0].Kind = 5 }, "BarrierKind(5)"},
		{"type", func(p *planner.Plan) { p.Barriers[0].Type = 5 }, "BarrierType(5)"},
		{"stage", func(p *planner.Plan) { p.Barriers[0].SrcStages = 1 << 60 }, "bit 0x1000000000000000"},
		{"layout", func(p *planner.Plan) { p.Barriers[0].NewLayout = 12345 }, "Layout(12345)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, p := planSample()
			tc.mutate(p)
			err := WritePlan(&bytes.Buffer{}, g, p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("WritePlan: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	g, p := planSample()
	if err := WritePlan(planFailWriter{}, g, p); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WritePlan to a failing writer: %v", err)
	}
}

type planFailWriter struct{}

func (planFailWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestReadPlanErrors(t *testing.T) {
	g, p := planSample()
	text := writePlanString(t, g, p)
	for _, tc := range []struct {
		name     string
		old, new string // the first old in the written sample becomes new
		rule     planner.Rule
		item     string // expected GraphError.Item
	}{
		{"syntax", `"version": 1,`, `"version": 1`, planner.RuleSyntax, ""},
		{"truncated", `"stats"`, ``, planner.RuleSyntax, ""},
		{"trailing data", "}\n", "}\n{}", planner.RuleSyntax, ""},
		{"unknown field", `"strategy"`, `"strategie"`, planner.RuleUnknownField, ""},
		{"wrong type", `"version": 1`, `"version": "1"`, planner.RuleField, "version"},
		{"negative", `"offset": 0`, `"offset": -1`, planner.RuleField, "resources.offset"},
		{"version", `"version": 1`, `"version": 2`, planner.RuleVersion, "version"},
		{"no version", `"version": 1,`, ``, planner.RuleMissingField, "version"},
		{"no order", `"order"`, `"unordered": 1, "x"`, planner.RuleUnknownField, ""},
		{"unknown command", `"present"`, `"presnet"`, planner.RuleUnknownCommand, "order[2]"},
		{"command twice", `"present"`, `"gbuffer"`, planner.RuleDuplicateName, "order[2]"},
		{"order too short", "    \"ssao \\\"quoted\\\"\",\n", "", planner.RuleOrder, "order"},
		{"pool index", `{"index": 1`, `{"index": 0`, planner.RuleField, "pools[1].index"},
		{"pool class", `"class": "linear"`, `"class": "lineal"`, planner.RuleUnknownName, "pools[1].class"},
		{"pool memory type", `"memoryTypeIndex": 1`, `"memoryTypeIndex": 32`, planner.RuleField, "pools[0].memoryTypeIndex"},
		{"no pool size", `, "size": 256}`, `}`, planner.RuleMissingField, "pools[1].size"},
		{"unknown resource", `{"name": "lights"`, `{"name": "lamps"`, planner.RuleUnknownResource, "resources[2]"},
		{"resource twice", `{"name": "lights"`, `{"name": "ssao"`, planner.RuleDuplicateName, "resources[2]"},
		{"status", `"status": "imported"`, `"status": "borrowed"`, planner.RuleUnknownName, "resources[3].status"},
		{"no status", `"status": "imported", `, ``, planner.RuleMissingField, "resources[3].status"},
		{"placement on unpooled", `"status": "imported"`, `"status": "imported", "offset": 0`, planner.RuleField, "resources[3]"},
		{"no pool", `"pool": 1, `, ``, planner.RuleMissingField, "resources[6].pool"},
		{"no offset", `"pool": 1, "offset": 0, `, `"pool": 1, `, planner.RuleMissingField, "resources[6].offset"},
		{"pool out of range", `"pool": 1,`, `"pool": 2,`, planner.RuleField, "resources[6].pool"},
		{"alignment", `"size": 256, "alignment": 256, "aliased"`, `"size": 256, "alignment": 3, "aliased"`, planner.RuleAlignment, "resources[6].alignment"},
		{"zero size", `"size": 256, "alignment": 256, "aliased"`, `"size": 0, "alignment": 256, "aliased"`, planner.RuleZeroSize, "resources[6].size"},
		{"missing resource", `{"name": "unused", "status": "unused", "reason": "no command uses it"},`, ``, planner.RuleMissingResource, "resources"},
		{"barrier before", `{"before": "present"`, `{"before": "past"`, planner.RuleUnknownCommand, "barriers[3].before"},
		{"barrier resource", `"resource": "tmp"`, `"resource": "temp"`, planner.RuleUnknownResource, "barriers[3].resource"},
		{"barrier kind", `"kind": "alias", "type": "memory"`, `"kind": "aliasing", "type": "memory"`, planner.RuleUnknownName, "barriers[3].kind"},
		{"barrier type", `"type": "memory"`, `"type": "global"`, planner.RuleUnknownName, "barriers[3].type"},
		{"no previous", `"previous": ["gbuffer.albedo", "ssao"], `, ``, planner.RuleMissingField, "barriers[3].previous"},
		{"unknown previous", `"previous": ["gbuffer.albedo", "ssao"]`, `"previous": ["gbuffer.albedo", "sao"]`, planner.RuleUnknownResource, "barriers[3].previous[1]"},
		{"previous on hazard", `"kind": "hazard", "type": "buffer", "resource": "lights", `, `"kind": "hazard", "type": "buffer", "resource": "lights", "previous": [], `, planner.RuleField, "barriers[1].previous"},
		{"stage", `"srcStages": ["COPY"]`, `"srcStages": ["COPY_BIT"]`, planner.RuleUnknownName, "barriers[1].srcStages"},
		{"access", `"srcAccess": ["TRANSFER_WRITE"]`, `"srcAccess": ["TRANSFER_WRITES"]`, planner.RuleUnknownName, "barriers[1].srcAccess"},
		{"no stages", `"dstStages": ["COPY"], `, ``, planner.RuleMissingField, "barriers[3].dstStages"},
		{"layout on buffer", `"dstAccess": ["UNIFORM_READ", "SHADER_STORAGE_READ"]`, `"dstAccess": [], "newLayout": "GENERAL"`, planner.RuleField, "barriers[1].oldLayout"},
		{"no layout", `, "oldLayout": "UNDEFINED", "newLayout": "GENERAL"`, ``, planner.RuleMissingField, "barriers[2].oldLayout"},
		{"unknown layout", `"newLayout": "GENERAL"`, `"newLayout": "GENERIC"`, planner.RuleUnknownName, "barriers[2].newLayout"},
		{"no stats", `"lowerBound": 65536, `, ``, planner.RuleMissingField, "stats.lowerBound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(text, tc.old) {
				t.Fatalf("the sample has no %q:\n%s", tc.old, text)
			}
			bad := strings.Replace(text, tc.old, tc.new, 1)
			_, err := ReadPlan(strings.NewReader(bad), "bad.plan.json", g)
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("ReadPlan: %v, want a *GraphError", err)
			}
			if ge.Rule != tc.rule || ge.Item != tc.item || ge.File != "bad.plan.json" {
				t.Errorf("ReadPlan: rule %s item %q file %q (%v), want rule %s item %q", ge.Rule, ge.Item, ge.File, err, tc.rule, tc.item)
			}
		})
	}
}

func TestReadPlanNamesTheItem(t *testing.T) {
	g, p := planSample()
	text := strings.Replace(writePlanString(t, g, p), `"srcStages": ["COPY"]`, `"srcStages": ["COPY_BIT"]`, 1)
	_, err := ReadPlan(strings.NewReader(text), "f.json", g)
	want := `planner: f.json: command "ssao \"quoted\"" resource "lights" barriers[1].srcStages: unknown stage "COPY_BIT" (rule unknown-name)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestReadPlanReaderError(t *testing.T) {
	g, _ := planSample()
	_, err := ReadPlan(planFailReader{}, "f.json", g)
	if err == nil || !strings.Contains(err.Error(), "f.json") || !strings.Contains(err.Error(), "unplugged") {
		t.Errorf("ReadPlan: %v", err)
	}
}

type planFailReader struct{}

func (planFailReader) Read([]byte) (int, error) { return 0, errors.New("unplugged") }

// FuzzReadPlan: ReadPlan never panics, and what it accepts writes back to
// bytes that read back to the same plan.
func FuzzReadPlan(f *testing.F) {
	g, p := planSample()
	var b bytes.Buffer
	if err := WritePlan(&b, g, p); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	p.Order, p.Barriers, p.Pools = nil, nil, nil
	for i := range p.Resources {
		p.Resources[i].Status = planner.StatusDedicated
	}
	b.Reset()
	if err := WritePlan(&b, g, p); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	og, op := orderedSample()
	b.Reset()
	if err := WritePlan(&b, og, op); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	c, err := planner.Compile(g)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`{"version": 1, "order": [], "resources": [], "stats": {}}`))
	// The golden plans of the barriers package are for graphs this test
	// does not have: they seed the syntax only.
	files, _ := filepath.Glob(filepath.Join("testdata", "plans", "*.plan.json"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 1<<16 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPlan(bytes.NewReader(data), "fuzz", g)
		if err != nil {
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("not a *GraphError: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WritePlan(&out, g, p); err != nil {
			t.Fatalf("cannot write what was read: %v", err)
		}
		back, err := ReadPlan(bytes.NewReader(out.Bytes()), "rewritten", g)
		if err != nil {
			t.Fatalf("cannot read what was written: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("round trip changed the plan:\n%+v\n%+v", p, back)
		}
		// Verify judges whatever was read without panicking.
		_ = verify.Plan(c, p)
		_ = planner.OrderedPairs(c, p)
	})
}
