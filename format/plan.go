package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"io"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// The plan file (SPEC §5), version 1:
//
//	{
//	  "version": 1,
//	  "strategy": "firstfit",
//	  "requirementsSource": "graph",
//	  "ordering": "budget",
//	  "budget": 150000000,
//	  "order": [
//	    "gbuffer",
//	    ...
//	  ],
//	  "pools": [
//	    {"index": 0, "memoryTypeIndex": 1, "class": "optimal", "size": 16777216},
//	    ...
//	  ],
//	  "resources": [
//	    {"name": "gbuffer.albedo", "status": "pooled", "pool": 0, "offset": 0, "size": 8388608, "alignment": 65536, "aliased": true,
//	     "requirements": {"size": 8388608, "alignment": 65536, "memoryTypeBits": 3}},
//	    {"name": "backbuffer", "status": "imported", "reason": "owned by the caller"},
//	    ...
//	  ],
//	  "barriers": [
//	    {"before": "ssao", "kind": "alias", "type": "image", "resource": "ssao", "previous": ["gbuffer.albedo"],
//	     "srcStages": ["FRAGMENT_SHADER"], "srcAccess": [], "dstStages": ["COMPUTE_SHADER"], "dstAccess": ["SHADER_STORAGE_WRITE"],
//	     "oldLayout": "UNDEFINED", "newLayout": "GENERAL"},
//	    {"before": "bloom", "kind": "alias", "type": "memory", "resource": "bloom", "previous": ["ssao"],
//	     "srcStages": ["COMPUTE_SHADER"], "srcAccess": ["SHADER_STORAGE_WRITE"], "dstStages": ["COMPUTE_SHADER"], "dstAccess": []},
//	    {"before": "bloom", "kind": "alias", "type": "image", "resource": "bloom", "previous": ["ssao"],
//	     "srcStages": ["COMPUTE_SHADER"], "srcAccess": ["SHADER_STORAGE_WRITE"], "dstStages": ["FRAGMENT_SHADER"], "dstAccess": ["COLOR_ATTACHMENT_WRITE"],
//	     "oldLayout": "UNDEFINED", "newLayout": "COLOR_ATTACHMENT_OPTIMAL", "call": 1},
//	    ...
//	  ],
//	  "serializations": [
//	    {"first": "bloom.half", "second": "ssao", "last": "bloom.down", "next": "ssao", "bytes": 4194304},
//	    ...
//	  ],
//	  "stats": {"transientBytes": 1, "pooledBytes": 1, "lowerBound": 1, "dedicatedBytes": 0, "executionBound": 1}
//	}
//
// ordering (dag, execution or budget) is the rule the placement was made
// under, budget the pooled-byte budget of a budget plan; serializations
// (written for the execution and budget orderings) are the aliased pairs
// the DAG leaves unordered: first's last use in execution order (last)
// runs before second's first use (next), and the alias barrier there
// orders them; bytes is what the two share. stats.executionBound is the
// execution-order lower bound. A file without these fields (written before
// they existed) reads as a DAG-order plan with no serializations and an
// execution-order bound of 0.
//
// Beyond SPEC §5 the file carries what a Plan holds so that it reads back
// whole: requirementsSource (Plan.Requirements: where the requirements came
// from), and per resource reason (why it is not pooled) and requirements
// (those used; left out when zero, for imported and unused resources).
// Each element of order, pools, resources and barriers is one line.

// PlanFileVersion is the plan file version WritePlan writes and ReadPlan
// reads.
const PlanFileVersion = 1

type planFile struct {
	Version            *int                `json:"version"`
	Strategy           string              `json:"strategy"`
	RequirementsSource string              `json:"requirementsSource,omitempty"`
	Ordering           *string             `json:"ordering,omitempty"`
	Budget             *uint64             `json:"budget,omitempty"`
	Order              []string            `json:"order"`
	Pools              []planPool          `json:"pools"`
	Resources          []planResource      `json:"resources"`
	Barriers           []planBarrier       `json:"barriers"`
	FinalBarriers      []planBarrier       `json:"finalBarriers,omitempty"`
	Submissions        []planSubmission    `json:"submissions,omitempty"`
	Sharing            *string             `json:"sharing,omitempty"`
	Transfers          []planTransfer      `json:"transfers,omitempty"`
	Entry              *planEntry          `json:"entry,omitempty"`      // entry.go
	FrameWaits         []planFrameWait     `json:"frameWaits,omitempty"` // framewaits.go
	Serializations     []planSerialization `json:"serializations,omitempty"`
	Stats              *planStats          `json:"stats"`
}

type planSerialization struct {
	First  *string `json:"first"`
	Second *string `json:"second"`
	Last   *string `json:"last"`
	Next   *string `json:"next"`
	Bytes  *uint64 `json:"bytes"`
}

type planPool struct {
	Index           *int    `json:"index"`
	MemoryTypeIndex *uint32 `json:"memoryTypeIndex"`
	Class           *string `json:"class"`
	Size            *uint64 `json:"size"`
}

type planResource struct {
	Name         *string           `json:"name"`
	Status       *string           `json:"status"`
	Reason       string            `json:"reason,omitempty"`
	Pool         *int              `json:"pool,omitempty"`
	Offset       *uint64           `json:"offset,omitempty"`
	Size         *uint64           `json:"size,omitempty"`
	Alignment    *uint64           `json:"alignment,omitempty"`
	Aliased      *bool             `json:"aliased,omitempty"`
	Requirements *planRequirements `json:"requirements,omitempty"`
	Queues       []string          `json:"queues,omitempty"` // plans with submissions: the queues that use it
	Exclusive    *bool             `json:"exclusive,omitempty"`
}

type planRequirements struct {
	Size              uint64 `json:"size"`
	Alignment         uint64 `json:"alignment"`
	MemoryTypeBits    uint32 `json:"memoryTypeBits"`
	PrefersDedicated  bool   `json:"prefersDedicated,omitempty"`
	RequiresDedicated bool   `json:"requiresDedicated,omitempty"`
}

type planBarrier struct {
	Before    *string  `json:"before,omitempty"` // absent on final barriers
	Kind      *string  `json:"kind"`
	Type      *string  `json:"type"`
	Resource  *string  `json:"resource"`
	Previous  []string `json:"previous,omitempty"`
	SrcStages []string `json:"srcStages"`
	SrcAccess []string `json:"srcAccess"`
	DstStages []string `json:"dstStages"`
	DstAccess []string `json:"dstAccess"`
	OldLayout *string  `json:"oldLayout,omitempty"`
	NewLayout *string  `json:"newLayout,omitempty"`
	Call      *uint8   `json:"call,omitempty"`   // absent: 0
	Mips      []uint32 `json:"mips,omitempty"`   // image barriers: [base, count]; absent: every level
	Layers    []uint32 `json:"layers,omitempty"` // image barriers: [base, count]; absent: every layer
	Aspects   []string `json:"aspects,omitempty"`
}

type planStats struct {
	TransientBytes *uint64 `json:"transientBytes"`
	PooledBytes    *uint64 `json:"pooledBytes"`
	LowerBound     *uint64 `json:"lowerBound"`
	DedicatedBytes *uint64 `json:"dedicatedBytes"`
	ExecutionBound *uint64 `json:"executionBound,omitempty"`
}

// WritePlan writes p, a plan of g, as a plan file (version 1): two-space
// indentation, fields in a fixed order, one line per element of order,
// pools, resources and barriers. The same plan always gives the same
// bytes, and ReadPlan reads them back into a plan deeply equal to p when p
// is in the form Place and barriers.Build leave it: Order set (a nil Order
// is written as the recorded order), Placement zero unless pooled,
// Previous nil on hazard barriers, layouts zero on non-image barriers.
//
// It does not verify p (a broken plan can be written and inspected), but
// it fails on what the format cannot express: a resource or command ID
// that g does not have, a status, class, kind, type, stage, access or
// layout with no name.
func WritePlan(w io.Writer, g *planner.Graph, p *planner.Plan) error {
	pf, err := toPlanFile(g, p)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	field := func(name string, v any, last bool) {
		fmt.Fprintf(&b, "  %q: ", name)
		inlineJSON(&b, v)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	list := func(name string, n int, elem func(i int) any) {
		fmt.Fprintf(&b, "  %q: [", name)
		for i := range n {
			b.WriteString("\n    ")
			inlineJSON(&b, elem(i))
			if i < n-1 {
				b.WriteByte(',')
			}
		}
		if n > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("],\n")
	}
	field("version", pf.Version, false)
	field("strategy", pf.Strategy, false)
	if pf.RequirementsSource != "" {
		field("requirementsSource", pf.RequirementsSource, false)
	}
	field("ordering", pf.Ordering, false)
	if pf.Budget != nil {
		field("budget", pf.Budget, false)
	}
	list("order", len(pf.Order), func(i int) any { return pf.Order[i] })
	list("pools", len(pf.Pools), func(i int) any { return &pf.Pools[i] })
	list("resources", len(pf.Resources), func(i int) any { return &pf.Resources[i] })
	list("barriers", len(pf.Barriers), func(i int) any { return &pf.Barriers[i] })
	if pf.FinalBarriers != nil {
		list("finalBarriers", len(pf.FinalBarriers), func(i int) any { return &pf.FinalBarriers[i] })
	}
	if pf.Submissions != nil {
		list("submissions", len(pf.Submissions), func(i int) any { return &pf.Submissions[i] })
	}
	if pf.Sharing != nil {
		field("sharing", pf.Sharing, false)
	}
	if pf.Transfers != nil {
		list("transfers", len(pf.Transfers), func(i int) any { return &pf.Transfers[i] })
	}
	if pf.Entry != nil {
		field("entry", pf.Entry, false)
	}
	if pf.FrameWaits != nil {
		list("frameWaits", len(pf.FrameWaits), func(i int) any { return &pf.FrameWaits[i] })
	}
	if pf.Serializations != nil {
		list("serializations", len(pf.Serializations), func(i int) any { return &pf.Serializations[i] })
	}
	field("stats", pf.Stats, true)
	b.WriteString("}\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("planner: writing plan: %w", err)
	}
	return nil
}

// inlineJSON appends v as JSON on one line, with a space after each colon
// and comma, and without HTML escaping. v is one of the plan file types,
// which always marshal.
func inlineJSON(b *bytes.Buffer, v any) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("planner: plan file element does not marshal: " + err.Error())
	}
	inString, escaped := false, false
	for _, c := range bytes.TrimRight(raw.Bytes(), "\n") {
		b.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
}

func toPlanFile(g *planner.Graph, p *planner.Plan) (*planFile, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("planner: writing plan: "+format, args...)
	}
	cmdName := func(id planner.CommandID) (string, bool) {
		if id < 0 || int(id) >= len(g.Commands) {
			return "", false
		}
		return g.Commands[id].Name, true
	}
	resName := func(id planner.ResourceID) (string, bool) {
		if id < 0 || int(id) >= len(g.Resources) {
			return "", false
		}
		return g.Resources[id].Name, true
	}
	version := PlanFileVersion
	pf := &planFile{Version: &version, Strategy: p.Strategy, RequirementsSource: p.Requirements,
		Order: make([]string, 0, len(g.Commands)), Pools: make([]planPool, len(p.Pools)),
		Resources: make([]planResource, len(p.Resources)), Barriers: make([]planBarrier, len(p.Barriers)),
		Stats: &planStats{&p.Stats.TransientBytes, &p.Stats.PooledBytes, &p.Stats.LowerBound, &p.Stats.DedicatedBytes, &p.Stats.ExecutionBound}}
	ordering := p.Ordering.String()
	if _, ok := planner.ParseOrdering(ordering); !ok {
		return nil, fail("ordering %s has no name", ordering)
	}
	pf.Ordering = &ordering
	if p.Ordering == planner.OrderBudget || p.Budget != 0 {
		pf.Budget = &p.Budget
	}
	if p.Ordering != planner.OrderDAG || len(p.Serializations) > 0 {
		pf.Serializations = make([]planSerialization, len(p.Serializations))
	}
	for k := range p.Serializations {
		s, fs := &p.Serializations[k], &pf.Serializations[k]
		first, ok1 := resName(s.First)
		second, ok2 := resName(s.Second)
		last, ok3 := cmdName(s.Last)
		next, ok4 := cmdName(s.Next)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, fail("serialization %d: resources %d, %d or commands %d, %d are not in the graph", k, s.First, s.Second, s.Last, s.Next)
		}
		*fs = planSerialization{&first, &second, &last, &next, &s.Bytes}
	}
	if p.Order == nil {
		for i := range g.Commands {
			pf.Order = append(pf.Order, g.Commands[i].Name)
		}
	}
	for i, cmd := range p.Order {
		n, ok := cmdName(cmd)
		if !ok {
			return nil, fail("order position %d: command %d is not in the graph", i, cmd)
		}
		pf.Order = append(pf.Order, n)
	}
	for i := range p.Pools {
		pl := &p.Pools[i]
		class := pl.Class.String()
		if _, ok := planner.ParseClass(class); !ok {
			return nil, fail("pool %d: class %s has no name", i, class)
		}
		pf.Pools[i] = planPool{&pl.Index, &pl.MemoryTypeIndex, &class, &pl.Size}
	}
	if len(p.Resources) != len(g.Resources) {
		return nil, fail("plan has %d resources, graph has %d", len(p.Resources), len(g.Resources))
	}
	for r := range p.Resources {
		rp, fr := &p.Resources[r], &pf.Resources[r]
		status := rp.Status.String()
		if _, ok := planner.ParseStatus(status); !ok {
			return nil, fail("resource %q: status %s has no name", g.Resources[r].Name, status)
		}
		fr.Name, fr.Status, fr.Reason = &g.Resources[r].Name, &status, rp.Reason
		if rp.Status == planner.StatusPooled {
			pl := &rp.Placement
			fr.Pool, fr.Offset, fr.Size, fr.Alignment, fr.Aliased = &pl.Pool, &pl.Offset, &pl.Size, &pl.Alignment, &pl.Aliased
		}
		if q := rp.Requirements; q != (planner.Requirements{}) {
			fr.Requirements = &planRequirements{q.Size, q.Alignment, q.MemoryTypeBits, q.PrefersDedicated, q.RequiresDedicated}
		}
		if len(p.Submissions) > 0 {
			fr.Queues = queueNames(rp.Queues)
		}
		if rp.Exclusive {
			fr.Exclusive = &rp.Exclusive
		}
	}
	subs, err := toPlanSubmissions(g, p) // plan_queues.go
	if err != nil {
		return nil, err
	}
	pf.Submissions = subs
	if err := toPlanTransfers(g, p, pf); err != nil { // plan_ownership.go
		return nil, err
	}
	if len(p.FinalBarriers) > 0 {
		pf.FinalBarriers = make([]planBarrier, len(p.FinalBarriers))
	}
	for k := range len(p.Barriers) + len(p.FinalBarriers) {
		// Final barriers (after the others, k counting on) have no before.
		var x *planner.Barrier
		var fb *planBarrier
		var before *string
		if k < len(p.Barriers) {
			x, fb = &p.Barriers[k], &pf.Barriers[k]
			name, ok := cmdName(x.Before)
			if !ok {
				return nil, fail("barrier %d: command %d is not in the graph", k, x.Before)
			}
			before = &name
		} else if x, fb = &p.FinalBarriers[k-len(p.Barriers)], &pf.FinalBarriers[k-len(p.Barriers)]; x.Before != planner.EndOfFrame {
			return nil, fail("final barrier %d: before command %d, not at the end of the frame", k-len(p.Barriers), x.Before)
		}
		res, ok := resName(x.Resource)
		if !ok {
			return nil, fail("barrier %d: resource %d is not in the graph", k, x.Resource)
		}
		kind, typ := x.Kind.String(), x.Type.String()
		if _, ok := parseBarrierKind(kind); !ok {
			return nil, fail("barrier %d: kind %s has no name", k, kind)
		}
		if _, ok := parseBarrierType(typ); !ok {
			return nil, fail("barrier %d: type %s has no name", k, typ)
		}
		fb.Before, fb.Kind, fb.Type, fb.Resource = before, &kind, &typ, &res
		for _, a := range x.Previous {
			n, ok := resName(a)
			if !ok {
				return nil, fail("barrier %d: old occupant %d is not in the graph", k, a)
			}
			fb.Previous = append(fb.Previous, n)
		}
		fb.SrcStages, fb.SrcAccess, fb.DstStages, fb.DstAccess = x.SrcStages.Names(), x.SrcAccess.Names(), x.DstStages.Names(), x.DstAccess.Names()
		for _, names := range [][]string{fb.SrcStages, fb.SrcAccess, fb.DstStages, fb.DstAccess} {
			if bad, ok := unnamedBit(names); !ok {
				return nil, fail("barrier %d: bit %s has no name", k, bad)
			}
		}
		if x.Type == planner.ImageBarrier {
			for _, l := range []vk.Layout{x.OldLayout, x.NewLayout} {
				if v, ok := vk.ParseLayout(l.String()); !ok || v != l {
					return nil, fail("barrier %d: layout %s has no name", k, l)
				}
			}
			oldL, newL := x.OldLayout.String(), x.NewLayout.String()
			fb.OldLayout, fb.NewLayout = &oldL, &newL
			if err := writeBarrierRange(fb, x); err != nil { // ranges.go
				return nil, fail("barrier %d: %v", k, err)
			}
		}
		if x.Call > 1 {
			return nil, fail("barrier %d: call %d (0 or 1)", k, x.Call)
		}
		if x.Call != 0 {
			call := x.Call
			fb.Call = &call
		}
	}
	if pf.Entry, err = entryToFile(p, cmdName); err != nil {
		return nil, err
	}
	if pf.FrameWaits, err = frameWaitsToFile(p); err != nil {
		return nil, err
	}
	return pf, nil
}

// unnamedBit finds a bit that Names wrote in hex, having no name.
func unnamedBit(names []string) (string, bool) {
	for _, n := range names {
		if strings.HasPrefix(n, "0x") {
			return n, false
		}
	}
	return "", true
}

func parseBarrierKind(name string) (planner.BarrierKind, bool) {
	for _, k := range []planner.BarrierKind{planner.Hazard, planner.Alias} {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}

func parseBarrierType(name string) (planner.BarrierType, bool) {
	for _, t := range []planner.BarrierType{planner.MemoryBarrier, planner.BufferBarrier, planner.ImageBarrier} {
		if t.String() == name {
			return t, true
		}
	}
	return 0, false
}

// ReadPlan reads a plan file (version 1) for the graph g. file names the
// input in errors; it may be empty.
//
// It checks what ties the file to g and what a Plan needs to be well
// formed: every name (command, resource, status, class, kind, type, stage,
// access, layout) known, the order naming every command once, every
// resource of g listed exactly once (in any order), pool indexes equal to
// their positions, a placement (pool, offset, size, alignment) on exactly
// the pooled resources, within an existing pool, layouts on exactly the
// image barriers, previous on exactly the alias barriers, no field the
// format does not define. Whether the plan is right for g (statuses,
// overlaps, barrier coverage) is Verify's to say, after Compile.
//
// Every error about the content is a *GraphError with File set, naming the
// command and/or resource when known and the JSON item (barriers[3].kind),
// and the rule: RuleSyntax, RuleVersion, RuleUnknownField,
// RuleMissingField, RuleField, RuleUnknownName, RuleUnknownCommand,
// RuleUnknownResource, RuleDuplicateName, RuleMissingResource, RuleOrder,
// RuleAlignment, RuleZeroSize. An error reading r is returned wrapped.
func ReadPlan(r io.Reader, file string, g *planner.Graph) (*planner.Plan, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("planner: reading %s: %w", file, err)
	}
	fail := func(item string, rule planner.Rule, format string, args ...any) *planner.GraphError {
		return &planner.GraphError{File: file, Item: item, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	var pf planFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil {
		return nil, planDecodeError(file, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("", planner.RuleSyntax, "data after the plan at byte %d", dec.InputOffset())
	}
	switch {
	case pf.Version == nil:
		return nil, fail("version", planner.RuleMissingField, "no version")
	case *pf.Version != PlanFileVersion:
		return nil, fail("version", planner.RuleVersion, "version %d; this reader knows version %d", *pf.Version, PlanFileVersion)
	case pf.Order == nil:
		return nil, fail("order", planner.RuleMissingField, "no order")
	case pf.Resources == nil:
		return nil, fail("resources", planner.RuleMissingField, "no resources")
	case pf.Stats == nil:
		return nil, fail("stats", planner.RuleMissingField, "no stats")
	}
	cmds := make(map[string]planner.CommandID, len(g.Commands))
	for i := range g.Commands {
		cmds[g.Commands[i].Name] = planner.CommandID(i)
	}
	ress := make(map[string]planner.ResourceID, len(g.Resources))
	for i := range g.Resources {
		ress[g.Resources[i].Name] = planner.ResourceID(i)
	}
	p := &planner.Plan{Strategy: pf.Strategy, Requirements: pf.RequirementsSource}
	if pf.Ordering != nil {
		o, ok := planner.ParseOrdering(*pf.Ordering)
		if !ok {
			return nil, fail("ordering", planner.RuleUnknownName, "unknown ordering %q (dag, execution or budget)", *pf.Ordering)
		}
		p.Ordering = o
	}
	if pf.Budget != nil {
		p.Budget = *pf.Budget
	}

	// Order.
	inOrder := make([]bool, len(g.Commands))
	p.Order = make([]planner.CommandID, 0, len(pf.Order))
	for i, name := range pf.Order {
		item := fmt.Sprintf("order[%d]", i)
		cmd, ok := cmds[name]
		if !ok {
			e := fail(item, planner.RuleUnknownCommand, "the graph has no command of this name")
			e.Command = name
			return nil, e
		}
		if inOrder[cmd] {
			e := fail(item, planner.RuleDuplicateName, "the order names this command twice")
			e.Command = name
			return nil, e
		}
		inOrder[cmd] = true
		p.Order = append(p.Order, cmd)
	}
	for i, in := range inOrder {
		if !in {
			e := fail("order", planner.RuleOrder, "the order leaves out this command")
			e.Command = g.Commands[i].Name
			return nil, e
		}
	}

	// Pools.
	p.Pools = make([]planner.Pool, len(pf.Pools))
	for i, fp := range pf.Pools {
		item := fmt.Sprintf("pools[%d]", i)
		switch {
		case fp.Index == nil:
			return nil, fail(item+".index", planner.RuleMissingField, "no index")
		case fp.MemoryTypeIndex == nil:
			return nil, fail(item+".memoryTypeIndex", planner.RuleMissingField, "no memoryTypeIndex")
		case fp.Class == nil:
			return nil, fail(item+".class", planner.RuleMissingField, "no class")
		case fp.Size == nil:
			return nil, fail(item+".size", planner.RuleMissingField, "no size")
		case *fp.Index != i:
			return nil, fail(item+".index", planner.RuleField, "index %d at position %d", *fp.Index, i)
		case *fp.MemoryTypeIndex >= 32:
			return nil, fail(item+".memoryTypeIndex", planner.RuleField, "memory type index %d is not below 32", *fp.MemoryTypeIndex)
		}
		class, ok := planner.ParseClass(*fp.Class)
		if !ok {
			return nil, fail(item+".class", planner.RuleUnknownName, "unknown class %q (linear or optimal)", *fp.Class)
		}
		p.Pools[i] = planner.Pool{Index: i, MemoryTypeIndex: *fp.MemoryTypeIndex, Class: class, Size: *fp.Size}
	}

	// Resources.
	p.Resources = make([]planner.ResourcePlan, len(g.Resources))
	listed := make([]bool, len(g.Resources))
	for i := range pf.Resources {
		fr := &pf.Resources[i]
		item := fmt.Sprintf("resources[%d]", i)
		if fr.Name == nil {
			return nil, fail(item+".name", planner.RuleMissingField, "no name")
		}
		r, ok := ress[*fr.Name]
		rfail := func(field string, rule planner.Rule, format string, args ...any) *planner.GraphError {
			e := fail(item+field, rule, format, args...)
			e.Resource = *fr.Name
			return e
		}
		switch {
		case !ok:
			return nil, rfail("", planner.RuleUnknownResource, "the graph has no resource of this name")
		case listed[r]:
			return nil, rfail("", planner.RuleDuplicateName, "the plan lists this resource twice")
		case fr.Status == nil:
			return nil, rfail(".status", planner.RuleMissingField, "no status")
		}
		listed[r] = true
		status, ok := planner.ParseStatus(*fr.Status)
		if !ok {
			return nil, rfail(".status", planner.RuleUnknownName, "unknown status %q (pooled, dedicated, host_visible, imported or unused)", *fr.Status)
		}
		rp := &p.Resources[r]
		rp.Status, rp.Reason = status, fr.Reason
		if q := fr.Requirements; q != nil {
			rp.Requirements = planner.Requirements{Size: q.Size, Alignment: q.Alignment, MemoryTypeBits: q.MemoryTypeBits, PrefersDedicated: q.PrefersDedicated, RequiresDedicated: q.RequiresDedicated}
		}
		placed := fr.Pool != nil || fr.Offset != nil || fr.Size != nil || fr.Alignment != nil || fr.Aliased != nil
		if status != planner.StatusPooled {
			if placed {
				return nil, rfail("", planner.RuleField, "%s resource has no placement (pool, offset, size, alignment, aliased)", article(status.String()))
			}
			continue
		}
		switch {
		case fr.Pool == nil:
			return nil, rfail(".pool", planner.RuleMissingField, "a pooled resource needs a pool")
		case fr.Offset == nil:
			return nil, rfail(".offset", planner.RuleMissingField, "a pooled resource needs an offset")
		case fr.Size == nil:
			return nil, rfail(".size", planner.RuleMissingField, "a pooled resource needs a size")
		case fr.Alignment == nil:
			return nil, rfail(".alignment", planner.RuleMissingField, "a pooled resource needs an alignment")
		case *fr.Pool < 0 || *fr.Pool >= len(p.Pools):
			return nil, rfail(".pool", planner.RuleField, "pool %d does not exist (%d pools)", *fr.Pool, len(p.Pools))
		case *fr.Size == 0:
			return nil, rfail(".size", planner.RuleZeroSize, "size is 0")
		case !isPow2(*fr.Alignment):
			return nil, rfail(".alignment", planner.RuleAlignment, "alignment %d is not a power of two", *fr.Alignment)
		}
		// A range beyond its pool is well-formed: a violation for
		// verify.Plan to report, not a reading error.
		rp.Placement = planner.Placement{Pool: *fr.Pool, Offset: *fr.Offset, Size: *fr.Size, Alignment: *fr.Alignment}
		if fr.Aliased != nil {
			rp.Placement.Aliased = *fr.Aliased
		}
	}
	for r, ok := range listed {
		if !ok {
			e := fail("resources", planner.RuleMissingResource, "the plan does not list this resource")
			e.Resource = g.Resources[r].Name
			return nil, e
		}
	}

	// Barriers.
	p.Barriers = make([]planner.Barrier, len(pf.Barriers))
	for k := range pf.Barriers {
		fb := &pf.Barriers[k]
		item := fmt.Sprintf("barriers[%d]", k)
		x := &p.Barriers[k]
		if err := readBarrier(x, fb, false, g, cmds, ress, func(field string, rule planner.Rule, format string, args ...any) *planner.GraphError {
			e := fail(item+field, rule, format, args...)
			if fb.Before != nil {
				e.Command = *fb.Before
			}
			if fb.Resource != nil {
				e.Resource = *fb.Resource
			}
			return e
		}); err != nil {
			return nil, err
		}
	}

	// Final barriers: recorded after the last command, no before.
	for k := range pf.FinalBarriers {
		fb := &pf.FinalBarriers[k]
		item := fmt.Sprintf("finalBarriers[%d]", k)
		var x planner.Barrier
		if err := readBarrier(&x, fb, true, g, cmds, ress, func(field string, rule planner.Rule, format string, args ...any) *planner.GraphError {
			e := fail(item+field, rule, format, args...)
			if fb.Resource != nil {
				e.Resource = *fb.Resource
			}
			return e
		}); err != nil {
			return nil, err
		}
		p.FinalBarriers = append(p.FinalBarriers, x)
	}

	// Serializations.
	for k := range pf.Serializations {
		fs := &pf.Serializations[k]
		item := fmt.Sprintf("serializations[%d]", k)
		var x planner.Serialization
		for _, f := range []struct {
			field string
			name  *string
			res   *planner.ResourceID
			cmd   *planner.CommandID
		}{{"first", fs.First, &x.First, nil}, {"second", fs.Second, &x.Second, nil}, {"last", fs.Last, nil, &x.Last}, {"next", fs.Next, nil, &x.Next}} {
			if f.name == nil {
				return nil, fail(item+"."+f.field, planner.RuleMissingField, "no %s", f.field)
			}
			var ok bool
			if f.res != nil {
				if *f.res, ok = ress[*f.name]; !ok {
					e := fail(item+"."+f.field, planner.RuleUnknownResource, "the graph has no resource of this name")
					e.Resource = *f.name
					return nil, e
				}
			} else if *f.cmd, ok = cmds[*f.name]; !ok {
				e := fail(item+"."+f.field, planner.RuleUnknownCommand, "the graph has no command of this name")
				e.Command = *f.name
				return nil, e
			}
		}
		if fs.Bytes == nil {
			return nil, fail(item+".bytes", planner.RuleMissingField, "no bytes")
		}
		x.Bytes = *fs.Bytes
		p.Serializations = append(p.Serializations, x)
	}

	if err := readPlanTransfers(p, &pf, cmds, ress, fail); err != nil { // plan_ownership.go
		return nil, err
	}
	if err := readPlanSubmissions(p, &pf, cmds, fail); err != nil { // plan_queues.go
		return nil, err
	}

	// Stats.
	st := pf.Stats
	for _, f := range []struct {
		name string
		v    *uint64
		dst  *uint64
	}{
		{"transientBytes", st.TransientBytes, &p.Stats.TransientBytes}, {"pooledBytes", st.PooledBytes, &p.Stats.PooledBytes},
		{"lowerBound", st.LowerBound, &p.Stats.LowerBound}, {"dedicatedBytes", st.DedicatedBytes, &p.Stats.DedicatedBytes},
	} {
		if f.v == nil {
			return nil, fail("stats."+f.name, planner.RuleMissingField, "no %s", f.name)
		}
		*f.dst = *f.v
	}
	if st.ExecutionBound != nil {
		p.Stats.ExecutionBound = *st.ExecutionBound
	}
	if pf.Entry != nil {
		x, err := entryFromFile(pf.Entry, cmds, fail)
		if err != nil {
			return nil, err
		}
		p.Entry = []planner.Barrier{x}
	}
	if pf.FrameWaits != nil {
		if p.FrameWaits, err = frameWaitsFromFile(pf.FrameWaits, fail); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func readBarrier(x *planner.Barrier, fb *planBarrier, final bool, g *planner.Graph, cmds map[string]planner.CommandID, ress map[string]planner.ResourceID,
	fail func(field string, rule planner.Rule, format string, args ...any) *planner.GraphError) error {
	switch {
	case fb.Before == nil && !final:
		return fail(".before", planner.RuleMissingField, "no before")
	case fb.Before != nil && final:
		return fail(".before", planner.RuleField, "a final barrier is recorded after the last command: it has no before")
	case fb.Kind == nil:
		return fail(".kind", planner.RuleMissingField, "no kind")
	case fb.Type == nil:
		return fail(".type", planner.RuleMissingField, "no type")
	case fb.Resource == nil:
		return fail(".resource", planner.RuleMissingField, "no resource")
	}
	var ok bool
	if final {
		x.Before = planner.EndOfFrame
	} else if x.Before, ok = cmds[*fb.Before]; !ok {
		return fail(".before", planner.RuleUnknownCommand, "the graph has no command of this name")
	}
	if x.Resource, ok = ress[*fb.Resource]; !ok {
		return fail(".resource", planner.RuleUnknownResource, "the graph has no resource of this name")
	}
	if x.Kind, ok = parseBarrierKind(*fb.Kind); !ok {
		return fail(".kind", planner.RuleUnknownName, "unknown kind %q (hazard or alias)", *fb.Kind)
	}
	if x.Type, ok = parseBarrierType(*fb.Type); !ok {
		return fail(".type", planner.RuleUnknownName, "unknown type %q (memory, buffer or image)", *fb.Type)
	}
	switch {
	case x.Kind == planner.Alias && len(fb.Previous) == 0:
		return fail(".previous", planner.RuleMissingField, "an alias barrier names its old occupants")
	case x.Kind == planner.Hazard && fb.Previous != nil:
		return fail(".previous", planner.RuleField, "a hazard barrier has no old occupants")
	}
	if len(fb.Previous) > 0 {
		x.Previous = make([]planner.ResourceID, len(fb.Previous))
		for i, n := range fb.Previous {
			if x.Previous[i], ok = ress[n]; !ok {
				return fail(fmt.Sprintf(".previous[%d]", i), planner.RuleUnknownResource, "the graph has no resource %q", n)
			}
		}
	}
	for _, m := range []struct {
		field string
		names []string
		stage *vk.Stage
		acc   *vk.AccessFlags
	}{
		{"srcStages", fb.SrcStages, &x.SrcStages, nil}, {"srcAccess", fb.SrcAccess, nil, &x.SrcAccess},
		{"dstStages", fb.DstStages, &x.DstStages, nil}, {"dstAccess", fb.DstAccess, nil, &x.DstAccess},
	} {
		if m.names == nil {
			return fail("."+m.field, planner.RuleMissingField, "no %s", m.field)
		}
		for _, n := range m.names {
			if m.stage != nil {
				v, ok := vk.ParseStage(n)
				if !ok {
					return fail("."+m.field, planner.RuleUnknownName, "unknown stage %q", n)
				}
				*m.stage |= v
			} else {
				v, ok := vk.ParseAccess(n)
				if !ok {
					return fail("."+m.field, planner.RuleUnknownName, "unknown access %q", n)
				}
				*m.acc |= v
			}
		}
	}
	if fb.Call != nil {
		if *fb.Call > 1 {
			return fail(".call", planner.RuleField, "call %d: a barrier is recorded in call 0 or call 1 of its command", *fb.Call)
		}
		x.Call = *fb.Call
	}
	if x.Type != planner.ImageBarrier {
		if fb.OldLayout != nil || fb.NewLayout != nil {
			return fail(".oldLayout", planner.RuleField, "only image barriers have layouts")
		}
		return readBarrierRange(x, fb, nil, fail) // ranges.go: none
	}
	var im *planner.ImageDesc
	if g.Resources[x.Resource].Kind == planner.KindImage {
		im = &g.Resources[x.Resource].Image
	}
	if err := readBarrierRange(x, fb, im, fail); err != nil { // ranges.go
		return err
	}
	for _, l := range []struct {
		field string
		name  *string
		dst   *vk.Layout
	}{{"oldLayout", fb.OldLayout, &x.OldLayout}, {"newLayout", fb.NewLayout, &x.NewLayout}} {
		if l.name == nil {
			return fail("."+l.field, planner.RuleMissingField, "an image barrier needs %s", l.field)
		}
		if *l.dst, ok = vk.ParseLayout(*l.name); !ok {
			return fail("."+l.field, planner.RuleUnknownName, "unknown layout %q", *l.name)
		}
	}
	return nil
}

// planDecodeError turns a JSON decoding error into a *GraphError.
func planDecodeError(file string, data []byte, err error) *planner.GraphError {
	e := &planner.GraphError{File: file, Access: -1, Rule: planner.RuleSyntax}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineColumn(data, syn.Offset)
		e.Detail = fmt.Sprintf("line %d column %d: %v", line, col, syn)
	case errors.As(err, &typ):
		e.Rule, e.Item = planner.RuleField, typ.Field
		e.Detail = fmt.Sprintf("a JSON %s where the format wants a %s", typ.Value, typ.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		e.Detail = "unexpected end of the file"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		e.Rule, e.Detail = planner.RuleUnknownField, strings.TrimPrefix(err.Error(), "json: ")
	default:
		e.Detail = err.Error()
	}
	return e
}

// lineColumn returns the 1-based line and column of byte offset off.
func lineColumn(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// article puts "a" or "an" before a word ("an imported", "a pooled").
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
