package replay

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// edgeAliasFrame is a frame whose block-compressed images take the bytes
// of an image read before them (x): a BC1 source of sw×sh texels is
// uploaded from a buffer the command reading x wrote (so the DAG orders
// x's last read before it), then tiled over a BC1 image of dw×dh
// (raw: from an R32G32_UINT source of sw×sh texels, one per block), read
// by compute.
func edgeAliasFrame(raw bool, sw, sh, dw, dh uint32) *p.Graph {
	g := &p.Graph{}
	usage := vk.ImageUsageSampled | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
	img := func(name string, f vk.Format, w, h uint32, u vk.ImageUsage) p.ResourceID {
		return g.AddImage(name, p.ImageDesc{Format: f, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: vk.TilingOptimal, Usage: u})
	}
	x := img("x", vk.FormatR8G8B8A8Unorm, 32, 32, usage|vk.ImageUsageStorage)
	sf := vk.FormatBc1RgbaUnormBlock
	if raw {
		sf = vk.FormatR32G32Uint
	}
	a := img("a", sf, sw, sh, usage)
	big := img("big", vk.FormatBc1RgbaUnormBlock, dw, dh, usage)
	y := g.AddBuffer("y", p.BufferDesc{Size: bytesOf(g.Resources[a].Image), Usage: vk.BufferUsageTransferSrc | vk.BufferUsageStorageBuffer})
	g.AddCommand("x.write", p.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("x.read", csampled(x), p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	g.AddCommand("up", p.Access{Resource: y, Stages: vk.StageCopy, Access: vk.AccessTransferRead}, tdst(a, vk.StageCopy))
	g.AddCommand("tile", tsrc(a, vk.StageCopy), tdst(big, vk.StageCopy))
	g.AddCommand("read", csampled(big))
	return g
}

var hazardRegion = regexp.MustCompile(`^error (SYNC-HAZARD-[A-Z-]+): .*?(vkCmdCopyImage|vkCmdCopyBufferToImage): Hazard [A-Z_]+ for (src|dst)Image .*?, region (\d+)\.`)

// TestAliasedEdgeBlocksLayer is issue 21's investigation of layer
// 1.3.239's hazards on partial edge blocks of aliased block-compressed
// images (docs/replay.md, session 13). The same frame is planned with
// whole-block extents (12x8 over 20x12) and with partial edge blocks
// (12x6 over 20x10): in both the destination takes bytes of x, whose
// last read the plan's barrier before "tile" orders (its first scope
// holds x's read stage, its second the copy: by the spec that execution
// dependency is all a write-after-read needs, and the barrier is the same
// in both plans). The whole-block twin must replay with no message; the
// partial one must have equal digests, and every message it has must be
// a synchronization hazard on a copy region that reads or writes a
// partial edge block (the layer's memory model of a block-compressed
// image sizes it by texels times a fractional texel size, short of the
// partial blocks, so those regions' bytes fall outside the ranges the
// barriers cover). A message of another kind, or on a whole-block region,
// fails: that would be a real hazard. The uncompressed-to-compressed
// variant (R32G32_UINT texels into partial edge blocks, through the
// replay's buffer) is held to the same rule.
func TestAliasedEdgeBlocksLayer(t *testing.T) {
	type variant struct {
		name           string
		raw            bool
		sw, sh, dw, dh uint32
		partial        bool
	}
	barrier := map[string]string{}
	for _, v := range []variant{{"whole", false, 12, 8, 20, 12, false}, {"partial", false, 12, 6, 20, 10, true}, {"raw-partial", true, 3, 2, 20, 10, true}} {
		t.Run(v.name, func(t *testing.T) {
			g := edgeAliasFrame(v.raw, v.sw, v.sh, v.dw, v.dh)
			d := sharedDevice(t)
			r, plan := prepare(t, d, g)
			x, a, big := plan.Resources[0].Placement, plan.Resources[1].Placement, plan.Resources[2].Placement
			if x.Pool != big.Pool || big.Offset >= x.Offset+x.Size || x.Offset >= big.Offset+big.Size {
				t.Fatalf("big %+v does not take bytes of x %+v: the frame tests nothing", big, x)
			}
			for _, b := range plan.Barriers {
				if g.Commands[b.Before].Name == "tile" && g.Resources[b.Resource].Name == "big" {
					barrier[v.name] = b.SrcStages.String() + " " + b.SrcAccess.String() + " -> " + b.DstStages.String() + " " + b.DstAccess.String() + " " + b.OldLayout.String() + " -> " + b.NewLayout.String()
				}
			}
			t.Logf("x %+v, a %+v, big %+v; barrier before tile on big: %s", x, a, big, barrier[v.name])
			rep, err := r.Compare(plan, Config{Runs: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range rep.Mismatches {
				t.Errorf("mismatch: %s", m)
			}
			if !v.partial {
				if len(rep.Messages) != 0 || rep.ValidationMessages != 0 {
					t.Fatalf("the whole-block twin has %d messages: %v", rep.ValidationMessages, rep.Messages)
				}
				return
			}
			// Which regions of tile's copies touch a partial edge block.
			w, err := analyzeCommand(g, 3)
			if err != nil || len(w.copies) != 1 {
				t.Fatalf("tile: %v", err)
			}
			op := w.copies[0]
			src, dst := tsideOf(g, op.src, op.srcSpan), tsideOf(g, op.dst, op.dstSpan)
			var direct []bool // vkCmdCopyImage's regions: partial?
			for _, tl := range tiles(src, dst, false) {
				if edgeTile(src, dst, tl) {
					continue // vkCmdCopyBufferToImage's regions: all partial
				}
				e := tl.ext
				if isMixed(src.im, dst.im) {
					e = mixedDstExtent(src, dst, tl)
				}
				direct = append(direct, e.Width%4 != 0 || e.Height%4 != 0)
			}
			for _, m := range rep.Messages {
				sm := hazardRegion.FindStringSubmatch(m)
				if sm == nil {
					t.Errorf("not a hazard on a copy region: %s", m)
					continue
				}
				n, _ := strconv.Atoi(sm[4])
				if sm[2] == "vkCmdCopyImage" && (n >= len(direct) || !direct[n]) {
					t.Errorf("a hazard on region %d of vkCmdCopyImage, which has no partial edge block: %s", n, m)
				}
			}
			if t.Failed() {
				return
			}
			t.Logf("%d messages, every one a hazard on a region with partial edge blocks (layer 1.3.239's model; none is expected from a layer that sizes partial blocks)", len(rep.Messages))
			if strings.HasPrefix(v.name, "partial") && barrier["whole"] != "" && barrier[v.name] != barrier["whole"] {
				t.Errorf("the barriers differ: %s (whole-block twin) vs %s", barrier["whole"], barrier[v.name])
			}
		})
	}
}
