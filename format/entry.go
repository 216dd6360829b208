package format

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// planEntry is a plan's frame-entry barrier (Plan.Entry): a memory
// barrier in call 0 before the first command, naming no resource.
type planEntry struct {
	Before    *string  `json:"before"`
	SrcStages []string `json:"srcStages"`
	SrcAccess []string `json:"srcAccess"`
	DstStages []string `json:"dstStages"`
	DstAccess []string `json:"dstAccess"`
}

func entryToFile(p *planner.Plan, cmdName func(planner.CommandID) (string, bool)) (*planEntry, error) {
	switch len(p.Entry) {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, fmt.Errorf("planner: writing plan: %d entry barriers; a plan has at most one", len(p.Entry))
	}
	x := &p.Entry[0]
	if x.Kind != planner.Entry || x.Type != planner.MemoryBarrier || x.Call != 0 {
		return nil, fmt.Errorf("planner: writing plan: the entry barrier is %s %s in call %d; it is an entry memory barrier in call 0", x.Kind, x.Type, x.Call)
	}
	name, ok := cmdName(x.Before)
	if !ok {
		return nil, fmt.Errorf("planner: writing plan: entry barrier: command %d is not in the graph", x.Before)
	}
	e := &planEntry{Before: &name, SrcStages: x.SrcStages.Names(), SrcAccess: x.SrcAccess.Names(), DstStages: x.DstStages.Names(), DstAccess: x.DstAccess.Names()}
	for _, names := range [][]string{e.SrcStages, e.SrcAccess, e.DstStages, e.DstAccess} {
		if bad, ok := unnamedBit(names); !ok {
			return nil, fmt.Errorf("planner: writing plan: entry barrier: bit %s has no name", bad)
		}
	}
	return e, nil
}

func entryFromFile(e *planEntry, cmds map[string]planner.CommandID, fail func(item string, rule planner.Rule, format string, args ...any) *planner.GraphError) (planner.Barrier, error) {
	x := planner.Barrier{Kind: planner.Entry, Type: planner.MemoryBarrier, Resource: planner.NoResource}
	if e.Before == nil {
		return x, fail("entry.before", planner.RuleMissingField, "no before")
	}
	var ok bool
	if x.Before, ok = cmds[*e.Before]; !ok {
		e := fail("entry.before", planner.RuleUnknownCommand, "the graph has no command of this name")
		return x, e
	}
	for _, m := range []struct {
		field string
		names []string
		stage *vk.Stage
		acc   *vk.AccessFlags
	}{
		{"srcStages", e.SrcStages, &x.SrcStages, nil}, {"srcAccess", e.SrcAccess, nil, &x.SrcAccess},
		{"dstStages", e.DstStages, &x.DstStages, nil}, {"dstAccess", e.DstAccess, nil, &x.DstAccess},
	} {
		if m.names == nil {
			return x, fail("entry."+m.field, planner.RuleMissingField, "no %s", m.field)
		}
		for _, n := range m.names {
			if m.stage != nil {
				v, ok := vk.ParseStage(n)
				if !ok {
					return x, fail("entry."+m.field, planner.RuleUnknownName, "unknown stage %q", n)
				}
				*m.stage |= v
			} else {
				v, ok := vk.ParseAccess(n)
				if !ok {
					return x, fail("entry."+m.field, planner.RuleUnknownName, "unknown access %q", n)
				}
				*m.acc |= v
			}
		}
	}
	return x, nil
}
