// Package picture draws a plan as memory over time: an SVG written by hand
// (no renderer, no network) and a self-contained HTML page that embeds it
// with hover details.
//
// Each pool is a panel. Time runs across, one column per command in
// execution order; offset runs down, linear in bytes. A pooled resource is
// a rectangle from its first use to its last use (inclusive) over
// [offset, offset+size), so resources that alias share rows at different
// columns. Alias barriers are red marks at the new occupant's first-use
// column. The lower bound of each pool group is a dashed line: for a group
// split over several pools (a maximum pool size) it is drawn on the
// group's stacked scale, in the pool where the running total reaches it.
// Resources that are not pooled are listed in a table at the right.
//
// The layout keeps a 300-command frame readable: columns are 3 to 28 px
// wide (the plot is at most 1000 px wide until columns reach 3 px),
// command names are drawn only on every k-th column where they fit
// (every column has a tooltip), and names inside rectangles only where
// they fit. Output is deterministic.
package picture

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/aliasplan/aliasplan/interval"
	"github.com/aliasplan/aliasplan/planner"
)

// Options adjust the picture.
type Options struct {
	// Title heads the picture; empty means "aliasplan".
	Title string
}

// Layout constants, in pixels.
const (
	maxPlotW    = 1000 // the plot's width budget; columns shrink to fit it down to minColW
	minColW     = 3
	maxColW     = 28
	plotBudgetH = 520 // the pools' total height budget
	minPanelH   = 56
	leftW       = 78 // tick labels
	panelHeadH  = 22
	panelGap    = 14
	headerH     = 112
	tableW      = 330
	tableRowH   = 14
	maxTableRow = 60
	fontW       = 6.0 // average width of a 10 px sans-serif character
	maxLabelLen = 28
	// minDrawH is the least height a resource is drawn with, here and in
	// the HTML page (MINH in viewer.js): a 2 KiB mip in a 74 MiB pool is
	// still a target for the pointer and visible in print.
	minDrawH = 4
)

// model is everything drawn, computed before any output.
type model struct {
	title  string
	g      *planner.Graph
	p      *planner.Plan
	n      int     // commands
	colW   int     // column width
	plotW  int     // n * colW
	pos    []int   // execution position of each command
	first  []int   // first-use position per resource (pooled only)
	last   []int   // last-use position per resource (pooled only)
	labelK int     // label every labelK-th column
	panels []panel // one per pool
	bounds []groupBound
	alias  [][]planner.ResourceID // per resource: the pooled resources sharing a byte
	cat    []int                  // per resource: its usage category, which colours it
	width  int
	height int
	axisY  int // top of the command labels
	axisH  int
	rows   []tableRow
	more   int // table rows left out

	laneTop int // top of the queue lanes (queues.go)
}

type panel struct {
	pool   planner.Pool
	y, h   int     // plot top and height
	bpp    float64 // bytes per pixel
	count  int     // resources in the pool
	nAlias int     // of which aliased
}

// groupBound is one pool group's lower bound and where its line goes.
type groupBound struct {
	pools []int // pool indexes, ascending
	bound uint64
	panel int     // panel index holding the line, or -1
	y     float64 // in that panel
}

type tableRow struct {
	r      planner.ResourceID
	status planner.Status
	size   uint64
}

func build(c *planner.Compiled, p *planner.Plan, opts Options) (*model, error) {
	g := c.Graph
	if len(p.Order) != len(g.Commands) || len(p.Resources) != len(g.Resources) {
		return nil, fmt.Errorf("picture: plan does not match the graph (%d/%d commands, %d/%d resources)",
			len(p.Order), len(g.Commands), len(p.Resources), len(g.Resources))
	}
	m := &model{title: opts.Title, g: g, p: p, n: len(g.Commands)}
	if m.title == "" {
		m.title = "aliasplan"
	}
	m.pos = make([]int, m.n)
	for i, cmd := range p.Order {
		if cmd < 0 || int(cmd) >= m.n {
			return nil, fmt.Errorf("picture: order names command %d, out of range", cmd)
		}
		m.pos[cmd] = i
	}
	m.colW = maxColW
	if m.n > 0 {
		m.colW = max(minColW, min(maxColW, maxPlotW/m.n))
	}
	m.plotW = max(m.n, 1) * m.colW
	m.labelK = max(1, int(math.Ceil(12/float64(m.colW))))
	m.first = make([]int, len(g.Resources))
	m.last = make([]int, len(g.Resources))
	for r := range g.Resources {
		m.first[r], m.last[r] = m.n, -1
		for _, u := range c.Uses(planner.ResourceID(r)) {
			m.first[r] = min(m.first[r], m.pos[u.Command])
			m.last[r] = max(m.last[r], m.pos[u.Command])
		}
	}
	for r, rp := range p.Resources {
		if rp.Status != planner.StatusPooled {
			continue
		}
		if rp.Placement.Pool < 0 || rp.Placement.Pool >= len(p.Pools) {
			return nil, fmt.Errorf("picture: resource %q: pool %d does not exist", g.Resources[r].Name, rp.Placement.Pool)
		}
		if m.last[r] < 0 {
			return nil, fmt.Errorf("picture: resource %q is pooled but unused", g.Resources[r].Name)
		}
	}
	m.cat = make([]int, len(g.Resources))
	for r := range g.Resources {
		m.cat[r] = category(c, planner.ResourceID(r))
	}
	m.layoutPanels()
	m.aliasSets()
	if err := m.groupBounds(c); err != nil {
		return nil, err
	}
	m.layoutTable()
	return m, nil
}

// layoutPanels sizes the panels: heights proportional to pool sizes within
// the budget, at least minPanelH (then the panel has its own scale).
func (m *model) layoutPanels() {
	var total uint64
	for _, pl := range m.p.Pools {
		total += pl.Size
	}
	y := headerH
	for _, pl := range m.p.Pools {
		h := minPanelH
		if total > 0 {
			h = max(minPanelH, int(math.Round(float64(pl.Size)/float64(total)*plotBudgetH)))
		}
		y += panelHeadH
		pn := panel{pool: pl, y: y, h: h, bpp: float64(max(pl.Size, 1)) / float64(h)}
		for _, rp := range m.p.Resources {
			if rp.Status == planner.StatusPooled && rp.Placement.Pool == pl.Index {
				pn.count++
				if rp.Placement.Aliased {
					pn.nAlias++
				}
			}
		}
		m.panels = append(m.panels, pn)
		y += h + panelGap
	}
	if len(m.panels) == 0 {
		y += panelHeadH + minPanelH + panelGap
	}
	if n := m.lanes(); n > 0 { // queues.go
		m.laneTop = y + panelHeadH
		y = m.laneTop + n*laneH + panelGap
	}
	m.axisY = y
	longest := 0
	for _, cmd := range m.g.Commands {
		longest = max(longest, min(len([]rune(cmd.Name)), maxLabelLen))
	}
	// Labels are rotated 60°: their height is about len·w·sin 60°.
	m.axisH = 24 + int(float64(longest)*fontW*0.87)
	m.height = m.axisY + m.axisH + 24
	m.width = leftW + m.plotW + 24
}

// aliasSets finds, per pooled resource, the others sharing one of its
// bytes: a sweep by offset per pool.
func (m *model) aliasSets() {
	m.alias = make([][]planner.ResourceID, len(m.p.Resources))
	var idx []planner.ResourceID
	for r, rp := range m.p.Resources {
		if rp.Status == planner.StatusPooled {
			idx = append(idx, planner.ResourceID(r))
		}
	}
	for ko, kr := range interval.Overlaps(len(idx), m.p.PlacedAt(idx)) {
		o, r := idx[ko], idx[kr]
		m.alias[o] = append(m.alias[o], r)
		m.alias[r] = append(m.alias[r], o)
	}
	for r := range m.alias {
		slices.Sort(m.alias[r])
	}
}

// groupBounds computes each pool group's lower bound from the plan (the
// plan stores only the sum) and places its line.
func (m *model) groupBounds(c *planner.Compiled) error {
	type key struct {
		memType uint32
		class   planner.Class
	}
	var keys []key
	pools := map[key][]int{}
	for i, pl := range m.p.Pools {
		k := key{pl.MemoryTypeIndex, pl.Class}
		if _, ok := pools[k]; !ok {
			keys = append(keys, k)
		}
		pools[k] = append(pools[k], i)
	}
	for _, k := range keys {
		gb := groupBound{pools: pools[k], panel: -1}
		var members []planner.ResourceID
		for r, rp := range m.p.Resources {
			if rp.Status == planner.StatusPooled && slices.Contains(gb.pools, rp.Placement.Pool) {
				members = append(members, planner.ResourceID(r))
			}
		}
		items := make([]planner.Item, len(members))
		for i, r := range members {
			q := &m.p.Resources[r].Placement
			items[i] = planner.Item{Size: q.Size, Alignment: q.Alignment, Start: int64(m.first[r]), End: int64(m.last[r] + 1)}
		}
		if m.p.Ordering != planner.OrderDAG {
			// A serialized plan may go below the DAG bound: its floor is
			// the execution order's, the largest total live at once.
			gb.bound = planner.MaxLoad(items)
		} else {
			prob, err := planner.NewGraphProblem(items, 0, func(i, j int) bool {
				return c.Interferes(members[i], members[j])
			})
			if err != nil {
				return fmt.Errorf("picture: lower bound: %w", err)
			}
			gb.bound = planner.LowerBound(prob)
		}
		rest := gb.bound
		for _, pi := range gb.pools {
			size := m.p.Pools[pi].Size
			if rest <= size || pi == gb.pools[len(gb.pools)-1] {
				gb.panel = pi
				gb.y = float64(min(rest, size)) / m.panels[pi].bpp
				break
			}
			rest -= size
		}
		m.bounds = append(m.bounds, gb)
	}
	return nil
}

// layoutTable lists the resources that are not pooled, beside the panels.
func (m *model) layoutTable() {
	for r, rp := range m.p.Resources {
		if rp.Status != planner.StatusPooled {
			m.rows = append(m.rows, tableRow{r: planner.ResourceID(r), status: rp.Status, size: rp.Requirements.Size})
		}
	}
	slices.SortStableFunc(m.rows, func(a, b tableRow) int { return int(a.status) - int(b.status) })
	if len(m.rows) > maxTableRow {
		m.more = len(m.rows) - maxTableRow
		m.rows = m.rows[:maxTableRow]
	}
	if len(m.rows) > 0 || m.more > 0 {
		m.width += tableW
		rows := len(m.rows) + 2
		if m.more > 0 {
			rows++
		}
		m.height = max(m.height, headerH+panelHeadH+rows*tableRowH+24)
	}
}

// columnX is the left edge of column i.
func (m *model) columnX(i int) int { return leftW + i*m.colW }

// resourceRect is a pooled resource's rectangle.
func (m *model) resourceRect(r planner.ResourceID) (x, y, w, h float64) {
	pl := &m.p.Resources[r].Placement
	pn := &m.panels[pl.Pool]
	x = float64(m.columnX(m.first[r]))
	w = float64((m.last[r]-m.first[r]+1)*m.colW) - 1
	if m.colW <= 4 {
		w += 0.5 // at 3 px a 1 px gap would eat a third of the column
	}
	y = float64(pn.y) + float64(pl.Offset)/pn.bpp
	h = math.Max(float64(pl.Size)/pn.bpp, minDrawH)
	// A small resource at the end of its pool grows upwards, inside it.
	if bottom := float64(pn.y + pn.h); y+h > bottom {
		y = math.Max(float64(pn.y), bottom-h)
	}
	return x, y, w, h
}

// catFill is a category's fill: its colour lightened, so that names stay
// legible on it (the page computes the same in viewer.js).
func catFill(k int) string {
	var r, g, b int
	fmt.Sscanf(catColours[k], "#%02x%02x%02x", &r, &g, &b)
	l := func(v int) int { return int(math.Round(float64(v) + float64(255-v)*0.42)) }
	return fmt.Sprintf("#%02x%02x%02x", l(r), l(g), l(b))
}

// MiB formats a byte count for people: "60.3 MiB", "512.0 KiB", "256 B".
func MiB(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// num formats a coordinate with at most one decimal.
func num(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

// fit shortens s to at most n runes, ending in "…" when cut; "" when not
// even a few characters fit.
func fit(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	if n < 4 {
		return ""
	}
	return string(rs[:n-1]) + "…"
}

// ticks returns offsets for a panel's axis: multiples of a power of two
// bytes (1 MiB, 2 MiB, 4 MiB, ...), about every 48 px or more.
func ticks(size uint64, h int) []uint64 {
	want := float64(size) / max(1, float64(h)/48)
	step := uint64(1)
	for float64(step) < want && step < 1<<62 {
		step <<= 1
	}
	var out []uint64
	for t := uint64(0); t <= size; t += step {
		out = append(out, t)
		if t+step < t {
			break
		}
	}
	return out
}

// tickLabel is mib without a trailing ".0".
func tickLabel(n uint64) string {
	s := MiB(n)
	if i := strings.Index(s, ".0 "); i >= 0 && !strings.HasSuffix(s, "GiB") {
		s = s[:i] + s[i+2:]
	}
	return strings.Replace(s, ".00 GiB", " GiB", 1)
}

// SVG writes the picture as a standalone SVG document.
func SVG(w io.Writer, c *planner.Compiled, p *planner.Plan, opts Options) error {
	m, err := build(c, p, opts)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	m.svg(&b)
	_, err = io.WriteString(w, b.String())
	return err
}
