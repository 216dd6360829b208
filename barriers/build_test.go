package barriers_test

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"

	"github.com/aliasplan/aliasplan/planner"
)

// Each case builds a frame, places some transients by hand, runs Build and
// verify.Plan, and compares the barriers, one a line (see describe).
var buildCases = []struct {
	name  string
	frame func() (*frame, map[string]at)
	want  string
}{{
	// The old occupant only reads at the end: the alias barrier is a memory
	// barrier with an execution-only source.
	name: "read-only old occupant",
	frame: func() (*frame, map[string]at) {
		var f frame
		a, b, x := f.buffer("a", 1024), f.buffer("b", 1024), f.importedBuffer("x")
		f.cmd("write-a", use(a, compute, ssw))
		f.cmd("read-a", use(a, compute, ssr), use(x, compute, ssw))
		f.cmd("write-b", use(x, compute, ssr), use(b, compute, ssw))
		f.cmd("read-b", use(b, fragment, ssr))
		return &f, map[string]at{"a": {0, 0}, "b": {0, 0}}
	},
	want: `
		read-a: hazard buffer a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-b: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-b: alias memory b prev=a COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE
		read-b: hazard buffer b COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
	`,
}, {
	// The old occupant's terminal use writes: the alias barrier makes that
	// write available.
	name: "written old occupant",
	frame: func() (*frame, map[string]at) {
		var f frame
		a, b, x := f.buffer("a", 1024), f.buffer("b", 1024), f.importedBuffer("x")
		f.cmd("write-a", use(a, copyS, tw))
		f.cmd("update-a", use(a, compute, ssr|ssw), use(x, compute, ssw))
		f.cmd("write-b", use(x, compute, ssr), use(b, copyS, tw))
		return &f, map[string]at{"a": {0, 0}, "b": {0, 0}}
	},
	want: `
		update-a: hazard buffer a COPY/TRANSFER_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ|SHADER_STORAGE_WRITE
		write-b: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-b: alias memory b prev=a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COPY/TRANSFER_WRITE
	`,
}, {
	// Two old occupants meet the new range: one barrier names both and
	// OR-s their terminal scopes.
	name: "several old occupants",
	frame: func() (*frame, map[string]at) {
		var f frame
		a1, a2, b, x := f.buffer("a1", 512), f.buffer("a2", 512), f.buffer("b", 1024), f.importedBuffer("x")
		f.cmd("write-a", use(a1, compute, ssw), use(a2, copyS, tw))
		f.cmd("read-a", use(a1, compute, ssr), use(a2, fragment, sampled), use(x, compute, ssw))
		f.cmd("write-b", use(x, compute, ssr), use(b, compute, ssw))
		return &f, map[string]at{"a1": {0, 0}, "a2": {0, 512}, "b": {0, 0}}
	},
	want: `
		read-a: hazard buffer a1 COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		read-a: hazard buffer a2 COPY/TRANSFER_WRITE -> FRAGMENT_SHADER/SHADER_SAMPLED_READ
		write-b: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-b: alias memory b prev=a1,a2 FRAGMENT_SHADER|COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE
	`,
}, {
	// a, then c over all of a's bytes that b reuses, then b: c's alias
	// barrier orders a before c, and b's orders c before b, so b's names c
	// only.
	name: "old occupant reused by a later one",
	frame: func() (*frame, map[string]at) {
		f, _ := threeGenerations(1024)
		return f, map[string]at{"a": {0, 0}, "c": {0, 0}, "b": {0, 0}}
	},
	want: `
		read-a: hazard buffer a COPY/TRANSFER_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-c: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-c: alias memory c prev=a COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE
		read-c: hazard buffer c COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		write-b: hazard buffer y FRAGMENT_SHADER/SHADER_STORAGE_WRITE -> COPY/TRANSFER_READ
		write-b: alias memory b prev=c FRAGMENT_SHADER/NONE -> COPY/TRANSFER_WRITE
	`,
}, {
	// As above, but c reuses only half of the bytes a shares with b: b's
	// barrier names both.
	name: "old occupant partly reused by a later one",
	frame: func() (*frame, map[string]at) {
		f, _ := threeGenerations(512)
		return f, map[string]at{"a": {0, 0}, "c": {0, 512}, "b": {0, 0}}
	},
	want: `
		read-a: hazard buffer a COPY/TRANSFER_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-c: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		write-c: alias memory c prev=a COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE
		read-c: hazard buffer c COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		write-b: hazard buffer y FRAGMENT_SHADER/SHADER_STORAGE_WRITE -> COPY/TRANSFER_READ
		write-b: alias memory b prev=a,c FRAGMENT_SHADER|COMPUTE_SHADER/NONE -> COPY/TRANSFER_WRITE
	`,
}, {
	// An image alias: one image barrier from UNDEFINED whose source is the
	// old image's terminal scope (a read in another layout).
	name: "image alias with a layout transition",
	frame: func() (*frame, map[string]at) {
		var f frame
		a, b := f.image("albedo", vk.FormatR8G8B8A8Unorm, 65536), f.image("ssao", vk.FormatR8Unorm, 65536)
		out := f.importedImage("out", vk.LayoutUndefined)
		f.cmd("gbuffer", useImage(a, color, caw, attachment))
		f.cmd("light", useImage(a, fragment, sampled, readOnly), useImage(out, color, caw, attachment))
		f.cmd("ssao", useImage(out, compute, ssr|ssw, general), useImage(b, compute, ssw, general))
		f.cmd("blur", useImage(b, fragment, sampled, readOnly))
		return &f, map[string]at{"albedo": {0, 0}, "ssao": {0, 0}}
	},
	want: `
		gbuffer: hazard image albedo NONE/NONE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL
		light: hazard image albedo COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER/SHADER_SAMPLED_READ COLOR_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL
		light: hazard image out COLOR_ATTACHMENT_OUTPUT/NONE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL
		ssao: hazard image out COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ|SHADER_STORAGE_WRITE COLOR_ATTACHMENT_OPTIMAL -> GENERAL
		ssao: alias image ssao prev=albedo FRAGMENT_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE UNDEFINED -> GENERAL
		blur: hazard image ssao COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_SAMPLED_READ GENERAL -> SHADER_READ_ONLY_OPTIMAL
	`,
}, {
	// The old occupant ends in two reads on parallel branches: both are
	// terminal, and the alias barrier waits for both.
	name: "unordered terminal uses",
	frame: func() (*frame, map[string]at) {
		var f frame
		a, b := f.buffer("a", 1024), f.buffer("b", 1024)
		x1, x2 := f.importedBuffer("x1"), f.importedBuffer("x2")
		f.cmd("write-a", use(a, compute, ssw))
		f.cmd("branch-1", use(a, compute, ssr), use(x1, compute, ssw))
		f.cmd("branch-2", use(a, fragment, ssr), use(x2, fragment, ssw))
		f.cmd("join", use(x1, compute, ssr), use(x2, compute, ssr), use(b, copyS, tw))
		return &f, map[string]at{"a": {0, 0}, "b": {0, 0}}
	},
	want: `
		branch-1: hazard buffer a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		branch-2: hazard buffer a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		join: hazard buffer x1 COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		join: hazard buffer x2 FRAGMENT_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		join: alias memory b prev=a FRAGMENT_SHADER|COMPUTE_SHADER/NONE -> COPY/TRANSFER_WRITE
	`,
}, {
	// Imported resources get hazard barriers only: a transition from the
	// declared initial layout at the first use, write-after-read
	// (execution-only) and read-after-write barriers.
	name: "imported resources",
	frame: func() (*frame, map[string]at) {
		var f frame
		bb := f.importedImage("backbuffer", vk.LayoutUndefined)
		hist := f.importedImage("history", readOnly)
		lights := f.importedBuffer("lights")
		f.cmd("upload", use(lights, copyS, tw))
		f.cmd("shade", use(lights, fragment, ssr), useImage(hist, fragment, sampled, readOnly), useImage(bb, color, caw, attachment))
		f.cmd("refill", use(lights, copyS, tw))
		f.cmd("present", useImage(bb, vk.StageBottomOfPipe, 0, vk.LayoutPresentSrc))
		return &f, nil
	},
	want: `
		shade: hazard buffer lights COPY/TRANSFER_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		shade: hazard image backbuffer COLOR_ATTACHMENT_OUTPUT/NONE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL
		refill: hazard buffer lights FRAGMENT_SHADER/NONE -> COPY/TRANSFER_WRITE
		present: hazard image backbuffer COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> BOTTOM_OF_PIPE/NONE COLOR_ATTACHMENT_OPTIMAL -> PRESENT_SRC_KHR
	`,
}, {
	// Resources that share no bytes with anything: no alias barrier; the
	// image still leaves UNDEFINED at its first use, the buffer needs
	// nothing.
	name: "never aliased",
	frame: func() (*frame, map[string]at) {
		var f frame
		buf, img := f.buffer("buf", 1024), f.image("img", vk.FormatD32Sfloat, 65536)
		f.cmd("depth", useImage(img, depthS, dsw, depthAtt), use(buf, compute, ssw))
		f.cmd("use", useImage(img, fragment, sampled, readOnly), use(buf, compute, ssr))
		return &f, map[string]at{"buf": {0, 0}, "img": {1, 0}}
	},
	want: `
		depth: hazard image img NONE/NONE -> EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS/DEPTH_STENCIL_ATTACHMENT_WRITE UNDEFINED -> DEPTH_STENCIL_ATTACHMENT_OPTIMAL
		use: hazard image img EARLY_FRAGMENT_TESTS|LATE_FRAGMENT_TESTS/DEPTH_STENCIL_ATTACHMENT_WRITE -> FRAGMENT_SHADER/SHADER_SAMPLED_READ DEPTH_STENCIL_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL
		use: hazard buffer buf COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
	`,
}, {
	// One write, three reads: the barrier before the first read already
	// covers the second (same scope, later); the third reads in another
	// stage and gets its own. A write after the reads waits for the reads
	// only (execution-only): the write before them is ordered through them.
	name: "an earlier barrier implies a later one",
	frame: func() (*frame, map[string]at) {
		var f frame
		x := f.buffer("x", 1024)
		f.cmd("write", use(x, compute, ssw))
		f.cmd("read-1", use(x, compute, ssr))
		f.cmd("read-2", use(x, compute, ssr))
		f.cmd("read-3", use(x, fragment, ssr))
		f.cmd("rewrite", use(x, copyS, tw))
		return &f, map[string]at{"x": {0, 0}}
	},
	want: `
		read-1: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_STORAGE_READ
		read-3: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		rewrite: hazard buffer x FRAGMENT_SHADER|COMPUTE_SHADER/NONE -> COPY/TRANSFER_WRITE
	`,
}, {
	// Several accesses of one resource in one command are aggregated.
	name: "aggregated accesses",
	frame: func() (*frame, map[string]at) {
		var f frame
		x := f.buffer("x", 1024)
		f.cmd("write", use(x, compute, ssw), use(x, copyS, tw))
		f.cmd("read", use(x, fragment, ssr), use(x, copyS, tr))
		return &f, map[string]at{"x": {0, 0}}
	},
	want: `
		read: hazard buffer x COMPUTE_SHADER|COPY/TRANSFER_WRITE|SHADER_STORAGE_WRITE -> FRAGMENT_SHADER|COPY/TRANSFER_READ|SHADER_STORAGE_READ
	`,
}}

func TestBuild(t *testing.T) {
	for _, tc := range buildCases {
		t.Run(tc.name, func(t *testing.T) {
			f, where := tc.frame()
			c, p := placed(t, f, where)
			build(t, c, p)
			if got, want := describe(&f.g, p), trimLines(tc.want); got != want {
				t.Errorf("barriers:\n%s\nwant:\n%s", got, want)
			}
			// Build is deterministic and replaces earlier barriers.
			first := describe(&f.g, p)
			build(t, c, p)
			if again := describe(&f.g, p); again != first {
				t.Errorf("second Build differs:\n%s", again)
			}
		})
	}
}

// threeGenerations is a frame where buffers a, c and b (1024, cSize and
// 1024 bytes) follow each other, ordered through imported buffers x and y.
func threeGenerations(cSize uint64) (*frame, [3]planner.ResourceID) {
	var f frame
	a, c, b := f.buffer("a", 1024), f.buffer("c", cSize), f.buffer("b", 1024)
	x, y := f.importedBuffer("x"), f.importedBuffer("y")
	f.cmd("write-a", use(a, copyS, tw))
	f.cmd("read-a", use(a, compute, ssr), use(x, compute, ssw))
	f.cmd("write-c", use(x, compute, ssr), use(c, compute, ssw))
	f.cmd("read-c", use(c, fragment, ssr), use(y, fragment, ssw))
	f.cmd("write-b", use(y, copyS, tr), use(b, copyS, tw))
	return &f, [3]planner.ResourceID{a, c, b}
}

func TestBuildOrder(t *testing.T) {
	// Two independent chains: any interleaving is a topological order.
	var f frame
	a, b := f.buffer("a", 1024), f.buffer("b", 1024)
	f.cmd("write-a", use(a, compute, ssw))
	f.cmd("write-b", use(b, compute, ssw))
	f.cmd("read-a", use(a, fragment, ssr))
	f.cmd("read-b", use(b, fragment, ssr))
	where := map[string]at{"a": {0, 0}, "b": {0, 1024}}

	t.Run("nil means recorded", func(t *testing.T) {
		c, p := placed(t, &f, where)
		p.Order = nil
		build(t, c, p)
		if want := []planner.CommandID{0, 1, 2, 3}; !slices.Equal(p.Order, want) {
			t.Errorf("order %v, want %v", p.Order, want)
		}
	})
	t.Run("another topological order", func(t *testing.T) {
		c, p := placed(t, &f, where)
		p.Order = []planner.CommandID{1, 3, 0, 2}
		build(t, c, p)
		want := trimLines(`
			read-b: hazard buffer b COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
			read-a: hazard buffer a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		`)
		if got := describe(&f.g, p); got != want {
			t.Errorf("barriers:\n%s\nwant:\n%s", got, want)
		}
	})
	for _, order := range [][]planner.CommandID{{2, 0, 1, 3}, {0, 1, 2}, {0, 1, 2, 2}, {0, 1, 2, 7}} {
		t.Run(fmt.Sprint("bad ", order), func(t *testing.T) {
			c, p := placed(t, &f, where)
			p.Order = order
			err := barriers.Build(c, p)
			var be *planner.BarrierError
			if !errors.As(err, &be) || be.Rule != planner.RuleOrder {
				t.Fatalf("Build: %v, want a *planner.BarrierError with rule %s", err, planner.RuleOrder)
			}
		})
	}
}

func TestBuildRejectsInterferingOverlap(t *testing.T) {
	var f frame
	a, b := f.buffer("a", 1024), f.buffer("b", 1024)
	f.cmd("write", use(a, compute, ssw), use(b, compute, ssw))
	c, p := placed(t, &f, map[string]at{"a": {0, 0}, "b": {0, 1024}})
	p.Resources[b].Placement.Offset = 0 // now they overlap
	if err := barriers.Build(c, p); err == nil || !strings.Contains(err.Error(), "interfere") {
		t.Fatalf("Build: %v, want an error about interfering resources", err)
	}
}

func TestDependencies(t *testing.T) {
	var f frame
	depth := f.image("depth", vk.FormatD24UnormS8Uint, 65536)
	shadow := f.image("shadow", vk.FormatD32Sfloat, 65536)
	a1, a2, b1, b2 := f.buffer("a1", 1024), f.buffer("a2", 1024), f.buffer("b1", 1024), f.buffer("b2", 1024)
	x := f.importedBuffer("x")
	f.cmd("write", use(a1, compute, ssw), use(a2, compute, ssw), useImage(depth, depthS, dsw, depthAtt), useImage(shadow, depthS, dsw, depthAtt))
	f.cmd("read", use(a1, compute, ssr), use(a2, compute, ssr), use(x, compute, ssw))
	// b1 and b2 start in one command with the same scopes: their alias
	// barriers become one VkMemoryBarrier2.
	f.cmd("reuse", use(x, compute, ssr), use(b1, compute, ssw), use(b2, compute, ssw),
		useImage(depth, fragment, sampled, readOnly))
	c, p := placed(t, &f, map[string]at{"a1": {1, 0}, "a2": {1, 1024}, "b1": {1, 0}, "b2": {1, 1024}, "depth": {0, 0}, "shadow": {0, 65536}})
	build(t, c, p)
	got := barriers.Dependencies(&f.g, p)
	all := func(a barriers.ImageAspect) barriers.ImageSubresourceRange {
		return barriers.ImageSubresourceRange{AspectMask: a, LevelCount: barriers.RemainingMipLevels, LayerCount: barriers.RemainingArrayLayers}
	}
	want := []barriers.Batch{
		{Command: 0, Dependency: barriers.DependencyInfo{ImageMemoryBarriers: []barriers.ImageMemoryBarrier2{
			{DstStageMask: depthS, DstAccessMask: dsw, OldLayout: vk.LayoutUndefined, NewLayout: depthAtt, Image: depth,
				SubresourceRange: all(barriers.AspectDepth | barriers.AspectStencil)},
			{DstStageMask: depthS, DstAccessMask: dsw, OldLayout: vk.LayoutUndefined, NewLayout: depthAtt, Image: shadow,
				SubresourceRange: all(barriers.AspectDepth)},
		}}},
		{Command: 1, Dependency: barriers.DependencyInfo{BufferMemoryBarriers: []barriers.BufferMemoryBarrier2{
			{SrcStageMask: compute, SrcAccessMask: ssw, DstStageMask: compute, DstAccessMask: ssr, Buffer: a1, Size: barriers.WholeSize},
			{SrcStageMask: compute, SrcAccessMask: ssw, DstStageMask: compute, DstAccessMask: ssr, Buffer: a2, Size: barriers.WholeSize},
		}}},
		{Command: 2, Dependency: barriers.DependencyInfo{
			MemoryBarriers: []barriers.MemoryBarrier2{{SrcStageMask: compute, DstStageMask: compute, DstAccessMask: ssw}},
			BufferMemoryBarriers: []barriers.BufferMemoryBarrier2{
				{SrcStageMask: compute, SrcAccessMask: ssw, DstStageMask: compute, DstAccessMask: ssr, Buffer: x, Size: barriers.WholeSize}},
			ImageMemoryBarriers: []barriers.ImageMemoryBarrier2{
				{SrcStageMask: depthS, SrcAccessMask: dsw, DstStageMask: fragment, DstAccessMask: sampled, OldLayout: depthAtt, NewLayout: readOnly,
					Image: depth, SubresourceRange: all(barriers.AspectDepth | barriers.AspectStencil)}},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Dependencies:\n%+v\nwant:\n%+v\nplan:\n%s", got, want, describe(&f.g, p))
	}
	for _, b := range got {
		if b.Dependency.DependencyFlags != 0 {
			t.Errorf("command %d: dependency flags %#x", b.Command, b.Dependency.DependencyFlags)
		}
	}
}

func TestDependenciesMergesMemoryBarriers(t *testing.T) {
	g := &planner.Graph{}
	g.AddBuffer("r", planner.BufferDesc{Size: 16})
	g.AddCommand("c")
	m := func(s vk.Stage, a vk.AccessFlags) planner.Barrier {
		return planner.Barrier{Type: planner.MemoryBarrier, SrcStages: s, SrcAccess: a, DstStages: compute, DstAccess: ssr}
	}
	p := &planner.Plan{Order: []planner.CommandID{0}, Barriers: []planner.Barrier{
		m(compute, 0), m(compute, ssw), m(compute, ssw), m(fragment, 0),
		{Type: planner.BufferBarrier, SrcStages: compute, SrcAccess: ssw, DstStages: compute, DstAccess: ssr},
		{Type: planner.BufferBarrier, SrcStages: copyS, SrcAccess: tw, DstStages: compute, DstAccess: ssr},
	}}
	got := barriers.Dependencies(g, p)[0].Dependency
	want := barriers.DependencyInfo{
		MemoryBarriers: []barriers.MemoryBarrier2{
			{SrcStageMask: compute, SrcAccessMask: ssw, DstStageMask: compute, DstAccessMask: ssr},
			{SrcStageMask: fragment, DstStageMask: compute, DstAccessMask: ssr},
		},
		BufferMemoryBarriers: []barriers.BufferMemoryBarrier2{
			{SrcStageMask: copyS, SrcAccessMask: tw, DstStageMask: compute, DstAccessMask: ssr, Size: barriers.WholeSize},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
