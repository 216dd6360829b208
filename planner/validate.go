package planner

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/bits"
)

// MaxValidateErrors is how many broken rules Validate reports at most.
const MaxValidateErrors = 20

// Validate checks the rules a graph must meet before it is compiled. It
// reports every broken rule it finds, up to MaxValidateErrors: one as a
// *GraphError, several as an errors.Join of *GraphError (list them with
// GraphErrors; errors.As finds the first). Rules that need the analysis (a
// transient read before it is written) are checked by Compile; the
// device's or profile's limits (image extents, heap sizes,
// maxMemoryAllocationSize) are checked by Place.
//
// Besides the model's own rules it refuses what would reach a device or a
// file unchecked: stage, access, layout, format and usage values Vulkan
// does not define (RuleUnknownName), explicit requirements smaller than
// the resource (RuleRequirementsTooSmall), accesses and layouts that the
// declared usage flags do not allow (RuleUsage; usage 0 declares none and
// is not checked, but a buffer is never an attachment), and names that
// are not valid UTF-8 or hold control or bidirectional characters
// (RuleNameCharacters).
//
// Cost: O(R + A) with one map of names.
func Validate(g *Graph) error {
	if g == nil {
		return &GraphError{Access: -1, Rule: RuleField, Detail: "the graph is nil"}
	}
	var errs errList
	errs.max = MaxValidateErrors
	names := make(map[string]struct{}, len(g.Resources))
	for i := range g.Resources {
		if err := validateResource(&g.Resources[i], i, names); err != nil && errs.add(err) {
			return errs.join()
		}
	}
	clear(names)
	nr := ResourceID(len(g.Resources))
	for ci := range g.Commands {
		cmd := &g.Commands[ci]
		if cmd.Name == "" {
			if errs.add(&GraphError{Item: fmt.Sprintf("commands[%d]", ci), Access: -1, Rule: RuleEmptyName, Detail: "command has an empty name"}) {
				return errs.join()
			}
		} else if _, dup := names[cmd.Name]; dup {
			if errs.add(&GraphError{Command: cmd.Name, Access: -1, Rule: RuleDuplicateName, Detail: "two commands have this name"}) {
				return errs.join()
			}
		} else if err := checkName(cmd.Name, func(rule Rule, format string, args ...any) error {
			return &GraphError{Command: cmd.Name, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		}); err != nil && errs.add(err) {
			return errs.join()
		}
		names[cmd.Name] = struct{}{}
		if err := validateQueue(g, cmd); err != nil && errs.add(err) { // queue.go
			return errs.join()
		}
		for ai := range cmd.Accesses {
			if err := validateAccess(g, cmd, ai, nr); err != nil && errs.add(err) {
				return errs.join()
			}
		}
	}
	return errs.join()
}

func validateAccess(g *Graph, cmd *Command, ai int, nr ResourceID) error {
	a := cmd.Accesses[ai]
	if a.Resource < 0 || a.Resource >= nr {
		return &GraphError{Command: cmd.Name, Access: ai, Rule: RuleUnknownResource, Detail: fmt.Sprintf("resource id %d is not in the graph", a.Resource)}
	}
	res := &g.Resources[a.Resource]
	if a.Stages == 0 {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleNoStages, Detail: "access has no pipeline stage"}
	}
	// Values Vulkan does not define would reach the barriers (and
	// vkCmdPipelineBarrier2) unchecked.
	if bad := a.Stages &^ namedStages; bad != 0 {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleUnknownName, Detail: fmt.Sprintf("stage bits %#x have no name", uint64(bad))}
	}
	if bad := a.Access &^ namedAccess; bad != 0 {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleUnknownName, Detail: fmt.Sprintf("access bits %#x have no name", uint64(bad))}
	}
	if bad := vk.UnsupportedAccess(a.Stages, a.Access); bad != 0 {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleStageAccess,
			Detail: fmt.Sprintf("access %s cannot be performed by stages %s", bad, a.Stages)}
	}
	if err := validateRange(cmd, ai, res); err != nil {
		return err
	}
	if res.Kind != KindImage {
		if rule, detail := checkUsage(res, &a); rule != "" {
			return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: rule, Detail: detail}
		}
		return nil
	}
	if !namedLayout(a.Layout) {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleUnknownName, Detail: fmt.Sprintf("layout %d has no name", uint32(a.Layout))}
	}
	if a.Layout == vk.LayoutUndefined || a.Layout == vk.LayoutPreinitialized {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleNoLayout,
			Detail: fmt.Sprintf("image access needs a layout a command can use, not %s", a.Layout)}
	}
	// One layout per subresource per command: compare with the earlier
	// accesses of this command (commands have few accesses).
	for bi := 0; bi < ai; bi++ {
		b := cmd.Accesses[bi]
		if b.Resource == a.Resource && b.Layout != a.Layout && sameSubresource(&b, &a, res) {
			return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: RuleTwoLayouts,
				Detail: fmt.Sprintf("image used in two layouts in one command (%s and %s)%s", b.Layout, a.Layout, twoLayoutsWhere(&b, &a, res))}
		}
	}
	if rule, detail := checkUsage(res, &a); rule != "" {
		return &GraphError{Command: cmd.Name, Access: ai, Resource: res.Name, Rule: rule, Detail: detail}
	}
	return nil
}

func validateResource(r *Resource, i int, names map[string]struct{}) error {
	fail := func(rule Rule, format string, args ...any) error {
		return &GraphError{Resource: r.Name, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
	}
	if r.Name == "" {
		return &GraphError{Item: fmt.Sprintf("resources[%d]", i), Access: -1, Rule: RuleEmptyName, Detail: "resource has an empty name"}
	}
	if _, dup := names[r.Name]; dup {
		return fail(RuleDuplicateName, "two resources have this name")
	}
	names[r.Name] = struct{}{}
	if err := checkName(r.Name, fail); err != nil {
		return err
	}
	if r.Memory > GPUToCPU {
		return fail(RuleField, "unknown memory kind %d", r.Memory)
	}
	switch r.Kind {
	case KindBuffer:
		if r.Buffer.Size == 0 {
			return fail(RuleZeroSize, "buffer size is 0")
		}
		if bad := r.Buffer.Usage &^ namedBufferUsage; bad != 0 {
			return fail(RuleUnknownName, "buffer usage bits %#x have no name", uint32(bad))
		}
	case KindImage:
		if err := validateImage(&r.Image, fail); err != nil {
			return err
		}
		if err := validateFinalLayout(r, fail); err != nil {
			return err
		}
	default:
		return fail(RuleField, "unknown resource kind %d", r.Kind)
	}
	if q := r.Requirements; q != nil {
		if q.Size == 0 {
			return fail(RuleZeroSize, "required size is 0")
		}
		if !isPow2(q.Alignment) {
			return fail(RuleAlignment, "alignment %d is not a power of two", q.Alignment)
		}
		if q.MemoryTypeBits == 0 {
			return fail(RuleMemoryTypeBits, "memoryTypeBits is 0: no memory type can hold it")
		}
		if err := checkRequirementsSize(r, q, fail); err != nil {
			return err
		}
	}
	return nil
}

// checkRequirementsSize refuses explicit requirements smaller than the
// resource itself: a buffer's size, an image's texel bytes (ImageBytes;
// D32_SFLOAT_S8_UINT counted at Vulkan's 5 bytes per texel, since a
// driver may store depth and stencil apart). Placing by a size that small
// would let a neighbour overlap the resource's real bytes. Drivers round
// up (alignment, pages, compression metadata), never down.
func checkRequirementsSize(r *Resource, q *Requirements, fail func(Rule, string, ...any) error) error {
	switch r.Kind {
	case KindBuffer:
		if q.Size < r.Buffer.Size {
			return fail(RuleRequirementsTooSmall, "required size %d is below the buffer's size %d", q.Size, r.Buffer.Size)
		}
	case KindImage:
		least, err := ImageBytes(&r.Image)
		if err != nil {
			return fail(RuleSizeOverflow, "the image's texel bytes do not fit in 64 bits, so no required size can hold them")
		}
		if r.Image.Format == vk.FormatD32SfloatS8Uint {
			least = least / 8 * 5
		}
		if q.Size < least {
			return fail(RuleRequirementsTooSmall, "required size %d is below the image's %d texel bytes (%dx%dx%d %s, %d mip levels, %d layers, %d samples)",
				q.Size, least, r.Image.Width, r.Image.Height, r.Image.Depth, r.Image.Format, r.Image.MipLevels, r.Image.ArrayLayers, r.Image.Samples)
		}
	}
	return nil
}

// validateImage checks Vulkan's own rules for an image description (those
// that hold on every device; the device's limits are Place's business).
// The image type is implied: depth > 1 is a 3D image, the rest 2D (or 1D).
func validateImage(im *ImageDesc, fail func(Rule, string, ...any) error) error {
	switch {
	case !namedFormat(im.Format):
		return fail(RuleUnknownName, "format %d has no name", uint32(im.Format))
	case im.Format == vk.FormatUndefined:
		return fail(RuleField, "an image needs a format, not UNDEFINED")
	case !namedLayout(im.InitialLayout):
		return fail(RuleUnknownName, "initial layout %d has no name", uint32(im.InitialLayout))
	}
	if bad := im.Usage &^ namedImageUsage; bad != 0 {
		return fail(RuleUnknownName, "image usage bits %#x have no name", uint32(bad))
	}
	if im.Width == 0 || im.Height == 0 || im.Depth == 0 {
		return fail(RuleZeroExtent, "image extent %dx%dx%d has a zero dimension", im.Width, im.Height, im.Depth)
	}
	if im.MipLevels == 0 || im.ArrayLayers == 0 {
		return fail(RuleZeroExtent, "image has %d mip levels and %d array layers; both must be at least 1", im.MipLevels, im.ArrayLayers)
	}
	// A full mip chain halves the largest extent down to 1:
	// ⌊log2(largest)⌋+1 levels.
	if most := uint32(bits.Len32(max(im.Width, im.Height, im.Depth))); im.MipLevels > most {
		return fail(RuleMipLevels, "%d mip levels, but an image of %dx%dx%d has at most %d (⌊log2(largest extent)⌋+1)",
			im.MipLevels, im.Width, im.Height, im.Depth, most)
	}
	if !isPow2(uint64(im.Samples)) || im.Samples > 64 {
		return fail(RuleSamples, "sample count %d is not a power of two in [1, 64]", im.Samples)
	}
	if im.Tiling != vk.TilingOptimal && im.Tiling != vk.TilingLinear {
		return fail(RuleField, "unknown tiling %d", im.Tiling)
	}
	switch {
	case im.Depth > 1 && im.ArrayLayers > 1:
		return fail(RuleImageType, "a 3D image (depth %d) must have 1 array layer, not %d", im.Depth, im.ArrayLayers)
	case im.Samples > 1 && (im.Depth > 1 || im.MipLevels > 1 || im.Tiling != vk.TilingOptimal):
		return fail(RuleImageType, "a multisampled image (%d samples) must be a 2D optimal-tiled image with 1 mip level (depth %d, %d mip levels, tiling %s)",
			im.Samples, im.Depth, im.MipLevels, im.Tiling)
	}
	return nil
}

// errList collects errors up to a cap (0: no cap).
type errList struct {
	errs []error
	max  int
}

// add appends err and reports whether the cap is reached.
func (l *errList) add(err error) bool {
	l.errs = append(l.errs, err)
	return l.max > 0 && len(l.errs) >= l.max
}

// join returns nil, the one error, or all of them joined.
func (l *errList) join() error {
	switch len(l.errs) {
	case 0:
		return nil
	case 1:
		return l.errs[0]
	}
	return errors.Join(l.errs...)
}

// GraphErrors lists the *GraphError values err holds: err itself, or the
// errors it joins (as Validate returns several), in order. Other errors
// are left out.
func GraphErrors(err error) []*GraphError {
	var out []*GraphError
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var ge *GraphError
		if errors.As(e, &ge) {
			out = append(out, ge)
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}
