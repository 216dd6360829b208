package planner

import (
	"fmt"
	"math/bits"
	"unicode/utf8"

	"github.com/aliasplan/aliasplan/vk"
)

// Which usage flags an access or a layout needs (Vulkan's valid usage for
// descriptors, attachments, transfers and layouts: an image in
// COLOR_ATTACHMENT_OPTIMAL needs COLOR_ATTACHMENT, a storage write needs
// STORAGE, and so on). Each entry lists the usages any one of which makes
// the access possible; a zero usage means the kind of resource can never
// be accessed so (an index read of an image, a colour attachment that is a
// buffer). Like the stage/access table, it is generous where extensions
// and legacy flags blur the line (SHADER_READ accepts every shader-visible
// usage; buffers read through device addresses need only
// SHADER_DEVICE_ADDRESS): a frame Vulkan allows is never rejected.
//
// A resource whose usage is 0 declares none (usage flags are optional in
// graphs): only the kind rules (usage 0 entries) apply to it.

type bufferNeed struct {
	access vk.AccessFlags
	usage  vk.BufferUsage // any of these; 0: never on a buffer
}

type imageNeed struct {
	access vk.AccessFlags
	usage  vk.ImageUsage // any of these; 0: never on an image
}

const (
	bufStorage = vk.BufferUsageStorageBuffer | vk.BufferUsageStorageTexelBuffer | vk.BufferUsageShaderDeviceAddress
	bufShader  = bufStorage | vk.BufferUsageUniformBuffer | vk.BufferUsageUniformTexelBuffer | vk.BufferUsageShaderBindingTable |
		vk.BufferUsageAccelerationStructureBuildInputReadOnly | vk.BufferUsageAccelerationStructureStorage |
		vk.BufferUsageMicromapBuildInputReadOnlyEXT | vk.BufferUsageMicromapStorageEXT
	bufDescriptor = vk.BufferUsageSamplerDescriptorBufferEXT | vk.BufferUsageResourceDescriptorBufferEXT | vk.BufferUsagePushDescriptorsDescriptorBufferEXT
)

var bufferNeeds = []bufferNeed{
	{vk.AccessIndirectCommandRead, vk.BufferUsageIndirectBuffer | vk.BufferUsageShaderDeviceAddress},
	{vk.AccessIndexRead, vk.BufferUsageIndexBuffer},
	{vk.AccessVertexAttributeRead, vk.BufferUsageVertexBuffer},
	{vk.AccessUniformRead, vk.BufferUsageUniformBuffer | vk.BufferUsageShaderDeviceAddress | bufDescriptor},
	{vk.AccessShaderSampledRead, vk.BufferUsageUniformTexelBuffer | vk.BufferUsageStorageTexelBuffer},
	{vk.AccessShaderStorageRead, bufStorage | vk.BufferUsageAccelerationStructureStorage | vk.BufferUsageMicromapStorageEXT},
	{vk.AccessShaderStorageWrite, bufStorage},
	{vk.AccessShaderWrite, bufStorage},
	{vk.AccessShaderRead, bufShader},
	{vk.AccessTransferRead, vk.BufferUsageTransferSrc},
	{vk.AccessTransferWrite, vk.BufferUsageTransferDst},
	{vk.AccessConditionalRenderingReadEXT, vk.BufferUsageConditionalRenderingEXT},
	{vk.AccessTransformFeedbackWriteEXT, vk.BufferUsageTransformFeedbackBufferEXT},
	{vk.AccessTransformFeedbackCounterReadEXT, vk.BufferUsageTransformFeedbackCounterBufferEXT},
	{vk.AccessTransformFeedbackCounterWriteEXT, vk.BufferUsageTransformFeedbackCounterBufferEXT},
	{vk.AccessShaderBindingTableRead, vk.BufferUsageShaderBindingTable},
	{vk.AccessDescriptorBufferReadEXT, bufDescriptor},
	{vk.AccessColorAttachmentRead, 0},
	{vk.AccessColorAttachmentWrite, 0},
	{vk.AccessColorAttachmentReadNoncoherentEXT, 0},
	{vk.AccessDepthStencilAttachmentRead, 0},
	{vk.AccessDepthStencilAttachmentWrite, 0},
	{vk.AccessInputAttachmentRead, 0},
	{vk.AccessFragmentShadingRateAttachmentRead, 0},
	{vk.AccessFragmentDensityMapReadEXT, 0},
	{vk.AccessInvocationMaskReadHUAWEI, 0},
}

var imageNeeds = []imageNeed{
	{vk.AccessShaderSampledRead, vk.ImageUsageSampled},
	{vk.AccessShaderStorageRead, vk.ImageUsageStorage},
	{vk.AccessShaderStorageWrite, vk.ImageUsageStorage},
	{vk.AccessShaderWrite, vk.ImageUsageStorage},
	{vk.AccessShaderRead, vk.ImageUsageSampled | vk.ImageUsageStorage | vk.ImageUsageInputAttachment | vk.ImageUsageSampleWeightQCOM | vk.ImageUsageSampleBlockMatchQCOM},
	{vk.AccessColorAttachmentRead, vk.ImageUsageColorAttachment},
	{vk.AccessColorAttachmentWrite, vk.ImageUsageColorAttachment},
	{vk.AccessColorAttachmentReadNoncoherentEXT, vk.ImageUsageColorAttachment},
	{vk.AccessDepthStencilAttachmentRead, vk.ImageUsageDepthStencilAttachment},
	{vk.AccessDepthStencilAttachmentWrite, vk.ImageUsageDepthStencilAttachment},
	{vk.AccessInputAttachmentRead, vk.ImageUsageInputAttachment},
	{vk.AccessTransferRead, vk.ImageUsageTransferSrc},
	{vk.AccessTransferWrite, vk.ImageUsageTransferDst},
	{vk.AccessFragmentShadingRateAttachmentRead, vk.ImageUsageFragmentShadingRateAttachment},
	{vk.AccessFragmentDensityMapReadEXT, vk.ImageUsageFragmentDensityMapEXT},
	{vk.AccessInvocationMaskReadHUAWEI, vk.ImageUsageInvocationMaskHUAWEI},
	{vk.AccessVideoDecodeRead, vk.ImageUsageVideoDecodeSrc | vk.ImageUsageVideoDecodeDpb},
	{vk.AccessVideoDecodeWrite, vk.ImageUsageVideoDecodeDst | vk.ImageUsageVideoDecodeDpb},
	{vk.AccessIndirectCommandRead, 0},
	{vk.AccessIndexRead, 0},
	{vk.AccessVertexAttributeRead, 0},
	{vk.AccessUniformRead, 0},
	{vk.AccessConditionalRenderingReadEXT, 0},
	{vk.AccessTransformFeedbackWriteEXT, 0},
	{vk.AccessTransformFeedbackCounterReadEXT, 0},
	{vk.AccessTransformFeedbackCounterWriteEXT, 0},
	{vk.AccessShaderBindingTableRead, 0},
	{vk.AccessDescriptorBufferReadEXT, 0},
}

// layoutNeeds lists the usages an image needs to be in a layout
// (VUID-VkImageMemoryBarrier2-oldLayout-01208 and its siblings); GENERAL,
// PRESENT_SRC_KHR and SHARED_PRESENT_KHR need none.
var layoutNeeds = []struct {
	layout vk.Layout
	usage  vk.ImageUsage // any of these
}{
	{vk.LayoutColorAttachmentOptimal, vk.ImageUsageColorAttachment},
	{vk.LayoutDepthStencilAttachmentOptimal, vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutDepthAttachmentOptimal, vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutStencilAttachmentOptimal, vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutDepthReadOnlyStencilAttachmentOptimal, vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutDepthAttachmentStencilReadOnlyOptimal, vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutDepthStencilReadOnlyOptimal, vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageInputAttachment},
	{vk.LayoutDepthReadOnlyOptimal, vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageInputAttachment},
	{vk.LayoutStencilReadOnlyOptimal, vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageInputAttachment},
	{vk.LayoutShaderReadOnlyOptimal, vk.ImageUsageSampled | vk.ImageUsageInputAttachment},
	{vk.LayoutTransferSrcOptimal, vk.ImageUsageTransferSrc},
	{vk.LayoutTransferDstOptimal, vk.ImageUsageTransferDst},
	{vk.LayoutAttachmentOptimal, vk.ImageUsageColorAttachment | vk.ImageUsageDepthStencilAttachment},
	{vk.LayoutReadOnlyOptimal, vk.ImageUsageColorAttachment | vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageInputAttachment},
	{vk.LayoutFragmentShadingRateAttachmentOptimal, vk.ImageUsageFragmentShadingRateAttachment},
	{vk.LayoutFragmentDensityMapOptimalEXT, vk.ImageUsageFragmentDensityMapEXT},
	{vk.LayoutAttachmentFeedbackLoopOptimalEXT, vk.ImageUsageAttachmentFeedbackLoopEXT},
	{vk.LayoutVideoDecodeDst, vk.ImageUsageVideoDecodeDst},
	{vk.LayoutVideoDecodeSrc, vk.ImageUsageVideoDecodeSrc},
	{vk.LayoutVideoDecodeDpb, vk.ImageUsageVideoDecodeDpb},
}

// Per access bit, the usages that allow it (never: the kind cannot do it;
// any: every usage does), built once from the tables.
var (
	bufferNeedByBit [64]struct {
		usage        vk.BufferUsage
		listed, kind bool // listed: the table names the bit; kind: never on a buffer
	}
	imageNeedByBit [64]struct {
		usage        vk.ImageUsage
		listed, kind bool
	}
)

// Masks of the named values, built once from vk's names: a bit whose name
// is written in hex has none.
var (
	namedStages      vk.Stage
	namedAccess      vk.AccessFlags
	namedBufferUsage vk.BufferUsage
	namedImageUsage  vk.ImageUsage
)

func init() {
	for _, n := range bufferNeeds {
		b := &bufferNeedByBit[bits.TrailingZeros64(uint64(n.access))]
		b.usage, b.listed, b.kind = n.usage, true, n.usage == 0
	}
	for _, n := range imageNeeds {
		b := &imageNeedByBit[bits.TrailingZeros64(uint64(n.access))]
		b.usage, b.listed, b.kind = n.usage, true, n.usage == 0
	}
	named := func(names []string) bool { return len(names) == 1 && (len(names[0]) < 2 || names[0][:2] != "0x") }
	for b := range 64 {
		if named(vk.Stage(1 << b).Names()) {
			namedStages |= 1 << b
		}
		if named(vk.AccessFlags(1 << b).Names()) {
			namedAccess |= 1 << b
		}
	}
	for b := range 32 {
		if named(vk.BufferUsage(1 << b).Names()) {
			namedBufferUsage |= 1 << b
		}
		if named(vk.ImageUsage(1 << b).Names()) {
			namedImageUsage |= 1 << b
		}
	}
}

// namedLayout reports whether l is one of Vulkan's layouts that vk names.
func namedLayout(l vk.Layout) bool { return l.Named() }

// namedFormat reports whether f is a format vk names (UNDEFINED included).
func namedFormat(f vk.Format) bool { return f.Named() }

// checkUsage returns the rule an access of res breaks against its kind or
// its declared usage flags, and the detail, or "" when it breaks none.
func checkUsage(res *Resource, a *Access) (Rule, string) {
	if res.Kind == KindBuffer {
		usage := res.Buffer.Usage
		for m := a.Access; m != 0; m &= m - 1 {
			bit := bits.TrailingZeros64(uint64(m))
			n := &bufferNeedByBit[bit]
			switch {
			case !n.listed:
			case n.kind:
				return RuleUsage, fmt.Sprintf("access %s is not one a buffer can have (attachments and input attachments are images)", vk.AccessFlags(1)<<bit)
			case usage != 0 && usage&n.usage == 0:
				return RuleUsage, fmt.Sprintf("access %s needs buffer usage %s, but the buffer declares %s", vk.AccessFlags(1)<<bit, anyOf(n.usage.Names()), usage)
			}
		}
		return "", ""
	}
	usage := res.Image.Usage
	for m := a.Access; m != 0; m &= m - 1 {
		bit := bits.TrailingZeros64(uint64(m))
		n := &imageNeedByBit[bit]
		switch {
		case !n.listed:
		case n.kind:
			return RuleUsage, fmt.Sprintf("access %s is not one an image can have (it reads or writes buffers)", vk.AccessFlags(1)<<bit)
		case usage != 0 && usage&n.usage == 0:
			return RuleUsage, fmt.Sprintf("access %s needs image usage %s, but the image declares %s", vk.AccessFlags(1)<<bit, anyOf(n.usage.Names()), usage)
		}
	}
	if usage == 0 {
		return "", ""
	}
	for _, n := range layoutNeeds {
		if n.layout == a.Layout && usage&n.usage == 0 {
			return RuleUsage, fmt.Sprintf("layout %s needs image usage %s, but the image declares %s", a.Layout, anyOf(n.usage.Names()), usage)
		}
	}
	return "", ""
}

// anyOf writes names as "A", "A or B", "A, B or C".
func anyOf(names []string) string {
	switch len(names) {
	case 0:
		return "(none)"
	case 1:
		return names[0]
	}
	s := names[0]
	for _, n := range names[1 : len(names)-1] {
		s += ", " + n
	}
	return s + " or " + names[len(names)-1]
}

// badNameRune returns the first rune of name that a name may not hold, and
// whether there is one; an invalid UTF-8 byte comes back as
// utf8.RuneError. Names are printed in summaries, pictures (XML, which
// cannot carry most control characters) and terminals, where a control
// character or a bidirectional override would corrupt or disguise the
// output, so they are refused rather than escaped everywhere: C0 and C1
// controls and DEL, the bidirectional embeddings, overrides, isolates and
// marks (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069), the line
// and paragraph separators U+2028 and U+2029, and the noncharacters U+FFFE
// and U+FFFF (not XML characters).
func badNameRune(name string) (rune, bool) {
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size == 1 {
				return r, true
			}
		}
		switch {
		case r < 0x20, r >= 0x7f && r < 0xa0,
			r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
			return r, true
		}
	}
	return 0, false
}

// checkName returns a *GraphError when name holds a character a name may
// not hold (badNameRune); fail builds it.
func checkName(name string, fail func(Rule, string, ...any) error) error {
	r, bad := badNameRune(name)
	switch {
	case !bad:
		return nil
	case r == utf8.RuneError:
		return fail(RuleNameCharacters, "name is not valid UTF-8")
	}
	return fail(RuleNameCharacters, "name holds %U, a control, bidirectional-control or separator character (names are printed in terminals and XML)", r)
}
