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
// goes, in the compute, vertex, fragment, tessellation, geometry, task
// and mesh stages, to an array declared without a format qualifier
// (common.glsl's NOFMT: float, unsigned and signed arrays of 2D array, 3D
// and multisampled images, bindings 40-48). Only the *_nf variants
// declare them: comp_nf.spv, comp_ms_nf.spv, vert_nf.spv,
// vert_attr_nf.spv, the fragment family frag_f*_u*_nf.spv (one a
// colour-output mix, like the plain family: float and unsigned colour
// attachments), tesc_nf.spv, tese_nf.spv, geom_nf.spv, task_nf.spv,
// mesh_nf.spv, mesh_t_nf.spv and rgen_slots_nf.spv (ray generation,
// raygen.go) (issue 21, session 13). Only devices with
// shaderStorageImageReadWithoutFormat (which Config.Replay enables where
// present) get the bindings and the modules; the vertex and fragment ones
// only where the graphics pipeline layouts stay within the device's
// storage-image limits with them, and the tessellation, geometry, task,
// mesh and ray generation ones only where the five-set, mesh and ray
// generation layouts do with every stage's (queried: lavapipe 22.3's 64
// a stage and 256 a layout would not hold them; lavapipe 25 and the H200
// do). Elsewhere such a read is refused naming the feature or limit as
// queried.

// fmtlessCategory is the format-less read array for format f in stage st.
func fmtlessCategory(f vk.Format, is3D, ms bool, st stage) (category, bool) {
	if !fmtlessStage(st) || f.IsDepthStencil() {
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

// fmtlessStage says whether stage st has *_nf variants: every shader
// stage of the slot arrays (not the ray-query and generated-dispatch
// parts, which have none).
func fmtlessStage(st stage) bool { return st <= stMesh || st == stRayGen }

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

// fmtlessGfxModule names the module of a part with masks m outside
// compute (vertex, fragment, tessellation, geometry, task, mesh, ray
// generation): name's *_nf variant where it has a format-less slot.
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
	return fmtlessStage(st) && k.nofmtPre
}

// fmtlessPreModule says whether name is a tessellation, geometry, task,
// mesh or ray generation *_nf module.
func fmtlessPreModule(name string) bool {
	for _, s := range []string{"tesc_", "tese_", "geom_", "task_", "mesh_", "rgen_"} {
		if strings.HasPrefix(name, s) && strings.HasSuffix(name, "_nf.spv") {
			return true
		}
	}
	return false
}

// storageImages counts the descriptors of st's set that count against
// the storage-image limits (storage images and storage texel buffers),
// with or without st's format-less arrays (nf).
func (k *kit) storageImages(st stage, nf bool) int {
	n := 0
	for c := category(0); c < numCategories; c++ {
		if t := c.descriptorType(); t != vkg.DescriptorTypeStorageImage && t != vkg.DescriptorTypeStorageTexelBuffer {
			continue
		}
		if c.isFmtless() && st != stCompute {
			if nf {
				n += c.size(st)
			}
			continue
		}
		n += k.size(c, st)
	}
	return n
}

// fmtlessGfxFits says whether the format-less arrays keep every graphics
// pipeline layout within the device's maxPerStageDescriptorStorageImages
// and maxDescriptorSetStorageImages: with pre false, those of the vertex
// and fragment stages in the largest layout (the vertex, tessellation,
// geometry and fragment sets, prerast.go); with pre true, those of every
// stage, in that layout, in the mesh layout (mesh, fragment and task
// sets, mesh.go) and in the ray generation one (its one set, raygen.go).
func (k *kit) fmtlessGfxFits(pre bool) bool {
	fits := func(stages ...stage) bool {
		total := 0
		for _, st := range stages {
			n := k.storageImages(st, pre || st == stVertex || st == stFragment)
			if n > int(k.limits.MaxPerStageDescriptorStorageImages) {
				return false
			}
			total += n
		}
		return total <= int(k.limits.MaxDescriptorSetStorageImages)
	}
	return fits(stVertex, stTessControl, stTessEval, stGeometry, stFragment) && (!pre || fits(stMesh, stFragment, stTask) && fits(stRayGen))
}

// skipFmtlessModule: the NOFMT modules exist only where the device has
// the feature (comp_ms_nf.spv only where compute may declare
// multisampled images, msaacompute.go; the vertex and fragment ones only
// where their arrays fit the device's limits, the tessellation,
// geometry, task, mesh and ray generation ones only where every stage's
// do).
func (k *kit) skipFmtlessModule(name string) bool {
	switch name {
	case "comp_nf.spv":
		return !k.nofmt
	case "comp_ms_nf.spv":
		return !k.nofmt || k.noMSCompute()
	}
	switch {
	case strings.HasPrefix(name, "vert_") && strings.HasSuffix(name, "_nf.spv"), strings.HasPrefix(name, "frag_") && strings.HasSuffix(name, "_nf.spv"):
		return !k.nofmtGfx
	case fmtlessPreModule(name):
		return !k.nofmtPre
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
				if !s.cat.isFmtless() || k.fmtlessOn(pt.stage) {
					continue
				}
				cmd := &g.Commands[ws[i].cmd]
				res := &g.Resources[s.res]
				why := fmt.Sprintf("%s lacks shaderStorageImageReadWithoutFormat (queried), which the format-less read path (*_nf.spv) needs", k.dev.Info().Name)
				switch {
				case !k.nofmt:
				case k.nofmtGfx:
					why = fmt.Sprintf("%s has shaderStorageImageReadWithoutFormat, but its limits (maxPerStageDescriptorStorageImages %d, maxDescriptorSetStorageImages %d, queried) cannot hold every stage's format-less arrays in the five-set, mesh and ray generation pipeline layouts (the vertex and fragment stages' fit)",
						k.dev.Info().Name, k.limits.MaxPerStageDescriptorStorageImages, k.limits.MaxDescriptorSetStorageImages)
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
