package replay

import (
	"fmt"
	"strings"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Format-less storage-image reads: a storage read of a format that has no
// format-qualified array (analyze.go, storageformats.go, msstorage.go)
// goes, in the compute, vertex and fragment stages, to an array declared
// without a format qualifier (common.glsl's NOFMT: float, unsigned and
// signed arrays of 2D array, 3D and multisampled images, bindings 40-48).
// Only the *_nf variants declare them: comp_nf.spv, comp_ms_nf.spv,
// vert_nf.spv, vert_attr_nf.spv and frag_f8_u0_nf.spv (one fragment
// variant, not a family per colour-output mix: it has float outputs
// only, so a fragment part with format-less reads in a command with an
// unsigned colour attachment is refused, not built). Only devices with
// shaderStorageImageReadWithoutFormat (which Config.Replay enables where
// present) get the bindings and the modules, and the vertex and fragment
// ones only where the graphics pipeline layouts stay within the device's
// storage-image limits with them (queried: lavapipe 22.3's 64 a stage and
// 256 a layout would not hold them; lavapipe 25 and the H200 do).
// Elsewhere such a read is refused naming the feature or limit as
// queried; the tessellation, geometry and mesh stages have no format-less
// arrays (not built: docs/replay.md).

// fmtlessCategory is the format-less read array for format f in stage st.
func fmtlessCategory(f vk.Format, is3D, ms bool, st stage) (category, bool) {
	if st != stCompute && st != stVertex && st != stFragment || f.IsDepthStencil() {
		return 0, false
	}
	c := catNF2
	switch {
	case ms:
		c = catNFMS
	case is3D:
		c = catNF3
	}
	name := f.String()
	switch {
	case strings.Contains(name, "_UINT"):
		c++
	case isSintFormat(f): // sint.go
		c += 2
	}
	return c, true
}

func (c category) isFmtless() bool { return c >= catNF2 && c <= catNFMSI }

// usesFmtless says whether a part with masks m has a format-less slot.
func usesFmtless(m specMasks) bool {
	for c := catNF2; c <= catNFMSI; c++ {
		if m[c] != 0 {
			return true
		}
	}
	return false
}

// fmtlessGfxModule names the vertex or fragment module for a part with
// masks m: name's *_nf variant where it has a format-less slot.
func fmtlessGfxModule(name string, m specMasks) (string, bool) {
	if !usesFmtless(m) {
		return name, false
	}
	return strings.TrimSuffix(strings.TrimSuffix(name, "_x.spv"), ".spv") + "_nf.spv", true
}

// fmtlessModule names the compute module for a part with format-less
// slots: comp_ms_nf.spv where it also has a multisampled one.
func fmtlessModule(m specMasks) string {
	if usesMS(m) || m[catNFMS]|m[catNFMSU]|m[catNFMSI] != 0 {
		return "comp_ms_nf.spv"
	}
	return "comp_nf.spv"
}

// hasUintColor says whether w has an unsigned colour attachment.
func hasUintColor(w *work) bool {
	for _, a := range w.colors {
		if a.uint {
			return true
		}
	}
	return false
}

// readWithoutFormat queries shaderStorageImageReadWithoutFormat.
func readWithoutFormat(dev *vulkan.Device) bool {
	var f vkg.PhysicalDeviceFeatures
	vkg.GetPhysicalDeviceFeatures(dev.Physical(), &f)
	f.Deref()
	return f.ShaderStorageImageReadWithoutFormat == vkg.True
}

// fmtlessOn says whether stage st gets the format-less arrays.
func (k *kit) fmtlessOn(st stage) bool {
	switch st {
	case stCompute:
		return k.nofmt
	case stVertex, stFragment:
		return k.nofmtGfx
	}
	return false
}

// storageImages counts the descriptors of st's set that count against
// the storage-image limits (storage images and storage texel buffers),
// with or without the vertex and fragment format-less arrays.
func (k *kit) storageImages(st stage, gfxNF bool) int {
	n := 0
	for c := category(0); c < numCategories; c++ {
		if t := c.descriptorType(); t != vkg.DescriptorTypeStorageImage && t != vkg.DescriptorTypeStorageTexelBuffer {
			continue
		}
		if c.isFmtless() && st != stCompute {
			if gfxNF {
				n += c.size(st)
			}
			continue
		}
		n += k.size(c, st)
	}
	return n
}

// fmtlessGfxFits says whether the vertex and fragment format-less arrays
// keep every graphics pipeline layout within the device's
// maxPerStageDescriptorStorageImages and maxDescriptorSetStorageImages:
// the largest layout has the vertex, tessellation, geometry and fragment
// sets (prerast.go).
func (k *kit) fmtlessGfxFits() bool {
	total := 0
	for _, st := range []stage{stVertex, stTessControl, stTessEval, stGeometry, stFragment} {
		n := k.storageImages(st, true)
		if n > int(k.limits.MaxPerStageDescriptorStorageImages) {
			return false
		}
		total += n
	}
	return total <= int(k.limits.MaxDescriptorSetStorageImages)
}

// skipFmtlessModule: the NOFMT modules exist only where the device has
// the feature (comp_ms_nf.spv only where compute may declare
// multisampled images, msaacompute.go; the vertex and fragment ones only
// where their arrays fit the device's limits).
func (k *kit) skipFmtlessModule(name string) bool {
	switch name {
	case "comp_nf.spv":
		return !k.nofmt
	case "comp_ms_nf.spv":
		return !k.nofmt || k.noMSCompute()
	case "vert_nf.spv", "vert_attr_nf.spv", "frag_f8_u0_nf.spv":
		return !k.nofmtGfx
	}
	return false
}

// fmtlessDevice refuses format-less reads on a device without the
// feature, naming it as queried.
func (k *kit) fmtlessDevice(g *p.Graph, ws []work) error {
	for i := range ws {
		for _, pt := range ws[i].allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if !s.cat.isFmtless() || k.fmtlessOn(pt.stage) && !(pt.stage == stFragment && hasUintColor(&ws[i])) {
					continue
				}
				cmd := &g.Commands[ws[i].cmd]
				res := &g.Resources[s.res]
				why := fmt.Sprintf("%s lacks shaderStorageImageReadWithoutFormat (queried), which the format-less read path (*_nf.spv) needs", k.dev.Info().Name)
				switch {
				case !k.nofmt:
				case pt.stage == stFragment && k.nofmtGfx:
					why = "the fragment stage's format-less read variant (frag_f8_u0_nf.spv) has float colour outputs only, and the command has an unsigned colour attachment (not built: docs/replay.md)"
				default:
					why = fmt.Sprintf("%s has shaderStorageImageReadWithoutFormat, but its limits (maxPerStageDescriptorStorageImages %d, maxDescriptorSetStorageImages %d, queried) cannot hold the vertex and fragment format-less arrays in the graphics pipeline layouts",
						k.dev.Info().Name, k.limits.MaxPerStageDescriptorStorageImages, k.limits.MaxDescriptorSetStorageImages)
				}
				return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, s.res)),
					Reason: fmt.Sprintf("storage-image reads of format %s in the %s stage have no format-qualified array, and %s", res.Image.Format, stageNames[pt.stage], why)}
			}
		}
	}
	return nil
}
