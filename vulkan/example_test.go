package vulkan_test

import (
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"log"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// A frame end to end: the device supplies real requirements, the planner
// places and synchronizes, Bind allocates the pools and binds, Record
// interleaves the planned barriers with the renderer's own work. It needs
// a Vulkan device, so it is compiled but not run (no Output comment).
func Example() {
	dev, err := vulkan.Open(vulkan.Config{Validation: true})
	if err != nil {
		log.Fatal(err) // vulkan.Unavailable(err): no loader, device or layer here
	}
	defer dev.Close()

	g := &planner.Graph{}
	a := g.AddBuffer("a", planner.BufferDesc{Size: 1 << 20, Usage: avk.BufferUsageTransferDst | avk.BufferUsageTransferSrc})
	b := g.AddBuffer("b", planner.BufferDesc{Size: 1 << 20, Usage: avk.BufferUsageTransferDst | avk.BufferUsageTransferSrc})
	c := g.AddBuffer("c", planner.BufferDesc{Size: 1 << 20, Usage: avk.BufferUsageTransferDst | avk.BufferUsageTransferSrc})
	write := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: avk.StageTransfer, Access: avk.AccessTransferWrite}
	}
	read := func(r planner.ResourceID) planner.Access {
		return planner.Access{Resource: r, Stages: avk.StageTransfer, Access: avk.AccessTransferRead}
	}
	g.AddCommand("fill a", write(a))
	g.AddCommand("a to c", read(a), write(c))
	g.AddCommand("c to b", read(c), write(b)) // b may reuse a's memory

	res := dev.NewResources(g) // the requirements source: creates resources unbound
	defer res.Close()          // frees each pool with its last resource
	plan, err := aliasplan.New(aliasplan.Options{Source: res, MaxPoolSize: dev.Info().MaxMemoryAllocationSize}).Plan(&aliasplan.Graph{Graph: *g})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.Bind(plan); err != nil {
		log.Fatal(err)
	}
	err = dev.Run(func(cb vk.CommandBuffer) error {
		return res.Record(cb, func(cb vk.CommandBuffer, cmd planner.CommandID) error {
			switch g.Commands[cmd].Name {
			case "fill a":
				vk.CmdFillBuffer(cb, res.Buffer(a), 0, vk.DeviceSize(vk.WholeSize), 7)
			case "a to c":
				vk.CmdCopyBuffer(cb, res.Buffer(a), res.Buffer(c), 1, []vk.BufferCopy{{Size: 1 << 20}})
			case "c to b":
				vk.CmdCopyBuffer(cb, res.Buffer(c), res.Buffer(b), 1, []vk.BufferCopy{{Size: 1 << 20}})
			}
			return nil
		})
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d bytes pooled for %d transient bytes; validation messages: %d\n",
		plan.Stats.PooledBytes, plan.Stats.TransientBytes, len(dev.Messages()))
}
