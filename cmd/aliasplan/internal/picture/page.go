package picture

import (
	"fmt"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan/planner"
)

// The page's data: everything the viewer draws, embedded once as compact
// JSON. Per-item records are flat integer arrays (a fixed number of
// integers per item) and every repeated string (stage, access and layout
// names, reasons, descriptions) is an index into one string table, so that
// a 3,000-command frame is a few hundred KiB and parses in milliseconds.
// Positions (first and last use) are not stored: the script derives them
// from the uses and each plan's order.

// Usage categories colour the pooled resources: what the frame does with
// a resource (how its passes write it) is what a reader looks for when two
// rectangles share bytes, and it also tells image from buffer. Status would
// colour every pooled rectangle alike.
const (
	catColour = iota
	catDepth
	catStorageImage
	catOtherImage
	catStorageBuffer
	catOtherBuffer
	numCats
)

var catNames = [numCats]string{"colour attachment", "depth/stencil attachment", "storage image", "other image (transfer, sampled)", "storage buffer", "other buffer (transfer, uniform, indirect)"}

// catColours are fill colours, distinguishable in print and by most
// colour-blind readers (Tableau 10's first hues).
var catColours = [numCats]string{"#4e79a7", "#b07aa1", "#f28e2b", "#76b7b2", "#59a14f", "#edc948"}

// category classifies a resource by the accesses of its uses.
func category(c *planner.Compiled, r planner.ResourceID) int {
	res := &c.Graph.Resources[r]
	var acc vk.AccessFlags
	var layouts []vk.Layout
	for _, u := range c.Uses(r) {
		acc |= u.Access
		layouts = append(layouts, u.Layout)
	}
	const shaderWrite = vk.AccessShaderWrite | vk.AccessShaderStorageWrite
	if res.Kind == planner.KindBuffer {
		if acc&shaderWrite != 0 {
			return catStorageBuffer
		}
		return catOtherBuffer
	}
	has := func(l vk.Layout) bool {
		for _, x := range layouts {
			if x == l {
				return true
			}
		}
		return false
	}
	switch {
	case acc&(vk.AccessColorAttachmentWrite|vk.AccessColorAttachmentRead) != 0 || has(vk.LayoutColorAttachmentOptimal):
		return catColour
	case acc&(vk.AccessDepthStencilAttachmentWrite|vk.AccessDepthStencilAttachmentRead) != 0 || has(vk.LayoutDepthStencilAttachmentOptimal):
		return catDepth
	case acc&shaderWrite != 0:
		return catStorageImage
	}
	return catOtherImage
}

// pageData is the JSON the script reads.
type pageData struct {
	Title string   `json:"title"`
	Strs  []string `json:"strs"` // the string table
	Cats  []string `json:"cats"`
	CatC  []string `json:"catc"`
	Cmds  []string `json:"cmds"` // command names by CommandID
	Res   []string `json:"res"`  // resource names by ResourceID
	// RInfo per resource: description (string), category, kind (0 buffer,
	// 1 image), imported (0/1).
	RInfo []int `json:"rinfo"`
	// UseStart is CSR over Uses: the uses of r are records
	// UseStart[r]..UseStart[r+1]-1, each of 5 integers: command, stages,
	// access, layout, previous layout (strings; -1 for buffers).
	UseStart []int      `json:"us"`
	Uses     []int      `json:"u"`
	Plans    []planData `json:"plans"`
}

type planData struct {
	Name         string `json:"name"` // what the comparison calls it: the strategy
	Strategy     string `json:"strategy"`
	Requirements string `json:"req"`
	// Stats: transient, pooled, lower bound, dedicated bytes, execution
	// bound (0 when the planner did not compute it).
	Stats [5]uint64 `json:"stats"`
	Order []int     `json:"order"`
	// Pools: per pool memory type index, class (string), size.
	Pools []uint64 `json:"pools"`
	// Groups: per pool group, its lower bound and its pools' indexes.
	Groups []groupData `json:"groups"`
	// RPlan per resource, 9 integers: status, reason (string, -1 none),
	// required size, alignment, memory type bits, prefers|requires<<1,
	// pool (-1 when not pooled), offset, aliased.
	RPlan []int64 `json:"rplan"`
	// Bar per barrier, 11 integers: before (command), kind, type, resource,
	// src stages, src access, dst stages, dst access, old layout, new
	// layout (strings; -1 for non-image barriers), index into Prev.
	// Prev holds, per barrier, a count and then that many resources.
	Bar  []int `json:"bar"`
	Prev []int `json:"prev"`
	// Ser, present only when the plan records serializations: per entry
	// 5 integers: the two resources (first, second), the commands now
	// ordered (first's last use, second's first use), the bytes saved.
	Ser []uint64 `json:"ser,omitempty"`
	// Queues, Sems and XAlias, present only when the plan has submissions
	// (queues.go): per command its queue (0 graphics, 1 compute, 2
	// transfer); per semaphore the command after which it is signalled
	// and the one before which it is waited; per alias across queues the
	// old and new occupant, the old one's last use, the new one's first.
	Queues []int `json:"queues,omitempty"`
	Sems   []int `json:"sems,omitempty"`
	XAlias []int `json:"xalias,omitempty"`
}

type groupData struct {
	Bound uint64 `json:"bound"`
	Pools []int  `json:"pools"`
}

// strtab interns strings.
type strtab struct {
	list []string
	idx  map[string]int
}

func (s *strtab) id(v string) int {
	if i, ok := s.idx[v]; ok {
		return i
	}
	if s.idx == nil {
		s.idx = map[string]int{}
	}
	s.idx[v] = len(s.list)
	s.list = append(s.list, v)
	return len(s.list) - 1
}

// newPageData builds the data of a page showing plans (one or more plans
// of c's graph) under their names.
func newPageData(c *planner.Compiled, plans []*planner.Plan, names []string, opts Options) (*pageData, error) {
	g := c.Graph
	// Empty lists are [] in the JSON, never null: the script reads their
	// lengths.
	d := &pageData{Title: opts.Title, Cats: catNames[:], CatC: catColours[:],
		Cmds: []string{}, Res: []string{}, RInfo: []int{}, Uses: []int{}}
	if d.Title == "" {
		d.Title = "aliasplan"
	}
	// The JSON escapes what would end the script; names are also made
	// Printable, since the page draws them on a canvas and in the DOM,
	// where a control or a bidirectional override would corrupt the text.
	d.Title = Printable(d.Title, false)
	var st strtab
	for _, cmd := range g.Commands {
		d.Cmds = append(d.Cmds, Printable(cmd.Name, false))
	}
	d.UseStart = append(d.UseStart, 0)
	for r := range g.Resources {
		res := &g.Resources[r]
		d.Res = append(d.Res, Printable(res.Name, false))
		imported := 0
		if res.Imported {
			imported = 1
		}
		d.RInfo = append(d.RInfo, st.id(describe(res)), category(c, planner.ResourceID(r)), int(res.Kind), imported)
		for i, u := range c.Uses(planner.ResourceID(r)) {
			layout, prev := -1, -1
			if res.Kind == planner.KindImage {
				l, p := useLayouts(c, planner.ResourceID(r), i) // ranges.go: per cell for a ranged image
				layout, prev = st.id(l), st.id(p)
			}
			access := u.Access.String()
			if u.Implied {
				access += " (implied: read through an acceleration structure)"
			}
			d.Uses = append(d.Uses, int(u.Command), st.id(u.Stages.String()), st.id(access), layout, prev)
		}
		d.UseStart = append(d.UseStart, len(d.Uses)/5)
	}
	for k, p := range plans {
		m, err := build(c, p, opts)
		if err != nil {
			return nil, err
		}
		pd := planData{Name: Printable(p.Strategy, false), Strategy: Printable(p.Strategy, false), Requirements: Printable(p.Requirements, false),
			Stats: [5]uint64{p.Stats.TransientBytes, p.Stats.PooledBytes, p.Stats.LowerBound, p.Stats.DedicatedBytes, p.Stats.ExecutionBound},
			Order: []int{}, Pools: []uint64{}, Groups: []groupData{}, RPlan: []int64{}, Bar: []int{}, Prev: []int{}}
		if k < len(names) && names[k] != "" {
			pd.Name = Printable(names[k], false)
		}
		for _, cmd := range p.Order {
			pd.Order = append(pd.Order, int(cmd))
		}
		for _, pl := range p.Pools {
			pd.Pools = append(pd.Pools, uint64(pl.MemoryTypeIndex), uint64(st.id(pl.Class.String())), pl.Size)
		}
		for _, gb := range m.bounds {
			pd.Groups = append(pd.Groups, groupData{Bound: gb.bound, Pools: gb.pools})
		}
		for r := range p.Resources {
			rp := &p.Resources[r]
			reason := int64(-1)
			if rp.Reason != "" {
				reason = int64(st.id(rp.Reason))
			}
			flags := int64(0)
			if rp.Requirements.PrefersDedicated {
				flags |= 1
			}
			if rp.Requirements.RequiresDedicated {
				flags |= 2
			}
			pool, off, aliased := int64(-1), int64(0), int64(0)
			if rp.Status == planner.StatusPooled {
				pool, off = int64(rp.Placement.Pool), int64(rp.Placement.Offset)
				if rp.Placement.Aliased {
					aliased = 1
				}
			}
			pd.RPlan = append(pd.RPlan, int64(rp.Status), reason, int64(rp.Requirements.Size), int64(rp.Requirements.Alignment),
				int64(rp.Requirements.MemoryTypeBits), flags, pool, off, aliased)
		}
		for i := range p.Barriers {
			br := &p.Barriers[i]
			oldL, newL := -1, -1
			if br.Type == planner.ImageBarrier {
				o, n := barrierLayouts(br) // ranges.go: with the barrier's range
				oldL, newL = st.id(o), st.id(n)
			}
			pd.Bar = append(pd.Bar, int(br.Before), int(br.Kind), int(br.Type), int(br.Resource),
				st.id(br.SrcStages.String()), st.id(br.SrcAccess.String()), st.id(br.DstStages.String()), st.id(br.DstAccess.String()),
				oldL, newL, len(pd.Prev))
			pd.Prev = append(pd.Prev, len(br.Previous))
			for _, o := range br.Previous {
				pd.Prev = append(pd.Prev, int(o))
			}
		}
		pd.Ser = serializations(p)
		pd.Queues, pd.Sems, pd.XAlias = queueData(m)
		d.Plans = append(d.Plans, pd)
	}
	d.Strs = append([]string{}, st.list...)
	return d, nil
}

// serializations flattens the plan's serializations: per entry its two
// resources, the two commands it orders and the bytes it saves.
func serializations(p *planner.Plan) []uint64 {
	var out []uint64
	for _, s := range p.Serializations {
		out = append(out, uint64(s.First), uint64(s.Second), uint64(s.Last), uint64(s.Next), s.Bytes)
	}
	return out
}

// String helps test failures name a page.
func (d *pageData) String() string {
	return fmt.Sprintf("page %q: %d commands, %d resources, %d plans", d.Title, len(d.Cmds), len(d.Res), len(d.Plans))
}
