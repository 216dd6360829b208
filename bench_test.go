package aliasplan_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/verify"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// BenchmarkFrame measures the per-frame cost on the held-out frames: the
// stages a renderer pays every frame, separately and together.
func BenchmarkFrame(b *testing.B) {
	for _, name := range []string{"deferred-1080p", "random-200", "random-1000"} {
		g := readGraph(b, frameFile(b, "heldout/"+name))
		opts := planner.Options{Strategy: firstfit.New(), DedicatedThreshold: planner.DefaultDedicatedThreshold}
		b.Run("frame="+name+"/stage=compile", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := planner.Compile(&g.Graph); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("frame="+name+"/stage=compile+place", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := planner.Compile(&g.Graph)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := planner.Place(c, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("frame="+name+"/stage=place", func(b *testing.B) {
			c, _ := planner.Compile(&g.Graph)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := planner.Place(c, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("frame="+name+"/stage=barriers+verify", func(b *testing.B) {
			c, _ := planner.Compile(&g.Graph)
			p, _ := planner.Place(c, opts)
			b.ReportAllocs()
			for b.Loop() {
				p.Barriers = nil
				if err := barriers.Build(c, p); err != nil {
					b.Fatal(err)
				}
				if err := verify.Plan(c, p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("frame="+name+"/stage=all", func(b *testing.B) {
			pl := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pl.Plan(g); err != nil {
					b.Fatal(err)
				}
			}
		})
		// A renderer's usual frame: the same graph as last frame, rebuilt
		// (a different *Graph with equal contents), recognised and reused.
		b.Run("frame="+name+"/stage=reuse", func(b *testing.B) {
			pl := aliasplan.New(aliasplan.Options{})
			if _, err := pl.Plan(g); err != nil {
				b.Fatal(err)
			}
			h := cloneGraph(&g.Graph)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pl.Plan(&aliasplan.Graph{Graph: *h}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScale plans large random frames (proptest.RandomFrame: about
// 1.46 transients per command, dense interference) end to end with the
// default planner, to show how time grows with the frame. Peak memory is
// measured on the CLI (docs/performance.md).
func BenchmarkScale(b *testing.B) {
	for _, n := range scaleSizes {
		g := proptest.RandomFrame(1, n)
		b.Run(fmt.Sprintf("commands=%d", n), func(b *testing.B) {
			pl := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pl.Plan(&aliasplan.Graph{Graph: *g}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// scaleSizes are BenchmarkScale's frame sizes; ALIASPLAN_SCALE=30000 (a
// comma-separated list) overrides them for the large runs of
// docs/performance.md.
var scaleSizes = func() []int {
	s := os.Getenv("ALIASPLAN_SCALE")
	if s == "" {
		return []int{1000, 3000, 10000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}()
