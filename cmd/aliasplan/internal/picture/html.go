package picture

import (
	"fmt"
	"io"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// HTML writes a self-contained page: the SVG inline, and a small script
// that shows the hovered element's details (resource, size, offset, first
// and last use, status; barrier scopes) in a box that follows the pointer.
// It fetches nothing.
func HTML(w io.Writer, c *planner.Compiled, p *planner.Plan, opts Options) error {
	m, err := build(c, p, opts)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #1a1a1a; }
#info { position: fixed; display: none; pointer-events: none; background: #fffff4; border: 1px solid #888;
  padding: 6px 8px; font-size: 12px; white-space: pre; box-shadow: 2px 2px 6px rgba(0,0,0,.25); }
svg { display: block; }
p.hint { color: #555; font-size: 13px; }
</style>
</head>
<body>
<p class="hint">Hover a rectangle for its resource (size, offset, first and last use, status), a red mark for its alias barrier, a column label for its command.</p>
`, esc(m.title))
	m.svg(&b)
	b.WriteString(`<div id="info"></div>
<script>
(function () {
  var info = document.getElementById("info");
  var svg = document.querySelector("svg");
  // Move each <title> into an attribute: the box replaces the browser's
  // own tooltip.
  svg.querySelectorAll("title").forEach(function (t) {
    t.parentNode.setAttribute("data-title", t.textContent);
    t.parentNode.removeChild(t);
  });
  function titleOf(el) {
    for (; el && el !== svg; el = el.parentNode) {
      if (el.getAttribute && el.getAttribute("data-title")) return el.getAttribute("data-title");
    }
    return null;
  }
  svg.addEventListener("mousemove", function (e) {
    var t = titleOf(e.target);
    if (!t) { info.style.display = "none"; return; }
    info.textContent = t;
    info.style.display = "block";
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + info.offsetWidth > window.innerWidth) x = e.clientX - info.offsetWidth - 14;
    if (y + info.offsetHeight > window.innerHeight) y = e.clientY - info.offsetHeight - 14;
    info.style.left = x + "px";
    info.style.top = y + "px";
  });
  svg.addEventListener("mouseleave", function () { info.style.display = "none"; });
})();
</script>
</body>
</html>
`)
	_, err = io.WriteString(w, b.String())
	return err
}
