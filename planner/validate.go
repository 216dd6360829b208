package planner

import "fmt"

// Validate checks the rules a graph must meet before it is compiled and
// returns the first broken one as a *GraphError. Rules that need the
// analysis (a transient read before it is written) are checked by Compile.
//
// Cost: O(R + A) with one map of names.
func Validate(g *Graph) error {
	names := make(map[string]struct{}, len(g.Resources))
	for i := range g.Resources {
		if err := validateResource(&g.Resources[i], i, names); err != nil {
			return err
		}
	}
	clear(names)
	nr := ResourceID(len(g.Resources))
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		if cmd.Name == "" {
			return &GraphError{Item: fmt.Sprintf("commands[%d]", ci), Access: -1, Rule: RuleEmptyName, Detail: "command has an empty name"}
		}
		if _, dup := names[cmd.Name]; dup {
			return &GraphError{Command: cmd.Name, Access: -1, Rule: RuleDuplicateName, Detail: "two commands have this name"}
		}
		names[cmd.Name] = struct{}{}
		for ai, a := range cmd.Accesses {
			if a.Resource < 0 || a.Resource >= nr {
				return &GraphError{Command: cmd.Name, Access: ai, Rule: RuleUnknownResource, Detail: fmt.Sprintf("resource id %d is not in the graph", a.Resource)}
			}
			res := &g.Resources[a.Resource]
			if a.Stages == 0 {
				return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleNoStages, Detail: "access has no pipeline stage"}
			}
			if res.Kind != KindImage {
				continue
			}
			if a.Layout == LayoutUndefined || a.Layout == LayoutPreinitialized {
				return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleNoLayout,
					Detail: fmt.Sprintf("image access needs a layout a command can use, not %s", a.Layout)}
			}
			// One layout per image per command: compare with the earlier
			// accesses of this command (commands have few accesses).
			for bi := 0; bi < ai; bi++ {
				b := cmd.Accesses[bi]
				if b.Resource == a.Resource && b.Layout != a.Layout {
					return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleTwoLayouts,
						Detail: fmt.Sprintf("image used in two layouts in one command (%s and %s)", b.Layout, a.Layout)}
				}
			}
		}
	}
	return nil
}

func validateResource(r *Resource, i int, names map[string]struct{}) error {
	fail := func(rule Rule, format string, args ...any) error {
		return &GraphError{Resource: r.Name, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if r.Name == "" {
		return &GraphError{Item: fmt.Sprintf("resources[%d]", i), Access: -1, Rule: RuleEmptyName, Detail: "resource has an empty name"}
	}
	if _, dup := names[r.Name]; dup {
		return fail(RuleDuplicateName, "two resources have this name")
	}
	names[r.Name] = struct{}{}
	if r.Memory > GPUToCPU {
		return fail(RuleField, "unknown memory kind %d", r.Memory)
	}
	switch r.Kind {
	case KindBuffer:
		if r.Buffer.Size == 0 {
			return fail(RuleZeroSize, "buffer size is 0")
		}
	case KindImage:
		im := &r.Image
		if im.Width == 0 || im.Height == 0 || im.Depth == 0 {
			return fail(RuleZeroExtent, "image extent %dx%dx%d has a zero dimension", im.Width, im.Height, im.Depth)
		}
		if im.MipLevels == 0 || im.ArrayLayers == 0 {
			return fail(RuleZeroExtent, "image has %d mip levels and %d array layers; both must be at least 1", im.MipLevels, im.ArrayLayers)
		}
		if !isPow2(uint64(im.Samples)) || im.Samples > 64 {
			return fail(RuleSamples, "sample count %d is not a power of two in [1, 64]", im.Samples)
		}
		if im.Tiling != TilingOptimal && im.Tiling != TilingLinear {
			return fail(RuleField, "unknown tiling %d", im.Tiling)
		}
	default:
		return fail(RuleField, "unknown resource kind %d", r.Kind)
	}
	if q := r.Requirements; q != nil {
		if q.Size == 0 {
			return fail(RuleZeroSize, "required size is 0")
		}
		if !isPow2(q.Alignment) {
			return fail(RuleAlignment, "alignment %d is not a power of two", q.Alignment)
		}
		if q.MemoryTypeBits == 0 {
			return fail(RuleMemoryTypeBits, "memoryTypeBits is 0: no memory type can hold it")
		}
	}
	return nil
}
