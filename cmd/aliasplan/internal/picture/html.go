package picture

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// The page's script and style, embedded in every page: the page fetches
// nothing.
var (
	//go:embed viewer.js
	viewerJS string
	//go:embed viewer.css
	viewerCSS string
)

// HTML writes a self-contained page that shows plan p of c's graph: per
// pool, time × offset on a canvas with zoom and pan, search, hover and
// click details, and tracks of live bytes, barriers and alias links.
func HTML(w io.Writer, c *planner.Compiled, p *planner.Plan, opts Options) error {
	return Compare(w, c, []*planner.Plan{p}, nil, opts)
}

// Compare writes one page showing several plans of c's graph (for
// example one per strategy) one above the other on the same time axis,
// zoomed and panned together, with a table of their pooled bytes, peaks
// and bounds. names label the plans (nil or "": the plan's strategy).
func Compare(w io.Writer, c *planner.Compiled, plans []*planner.Plan, names []string, opts Options) error {
	if len(plans) == 0 {
		return fmt.Errorf("picture: no plan to show")
	}
	d, err := newPageData(c, plans, names, opts)
	if err != nil {
		return err
	}
	// json.Marshal escapes <, > and & in strings, so that no name can end
	// the script element.
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	var b strings.Builder
	b.Grow(len(data) + len(viewerJS) + len(viewerCSS) + 4096)
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
%s</style>
</head>
<body>
<header>
<h1>%s</h1>
<div id="summary"></div>
</header>
<div id="toolbar">
<input id="search" type="search" placeholder="search a resource or command (/)" autocomplete="off" spellcheck="false">
<span id="matches"></span>
<button id="zoomin" title="zoom in (+)">+</button><button id="zoomout" title="zoom out (−)">−</button><button id="reset" title="show everything (0)">fit</button>
<label><input id="links" type="checkbox" checked> alias links</label>
<span id="range"></span>
</div>
<div id="legend"></div>
<div class="help">Wheel: zoom time · <kbd>Shift</kbd>+wheel over a pool: zoom bytes · drag: pan · <kbd>+</kbd> <kbd>−</kbd> <kbd>←</kbd> <kbd>→</kbd> <kbd>↑</kbd> <kbd>↓</kbd> <kbd>0</kbd> · <kbd>/</kbd> search · <kbd>Esc</kbd> clear · hover for details, click to pin them.</div>
<div id="main"><div id="plans"></div><aside id="details"></aside></div>
<div id="tip"></div>
<script type="application/json" id="data">%s</script>
<script>
%s</script>
</body>
</html>
`, esc(d.Title), viewerCSS, esc(d.Title), data, viewerJS)
	_, err = io.WriteString(w, b.String())
	return err
}
