package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// facts is what size estimates need of a format and the header does not
// say: the bytes of one texel block, the block's extent in texels, and
// whether it has depth or stencil aspects.
type facts struct {
	bytes                   int
	blockWidth, blockHeight int
	depth, stencil          bool
}

// blockFacts is the one hand-written table: what a format's name does not
// spell out. Compressed families (by name prefix; ASTC's extent is read from
// its name), and the combined depth/stencil formats, whose storage is padded
// (D16_UNORM_S8_UINT takes 4 bytes, D32_SFLOAT_S8_UINT 8). Sizes are those
// of the Vulkan specification's "Compatible Formats" table.
var blockFacts = []struct {
	prefix      string
	bytes, w, h int
}{
	{"BC1_", 8, 4, 4},
	{"BC2_", 16, 4, 4},
	{"BC3_", 16, 4, 4},
	{"BC4_", 8, 4, 4},
	{"BC5_", 16, 4, 4},
	{"BC6H_", 16, 4, 4},
	{"BC7_", 16, 4, 4},
	{"ETC2_R8G8B8_", 8, 4, 4},
	{"ETC2_R8G8B8A1_", 8, 4, 4},
	{"ETC2_R8G8B8A8_", 16, 4, 4},
	{"EAC_R11_", 8, 4, 4},
	{"EAC_R11G11_", 16, 4, 4},
	{"ASTC_", 16, 0, 0}, // extent from the name: ASTC_10x8 is 10x8
	{"D16_UNORM_S8_UINT", 4, 1, 1},
	{"D24_UNORM_S8_UINT", 4, 1, 1},
	{"D32_SFLOAT_S8_UINT", 8, 1, 1},
}

var (
	reComponent = regexp.MustCompile(`([RGBADSEX])(\d+)(?:X(\d+))?`)
	rePack      = regexp.MustCompile(`^(\d?)PACK(\d+)$`)
	reASTC      = regexp.MustCompile(`^ASTC_(\d+)x(\d+)_`)
)

// formatFacts derives the facts of a format from its name and blockFacts.
// Components and their bits (R8G8B8A8: 32 bits, R10X6: 10 bits and 6 of
// padding) give the bytes of uncompressed formats; a PACKn word gives the
// storage of packed ones (n bits, 2PACK16 two 16-bit words); 422 and 420
// give 2x1 and 2x2 blocks; a 2PLANE or 3PLANE format's block holds all
// planes (G8_B8R8_2PLANE_420_UNORM: four G and one B and R sample, 6
// bytes per 2x2 texels). D and S components are depth and stencil aspects.
func formatFacts(name string) (facts, error) {
	f := facts{blockWidth: 1, blockHeight: 1}
	if name == "UNDEFINED" {
		return f, nil
	}
	words := strings.Split(name, "_")
	planar := false
	packBits := 0
	comps := []struct {
		c    byte
		bits int
	}{}
	for _, w := range words {
		switch {
		case w == "422":
			f.blockWidth = 2
		case w == "420":
			f.blockWidth, f.blockHeight = 2, 2
		case w == "2PLANE" || w == "3PLANE":
			planar = true
		case rePack.MatchString(w):
			m := rePack.FindStringSubmatch(w)
			n := 1
			if m[1] != "" {
				n, _ = strconv.Atoi(m[1])
			}
			bits, _ := strconv.Atoi(m[2])
			packBits = n * bits
		case reComponents.MatchString(w):
			for _, m := range reComponent.FindAllStringSubmatch(w, -1) {
				bits, _ := strconv.Atoi(m[2])
				pad, _ := strconv.Atoi(m[3])
				comps = append(comps, struct {
					c    byte
					bits int
				}{m[1][0], bits + pad})
				switch m[1][0] {
				case 'D':
					f.depth = true
				case 'S':
					f.stencil = true
				}
			}
		}
	}
	for _, b := range blockFacts {
		if !strings.HasPrefix(name, b.prefix) {
			continue
		}
		f.bytes, f.blockWidth, f.blockHeight = b.bytes, b.w, b.h
		if b.prefix == "ASTC_" {
			m := reASTC.FindStringSubmatch(name)
			if m == nil {
				return facts{}, fmt.Errorf("vkgen: format %s: no block extent in the name", name)
			}
			f.blockWidth, _ = strconv.Atoi(m[1])
			f.blockHeight, _ = strconv.Atoi(m[2])
		}
		return f, nil
	}
	bits := 0
	switch {
	case planar:
		// One block: a G sample per texel, one B and one R sample.
		for _, c := range comps {
			if c.c == 'G' {
				bits += c.bits * f.blockWidth * f.blockHeight
			} else {
				bits += c.bits
			}
		}
	case packBits > 0:
		bits = packBits
	default:
		for _, c := range comps {
			bits += c.bits
		}
	}
	if bits == 0 || bits%8 != 0 {
		return facts{}, fmt.Errorf("vkgen: format %s: cannot tell its block size (%d bits); add it to blockFacts", name, bits)
	}
	f.bytes = bits / 8
	return f, nil
}
