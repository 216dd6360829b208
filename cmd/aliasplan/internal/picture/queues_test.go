package picture

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
)

// TestSVGQueues: the async frame's picture has a lane per queue, a line
// per semaphore and the aliases across queues marked; the one-queue
// sample frame has none of them.
func TestSVGQueues(t *testing.T) {
	c, p := planOf(t, &aliasplan.AsyncSampleFrame(1920, 1080).Graph)
	var b bytes.Buffer
	if err := SVG(&b, c, p, Options{}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	s := b.String()
	for _, want := range []string{`<g id="queues">`, ">graphics</text>", ">compute</text>", ">transfer</text>",
		fmt.Sprintf("%d submissions, %d semaphores", len(p.Submissions), p.Semaphores)} {
		if !strings.Contains(s, want) {
			t.Errorf("the async picture lacks %q", want)
		}
	}
	if n := strings.Count(s, `<g class="sem">`); n != p.Semaphores {
		t.Errorf("%d semaphore lines, want %d", n, p.Semaphores)
	}
	m, err := build(c, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xa := m.crossAliases()
	if len(xa) == 0 {
		t.Fatal("the async frame has no alias across queues")
	}
	if n := strings.Count(s, `<g class="xalias">`); n != 2*len(xa) {
		t.Errorf("%d alias-across-queues marks, want %d (a link and a mark each)", n, 2*len(xa))
	}
	c1, p1 := planOf(t, &aliasplan.SampleFrame(1920, 1080).Graph)
	b.Reset()
	if err := SVG(&b, c1, p1, Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="queues"`) {
		t.Error("the one-queue picture has queue lanes")
	}
}

// TestBrowserQueues: the async frame's page draws its queue lanes without
// errors, and hovering the compute lane names the command and its queue.
func TestBrowserQueues(t *testing.T) {
	b := newBrowser(t)
	c, p := planOf(t, &aliasplan.AsyncSampleFrame(1920, 1080).Graph)
	page := writePage(t, "async.html", func(w *bytes.Buffer) error {
		return HTML(w, c, p, Options{Title: "aliasplan: async sample frame 1920x1080"})
	})
	b.load(t, page)
	if l := b.text(t, "#legend"); !strings.Contains(l, "semaphore") {
		t.Errorf("legend %q names no semaphore", l)
	}
	ssao, _ := c.Graph.CommandByName("ssao")
	at := -1
	for i, cmd := range p.Order {
		if cmd == ssao {
			at = i
		}
	}
	// The lanes are low on the page: bring them into the viewport.
	eval[bool](t, b, `(document.querySelector("canvas").scrollIntoView({block: "end"}), true)`)
	pt := eval[point](t, b, fmt.Sprintf(`window.aliasplanViewer.trackPoint(0, %d, "queues")`, at))
	pt.Y += laneH // the compute lane, under graphics
	b.move(t, pt)
	if tip := b.text(t, "#tip"); !strings.HasPrefix(tip, fmt.Sprintf("#%d ssao (compute queue)", at)) {
		t.Errorf("hovering the compute lane at ssao shows %q", tip)
	}
	b.screenshot(t, "async.png")
}
