package planner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Tests for issue 19 (hardening, round 2): each graph here planned
// without an error before (or, for the nil solution, panicked).

// twoWriters is one command writing a and b (so that they interfere) and
// one reading both.
func twoWriters(a, b planner.Resource, wa, wb planner.Access) *planner.Graph {
	g := &planner.Graph{}
	ra, rb := g.AddResource(a), g.AddResource(b)
	wa.Resource, wb.Resource = ra, rb
	g.AddCommand("write", wa, wb)
	ra2, rb2 := wa, wb
	ra2.Access, rb2.Access = vk.AccessShaderStorageRead, vk.AccessShaderStorageRead
	g.AddCommand("read", ra2, rb2)
	return g
}

var storageWrite = planner.Access{Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}

// Why 1: explicit requirements below the resource's real size were
// trusted, so a neighbour overlapped its real bytes.
func TestRequirementsTooSmall(t *testing.T) {
	small := &planner.Requirements{Size: 256, Alignment: 256, MemoryTypeBits: 0x1f}
	buf := planner.Resource{Name: "big", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 20}, Requirements: small}
	other := planner.Resource{Name: "other", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256}}
	_, _, err := place(t, twoWriters(buf, other, storageWrite, storageWrite), planner.Options{})
	wantRule(t, err, planner.RuleRequirementsTooSmall, "big")

	// A 4096x4096 RGBA32F image (256 MiB of texels) with a 1080p-sized
	// 64 KiB requirements block.
	img := planner.Resource{Name: "hdr", Kind: planner.KindImage,
		Image:        planner.ImageDesc{Format: vk.FormatR32G32B32A32Sfloat, Width: 4096, Height: 4096, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1},
		Requirements: &planner.Requirements{Size: 64 << 10, Alignment: 64 << 10, MemoryTypeBits: 0x3}}
	imgB := img
	imgB.Name, imgB.Requirements = "next", nil
	general := storageWrite
	general.Layout = vk.LayoutGeneral
	_, _, err = place(t, twoWriters(img, imgB, general, general), planner.Options{})
	wantRule(t, err, planner.RuleRequirementsTooSmall, "hdr")
	if !strings.Contains(err.Error(), "268435456 texel bytes") {
		t.Errorf("error %q does not give the texel bytes", err)
	}

	// Exactly the resource's size passes; D32_SFLOAT_S8_UINT needs 5
	// bytes a texel (a driver may store stencil apart), not the
	// profile's 8.
	buf.Requirements = &planner.Requirements{Size: 1 << 20, Alignment: 256, MemoryTypeBits: 0x1f}
	if _, _, err := place(t, twoWriters(buf, other, storageWrite, storageWrite), planner.Options{}); err != nil {
		t.Fatal(err)
	}
	ds := planner.Resource{Name: "ds", Kind: planner.KindImage,
		Image: planner.ImageDesc{Format: vk.FormatD32SfloatS8Uint, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1}}
	dsw := planner.Access{Stages: vk.StageEarlyFragmentTests, Access: vk.AccessDepthStencilAttachmentWrite, Layout: vk.LayoutDepthStencilAttachmentOptimal}
	for _, tc := range []struct {
		size uint64
		ok   bool
	}{{64 * 64 * 5, true}, {64*64*5 - 1, false}} {
		g := &planner.Graph{}
		d := ds
		d.Requirements = &planner.Requirements{Size: tc.size, Alignment: 1024, MemoryTypeBits: 0x3}
		dsw.Resource = g.AddResource(d)
		g.AddCommand("depth", dsw)
		err := planner.Validate(g)
		if tc.ok != (err == nil) {
			t.Errorf("D32_SFLOAT_S8_UINT 64x64 with %d bytes: %v", tc.size, err)
		}
	}
}

// Why 1: a 300 GiB buffer on the 141 GiB H200 profile and a 2^63-byte
// buffer planned with exit 0.
func TestHeapAndAllocationLimits(t *testing.T) {
	frame := func(size uint64, req *planner.Requirements) *planner.Graph {
		g := &planner.Graph{}
		b := g.AddResource(planner.Resource{Name: "b", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: size}, Requirements: req})
		g.AddCommand("w", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		return g
	}
	for _, tc := range []struct {
		name string
		g    *planner.Graph
		src  planner.RequirementsSource
		rule planner.Rule
	}{
		{"300 GiB on the H200", frame(300<<30, nil), nil, planner.RuleHeapSize},
		{"2^63 bytes on the H200", frame(1<<63, nil), nil, planner.RuleHeapSize},
		{"5 GiB on the H200", frame(5<<30, nil), nil, planner.RuleMaxAllocation},
		{"3 GiB on lavapipe", frame(3<<30, nil), planner.ProfileLavapipe, planner.RuleHeapSize},
		// Explicit requirements that may use host memory (heap size
		// unknown) are still held to maxMemoryAllocationSize.
		{"explicit 300 GiB, host memory only", frame(300<<30, &planner.Requirements{Size: 300 << 30, Alignment: 256, MemoryTypeBits: 0x1}), nil, planner.RuleMaxAllocation},
		{"explicit 300 GiB", frame(300<<30, &planner.Requirements{Size: 300 << 30, Alignment: 256, MemoryTypeBits: 0x1f}), nil, planner.RuleHeapSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := place(t, tc.g, planner.Options{Source: tc.src})
			wantRule(t, err, tc.rule, "b")
		})
	}
	// The largest allocation the H200 promises is fine.
	if _, _, err := place(t, frame(0xffe00000, nil), planner.Options{}); err != nil {
		t.Fatal(err)
	}
}

// Pools: capped at maxMemoryAllocationSize by default, and refused when
// the pools of one heap cannot all fit in it.
func TestPoolLimits(t *testing.T) {
	q := planner.Requirements{Size: 1 << 30, Alignment: 256, MemoryTypeBits: 0x2} // device-local only
	_, p, err := place(t, bufferFrame(6, q, nil), planner.Options{DedicatedThreshold: planner.NoDedicatedThreshold})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Pools) < 2 {
		t.Errorf("6 interfering GiB in %d pool(s); want each at most maxMemoryAllocationSize", len(p.Pools))
	}
	for _, pl := range p.Pools {
		if pl.Size > 0xffe00000 {
			t.Errorf("pool %d of %d bytes exceeds the H200's maxMemoryAllocationSize", pl.Index, pl.Size)
		}
	}
	// 150 interfering GiB do not fit in the 140.4 GiB heap.
	_, _, err = place(t, bufferFrame(150, q, nil), planner.Options{DedicatedThreshold: planner.NoDedicatedThreshold})
	var ge *planner.GraphError
	if !errors.As(err, &ge) || ge.Rule != planner.RuleHeapSize || !strings.HasPrefix(ge.Item, "pool ") {
		t.Fatalf("150 GiB of pools on the H200: %v; want rule %s naming a pool", err, planner.RuleHeapSize)
	}
}

// Why 3: undefined enum values passed the library (WriteGraph refused
// them only later).
func TestUndefinedValues(t *testing.T) {
	img := planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 16, Height: 16}
	for _, tc := range []struct {
		name  string
		build func(g *planner.Graph)
		rule  planner.Rule
	}{
		{"stage bit 1<<60", func(g *planner.Graph) {
			b := g.AddBuffer("b", planner.BufferDesc{Size: 256})
			g.AddCommand("c", planner.Access{Resource: b, Stages: vk.StageComputeShader | 1<<60, Access: vk.AccessShaderStorageWrite})
		}, planner.RuleUnknownName},
		{"access bit 1<<62", func(g *planner.Graph) {
			b := g.AddBuffer("b", planner.BufferDesc{Size: 256})
			g.AddCommand("c", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite | 1<<62})
		}, planner.RuleUnknownName},
		{"layout 12345", func(g *planner.Graph) {
			i := g.AddImage("b", img)
			g.AddCommand("c", planner.Access{Resource: i, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: 12345})
		}, planner.RuleUnknownName},
		{"format 999", func(g *planner.Graph) {
			d := img
			d.Format = 999
			i := g.AddImage("b", d)
			g.AddCommand("c", planner.Access{Resource: i, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		}, planner.RuleUnknownName},
		{"format UNDEFINED", func(g *planner.Graph) {
			d := img
			d.Format = vk.FormatUndefined
			i := g.AddImage("b", d)
			g.AddCommand("c", planner.Access{Resource: i, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
		}, planner.RuleField},
		{"initial layout 777", func(g *planner.Graph) {
			d := img
			d.InitialLayout = 777
			g.AddResource(planner.Resource{Name: "b", Kind: planner.KindImage, Imported: true, Image: d})
		}, planner.RuleUnknownName},
		{"image usage bit 1<<31", func(g *planner.Graph) {
			d := img
			d.Usage = vk.ImageUsageStorage | 1<<31
			g.AddImage("b", d)
		}, planner.RuleUnknownName},
		{"buffer usage bit 1<<30", func(g *planner.Graph) {
			g.AddBuffer("b", planner.BufferDesc{Size: 256, Usage: 1 << 30})
		}, planner.RuleUnknownName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &planner.Graph{}
			tc.build(g)
			wantRule(t, planner.Validate(g), tc.rule, "b")
		})
	}
}

// Why 3 and 5: invalid UTF-8 passed the library; a NUL or U+202E in a
// name reached the SVG and the terminal.
func TestNameCharacters(t *testing.T) {
	for _, name := range []string{"\xff", "a\x00b", "tab\there", "line\nbreak", "evil\u202eedoc", "del\x7f", "c1\u0085", "iso\u2066", "sep\u2028", "non\uffff"} {
		g := &planner.Graph{}
		b := g.AddBuffer(name, planner.BufferDesc{Size: 256})
		g.AddCommand("c", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		wantRule(t, planner.Validate(g), planner.RuleNameCharacters, name)

		g = &planner.Graph{}
		b = g.AddBuffer("b", planner.BufferDesc{Size: 256})
		g.AddCommand(name, planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		var ge *planner.GraphError
		if err := planner.Validate(g); !errors.As(err, &ge) || ge.Rule != planner.RuleNameCharacters || ge.Command != name {
			t.Errorf("command %q: %v; want rule %s", name, err, planner.RuleNameCharacters)
		} else if strings.ContainsAny(err.Error(), "\x00\t\n\u202e\u2028") {
			t.Errorf("the error message carries the character raw: %q", err.Error())
		}
	}
	g := &planner.Graph{}
	b := g.AddBuffer("ünïcödé ✓ \ufffd", planner.BufferDesc{Size: 256})
	g.AddCommand("שלום", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	if err := planner.Validate(g); err != nil {
		t.Errorf("printable names refused: %v", err)
	}
}

// Why 7 (and item 1): an image with only SAMPLED usage written as a
// storage image planned without error; so did every other access or
// layout its usage flags do not allow.
func TestUsageFlags(t *testing.T) {
	image := func(usage vk.ImageUsage) planner.Resource {
		return planner.Resource{Name: "r", Kind: planner.KindImage,
			Image: planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Usage: usage}}
	}
	buffer := func(usage vk.BufferUsage) planner.Resource {
		return planner.Resource{Name: "r", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256, Usage: usage}}
	}
	access := func(s vk.Stage, a vk.AccessFlags, l vk.Layout) planner.Access {
		return planner.Access{Stages: s, Access: a, Layout: l}
	}
	for _, tc := range []struct {
		name string
		res  planner.Resource
		a    planner.Access
		ok   bool
	}{
		{"SAMPLED image written as storage", image(vk.ImageUsageSampled), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, vk.LayoutGeneral), false},
		{"STORAGE image written as storage", image(vk.ImageUsageSampled | vk.ImageUsageStorage), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, vk.LayoutGeneral), true},
		{"legacy SHADER_WRITE without STORAGE", image(vk.ImageUsageSampled), access(vk.StageComputeShader, vk.AccessShaderWrite, vk.LayoutGeneral), false},
		{"colour attachment without the usage", image(vk.ImageUsageStorage), access(vk.StageColorAttachmentOutput, vk.AccessColorAttachmentWrite, vk.LayoutGeneral), false},
		{"COLOR_ATTACHMENT_OPTIMAL without the usage", image(vk.ImageUsageStorage), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, vk.LayoutColorAttachmentOptimal), false},
		{"depth write without the usage", image(vk.ImageUsageColorAttachment), access(vk.StageEarlyFragmentTests, vk.AccessDepthStencilAttachmentWrite, vk.LayoutGeneral), false},
		{"transfer write without TRANSFER_DST", image(vk.ImageUsageSampled), access(vk.StageCopy, vk.AccessTransferWrite, vk.LayoutGeneral), false},
		{"TRANSFER_DST_OPTIMAL with TRANSFER_DST", image(vk.ImageUsageTransferDst), access(vk.StageCopy, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal), true},
		{"index read of an image, usage undeclared", image(0), access(vk.StageIndexInput, vk.AccessIndexRead, vk.LayoutGeneral), false},
		{"usage undeclared", image(0), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, vk.LayoutColorAttachmentOptimal), true},
		{"storage buffer filled by a copy", buffer(vk.BufferUsageStorageBuffer), access(vk.StageCopy, vk.AccessTransferWrite, 0), false},
		{"storage buffer written", buffer(vk.BufferUsageStorageBuffer), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, 0), true},
		{"uniform buffer written as storage", buffer(vk.BufferUsageUniformBuffer), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, 0), false},
		{"device-address buffer written", buffer(vk.BufferUsageShaderDeviceAddress), access(vk.StageComputeShader, vk.AccessShaderStorageWrite, 0), true},
		{"a buffer as a colour attachment, usage undeclared", buffer(0), access(vk.StageColorAttachmentOutput, vk.AccessColorAttachmentWrite, 0), false},
		{"indirect read without INDIRECT_BUFFER", buffer(vk.BufferUsageStorageBuffer | vk.BufferUsageTransferDst), access(vk.StageDrawIndirect, vk.AccessIndirectCommandRead, 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &planner.Graph{}
			tc.a.Resource = g.AddResource(tc.res)
			if tc.a.Access.Writes() == 0 {
				// Written first by an access every usage above allows, so
				// that the case's access is the one judged.
				g.AddCommand("fill", planner.Access{Resource: tc.a.Resource, Stages: vk.StageAllCommands, Access: vk.AccessMemoryWrite, Layout: vk.LayoutGeneral})
			}
			g.AddCommand("c", tc.a)
			err := planner.Validate(g)
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRule(t, err, planner.RuleUsage, "r")
		})
	}
}

// Why 7: memoryTypeBits naming no type of the profile had no rule name.
func TestMemoryTypeBitsRule(t *testing.T) {
	g := &planner.Graph{}
	b := g.AddResource(planner.Resource{Name: "b", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256},
		Requirements: &planner.Requirements{Size: 256, Alignment: 256, MemoryTypeBits: 0x100}})
	g.AddCommand("w", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	_, _, err := place(t, g, planner.Options{})
	wantRule(t, err, planner.RuleMemoryTypeBits, "b")
	if !strings.Contains(err.Error(), "profile h200") {
		t.Errorf("error %q does not name the profile", err)
	}
}

// nilStrategy answers (nil, nil), or an empty solution.
type nilStrategy struct{ empty bool }

func (nilStrategy) Name() string { return "broken" }

func (s nilStrategy) Place(*planner.Problem) (*planner.Solution, error) {
	if s.empty {
		return &planner.Solution{}, nil
	}
	return nil, nil
}

// Why 4: a strategy returning (nil, nil) crashed Place (a nil
// dereference in CheckSolution); under every ordering it is an error
// naming the strategy.
func TestNilSolution(t *testing.T) {
	g := imageFrame(r8(16, 16, 1))
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []nilStrategy{{}, {empty: true}} {
		for _, order := range []planner.Ordering{planner.OrderDAG, planner.OrderExecution} {
			_, err := planner.Place(c, planner.Options{Strategy: s, Order: order})
			if err == nil || !strings.Contains(err.Error(), "strategy broken") {
				t.Errorf("empty %v, %s: Place = %v; want an error naming the strategy", s.empty, order, err)
			}
		}
	}
}

// Error messages quote what they print: names always (%q), a file's path
// when it holds a control or bidirectional character.
func TestErrorsQuote(t *testing.T) {
	e := &planner.GraphError{File: "dir/evil\u202e.json", Resource: "r\x00", Command: "c\u202e", Access: 0, Rule: planner.RuleField, Detail: "x"}
	msg := e.Error()
	if strings.ContainsAny(msg, "\x00\u202e") {
		t.Errorf("message carries a control raw: %q", msg)
	}
	for _, want := range []string{`"dir/evil\u202e.json": `, `command "c\u202e" access 0 resource "r\x00"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %s", msg, want)
		}
	}
	be := &planner.BarrierError{Before: "b\u2028", Resource: "r\x1b", Previous: "p\u202e", Barrier: -1, Rule: planner.RuleAliasBarrier}
	if strings.ContainsAny(be.Error(), "\u2028\x1b\u202e") {
		t.Errorf("barrier error carries a control raw: %q", be.Error())
	}
}
