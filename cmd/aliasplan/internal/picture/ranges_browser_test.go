package picture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/format"
)

// TestBrowserRanges: the details of a ranged image (the bloom chain in one
// 6-mip image) show each use's layout per subresource range, and its
// barriers with their ranges.
func TestBrowserRanges(t *testing.T) {
	b := newBrowser(t)
	path := filepath.Join("..", "..", "..", "..", "proptest", "testdata", "frames", "bloom.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := format.ReadGraph(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	c, p := planOf(t, g)
	page := writePage(t, "bloom.html", func(w *bytes.Buffer) error {
		return HTML(w, c, p, Options{Title: "aliasplan: bloom chain in one 6-mip image"})
	})
	b.load(t, page)
	b.click(t, b.resource(t, "bloom", 0))
	det := b.text(t, "#details")
	for _, want := range []string{"bloom", "SHADER_READ_ONLY_OPTIMAL on mips [0, 1]", "COLOR_ATTACHMENT_OPTIMAL on mips [1, 1]", "→ SHADER_READ_ONLY_OPTIMAL on mips [4, 1] layers [0, 1] aspects COLOR"} {
		if !strings.Contains(det, want) {
			t.Errorf("details of the ranged image lack %q:\n%s", want, det)
		}
	}
	b.screenshot(t, "ranges.png")
}
