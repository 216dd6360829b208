package vulkan

import (
	"errors"
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"slices"
	"strings"
	"testing"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// ownedBuffer makes a buffer the test owns (with its own dedicated
// allocation), to import into a graph; it is destroyed at cleanup.
func ownedBuffer(t *testing.T, d *Device, size uint64) vk.Buffer {
	t.Helper()
	g := &planner.Graph{}
	id := g.AddResource(planner.Resource{Name: "owned", Kind: planner.KindBuffer, Dedicated: true, Buffer: planner.BufferDesc{Size: size, Usage: bufUsage}})
	return ownedRes(t, d, g).Buffer(id)
}

// ownedImage is ownedBuffer for an image.
func ownedImage(t *testing.T, d *Device, desc planner.ImageDesc) vk.Image {
	t.Helper()
	g := &planner.Graph{}
	desc.InitialLayout = avk.LayoutUndefined
	id := g.AddResource(planner.Resource{Name: "owned", Kind: planner.KindImage, Dedicated: true, Image: desc})
	return ownedRes(t, d, g).Image(id)
}

func ownedRes(t *testing.T, d *Device, g *planner.Graph) *Resources {
	t.Helper()
	r := d.NewResources(g)
	t.Cleanup(r.Close)
	plan := &planner.Plan{Resources: []planner.ResourcePlan{{Status: planner.StatusDedicated}}}
	if err := r.Bind(plan); err != nil {
		t.Fatalf("owned resource: %v", err)
	}
	return r
}

// TestPaths runs data through every non-pooled path: a host-visible upload
// buffer written through its mapping, a dedicated buffer and a dedicated
// image (VkMemoryDedicatedAllocateInfo), an imported buffer the test owns,
// and a host-visible readback buffer. An unused transient is never created.
func TestPaths(t *testing.T) {
	d := openDevice(t)
	const w, h = 32, 32
	const size = w * h * 4
	g := &planner.Graph{}
	up := addBuffer(g, "upload", size, planner.CPUToGPU)
	ded := g.AddResource(planner.Resource{Name: "dedicated", Kind: planner.KindBuffer, Dedicated: true, Buffer: planner.BufferDesc{Size: size, Usage: bufUsage}})
	dimg := g.AddResource(planner.Resource{Name: "dedicated.image", Kind: planner.KindImage, Dedicated: true, Image: planner.ImageDesc{
		Format: avk.FormatR8G8B8A8Unorm, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: avk.TilingOptimal, Usage: avk.ImageUsageTransferSrc | avk.ImageUsageTransferDst}})
	imp := g.AddResource(planner.Resource{Name: "imported", Kind: planner.KindBuffer, Imported: true, Buffer: planner.BufferDesc{Size: size, Usage: bufUsage}})
	out := addBuffer(g, "readback", size, planner.GPUToCPU)
	unused := addBuffer(g, "unused", size, planner.GPUOnly)
	g.AddCommand("host.write", hostWrite(up))
	g.AddCommand("up.to.dedicated", rd(up), wr(ded))
	g.AddCommand("dedicated.to.image", rd(ded), imgWr(dimg))
	g.AddCommand("image.to.imported", imgRd(dimg), wr(imp))
	g.AddCommand("imported.to.readback", rd(imp), wr(out))
	g.AddCommand("host.read", hostRead(out))

	p := planOn(t, d, g)
	p.report(t, d)
	want := map[planner.ResourceID]planner.Status{up: planner.StatusHostVisible, ded: planner.StatusDedicated, dimg: planner.StatusDedicated,
		imp: planner.StatusImported, out: planner.StatusHostVisible, unused: planner.StatusUnused}
	for id, st := range want {
		if got := p.plan.Resources[id].Status; got != st {
			t.Errorf("%s: status %s, want %s", g.Resources[id].Name, got, st)
		}
	}
	if err := p.res.ImportBuffer(imp, ownedBuffer(t, d, size)); err != nil {
		t.Fatal(err)
	}
	p.bind(t)
	if p.res.Buffer(unused) != vk.NullBuffer || p.res.Created() != 4 {
		t.Errorf("created %d objects (unused handle %v); want 4 and none for the unused transient", p.res.Created(), p.res.Buffer(unused))
	}
	if _, err := p.res.Map(ded); err == nil {
		t.Error("Map of a device-local resource succeeded")
	}
	src, err := p.res.Map(up)
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		src[i] = byte(i * 7)
	}
	p.run(t, d, func(cb vk.CommandBuffer, cmd planner.CommandID) error {
		switch cmd {
		case 1:
			copyBuffer(cb, p.res.Buffer(up), p.res.Buffer(ded), 0, 0, size)
		case 2:
			bufferToImage(cb, p.res.Buffer(ded), p.res.Image(dimg), w, h)
		case 3:
			imageToBuffer(cb, p.res.Image(dimg), p.res.Buffer(imp), w, h)
		case 4:
			copyBuffer(cb, p.res.Buffer(imp), p.res.Buffer(out), 0, 0, size)
		}
		return nil
	})
	got, err := p.res.Map(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := compareBytes("readback", got, func(i int) byte { return byte(i * 7) }); err != nil {
		t.Error(err)
	}
	expectClean(t, d)
}

// TestImportedWithoutHandle: recording a barrier on an imported resource
// the caller did not hand over is an error naming it, not a crash.
func TestImportedWithoutHandle(t *testing.T) {
	d := openDevice(t)
	g := &planner.Graph{}
	imp := g.AddResource(planner.Resource{Name: "swap", Kind: planner.KindBuffer, Imported: true, Buffer: planner.BufferDesc{Size: 256, Usage: bufUsage}})
	g.AddCommand("w1", wr(imp))
	g.AddCommand("w2", wr(imp))
	p := planOn(t, d, g)
	p.bind(t)
	err := d.Run(func(cb vk.CommandBuffer) error { return p.res.Record(cb, nil) })
	if err == nil || !strings.Contains(err.Error(), `"swap"`) || !strings.Contains(err.Error(), "ImportBuffer") {
		t.Fatalf("Record error %v; want one naming the resource and ImportBuffer", err)
	}
	if err := p.res.ImportImage(imp, vk.NullImage); err == nil {
		t.Error("ImportImage on a buffer succeeded")
	}
}

// TestTeardown checks the ownership rule: a pool's memory is freed exactly
// when the last resource bound to it is destroyed, and once every resource
// is gone nothing is left (the device's counters, and the validation
// layer, which reports leaked objects when the device is destroyed).
func TestTeardown(t *testing.T) {
	d := openDevice(t)
	p := planOn(t, d, imageScenario.graph())
	p.bind(t)
	p.run(t, d, imageScenario.work(p))
	allocs, bufs, imgs := d.Live()
	if allocs != len(p.plan.Pools)+1 || bufs != 2 || imgs != 2 {
		t.Fatalf("live after bind: %d allocations, %d buffers, %d images; want %d, 2, 2", allocs, bufs, imgs, len(p.plan.Pools)+1)
	}
	members := make([]int, len(p.plan.Pools))
	for _, rp := range p.plan.Resources {
		if rp.Status == planner.StatusPooled {
			members[rp.Placement.Pool]++
		}
	}
	for id := range p.g.Resources {
		rp := &p.plan.Resources[id]
		p.res.Destroy(planner.ResourceID(id))
		p.res.Destroy(planner.ResourceID(id)) // twice: a no-op
		if rp.Status != planner.StatusPooled {
			continue
		}
		members[rp.Placement.Pool]--
		alive := p.res.PoolMemory(rp.Placement.Pool) != vk.NullDeviceMemory
		if alive != (members[rp.Placement.Pool] > 0) {
			t.Errorf("after destroying %s, pool %d memory alive = %t with %d members left", p.g.Resources[id].Name, rp.Placement.Pool, alive, members[rp.Placement.Pool])
		}
	}
	if a, b, i := d.Live(); a+b+i != 0 {
		t.Errorf("live after destroying everything: %d allocations, %d buffers, %d images", a, b, i)
	}
	expectClean(t, d) // Close at cleanup then proves the layer sees no leak
}

// TestLeakIsReported proves the teardown check can fail: a resource left
// alive is reported by Close and by the validation layer when the device
// is destroyed.
func TestLeakIsReported(t *testing.T) {
	d := openDevice(t)
	g := &planner.Graph{}
	a := addBuffer(g, "leaked", 4096, planner.GPUOnly)
	g.AddCommand("w", wr(a))
	c, _ := planner.Compile(g)
	res := d.NewResources(g)
	plan, err := planner.Place(c, planner.Options{Strategy: strategyForTests(), Source: res})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Bind(plan); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err == nil || !strings.Contains(err.Error(), "1 allocations, 1 buffers") {
		t.Errorf("Close with a live resource: %v; want a leak error", err)
	}
	ms := d.TakeMessages()
	leaks := 0
	for _, m := range ms {
		if strings.Contains(m.Text, "has not been destroyed") {
			leaks++
		}
		t.Logf("reported as expected: %s", m)
	}
	if leaks == 0 {
		t.Errorf("the validation layer reported no leak (%d messages)", len(ms))
	}
}

// mixedGraph has two pools (linear and optimal), a dedicated buffer and a
// host-visible readback: every Bind step has work.
func mixedGraph() *planner.Graph {
	g := imageScenario.graph()
	ded := g.AddResource(planner.Resource{Name: "dedicated", Kind: planner.KindBuffer, Dedicated: true, Buffer: planner.BufferDesc{Size: 4096, Usage: bufUsage}})
	g.AddCommand("fill.dedicated", wr(ded))
	return g
}

// TestBindFailureCleansUp fails Bind at each of its steps in turn and
// checks that the error names the step and nothing is left alive; then a
// Bind of the same plan succeeds.
func TestBindFailureCleansUp(t *testing.T) {
	d := openDevice(t)
	p := planOn(t, d, mixedGraph())
	var steps []string
	bindHook = func(step string) error { steps = append(steps, step); return nil }
	defer func() { bindHook = nil }()
	p.bind(t)
	p.res.Close()
	t.Logf("Bind steps: %q", steps)
	for _, want := range []string{"create", "validate", "allocate pool 0", "allocate pool 1", "bind pool 0 buffers", "bind pool 1 images", "allocate own", "bind own buffers", "map"} {
		if !slices.Contains(steps, want) {
			t.Errorf("Bind has no step %q", want)
		}
	}
	injected := errors.New("injected failure")
	for _, failAt := range steps {
		bindHook = func(step string) error {
			if step == failAt {
				return injected
			}
			return nil
		}
		err := p.res.Bind(p.plan)
		var be *BindError
		if !errors.As(err, &be) || be.Step != failAt || !errors.Is(err, injected) {
			t.Errorf("fail at %q: Bind returned %v", failAt, err)
		}
		if a, b, i := d.Live(); a+b+i != 0 {
			t.Errorf("fail at %q: left %d allocations, %d buffers, %d images alive", failAt, a, b, i)
		}
		for id := range p.g.Resources {
			if p.res.Buffer(planner.ResourceID(id)) != vk.NullBuffer || p.res.Image(planner.ResourceID(id)) != vk.NullImage {
				t.Errorf("fail at %q: %s still has a handle", failAt, p.g.Resources[id].Name)
			}
		}
	}
	bindHook = nil
	p.bind(t)
	p.run(t, d, imageScenario.work(p))
	if err := imageScenario.check(p); err != nil {
		t.Error(err)
	}
	expectClean(t, d)
}

// TestBindValidation: the plan's placement is checked against the real
// requirements at bind time; each broken rule is a *BindError naming the
// resource, and nothing is left alive.
func TestBindValidation(t *testing.T) {
	d := openDevice(t)
	cases := []struct {
		rule BindRule
		// tamper breaks the plan (or the cached real requirements) and
		// returns the resource the error must name.
		tamper func(p *planned) string
	}{
		{RuleAlignment, func(p *planned) string { p.plan.Resources[p.mustID("b")].Placement.Offset++; return "b" }},
		{RuleMemoryTypeBits, func(p *planned) string {
			p.res.objs[p.mustID("b")].req.MemoryTypeBits = 0 // as if the device's bits differed from the plan's
			return "b"
		}},
		{RuleSize, func(p *planned) string { p.plan.Resources[p.mustID("b")].Placement.Size--; return "b" }},
		{RuleBounds, func(p *planned) string {
			// Shrink the pool by one byte under the resource that ends last.
			var last planner.ResourceID
			var end uint64
			for id, rp := range p.plan.Resources {
				if pl := rp.Placement; rp.Status == planner.StatusPooled && pl.Offset+pl.Size > end {
					last, end = planner.ResourceID(id), pl.Offset+pl.Size
				}
			}
			p.plan.Pools[p.plan.Resources[last].Placement.Pool].Size = end - 1
			return p.g.Resources[last].Name
		}},
		{RulePlan, func(p *planned) string { p.plan.Resources[p.mustID("b")].Placement.Pool = 99; return "b" }},
	}
	for _, tc := range cases {
		t.Run(string(tc.rule), func(t *testing.T) {
			p := planOn(t, d, bufferScenario.graph())
			name := tc.tamper(p)
			err := p.res.Bind(p.plan)
			var be *BindError
			if !errors.As(err, &be) || be.Rule != tc.rule || be.Resource != name || be.Step != "validate" {
				t.Fatalf("Bind returned %v; want a validate error with rule %s naming %s", err, tc.rule, name)
			}
			t.Logf("as expected: %v", err)
			if a, bu, i := d.Live(); a+bu+i != 0 {
				t.Errorf("left %d allocations, %d buffers, %d images alive", a, bu, i)
			}
		})
	}
	expectClean(t, d)
}

// TestExplicitRequirementsChecked: requirements written in the graph (say,
// estimated for another device) are what the planner places with; Bind
// creates and queries such a resource itself and refuses a placement the
// real requirements do not fit.
func TestExplicitRequirementsChecked(t *testing.T) {
	d := openDevice(t)
	g := bufferScenario.graph()
	b, _ := g.ResourceByName("b")
	// Below the buffer's own size, the planner refuses them before any
	// device is asked.
	g.Resources[b].Requirements = &planner.Requirements{Size: 1024, Alignment: 1, MemoryTypeBits: 1}
	if _, err := planner.Compile(g); !strings.Contains(fmt.Sprint(err), string(planner.RuleRequirementsTooSmall)) {
		t.Fatalf("Compile with a 1 KiB requirement for a %d-byte buffer: %v; want rule %s", g.Resources[b].Buffer.Size, err, planner.RuleRequirementsTooSmall)
	}
	// Large enough, but not the device's alignment: b and c, one byte
	// longer than their buffers and live together, put one of them at an
	// odd offset, and Bind finds out.
	c, _ := g.ResourceByName("c")
	g.Resources[b].Requirements = &planner.Requirements{Size: g.Resources[b].Buffer.Size + 1, Alignment: 1, MemoryTypeBits: 1}
	g.Resources[c].Requirements = &planner.Requirements{Size: g.Resources[c].Buffer.Size + 1, Alignment: 1, MemoryTypeBits: 1}
	p := planOn(t, d, g)
	q := p.res.Queries()
	err := p.res.Bind(p.plan)
	var be *BindError
	if !errors.As(err, &be) || (be.Resource != "b" && be.Resource != "c") || (be.Rule != RuleSize && be.Rule != RuleAlignment) {
		t.Fatalf("Bind returned %v; want a size or alignment error naming b or c", err)
	}
	if p.res.Queries() > q+2 {
		t.Errorf("Bind made %d requirement queries; want at most 2 (for b and c)", p.res.Queries()-q)
	}
	t.Logf("as expected: %v", err)
}

// TestRequirementsQueriedOnce: each resource is created and queried once,
// however often the planner asks, and Bind binds those same handles.
func TestRequirementsQueriedOnce(t *testing.T) {
	d := openDevice(t)
	p := planOn(t, d, imageScenario.graph())
	n := p.res.Queries()
	if n != 4 || p.res.Created() != 4 {
		t.Fatalf("planning made %d queries and created %d objects; want 4 and 4", n, p.res.Created())
	}
	before := make([]unsafe.Pointer, len(p.g.Resources))
	for id := range p.g.Resources {
		before[id] = handle(p.res, planner.ResourceID(id))
	}
	// Plan again with the same source: no new query.
	if _, err := planner.Place(p.c, planner.Options{Strategy: strategyForTests(), Source: p.res}); err != nil {
		t.Fatal(err)
	}
	p.bind(t)
	if p.res.Queries() != n || p.res.Created() != 4 {
		t.Errorf("after a second Place and Bind: %d queries, %d created; want %d and 4", p.res.Queries(), p.res.Created(), n)
	}
	for id := range p.g.Resources {
		if h := handle(p.res, planner.ResourceID(id)); h != before[id] {
			t.Errorf("%s: Bind bound handle %p, planning queried %p", p.g.Resources[id].Name, h, before[id])
		}
	}
	for id := range p.g.Resources {
		if p.g.Resources[id].Kind == planner.KindImage && !p.res.objs[id].aliasBit {
			t.Errorf("%s: pooled image created without VK_IMAGE_CREATE_ALIAS_BIT", p.g.Resources[id].Name)
		}
	}
}

func handle(r *Resources, id planner.ResourceID) unsafe.Pointer {
	if b := r.Buffer(id); b != vk.NullBuffer {
		return unsafe.Pointer(b)
	}
	return unsafe.Pointer(r.Image(id))
}

// transition records one layout transition of an image the test owns, out
// of band of any plan (an engine's own setup).
func transition(d *Device, cb vk.CommandBuffer, img vk.Image, from, to avk.Layout, aspect uint32) {
	var s vkext.Barriers
	s.Image = append(s.Image, vkext.ImageBarrier{
		Scope:     vkext.Scope{SrcStages: uint64(avk.StageAllCommands), SrcAccess: uint64(avk.AccessMemoryWrite), DstStages: uint64(avk.StageAllCommands), DstAccess: uint64(avk.AccessMemoryRead | avk.AccessMemoryWrite)},
		OldLayout: uint32(from), NewLayout: uint32(to), Image: unsafe.Pointer(img), Aspect: aspect, Mips: vk.RemainingMipLevels, Layers: vk.RemainingArrayLayers})
	d.dext.PipelineBarrier2(unsafe.Pointer(cb), &s)
}
