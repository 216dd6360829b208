// Package aliasplan plans transient GPU memory aliasing for Vulkan render
// graphs. A renderer describes a frame as a Graph — buffers and images, and
// the commands that access them in recorded order — and a Planner returns
// a Plan: which transient resources share device memory (only those whose
// uses are provably ordered), the pools to allocate and each resource's
// offset, and the synchronization2 barriers that make the reuse safe.
// Every plan returned has passed verify.Plan, an independent check.
//
// A frame, built each frame (Reset keeps the storage):
//
//	g := &aliasplan.Graph{}
//	depth := g.AddImage("depth", aliasplan.ImageDesc{Format: vk.FormatD32Sfloat,
//		Width: 1920, Height: 1080, Usage: vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled})
//	ao := g.AddImage("ssao", aliasplan.ImageDesc{Format: vk.FormatR8Unorm,
//		Width: 1920, Height: 1080, Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
//	g.AddCommand("prepass", g.DepthAttachment(depth))
//	g.AddCommand("ssao", g.Sampled(depth, vk.StageComputeShader), g.WriteImage(ao, vk.StageComputeShader))
//	g.AddCommand("light", g.Sampled(ao, vk.StageFragmentShader), ...)
//
//	p := aliasplan.New(aliasplan.Options{}) // first fit, H200 estimates; or a vulkan device as Source
//	plan, err := p.Plan(g)
//
// The presets (DepthAttachment, Sampled, WriteImage, ReadBuffer, ...)
// fill in stages, access flags and layouts that agree; an Access literal
// says anything else. Vulkan's enums (stages, access flags, layouts,
// formats, usages) are in package vk, by their Vulkan names.
//
// The package is a thin front: planner (the model, Validate, Compile,
// placement), the strategies (firstfit by default, bestfit, exact),
// barriers and verify. Package vulkan applies a plan to a real device.
//
// Cost. A Planner remembers the last few graphs it planned: a frame
// identical to one of them gets the same verified plan back in one
// allocation-free pass over the graph. Otherwise the cost is dominated by
// Compile's happens-before closure (O(V·E/64) time and V²/8 bytes for V
// commands and E dependency edges) and by each pool group's interference
// matrix and strategy (O(P²) bit operations and P²/8 bytes for P pooled
// resources); docs/performance.md has the figures.
package aliasplan
