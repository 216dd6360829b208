package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aliasplan/aliasplan/vk"
)

// Acceleration structures refer to one another by device address: a
// top-level structure's instances name bottom-level ones, and a use of the
// top level (a trace, a ray query) reads them through it although no access
// of that command names them (Vulkan: they must stay valid while the top
// level is used). impliedReads makes those reads explicit, so that a
// bottom level's lifetime, and the barriers and alias barriers around it,
// reach its top level's last use.
//
// The rule (docs/decisions.md, "Implicit acceleration-structure reads"),
// over buffers with ACCELERATION_STRUCTURE_STORAGE usage, in recorded
// order. A *read* of such a buffer is an access with any read flag in
// stages where ACCELERATION_STRUCTURE_READ is valid (a trace, a ray query,
// a build or a copy, however the graph names the flag).
//
//   - A command that writes such a buffer X (a build or a copy, with any
//     write flag) gives X the references R(X) = the union, over the such
//     buffers Y it reads, of R(Y) as it stands before the command, and of
//     {Y} for Y other than X. A write by a command that reads none leaves
//     R(X) empty.
//   - A command that reads X in stages S also reads every buffer of R(X),
//     as it stands before the command, with ACCELERATION_STRUCTURE_READ in
//     S.
//
// It is conservative: a build's update source and a copied bottom level
// count as references although Vulkan does not keep them, and an in-place
// update keeps the old references; it can only lengthen lifetimes. The
// implied accesses are the planner's: they are not added to the Graph, so
// the replay and the plan file see the graph as declared; Compiled.Uses
// includes them (Use.Implied, which the picture marks).
//
// It returns each command's implied accesses (nil when no command has
// one) and every structure's references when the frame ends.
func impliedReads(g *Graph) ([][]Access, map[ResourceID][]ResourceID) {
	isAS := make([]bool, len(g.Resources))
	some := false
	for r := range g.Resources {
		res := &g.Resources[r]
		if res.Kind == KindBuffer && res.Buffer.Usage&vk.BufferUsageAccelerationStructureStorage != 0 {
			isAS[r], some = true, true
		}
	}
	if !some {
		return nil, nil
	}
	var out [][]Access
	refs := map[ResourceID][]ResourceID{} // R(X), sorted
	var reads, written []ResourceID
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		reads, written = reads[:0], written[:0]
		var imp []Access
		for _, a := range cmd.Accesses {
			r := a.Resource
			if !isAS[r] {
				continue
			}
			if a.Access&^vk.WriteAccess != 0 && vk.UnsupportedAccess(a.Stages, vk.AccessAccelerationStructureRead) == 0 {
				if !slices.Contains(reads, r) {
					reads = append(reads, r)
				}
				for _, b := range refs[r] {
					imp = appendImplied(imp, b, a.Stages)
				}
			}
			if a.Access&vk.WriteAccess != 0 && !slices.Contains(written, r) {
				written = append(written, r)
			}
		}
		if imp != nil {
			if out == nil {
				out = make([][]Access, len(g.Commands))
			}
			out[ci] = imp
		}
		// The new references are computed from the old ones of every
		// read before any is replaced (a command may read and write one).
		next := make([][]ResourceID, len(written))
		for i, x := range written {
			var set []ResourceID
			for _, y := range reads {
				if y != x {
					set = insertSorted(set, y)
				}
				for _, z := range refs[y] {
					if z != x {
						set = insertSorted(set, z)
					}
				}
			}
			next[i] = set
		}
		for i, x := range written {
			if len(next[i]) == 0 {
				delete(refs, x)
			} else {
				refs[x] = next[i]
			}
		}
	}
	return out, refs
}

// RuleStructureRefs is the rule of a Warning that an imported acceleration
// structure refers, when the frame ends, to a structure that is not
// imported (asrefs.go): the next frame's trace of the imported one reads
// memory this frame's plan gave back.
const RuleStructureRefs Rule = "structure-references"

// StructureWarnings are the RuleStructureRefs warnings of the graph: one
// per imported acceleration structure whose references (the structures
// its last build or copy read, asrefs.go) include one that is not
// imported when the frame ends.
func (c *Compiled) StructureWarnings() []Warning {
	g := c.Graph
	var out []Warning
	for x, refs := range c.asRefs {
		if !g.Resources[x].Imported {
			continue
		}
		var names []string
		for _, r := range refs {
			if !g.Resources[r].Imported {
				names = append(names, fmt.Sprintf("%q", g.Resources[r].Name))
			}
		}
		if names != nil {
			out = append(out, Warning{Resource: g.Resources[x].Name, Rule: RuleStructureRefs,
				Detail: fmt.Sprintf("the imported acceleration structure refers at the end of the frame to %s, which the frame does not import: their memory is the plan's, reused or freed after the frame, and a later trace of it reads that memory (import them too, or rebuild it every frame)", strings.Join(names, ", "))})
		}
	}
	slices.SortFunc(out, func(a, b Warning) int { return strings.Compare(a.Resource, b.Resource) })
	return out
}

// appendImplied adds a read of b in stages s, merged with an earlier
// implied read of b in the same command.
func appendImplied(imp []Access, b ResourceID, s vk.Stage) []Access {
	for i := range imp {
		if imp[i].Resource == b {
			imp[i].Stages |= s
			return imp
		}
	}
	return append(imp, Access{Resource: b, Stages: s, Access: vk.AccessAccelerationStructureRead})
}

func insertSorted(s []ResourceID, r ResourceID) []ResourceID {
	i, found := slices.BinarySearch(s, r)
	if found {
		return s
	}
	return slices.Insert(s, i, r)
}
