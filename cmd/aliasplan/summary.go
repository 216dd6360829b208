package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aliasplan/aliasplan/cmd/aliasplan/internal/picture"
	"github.com/aliasplan/aliasplan/planner"
)

// summary is what `aliasplan plan` reports, as text or JSON.
type summary struct {
	Input        string  `json:"input"`
	Strategy     string  `json:"strategy"`
	Requirements string  `json:"requirements"` // where requirements came from (plan.Requirements)
	Estimated    bool    `json:"estimated"`    // true when a profile supplied some of them
	Seconds      float64 `json:"seconds"`      // time to plan: compile, place, barriers, verify
	Commands     int     `json:"commands"`

	Resources statusCounts     `json:"resources"`
	Pools     []poolSummary    `json:"pools"`
	Barriers  barrierCounts    `json:"barriers"`
	Memory    memorySummary    `json:"memory"`
	Exact     *exactSummary    `json:"exact,omitempty"`
	Unpooled  []unpooledEntry  `json:"unpooled"`
	Ordering  *orderingSummary `json:"ordering,omitempty"`
	// Queues summarizes the submissions (plans with a command off graphics).
	Queues *queuesSummary `json:"queues,omitempty"`
	// Warnings are the plan's (planner.Warning), one line each.
	Warnings []string `json:"warnings,omitempty"`
}

// orderingSummary is what the ordering mode did (SPEC §2).
type orderingSummary struct {
	Mode   string `json:"mode"`             // dag, execution or budget
	Budget uint64 `json:"budget,omitempty"` // budget mode's pooled-byte budget
	// Serializations is how many aliased pairs the DAG leaves unordered;
	// SharedBytes the bytes those pairs share (a byte reused along a chain
	// counts once per pair).
	Serializations int    `json:"serializations"`
	SharedBytes    uint64 `json:"sharedBytes"`
	// DAGPooledBytes is the same frame's pooled bytes under --order dag and
	// BoughtBytes what the serializations bought: that minus this plan's.
	DAGPooledBytes uint64 `json:"dagPooledBytes,omitempty"`
	BoughtBytes    int64  `json:"boughtBytes"`
	// OrderedPairs counts the command pairs the DAG leaves unordered (free
	// to overlap on the GPU) that the serializations order.
	OrderedPairs int64 `json:"orderedPairs"`
}

// summarizeOrdering describes p's ordering; dagPooled is the frame's
// pooled bytes under the DAG order (0 when p is that plan).
func summarizeOrdering(c *planner.Compiled, p *planner.Plan, dagPooled uint64) *orderingSummary {
	o := &orderingSummary{Mode: p.Ordering.String(), Budget: p.Budget, Serializations: len(p.Serializations)}
	for _, x := range p.Serializations {
		o.SharedBytes += x.Bytes
	}
	if p.Ordering != planner.OrderDAG {
		o.DAGPooledBytes = dagPooled
		o.BoughtBytes = int64(dagPooled) - int64(p.Stats.PooledBytes)
		o.OrderedPairs = planner.OrderedPairs(c, p)
	}
	return o
}

type statusCounts struct {
	Pooled      int `json:"pooled"`
	Aliased     int `json:"aliased"` // of the pooled ones
	Dedicated   int `json:"dedicated"`
	HostVisible int `json:"host_visible"`
	Imported    int `json:"imported"`
	Unused      int `json:"unused"`
}

type poolSummary struct {
	Index           int    `json:"index"`
	MemoryTypeIndex uint32 `json:"memoryTypeIndex"`
	MemoryType      string `json:"memoryType"` // the type's property flags in words
	Class           string `json:"class"`
	Size            uint64 `json:"size"`
	Resources       int    `json:"resources"`
}

type barrierCounts struct {
	Hazard int `json:"hazard"`
	Alias  int `json:"alias"`
	Final  int `json:"final,omitempty"` // after the last command: imported images into their final layouts
}

type memorySummary struct {
	TransientBytes uint64  `json:"transientBytes"` // without aliasing
	PooledBytes    uint64  `json:"pooledBytes"`
	LowerBound     uint64  `json:"lowerBound"`
	ExecutionBound uint64  `json:"executionBound"` // the bound under --order execution
	DedicatedBytes uint64  `json:"dedicatedBytes"`
	SavedBytes     int64   `json:"savedBytes"`   // transient − pooled
	SavedPercent   float64 `json:"savedPercent"` // of transient
	GapPercent     float64 `json:"gapPercent"`   // pooled above the lower bound, % of the bound
	// ExecutionGapPercent is pooled above the execution-order bound, % of
	// that bound: the gap that matters for execution and budget plans,
	// which may pool less than the DAG bound (GapPercent < 0).
	ExecutionGapPercent float64 `json:"executionGapPercent"`
}

type exactSummary struct {
	Optimal bool  `json:"optimal"` // every pool group proven optimal
	Nodes   int64 `json:"nodes"`
}

type unpooledEntry struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	Size   uint64 `json:"size,omitempty"` // required size, for dedicated and host-visible ones
}

func summarize(input string, g *planner.Graph, p *planner.Plan, types []planner.MemoryType, elapsed time.Duration) *summary {
	s := &summary{
		Input:        input,
		Strategy:     p.Strategy,
		Requirements: p.Requirements,
		Estimated:    strings.Contains(p.Requirements, "profile"),
		Seconds:      elapsed.Seconds(),
		Commands:     len(g.Commands),
		Pools:        []poolSummary{},
		Unpooled:     []unpooledEntry{},
	}
	for _, pl := range p.Pools {
		s.Pools = append(s.Pools, poolSummary{Index: pl.Index, MemoryTypeIndex: pl.MemoryTypeIndex,
			MemoryType: memoryTypeWords(types, pl.MemoryTypeIndex), Class: pl.Class.String(), Size: pl.Size})
	}
	for r, rp := range p.Resources {
		switch rp.Status {
		case planner.StatusPooled:
			s.Resources.Pooled++
			if rp.Placement.Aliased {
				s.Resources.Aliased++
			}
			if k := rp.Placement.Pool; k >= 0 && k < len(s.Pools) {
				s.Pools[k].Resources++
			}
			continue
		case planner.StatusDedicated:
			s.Resources.Dedicated++
		case planner.StatusHostVisible:
			s.Resources.HostVisible++
		case planner.StatusImported:
			s.Resources.Imported++
		case planner.StatusUnused:
			s.Resources.Unused++
		}
		e := unpooledEntry{Name: g.Resources[r].Name, Status: rp.Status.String(), Reason: rp.Reason}
		if rp.Status == planner.StatusDedicated || rp.Status == planner.StatusHostVisible {
			e.Size = rp.Requirements.Size
		}
		s.Unpooled = append(s.Unpooled, e)
	}
	for _, b := range p.Barriers {
		if b.Kind == planner.Alias {
			s.Barriers.Alias++
		} else {
			s.Barriers.Hazard++
		}
	}
	s.Barriers.Final = len(p.FinalBarriers)
	s.Queues = summarizeQueues(p)
	for _, w := range p.Warnings {
		s.Warnings = append(s.Warnings, w.String())
	}
	st := p.Stats
	m := &s.Memory
	m.TransientBytes, m.PooledBytes, m.LowerBound, m.DedicatedBytes = st.TransientBytes, st.PooledBytes, st.LowerBound, st.DedicatedBytes
	m.ExecutionBound = st.ExecutionBound
	// Pooling never costs more than the resources alone (SPEC §3), but a
	// plan file may say otherwise: the difference is taken without wrapping.
	if st.TransientBytes >= st.PooledBytes {
		m.SavedBytes = int64(min(st.TransientBytes-st.PooledBytes, math.MaxInt64))
	} else {
		m.SavedBytes = -int64(min(st.PooledBytes-st.TransientBytes, math.MaxInt64))
	}
	if st.TransientBytes > 0 {
		m.SavedPercent = round2(100 * float64(m.SavedBytes) / float64(st.TransientBytes))
	}
	if st.LowerBound > 0 {
		m.GapPercent = round2(100 * (float64(st.PooledBytes) - float64(st.LowerBound)) / float64(st.LowerBound))
	}
	if st.ExecutionBound > 0 {
		m.ExecutionGapPercent = round2(100 * (float64(st.PooledBytes) - float64(st.ExecutionBound)) / float64(st.ExecutionBound))
	}
	return s
}

func round2(x float64) float64 {
	return float64(int64(x*100+0.5*sign(x))) / 100
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// memoryTypeWords describes a memory type's property flags.
func memoryTypeWords(types []planner.MemoryType, i uint32) string {
	if int(i) >= len(types) {
		return "unknown"
	}
	f := types[i].Flags
	var w []string
	for _, x := range []struct {
		bit  planner.MemoryProperty
		name string
	}{{planner.MemoryDeviceLocal, "device-local"}, {planner.MemoryHostVisible, "host-visible"},
		{planner.MemoryHostCoherent, "host-coherent"}, {planner.MemoryHostCached, "host-cached"}} {
		if f&x.bit != 0 {
			w = append(w, x.name)
		}
	}
	if len(w) == 0 {
		return "no properties"
	}
	return strings.Join(w, ", ")
}

// text writes the summary for people. Names, the input's path and the
// device's description are written Printable: a control character or a
// bidirectional override must not reach the terminal (the JSON summary
// escapes them itself).
func (s *summary) text(w io.Writer) {
	req := picture.Printable(s.Requirements, false)
	if s.Estimated {
		req += " (estimates from a profile, not a device)"
	}
	fmt.Fprintf(w, "%s: %d commands, %d resources\n", picture.Printable(s.Input, false), s.Commands,
		s.Resources.Pooled+s.Resources.Dedicated+s.Resources.HostVisible+s.Resources.Imported+s.Resources.Unused)
	fmt.Fprintf(w, "requirements  %s\n", req)
	strat := fmt.Sprintf("%s, %s", picture.Printable(s.Strategy, false), duration(s.Seconds))
	if s.Exact != nil {
		if s.Exact.Optimal {
			strat += fmt.Sprintf(", proven optimal (%d nodes)", s.Exact.Nodes)
		} else {
			strat += fmt.Sprintf(", not proven optimal: a limit stopped the search (%d nodes)", s.Exact.Nodes)
		}
	}
	fmt.Fprintf(w, "strategy      %s\n", strat)
	if o := s.Ordering; o != nil {
		line := o.Mode
		if o.Mode == "budget" {
			line += " of " + mib(o.Budget)
		}
		if o.Mode != "dag" {
			line += fmt.Sprintf(", %s sharing %s", plural(o.Serializations, "serialization"), mib(o.SharedBytes))
			if o.BoughtBytes >= 0 {
				line += fmt.Sprintf(", bought %s against --order dag (%s)", mib(uint64(o.BoughtBytes)), mib(o.DAGPooledBytes))
			} else {
				line += fmt.Sprintf(", %s more than --order dag (%s)", mib(uint64(-o.BoughtBytes)), mib(o.DAGPooledBytes))
			}
			line += fmt.Sprintf(", ordering %s the DAG left unordered", plural(int(o.OrderedPairs), "command pair"))
		}
		fmt.Fprintf(w, "ordering      %s\n", line)
	}

	fmt.Fprintf(w, "\nresources\n")
	names := func(status string) string {
		var n []string
		for _, e := range s.Unpooled {
			if e.Status == status {
				n = append(n, picture.Printable(e.Name, false))
			}
		}
		if len(n) > 4 {
			return strings.Join(n[:3], ", ") + fmt.Sprintf(" and %d more", len(n)-3)
		}
		return strings.Join(n, ", ")
	}
	fmt.Fprintf(w, "  %-13s %4d  %d aliased\n", "pooled", s.Resources.Pooled, s.Resources.Aliased)
	for _, row := range []struct {
		status string
		n      int
	}{{"dedicated", s.Resources.Dedicated}, {"host_visible", s.Resources.HostVisible},
		{"imported", s.Resources.Imported}, {"unused", s.Resources.Unused}} {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-13s %4d  %s", row.status, row.n, names(row.status)), " "))
	}

	fmt.Fprintf(w, "\npools\n")
	if len(s.Pools) == 0 {
		fmt.Fprintf(w, "  none: nothing is pooled\n")
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  pool\tmemory type\tclass\tsize\tresources\n")
		for _, p := range s.Pools {
			fmt.Fprintf(tw, "  %d\t%d (%s)\t%s\t%s\t%d\n", p.Index, p.MemoryTypeIndex, p.MemoryType, p.Class, mib(p.Size), p.Resources)
		}
		tw.Flush()
	}

	m := &s.Memory
	fmt.Fprintf(w, "\nmemory\n")
	row := func(what string, n uint64, extra string) {
		fmt.Fprintf(w, "  %-27s %11s  %s\n", what, mib(n), extra)
	}
	row("transient without aliasing", m.TransientBytes, commas(m.TransientBytes)+" bytes")
	row("pooled", m.PooledBytes, commas(m.PooledBytes)+" bytes")
	row("lower bound", m.LowerBound, commas(m.LowerBound)+" bytes")
	row("execution-order bound", m.ExecutionBound, commas(m.ExecutionBound)+" bytes (the bound under --order execution)")
	if m.SavedBytes >= 0 {
		row("saving", uint64(m.SavedBytes), fmt.Sprintf("%.1f%% of transient", m.SavedPercent))
	} else {
		row("saving (negative)", uint64(-m.SavedBytes), fmt.Sprintf("%.1f%% of transient", m.SavedPercent))
	}
	if s.Ordering != nil && s.Ordering.Mode != "dag" {
		// Serialized plans may go below the DAG bound: measure against
		// the execution order's.
		row("above execution bound", m.PooledBytes-min(m.ExecutionBound, m.PooledBytes), fmt.Sprintf("%.1f%% of that bound", m.ExecutionGapPercent))
	} else {
		row("above lower bound", m.PooledBytes-min(m.LowerBound, m.PooledBytes), fmt.Sprintf("%.1f%% of the bound", m.GapPercent))
	}
	row("dedicated and host-visible", m.DedicatedBytes, commas(m.DedicatedBytes)+" bytes")

	if s.Barriers.Final > 0 {
		fmt.Fprintf(w, "\nbarriers      %d: %d hazard, %d alias, %d final\n", s.Barriers.Hazard+s.Barriers.Alias+s.Barriers.Final,
			s.Barriers.Hazard, s.Barriers.Alias, s.Barriers.Final)
	} else {
		fmt.Fprintf(w, "\nbarriers      %d: %d hazard, %d alias\n", s.Barriers.Hazard+s.Barriers.Alias, s.Barriers.Hazard, s.Barriers.Alias)
	}
	writeQueues(w, s.Queues)
	if len(s.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings\n")
		for _, line := range s.Warnings {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

// duration formats seconds for people.
func duration(sec float64) string {
	d := time.Duration(sec * float64(time.Second))
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// commas groups digits by thousands.
func commas(n uint64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
