package vulkan

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"
	"unsafe"

	vk "github.com/goki/vulkan"

	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// oflowS10_5 is VK_FORMAT_R16G16_S10_5_NV (R16G16_SFIXED5_NV): two int16
// with 5 fractional bits, the flow-vector format the specification lists.
const oflowS10_5 = 1000464000

// TestOpticalFlowSession probes VK_NV_optical_flow outside the replay
// (which records no optical flow work; docs/replay.md, optical flow), so
// that one run on a device with the extension says what a replay of it
// would have to work with. On a second VkDevice of the test device's
// physical device, with VK_NV_optical_flow, its opticalFlow feature and
// one queue of the first family with VK_QUEUE_OPTICAL_FLOW_BIT_NV, it
// uploads an input frame A and a reference frame B (A moved 4 pixels
// right), runs one session (medium performance, no hints, temporal hints
// disabled, a cost map where the device has one) and reads the flow
// vectors back, three times: A, B; A, B again (the output must be the
// same: a digest of it must be comparable between runs); A', B (another
// input: the output must change, or a digest of it would not see a
// clobbered input). It logs the families, the formats per usage, the
// grid, the results of every call and the mean flow vector. The
// validation layer watches the second device too (openDevice fails the
// test on its messages). It skips naming the missing piece where the
// device lacks the extension, the feature or an optical-flow family
// (fails under ALIASPLAN_REQUIRE_EXT=1, the H200 scripts).
func TestOpticalFlowSession(t *testing.T) { oflowProbe(t, false) }

// TestOpticalFlowProbePlumbing runs TestOpticalFlowSession's probe on any
// device with no optical flow in it: no extension, no session, copy
// stages where the optical-flow stage would be, on the graphics family.
// It checks the probe's own plumbing (the second device, images and
// views, uploads, barriers, read-back, teardown) under the validation
// layer, here where no device has the extension; its outputs mean nothing
// and are not compared.
func TestOpticalFlowProbePlumbing(t *testing.T) { oflowProbe(t, true) }

func oflowProbe(t *testing.T, plumbing bool) {
	d := openDevice(t)
	f := ReplayHooks{d}.OpticalFlow()
	s := f.Support
	fams := ""
	for i, fl := range f.Families {
		fams += fmt.Sprintf(" %d:%#x", i, fl)
	}
	t.Logf("%s (Vulkan %s): VK_NV_optical_flow %v; queue families (VkQueueFlags, OPTICAL_FLOW=0x100):%s; the test device's graphics family %d",
		d.info.Name, d.info.API, f.Extension, fams, f.GraphicsFamily)
	limit := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("ALIASPLAN_REQUIRE_EXT") == "1" {
			t.Fatalf("ALIASPLAN_REQUIRE_EXT=1 and %s", msg)
		}
		t.Skip("SKIP (device limit, not a pass): " + msg)
	}
	dry := plumbing // TestOpticalFlowProbePlumbing
	if dry {
		t.Logf("plumbing only: no optical flow")
		f.Families = slices.Clone(f.Families)
		f.Families[f.GraphicsFamily] |= vkext.QueueOpticalFlow
		s = vkext.OpticalFlowSupport{Feature: true, OutputGridSizes: 4, Cost: true, MinWidth: 1, MinHeight: 1, MaxWidth: 4096, MaxHeight: 4096,
			Formats: map[uint32][]int32{vkext.OpticalFlowUsageInput: {int32(avk.FormatR8Unorm)}, vkext.OpticalFlowUsageOutput: {oflowS10_5},
				vkext.OpticalFlowUsageCost: {int32(avk.FormatR8Uint)}}}
	} else if !f.Extension {
		limit("%s lacks VK_NV_optical_flow (queried)", d.info.Name)
	}
	t.Logf("opticalFlow %v; output grids %#x, hint grids %#x; hint %v cost %v bidirectional %v global %v; extents %dx%d..%dx%d; regions %d; format query results %v",
		s.Feature, s.OutputGridSizes, s.HintGridSizes, s.Hint, s.Cost, s.Bidirectional, s.Global, s.MinWidth, s.MinHeight, s.MaxWidth, s.MaxHeight, s.MaxRegionsOfInterest, s.FormatErrors)
	for _, u := range []struct {
		bit  uint32
		name string
	}{{vkext.OpticalFlowUsageInput, "input"}, {vkext.OpticalFlowUsageOutput, "output"}, {vkext.OpticalFlowUsageHint, "hint"}, {vkext.OpticalFlowUsageCost, "cost"}} {
		var names []string
		for _, v := range s.Formats[u.bit] {
			names = append(names, oflowFormatName(v))
		}
		t.Logf("formats for %s: %v", u.name, names)
	}
	if !s.Feature {
		limit("%s has VK_NV_optical_flow but not its opticalFlow feature (queried)", d.info.Name)
	}
	fam := -1
	for i, fl := range f.Families {
		if fl&vkext.QueueOpticalFlow != 0 {
			fam = i
			break
		}
	}
	if fam < 0 {
		limit("%s has no queue family with VK_QUEUE_OPTICAL_FLOW_BIT_NV (queried)", d.info.Name)
	}
	if f.Families[fam]&uint32(vk.QueueTransferBit|vk.QueueGraphicsBit|vk.QueueComputeBit) == 0 {
		t.Fatalf("optical-flow family %d (%#x) has no transfer: the probe uploads and reads back on that family", fam, f.Families[fam])
	}
	if !d.info.API.atLeast(version13) {
		t.Skipf("SKIP (not a pass): %s is Vulkan %s; the probe records synchronization2 barriers as core 1.3", d.info.Name, d.info.API)
	}

	// What to run: the formats, the grid, the extent.
	pick := func(have []int32, prefer ...int32) int32 {
		for _, p := range prefer {
			if slices.Contains(have, p) {
				return p
			}
		}
		return 0
	}
	inFmt := pick(s.Formats[vkext.OpticalFlowUsageInput], int32(avk.FormatR8Unorm), int32(avk.FormatB8G8R8A8Unorm), int32(avk.FormatR8G8B8A8Unorm))
	if inFmt == 0 {
		t.Fatalf("no single-plane input format the probe can fill among %v", s.Formats[vkext.OpticalFlowUsageInput])
	}
	flowFmt := pick(s.Formats[vkext.OpticalFlowUsageOutput], oflowS10_5)
	if dry {
		flowFmt = int32(avk.FormatR32Uint) // four bytes a texel, like R16G16_S10_5_NV
	}
	if flowFmt == 0 {
		t.Fatalf("output formats %v lack R16G16_S10_5_NV, the one the probe decodes", s.Formats[vkext.OpticalFlowUsageOutput])
	}
	costFmt := int32(0)
	if s.Cost {
		costFmt = pick(s.Formats[vkext.OpticalFlowUsageCost], int32(avk.FormatR8Uint), int32(avk.FormatR32Uint))
	}
	grid := uint32(0)
	for _, g := range []uint32{4, 8, 2, 1} {
		if s.OutputGridSizes&g != 0 {
			grid = g
			break
		}
	}
	if grid == 0 {
		t.Fatalf("no output grid size reported (%#x)", s.OutputGridSizes)
	}
	w := (max(256, s.MinWidth) + 7) / 8 * 8
	h := (max(256, s.MinHeight) + 7) / 8 * 8
	if w > s.MaxWidth || h > s.MaxHeight {
		t.Fatalf("%dx%d exceeds the session's %dx%d", w, h, s.MaxWidth, s.MaxHeight)
	}
	ow, oh := w/grid, h/grid
	inTexel := uint32(avk.Format(inFmt).BytesPerBlock())
	costTexel := uint32(0)
	if costFmt != 0 {
		costTexel = uint32(avk.Format(costFmt).BytesPerBlock())
	}
	t.Logf("probe: family %d, %dx%d frames of %s, flow %dx%d of %s (grid %d), cost %s", fam, w, h, oflowFormatName(inFmt), ow, oh, oflowFormatName(flowFmt), grid, oflowFormatName(costFmt))
	// Transfer usages where the format has them (the probe fills the
	// frames by copies and reads the maps back by copies).
	xfer := map[int32]vk.ImageUsageFlags{}
	for _, c := range []struct {
		name string
		f    int32
	}{{"input", inFmt}, {"flow", flowFmt}, {"cost", costFmt}} {
		if c.f == 0 {
			continue
		}
		var fp vk.FormatProperties
		vk.GetPhysicalDeviceFormatProperties(d.physical, vk.Format(c.f), &fp)
		fp.Deref()
		src := fp.OptimalTilingFeatures&vk.FormatFeatureFlags(vk.FormatFeatureTransferSrcBit) != 0
		dst := fp.OptimalTilingFeatures&vk.FormatFeatureFlags(vk.FormatFeatureTransferDstBit) != 0
		t.Logf("%s format %s: optimal-tiling features %#x (TRANSFER_SRC %v, TRANSFER_DST %v)", c.name, oflowFormatName(c.f), uint32(fp.OptimalTilingFeatures), src, dst)
		if src {
			xfer[c.f] |= vk.ImageUsageFlags(vk.ImageUsageTransferSrcBit)
		}
		if dst {
			xfer[c.f] |= vk.ImageUsageFlags(vk.ImageUsageTransferDstBit)
		}
		// A view (what a session binds) needs a usage of the image-view
		// list (VUID-VkImageViewCreateInfo-image-04441), which has no
		// optical-flow entry: SAMPLED, else STORAGE, where the format has
		// the feature.
		switch {
		case fp.OptimalTilingFeatures&vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit) != 0:
			xfer[c.f] |= vk.ImageUsageFlags(vk.ImageUsageSampledBit)
		case fp.OptimalTilingFeatures&vk.FormatFeatureFlags(vk.FormatFeatureStorageImageBit) != 0:
			xfer[c.f] |= vk.ImageUsageFlags(vk.ImageUsageStorageBit)
		default:
			t.Logf("%s format %s has neither SAMPLED_IMAGE nor STORAGE_IMAGE: its view has no image-view usage (the layer may report VUID-VkImageViewCreateInfo-image-04441)", c.name, oflowFormatName(c.f))
		}
	}
	if xfer[inFmt]&vk.ImageUsageFlags(vk.ImageUsageTransferDstBit) == 0 {
		t.Fatalf("input format %s has no TRANSFER_DST feature: the probe cannot fill the frames", oflowFormatName(inFmt))
	}
	if xfer[flowFmt]&vk.ImageUsageFlags(vk.ImageUsageTransferSrcBit) == 0 {
		t.Fatalf("flow format %s has no TRANSFER_SRC feature: the probe cannot read the vectors back (a digest would need a shader read of them)", oflowFormatName(flowFmt))
	}
	if costFmt != 0 && xfer[costFmt]&vk.ImageUsageFlags(vk.ImageUsageTransferSrcBit) == 0 {
		t.Logf("cost format %s has no TRANSFER_SRC feature: the probe runs without a cost map", oflowFormatName(costFmt))
		costFmt, costTexel = 0, 0
	}

	var undo []func()
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}()
	must := func(what string, r vk.Result) {
		t.Helper()
		if err := check(what, r); err != nil {
			t.Fatal(err)
		}
	}

	// The second device.
	sync := vkext.Sync2Chain()
	defer sync.Free()
	ofc := vkext.OpticalFlowFeatures(sync.Head())
	defer ofc.Free()
	features := ofc.Head()
	// VK_NV_optical_flow depends on VK_KHR_format_feature_flags2 (and
	// synchronization2, core 1.3): enabled where listed.
	exts := []string{extOpticalFlow + "\x00"}
	if deviceExtensions(d.physical)["VK_KHR_format_feature_flags2"] {
		exts = append(exts, "VK_KHR_format_feature_flags2\x00")
	}
	if dry {
		exts, features = nil, sync.Head()
	}
	dinfo := vk.DeviceCreateInfo{
		SType:                   vk.StructureTypeDeviceCreateInfo,
		PNext:                   features,
		QueueCreateInfoCount:    1,
		PQueueCreateInfos:       []vk.DeviceQueueCreateInfo{{SType: vk.StructureTypeDeviceQueueCreateInfo, QueueFamilyIndex: uint32(fam), QueueCount: 1, PQueuePriorities: []float32{1}}},
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
	}
	var dev vk.Device
	r := vk.CreateDevice(d.physical, &dinfo, nil, &dev)
	dinfo.Free()
	t.Logf("vkCreateDevice (extensions %q, opticalFlow, synchronization2, one queue of family %d): %d", exts, fam, r)
	must("vkCreateDevice", r)
	undo = append(undo, func() { vk.DeviceWaitIdle(dev); vk.DestroyDevice(dev, nil) })
	dx, err := d.ext.LoadDevice(unsafe.Pointer(dev), false)
	if err != nil {
		t.Fatal(err)
	}
	var of *vkext.OpticalFlow
	if !dry {
		if of, err = d.ext.LoadOpticalFlow(unsafe.Pointer(dev)); err != nil {
			t.Fatal(err)
		}
	}
	var q vk.Queue
	vk.GetDeviceQueue(dev, uint32(fam), 0, &q)
	pi := vk.CommandPoolCreateInfo{SType: vk.StructureTypeCommandPoolCreateInfo, QueueFamilyIndex: uint32(fam)}
	var pool vk.CommandPool
	r = vk.CreateCommandPool(dev, &pi, nil, &pool)
	pi.Free()
	must("vkCreateCommandPool", r)
	undo = append(undo, func() { vk.DestroyCommandPool(dev, pool, nil) })

	var mp vk.PhysicalDeviceMemoryProperties
	vk.GetPhysicalDeviceMemoryProperties(d.physical, &mp)
	mp.Deref()
	memType := func(bits uint32, want vk.MemoryPropertyFlags) (uint32, bool) {
		for i := uint32(0); i < mp.MemoryTypeCount; i++ {
			mt := mp.MemoryTypes[i]
			mt.Deref()
			if bits&(1<<i) != 0 && mt.PropertyFlags&want == want {
				return i, true
			}
		}
		return 0, false
	}
	alloc := func(what string, req vk.MemoryRequirements, want vk.MemoryPropertyFlags) vk.DeviceMemory {
		t.Helper()
		mt, ok := memType(req.MemoryTypeBits, want)
		if !ok {
			if mt, ok = memType(req.MemoryTypeBits, 0); !ok {
				t.Fatalf("%s: no memory type in %#x", what, req.MemoryTypeBits)
			}
		}
		ai := vk.MemoryAllocateInfo{SType: vk.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size, MemoryTypeIndex: mt}
		var m vk.DeviceMemory
		r := vk.AllocateMemory(dev, &ai, nil, &m)
		ai.Free()
		must("vkAllocateMemory "+what, r)
		undo = append(undo, func() { vk.FreeMemory(dev, m, nil) })
		return m
	}
	type ofImage struct {
		img  vk.Image
		view vk.ImageView
	}
	newImage := func(what string, format int32, w, h, usage uint32) ofImage {
		t.Helper()
		oi := vkext.OpticalFlowImageInfo(usage)
		defer oi.Free()
		next := oi.Head()
		if dry {
			next = nil
		}
		ii := vk.ImageCreateInfo{SType: vk.StructureTypeImageCreateInfo, PNext: next, ImageType: vk.ImageType2d, Format: vk.Format(format),
			Extent: vk.Extent3D{Width: w, Height: h, Depth: 1}, MipLevels: 1, ArrayLayers: 1, Samples: vk.SampleCount1Bit, Tiling: vk.ImageTilingOptimal,
			Usage:       xfer[format],
			SharingMode: vk.SharingModeExclusive, InitialLayout: vk.ImageLayoutUndefined}
		var ifp vk.ImageFormatProperties
		fr := vk.GetPhysicalDeviceImageFormatProperties(d.physical, ii.Format, ii.ImageType, ii.Tiling, ii.Usage, 0, &ifp)
		var img vk.Image
		r := vk.CreateImage(dev, &ii, nil, &img)
		ii.Free()
		t.Logf("%s: %dx%d %s, optical-flow usage %#x, image usage %#x: vkGetPhysicalDeviceImageFormatProperties (without the optical-flow usage) %d, vkCreateImage %d", what, w, h, oflowFormatName(format), usage, uint32(xfer[format]), fr, r)
		must("vkCreateImage "+what, r)
		undo = append(undo, func() { vk.DestroyImage(dev, img, nil) })
		var req vk.MemoryRequirements
		vk.GetImageMemoryRequirements(dev, img, &req)
		req.Deref()
		m := alloc(what, req, vk.MemoryPropertyFlags(vk.MemoryPropertyDeviceLocalBit))
		must("vkBindImageMemory "+what, vk.BindImageMemory(dev, img, m, 0))
		vi := vk.ImageViewCreateInfo{SType: vk.StructureTypeImageViewCreateInfo, Image: img, ViewType: vk.ImageViewType2d, Format: vk.Format(format),
			SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}}
		var v vk.ImageView
		r = vk.CreateImageView(dev, &vi, nil, &v)
		vi.Free()
		must("vkCreateImageView "+what, r)
		undo = append(undo, func() { vk.DestroyImageView(dev, v, nil) })
		return ofImage{img, v}
	}
	newBuffer := func(what string, size uint64, usage vk.BufferUsageFlagBits) (vk.Buffer, []byte) {
		t.Helper()
		bi := vk.BufferCreateInfo{SType: vk.StructureTypeBufferCreateInfo, Size: vk.DeviceSize(size), Usage: vk.BufferUsageFlags(usage), SharingMode: vk.SharingModeExclusive}
		var b vk.Buffer
		r := vk.CreateBuffer(dev, &bi, nil, &b)
		bi.Free()
		must("vkCreateBuffer "+what, r)
		undo = append(undo, func() { vk.DestroyBuffer(dev, b, nil) })
		var req vk.MemoryRequirements
		vk.GetBufferMemoryRequirements(dev, b, &req)
		req.Deref()
		m := alloc(what, req, vk.MemoryPropertyFlags(vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit))
		must("vkBindBufferMemory "+what, vk.BindBufferMemory(dev, b, m, 0))
		var p unsafe.Pointer
		must("vkMapMemory "+what, vk.MapMemory(dev, m, 0, vk.DeviceSize(vk.WholeSize), 0, &p))
		return b, unsafe.Slice((*byte)(p), size)
	}

	a := newImage("input A", inFmt, w, h, vkext.OpticalFlowUsageInput)
	b := newImage("reference B", inFmt, w, h, vkext.OpticalFlowUsageInput)
	fl := newImage("flow vectors", flowFmt, ow, oh, vkext.OpticalFlowUsageOutput)
	var cost ofImage
	if costFmt != 0 {
		cost = newImage("cost", costFmt, ow, oh, vkext.OpticalFlowUsageCost)
	}
	frame := uint64(w) * uint64(h) * uint64(inTexel)
	flowBytes := uint64(ow) * uint64(oh) * 4
	costOff := (flowBytes + 255) / 256 * 256
	costBytes := uint64(ow) * uint64(oh) * uint64(costTexel)
	staging, up := newBuffer("staging", 2*frame, vk.BufferUsageTransferSrcBit)
	readback, down := newBuffer("readback", costOff+max(costBytes, 16), vk.BufferUsageTransferDstBit)
	fillFrames := func(seed uint32) {
		for y := uint32(0); y < h; y++ {
			for x := uint32(0); x < w; x++ {
				va := oflowNoise(x, y, seed)
				vb := oflowNoise((x+w-4)%w, y, seed) // B(x, y) = A(x-4, y): A moved 4 pixels right
				for c := uint32(0); c < inTexel; c++ {
					ia, ib := (uint64(y)*uint64(w)+uint64(x))*uint64(inTexel)+uint64(c), frame+(uint64(y)*uint64(w)+uint64(x))*uint64(inTexel)+uint64(c)
					if c == 3 {
						va, vb = 255, 255 // alpha
					}
					up[ia], up[ib] = va, vb
				}
			}
		}
	}

	var session unsafe.Pointer
	if !dry {
		var sr int32
		session, sr = of.CreateSession(unsafe.Pointer(dev), vkext.OpticalFlowSessionInfo{Width: w, Height: h, ImageFormat: inFmt, FlowFormat: flowFmt,
			CostFormat: costFmt, Grid: grid, Cost: costFmt != 0})
		t.Logf("vkCreateOpticalFlowSessionNV: %d", sr)
		must("vkCreateOpticalFlowSessionNV", vk.Result(sr))
		undo = append(undo, func() { vk.DeviceWaitIdle(dev); of.DestroySession(unsafe.Pointer(dev), session) })
		binds := []struct {
			name  string
			point int32
			view  vk.ImageView
		}{{"input", vkext.OpticalFlowBindInput, a.view}, {"reference", vkext.OpticalFlowBindReference, b.view},
			{"flow vector", vkext.OpticalFlowBindFlowVector, fl.view}, {"cost", vkext.OpticalFlowBindCost, cost.view}}
		for _, bd := range binds {
			if bd.point == vkext.OpticalFlowBindCost && costFmt == 0 {
				continue
			}
			br := of.Bind(unsafe.Pointer(dev), session, bd.point, unsafe.Pointer(bd.view), int32(vk.ImageLayoutGeneral))
			t.Logf("vkBindOpticalFlowSessionImageNV %s (GENERAL): %d", bd.name, br)
			must("vkBindOpticalFlowSessionImageNV "+bd.name, vk.Result(br))
		}
	}

	// One command buffer, submitted three times.
	cbs := make([]vk.CommandBuffer, 1)
	cai := vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: pool, Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 1}
	r = vk.AllocateCommandBuffers(dev, &cai, cbs)
	cai.Free()
	must("vkAllocateCommandBuffers", r)
	cb := cbs[0]
	cbi := vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo}
	r = vk.BeginCommandBuffer(cb, &cbi)
	cbi.Free()
	must("vkBeginCommandBuffer", r)
	var bar vkext.Barriers
	imgBar := func(img vk.Image, sc vkext.Scope, from, to vk.ImageLayout) vkext.ImageBarrier {
		return vkext.ImageBarrier{Scope: sc, OldLayout: uint32(from), NewLayout: uint32(to), Image: unsafe.Pointer(img),
			Aspect: uint32(vk.ImageAspectColorBit), Mips: 1, Layers: 1}
	}
	sc := func(ss avk.Stage, sa avk.AccessFlags, ds avk.Stage, da avk.AccessFlags) vkext.Scope {
		return vkext.Scope{SrcStages: uint64(ss), SrcAccess: uint64(sa), DstStages: uint64(ds), DstAccess: uint64(da)}
	}
	// Earlier submissions' uses are finished (vkQueueWaitIdle) before the
	// next: the first barrier orders after everything on the queue.
	toDst := sc(avk.StageAllCommands, 0, avk.StageCopy, avk.AccessTransferWrite)
	bar.Image = append(bar.Image, imgBar(a.img, toDst, vk.ImageLayoutUndefined, vk.ImageLayoutTransferDstOptimal),
		imgBar(b.img, toDst, vk.ImageLayoutUndefined, vk.ImageLayoutTransferDstOptimal))
	dx.PipelineBarrier2(unsafe.Pointer(cb), &bar)
	region := func(off uint64, w, h uint32) []vk.BufferImageCopy {
		return []vk.BufferImageCopy{{BufferOffset: vk.DeviceSize(off),
			ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LayerCount: 1},
			ImageExtent:      vk.Extent3D{Width: w, Height: h, Depth: 1}}}
	}
	vk.CmdCopyBufferToImage(cb, staging, a.img, vk.ImageLayoutTransferDstOptimal, 1, region(0, w, h))
	vk.CmdCopyBufferToImage(cb, staging, b.img, vk.ImageLayoutTransferDstOptimal, 1, region(frame, w, h))
	bar.Reset()
	ofStage, ofRead, ofWrite := avk.StageOpticalFlowNV, avk.AccessOpticalFlowReadNV, avk.AccessOpticalFlowWriteNV
	if dry {
		ofStage, ofRead, ofWrite = avk.StageCopy, avk.AccessTransferRead, avk.AccessTransferWrite
	}
	toRead := sc(avk.StageCopy, avk.AccessTransferWrite, ofStage, ofRead)
	toWrite := sc(avk.StageAllCommands, 0, ofStage, ofWrite)
	bar.Image = append(bar.Image, imgBar(a.img, toRead, vk.ImageLayoutTransferDstOptimal, vk.ImageLayoutGeneral),
		imgBar(b.img, toRead, vk.ImageLayoutTransferDstOptimal, vk.ImageLayoutGeneral),
		imgBar(fl.img, toWrite, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral))
	if costFmt != 0 {
		bar.Image = append(bar.Image, imgBar(cost.img, toWrite, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral))
	}
	dx.PipelineBarrier2(unsafe.Pointer(cb), &bar)
	if !dry {
		of.Execute(unsafe.Pointer(cb), session)
	}
	bar.Reset()
	toSrc := sc(ofStage, ofWrite, avk.StageCopy, avk.AccessTransferRead)
	bar.Image = append(bar.Image, imgBar(fl.img, toSrc, vk.ImageLayoutGeneral, vk.ImageLayoutTransferSrcOptimal))
	if costFmt != 0 {
		bar.Image = append(bar.Image, imgBar(cost.img, toSrc, vk.ImageLayoutGeneral, vk.ImageLayoutTransferSrcOptimal))
	}
	dx.PipelineBarrier2(unsafe.Pointer(cb), &bar)
	vk.CmdCopyImageToBuffer(cb, fl.img, vk.ImageLayoutTransferSrcOptimal, readback, 1, region(0, ow, oh))
	if costFmt != 0 {
		vk.CmdCopyImageToBuffer(cb, cost.img, vk.ImageLayoutTransferSrcOptimal, readback, 1, region(costOff, ow, oh))
	}
	bar.Reset()
	bar.Memory = append(bar.Memory, sc(avk.StageCopy, avk.AccessTransferWrite, avk.StageHost, avk.AccessHostRead))
	dx.PipelineBarrier2(unsafe.Pointer(cb), &bar)
	must("vkEndCommandBuffer", vk.EndCommandBuffer(cb))

	run := func(name string, seed uint32) (flow, cst []byte) {
		t.Helper()
		fillFrames(seed)
		clear(down)
		si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo, CommandBufferCount: 1, PCommandBuffers: cbs}}
		sr := vk.QueueSubmit(q, 1, si, vk.NullFence)
		wr := vk.QueueWaitIdle(q)
		t.Logf("%s: vkQueueSubmit %d, vkQueueWaitIdle %d", name, sr, wr)
		must("vkQueueSubmit", sr)
		must("vkQueueWaitIdle", wr)
		flow = append([]byte(nil), down[:flowBytes]...)
		if costFmt != 0 {
			cst = append([]byte(nil), down[costOff:costOff+costBytes]...)
		}
		t.Logf("%s: %s", name, oflowStats(flow, ow, oh, grid))
		return flow, cst
	}
	f1, c1 := run("run 1 (A, B)", 1)
	f2, c2 := run("run 2 (A, B again)", 1)
	f3, _ := run("run 3 (A', B)", 2)
	if dry {
		t.Logf("plumbing only: it ran; no optical flow, so its outputs are not compared")
		return
	}
	if !bytes.Equal(f1, f2) {
		t.Errorf("the flow vectors of two identical runs differ (%d of %d bytes): a digest of them could not be compared between runs", diffCount(f1, f2), len(f1))
	}
	if !bytes.Equal(c1, c2) {
		t.Errorf("the cost maps of two identical runs differ (%d of %d bytes)", diffCount(c1, c2), len(c1))
	}
	if bytes.Equal(f1, f3) {
		t.Errorf("the flow vectors did not change when the input frame did: a digest of them would not see a clobbered input")
	} else {
		t.Logf("another input frame changed %d of %d flow bytes", diffCount(f1, f3), len(f1))
	}
}

// oflowNoise is a deterministic byte per pixel (a hash), a texture the
// estimator can match anywhere.
func oflowNoise(x, y, seed uint32) byte {
	v := x*0x9e3779b1 ^ y*0x85ebca77 ^ seed*0xc2b2ae3d
	v ^= v >> 15
	v *= 0x2c1b3c6d
	v ^= v >> 12
	return byte(v >> 8)
}

// oflowStats describes R16G16_S10_5_NV flow vectors: the mean vector in
// pixels over the cells away from the wrapped left edge, and how many
// cells hold exactly (+4, 0) (the shift between the frames).
func oflowStats(flow []byte, ow, oh, grid uint32) string {
	var sx, sy float64
	n, exact := 0, 0
	for y := uint32(0); y < oh; y++ {
		for x := uint32(0); x < ow; x++ {
			if x*grid < 16 {
				continue
			}
			i := (y*ow + x) * 4
			vx := int16(uint16(flow[i]) | uint16(flow[i+1])<<8)
			vy := int16(uint16(flow[i+2]) | uint16(flow[i+3])<<8)
			sx += float64(vx) / 32
			sy += float64(vy) / 32
			n++
			if vx == 4*32 && vy == 0 {
				exact++
			}
		}
	}
	if n == 0 {
		return "no cells"
	}
	return fmt.Sprintf("mean flow (%.3f, %.3f) px over %d cells (expect about (+4, 0)); %d cells exactly (+4, 0); first bytes % x", sx/float64(n), sy/float64(n), n, exact, flow[:min(16, len(flow))])
}

func diffCount(a, b []byte) int {
	n := 0
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n + max(len(a), len(b)) - min(len(a), len(b))
}

func oflowFormatName(v int32) string {
	switch v {
	case 0:
		return "none"
	case oflowS10_5:
		return "R16G16_S10_5_NV"
	}
	return avk.Format(uint32(v)).String()
}
