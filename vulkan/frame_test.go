package vulkan

import (
	avk "github.com/aliasplan/aliasplan/vk"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
)

// TestSampleFrame plans aliasplan.SampleFrame at 1920×1080 through the
// root Planner with this device as the requirements source, binds it,
// records every planned barrier (no draw or dispatch work: the layer still
// checks each barrier and treats layout transitions of aliased images as
// writes) and submits. It logs the requirements seen, the pools and the
// bytes saved: the report to read on real hardware (go test -v). It runs
// twice: as SPEC §3 says (resources whose driver prefers a dedicated
// allocation get one) and with Options.PoolPrefersDedicated, which on
// drivers that prefer dedicated memory for render targets (NVIDIA) is what
// lets the G-buffer alias at all.
func TestSampleFrame(t *testing.T) {
	t.Run("spec", func(t *testing.T) { sampleFrame(t, false) })
	t.Run("pool-prefers-dedicated", func(t *testing.T) { sampleFrame(t, true) })
}

func sampleFrame(t *testing.T, poolPrefers bool) {
	d := openDevice(t)
	g := aliasplan.SampleFrame(1920, 1080)
	res := d.NewResources(&g.Graph)
	t.Cleanup(res.Close)
	c, plan, err := aliasplan.New(aliasplan.Options{Source: res, MaxPoolSize: d.Info().MaxMemoryAllocationSize, PoolPrefersDedicated: poolPrefers}).PlanCompiled(g)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	p := &planned{g: &g.Graph, c: c, res: res, plan: plan}
	p.report(t, d)
	if plan.Stats.PooledBytes >= plan.Stats.TransientBytes {
		t.Errorf("no memory saved: pooled %d of %d transient bytes", plan.Stats.PooledBytes, plan.Stats.TransientBytes)
	}

	// The engine's own resources, imported: history arrives in the layout
	// the graph declares.
	for id := range g.Resources {
		r := &g.Resources[id]
		if !r.Imported {
			continue
		}
		if r.Kind == planner.KindBuffer {
			if err := res.ImportBuffer(planner.ResourceID(id), ownedBuffer(t, d, r.Buffer.Size)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		img := ownedImage(t, d, r.Image)
		if r.Image.InitialLayout != avk.LayoutUndefined {
			err := d.Run(func(cb vk.CommandBuffer) error {
				transition(d, cb, img, avk.LayoutUndefined, r.Image.InitialLayout, aspect(r.Image.Format))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := res.ImportImage(planner.ResourceID(id), img); err != nil {
			t.Fatal(err)
		}
	}
	if err := res.Bind(plan); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if err := d.Run(func(cb vk.CommandBuffer) error { return res.Record(cb, nil) }); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Queries() != res.Created() {
		t.Errorf("%d requirement queries for %d created resources; want one each", res.Queries(), res.Created())
	}
	ms := d.TakeMessages()
	for _, m := range ms {
		t.Errorf("validation: %s", m)
	}
	if len(ms) == 0 {
		t.Logf("validation (layer + synchronization validation): 0 messages for %d barriers", len(plan.Barriers))
	}
}

// aspect is the image aspect mask of a format, for the test's own barriers.
func aspect(f avk.Format) uint32 {
	switch {
	case f.HasDepth() && f.HasStencil():
		return uint32(vk.ImageAspectDepthBit | vk.ImageAspectStencilBit)
	case f.HasDepth():
		return uint32(vk.ImageAspectDepthBit)
	case f.HasStencil():
		return uint32(vk.ImageAspectStencilBit)
	}
	return uint32(vk.ImageAspectColorBit)
}
