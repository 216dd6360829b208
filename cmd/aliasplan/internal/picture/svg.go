package picture

import (
	"fmt"
	"math"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

const (
	barrierColour = "#d62728"
	// serialColour marks an alias barrier that orders a serialized pair
	// (one the DAG leaves unordered: execution and budget orderings).
	serialColour = "#ff7f0e"
	boundColour  = "#1f4e9c"
)

// svg writes the <svg> element (no XML declaration, so that HTML can embed
// it as is).
func (m *model) svg(b *strings.Builder) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="10">`+"\n",
		m.width, m.height, m.width, m.height)
	b.WriteString(`<style>.res rect{stroke-width:0.6}.res:hover rect{stroke:#000;stroke-width:1.5}.lbl{pointer-events:none;fill:#1a1a1a}.halo{paint-order:stroke;stroke:#fff;stroke-opacity:0.8;stroke-width:3px;stroke-linejoin:round}.cmd:hover text{fill:#000;font-weight:bold}</style>` + "\n")
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", m.width, m.height)
	m.header(b)
	if len(m.panels) == 0 {
		fmt.Fprintf(b, `<text x="%d" y="%d" fill="#555">no pooled resources: nothing aliases</text>`+"\n", leftW, headerH+panelHeadH+minPanelH/2)
	}
	for i := range m.panels {
		m.panel(b, i)
	}
	m.queueLanes(b) // queues.go
	m.axis(b)
	m.table(b)
	b.WriteString("</svg>\n")
}

func (m *model) header(b *strings.Builder) {
	p, st := m.p, m.p.Stats
	fmt.Fprintf(b, `<text x="12" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", esc(m.title))
	req := p.Requirements
	if strings.Contains(req, "profile") {
		req += " (estimates)"
	}
	alias := 0
	for _, br := range p.Barriers {
		if br.Kind == planner.Alias {
			alias++
		}
	}
	line1 := fmt.Sprintf("strategy %s · requirements: %s · %s · %s · %s · %s (%d alias)",
		p.Strategy, req, plural(m.n, "command"), plural(len(p.Resources), "resource"), plural(len(p.Pools), "pool"),
		plural(len(p.Barriers), "barrier"), alias)
	if n := len(p.Serializations); n > 0 {
		line1 += fmt.Sprintf(" · %s order, %s (orange barriers)", p.Ordering, plural(n, "serialization"))
	}
	fmt.Fprintf(b, `<text x="12" y="42">%s</text>`+"\n", esc(line1))
	saving := ""
	if st.TransientBytes > 0 && st.PooledBytes <= st.TransientBytes {
		d := st.TransientBytes - st.PooledBytes
		saving = fmt.Sprintf(": saves %s (%.1f%%)", MiB(d), 100*float64(d)/float64(st.TransientBytes))
	}
	gap := ""
	if st.LowerBound > 0 && st.PooledBytes >= st.LowerBound {
		gap = fmt.Sprintf(" (pooled is %.1f%% above it)", 100*float64(st.PooledBytes-st.LowerBound)/float64(st.LowerBound))
	}
	line2 := fmt.Sprintf("without aliasing %s → pooled %s%s · lower bound %s%s · dedicated and host-visible %s",
		MiB(st.TransientBytes), MiB(st.PooledBytes), saving, MiB(st.LowerBound), gap, MiB(st.DedicatedBytes))
	fmt.Fprintf(b, `<text x="12" y="58" font-weight="bold">%s</text>`+"\n", esc(line2))
	// Key: what the colours and marks mean.
	y, x := 80, 12
	item := func(swatch func(x int) string, label string) {
		w := int(float64(len([]rune(label)))*fontW) + 40
		if x+w > max(m.width, maxPlotW+leftW)-12 {
			x, y = 12, y+16
		}
		b.WriteString(swatch(x))
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`, x+30, y, esc(label))
		x += w
	}
	for k := range numCats {
		fill, stroke := catFill(k), catColours[k]
		item(func(x int) string {
			return fmt.Sprintf(`<rect x="%d" y="%d" width="24" height="10" fill="%s" stroke="%s"/>`, x, y-9, fill, stroke)
		}, catNames[k])
	}
	item(func(x int) string {
		return fmt.Sprintf(`<path d="M %d %d L %d %d L %d %d Z" fill="%s"/><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.5"/>`,
			x+8, y-10, x+16, y-10, x+12, y-5, barrierColour, x+12, y-5, x+12, y+2, barrierColour)
	}, "alias barrier before the new occupant's first use")
	item(func(x int) string {
		return fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.5" stroke-dasharray="5 3"/>`, x, y-4, x+24, y-4, boundColour)
	}, "lower bound")
	b.WriteString("\n")
}

func (m *model) panel(b *strings.Builder, i int) {
	pn := &m.panels[i]
	pl := pn.pool
	x0, y0 := leftW, pn.y
	head := fmt.Sprintf("pool %d · %s · memory type %d · %s · %s, %d aliased",
		pl.Index, pl.Class, pl.MemoryTypeIndex, MiB(pl.Size), plural(pn.count, "resource"), pn.nAlias)
	fmt.Fprintf(b, `<g id="pool%d">`+"\n", pl.Index)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", x0, y0-7, esc(head))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#f6f6f6"/>`+"\n", x0, y0, m.plotW, pn.h)
	// Column grid where labels are.
	b.WriteString(`<g stroke="#e4e4e4" stroke-width="1">`)
	for c := m.labelK; c < m.n; c += m.labelK {
		x := m.columnX(c)
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, x, y0, x, y0+pn.h)
	}
	b.WriteString("</g>\n")
	// Offset axis.
	for _, t := range ticks(pl.Size, pn.h) {
		y := float64(y0) + float64(t)/pn.bpp
		fmt.Fprintf(b, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#999"/><text x="%d" y="%s" text-anchor="end" fill="#555">%s</text>`+"\n",
			x0-4, num(y), x0, num(y), x0-6, num(y+3.5), tickLabel(t))
	}
	// Resources, in ID order (deterministic; overlaps in x never overlap in y
	// unless they alias, which is the point).
	for r, rp := range m.p.Resources {
		if rp.Status != planner.StatusPooled || rp.Placement.Pool != i {
			continue
		}
		m.resource(b, planner.ResourceID(r))
	}
	// Alias barriers at the new occupant's first-use column.
	for k := range m.p.Barriers {
		br := &m.p.Barriers[k]
		if br.Kind != planner.Alias || int(br.Resource) >= len(m.p.Resources) || br.Before < 0 || int(br.Before) >= m.n {
			continue
		}
		rp := &m.p.Resources[br.Resource]
		if rp.Status != planner.StatusPooled || rp.Placement.Pool != i {
			continue
		}
		_, y, _, h := m.resourceRect(br.Resource)
		x := float64(m.columnX(m.pos[br.Before]))
		colour, title := barrierColour, m.barrierTitle(br)
		if serial := m.serializedBy(br.Resource); serial != "" {
			colour, title = serialColour, title+"\nserialization: orders "+serial+" before it (the DAG leaves them unordered)"
		}
		fmt.Fprintf(b, `<g class="bar"><title>%s</title><path d="M %s %s L %s %s L %s %s Z" fill="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/></g>`+"\n",
			esc(title), num(x-4), num(y-5), num(x+4), num(y-5), num(x), num(y), colour,
			num(x), num(y), num(x), num(y+h), colour)
	}
	m.crossAliasMarks(b, i) // queues.go
	// Lower bound.
	for _, gb := range m.bounds {
		if gb.panel != i {
			continue
		}
		y := float64(y0) + gb.y
		what, why := "lower bound", ": no placement of this pool group can use fewer bytes (the heaviest set of resources that are all live together)"
		if m.p.Ordering != planner.OrderDAG {
			what, why = "execution-order bound", ": no placement of this pool group in this execution order can use fewer bytes (the largest total of resources live at one command)"
		}
		label := what + " " + MiB(gb.bound)
		if len(gb.pools) > 1 {
			label = fmt.Sprintf("%s %s of pools %d–%d together (stacked)", what, MiB(gb.bound), gb.pools[0], gb.pools[len(gb.pools)-1])
		}
		fmt.Fprintf(b, `<g class="bound"><title>%s</title><line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 4"/>`,
			esc(label+why),
			x0, num(y), x0+m.plotW, num(y), boundColour)
		ty := y - 3
		if ty < float64(y0)+10 {
			ty = y + 11
		}
		fmt.Fprintf(b, `<text class="halo" x="%d" y="%s" text-anchor="end" fill="%s" font-weight="bold">%s</text></g>`+"\n",
			x0+m.plotW-3, num(ty), boundColour, esc(label))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>`+"\n", x0, y0, m.plotW, pn.h)
	b.WriteString("</g>\n")
}

func (m *model) resource(b *strings.Builder, r planner.ResourceID) {
	x, y, w, h := m.resourceRect(r)
	fill, stroke := catFill(m.cat[r]), catColours[m.cat[r]]
	fmt.Fprintf(b, `<g class="res"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/></g>`+"\n",
		esc(m.resourceTitle(r)), num(x), num(y), num(w), num(h), fill, stroke)
	if h < 11 || w < 4*fontW+4 {
		return
	}
	name := fit(m.g.Resources[r].Name, int((w-4)/fontW))
	if name == "" {
		return
	}
	ty := y + math.Min(h/2+3.5, 11)
	fmt.Fprintf(b, `<text class="lbl" x="%s" y="%s">%s</text>`+"\n", num(x+3), num(ty), esc(name))
	if h >= 25 {
		size := MiB(m.p.Resources[r].Placement.Size)
		if len(size)*int(fontW) <= int(w)-4 {
			fmt.Fprintf(b, `<text class="lbl" x="%s" y="%s" fill-opacity="0.75">%s</text>`+"\n", num(x+3), num(ty+12), esc(size))
		}
	}
}

// resourceTitle is a pooled resource's hover text.
func (m *model) resourceTitle(r planner.ResourceID) string {
	res := &m.g.Resources[r]
	rp := &m.p.Resources[r]
	pl := &rp.Placement
	var s strings.Builder
	fmt.Fprintf(&s, "%s\n%s\nsize %s (%d bytes), alignment %d\noffset %s (%d) in pool %d\nfirst use #%d %s\nlast use #%d %s\nstatus pooled",
		res.Name, describe(res), MiB(pl.Size), pl.Size, pl.Alignment, MiB(pl.Offset), pl.Offset, pl.Pool,
		m.first[r], m.cmdName(m.first[r]), m.last[r], m.cmdName(m.last[r]))
	if a := m.alias[r]; len(a) > 0 {
		names := make([]string, 0, min(len(a), 8))
		for _, o := range a[:min(len(a), 8)] {
			names = append(names, m.g.Resources[o].Name)
		}
		more := ""
		if len(a) > 8 {
			more = fmt.Sprintf(" and %d more", len(a)-8)
		}
		fmt.Fprintf(&s, ", aliased with %s%s", strings.Join(names, ", "), more)
	}
	return s.String()
}

func (m *model) cmdName(position int) string {
	if position < 0 || position >= m.n {
		return "?"
	}
	return m.g.Commands[m.p.Order[position]].Name
}

// describe is a resource's kind and shape in a few words.
func describe(r *planner.Resource) string {
	if r.Kind == planner.KindBuffer {
		return fmt.Sprintf("buffer, %d bytes", r.Buffer.Size)
	}
	im := &r.Image
	s := fmt.Sprintf("image %s %dx%d", im.Format, im.Width, im.Height)
	if im.Depth > 1 {
		s += fmt.Sprintf("x%d", im.Depth)
	}
	if im.MipLevels > 1 {
		s += fmt.Sprintf(", %d mips", im.MipLevels)
	}
	if im.ArrayLayers > 1 {
		s += fmt.Sprintf(", %d layers", im.ArrayLayers)
	}
	if im.Samples > 1 {
		s += fmt.Sprintf(", %dx MSAA", im.Samples)
	}
	return s
}

// serializedBy names the resources the plan serializes before r (as
// Serialization.Second), or "" when none.
func (m *model) serializedBy(r planner.ResourceID) string {
	var names []string
	for _, x := range m.p.Serializations {
		if x.Second == r && int(x.First) < len(m.g.Resources) && x.First >= 0 {
			names = append(names, m.g.Resources[x.First].Name)
		}
	}
	return strings.Join(names, ", ")
}

func (m *model) barrierTitle(br *planner.Barrier) string {
	g := m.g
	var prev []string
	for _, o := range br.Previous {
		if int(o) < len(g.Resources) {
			prev = append(prev, g.Resources[o].Name)
		}
	}
	s := fmt.Sprintf("alias barrier (%s) before #%d %s\n%s takes over memory of %s\nsrc %s / %s\ndst %s / %s",
		br.Type, m.pos[br.Before], g.Commands[br.Before].Name, g.Resources[br.Resource].Name, strings.Join(prev, ", "),
		br.SrcStages, br.SrcAccess, br.DstStages, br.DstAccess)
	if br.Type == planner.ImageBarrier {
		o, n := barrierLayouts(br) // ranges.go
		s += fmt.Sprintf("\nlayout %s → %s", o, n)
	}
	return s
}

// axis draws the command names under the panels, rotated, on every
// labelK-th column; every column has a hover target.
func (m *model) axis(b *strings.Builder) {
	y := m.axisY
	b.WriteString(`<g id="commands">` + "\n")
	for i := 0; i < m.n; i++ {
		x := m.columnX(i)
		title := fmt.Sprintf("#%d %s", i, m.cmdName(i))
		if i%m.labelK != 0 {
			fmt.Fprintf(b, `<g class="cmd"><title>%s</title><rect x="%d" y="%d" width="%d" height="10" fill="#ffffff" fill-opacity="0"/></g>`+"\n",
				esc(title), x, y-2, m.colW)
			continue
		}
		cx := float64(x) + float64(m.colW)/2 + 3
		fmt.Fprintf(b, `<g class="cmd"><title>%s</title><rect x="%d" y="%d" width="%d" height="10" fill="#ffffff" fill-opacity="0"/><line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#999"/><text x="%s" y="%d" text-anchor="end" transform="rotate(-60 %s %d)">%s</text></g>`+"\n",
			esc(title), x, y-2, m.colW*m.labelK, num(cx-3), y-2, num(cx-3), y+2, num(cx), y+8, num(cx), y+8, esc(fit(m.cmdName(i), maxLabelLen)))
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(b, `<text x="%d" y="%d" fill="#555">execution order →  (one column per command%s; hover for names)</text>`+"\n",
		leftW, m.axisY+m.axisH+8, labelNote(m.labelK))
}

func labelNote(k int) string {
	if k == 1 {
		return ""
	}
	return fmt.Sprintf(", every %d%s named", k, ordinal(k))
}

func ordinal(k int) string {
	switch {
	case k%100 >= 11 && k%100 <= 13:
		return "th"
	case k%10 == 1:
		return "st"
	case k%10 == 2:
		return "nd"
	case k%10 == 3:
		return "rd"
	}
	return "th"
}

// table lists the resources that are not pooled.
func (m *model) table(b *strings.Builder) {
	if len(m.rows) == 0 && m.more == 0 {
		return
	}
	x := leftW + m.plotW + 28
	y := headerH + panelHeadH - 7
	b.WriteString(`<g id="unpooled">` + "\n")
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">not pooled</text>`+"\n", x, y)
	y += tableRowH + 2
	for _, row := range m.rows {
		res := &m.g.Resources[row.r]
		rp := &m.p.Resources[row.r]
		size := ""
		switch row.status {
		case planner.StatusDedicated, planner.StatusHostVisible:
			size = MiB(row.size)
		}
		title := fmt.Sprintf("%s\n%s\nstatus %s: %s", res.Name, describe(res), row.status, rp.Reason)
		if size != "" {
			title += fmt.Sprintf("\nsize %s (%d bytes), its own allocation", size, row.size)
		}
		fmt.Fprintf(b, `<g class="res"><title>%s</title><text x="%d" y="%d" fill="#555">%s</text><text x="%d" y="%d">%s</text><text x="%d" y="%d" text-anchor="end">%s</text></g>`+"\n",
			esc(title), x, y, row.status, x+78, y, esc(fit(res.Name, 30)), x+tableW-14, y, size)
		y += tableRowH
	}
	if m.more > 0 {
		fmt.Fprintf(b, `<text x="%d" y="%d" fill="#555">… and %d more</text>`+"\n", x, y, m.more)
	}
	b.WriteString("</g>\n")
}

// plural writes "1 pool", "2 pools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
