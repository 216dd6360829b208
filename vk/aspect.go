package vk

// Aspect is a set of image aspects (VkImageAspectFlags): the colour,
// depth and stencil parts of an image's subresources. Values are Vulkan's.
type Aspect uint8

// Image aspects (VK_IMAGE_ASPECT_*_BIT).
const (
	AspectColor   Aspect = 0x1
	AspectDepth   Aspect = 0x2
	AspectStencil Aspect = 0x4
)

var aspectTable = []nameValue[Aspect]{
	{"COLOR", AspectColor},
	{"DEPTH", AspectDepth},
	{"STENCIL", AspectStencil},
}

var aspectIndex = nameIndex(aspectTable)

// ParseAspect returns the aspect bit of a name (COLOR, DEPTH, STENCIL).
func ParseAspect(name string) (Aspect, bool) {
	a, ok := aspectIndex[name]
	return a, ok
}

// Names returns the names of a's bits in ascending bit order; a bit without
// a name is written in hex.
func (a Aspect) Names() []string {
	return maskNames(uint64(a), aspectBitNames)
}

func (a Aspect) String() string { return maskString(uint64(a), aspectBitNames, "NONE") }

// aspectBitNames is the name of each bit position.
var aspectBitNames = []string{"COLOR", "DEPTH", "STENCIL"}

// Aspects returns the aspects an image of format f has: DEPTH and/or
// STENCIL for a depth/stencil format, COLOR for every other one (an
// unknown format included).
func (f Format) Aspects() Aspect {
	e := f.info()
	if e == nil || e.aspects == 0 {
		return AspectColor
	}
	var a Aspect
	if e.aspects&aspectDepth != 0 {
		a |= AspectDepth
	}
	if e.aspects&aspectStencil != 0 {
		a |= AspectStencil
	}
	return a
}
