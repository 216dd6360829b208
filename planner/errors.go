package planner

import (
	"fmt"
	"strings"
)

// Rule names the rule a graph, plan or file breaks. Callers branch on it.
type Rule string

const (
	RuleSyntax          Rule = "syntax"                // the file is not well-formed
	RuleVersion         Rule = "version"               // unsupported file version
	RuleMissingField    Rule = "missing-field"         // a required field is absent
	RuleUnknownField    Rule = "unknown-field"         // the file has a field its format does not define
	RuleEmptyName       Rule = "empty-name"            // a resource or command has no name
	RuleDuplicateName   Rule = "duplicate-name"        // two resources (or two commands) share a name
	RuleUnknownName     Rule = "unknown-name"          // a stage, access, layout, format, usage, tiling or memory name is not known
	RuleUnknownResource Rule = "unknown-resource"      // an access names a resource the graph does not have
	RuleNoStages        Rule = "no-stages"             // an access has no pipeline stage
	RuleTwoLayouts      Rule = "two-layouts"           // one command uses an image in two layouts
	RuleNoLayout        Rule = "no-layout"             // an image access without a layout (or UNDEFINED)
	RuleZeroExtent      Rule = "zero-extent"           // an image with a zero width, height, depth, mip or layer count
	RuleZeroSize        Rule = "zero-size"             // a buffer (or requirement) of size zero
	RuleSamples         Rule = "samples"               // a sample count that is not a power of two
	RuleAlignment       Rule = "alignment"             // an alignment that is not a power of two
	RuleMemoryTypeBits  Rule = "memory-type-bits"      // memoryTypeBits of zero, or naming no memory type of the device or profile
	RuleReadBeforeWrite Rule = "read-before-write"     // a transient whose first access writes nothing
	RulePooledLayout    Rule = "pooled-initial-layout" // a pooled image whose initial layout is not UNDEFINED
	RuleNoRequirements  Rule = "no-requirements"       // a resource needs requirements and none are known
	RuleField           Rule = "field"                 // a field holds a value outside its domain
	RuleEmptyLifetime   Rule = "empty-lifetime"        // an interval buffer whose lifetime [lower, upper) is empty
	RuleMipLevels       Rule = "mip-levels"            // more mip levels than ⌊log2(largest extent)⌋+1
	RuleImageType       Rule = "image-type"            // a combination Vulkan does not allow (3D with layers, multisampled with mips or depth, ...)
	RuleImageLimit      Rule = "image-limit"           // an extent, layer or sample count beyond the device's or profile's limits
	RuleSizeOverflow    Rule = "size-overflow"         // a size or a total that does not fit in 64 bits
	RuleStageAccess     Rule = "stage-access"          // an access flag that none of the access's (or barrier's) stages can perform

	// Sizes against the device, usage flags and names.
	RuleRequirementsTooSmall Rule = "requirements-too-small" // explicit requirements smaller than the buffer's size or the image's texel bytes
	RuleHeapSize             Rule = "heap-size"              // a resource or pool larger than the memory heap it would be allocated from
	RuleMaxAllocation        Rule = "max-allocation"         // a resource larger than the device's or profile's maxMemoryAllocationSize
	RuleUsage                Rule = "usage"                  // an access or layout that the resource's declared usage flags (or its kind) do not allow
	RuleNameCharacters       Rule = "name-characters"        // a name that is not valid UTF-8, or holds a control, bidirectional-control or line-separator character

	// Plan files and barriers.
	RuleUnknownCommand  Rule = "unknown-command"  // a plan names a command the graph does not have
	RuleMissingResource Rule = "missing-resource" // a plan leaves out a resource of the graph
	RuleOrder           Rule = "order"            // the order is not a topological order of the DAG
	RuleBarrier         Rule = "barrier"          // a barrier is malformed (type, kind, masks, layouts, grouping)
	RuleHazardBarrier   Rule = "hazard-barrier"   // a DAG edge is not covered by a barrier or a chain of barriers
	RuleLayoutBarrier   Rule = "layout-barrier"   // a command finds an image in another layout than it needs
	RuleAliasBarrier    Rule = "alias-barrier"    // an aliasing pair is not covered by an alias barrier
	RuleEntryBarrier    Rule = "entry-barrier"    // a frame-entry barrier (Plan.Entry) is malformed, or does not order the frames before it on the queue before this frame's first uses
)

// GraphError reports one broken rule with the evidence: the file (when the
// graph came from one), the resource and/or command involved, and the rule.
type GraphError struct {
	File     string // "" when the graph did not come from a file
	Resource string // the resource's name, when the rule concerns one
	Command  string // the command's name, when the rule concerns one
	Access   int    // index of the access within Command, or -1
	Item     string // other item (e.g. "resources[3].image.format") when no name is known
	Rule     Rule
	Detail   string // what was wrong, in words
}

func (e *GraphError) Error() string {
	var b strings.Builder
	b.WriteString("planner: ")
	if e.File != "" {
		// Names are quoted with %q; a path is written as is unless it
		// holds what a terminal must not receive.
		if _, bad := badNameRune(e.File); bad {
			fmt.Fprintf(&b, "%q", e.File)
		} else {
			b.WriteString(e.File)
		}
		b.WriteString(": ")
	}
	sep := ""
	if e.Command != "" {
		fmt.Fprintf(&b, "command %q", e.Command)
		if e.Access >= 0 {
			fmt.Fprintf(&b, " access %d", e.Access)
		}
		sep = " "
	}
	if e.Resource != "" {
		fmt.Fprintf(&b, "%sresource %q", sep, e.Resource)
		sep = " "
	}
	if e.Item != "" {
		fmt.Fprintf(&b, "%s%s", sep, e.Item)
		sep = " "
	}
	if sep != "" {
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	fmt.Fprintf(&b, " (rule %s)", e.Rule)
	return b.String()
}

// BarrierError reports a plan whose execution order or barriers break a
// rule, with the evidence: the command, the resource (and for an alias pair
// the old occupant, for a hazard the earlier command) and the barrier.
type BarrierError struct {
	Before   string // the command the barrier is (or should be) recorded before
	After    string // a hazard's earlier command
	Resource string // the resource concerned; an alias pair's new occupant
	Previous string // an alias pair's old occupant
	Barrier  int    // index into Plan.Barriers of the barrier concerned, or -1
	Rule     Rule
	Detail   string
}

func (e *BarrierError) Error() string {
	var parts []string
	switch {
	case e.Previous != "":
		parts = append(parts, fmt.Sprintf("alias %q → %q", e.Previous, e.Resource))
	case e.Resource != "":
		parts = append(parts, fmt.Sprintf("resource %q", e.Resource))
	}
	if e.After != "" {
		parts = append(parts, fmt.Sprintf("from command %q", e.After))
	}
	if e.Before != "" {
		parts = append(parts, fmt.Sprintf("before command %q", e.Before))
	}
	if e.Barrier >= 0 {
		parts = append(parts, fmt.Sprintf("barrier %d", e.Barrier))
	}
	var b strings.Builder
	b.WriteString("planner: ")
	if len(parts) > 0 {
		b.WriteString(strings.Join(parts, " "))
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	fmt.Fprintf(&b, " (rule %s)", e.Rule)
	return b.String()
}
