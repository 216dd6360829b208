package picture

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
)

// hostile are names planner.Validate refuses (rule name-characters),
// given to a plan's graph after planning, as a caller that bypasses it
// could.
var hostile = []string{"nul\x00name", "bell\a", "rlo\u202egpj.exe", "bad\xffutf8", "c1\u009b31m", "sep\u2028x", "esc\x1b[31mred"}

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain ünï ✓", "plain ünï ✓"},
		{"nul\x00name", `nul\x00name`},
		{"rlo\u202egpj", `rlo\u202egpj`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"c1\u0085", `c1\x85`},
		{"two\nlines", `two\x0alines`},
		{`back\slash`, `back\slash`},
	} {
		if got := Printable(tc.in, false); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Printable("a\nb\x00", true); got != "a\nb\\x00" {
		t.Errorf("keepNewline: %q", got)
	}
}

// Issue 19, Why 5: a NUL or other control character in a name was written
// raw into the SVG (XML parsers reject it) and U+202E into the page.
func TestHostileNames(t *testing.T) {
	c, p := planOf(t, &(aliasplan.SampleFrame(1920, 1080)).Graph)
	g := c.Graph
	for i := range g.Resources {
		g.Resources[i].Name = hostile[i%len(hostile)] + g.Resources[i].Name
	}
	for i := range g.Commands {
		g.Commands[i].Name = hostile[(i+3)%len(hostile)] + g.Commands[i].Name
	}
	raw := func(what string, out []byte) {
		t.Helper()
		for _, h := range []string{"\x00", "\a", "\u202e", "\xff", "\u009b", "\u2028", "\x1b"} {
			if bytes.Contains(out, []byte(h)) {
				t.Errorf("%s carries %q raw", what, h)
			}
		}
	}
	var b bytes.Buffer
	if err := SVG(&b, c, p, Options{Title: "title\x00\u202e"}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.Bytes())
	raw("SVG", b.Bytes())
	if !strings.Contains(b.String(), `nul\x00name`) {
		t.Error("the SVG does not show the escaped name")
	}

	b.Reset()
	if err := HTML(&b, c, p, Options{Title: "title\x00\u202e"}); err != nil {
		t.Fatal(err)
	}
	raw("page", b.Bytes())
	page := b.String()
	const open = `<script type="application/json" id="data">`
	i := strings.Index(page, open)
	j := strings.Index(page[i:], "</script>")
	var d pageData
	if err := json.Unmarshal([]byte(page[i+len(open):i+j]), &d); err != nil {
		t.Fatalf("data: %v", err)
	}
	for _, name := range append(append(d.Res, d.Cmds...), d.Title) {
		if Printable(name, false) != name {
			t.Errorf("page data name %q is not printable", name)
		}
	}
}
