package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Texel buffers and unsigned 3D images.
//
// A shader read of a buffer with UNIFORM_TEXEL_BUFFER usage that is no
// storage or uniform buffer (SHADER_SAMPLED_READ, or SHADER_READ) is a
// uniform texel buffer read (texelFetch of a usamplerBuffer); storage
// reads and writes of a buffer with STORAGE_TEXEL_BUFFER usage and no
// STORAGE_BUFFER usage are storage texel buffer reads and writes
// (imageLoad/imageStore of a uimageBuffer). The model gives buffers no
// format, so every view is R32_UINT over the whole buffer (size/4 texels,
// like a storage buffer's words); the device must support R32_UINT as a
// uniform or storage texel buffer (vkGetPhysicalDeviceFormatProperties
// bufferFeatures) and size/4 may not pass maxTexelBufferElements.
//
// Unsigned 3D images get their own arrays: usampler3D, a readonly r32ui
// image3D (storage reads need a format qualifier on lavapipe, as for 2D),
// a writeonly uimage3D.

// texelFormat is the format of every texel buffer view.
const texelFormat = vk.FormatR32Uint

// addTexelBuffer adds the texel-buffer accesses among *acc to the part
// and clears them from *acc; done says nothing is left for the storage
// and uniform buffer paths.
func addTexelBuffer(r *p.Resource, acc *vk.AccessFlags, add func(category, slot, uint32) error, bad func(string, ...any) error) (done bool, err error) {
	u := r.Buffer.Usage
	s := slot{w: uint32(r.Buffer.Size / 4), h: 1, d: 1}
	if *acc&vk.AccessShaderSampledRead != 0 {
		if u&vk.BufferUsageUniformTexelBuffer == 0 {
			return true, bad("a sampled read of a buffer is a uniform texel buffer read: it needs UNIFORM_TEXEL_BUFFER usage (Vulkan)")
		}
		if r.Buffer.Size < 4 {
			return true, bad("a texel buffer needs at least one 32-bit texel")
		}
		if err := add(catUTB, s, fRead); err != nil {
			return true, err
		}
		*acc &^= vk.AccessShaderSampledRead
	}
	storage := *acc & (vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite)
	if storage != 0 && u&vk.BufferUsageStorageBuffer == 0 && u&vk.BufferUsageStorageTexelBuffer != 0 {
		if r.Buffer.Size < 4 {
			return true, bad("a texel buffer needs at least one 32-bit texel")
		}
		if storage&vk.AccessShaderStorageRead != 0 {
			if err := add(catSTB, s, fRead); err != nil {
				return true, err
			}
		}
		if storage&vk.AccessShaderStorageWrite != 0 {
			if err := add(catSTBW, s, fWrite); err != nil {
				return true, err
			}
		}
		*acc &^= storage
	}
	return *acc&(vk.AccessUniformRead|vk.AccessShaderStorageRead|vk.AccessShaderStorageWrite) == 0, nil
}

// isTexel says whether c is a texel-buffer array.
func (c category) isTexel() bool { return c == catUTB || c == catSTB || c == catSTBW }

// texelFeatures names what the device lacks for the texel buffers of ws.
func (k *kit) texelFeatures(g *p.Graph, ws []work) error {
	var fp vkg.FormatProperties
	vkg.GetPhysicalDeviceFormatProperties(k.dev.Physical(), vkg.Format(texelFormat), &fp)
	fp.Deref()
	for i := range ws {
		for _, pt := range ws[i].allParts() {
			if pt == nil {
				continue
			}
			for _, s := range pt.slots {
				if !s.cat.isTexel() {
					continue
				}
				bit, what := vkg.FormatFeatureUniformTexelBufferBit, "uniform-texel-buffer"
				if s.cat != catUTB {
					bit, what = vkg.FormatFeatureStorageTexelBufferBit, "storage-texel-buffer"
				}
				cmd := &g.Commands[ws[i].cmd]
				res := &g.Resources[s.res]
				if fp.BufferFeatures&vkg.FormatFeatureFlags(bit) == 0 {
					return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, s.res)),
						Reason: fmt.Sprintf("%s has no %s support for format %s (the replay's texel buffer views are %s)", k.dev.Info().Name, what, texelFormat, texelFormat)}
				}
				if s.w > k.limits.MaxTexelBufferElements {
					return &UnsupportedError{Command: cmd.Name, Resource: res.Name, Access: describe(g, findAccess(cmd, s.res)),
						Reason: fmt.Sprintf("%d texels pass %s's maxTexelBufferElements (%d)", s.w, k.dev.Info().Name, k.limits.MaxTexelBufferElements)}
				}
			}
		}
	}
	return nil
}

// bufView returns the mode's R32_UINT view of buffer id (whole 32-bit
// words).
func (m *mode) bufView(id p.ResourceID) (vkg.BufferView, error) {
	if v, ok := m.bufViews[id]; ok {
		return v, nil
	}
	buf, _ := m.handle(id)
	info := vkg.BufferViewCreateInfo{SType: vkg.StructureTypeBufferViewCreateInfo, Buffer: buf, Format: vkg.Format(texelFormat),
		Range: vkg.DeviceSize(m.r.g.Resources[id].Buffer.Size / 4 * 4)}
	var v vkg.BufferView
	res := vkg.CreateBufferView(m.r.k.vd, &info, nil, &v)
	info.Free()
	if err := vkCheck("vkCreateBufferView "+m.r.g.Resources[id].Name, res); err != nil {
		return vkg.NullBufferView, err
	}
	if m.bufViews == nil {
		m.bufViews = map[p.ResourceID]vkg.BufferView{}
	}
	m.bufViews[id] = v
	return v, nil
}

func (m *mode) closeBufViews() {
	for _, v := range m.bufViews {
		vkg.DestroyBufferView(m.r.k.vd, v, nil)
	}
	m.bufViews = nil
}
