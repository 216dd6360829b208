package planner_test

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
	"slices"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// Tests for issue 12 (hardening): each failed before its fix.

// place compiles g and places it with first fit.
func place(t *testing.T, g *planner.Graph, opts planner.Options) (*planner.Compiled, *planner.Plan, error) {
	t.Helper()
	c, err := planner.Compile(g)
	if err != nil {
		return nil, nil, err
	}
	opts.Strategy = firstfit.New()
	p, err := planner.Place(c, opts)
	return c, p, err
}

// wantRule checks that err holds a *GraphError with the rule, naming the
// resource.
func wantRule(t *testing.T, err error, rule planner.Rule, resource string) {
	t.Helper()
	var ge *planner.GraphError
	if !errors.As(err, &ge) || ge.Rule != rule || ge.Resource != resource {
		t.Fatalf("error %v; want a *GraphError with rule %s naming resource %q", err, rule, resource)
	}
}

// imageFrame is one command writing the image and one reading it.
func imageFrame(desc planner.ImageDesc) *planner.Graph {
	g := &planner.Graph{}
	r := g.AddImage("img", desc)
	g.AddCommand("w", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("r", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral})
	return g
}

func r8(w, h, layers uint32) planner.ImageDesc {
	return planner.ImageDesc{Format: vk.FormatR8Unorm, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: layers, Samples: 1}
}

// Item 1: the H200 profile estimated this image as 64 KiB (the arithmetic
// wrapped) and pooled it.
func TestHugeImageRejected(t *testing.T) {
	g := imageFrame(r8(4264493392, 3992915968, 13))
	_, _, err := place(t, g, planner.Options{})
	wantRule(t, err, planner.RuleImageLimit, "img")
	if !strings.Contains(err.Error(), "maxImageDimension2D 32768") {
		t.Errorf("error %q does not name the limit", err)
	}

	// A profile without limits still never wraps: the size overflows.
	nolimits := *planner.ProfileH200
	nolimits.ImageLimits = planner.Limits{}
	_, _, err = place(t, g, planner.Options{Source: &nolimits})
	wantRule(t, err, planner.RuleSizeOverflow, "img")
	if _, err := nolimits.Requirements(&g.Resources[0]); err == nil {
		t.Error("Requirements estimated an image whose size does not fit in 64 bits")
	}
}

func TestImageLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		desc planner.ImageDesc
		ok   bool
	}{
		{"2D at the limit", r8(32768, 16, 1), true},
		{"2D over", r8(32769, 16, 1), false},
		{"1D over", r8(40000, 1, 1), false},
		{"layers at the limit", r8(16, 16, 2048), true},
		{"layers over", r8(16, 16, 2049), false},
		{"3D over", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 16, Height: 16, Depth: 16385, MipLevels: 1, ArrayLayers: 1, Samples: 1}, false},
		{"8 samples", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 8}, true},
		{"16 samples", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 16}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := place(t, imageFrame(tc.desc), planner.Options{})
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRule(t, err, planner.RuleImageLimit, "img")
		})
	}
	// Lavapipe: 1 and 4 samples only.
	desc := r8(16, 16, 1)
	desc.Samples = 2
	_, _, err := place(t, imageFrame(desc), planner.Options{Source: planner.ProfileLavapipe})
	wantRule(t, err, planner.RuleImageLimit, "img")
}

// Items 1 and 2: Vulkan's own rules, on every device.
func TestValidateImageRules(t *testing.T) {
	full := r8(1, 1, 1)
	full.MipLevels = 1<<32 - 1 // spent 54 s in the size estimate
	chain := r8(1024, 512, 1)
	chain.MipLevels = 11
	over := chain
	over.MipLevels = 12
	cube := planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 8, Height: 8, Depth: 8, MipLevels: 1, ArrayLayers: 2, Samples: 1}
	msMips := r8(16, 16, 1)
	msMips.Samples, msMips.MipLevels = 4, 2
	for _, tc := range []struct {
		name string
		desc planner.ImageDesc
		rule planner.Rule
	}{
		{"2^32-1 mips on 1x1", full, planner.RuleMipLevels},
		{"full chain", chain, ""},
		{"one level too many", over, planner.RuleMipLevels},
		{"3D with layers", cube, planner.RuleImageType},
		{"multisampled with mips", msMips, planner.RuleImageType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := planner.Validate(imageFrame(tc.desc))
			if tc.rule == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRule(t, err, tc.rule, "img")
		})
	}
}

// Item 2: the estimate does a bounded amount of work whatever the mip
// count says (ImageBytes is public: callers may skip Validate).
func TestImageBytesManyMips(t *testing.T) {
	desc := planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 4, Height: 1, Depth: 1, MipLevels: 1<<32 - 1, ArrayLayers: 1, Samples: 1}
	got, err := planner.ImageBytes(&desc)
	// 16 + 8 + 4 + 4·(2^32-4) bytes.
	if want := uint64(16+8) + 4*(1<<32-3); err != nil || got != want {
		t.Fatalf("ImageBytes = %d, %v; want %d", got, err, want)
	}
	desc.ArrayLayers, desc.Width, desc.Height = 1<<31, 1<<31, 1<<31
	if _, err := planner.ImageBytes(&desc); err == nil {
		t.Fatal("ImageBytes wrapped instead of reporting an overflow")
	}
}

// bufferFrame: n buffers with explicit requirements, all written by one
// command and read by the next (so all interfere), and one more pair of
// commands that uses nothing else.
func bufferFrame(n int, q planner.Requirements, mark func(i int, r *planner.Resource)) *planner.Graph {
	g := &planner.Graph{}
	var w, rd []planner.Access
	for i := 0; i < n; i++ {
		req := q
		res := planner.Resource{Name: fmt.Sprintf("b%d", i), Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: q.Size}, Requirements: &req}
		if mark != nil {
			mark(i, &res)
		}
		id := g.AddResource(res)
		w = append(w, planner.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		rd = append(rd, planner.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	}
	g.AddCommand("write", w...)
	g.AddCommand("read", rd...)
	return g
}

// unlimited is the H200 profile without limits or heap sizes, for the
// arithmetic near 2^64 that the real limits would refuse first.
func unlimited() *planner.Profile {
	p := *planner.ProfileH200
	p.ImageLimits = planner.Limits{}
	p.Types = slices.Clone(p.Types)
	for i := range p.Types {
		p.Types[i].HeapSize = 0
	}
	return &p
}

// Item 3: totals that do not fit in 64 bits are errors, not wrapped sums.
func TestTotalsDoNotWrap(t *testing.T) {
	huge := planner.Requirements{Size: 1 << 63, Alignment: 1, MemoryTypeBits: 0x1f}
	// Two dedicated buffers of 2^63 bytes: dedicatedBytes was 0.
	_, _, err := place(t, bufferFrame(2, huge, func(_ int, r *planner.Resource) { r.Dedicated = true }), planner.Options{Source: unlimited()})
	wantRule(t, err, planner.RuleSizeOverflow, "b1")
	// Pooled (no dedicated threshold): transientBytes wrapped.
	_, _, err = place(t, bufferFrame(2, huge, nil), planner.Options{Source: unlimited()})
	wantRule(t, err, planner.RuleSizeOverflow, "b1")
	// Four of 2^62: "produced an invalid plan (a bug)".
	q := huge
	q.Size = 1 << 62
	_, _, err = place(t, bufferFrame(4, q, nil), planner.Options{Source: unlimited()})
	wantRule(t, err, planner.RuleSizeOverflow, "b3")
	if strings.Contains(err.Error(), "a bug") {
		t.Errorf("error %q blames a bug", err)
	}
	// A size whose rounding up wraps.
	g := &planner.Graph{}
	b := g.AddBuffer("b", planner.BufferDesc{Size: 1<<64 - 1})
	g.AddCommand("w", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	_, _, err = place(t, g, planner.Options{})
	wantRule(t, err, planner.RuleSizeOverflow, "b")
}

// Item 3: Verify does not accept stats that only agree because both sides
// wrapped.
func TestVerifyRejectsWrappedTotals(t *testing.T) {
	// Two buffers of 2^63 bytes that never interfere (one written and
	// read, then the other), sharing one pool at offset 0.
	g := &planner.Graph{}
	huge := planner.Requirements{Size: 1 << 63, Alignment: 1, MemoryTypeBits: 0x1f}
	a := g.AddResource(planner.Resource{Name: "a", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 63}, Requirements: &huge})
	b := g.AddResource(planner.Resource{Name: "b", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 1 << 63}, Requirements: &huge})
	small := planner.Requirements{Size: 256, Alignment: 256, MemoryTypeBits: 0x1f}
	tok := g.AddResource(planner.Resource{Name: "token", Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256}, Requirements: &small, Dedicated: true})
	st := vk.StageComputeShader
	g.AddCommand("wa", planner.Access{Resource: a, Stages: st, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("ra", planner.Access{Resource: a, Stages: st, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: tok, Stages: st, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("wb", planner.Access{Resource: tok, Stages: st, Access: vk.AccessShaderStorageRead},
		planner.Access{Resource: b, Stages: st, Access: vk.AccessShaderStorageWrite})
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	pl := planner.Placement{Pool: 0, Offset: 0, Size: 1 << 63, Alignment: 1, Aliased: true}
	p := &planner.Plan{
		Order:     []planner.CommandID{0, 1, 2},
		Pools:     []planner.Pool{{Index: 0, MemoryTypeIndex: 1, Class: planner.ClassLinear, Size: 1 << 63}},
		Resources: []planner.ResourcePlan{{Requirements: huge, Placement: pl}, {Requirements: huge, Placement: pl}, {Status: planner.StatusDedicated, Requirements: small}},
		Stats:     planner.Stats{TransientBytes: 0, PooledBytes: 1 << 63, LowerBound: 1 << 63, DedicatedBytes: 256},
	}
	err = verify.Placement(c, p)
	if err == nil || !strings.Contains(err.Error(), "2^64-1") {
		t.Fatalf("verify.Placement = %v; want the totals reported as not fitting in 64 bits", err)
	}
}

// Item 4: access flags on stages that cannot perform them.
func TestValidateStageAccess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stages vk.Stage
		access vk.AccessFlags
		ok     bool
	}{
		{"write at TOP_OF_PIPE", vk.StageTopOfPipe, vk.AccessShaderStorageWrite, false},
		{"read at BOTTOM_OF_PIPE", vk.StageBottomOfPipe, vk.AccessShaderStorageRead, false},
		{"write at BOTTOM_OF_PIPE", vk.StageBottomOfPipe, vk.AccessShaderStorageWrite, false},
		{"memory write at TOP_OF_PIPE", vk.StageTopOfPipe, vk.AccessMemoryWrite, false},
		{"color write in a compute shader", vk.StageComputeShader, vk.AccessColorAttachmentWrite, false},
		{"transfer write in ALL_GRAPHICS", vk.StageAllGraphics, vk.AccessTransferWrite, false},
		{"storage write in a compute shader", vk.StageComputeShader, vk.AccessShaderStorageWrite, true},
		{"anything in ALL_COMMANDS", vk.StageAllCommands, vk.AccessTransferWrite | vk.AccessShaderStorageRead, true},
		{"index read in ALL_GRAPHICS", vk.StageAllGraphics, vk.AccessIndexRead, true}, // a buffer is never a colour attachment (rule usage)
		{"copy write in ALL_TRANSFER", vk.StageAllTransfer, vk.AccessTransferWrite, true},
		{"memory write in COPY", vk.StageCopy, vk.AccessMemoryWrite, true},
		{"execution only at TOP_OF_PIPE", vk.StageTopOfPipe, 0, true},
		{"one of two stages can", vk.StageBottomOfPipe | vk.StageFragmentShader, vk.AccessShaderSampledRead, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &planner.Graph{}
			b := g.AddBuffer("b", planner.BufferDesc{Size: 256})
			g.AddCommand("w", planner.Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
			g.AddCommand("x", planner.Access{Resource: b, Stages: tc.stages, Access: tc.access})
			err := planner.Validate(g)
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRule(t, err, planner.RuleStageAccess, "b")
		})
	}
}

// Item 6: eight 256-byte buffers with 64 KiB alignment got one 448 KiB
// pool against 2 KiB unaliased.
func TestPoolingNeverCostsMore(t *testing.T) {
	q := planner.Requirements{Size: 256, Alignment: 64 << 10, MemoryTypeBits: 0x1f}
	c, p, err := place(t, bufferFrame(8, q, nil), planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats
	if st.PooledBytes > st.TransientBytes {
		t.Fatalf("pools take %d bytes, the pooled resources %d alone", st.PooledBytes, st.TransientBytes)
	}
	if total := st.PooledBytes + st.DedicatedBytes; total != 8*256 {
		t.Errorf("pooled + dedicated = %d bytes; want 2048 (each buffer's own size)", total)
	}
	dedicated := 0
	for _, rp := range p.Resources {
		if rp.Status == planner.StatusDedicated {
			dedicated++
			if !strings.Contains(rp.Reason, "alignment padding") {
				t.Errorf("reason %q does not say why", rp.Reason)
			}
		}
	}
	if dedicated == 0 {
		t.Error("no buffer made dedicated")
	}
	if err := verify.Placement(c, p); err != nil {
		t.Fatal(err)
	}
	// Verify holds plans to it too.
	p.Resources[0].Status = planner.StatusPooled
	bad := *p
	bad.Stats.PooledBytes, bad.Stats.TransientBytes = 64<<10+256, 256
	bad.Pools = []planner.Pool{{Index: 0, MemoryTypeIndex: 1, Class: planner.ClassLinear, Size: 64<<10 + 256}}
	if errs := verify.All(c, &bad, 0); !containsText(errs, "more than the") {
		t.Errorf("verify.All on a pool that costs more than its resources: %v", errs)
	}
}

func containsText(errs []error, s string) bool {
	for _, e := range errs {
		if strings.Contains(e.Error(), s) {
			return true
		}
	}
	return false
}

// Item 7: a resource smaller than the maximum pool size fits at offset 0,
// whatever its alignment.
func TestMaxPoolSizeReason(t *testing.T) {
	q := planner.Requirements{Size: 1000, Alignment: 64 << 10, MemoryTypeBits: 0x1f}
	_, p, err := place(t, bufferFrame(1, q, nil), planner.Options{MaxPoolSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if rp := p.Resources[0]; rp.Status != planner.StatusPooled {
		t.Fatalf("status %s (%s); want pooled at offset 0 of a pool of 1000 bytes", rp.Status, rp.Reason)
	}
	q.Size = 1025
	_, p, err = place(t, bufferFrame(1, q, nil), planner.Options{MaxPoolSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if rp := p.Resources[0]; rp.Status != planner.StatusDedicated || !strings.Contains(rp.Reason, "maximum pool size") {
		t.Fatalf("status %s (%s); want dedicated as larger than the maximum pool size", rp.Status, rp.Reason)
	}
}

// Item 12: Validate reports every broken rule, capped, each a *GraphError.
func TestValidateReportsEveryRule(t *testing.T) {
	g := &planner.Graph{}
	g.AddBuffer("zero", planner.BufferDesc{})
	g.AddImage("mips", planner.ImageDesc{Format: vk.FormatR8Unorm, Width: 1, Height: 1, Depth: 1, MipLevels: 3, ArrayLayers: 1, Samples: 1})
	ok := g.AddBuffer("ok", planner.BufferDesc{Size: 16})
	g.AddCommand("c", planner.Access{Resource: ok, Stages: vk.StageTopOfPipe, Access: vk.AccessShaderStorageWrite})
	err := planner.Validate(g)
	ges := planner.GraphErrors(err)
	var rules []planner.Rule
	for _, ge := range ges {
		rules = append(rules, ge.Rule)
	}
	if fmt.Sprint(rules) != fmt.Sprint([]planner.Rule{planner.RuleZeroSize, planner.RuleMipLevels, planner.RuleStageAccess}) {
		t.Fatalf("rules %v from %v", rules, err)
	}
	var first *planner.GraphError
	if !errors.As(err, &first) || first.Resource != "zero" {
		t.Errorf("errors.As found %v, want the first error", first)
	}

	many := &planner.Graph{}
	for i := 0; i < 50; i++ {
		many.AddBuffer(fmt.Sprintf("b%d", i), planner.BufferDesc{})
	}
	if n := len(planner.GraphErrors(planner.Validate(many))); n != planner.MaxValidateErrors {
		t.Errorf("%d errors for 50 broken rules; want the cap, %d", n, planner.MaxValidateErrors)
	}
	if err := planner.Validate(nil); err == nil {
		t.Error("Validate(nil) = nil")
	}
	if _, err := planner.Compile(nil); err == nil {
		t.Error("Compile(nil) = nil error")
	}
}

// Item 10: VerifyAll lists every violation, not the first.
func TestVerifyAllListsEveryViolation(t *testing.T) {
	q := planner.Requirements{Size: 4096, Alignment: 256, MemoryTypeBits: 0x1f}
	c, p, err := place(t, bufferFrame(3, q, nil), planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Resources[0].Placement.Offset += 1 << 20 // out of its pool
	p.Stats.LowerBound = 1 << 40               // above the pooled bytes
	errs := verify.All(c, p, 0)
	if len(errs) < 2 || !containsText(errs, "exceeds the pool size") || !containsText(errs, "lowerBound") {
		t.Fatalf("verify.All = %v; want the overrun and the bound", errs)
	}
	if one := verify.All(c, p, 1); len(one) != 1 {
		t.Errorf("verify.All with a cap of 1 gave %d errors", len(one))
	}
	if err := verify.Plan(c, p); err == nil || err.Error() != errs[0].Error() {
		t.Errorf("Verify = %v; want the first of VerifyAll, %v", err, errs[0])
	}
	for _, e := range errs {
		if strings.Contains(e.Error(), "{") {
			t.Errorf("violation %q dumps a Go struct", e)
		}
	}
}
