package replay

import (
	"bytes"
	"fmt"
	"unsafe"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Resolves into 3D images (issue 21, session 10). Vulkan resolves into a
// 3D destination one slice at a time: srcSubresource layer 0, layerCount
// 1, extent.depth 1, dstOffset.z the slice (VUID-vkCmdResolveImage-
// srcImage-04446, -04447). On the H200 the generated frames whose 3D
// image is a resolve destination (the stand-in-transfers kind) read other
// bytes aliased than unaliased; the suspect is a driver that writes only
// some slices. probeResolve3D measures it on the device, with images of
// its own and nothing of a graph: the 3D image is cleared to one value,
// a 2D multisampled image to another, every slice of every level is
// resolved into, and the read-back says which slices still hold the
// clear.

// sliceProbe is one measurement of probeResolve3D.
type sliceProbe struct {
	Format avk.Format
	Compat bool     // the 3D image made 2D_ARRAY_COMPATIBLE, as the replay's 3D images are (kit.newImage)
	Via    string   // "resolve": one vkCmdResolveImage, a region per slice; "calls": a vkCmdResolveImage per slice; "scratch": resolve into a 2D image, vkCmdCopyImage into each slice
	Slices int      // slices of every level written to
	Kept   []string // "level L slice Z" still holding the 3D image's clear value
	Other  []string // slices holding neither the clear nor the resolved value, with how many texels differ
}

func (s sliceProbe) String() string {
	return fmt.Sprintf("%s (2D_ARRAY_COMPATIBLE %v) by %s: %d slices, kept %v, other %v", s.Format, s.Compat, s.Via, s.Slices, s.Kept, s.Other)
}

// probeFormats are the colour formats of the replay's resolves into 3D
// images (proptest's stand-in-transfers kind and vulkan/replay's transfer
// frames use R8G8B8A8_UNORM) and the other sizes and kinds it resolves.
var probeFormats = []avk.Format{avk.FormatR8G8B8A8Unorm, avk.FormatR16G16B16A16Sfloat, avk.FormatR32Uint, avk.FormatR32G32B32A32Sfloat, avk.FormatR8Unorm}

// probeKit is the part of kit the probe needs (memory types, sharing,
// barriers), with its own images and buffers, destroyed by free.
func probeKit(dev *vulkan.Device) (*kit, error) {
	hooks, ok := dev.Replay()
	if !ok {
		return nil, fmt.Errorf("replay: the device was not opened with vulkan.Config{Replay: true}")
	}
	return &kit{dev: dev, vd: dev.Handle(), hooks: hooks, types: dev.MemoryTypes()}, nil
}

func (k *kit) freeOwn() {
	vkg.DeviceWaitIdle(k.vd)
	for _, im := range k.images {
		vkg.DestroyImage(k.vd, im.img, nil)
		if im.mem != vkg.NullDeviceMemory {
			vkg.FreeMemory(k.vd, im.mem, nil)
		}
	}
	for _, b := range k.buffers {
		vkg.DestroyBuffer(k.vd, b.buf, nil)
		if b.mem != vkg.NullDeviceMemory {
			vkg.FreeMemory(k.vd, b.mem, nil)
		}
	}
	k.images, k.buffers = nil, nil
}

// newImageFlags is kit.newImage with the create flags given (a 3D image
// 2D_ARRAY_COMPATIBLE only when compat).
func (k *kit) newImageFlags(im *p.ImageDesc, usage vkg.ImageUsageFlags, compat bool) (ownImage, error) {
	if im.Depth == 1 || compat {
		return k.newImage(im, usage)
	}
	info := vkg.ImageCreateInfo{SType: vkg.StructureTypeImageCreateInfo, ImageType: vkg.ImageType3d, Format: vkg.Format(im.Format),
		Extent: vkg.Extent3D{Width: im.Width, Height: im.Height, Depth: im.Depth}, MipLevels: im.MipLevels, ArrayLayers: 1,
		Samples: vkg.SampleCount1Bit, Tiling: vkg.ImageTilingOptimal, Usage: usage, InitialLayout: vkg.ImageLayoutUndefined}
	info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
	var img vkg.Image
	r := vkg.CreateImage(k.vd, &info, nil, &img)
	info.Free()
	if err := vkCheck("vkCreateImage", r); err != nil {
		return ownImage{}, err
	}
	oi := ownImage{img: img}
	var req vkg.MemoryRequirements
	vkg.GetImageMemoryRequirements(k.vd, img, &req)
	req.Deref()
	t, err := k.memoryType(req.MemoryTypeBits, false, false)
	if err == nil {
		oi.mem, err = k.allocate(uint64(req.Size), t)
	}
	if err == nil {
		err = vkCheck("vkBindImageMemory", vkg.BindImageMemory(k.vd, img, oi.mem, 0))
	}
	k.images = append(k.images, oi)
	return oi, err
}

// probeClear is a clear value of format f: fill (the 3D image's) or the
// multisampled image's, distinct in every format of probeFormats.
func probeClear(f avk.Format, fill bool) *vkg.ClearColorValue {
	var cv vkg.ClearColorValue
	bits := (*[4]uint32)(unsafe.Pointer(&cv))
	switch {
	case f == avk.FormatR32Uint && fill:
		*bits = [4]uint32{0x5eed0001, 7, 11, 13}
	case f == avk.FormatR32Uint:
		*bits = [4]uint32{0x0bad0c0d, 101, 103, 107}
	case fill: // 0.25, 0.5, 0.75, 1.0
		*bits = [4]uint32{0x3e800000, 0x3f000000, 0x3f400000, 0x3f800000}
	default: // 0.875, 0.125, 0.375, 0.625
		*bits = [4]uint32{0x3f600000, 0x3e000000, 0x3ec00000, 0x3f200000}
	}
	return &cv
}

// probeResolve3D resolves a 4-sample (or the device's next count) 2D
// image of format f into every slice of both levels of a 16x16x4 3D
// image (level 1: 8x8x2) that holds a clear value, via "resolve" or
// "scratch", and reads it back. It returns ok false (and why) where the
// device cannot resolve f.
func probeResolve3D(dev *vulkan.Device, f avk.Format, compat bool, via string) (sliceProbe, string, error) {
	out := sliceProbe{Format: f, Compat: compat, Via: via}
	k, err := probeKit(dev)
	if err != nil {
		return out, "", err
	}
	defer k.freeOwn()
	if k.optimalFeatures(f)&vkg.FormatFeatureFlags(vkg.FormatFeatureColorAttachmentBit) == 0 {
		return out, fmt.Sprintf("no colour-attachment support for %s (queried)", f), nil
	}
	counts, samples := k.msSamples(f), uint32(0)
	for _, s := range []uint32{4, 2, 8} {
		if counts&s != 0 {
			samples = s
			break
		}
	}
	if samples == 0 {
		return out, fmt.Sprintf("no multisampled %s images (queried)", f), nil
	}
	const w, h, d, mips = 16, 16, 4, 2
	tr := vkg.ImageUsageFlags(vkg.ImageUsageTransferSrcBit | vkg.ImageUsageTransferDstBit)
	msd := p.ImageDesc{Format: f, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: samples, Tiling: avk.TilingOptimal}
	vold := p.ImageDesc{Format: f, Width: w, Height: h, Depth: d, MipLevels: mips, ArrayLayers: 1, Samples: 1, Tiling: avk.TilingOptimal}
	scd := p.ImageDesc{Format: f, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1, Tiling: avk.TilingOptimal}
	ms, err := k.newImage(&msd, tr|vkg.ImageUsageFlags(vkg.ImageUsageColorAttachmentBit))
	if err != nil {
		return out, "", err
	}
	vol, err := k.newImageFlags(&vold, tr, compat)
	if err != nil {
		return out, "", err
	}
	sc, err := k.newImage(&scd, tr)
	if err != nil {
		return out, "", err
	}
	volBytes, scBytes := copyBufferBytes(&vold), copyBufferBytes(&scd)
	buf, err := k.newBuffer(2*volBytes+scBytes, vkg.BufferUsageFlags(vkg.BufferUsageTransferDstBit), true)
	if err != nil {
		return out, "", err
	}
	clear(buf.bytes())
	xfer := avk.StageAllTransfer
	tw, trd := avk.AccessTransferWrite, avk.AccessTransferRead
	dstL, srcL := avk.LayoutTransferDstOptimal, avk.LayoutTransferSrcOptimal
	bar := func(cb vkg.CommandBuffer, bs ...vkext.ImageBarrier) { k.hooks.Barrier(cb, &vkext.Barriers{Image: bs}) }
	col := vkg.ImageAspectFlags(aspectColor)
	all := []vkg.ImageSubresourceRange{{AspectMask: col, LevelCount: vkg.RemainingMipLevels, LayerCount: 1}}
	err = dev.Run(func(cb vkg.CommandBuffer) error {
		bar(cb, imageBarrier(ms.img, aspectColor, avk.StageNone, avk.AccessNone, xfer, tw, avk.LayoutUndefined, dstL),
			imageBarrier(vol.img, aspectColor, avk.StageNone, avk.AccessNone, xfer, tw, avk.LayoutUndefined, dstL),
			imageBarrier(sc.img, aspectColor, avk.StageNone, avk.AccessNone, xfer, tw, avk.LayoutUndefined, dstL))
		vkg.CmdClearColorImage(cb, vol.img, vkg.ImageLayoutTransferDstOptimal, probeClear(f, true), 1, all)
		vkg.CmdClearColorImage(cb, ms.img, vkg.ImageLayoutTransferDstOptimal, probeClear(f, false), 1, all)
		bar(cb, imageBarrier(vol.img, aspectColor, xfer, tw, xfer, trd, dstL, srcL),
			imageBarrier(ms.img, aspectColor, xfer, tw, xfer, trd, dstL, srcL))
		regions := imageSinkRegions(&vold, 0)
		vkg.CmdCopyImageToBuffer(cb, vol.img, vkg.ImageLayoutTransferSrcOptimal, buf.buf, uint32(len(regions)), regions)
		bar(cb, imageBarrier(vol.img, aspectColor, xfer, trd, xfer, tw, srcL, dstL))
		one := vkg.ImageSubresourceLayers{AspectMask: col, LayerCount: 1}
		vkg.CmdResolveImage(cb, ms.img, vkg.ImageLayoutTransferSrcOptimal, sc.img, vkg.ImageLayoutTransferDstOptimal, 1,
			[]vkg.ImageResolve{{SrcSubresource: one, DstSubresource: one, Extent: vkg.Extent3D{Width: w, Height: h, Depth: 1}}})
		bar(cb, imageBarrier(sc.img, aspectColor, xfer, tw, xfer, trd, dstL, srcL))
		var res []vkg.ImageResolve
		var cps []vkg.ImageCopy
		for l := uint32(0); l < mips; l++ {
			e := mipExtent(&vold, l)
			dl := vkg.ImageSubresourceLayers{AspectMask: col, MipLevel: l, LayerCount: 1}
			for z := uint32(0); z < e.Depth; z++ {
				out.Slices++
				ext := vkg.Extent3D{Width: e.Width, Height: e.Height, Depth: 1}
				res = append(res, vkg.ImageResolve{SrcSubresource: one, DstSubresource: dl, DstOffset: vkg.Offset3D{Z: int32(z)}, Extent: ext})
				cps = append(cps, vkg.ImageCopy{SrcSubresource: one, DstSubresource: dl, DstOffset: vkg.Offset3D{Z: int32(z)}, Extent: ext})
			}
		}
		switch via {
		case "scratch":
			vkg.CmdCopyImage(cb, sc.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, uint32(len(cps)), cps)
		case "calls":
			for i := range res {
				vkg.CmdResolveImage(cb, ms.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, 1, res[i:i+1])
			}
		default:
			vkg.CmdResolveImage(cb, ms.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, uint32(len(res)), res)
		}
		bar(cb, imageBarrier(vol.img, aspectColor, xfer, tw, xfer, trd, dstL, srcL))
		regions = imageSinkRegions(&vold, volBytes)
		vkg.CmdCopyImageToBuffer(cb, vol.img, vkg.ImageLayoutTransferSrcOptimal, buf.buf, uint32(len(regions)), regions)
		regions = imageSinkRegions(&scd, 2*volBytes)
		vkg.CmdCopyImageToBuffer(cb, sc.img, vkg.ImageLayoutTransferSrcOptimal, buf.buf, uint32(len(regions)), regions)
		k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{SrcStages: uint64(xfer), SrcAccess: uint64(tw), DstStages: uint64(avk.StageHost), DstAccess: uint64(avk.AccessHostRead)}}})
		return nil
	})
	if err != nil {
		return out, "", err
	}
	b := buf.bytes()
	bpt := copyBytes(f)
	fill, after, want := b[:volBytes], b[volBytes:2*volBytes], b[2*volBytes:2*volBytes+bpt]
	if bytes.Equal(fill[:bpt], want) {
		return out, "", fmt.Errorf("replay: probe of %s: the fill and the resolved value read back alike (%x)", f, want)
	}
	off := uint64(0)
	for l := uint32(0); l < mips; l++ {
		e := mipExtent(&vold, l)
		slice := uint64(e.Width) * uint64(e.Height) * bpt
		for z := uint64(0); z < uint64(e.Depth); z++ {
			at := off + z*slice
			kept, wrote := 0, 0
			for t := at; t < at+slice; t += bpt {
				switch {
				case bytes.Equal(after[t:t+bpt], want):
					wrote++
				case bytes.Equal(after[t:t+bpt], fill[t:t+bpt]):
					kept++
				}
			}
			name := fmt.Sprintf("level %d slice %d", l, z)
			n := int(slice / bpt)
			switch {
			case wrote == n:
			case kept == n:
				out.Kept = append(out.Kept, name)
			default:
				out.Other = append(out.Other, fmt.Sprintf("%s (%d of %d texels resolved, %d kept)", name, wrote, n, kept))
			}
		}
		off += slice * uint64(e.Depth)
	}
	return out, "", nil
}

// probeWays are the ways probeResolve3D writes the slices.
var probeWays = []string{"resolve", "calls", "scratch"}
