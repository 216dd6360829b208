package barriers_test

import (
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// Readers sharing one transition (SPEC §2): a read that moves an image
// into a layout and the later reads in it get no DAG edge among
// themselves, and one barrier (before the first of them in execution
// order) transitions it with a destination covering them all.
func TestReadersShareOneTransition(t *testing.T) {
	f := &frame{}
	hdr := f.image("hdr", vk.FormatR16G16B16A16Sfloat, 4096)
	hist := f.buffer("hist", 1024)
	out := f.buffer("out", 1024)
	f.cmd("light", useImage(hdr, color, caw, attachment))
	f.cmd("histogram", useImage(hdr, compute, sampled, readOnly), use(hist, compute, ssw))
	f.cmd("taa", useImage(hdr, fragment, sampled, readOnly), use(out, fragment, ssw))
	c, p := placed(t, f, nil)
	if c.HappensBefore(1, 2) {
		t.Errorf("histogram happens-before taa: readers sharing a transition must get no DAG edge")
	}
	if got := c.Terminal(hdr); len(got) != 2 {
		t.Errorf("hdr's terminal uses %v, want both readers", got)
	}
	build(t, c, p)
	want := trimLines(`
		light: hazard image hdr NONE/NONE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL
		histogram: hazard image hdr COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COMPUTE_SHADER/SHADER_SAMPLED_READ COLOR_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL
	`)
	if got := describe(&f.g, p); got != want {
		t.Errorf("barriers:\n%s\nwant:\n%s", got, want)
	}
	// Executed in the other order, the transition moves to taa.
	p.Order = []planner.CommandID{0, 2, 1}
	build(t, c, p)
	if got := describe(&f.g, p); !strings.Contains(got, "taa: hazard image hdr COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER|COMPUTE_SHADER") {
		t.Errorf("barriers in order light, taa, histogram:\n%s", got)
	}
	// A destination that leaves out one reader is rejected.
	p.Barriers[1].DstStages = fragment
	if err := verify.Plan(c, p); err == nil || !strings.Contains(err.Error(), `of command "histogram"`) {
		t.Errorf("verify.Plan with the transition's destination missing histogram: %v", err)
	}
}

// An image alias after writes is two calls: a memory barrier (call 0)
// makes the old occupant's writes available, the image barrier (call 1)
// chains after it through the old stages and transitions from UNDEFINED.
// The folded form (one image barrier) is rejected.
func TestImageAliasAfterWritesTwoCalls(t *testing.T) {
	f := &frame{}
	a := f.image("a", vk.FormatR8G8B8A8Unorm, 4096)
	b := f.image("b", vk.FormatR8G8B8A8Unorm, 4096)
	x := f.buffer("x", 1024)
	f.cmd("write-a", useImage(a, compute, ssw, general), use(x, compute, ssw))
	f.cmd("write-b", useImage(b, color, caw, attachment), use(x, fragment, ssr))
	c, p := placed(t, f, map[string]at{"a": {0, 0}, "b": {0, 0}})
	build(t, c, p)
	want := trimLines(`
		write-a: hazard image a NONE/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE UNDEFINED -> GENERAL
		write-b: alias memory b prev=a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/NONE
		write-b: hazard buffer x COMPUTE_SHADER/SHADER_STORAGE_WRITE -> FRAGMENT_SHADER/SHADER_STORAGE_READ
		write-b: alias image b prev=a COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL call=1
	`)
	if got := describe(&f.g, p); got != want {
		t.Fatalf("barriers:\n%s\nwant:\n%s", got, want)
	}
	// The folded form of old: the image barrier alone, in call 0.
	folded := *p
	folded.Barriers = []planner.Barrier{p.Barriers[0], p.Barriers[2], p.Barriers[3]}
	folded.Barriers[2].Call = 0
	if err := verify.Plan(c, &folded); err == nil || !strings.Contains(err.Error(), "made available by a memory barrier") {
		t.Errorf("verify.Plan of the folded image alias after writes: %v", err)
	}
	// Both in one call: the siblings do not chain.
	one := *p
	one.Barriers = append([]planner.Barrier(nil), p.Barriers...)
	one.Barriers[3].Call = 0
	if err := verify.Plan(c, &one); err == nil {
		t.Errorf("verify.Plan accepted the memory barrier and the transition in one call")
	}
}

// The H200 pattern (issue 18): the old occupant's trailing reads are at
// FRAGMENT (two commands) and COMPUTE (one), the COMPUTE one ordered
// before a FRAGMENT one only through another buffer. Every trailing read
// is terminal, so the alias barrier's source covers COMPUTE too; a source
// of FRAGMENT alone is rejected.
func TestAliasSourceCoversEveryTrailingRead(t *testing.T) {
	f := &frame{}
	a := f.buffer("a", 1024)
	q := f.buffer("q", 1024)
	z1, z2 := f.buffer("z1", 1024), f.buffer("z2", 1024)
	b := f.buffer("b", 1024)
	f.cmd("write-a", use(a, compute, ssw))
	f.cmd("read-a-compute", use(a, compute, ssr), use(q, compute, ssw))
	f.cmd("read-a-frag", use(a, fragment, ssr), use(q, fragment, ssr), use(z1, fragment, ssw))
	f.cmd("read-a-frag2", use(a, fragment, ssr), use(z2, fragment, ssw))
	f.cmd("write-b", use(b, compute, ssw), use(z1, compute, ssr), use(z2, compute, ssr))
	c, p := placed(t, f, map[string]at{"a": {0, 0}, "b": {0, 0}})
	if got := len(c.Terminal(a)); got != 3 {
		t.Fatalf("a has %d terminal uses, want the 3 trailing reads", got)
	}
	build(t, c, p)
	k := -1
	for i, x := range p.Barriers {
		if x.Kind == planner.Alias {
			k = i
		}
	}
	if k < 0 || p.Barriers[k].SrcStages != compute|fragment {
		t.Fatalf("alias barrier source %v, want COMPUTE_SHADER|FRAGMENT_SHADER\n%s", p.Barriers[k].SrcStages, describe(&f.g, p))
	}
	p.Barriers[k].SrcStages = fragment // the old form: maximal terminal uses only
	if err := verify.Plan(c, p); err == nil || !strings.Contains(err.Error(), "every terminal use") {
		t.Errorf("verify.Plan with the alias source missing the compute read: %v", err)
	}
}

// TOP_OF_PIPE and BOTTOM_OF_PIPE by their synchronization2 meaning: a
// present-like use (BOTTOM_OF_PIPE, no access) followed by a compute
// write, and a top-of-pipe use followed by a compute read. The barrier
// before the stageless use chains to the one after it.
func TestStagelessUsesChain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stages vk.Stage
		layout vk.Layout
	}{
		{"present-like", vk.StageBottomOfPipe, vk.LayoutPresentSrc},
		{"top-of-pipe", vk.StageTopOfPipe, vk.LayoutTransferSrcOptimal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &frame{}
			img := f.image("img", vk.FormatB8G8R8A8Unorm, 4096)
			f.cmd("write", useImage(img, compute, ssw, general))
			f.cmd("stageless", useImage(img, tc.stages, 0, tc.layout))
			f.cmd("rewrite", useImage(img, compute, ssw, general))
			c, p := placed(t, f, nil)
			build(t, c, p)
			x, y := p.Barriers[1], p.Barriers[2]
			if x.DstStages&compute == 0 || y.SrcStages != compute {
				t.Errorf("barriers do not chain through COMPUTE_SHADER:\n%s", describe(&f.g, p))
			}
			// The old form: the use's stages copied into both scopes.
			p.Barriers[1].DstStages, p.Barriers[2].SrcStages = tc.stages, tc.stages
			if err := verify.Plan(c, p); err == nil {
				t.Errorf("verify.Plan accepted scopes %s → %s around the %s use:\n%s", tc.stages, tc.stages, tc.name, describe(&f.g, p))
			}
		})
	}
}

// The tampering hole (issue 19 item 2b): a compute write, then a command
// that only changes the image's layout (no access flags). Its transition
// must make the write available: emptying its source access is rejected.
func TestLayoutOnlyUseNeedsAvailability(t *testing.T) {
	f := &frame{}
	img := f.image("img", vk.FormatR8G8B8A8Unorm, 4096)
	f.cmd("write", useImage(img, compute, ssw, general))
	f.cmd("layout-only", useImage(img, compute, 0, readOnly))
	c, p := placed(t, f, nil)
	build(t, c, p)
	if p.Barriers[1].SrcAccess != ssw {
		t.Fatalf("transition source access %s, want SHADER_STORAGE_WRITE", p.Barriers[1].SrcAccess)
	}
	p.Barriers[1].SrcAccess = 0
	if err := verify.Plan(c, p); err == nil || !strings.Contains(err.Error(), "made available") {
		t.Errorf("verify.Plan with the transition's source access emptied: %v", err)
	}
}
