package planner_test

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func readFrame(t testing.TB, path string) *planner.Graph {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := format.ReadGraph(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: to create it, run go test ./planner -run TestCompileGolden -update", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; if the change is intended, run go test ./planner -run TestCompileGolden -update and review the diff\n%s", path, firstDiff(string(want), got))
	}
}

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

// DescribeCompiled draws a compiled graph for review: batches, edges,
// lifetimes as rows over batches, and the interfering pairs.
func describeCompiled(c *planner.Compiled) string {
	g := c.Graph
	var b strings.Builder
	fmt.Fprintf(&b, "%d commands, %d resources, %d batches\n\nbatches:\n", len(g.Commands), len(g.Resources), c.NumBatches())
	for i, cmds := range c.Batches() {
		fmt.Fprintf(&b, "  %3d:", i)
		for _, cmd := range cmds {
			fmt.Fprintf(&b, " %s", g.Commands[cmd].Name)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nedges (stored, reachability-equivalent):\n")
	for cmd := range g.Commands {
		succ := c.Successors(planner.CommandID(cmd))
		if len(succ) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %s ->", g.Commands[cmd].Name)
		for _, s := range succ {
			fmt.Fprintf(&b, " %s", g.Commands[s].Name)
		}
		b.WriteByte('\n')
	}
	width := 0
	for _, r := range g.Resources {
		width = max(width, len(r.Name))
	}
	b.WriteString("\nlifetimes (one column per batch; # = used, - = alive between uses; I = initial, T = terminal):\n")
	for r := range g.Resources {
		id := planner.ResourceID(r)
		row := []byte(strings.Repeat(".", c.NumBatches()))
		lt, ok := c.Lifetime(id)
		if ok {
			for x := lt.First; x <= lt.Last; x++ {
				row[x] = '-'
			}
			for _, u := range c.Uses(id) {
				row[c.Batch(u.Command)] = '#'
			}
		}
		kind := "transient"
		if g.Resources[r].Imported {
			kind = "imported"
		} else if !ok {
			kind = "unused"
		}
		fmt.Fprintf(&b, "  %-*s |%s| %s", width, g.Resources[r].Name, row, kind)
		if ok {
			b.WriteString(" I:")
			for _, cmd := range c.Initial(id) {
				fmt.Fprintf(&b, " %s", g.Commands[cmd].Name)
			}
			b.WriteString(" T:")
			for _, cmd := range c.Terminal(id) {
				fmt.Fprintf(&b, " %s", g.Commands[cmd].Name)
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("\ninterfering transients:\n")
	for a := range g.Resources {
		if g.Resources[a].Imported || !c.Used(planner.ResourceID(a)) {
			continue
		}
		var with []string
		for o := range g.Resources {
			if o != a && !g.Resources[o].Imported && c.Interferes(planner.ResourceID(a), planner.ResourceID(o)) {
				with = append(with, g.Resources[o].Name)
			}
		}
		list := strings.Join(with, " ")
		if len(g.Resources) > 300 {
			// Large frames: the count and a digest keep the file reviewable
			// and still catch any change.
			h := fnv.New64a()
			h.Write([]byte(list))
			list = fmt.Sprintf("digest %016x", h.Sum64())
		}
		fmt.Fprintf(&b, "  %s (%d): %s\n", g.Resources[a].Name, len(with), list)
	}
	return b.String()
}

// TestCompileGolden compiles every frame of the test data; the
// repository's are compared with testdata/compile/FRAME.txt (-update
// rewrites them), the held-out ones only compile and draw.
func TestCompileGolden(t *testing.T) {
	for _, f := range datadir.Files(t, datadir.Frames) {
		t.Run(f.Test(), func(t *testing.T) {
			c, err := planner.Compile(readFrame(t, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			text := describeCompiled(c)
			if !f.HeldOut {
				golden(t, "compile/"+f.Name+".txt", text)
			}
		})
	}
}
