package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveCapacityUnknown: solve --capacity exits 3 when the limit comes
// before an answer. The problem: [0, 1000) time × [0, 1000) bytes cut into
// 300 rectangles (guillotine cuts), which fits in 1000 bytes; first fit
// needs more, and a node limit of 1 stops exact in its model.
func TestSolveCapacityUnknown(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	type rect struct{ t0, t1, m0, m1 int }
	rs := []rect{{0, 1000, 0, 1000}}
	for len(rs) < 300 {
		k := rng.IntN(len(rs))
		r := rs[k]
		if rng.IntN(2) == 0 && r.t1-r.t0 > 1 {
			cut := r.t0 + 1 + rng.IntN(r.t1-r.t0-1)
			rs[k].t1 = cut
			rs = append(rs, rect{cut, r.t1, r.m0, r.m1})
		} else if r.m1-r.m0 > 1 {
			cut := r.m0 + 1 + rng.IntN(r.m1-r.m0-1)
			rs[k].m1 = cut
			rs = append(rs, rect{r.t0, r.t1, cut, r.m1})
		}
	}
	var b strings.Builder
	b.WriteString("id,lower,upper,size\n")
	for i, r := range rs {
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", i, r.t0, r.t1, r.m1-r.m0)
	}
	file := filepath.Join(t.TempDir(), "p.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"solve", file}, &out, &errs); code != 0 || strings.Contains(errs.String(), "peak 1000 bytes") {
		t.Fatalf("exit %d: %s: want first fit above 1000 bytes", code, errs.String())
	}
	out.Reset()
	errs.Reset()
	code := run([]string{"solve", "--capacity", "1000", "--node-limit", "1", file}, &out, &errs)
	if code != exitUnknown || !strings.Contains(errs.String(), "capacity 1000 unknown, neither fits nor proven not to: the node limit ran out") {
		t.Errorf("exit %d, stderr %q; want %d and the reason", code, errs.String(), exitUnknown)
	}
	if !strings.HasPrefix(out.String(), "id,lower,upper,size,offset\n") {
		t.Errorf("no CSV on stdout: %q", out.String()[:min(len(out.String()), 80)])
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"solve", "--capacity", "1000", "--node-limit", "100000", file}, &out, &errs); code != exitOK {
		t.Errorf("exit %d, stderr %q; want it to fit", code, errs.String())
	}
}
