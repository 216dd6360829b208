package proptest

import (
	"fmt"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
	"github.com/aliasplan/aliasplan/vk"
)

// LayerChains is MipChains per array layer: n chains, each in one
// 6-layer array (a cube map's faces, or an array of cascades), the first
// command writing layer 0 from the scene, the next five reading layer i-1
// and writing layer i, five more reading layer i+1 and blending into
// layer i (n = 10: 211 accesses). With general set, every image access is
// on the whole image in GENERAL.
func LayerChains(n int, general bool) *planner.Graph {
	b := &frameBuilder{general: general}
	src := b.image("src", vk.FormatB10G11R11UfloatPack32, 1024, 1, 1, subColorUsage)
	b.AddCommand("scene", b.ColorAttachment(src))
	for c := 0; c < n; c++ {
		img := b.image(fmt.Sprintf("chain%d", c), vk.FormatB10G11R11UfloatPack32, 512, 1, 6, subColorUsage)
		b.AddCommand(fmt.Sprintf("chain%d.layer0", c), b.Sampled(src, vk.StageFragmentShader), b.layer(b.ColorAttachment(img), 0))
		for i := 1; i < 6; i++ {
			b.AddCommand(fmt.Sprintf("chain%d.down%d", c, i), b.layer(b.Sampled(img, vk.StageFragmentShader), i-1), b.layer(b.ColorAttachment(img), i))
		}
		for i := 4; i >= 0; i-- {
			b.AddCommand(fmt.Sprintf("chain%d.up%d", c, i), b.layer(b.Sampled(img, vk.StageFragmentShader), i+1), b.layer(b.BlendAttachment(img), i))
		}
	}
	return &b.Graph.Graph
}

// BenchmarkPlanLayerChains: BenchmarkPlanMipChains on LayerChains (per
// layer instead of per mip) against the same commands with whole-image
// GENERAL accesses.
func BenchmarkPlanLayerChains(b *testing.B) {
	for _, general := range []bool{false, true} {
		g := &aliasplan.Graph{Graph: *LayerChains(10, general)}
		kind := "ranges"
		if general {
			kind = "general"
		}
		pl := aliasplan.New(aliasplan.Options{Strategy: firstfit.New(), Reuse: aliasplan.NoReuse})
		b.Run(fmt.Sprintf("chains=10/access=%s", kind), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, _, err := pl.PlanCompiled(g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
