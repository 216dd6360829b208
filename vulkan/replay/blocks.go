package replay

import (
	"fmt"
	"strings"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Block-compressed formats (BC, ETC2, EAC, ASTC: texel blocks of more than
// one texel) in transfers. Vulkan copies them in whole blocks: offsets are
// multiples of the block extent, and an extent is one too unless the
// region ends at the subresource's edge, on each side of a copy
// (VUID-vkCmdCopyImage-srcImage-01728..01735); a buffer holds rows of
// blocks (BytesPerBlock each, bufferRowLength 0: tightly packed). So:
//
//   - buffer<->image copies and lone sides (lonecopy.go) hold
//     ceil(w/bw) × ceil(h/bh) blocks per layer and level (copyTexels);
//   - an image copied onto itself (selfimage.go) halves the first
//     dimension with at least two whole blocks, in whole blocks;
//   - copies between images of different extents (extents.go) tile in
//     whole blocks, per dimension: the source's whole blocks repeated,
//     and a destination whose edge block is partial takes it from the
//     source's own partial edge block of the same width (the only region
//     Vulkan allows there). A pair with no such region at some level is
//     refused naming that rule;
//   - a copy between a block-compressed and an uncompressed image of one
//     block size (size-compatible in Vulkan: a region's extent is in the
//     source's texels, and one block of the compressed side is one texel
//     of the other) tiles in that grid, always (equal texel extents are
//     different grids), partial edge blocks included since session 13
//     (mixedTiles; into a compressed destination's partial blocks through
//     a buffer of the replay's own, edgeTile);
//   - two compressed formats of different block extents are Vulkan's rule
//     (VUID-vkCmdCopyImage-srcImage-09247); a 4:2:2 format (2x1 blocks)
//     against another block extent is legal and not built.
//
// Format support is queried (TRANSFER_SRC / TRANSFER_DST format features
// with optimal tiling); a format the device cannot transfer is refused
// naming it and its family's device feature (compressionFeature).

func isBlocked(f vk.Format) bool {
	bw, bh := f.BlockExtent()
	return bw != 1 || bh != 1
}

// copyTexels is the texel blocks of level l of im per layer (texels for
// uncompressed formats): what a tightly packed buffer copy holds.
func copyTexels(im *p.ImageDesc, l uint32) uint64 {
	e := mipExtent(im, l)
	bw, bh := im.Format.BlockExtent()
	return uint64((e.Width+bw-1)/bw) * uint64((e.Height+bh-1)/bh) * uint64(e.Depth)
}

const (
	formatFeatureTransferSrc = 0x4000 // VK_FORMAT_FEATURE_TRANSFER_SRC_BIT (Vulkan 1.1)
	formatFeatureTransferDst = 0x8000 // VK_FORMAT_FEATURE_TRANSFER_DST_BIT
)

// blockTransferSupport refuses a block-compressed format the device
// cannot use as a transfer source (read) or destination.
func (k *kit) blockTransferSupport(f vk.Format, read bool, bad func(string, ...any) error) error {
	if !isBlocked(f) {
		return nil
	}
	bit, what := vkg.FormatFeatureFlags(formatFeatureTransferDst), "transfer-destination (TRANSFER_DST)"
	if read {
		bit, what = formatFeatureTransferSrc, "transfer-source (TRANSFER_SRC)"
	}
	if k.optimalFeatures(f)&bit == 0 {
		return bad("%s has no %s support for block-compressed format %s with optimal tiling (queried)%s", k.dev.Info().Name, what, f, k.compressionFeature(f))
	}
	return nil
}

// compressionFamily is the device feature that makes f's family of
// compressed formats supported ("" for blocked formats that are not
// compressed, the 4:2:2 ones), and whether vkGetPhysicalDeviceFeatures
// holds it (ASTC HDR and PVRTC are elsewhere: a features chain, an
// extension).
func compressionFamily(f vk.Format) (feature string, core bool) {
	n := f.String()
	switch {
	case strings.HasPrefix(n, "BC"):
		return "textureCompressionBC", true
	case strings.HasPrefix(n, "ETC2_"), strings.HasPrefix(n, "EAC_"):
		return "textureCompressionETC2", true
	case strings.HasPrefix(n, "ASTC_") && strings.HasSuffix(n, "_SFLOAT_BLOCK"):
		return "textureCompressionASTC_HDR", false
	case strings.HasPrefix(n, "ASTC_"):
		return "textureCompressionASTC_LDR", true
	case strings.HasPrefix(n, "PVRTC"):
		return "VK_IMG_format_pvrtc", false
	}
	return "", false
}

// isCompressed says whether f is a compressed format (Vulkan's
// "compressed image format": BC, ETC2, EAC, ASTC, PVRTC), not a 4:2:2
// format of 2x1 blocks.
func isCompressed(f vk.Format) bool {
	n, _ := compressionFamily(f)
	return n != ""
}

// compressionFeature says, for a refusal of compressed format f, what the
// device's features hold for its family (queried where
// vkGetPhysicalDeviceFeatures has it).
func (k *kit) compressionFeature(f vk.Format) string {
	name, core := compressionFamily(f)
	if name == "" {
		return ""
	}
	if !core {
		return fmt.Sprintf("; the family needs %s (not queried)", name)
	}
	var have vkg.PhysicalDeviceFeatures
	vkg.GetPhysicalDeviceFeatures(k.dev.Physical(), &have)
	have.Deref()
	on := map[string]vkg.Bool32{"textureCompressionBC": have.TextureCompressionBC, "textureCompressionETC2": have.TextureCompressionETC2,
		"textureCompressionASTC_LDR": have.TextureCompressionASTC_LDR}[name]
	if on != vkg.True {
		return fmt.Sprintf("; the device lacks %s (queried)", name)
	}
	return fmt.Sprintf("; it has %s (queried), which promises sampling, not transfers", name)
}

// blockCopyDevice checks the block-compressed images of every copy.
func (k *kit) blockCopyDevice(g *p.Graph, ws []work) error {
	for i := range ws {
		w := &ws[i]
		for _, op := range w.copies {
			for _, side := range []struct {
				id   p.ResourceID
				read bool
			}{{op.src, true}, {op.dst, false}} {
				res := &g.Resources[side.id]
				if res.Kind != p.KindImage {
					continue
				}
				bad := func(format string, args ...any) error {
					cmd := &g.Commands[w.cmd]
					return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, side.id)), Reason: fmt.Sprintf(format, args...)}
				}
				if err := k.blockTransferSupport(res.Image.Format, side.read, bad); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// seg is one piece of a tiled copy in one dimension: source offset,
// destination offset, extent (texels).
type seg struct{ soff, doff, n uint32 }

// blockSegs tiles a source dimension of s texels over a destination of d
// texels in blocks of b, or returns nil when Vulkan allows no tiling: the
// source's whole blocks repeat, and a partial destination edge block
// (d%b != 0) is copied from the source's partial edge block of the same
// width. b == 1 is the texel tiling of uncompressed formats.
func blockSegs(s, d, b uint32) []seg {
	if b == 1 {
		var out []seg
		for x := uint32(0); x < d; x += s {
			out = append(out, seg{0, x, min(s, d-x)})
		}
		return out
	}
	if s == d {
		return []seg{{0, 0, d}} // both edges
	}
	full := s / b * b // the source's whole blocks
	dr, sr := d%b, s%b
	body := d - dr
	if dr != 0 && dr != sr || body > 0 && full == 0 {
		return nil
	}
	var out []seg
	for x := uint32(0); x < body; x += full {
		out = append(out, seg{0, x, min(full, body-x)})
	}
	if dr != 0 {
		out = append(out, seg{s - sr, body, dr}) // both regions end at their edges
	}
	return out
}

// blockTiles is tiles (extents.go) for images of block-compressed
// formats (one block extent on both sides): per destination level, the
// first source level from min(l, source levels - 1) down to 0 whose
// extents tile in Vulkan's block rules; ok false when none does.
func blockTiles(src, dst tside) ([]tile, bool) {
	bw, bh := src.im.Format.BlockExtent()
	var out []tile
	for i := uint32(0); i < dst.mips; i++ {
		de := dst.ext(i)
		var xs, ys []seg
		si := min(i, src.mips-1)
		for ; ; si-- {
			se := src.ext(si)
			xs, ys = blockSegs(se.Width, de.Width, bw), blockSegs(se.Height, de.Height, bh)
			if xs != nil && ys != nil || si == 0 {
				break
			}
		}
		if xs == nil || ys == nil {
			return nil, false
		}
		se := src.ext(si)
		t0 := tile{slevel: src.mip0 + si, dlevel: dst.mip0 + i, sext: mipExtent(src.im, src.mip0+si), dext: mipExtent(dst.im, dst.mip0+i)}
		for z := uint32(0); z < de.Depth; z += se.Depth {
			for _, y := range ys {
				for _, x := range xs {
					t := t0
					t.soff = vkg.Offset3D{X: int32(x.soff), Y: int32(y.soff)}
					t.off = vkg.Offset3D{X: int32(x.doff), Y: int32(y.doff), Z: int32(z)}
					t.ext = vkg.Extent3D{Width: x.n, Height: y.n, Depth: min(se.Depth, de.Depth-z)}
					out = append(out, t)
					if len(out) > maxTiles {
						return out, true
					}
				}
			}
		}
	}
	return out, true
}

// blockTiledProblem says why images s and d of op cannot tile in blocks
// ("" when they can, or when neither is block-compressed).
func blockTiledProblem(s, d *p.Resource, op *copyOp, src, dst tside) string {
	switch {
	case !isBlocked(s.Image.Format) && !isBlocked(d.Image.Format):
		return ""
	case op.blit:
		return "" // blits take texels; BLIT_SRC / BLIT_DST support is queried (kit.formatFeatures)
	case isBlocked(s.Image.Format) != isBlocked(d.Image.Format):
		return "" // mixedTiles: every level, partial edge blocks included (tiledCopyProblem counts the regions)
	}
	if why := blockPairProblem(op, &s.Image, &d.Image); why != "" {
		return why
	}
	sw, sh := s.Image.Format.BlockExtent()
	if _, ok := blockTiles(src, dst); !ok {
		return fmt.Sprintf("copy from %s: no source level tiles over some level of %s in whole %dx%d blocks (Vulkan: a region's extent is a multiple of the block unless it ends at the edge of both images, VUID-vkCmdCopyImage-srcImage-01729, -dstImage-01733)", s.Name, d.Name, sw, sh)
	}
	return ""
}

// blockPairProblem says why a copy between block-compressed images cannot
// be made: two block extents ("" otherwise and for blits).
func blockPairProblem(op *copyOp, si, di *p.ImageDesc) string {
	if op.blit || !isBlocked(si.Format) || !isBlocked(di.Format) {
		return ""
	}
	sw, sh := si.Format.BlockExtent()
	dw, dh := di.Format.BlockExtent()
	switch {
	case sw == dw && sh == dh:
		return ""
	case isCompressed(si.Format) && isCompressed(di.Format):
		return fmt.Sprintf("a copy between compressed formats of block extents %dx%d (%s) and %dx%d (%s): Vulkan copies between compressed formats of one texel block extent only (VUID-vkCmdCopyImage-srcImage-09247)", sw, sh, si.Format, dw, dh, di.Format)
	}
	return fmt.Sprintf("a copy between a 4:2:2 format and another block extent, %dx%d (%s) and %dx%d (%s): Vulkan scales the region by each format's block (formats-size-compatibility); the replay tiles one block-compressed side against an uncompressed one, not two block grids (not built; no device measured transfers 4:2:2 formats)", sw, sh, si.Format, dw, dh, di.Format)
}

// generalLayoutAdvice matches layer 1.3.239's performance warning on a
// vkCmdCopyImage in GENERAL of an image without STORAGE usage ("For
// optimal performance ... should be TRANSFER_SRC_OPTIMAL instead of
// GENERAL"): a copy of an image onto itself is GENERAL by Vulkan's rule
// (the graph declares it so), and a block-compressed image cannot have
// STORAGE usage. Advice, not an error: counted apart as a quirk.
func generalLayoutAdvice(m vulkan.Message) bool {
	return m.ID == "UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout" && strings.Contains(m.Text, "Validation Performance Warning") &&
		strings.Contains(m.Text, "vkCmdCopyImage: For optimal performance") && strings.Contains(m.Text, "instead of GENERAL")
}

// gridExt is level i of side s in blocks (texels of an uncompressed
// format), and whether the level is whole blocks.
func gridExt(s tside, i uint32) (vkg.Extent3D, bool) {
	e := s.ext(i)
	bw, bh := s.im.Format.BlockExtent()
	return vkg.Extent3D{Width: (e.Width + bw - 1) / bw, Height: (e.Height + bh - 1) / bh, Depth: e.Depth}, e.Width%bw == 0 && e.Height%bh == 0
}

// isMixed says whether exactly one side of a copy is block-compressed.
func isMixed(a, b *p.ImageDesc) bool { return isBlocked(a.Format) != isBlocked(b.Format) }

// mixedTiles is tiles for a copy between a block-compressed and an
// uncompressed image: the source's grid (blocks, or texels of the
// uncompressed side) repeated over the destination's, destination level
// l from source level min(l, levels - 1). A region's extent is in source
// texels (Vulkan: the extent matches the source, resized by the block
// ratio for the destination, formats-size-compatibility), its offsets in
// each side's texels. A partial edge block (issue 21, session 13) is one
// block of the grid like any other: from a compressed source the region
// ends at the level's edge (srcOffset + extent = the level's width,
// VUID-vkCmdCopyImage-srcImage-01728) and writes ceil(extent / block)
// texels; into a compressed destination the region's blocks end at its
// edge (ceil(X/x) = ceil(A/a) of the size-compatibility rule). ok is
// false only for a tiling of more than maxTiles regions (it stops there).
func mixedTiles(src, dst tside) ([]tile, bool) {
	sbw, sbh := src.im.Format.BlockExtent()
	dbw, dbh := dst.im.Format.BlockExtent()
	var out []tile
	for i := uint32(0); i < dst.mips; i++ {
		dg, _ := gridExt(dst, i)
		si := min(i, src.mips-1)
		sg, _ := gridExt(src, si)
		se := src.ext(si)
		t0 := tile{slevel: src.mip0 + si, dlevel: dst.mip0 + i, sext: mipExtent(src.im, src.mip0+si), dext: mipExtent(dst.im, dst.mip0+i)}
		for z := uint32(0); z < dg.Depth; z += sg.Depth {
			for y := uint32(0); y < dg.Height; y += sg.Height {
				for x := uint32(0); x < dg.Width; x += sg.Width {
					t := t0
					t.off = vkg.Offset3D{X: int32(x * dbw), Y: int32(y * dbh), Z: int32(z)}
					t.ext = vkg.Extent3D{Width: min(min(sg.Width, dg.Width-x)*sbw, se.Width), Height: min(min(sg.Height, dg.Height-y)*sbh, se.Height), Depth: min(sg.Depth, dg.Depth-z)}
					out = append(out, t)
					if len(out) > maxTiles {
						return out, false
					}
				}
			}
		}
	}
	return out, true
}

// mixedDstExtent is the destination texels region t of a copy between a
// block-compressed and an uncompressed image writes: its extent (source
// texels) in source blocks, times the destination's block, clipped to
// the destination level's edge.
func mixedDstExtent(src, dst tside, t tile) vkg.Extent3D {
	sbw, sbh := src.im.Format.BlockExtent()
	dbw, dbh := dst.im.Format.BlockExtent()
	return vkg.Extent3D{Width: min((t.ext.Width+sbw-1)/sbw*dbw, t.dext.Width-uint32(t.off.X)), Height: min((t.ext.Height+sbh-1)/sbh*dbh, t.dext.Height-uint32(t.off.Y)), Depth: t.ext.Depth}
}

// edgeTile says whether region t of a copy from src into dst writes
// partial edge blocks of a block-compressed destination from an
// uncompressed source. Vulkan sizes such a region by the
// size-compatibility rule (ceil(X/x) = ceil(A/a): n source texels are n
// destination blocks, the last of them ending at the level's edge), but
// layer 1.3.239 multiplies the extent by the block and reports
// VUID-vkCmdCopyImage-dstOffset-00150/-00151 (an open spec question,
// KhronosGroup/Vulkan-ValidationLayers#1946). The replay copies those
// regions through a buffer of its own instead, which Vulkan defines
// without that question: vkCmdCopyImageToBuffer of the source texels,
// then vkCmdCopyBufferToImage of them as the destination's blocks (a
// buffer-to-image extent may end at the level's edge,
// VUID-vkCmdCopyBufferToImage-imageExtent-00207/-00208). Both are COPY-stage
// transfers of the declared resources, the bytes the same.
func edgeTile(src, dst tside, t tile) bool {
	if !isBlocked(dst.im.Format) || isBlocked(src.im.Format) {
		return false
	}
	e := mixedDstExtent(src, dst, t)
	bw, bh := dst.im.Format.BlockExtent()
	return e.Width%bw != 0 || e.Height%bh != 0
}

// edgeBytes is region t's bytes in the edge buffer (edgeTile), rounded
// to the alignment vkCmdCopyImageToBuffer asks of the next offset.
func edgeBytes(src tside, t tile) uint64 {
	bpb := src.im.Format.BytesPerBlock()
	a := lcm16(bpb)
	n := uint64(t.ext.Width) * uint64(t.ext.Height) * uint64(t.ext.Depth) * bpb
	return (n + a - 1) / a * a
}

// setupEdges gives every copy with edgeTile regions its own range of
// the replay's edge buffer (device-local; one range per copy, so no two
// commands share bytes of it).
func (r *Replayer) setupEdges() error {
	var n uint64
	for i := range r.works {
		for j := range r.works[i].copies {
			op := &r.works[i].copies[j]
			s, d := &r.g.Resources[op.src], &r.g.Resources[op.dst]
			if op.blit || op.resolve || s.Kind != p.KindImage || d.Kind != p.KindImage || !isMixed(&s.Image, &d.Image) {
				continue
			}
			src, dst := tsideOf(r.g, op.src, op.srcSpan), tsideOf(r.g, op.dst, op.dstSpan)
			op.edge = n
			for _, t := range tiles(src, dst, false) {
				if edgeTile(src, dst, t) {
					n += edgeBytes(src, t)
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	var err error
	r.edges, err = r.k.newBuffer(n, vkg.BufferUsageFlags(vkg.BufferUsageTransferSrcBit|vkg.BufferUsageTransferDstBit), false)
	return err
}
