package format

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

func readFrame(t testing.TB, path string) *planner.Graph {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := ReadGraph(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// firstDiff names the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w, g)
		}
	}
	return ""
}
