package vulkan

import (
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
)

// TestFramesHeld plans three frames through one aliasplan.Frames with
// this device as the source, binds each frame's own objects into the held
// allocations (BindHeld), records it (entry barrier included) and submits
// it; closing a frame's Resources frees none of the held memory, freeing
// what the plans free and closing the Held leaves nothing alive.
func TestFramesHeld(t *testing.T) {
	d := openDevice(t)
	held := d.NewHeld()
	defer held.Close()
	src := &curSource{}
	frames := aliasplan.NewFrames(aliasplan.Options{Source: src}, aliasplan.FrameOptions{InFlight: 1})
	for i, size := range [][2]uint32{{320, 180}, {288, 162}, {400, 225}} {
		g := transientFrame(size[0], size[1])
		res := d.NewResources(&g.Graph)
		src.cur = res
		fp, err := frames.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(fp.Entry) != 1 {
			t.Fatalf("frame %d: no entry barrier", i+1)
		}
		for _, h := range fp.Held {
			switch h.State {
			case aliasplan.PoolNew:
				if err := held.Allocate(h.ID, h.MemoryTypeIndex, h.Size); err != nil {
					t.Fatal(err)
				}
			case aliasplan.PoolFree:
				held.Free(h.ID) // InFlight 1: the previous frame was waited for
			}
		}
		mem := make([]vk.DeviceMemory, len(fp.Pools))
		for k := range fp.Pools {
			mem[k] = held.Memory(fp.Held[fp.PoolOf[k]].ID)
		}
		if err := res.BindHeld(fp.Plan, mem[:len(mem)-1]); err == nil {
			t.Fatalf("frame %d: BindHeld with a pool's memory missing succeeded", i+1)
		}
		if err := res.BindHeld(fp.Plan, mem); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		if err := d.Run(func(cb vk.CommandBuffer) error { return res.Record(cb, nil) }); err != nil {
			t.Fatal(err)
		}
		res.Close()
		if a, b, im := d.Live(); a != held.Len() || b != 0 || im != 0 {
			t.Fatalf("frame %d: after Close %d allocations (%d held), %d buffers, %d images alive", i+1, a, held.Len(), b, im)
		}
		for _, m := range d.TakeMessages() {
			t.Errorf("frame %d: validation: %s", i+1, m)
		}
	}
	if held.Len() == 0 {
		t.Fatal("nothing held")
	}
	held.Close()
	if a, b, im := d.Live(); a+b+im != 0 {
		t.Fatalf("after Held.Close: %d allocations, %d buffers, %d images alive", a, b, im)
	}
}

// curSource answers requirements from the frame being planned.
type curSource struct{ cur *Resources }

func (s *curSource) Describe() string                  { return s.cur.Describe() }
func (s *curSource) MemoryTypes() []planner.MemoryType { return s.cur.MemoryTypes() }
func (s *curSource) Limits() planner.Limits            { return s.cur.Limits() }
func (s *curSource) Requirements(r *planner.Resource) (planner.Requirements, error) {
	return s.cur.Requirements(r)
}

// transientFrame is a small frame of transients only: a G-buffer pass, a
// compute lighting pass, a blur into a buffer, a read of it.
func transientFrame(w, h uint32) *aliasplan.Graph {
	g := &aliasplan.Graph{}
	albedo := g.AddImage("albedo", aliasplan.ImageDesc{Format: avk.FormatR8G8B8A8Unorm, Width: w, Height: h, Usage: avk.ImageUsageColorAttachment | avk.ImageUsageSampled})
	lit := g.AddImage("lit", aliasplan.ImageDesc{Format: avk.FormatR16G16B16A16Sfloat, Width: w, Height: h, Usage: avk.ImageUsageStorage | avk.ImageUsageSampled})
	blur := g.AddBuffer("blur", aliasplan.BufferDesc{Size: uint64(w) * uint64(h) * 4, Usage: avk.BufferUsageStorageBuffer})
	post := g.AddImage("post", aliasplan.ImageDesc{Format: avk.FormatR8G8B8A8Unorm, Width: w, Height: h, Usage: avk.ImageUsageStorage})
	g.AddCommand("gbuffer", g.ColorAttachment(albedo))
	g.AddCommand("light", g.Sampled(albedo, avk.StageComputeShader), g.WriteImage(lit, avk.StageComputeShader))
	g.AddCommand("blur", g.Sampled(lit, avk.StageComputeShader), g.WriteBuffer(blur, avk.StageComputeShader))
	g.AddCommand("post", g.ReadBuffer(blur, avk.StageComputeShader), g.WriteImage(post, avk.StageComputeShader))
	g.AddCommand("read", g.ReadImage(post, avk.StageComputeShader))
	return g
}
