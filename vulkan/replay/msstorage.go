package replay

import (
	"fmt"
	"strings"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Multisampled storage images (shaderStorageImageMultisample, which
// vulkan.Config{Replay: true} enables where the device has it): read with
// imageLoad of an image2DMS (one slot per layer, a 2D view, element z its
// sample, as for sampled multisampled images) and written with imageStore
// (format-less, writeonly image2DMS / uimage2DMS), in vertex and fragment
// shaders. Reads need a format qualifier on lavapipe (no
// shaderStorageImageReadWithoutFormat): RGBA8, RGBA16F, R32F and R32UI
// have arrays. The device must have the feature, STORAGE_IMAGE support
// for the format, and the sample count in storageImageSampleCounts.

func (c category) isMSStorage() bool {
	return c >= catIMSRGBA8 && c <= catIWMSU || c >= catNFMS && c <= catNFMSI || c == catIWMSI // fmtless.go, sint.go
}

// msStorageRead is the read array for a format.
func msStorageRead(f vk.Format) (category, bool) {
	for c := catIMSRGBA8; c <= catIMSR32UI; c++ {
		if cats[c].format == f {
			return c, true
		}
	}
	return 0, false
}

func addMSStorage(w *work, st stage, im *p.ImageDesc, acc vk.AccessFlags, add func(category, slot, uint32) error, bad func(string, ...any) error) error {
	s := slot{w: im.Width, h: im.Height, d: im.Samples, aspect: aspectColor}
	for l := uint32(0); l < im.ArrayLayers; l++ {
		s.layer = int32(l)
		if acc&vk.AccessShaderStorageRead != 0 {
			c, ok := msStorageRead(im.Format)
			if !ok {
				c, ok = fmtlessCategory(im.Format, false, true, st) // fmtless.go
			}
			if !ok {
				return bad("multisampled storage-image reads of format %s have no shader array (RGBA8, RGBA16F, R32F and R32UI do: lavapipe reads storage images only with a format qualifier)", im.Format)
			}
			if err := add(c, s, fRead); err != nil {
				return err
			}
		}
		if acc&vk.AccessShaderStorageWrite != 0 {
			c := catIWMS
			switch {
			case isUintFormat(im.Format):
				c = catIWMSU
			case isSintFormat(im.Format):
				c = catIWMSI // sint.go: compute only
			}
			if err := add(c, s, fWrite); err != nil {
				return err
			}
		}
	}
	return nil
}

// msStorageFeatures names what the device lacks for the multisampled
// storage images of ws.
func (k *kit) msStorageFeatures(g *p.Graph, ws []work) error {
	var f vkg.PhysicalDeviceFeatures
	vkg.GetPhysicalDeviceFeatures(k.dev.Physical(), &f)
	f.Deref()
	for i := range ws {
		for _, pt := range ws[i].allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if !s.cat.isMSStorage() {
					continue
				}
				cmd := &g.Commands[ws[i].cmd]
				res := &g.Resources[s.res]
				why := ""
				switch {
				case f.ShaderStorageImageMultisample != vkg.True:
					why = fmt.Sprintf("%s lacks the shaderStorageImageMultisample feature", k.dev.Info().Name)
				case uint32(k.limits.StorageImageSampleCounts)&res.Image.Samples == 0:
					why = fmt.Sprintf("%s's storageImageSampleCounts (%#x) has no %d×", k.dev.Info().Name, uint32(k.limits.StorageImageSampleCounts), res.Image.Samples)
				}
				if why != "" {
					return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, s.res)), Reason: why}
				}
			}
		}
	}
	return nil
}

// needsExtra says whether a part with masks m needs the *_x shader
// variant (common.glsl's EXTRA): unsigned 3D images, texel buffers,
// multisampled storage images, or (graphics) storage writes.
func needsExtra(m specMasks, graphics bool) bool {
	for c := catS3U; c < numCategories; c++ {
		if m[c] != 0 {
			return true
		}
	}
	return graphics && m[catSBW]|m[catIW]|m[catIWU]|m[catIW3] != 0
}

// variant names the *_x module of name when extra.
func variant(name string, extra bool) string {
	if !extra {
		return name
	}
	return strings.TrimSuffix(name, ".spv") + "_x.spv"
}
