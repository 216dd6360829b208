// Package aliasplan plans transient GPU memory aliasing for Vulkan render
// graphs. A renderer describes a frame as a Graph — resources (buffers and
// images) and commands that access them in recorded order — and a Planner
// returns a Plan: which transient resources share device memory (only
// those whose uses are provably ordered), the pools to allocate and every
// resource's offset, and the synchronization2 barriers that make the reuse
// safe. Every plan returned has passed planner.Verify.
//
// The package is a thin front over the planner (graph model, Compile,
// placement, Verify), the strategies (firstfit by default; bestfit; exact)
// and barriers packages. Package vulkan applies a plan to a real device.
//
// Build a Graph each frame (Graph.Reset keeps its storage), call Plan, and
// record the frame with the plan's order and barriers. A Planner
// remembers the last few graphs it planned: a frame identical to one of
// them gets the same verified plan back in one allocation-free pass over
// the graph (see Planner). Otherwise the cost is dominated by Compile's
// happens-before closure, O(V·E/64) time and V²/8 bytes for V commands
// and E dependency edges, and by each pool group's interference matrix
// and strategy, O(P²) bit operations and P²/8 bytes for P pooled
// resources (docs/design.md, docs/performance.md).
package aliasplan

//go:generate go run names_gen.go
