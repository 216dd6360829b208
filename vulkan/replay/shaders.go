package replay

import (
	"embed"
	"fmt"
)

// The SPIR-V is built from shaders/*.{comp,vert,frag,glsl} by shaders/gen.sh
// (glslangValidator from Debian's glslang-tools) and committed, so that
// building needs no shader compiler; TestSPIRVMatchesSource recompiles
// and compares when glslangValidator is installed.
//
//go:generate sh shaders/gen.sh

//go:embed shaders/*.spv
var spirv embed.FS

// spirvWords returns one embedded module as the words Vulkan wants.
func spirvWords(name string) ([]uint32, error) {
	b, err := spirv.ReadFile("shaders/" + name)
	if err != nil {
		return nil, fmt.Errorf("replay: shader %s: %w", name, err)
	}
	if len(b)%4 != 0 || len(b) < 20 || b[0] != 0x03 || b[1] != 0x02 || b[2] != 0x23 || b[3] != 0x07 {
		return nil, fmt.Errorf("replay: shader %s is not little-endian SPIR-V", name)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return w, nil
}
