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
// goes, in the compute stage, to an array declared without a format
// qualifier (common.glsl's NOFMT: float, unsigned and signed arrays of 2D
// array, 3D and multisampled images, bindings 40-48). Only the
// comp_nf.spv and comp_ms_nf.spv variants declare them (the NOFMT
// shaders' Params holds 147 slots, the others' 132: the buffer is sized
// for the larger), and only devices with
// shaderStorageImageReadWithoutFormat (which Config.Replay enables where
// present) get the bindings and the modules. Elsewhere such a read is
// refused naming the feature as queried; in the other stages the replay
// has no format-less arrays (not built: docs/replay.md).

// fmtlessCategory is the format-less read array for format f in stage st.
func fmtlessCategory(f vk.Format, is3D, ms bool, st stage) (category, bool) {
	if st != stCompute || f.IsDepthStencil() {
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
	case strings.Contains(name, "_SINT"):
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

func (k *kit) fmtlessOn() bool { return k.nofmt }

// skipFmtlessModule: the NOFMT modules exist only where the device has
// the feature (and comp_ms_nf.spv only where compute may declare
// multisampled images, msaacompute.go).
func (k *kit) skipFmtlessModule(name string) bool {
	switch name {
	case "comp_nf.spv":
		return !k.nofmt
	case "comp_ms_nf.spv":
		return !k.nofmt || k.noMSCompute()
	}
	return false
}

// fmtlessDevice refuses format-less reads on a device without the
// feature, naming it as queried.
func (k *kit) fmtlessDevice(g *p.Graph, ws []work) error {
	if k.nofmt {
		return nil
	}
	for i := range ws {
		for _, pt := range ws[i].allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if !s.cat.isFmtless() {
					continue
				}
				cmd := &g.Commands[ws[i].cmd]
				res := &g.Resources[s.res]
				return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, s.res)),
					Reason: fmt.Sprintf("storage-image reads of format %s have no format-qualified array, and %s lacks shaderStorageImageReadWithoutFormat (queried), which the format-less read path (comp_nf.spv) needs", res.Image.Format, k.dev.Info().Name)}
			}
		}
	}
	return nil
}
