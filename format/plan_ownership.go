package format

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Ownership transfers in plan files (planner.Options.Sharing exclusive):
// "sharing": "exclusive" and "transfers", absent with concurrent sharing.

type planTransfer struct {
	Resource  *string  `json:"resource"`
	From      *string  `json:"from"`
	To        *string  `json:"to"`
	After     *string  `json:"after"`
	Before    *string  `json:"before"`
	SrcStages []string `json:"srcStages"`
	SrcAccess []string `json:"srcAccess"`
	DstStages []string `json:"dstStages"`
	DstAccess []string `json:"dstAccess"`
	OldLayout *string  `json:"oldLayout,omitempty"`
	NewLayout *string  `json:"newLayout,omitempty"`
}

func toPlanTransfers(g *planner.Graph, p *planner.Plan, pf *planFile) error {
	if p.Sharing == planner.SharingConcurrent {
		return nil
	}
	s := p.Sharing.String()
	if _, ok := planner.ParseSharing(s); !ok {
		return fmt.Errorf("planner: writing plan: sharing %s has no name", p.Sharing)
	}
	pf.Sharing = &s
	pf.Transfers = make([]planTransfer, 0, len(p.Transfers))
	for k := range p.Transfers {
		t := &p.Transfers[k]
		if t.Resource < 0 || int(t.Resource) >= len(g.Resources) || t.After < 0 || int(t.After) >= len(g.Commands) ||
			t.Before < 0 || int(t.Before) >= len(g.Commands) || t.From >= planner.NumQueues || t.To >= planner.NumQueues {
			return fmt.Errorf("planner: writing plan: transfer %d names a resource, command or queue not in the graph", k)
		}
		from, to := t.From.String(), t.To.String()
		ft := planTransfer{Resource: &g.Resources[t.Resource].Name, From: &from, To: &to,
			After: &g.Commands[t.After].Name, Before: &g.Commands[t.Before].Name,
			SrcStages: t.SrcStages.Names(), SrcAccess: t.SrcAccess.Names(), DstStages: t.DstStages.Names(), DstAccess: t.DstAccess.Names()}
		if g.Resources[t.Resource].Kind == planner.KindImage {
			ol, nl := t.OldLayout.String(), t.NewLayout.String()
			ft.OldLayout, ft.NewLayout = &ol, &nl
		}
		pf.Transfers = append(pf.Transfers, ft)
	}
	return nil
}

// readPlanTransfers fills p.Sharing, p.Transfers and the resources'
// Exclusive flags.
func readPlanTransfers(p *planner.Plan, pf *planFile, cmds map[string]planner.CommandID, ress map[string]planner.ResourceID,
	fail func(item string, rule planner.Rule, format string, args ...any) *planner.GraphError) error {
	for i := range pf.Resources {
		if fr := &pf.Resources[i]; fr.Exclusive != nil && i < len(p.Resources) {
			p.Resources[i].Exclusive = *fr.Exclusive
		}
	}
	if pf.Sharing != nil {
		s, ok := planner.ParseSharing(*pf.Sharing)
		if !ok {
			return fail("sharing", planner.RuleUnknownName, "unknown sharing %q (concurrent or exclusive)", *pf.Sharing)
		}
		p.Sharing = s
	}
	for i := range pf.Transfers {
		ft := &pf.Transfers[i]
		item := fmt.Sprintf("transfers[%d]", i)
		var t planner.OwnershipTransfer
		if ft.Resource == nil {
			return fail(item+".resource", planner.RuleMissingField, "no resource")
		}
		r, ok := ress[*ft.Resource]
		if !ok {
			e := fail(item+".resource", planner.RuleUnknownResource, "the graph has no resource of this name")
			e.Resource = *ft.Resource
			return e
		}
		t.Resource = r
		for _, f := range []struct {
			field string
			name  *string
			dst   *planner.Queue
		}{{"from", ft.From, &t.From}, {"to", ft.To, &t.To}} {
			if f.name == nil {
				return fail(item+"."+f.field, planner.RuleMissingField, "no %s", f.field)
			}
			q, ok := planner.ParseQueue(*f.name)
			if !ok {
				return fail(item+"."+f.field, planner.RuleQueue, "unknown queue %q (graphics, compute or transfer)", *f.name)
			}
			*f.dst = q
		}
		for _, f := range []struct {
			field string
			name  *string
			dst   *planner.CommandID
		}{{"after", ft.After, &t.After}, {"before", ft.Before, &t.Before}} {
			if f.name == nil {
				return fail(item+"."+f.field, planner.RuleMissingField, "no %s", f.field)
			}
			c, ok := cmds[*f.name]
			if !ok {
				e := fail(item+"."+f.field, planner.RuleUnknownCommand, "the graph has no command of this name")
				e.Command = *f.name
				return e
			}
			*f.dst = c
		}
		for _, f := range []struct {
			field string
			names []string
			dst   *vk.Stage
		}{{"srcStages", ft.SrcStages, &t.SrcStages}, {"dstStages", ft.DstStages, &t.DstStages}} {
			for _, n := range f.names {
				x, ok := vk.ParseStage(n)
				if !ok {
					return fail(item+"."+f.field, planner.RuleUnknownName, "unknown stage name %q", n)
				}
				*f.dst |= x
			}
		}
		for _, f := range []struct {
			field string
			names []string
			dst   *vk.AccessFlags
		}{{"srcAccess", ft.SrcAccess, &t.SrcAccess}, {"dstAccess", ft.DstAccess, &t.DstAccess}} {
			for _, n := range f.names {
				x, ok := vk.ParseAccess(n)
				if !ok {
					return fail(item+"."+f.field, planner.RuleUnknownName, "unknown access name %q", n)
				}
				*f.dst |= x
			}
		}
		for _, f := range []struct {
			field string
			name  *string
			dst   *vk.Layout
		}{{"oldLayout", ft.OldLayout, &t.OldLayout}, {"newLayout", ft.NewLayout, &t.NewLayout}} {
			if f.name == nil {
				continue
			}
			l, ok := vk.ParseLayout(*f.name)
			if !ok {
				return fail(item+"."+f.field, planner.RuleUnknownName, "unknown layout name %q", *f.name)
			}
			*f.dst = l
		}
		p.Transfers = append(p.Transfers, t)
	}
	return nil
}
