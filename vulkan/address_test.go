package vulkan

import (
	"os"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	avk "github.com/aliasplan/aliasplan/vk"
)

// TestDeviceAddressMemory: on a device opened with bufferDeviceAddress
// (the acceleration-structure replay stages), a frame whose transient
// buffer has SHADER_DEVICE_ADDRESS usage binds without a validation
// message both into plan pools (Bind) and into Held allocations
// (BindHeld): the memory carries DEVICE_ADDRESS (address.go); without it
// the layer reports VUID-vkBindBufferMemory-bufferDeviceAddress-03339.
func TestDeviceAddressMemory(t *testing.T) {
	if unavailable != nil {
		openDevice(t) // skips, or fails under ALIASPLAN_REQUIRE_VULKAN=1
	}
	ad, err := Open(Config{Validation: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE"), Replay: true, ReplayStages: avk.StageAccelerationStructureBuild})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer func() {
		if err := ad.Close(); err != nil {
			t.Error(err)
		}
	}()
	if !ad.extras.as {
		msg := ad.Info().Name + " was not opened with bufferDeviceAddress (no VK_KHR_acceleration_structure): a device limit"
		if os.Getenv("ALIASPLAN_REQUIRE_EXT") == "1" {
			t.Fatal(msg)
		}
		t.Skip("SKIP (device limit, not a pass): " + msg)
	}
	frame := func() *aliasplan.Graph {
		g := transientFrame(64, 64)
		for i := range g.Resources {
			if g.Resources[i].Name == "blur" {
				g.Resources[i].Buffer.Usage |= avk.BufferUsageShaderDeviceAddress
			}
		}
		return g
	}
	t.Run("pools", func(t *testing.T) {
		g := frame()
		p := planOn(t, ad, &g.Graph)
		if err := p.res.Bind(p.plan); err != nil {
			t.Fatal(err)
		}
		if err := ad.Run(func(cb vk.CommandBuffer) error { return p.res.Record(cb, nil) }); err != nil {
			t.Fatal(err)
		}
		for _, m := range ad.TakeMessages() {
			t.Errorf("validation: %s", m)
		}
	})
	t.Run("held", func(t *testing.T) {
		held := ad.NewHeld()
		defer held.Close()
		src := &curSource{}
		frames := aliasplan.NewFrames(aliasplan.Options{Source: src}, aliasplan.FrameOptions{InFlight: 1})
		g := frame()
		res := ad.NewResources(&g.Graph)
		defer res.Close()
		src.cur = res
		fp, err := frames.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range fp.Held {
			if h.State == aliasplan.PoolNew {
				if err := held.Allocate(h.ID, h.MemoryTypeIndex, h.Size); err != nil {
					t.Fatal(err)
				}
			}
		}
		mem := make([]vk.DeviceMemory, len(fp.Pools))
		for k := range fp.Pools {
			mem[k] = held.Memory(fp.Held[fp.PoolOf[k]].ID)
		}
		if err := res.BindHeld(fp.Plan, mem); err != nil {
			t.Fatal(err)
		}
		if err := ad.Run(func(cb vk.CommandBuffer) error { return res.Record(cb, nil) }); err != nil {
			t.Fatal(err)
		}
		for _, m := range ad.TakeMessages() {
			t.Errorf("validation: %s", m)
		}
	})
}
