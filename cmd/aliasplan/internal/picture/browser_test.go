package picture

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/strategies/bestfit"
)

// The browser tests load the HTML page in a headless chromium and drive it
// through the DevTools protocol. Without chromium they skip, or fail under
// ALIASPLAN_REQUIRE_BROWSER=1 (CI, where make setup installs it).
var (
	screenshots = flag.String("screenshots", os.Getenv("ALIASPLAN_SCREENSHOTS"),
		"write screenshots of the sample frame's page into this directory")
	extraPages = flag.String("pages", "", "comma-separated HTML files to load too, logging their size and time to first render")
)

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ALIASPLAN_REQUIRE_BROWSER") == "1" {
		t.Fatal("no chromium on PATH and ALIASPLAN_REQUIRE_BROWSER=1 (make setup installs it)")
	}
	t.Skip("no chromium on PATH: browser tests skipped (make setup installs it; ALIASPLAN_REQUIRE_BROWSER=1 makes this a failure)")
	return ""
}

// browser is one headless chromium shared by a test's subtests, with the
// errors its pages report.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

func newBrowser(t *testing.T) *browser {
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		// Without these the closed network refuses connections and the
		// browser waits on them.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1500, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	b := &browser{ctx: ctx}
	// The first Run starts the browser; the console subscription follows,
	// before any page loads.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleException, chromedp.ConsoleWarning:
				b.mu.Lock()
				b.errs = append(b.errs, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// errors returns and clears the errors reported so far.
func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.errs
	b.errs = nil
	return e
}

func (b *browser) run(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates js in the page and decodes its value.
func eval[T any](t *testing.T, b *browser, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// load opens a page file and waits for its first render; it returns the
// page's time to first render (performance.now() after the first paint of
// the canvases, from navigation start).
func (b *browser) load(t *testing.T, file string) float64 {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, chromedp.Navigate("file://"+abs))
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	ms, err := chromedp.Run(ctx, chromedp.Poll[float64](`window.aliasplanFirstRender`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("%s: no first render: %v; the page reported:\n%s", filepath.Base(file), err, strings.Join(b.errors(), "\n"))
	}
	b.frame(t)
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("%s: the page reported errors:\n%s", filepath.Base(file), strings.Join(errs, "\n"))
	}
	return ms
}

// frame waits until the page has drawn what the last input asked for.
func (b *browser) frame(t *testing.T) {
	t.Helper()
	eval[bool](t, b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)
}

func (b *browser) text(t *testing.T, sel string) string {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

// pixels is a digest of what the canvases show.
func (b *browser) pixels(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `Array.from(document.querySelectorAll("canvas")).map(c => {
		const d = c.toDataURL(); let h = 0;
		for (let i = 0; i < d.length; i += 7) h = (h * 31 + d.charCodeAt(i)) | 0;
		return d.length + ":" + h; }).join(",")`)
}

type point struct{ X, Y float64 }

func (b *browser) wheel(t *testing.T, at point, dy float64, shift bool) {
	t.Helper()
	opt := func(p *input.DispatchMouseEventParams) {
		p.DeltaY = dy
		p.DeltaX = 1e-6 // the protocol wants both; omitzero drops a zero
		if shift {
			p.Modifiers = int64(chromedp.ModifierShift)
		}
	}
	b.run(t, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, at.X, at.Y, opt))
	b.frame(t)
}

func (b *browser) move(t *testing.T, at point) {
	t.Helper()
	b.run(t, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at.X, at.Y))
	b.frame(t)
}

func (b *browser) drag(t *testing.T, from, to point) {
	t.Helper()
	b.run(t,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, from.X, from.Y),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, from.X, from.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (from.X+to.X)/2, (from.Y+to.Y)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, to.X, to.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, to.X, to.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	b.frame(t)
}

func (b *browser) click(t *testing.T, at point) {
	t.Helper()
	b.run(t, chromedp.MouseClickXY(at.X, at.Y))
	b.frame(t)
}

func (b *browser) resource(t *testing.T, name string, plan int) point {
	t.Helper()
	p := eval[*point](t, b, fmt.Sprintf(`window.aliasplanViewer.resourceCenter(%q, %d)`, name, plan))
	if p == nil {
		t.Fatalf("resource %s is not drawn", name)
	}
	return *p
}

func (b *browser) plotCenter(t *testing.T) point {
	t.Helper()
	return eval[point](t, b, `window.aliasplanViewer.plotCenter(0)`)
}

func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(*screenshots, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(*screenshots, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

func writePage(t *testing.T, name string, write func(*bytes.Buffer) error) string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowser loads the pages in chromium and checks that they draw
// without errors and that zoom, pan, search, hover and click change what
// the page shows.
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	c, p := planOf(t, &aliasplan.SampleFrame(1920, 1080).Graph)

	t.Run("sample", func(t *testing.T) {
		page := writePage(t, "sample.html", func(w *bytes.Buffer) error {
			return HTML(w, c, p, Options{Title: "aliasplan: embedded sample frame 1920x1080"})
		})
		ms := b.load(t, page)
		fi, _ := os.Stat(page)
		t.Logf("sample frame: page %d bytes, first render %.0f ms", fi.Size(), ms)
		b.screenshot(t, "sample.png")

		nCanvas := eval[int](t, b, `document.querySelectorAll("canvas").length`)
		if nCanvas != 1 {
			t.Fatalf("%d canvases, want 1", nCanvas)
		}
		if h := b.text(t, ".plan-head"); !strings.Contains(h, "firstfit") || !strings.Contains(h, "lower bound") {
			t.Errorf("plan head %q lacks the strategy or the bound", h)
		}
		if l := b.text(t, "#legend"); !strings.Contains(l, "colour attachment") || !strings.Contains(l, "alias barrier") {
			t.Errorf("legend %q", l)
		}
		if d := b.text(t, "#details"); !strings.Contains(d, "exposure.readback") || !strings.Contains(d, "host_visible") {
			t.Errorf("details list no unpooled resources: %q", d)
		}

		// Hover a small resource (the bloom chain's smallest mip): the
		// minimum drawn height makes it a target.
		for _, name := range []string{"gbuffer.albedo", "bloom.down5"} {
			at := b.resource(t, name, 0)
			b.move(t, at)
			tip := b.text(t, "#tip")
			shown := eval[bool](t, b, `getComputedStyle(document.getElementById("tip")).display !== "none"`)
			if !shown || !strings.HasPrefix(tip, name+"\n") {
				t.Errorf("hovering %s at %v shows %q (visible %v)", name, at, tip, shown)
			}
		}
		// The tracks and the axis name the command under the pointer.
		for _, track := range []string{"axis", "live", "bar"} {
			b.move(t, eval[point](t, b, fmt.Sprintf(`window.aliasplanViewer.trackPoint(0, 6, %q)`, track)))
			tip := b.text(t, "#tip")
			if !strings.HasPrefix(tip, "#6 gbuffer") {
				t.Errorf("hovering the %s track at position 6 shows %q", track, tip)
			}
			if track == "live" && !strings.Contains(tip, "live ") {
				t.Errorf("the live track's tip %q gives no live bytes", tip)
			}
			if track == "bar" && !strings.Contains(tip, "alias barriers") {
				t.Errorf("the barrier track's tip %q counts no barriers", tip)
			}
		}
		// Click pins the details: requirements, placement, uses with
		// stages, access and layout, and the barriers before them.
		b.click(t, b.resource(t, "gbuffer.albedo", 0))
		det := b.text(t, "#details")
		for _, want := range []string{"gbuffer.albedo", "requirements", "placement", "pool 1", "uses", "stages", "access", "layout", "barrier", "status"} {
			if !strings.Contains(det, want) {
				t.Errorf("details after a click lack %q:\n%s", want, det)
			}
		}
		b.move(t, point{5, 5}) // off the canvas: the tooltip goes
		if shown := eval[bool](t, b, `getComputedStyle(document.getElementById("tip")).display !== "none"`); shown {
			t.Errorf("the tooltip stays after the pointer leaves the canvas")
		}
		b.screenshot(t, "viewer.png") // the README's picture

		// Zoom (wheel), pan (drag), keys: the range shown changes.
		b.run(t, chromedp.KeyEvent(string(rune(27)))) // Escape: clear the selection
		b.frame(t)
		r0, px0 := b.text(t, "#range"), b.pixels(t)
		b.wheel(t, b.plotCenter(t), -400, false)
		r1, px1 := b.text(t, "#range"), b.pixels(t)
		if r1 == r0 || px1 == px0 {
			t.Errorf("wheel zoom changed nothing: %q → %q", r0, r1)
		}
		ctr := b.plotCenter(t)
		b.drag(t, ctr, point{ctr.X + 200, ctr.Y})
		r2, px2 := b.text(t, "#range"), b.pixels(t)
		if r2 == r1 || px2 == px1 {
			t.Errorf("drag changed nothing: %q → %q", r1, r2)
		}
		b.run(t, chromedp.KeyEvent("0"))
		b.frame(t)
		if r3 := b.text(t, "#range"); r3 != r0 {
			t.Errorf("key 0 should show everything again: %q, want %q", r3, r0)
		}
		b.run(t, chromedp.KeyEvent("+"))
		b.frame(t)
		if r4 := b.text(t, "#range"); r4 == r0 {
			t.Errorf("key + did not zoom: %q", r4)
		}
		b.run(t, chromedp.KeyEvent("0"))
		// Shift+wheel zooms a pool's bytes.
		px5 := b.pixels(t)
		b.wheel(t, b.resource(t, "gbuffer.albedo", 0), -600, true)
		if b.pixels(t) == px5 {
			t.Errorf("shift+wheel over a pool changed nothing")
		}
		b.run(t, chromedp.KeyEvent("0"))
		b.frame(t)

		// The alias links can be hidden.
		pxL := b.pixels(t)
		b.run(t, chromedp.Click(chromedp.CSS("#links")))
		b.frame(t)
		if b.pixels(t) == pxL {
			t.Errorf("unticking alias links changed nothing")
		}
		b.run(t, chromedp.Click(chromedp.CSS("#links")))
		b.frame(t)
		if b.pixels(t) != pxL {
			t.Errorf("ticking alias links again does not draw the same picture")
		}

		// Search: the matches are listed and drawn highlighted.
		px6 := b.pixels(t)
		b.run(t, chromedp.Click(chromedp.CSS("#search")), chromedp.SendKeys(chromedp.CSS("#search"), "bloom.down"))
		b.frame(t)
		m := b.text(t, "#matches")
		if !strings.Contains(m, "resources") || !strings.Contains(m, "bloom.down") {
			t.Errorf("search shows %q", m)
		}
		if b.pixels(t) == px6 {
			t.Errorf("search highlighted nothing on the canvas")
		}
		b.screenshot(t, "sample-search.png")
		b.run(t, chromedp.KeyEvent("\r"))
		b.frame(t)
		if d := b.text(t, "#details"); !strings.Contains(d, "bloom.down") {
			t.Errorf("Enter in the search box did not select the first match: %q", d)
		}
		if r := b.text(t, "#range"); r == r0 {
			t.Errorf("Enter in the search box did not zoom to the match: %q", r)
		}
		if errs := b.errors(); len(errs) > 0 {
			t.Errorf("errors while interacting:\n%s", strings.Join(errs, "\n"))
		}
	})

	t.Run("compare", func(t *testing.T) {
		pb, err := aliasplan.New(aliasplan.Options{Strategy: bestfit.New()}).Plan(&aliasplan.Graph{Graph: *c.Graph})
		if err != nil {
			t.Fatal(err)
		}
		// A third plan as the ordering modes will make them: one
		// serialization and an execution-order bound (made up here from an
		// alias barrier of the plan; the viewer only draws them).
		ps := *pb
		for _, br := range pb.Barriers {
			if br.Kind == planner.Alias && len(br.Previous) > 0 {
				us := c.Uses(br.Previous[0])
				ps.Serializations = []planner.Serialization{{First: br.Previous[0], Second: br.Resource,
					Last: us[len(us)-1].Command, Next: br.Before, Bytes: 1 << 20}}
				break
			}
		}
		ps.Stats.ExecutionBound = pb.Stats.LowerBound * 9 / 10
		page := writePage(t, "compare.html", func(w *bytes.Buffer) error {
			return Compare(w, c, []*planner.Plan{p, pb, &ps}, []string{"", "", "bestfit, execution order"}, Options{Title: "compare"})
		})
		b.load(t, page)
		b.screenshot(t, "compare.png")
		heads := eval[[]string](t, b, `Array.from(document.querySelectorAll(".plan-head b:first-child")).map(e => e.textContent)`)
		if strings.Join(heads, ",") != "firstfit,bestfit,bestfit, execution order" {
			t.Errorf("plan heads %q, want firstfit, bestfit and the third", heads)
		}
		rows := eval[int](t, b, `document.querySelectorAll("#compare tr").length`)
		if rows != 4 {
			t.Errorf("comparison table has %d rows, want a header and 3 plans", rows)
		}
		if tab := b.text(t, "#compare"); !strings.Contains(tab, "execution-order bound") || !strings.Contains(tab, "peak live") {
			t.Errorf("comparison table %q lacks the peak or the execution-order bound", tab)
		}
		if h := eval[string](t, b, `document.querySelectorAll(".plan-head")[2].textContent`); !strings.Contains(h, "1 serializations") {
			t.Errorf("third plan's head %q does not count its serialization", h)
		}
		if l := b.text(t, "#legend"); !strings.Contains(l, "serialization") {
			t.Errorf("legend %q has no serialization key", l)
		}
		hs := eval[[]float64](t, b, `Array.from(document.querySelectorAll("canvas")).map(c => c.getBoundingClientRect().height)`)
		if len(hs) != 3 || hs[2] <= hs[1] {
			t.Errorf("canvas heights %v: the third plan should have a serialization track", hs)
		}
		// One time axis: zooming in one plan zooms both.
		px0 := b.pixels(t)
		b.wheel(t, b.plotCenter(t), -400, false)
		px1 := strings.Split(b.pixels(t), ",")
		for i, s := range strings.Split(px0, ",") {
			if i < len(px1) && px1[i] == s {
				t.Errorf("canvas %d did not follow the zoom", i)
			}
		}
		// A search highlights in every plan.
		b.run(t, chromedp.Click(chromedp.CSS("#search")), chromedp.SendKeys(chromedp.CSS("#search"), "gbuffer.normal"))
		b.frame(t)
		px2 := strings.Split(b.pixels(t), ",")
		for i := range px2 {
			if i < len(px1) && px2[i] == px1[i] {
				t.Errorf("canvas %d shows no search highlight", i)
			}
		}
		if errs := b.errors(); len(errs) > 0 {
			t.Errorf("errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	t.Run("3000 commands", func(t *testing.T) {
		g := proptest.RandomGraph(7, 3000)
		c3, p3 := planOf(t, g)
		page := writePage(t, "random-3000.html", func(w *bytes.Buffer) error { return HTML(w, c3, p3, Options{Title: "random 3000"}) })
		ms := b.load(t, page)
		fi, _ := os.Stat(page)
		t.Logf("3000 commands (%d resources): page %d bytes, first render %.0f ms", len(g.Resources), fi.Size(), ms)
		b.screenshot(t, "random-3000.png")
		// Redraw cost: the mean of 20 full redraws, as a wheel step makes.
		redraw := eval[float64](t, b, `window.aliasplanViewer.redrawCost(20)`)
		t.Logf("3000 commands: full redraw %.1f ms", redraw)
		r0 := b.text(t, "#range")
		if !strings.Contains(r0, "of 3000") {
			t.Errorf("range %q", r0)
		}
		for k := 0; k < 3; k++ {
			b.wheel(t, b.plotCenter(t), -500, false)
		}
		r1 := b.text(t, "#range")
		ctr := b.plotCenter(t)
		b.drag(t, ctr, point{ctr.X - 300, ctr.Y})
		r2 := b.text(t, "#range")
		b.screenshot(t, "random-3000-zoomed.png")
		if r1 == r0 || r2 == r1 {
			t.Errorf("zoom and pan: %q → %q → %q", r0, r1, r2)
		}
		b.run(t, chromedp.Click(chromedp.CSS("#search")), chromedp.SendKeys(chromedp.CSS("#search"), "r1234"))
		b.frame(t)
		if m := b.text(t, "#matches"); !strings.HasPrefix(m, "1 resource") {
			t.Errorf("search r1234: %q", m)
		}
		if errs := b.errors(); len(errs) > 0 {
			t.Errorf("errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	// Degenerate frames draw without errors: nothing at all, and nothing
	// pooled.
	t.Run("degenerate", func(t *testing.T) {
		one := &planner.Graph{}
		r := one.AddResource(planner.Resource{Name: "imported", Kind: planner.KindBuffer, Imported: true,
			Buffer: planner.BufferDesc{Size: 64, Usage: vk.BufferUsageStorageBuffer}})
		one.AddCommand("only", planner.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		for name, g := range map[string]*planner.Graph{"empty": {}, "nothing pooled": one} {
			c, p := planOf(t, g)
			page := writePage(t, "degenerate.html", func(w *bytes.Buffer) error { return HTML(w, c, p, Options{Title: name}) })
			b.load(t, page)
			b.wheel(t, b.plotCenter(t), -300, false)
			b.run(t, chromedp.Click(chromedp.CSS("#search")), chromedp.SendKeys(chromedp.CSS("#search"), "o"))
			b.frame(t)
			if errs := b.errors(); len(errs) > 0 {
				t.Errorf("%s: errors:\n%s", name, strings.Join(errs, "\n"))
			}
		}
	})

	if *extraPages != "" {
		for _, f := range strings.Split(*extraPages, ",") {
			ms := b.load(t, f)
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			redraw := eval[float64](t, b, `window.aliasplanViewer.redrawCost(20)`)
			t.Logf("%s: page %d bytes, first render %.0f ms, full redraw %.1f ms", f, fi.Size(), ms, redraw)
		}
	}
}
