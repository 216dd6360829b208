package format

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Images with mips, layers and aspects for the subresource-range tests.
const (
	fileArr = `{"name": "arr", "type": "image", "image": {"format": "R16G16B16A16_SFLOAT", "width": 16, "height": 16, "mipLevels": 5, "arrayLayers": 4}}`
	fileDS  = `{"name": "ds", "type": "image", "image": {"format": "D24_UNORM_S8_UINT", "width": 16, "height": 16}}`
)

// arrAccess is a colour-attachment write of arr with extra fields (a
// range), or a sampled read when read is set.
func arrAccess(read bool, extra string) string {
	if read {
		return `{"resource": "arr", "stages": ["FRAGMENT_SHADER"], "access": ["SHADER_SAMPLED_READ"], "layout": "SHADER_READ_ONLY_OPTIMAL"` + extra + `}`
	}
	return `{"resource": "arr", "stages": ["COLOR_ATTACHMENT_OUTPUT"], "access": ["COLOR_ATTACHMENT_WRITE"], "layout": "COLOR_ATTACHMENT_OPTIMAL"` + extra + `}`
}

func TestReadGraphRanges(t *testing.T) {
	res := fileBuf + ", " + fileArr + ", " + fileDS
	doc := graphDoc(res, cmdDoc("down1", arrAccess(true, `, "mips": [0, 1]`), arrAccess(false, `, "mips": [1, 1], "layers": [2, 2]`))+", "+
		cmdDoc("stencil", `{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_READ"], "layout": "DEPTH_READ_ONLY_OPTIMAL", "aspects": ["DEPTH"]}`,
			`{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_WRITE"], "layout": "STENCIL_ATTACHMENT_OPTIMAL", "aspects": ["STENCIL"]}`))
	g, err := ReadGraph(strings.NewReader(doc), "ranges.json")
	if err != nil {
		t.Fatal(err)
	}
	acc := g.Commands[0].Accesses
	if acc[0].Mips != (planner.MipRange{Base: 0, Count: 1}) || acc[0].Layers != (planner.LayerRange{}) ||
		acc[1].Mips != (planner.MipRange{Base: 1, Count: 1}) || acc[1].Layers != (planner.LayerRange{Base: 2, Count: 2}) {
		t.Errorf("ranges read as %+v", acc)
	}
	if a := g.Commands[1].Accesses; a[0].Aspects != vk.AspectDepth || a[1].Aspects != vk.AspectStencil {
		t.Errorf("aspects read as %v, %v", a[0].Aspects, a[1].Aspects)
	}
	var out bytes.Buffer
	if err := WriteGraph(&out, g); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mips": [`, `"layers": [`, `"aspects": [`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("written graph lacks %s:\n%s", want, out.String())
		}
	}
	g2, err := ReadGraph(&out, "written.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, g2) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", g2, g)
	}
	// A whole-image access writes no range: old files read and write unchanged.
	var plain bytes.Buffer
	g.Commands[0].Accesses[0].Mips = planner.MipRange{}
	if err := WriteGraph(&plain, &planner.Graph{Resources: g.Resources, Commands: g.Commands[:1]}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(plain.String(), `"mips"`); n != 1 {
		t.Errorf("%d mips fields written, want 1 (the ranged access only)", n)
	}
}

// TestWriteGraphRemainingCount: a Go range with count 0 (every level
// from base on) is written with the image's explicit count.
func TestWriteGraphRemainingCount(t *testing.T) {
	var g planner.Graph
	r := g.AddImage("arr", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, MipLevels: 5, ArrayLayers: 4})
	g.AddCommand("w", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}.WithMips(2, 0).WithLayers(1, 0))
	var out bytes.Buffer
	if err := WriteGraph(&out, &g); err != nil {
		t.Fatal(err)
	}
	s := strings.Join(strings.Fields(out.String()), "")
	if !strings.Contains(s, `"mips":[2,3]`) || !strings.Contains(s, `"layers":[1,3]`) {
		t.Errorf("count 0 not written as the explicit count:\n%s", out.String())
	}
	if _, err := ReadGraph(&out, "w.json"); err != nil {
		t.Fatal(err)
	}
}

func TestReadGraphRangeErrors(t *testing.T) {
	res := fileBuf + ", " + fileArr + ", " + fileDS
	one := func(access string) string { return graphDoc(res, cmdDoc("c0", access)) }
	tests := []struct {
		name string
		doc  string
		want planner.GraphError
	}{
		{"mips not a pair", one(arrAccess(false, `, "mips": [1]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Item: "mips", Rule: planner.RuleField, Detail: "[base, count]"}},
		{"mips count 0", one(arrAccess(false, `, "mips": [1, 0]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Item: "mips", Rule: planner.RuleSubresourceRange, Detail: "at least 1"}},
		{"mips negative", one(arrAccess(false, `, "mips": [-1, 1]`)),
			planner.GraphError{Command: "c0", Access: 0, Item: "mips", Rule: planner.RuleField}},
		{"mips huge", one(arrAccess(false, `, "mips": [1000, 1]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Item: "mips", Rule: planner.RuleSubresourceRange}},
		{"mips beyond the image", one(arrAccess(false, `, "mips": [4, 2]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Rule: planner.RuleSubresourceRange, Detail: "5 mip levels"}},
		{"base mip beyond the image", one(arrAccess(false, `, "mips": [5, 1]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Rule: planner.RuleSubresourceRange, Detail: "5 mip levels"}},
		{"layers beyond the image", one(arrAccess(false, `, "layers": [3, 2]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Rule: planner.RuleSubresourceRange, Detail: "4 array layers"}},
		{"unknown aspect", one(arrAccess(false, `, "aspects": ["COLOUR"]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Item: "aspects", Rule: planner.RuleUnknownName, Detail: `"COLOUR"`}},
		{"depth aspect of a colour image", one(arrAccess(false, `, "aspects": ["DEPTH"]`)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "arr", Rule: planner.RuleAspects, Detail: "has only COLOR"}},
		{"colour aspect of a depth image", one(`{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_WRITE"], "layout": "DEPTH_STENCIL_ATTACHMENT_OPTIMAL", "aspects": ["COLOR"]}`),
			planner.GraphError{Command: "c0", Access: 0, Resource: "ds", Rule: planner.RuleAspects, Detail: "DEPTH|STENCIL"}},
		{"range on a buffer", one(strings.Replace(fileWrite, `}`, `, "mips": [0, 1]}`, 1)),
			planner.GraphError{Command: "c0", Access: 0, Resource: "buf", Rule: planner.RuleSubresourceRange, Detail: "buffer"}},
		{"one mip in two layouts", graphDoc(res, cmdDoc("c0", arrAccess(true, `, "mips": [0, 2]`), arrAccess(false, `, "mips": [1, 1]`))),
			planner.GraphError{Command: "c0", Access: 1, Resource: "arr", Rule: planner.RuleTwoLayouts, Detail: "on mips [1, 1] layers [0, 4]"}},
		{"whole image and one layer in two layouts", graphDoc(res, cmdDoc("c0", arrAccess(true, ``), arrAccess(false, `, "layers": [3, 1]`))),
			planner.GraphError{Command: "c0", Access: 1, Resource: "arr", Rule: planner.RuleTwoLayouts, Detail: "layers [3, 1]"}},
		{"one aspect in two layouts", graphDoc(res, cmdDoc("c0",
			`{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_READ"], "layout": "DEPTH_READ_ONLY_OPTIMAL", "aspects": ["DEPTH"]}`,
			`{"resource": "ds", "stages": ["EARLY_FRAGMENT_TESTS"], "access": ["DEPTH_STENCIL_ATTACHMENT_WRITE"], "layout": "DEPTH_STENCIL_ATTACHMENT_OPTIMAL"}`)),
			planner.GraphError{Command: "c0", Access: 1, Resource: "ds", Rule: planner.RuleTwoLayouts, Detail: "aspects DEPTH"}},
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
		})
	}
}
