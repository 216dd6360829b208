package replay

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
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
			if simulatedDefect == defectScratch {
				cps = cps[:1]
			}
			vkg.CmdCopyImage(cb, sc.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, uint32(len(cps)), cps)
		case "calls":
			for i := range res {
				resolveInto3D(cb, ms.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, res[i:i+1])
			}
		default:
			resolveInto3D(cb, ms.img, vkg.ImageLayoutTransferSrcOptimal, vol.img, vkg.ImageLayoutTransferDstOptimal, res)
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

// The run-time check and the workaround. Before replaying a graph with a
// resolve into a 3D image, New measures the device (probeResolve3D, once
// per device and format, cached), the 3D image made as the replay makes
// its images (2D_ARRAY_COMPATIBLE):
//
//   - "resolve": one vkCmdResolveImage with a region per slice, the way
//     Vulkan allows and the replay records by default. Where it writes
//     every slice, nothing changes.
//   - "calls": one vkCmdResolveImage per slice. Where it writes every
//     slice, the replay records resolves into 3D images of that format so
//     (still vkCmdResolveImage: in the RESOLVE stage that the graph's
//     access declares and the plan's barriers name).
//   - "scratch": each slice resolved into a layer of a 2D array image of
//     the replay's own, then copied into the slice (vkCmdCopyImage). The
//     copy writes the 3D image in the COPY stage, which the plan's
//     barriers (naming RESOLVE) do not cover, so the replay chains it
//     through RESOLVE with barriers of its own on the 3D image, inside the
//     command: RESOLVE to COPY / TRANSFER_WRITE before the copy (what the
//     plan's barrier made visible to RESOLVE is visible to the copy), COPY
//     / TRANSFER_WRITE to RESOLVE after it (the plan's next barrier, from
//     RESOLVE / TRANSFER_WRITE, takes the copy's writes in its first
//     scope). The ordering the plan's barriers give the resolve they give
//     the copy, by execution and memory dependency chains.
//
// Where no way writes every slice, New refuses the command, naming the
// defect measured. On the H200 (NVIDIA 580.159.04, session 10) "resolve"
// writes slice 0 of each level only and "scratch" writes every slice.

const (
	wayRegions uint8 = iota // one call, a region per slice
	wayCalls                // one call per slice
	wayScratch              // through a 2D array image and a copy
)

// resolve3DVerdict is what the device does with resolves into 3D images
// of one format: the ways measured, in order, up to the first right one.
type resolve3DVerdict struct {
	probes []sliceProbe
}

func sliceProbeOK(s sliceProbe) bool { return len(s.Kept) == 0 && len(s.Other) == 0 }

// way is the first right way, or false.
func (v resolve3DVerdict) way() (uint8, bool) {
	for i, s := range v.probes {
		if sliceProbeOK(s) {
			return uint8(i), true
		}
	}
	return 0, false
}

type verdictKey struct {
	dev *vulkan.Device
	f   avk.Format
}

var resolve3DVerdicts sync.Map // verdictKey -> resolve3DVerdict

// resolve3DVerdictOf measures (or recalls) dev's verdict for format f;
// ok false where the probe cannot resolve f (the format checks refuse
// that, naming the feature).
func resolve3DVerdictOf(dev *vulkan.Device, f avk.Format) (resolve3DVerdict, bool, error) {
	key := verdictKey{dev, f}
	if v, ok := resolve3DVerdicts.Load(key); ok {
		return v.(resolve3DVerdict), true, nil
	}
	var v resolve3DVerdict
	for _, via := range probeWays { // resolve, calls, scratch: wayRegions, wayCalls, wayScratch
		s, why, err := probeResolve3D(dev, f, true, via)
		if err != nil || why != "" {
			return v, false, err
		}
		v.probes = append(v.probes, s)
		if sliceProbeOK(s) {
			break
		}
	}
	resolve3DVerdicts.Store(key, v)
	return v, true, nil
}

// resolve3DDevice checks every resolve into a 3D image of g against the
// device's verdict for its format: it notes the way to record each
// format in k.sliceWay, and refuses where no way writes every slice.
func (k *kit) resolve3DDevice(g *p.Graph, ws []work) error {
	check := func(w *work, dst p.ResourceID) error {
		im := &g.Resources[dst].Image
		if im.Depth == 1 {
			return nil
		}
		v, ok, err := resolve3DVerdictOf(k.dev, im.Format)
		if err != nil || !ok {
			return err
		}
		if way, ok := v.way(); ok {
			if way != wayRegions {
				if k.sliceWay == nil {
					k.sliceWay = map[avk.Format]uint8{}
				}
				k.sliceWay[im.Format] = way
			}
			return nil
		}
		cmd := &g.Commands[w.cmd]
		var ms []string
		for _, s := range v.probes {
			ms = append(ms, fmt.Sprintf("%s: kept the clear in %v, neither value in %v", s.Via, s.Kept, s.Other))
		}
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[dst].Name, Access: describe(g, findAccess(cmd, dst)),
			Reason: fmt.Sprintf("%s leaves slices of a 3D %s image unwritten by vkCmdResolveImage, and a resolve into a 2D image copied into each slice too (measured at run time on a 16x16x4 image of 2 levels; %s)",
				k.dev.Info().Name, im.Format, strings.Join(ms, "; "))}
	}
	for i := range ws {
		w := &ws[i]
		for _, op := range w.copies {
			if op.resolve {
				if err := check(w, op.dst); err != nil {
					return err
				}
			}
		}
		for _, op := range w.lone {
			if op.via == viaResolve && !op.read {
				if err := check(w, op.res); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// cmdResolve records the resolve of regions from src into dst (format
// f, 3D or not) the way k.sliceWay says for f: one call, one per region,
// or through scratch (a 2D array image of the replay's own with a layer
// per region, made at the first use: r.scratch3D).
func (m *mode) cmdResolve(cb vkg.CommandBuffer, src vkg.Image, sl vkg.ImageLayout, dst vkg.Image, dl vkg.ImageLayout, regions []vkg.ImageResolve, f avk.Format, is3D bool) {
	r, k := m.r, m.r.k
	way := k.sliceWay[f]
	if noSliceCalls {
		way = wayRegions
	}
	switch {
	case !is3D:
		vkg.CmdResolveImage(cb, src, sl, dst, dl, uint32(len(regions)), regions)
	case way == wayRegions:
		resolveInto3D(cb, src, sl, dst, dl, regions)
	case way == wayCalls:
		for i := range regions {
			resolveInto3D(cb, src, sl, dst, dl, regions[i:i+1])
		}
	default:
		if err := r.resolveViaScratch(cb, src, sl, dst, dl, regions, f); err != nil && m.recErr == nil {
			m.recErr = err
		}
	}
}

// scratchKey names a scratch image: its description and the 3D image it
// is copied into. Resolves into one 3D image in one frame share it, in
// order (its first barrier waits for the earlier copy's reads).
type scratchKey struct {
	d   p.ImageDesc
	dst vkg.Image
}

// resolveViaScratch records wayScratch (see above).
func (r *Replayer) resolveViaScratch(cb vkg.CommandBuffer, src vkg.Image, sl vkg.ImageLayout, dst vkg.Image, dl vkg.ImageLayout, regions []vkg.ImageResolve, f avk.Format) error {
	k := r.k
	d := p.ImageDesc{Format: f, Depth: 1, MipLevels: 1, ArrayLayers: uint32(len(regions)), Samples: 1, Tiling: avk.TilingOptimal}
	mip0, mip1 := ^uint32(0), uint32(0)
	for _, rg := range regions {
		d.Width, d.Height = max(d.Width, rg.Extent.Width), max(d.Height, rg.Extent.Height)
		mip0, mip1 = min(mip0, rg.DstSubresource.MipLevel), max(mip1, rg.DstSubresource.MipLevel)
	}
	if r.scratch3D == nil {
		r.scratch3D = map[scratchKey]vkg.Image{}
	}
	key := scratchKey{d, dst}
	sc, ok := r.scratch3D[key]
	if !ok {
		img, err := k.newImage(&d, vkg.ImageUsageFlags(vkg.ImageUsageTransferSrcBit|vkg.ImageUsageTransferDstBit))
		if err != nil {
			return err
		}
		sc = img.img
		r.scratch3D[key] = sc
	}
	var res []vkg.ImageResolve
	var cps []vkg.ImageCopy
	col := vkg.ImageAspectFlags(aspectColor)
	for i, rg := range regions {
		layer := vkg.ImageSubresourceLayers{AspectMask: col, BaseArrayLayer: uint32(i), LayerCount: 1}
		res = append(res, vkg.ImageResolve{SrcSubresource: rg.SrcSubresource, SrcOffset: rg.SrcOffset, DstSubresource: layer, Extent: rg.Extent})
		cps = append(cps, vkg.ImageCopy{SrcSubresource: layer, DstSubresource: rg.DstSubresource, DstOffset: rg.DstOffset, Extent: rg.Extent})
	}
	tw, trd := avk.AccessTransferWrite, avk.AccessTransferRead
	rs, cp := avk.StageResolve, avk.StageCopy
	dstBar := func(ss avk.Stage, sa avk.AccessFlags, ds avk.Stage, da avk.AccessFlags) vkext.ImageBarrier {
		b := imageBarrier(dst, aspectColor, ss, sa, ds, da, avk.Layout(dl), avk.Layout(dl))
		b.BaseMip, b.Mips = mip0, mip1-mip0+1
		return b
	}
	// From COPY: an earlier resolve of the frame through this scratch image
	// (into the same 3D image) read it there.
	k.hooks.Barrier(cb, &vkext.Barriers{Image: []vkext.ImageBarrier{imageBarrier(sc, aspectColor, cp, avk.AccessNone, rs, tw, avk.LayoutUndefined, avk.LayoutTransferDstOptimal)}})
	vkg.CmdResolveImage(cb, src, sl, sc, vkg.ImageLayoutTransferDstOptimal, uint32(len(res)), res)
	k.hooks.Barrier(cb, &vkext.Barriers{Image: []vkext.ImageBarrier{
		imageBarrier(sc, aspectColor, rs, tw, cp, trd, avk.LayoutTransferDstOptimal, avk.LayoutTransferSrcOptimal),
		dstBar(rs, avk.AccessNone, cp, tw), // the plan's barrier to RESOLVE, chained on to the copy
	}})
	vkg.CmdCopyImage(cb, sc, vkg.ImageLayoutTransferSrcOptimal, dst, dl, uint32(len(cps)), cps)
	k.hooks.Barrier(cb, &vkext.Barriers{Image: []vkext.ImageBarrier{dstBar(cp, tw, rs, tw)}}) // the copy's writes, back into RESOLVE for the plan's next barrier
	return nil
}

// Test knobs (resolve3d_test.go): simulatedDefect makes every
// vkCmdResolveImage into a 3D image record a driver's defect on any
// device, so that the probe, the workaround and the refusal can be tested
// on lavapipe: defectFirstRegion records only a call's first region (a
// driver writing one slice per call), defectSlices drops every region
// with dstOffset.z > 0 (a driver writing slice 0 only; the scratch way
// resolves into 2D layers, untouched). noSliceCalls records the resolve
// as one call whatever the verdict. defectScratch also fails the probe's
// scratch way (its copies dropped), for the refusal.
const (
	defectNone = iota
	defectFirstRegion
	defectSlices
	defectScratch
)

var (
	simulatedDefect int
	noSliceCalls    bool
)

// resolveInto3D is vkCmdResolveImage into a 3D image (or the probe's).
func resolveInto3D(cb vkg.CommandBuffer, src vkg.Image, sl vkg.ImageLayout, dst vkg.Image, dl vkg.ImageLayout, regions []vkg.ImageResolve) {
	switch simulatedDefect {
	case defectFirstRegion:
		regions = regions[:min(len(regions), 1)]
	case defectSlices, defectScratch:
		var keep []vkg.ImageResolve
		for _, r := range regions {
			if r.DstOffset.Z == 0 {
				keep = append(keep, r)
			}
		}
		regions = keep
	}
	if len(regions) > 0 {
		vkg.CmdResolveImage(cb, src, sl, dst, dl, uint32(len(regions)), regions)
	}
}
