package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPanic feeds damaged graph, plan and CSV files to plan, check,
// solve and bench in-process: every run ends with status 0, 1 or 2, an
// error is one line, and a failed run leaves no output file. The damage
// is seeded, so failures reproduce.
func TestNoPanic(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	must := func(args ...string) {
		t.Helper()
		var out bytes.Buffer
		if code := run(args, &out, &out); code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, code, out.String())
		}
	}
	must("sample", "-o", path("frame.json"), "--resolution", "320x200")
	must("plan", path("frame.json"), "-o", path("plan.json"))
	graph, _ := os.ReadFile(path("frame.json"))
	plan, _ := os.ReadFile(path("plan.json"))
	csv := []byte("id,lower,upper,size,alignment\n0,0,10,100,64\n1,5,15,200,64\n2,10,20,100,1\n3,15,25,300,256\n")

	rng := rand.New(rand.NewPCG(1, 2))
	// damage returns data with a few bytes changed, cut, or a token
	// swapped for a troublesome one.
	damage := func(data []byte) []byte {
		d := bytes.Clone(data)
		switch rng.IntN(4) {
		case 0:
			return d[:rng.IntN(len(d))]
		case 1:
			for range 1 + rng.IntN(3) {
				const alphabet = "{}[],:\"0-9aZ \n"
				d[rng.IntN(len(d))] = alphabet[rng.IntN(len(alphabet))]
			}
			return d
		case 2:
			tokens := []string{"0", "-1", "18446744073709551616", "1e400", `""`, "null", "[]", "{}", `"UNDEFINED"`, "4294967296"}
			s := string(d)
			i := rng.IntN(len(s))
			j := i + strings.IndexAny(s[i:], ",}]\n")
			if j < i {
				return d
			}
			return []byte(s[:i] + tokens[rng.IntN(len(tokens))] + s[j:])
		}
		// Swap two lines.
		lines := strings.Split(string(d), "\n")
		a, b := rng.IntN(len(lines)), rng.IntN(len(lines))
		lines[a], lines[b] = lines[b], lines[a]
		return []byte(strings.Join(lines, "\n"))
	}
	cases := 300
	if testing.Short() {
		cases = 50
	}
	for i := range cases {
		var args []string
		out := path("out.json")
		switch i % 4 {
		case 0:
			os.WriteFile(path("g.json"), damage(graph), 0o644)
			args = []string{"plan", path("g.json"), "-o", out, "--svg", path("out.svg")}
		case 1:
			os.WriteFile(path("p.json"), damage(plan), 0o644)
			args = []string{"check", path("frame.json"), path("p.json")}
		case 2:
			os.WriteFile(path("c.csv"), damage(csv), 0o644)
			args = []string{"solve", path("c.csv"), "-o", out}
		case 3:
			os.WriteFile(path("c.csv"), damage(csv), 0o644)
			args = []string{"bench", "--runs", "1", "--time-limit", "100ms", path("c.csv")}
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		switch {
		case code < 0 || code > 2:
			t.Fatalf("case %d %q: exit %d", i, args, code)
		case code == 2 && strings.Count(stderr.String(), "\n") != 1:
			t.Fatalf("case %d %q: error is not one line:\n%s", i, args, stderr.String())
		}
		if code != 0 {
			for _, f := range []string{out, path("out.svg")} {
				if _, err := os.Stat(f); err == nil {
					t.Fatalf("case %d %q: exit %d left %s behind", i, args, code, f)
				}
			}
		}
		os.Remove(out)
		os.Remove(path("out.svg"))
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp") {
				t.Fatalf("case %d: temporary file %s left behind", i, e.Name())
			}
		}
	}
}
