package vulkan

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
	avk "github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

const (
	validationLayer      = "VK_LAYER_KHRONOS_validation"
	extDebugUtils        = "VK_EXT_debug_utils"
	extValidationFeature = "VK_EXT_validation_features"
	extSync2             = "VK_KHR_synchronization2"
)

// Config says how Open sets a device up. The zero value opens the best
// device without validation.
type Config struct {
	// Validation switches on VK_LAYER_KHRONOS_validation with
	// synchronization validation; its warnings and errors are collected
	// (Device.Messages). Open fails with ErrNoValidationLayer when the
	// layer is not installed.
	Validation bool
	// Device picks the first physical device whose name contains it
	// (case-insensitive). "" picks the best: discrete GPU, integrated GPU,
	// virtual GPU, CPU, in that order, the first of a kind.
	Device string
	// AppName names the application to the driver; "" means "aliasplan".
	AppName string
	// Replay also enables what package vulkan/replay records: Vulkan 1.3
	// dynamic rendering, separate depth/stencil layouts, independent
	// blending, and stores and atomics in vertex and fragment shaders.
	// Open fails with ErrUnsupported, naming what is missing, on a device
	// without them.
	Replay bool
	// ReplayStages are the stages beyond the base set that the replayed
	// frames use (replay.Stages gives a graph's): with Replay, Open enables
	// the extensions and features they need where the device has them
	// (task and mesh shaders: VK_EXT_mesh_shader; replay_extras.go) and
	// nothing for stages the frames do not use.
	ReplayStages avk.Stage
}

// Info describes an open device.
type Info struct {
	Name      string  // VkPhysicalDeviceProperties.deviceName
	Type      string  // "discrete GPU", "integrated GPU", "virtual GPU", "CPU" or "other"
	DeviceAPI Version // the version the device reports
	API       Version // the version in effect (the lower of the device's and the instance's)
	// Sync2 says where vkCmdPipelineBarrier2 comes from: "core" (Vulkan
	// 1.3) or "VK_KHR_synchronization2".
	Sync2  string
	Driver string // driver name and info (Vulkan 1.2 devices), e.g. "NVIDIA 580.159"; "" when unknown
	// BufferImageGranularity is the device limit the planner meets by
	// keeping linear and optimal resources in separate pools.
	BufferImageGranularity uint64
	// MaxMemoryAllocationSize (VkPhysicalDeviceMaintenance3Properties) is
	// a sensible planner.Options.MaxPoolSize; 0 when the device gives none.
	MaxMemoryAllocationSize uint64
	QueueFamily             uint32
	Validation              bool // the validation layer with synchronization validation is on
	// Queues: the device queue of each logical queue (planner.Queue),
	// see queues.go.
	Queues [planner.NumQueues]QueueInfo
}

// Device is an open Vulkan device: instance, physical device, logical
// device with synchronization2 enabled, one queue, a command pool and,
// with Config.Validation, a debug messenger collecting the validation
// layer's messages. It implements planner.RequirementsSource's
// MemoryTypes and Describe; NewResources gives the per-graph source.
//
// A Device is not safe for concurrent use, except Messages and
// TakeMessages. Close it when done: Close destroys the device, which is
// when the validation layer reports objects left alive.
type Device struct {
	info   Info
	types  []planner.MemoryType
	limits planner.Limits

	instance vk.Instance
	physical vk.PhysicalDevice
	device   vk.Device
	queue    vk.Queue
	pool     vk.CommandPool
	queues   [planner.NumQueues]deviceQueue
	pools    map[uint32]vk.CommandPool // per family; the graphics family's is pool
	submit   *vkext.Submit

	ext       *vkext.Instance
	dext      *vkext.Device
	messenger unsafe.Pointer
	handler   uintptr

	msgs messages
	live liveCounts

	replay    bool
	rendering *vkext.Rendering
	// loadOpNone: VK_EXT/KHR_load_store_op_none is enabled (replay only:
	// LOAD_OP_NONE for attachments the command also reads, replay_support.go).
	loadOpNone bool
	// xfbCond: VK_EXT_transform_feedback / VK_EXT_conditional_rendering
	// entry points, where the device has them (replay only, replay_xfbcond.go).
	xfbCond *vkext.XfbCond
	// onClose runs first in Close (ReplayHooks.OnClose).
	onClose []func()
	// extras: the replay's extension entry points and what is enabled
	// (replay_extras.go).
	extras replayExtras
	dgc    dgcState // replay_dgc.go
}

// liveCounts counts the objects created through this package and not yet
// destroyed; Close reports any left.
type liveCounts struct {
	Memory, Buffers, Images int
	Semaphores              int
}

var (
	initOnce sync.Once
	initErr  error
)

// loadVulkan loads libvulkan.so.1 itself (goki's default loader wants
// libvulkan.so, which only the -dev package installs) and initialises goki.
func loadVulkan() error {
	initOnce.Do(func() {
		gipa, err := vkext.Load()
		if err != nil {
			initErr = fmt.Errorf("%w: %v", ErrNoLoader, err)
			return
		}
		vk.SetGetInstanceProcAddr(gipa)
		if err := vk.Init(); err != nil {
			initErr = fmt.Errorf("%w: %v", ErrNoLoader, err)
		}
	})
	return initErr
}

// Open creates an instance and a device. It asks for Vulkan 1.3 and falls
// back to Vulkan 1.1 plus VK_KHR_synchronization2; when neither is
// available the error (wrapping ErrUnsupported) names what is missing.
// Errors wrapping ErrNoLoader, ErrNoDevice or ErrNoValidationLayer mean the
// machine has no usable Vulkan (see Unavailable).
//
// On failure everything created so far is destroyed, in reverse order.
func Open(cfg Config) (*Device, error) {
	if err := loadVulkan(); err != nil {
		return nil, err
	}
	d := &Device{}
	if err := d.open(cfg); err != nil {
		d.Close() // what exists so far, in reverse order
		return nil, err
	}
	return d, nil
}

func (d *Device) open(cfg Config) error {
	loaderAPI := Version(vkext.InstanceVersion())
	if !loaderAPI.atLeast(version11) {
		return fmt.Errorf("%w: the Vulkan loader supports Vulkan %s only; aliasplan needs 1.1", ErrUnsupported, loaderAPI)
	}
	// Ask for 1.3 (or the loader's lower version): vkGetDeviceProcAddr
	// returns no core entry point above the instance's apiVersion.
	instanceAPI := version13
	if !loaderAPI.atLeast(version13) {
		instanceAPI = MakeVersion(loaderAPI.Major(), loaderAPI.Minor(), 0)
	}
	if err := d.createInstance(cfg, instanceAPI); err != nil {
		return err
	}
	choice, err := d.pickPhysical(cfg, instanceAPI)
	if err != nil {
		return err
	}
	if cfg.Replay {
		if err := d.replaySupported(choice); err != nil {
			return err
		}
	}
	d.replay = cfg.Replay
	d.extras.stages = cfg.ReplayStages
	return d.createDevice(choice)
}

func (d *Device) createInstance(cfg Config, api Version) error {
	var layers, exts []string
	if cfg.Validation {
		if !hasLayer(validationLayer) {
			return ErrNoValidationLayer
		}
		avail := instanceExtensions("")
		for e := range instanceExtensions(validationLayer) {
			avail[e] = true
		}
		for _, e := range []string{extDebugUtils, extValidationFeature} {
			if !avail[e] {
				return fmt.Errorf("%w: the validation layer offers no %s", ErrNoValidationLayer, e)
			}
		}
		layers = []string{validationLayer + "\x00"}
		exts = []string{extDebugUtils + "\x00", extValidationFeature + "\x00"}
		d.handler = vkext.NewHandler(d.msgs.add)
	}
	var chain vkext.Chain
	if cfg.Validation {
		// The layer validates with the driver's own handles, its
		// handle wrapping off. Layer 1.3.239 does not know
		// VK_EXT_device_generated_commands: wrapping would pass the
		// driver's unintercepted entry points the layer's ids (the
		// NVIDIA driver crashed on the pipeline in
		// VkGeneratedCommandsPipelineInfoEXT). The setting is global to
		// the layer, not per instance: one instance with wrapping off
		// makes the layer stop unwrapping the handles of every other
		// (the H200 crashed destroying another device's pipeline
		// layout), so every instance takes it. Every check,
		// synchronization validation included, stays on
		// (docs/decisions.md).
		chain = vkext.ValidationChain(true, true, d.handler)
		defer chain.Free()
	}
	name := cfg.AppName
	if name == "" {
		name = "aliasplan"
	}
	app := vk.ApplicationInfo{
		SType:            vk.StructureTypeApplicationInfo,
		PApplicationName: name + "\x00",
		PEngineName:      "aliasplan\x00",
		ApiVersion:       uint32(api),
	}
	info := vk.InstanceCreateInfo{
		SType:                   vk.StructureTypeInstanceCreateInfo,
		PNext:                   chain.Head(),
		PApplicationInfo:        &app,
		EnabledLayerCount:       uint32(len(layers)),
		PpEnabledLayerNames:     layers,
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
	}
	var inst vk.Instance
	r := vk.CreateInstance(&info, nil, &inst)
	info.Free()
	if r == vk.ErrorIncompatibleDriver {
		return fmt.Errorf("%w: %w", ErrNoDevice, check("vkCreateInstance", r))
	}
	if err := check("vkCreateInstance", r); err != nil {
		return err
	}
	d.instance = inst
	// Without InitInstance goki's vkDestroyInstance stays NULL: a crash at
	// teardown.
	if err := vk.InitInstance(inst); err != nil {
		return fmt.Errorf("vulkan: vk.InitInstance: %v", err)
	}
	ext, err := vkext.LoadInstance(unsafe.Pointer(inst))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	d.ext = ext
	if cfg.Validation {
		m, r := d.ext.CreateMessenger(d.handler)
		if err := check("vkCreateDebugUtilsMessengerEXT", vk.Result(r)); err != nil {
			return err
		}
		d.messenger = m
		d.info.Validation = true
	}
	return nil
}

func hasLayer(name string) bool {
	var n uint32
	if vk.EnumerateInstanceLayerProperties(&n, nil) != vk.Success || n == 0 {
		return false
	}
	props := make([]vk.LayerProperties, n)
	if vk.EnumerateInstanceLayerProperties(&n, props) != vk.Success {
		return false
	}
	for i := range props[:n] {
		props[i].Deref()
		if vk.ToString(props[i].LayerName[:]) == name {
			return true
		}
	}
	return false
}

// instanceExtensions lists the instance extensions of the loader and
// implicit layers (layer == "") or of one layer.
func instanceExtensions(layer string) map[string]bool {
	out := map[string]bool{}
	var n uint32
	if vk.EnumerateInstanceExtensionProperties(layer+"\x00", &n, nil) != vk.Success || n == 0 {
		return out
	}
	props := make([]vk.ExtensionProperties, n)
	if vk.EnumerateInstanceExtensionProperties(layer+"\x00", &n, props) != vk.Success {
		return out
	}
	for i := range props[:n] {
		props[i].Deref()
		out[vk.ToString(props[i].ExtensionName[:])] = true
	}
	return out
}

func deviceExtensions(pd vk.PhysicalDevice) map[string]bool {
	out := map[string]bool{}
	var n uint32
	if vk.EnumerateDeviceExtensionProperties(pd, "\x00", &n, nil) != vk.Success || n == 0 {
		return out
	}
	props := make([]vk.ExtensionProperties, n)
	if vk.EnumerateDeviceExtensionProperties(pd, "\x00", &n, props) != vk.Success {
		return out
	}
	for i := range props[:n] {
		props[i].Deref()
		out[vk.ToString(props[i].ExtensionName[:])] = true
	}
	return out
}

var deviceTypeNames = map[vk.PhysicalDeviceType]string{
	vk.PhysicalDeviceTypeDiscreteGpu:   "discrete GPU",
	vk.PhysicalDeviceTypeIntegratedGpu: "integrated GPU",
	vk.PhysicalDeviceTypeVirtualGpu:    "virtual GPU",
	vk.PhysicalDeviceTypeCpu:           "CPU",
}

// typeRank orders device types for the default pick: lower is better.
func typeRank(t vk.PhysicalDeviceType) int {
	switch t {
	case vk.PhysicalDeviceTypeDiscreteGpu:
		return 0
	case vk.PhysicalDeviceTypeIntegratedGpu:
		return 1
	case vk.PhysicalDeviceTypeVirtualGpu:
		return 2
	case vk.PhysicalDeviceTypeCpu:
		return 3
	}
	return 4
}

type candidate struct {
	pd     vk.PhysicalDevice
	name   string
	typ    vk.PhysicalDeviceType
	api    Version
	family uint32
	limits vk.PhysicalDeviceLimits
	choice apiChoice
	err    error
}

// pickPhysical chooses the physical device and a queue family with
// graphics or compute (both can fill, copy and clear). A device that lacks
// what aliasplan needs is passed over; if none qualifies, the error of the
// best-ranked one is returned.
func (d *Device) pickPhysical(cfg Config, instanceAPI Version) (apiChoice, error) {
	var n uint32
	if err := check("vkEnumeratePhysicalDevices", vk.EnumeratePhysicalDevices(d.instance, &n, nil)); err != nil {
		return apiChoice{}, err
	}
	if n == 0 {
		return apiChoice{}, fmt.Errorf("%w: the loader found no physical device (no driver installed? Debian: mesa-vulkan-drivers)", ErrNoDevice)
	}
	pds := make([]vk.PhysicalDevice, n)
	if err := check("vkEnumeratePhysicalDevices", vk.EnumeratePhysicalDevices(d.instance, &n, pds)); err != nil {
		return apiChoice{}, err
	}
	var cands []candidate
	var names []string
	for _, pd := range pds[:n] {
		var props vk.PhysicalDeviceProperties
		vk.GetPhysicalDeviceProperties(pd, &props)
		props.Deref()
		props.Limits.Deref()
		c := candidate{pd: pd, name: vk.ToString(props.DeviceName[:]), typ: props.DeviceType, api: Version(props.ApiVersion), limits: props.Limits}
		names = append(names, c.name)
		if cfg.Device != "" && !strings.Contains(strings.ToLower(c.name), strings.ToLower(cfg.Device)) {
			continue
		}
		c.choice, c.err = chooseAPI(c.name, instanceAPI, c.api, deviceExtensions(pd)[extSync2])
		if c.err == nil && !d.ext.Sync2Supported(unsafe.Pointer(pd)) {
			c.err = fmt.Errorf("%w: %q: the synchronization2 feature is not supported", ErrUnsupported, c.name)
		}
		if c.err == nil {
			var ok bool
			if c.family, ok = queueFamily(pd); !ok {
				c.err = fmt.Errorf("%w: %q: no queue family with graphics or compute", ErrUnsupported, c.name)
			}
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return apiChoice{}, fmt.Errorf("%w: no device name contains %q (devices: %s)", ErrNoDevice, cfg.Device, strings.Join(names, ", "))
	}
	best := -1
	for i, c := range cands {
		switch {
		case best < 0:
			best = i
		case (c.err == nil) != (cands[best].err == nil):
			if c.err == nil {
				best = i
			}
		case typeRank(c.typ) < typeRank(cands[best].typ):
			best = i
		}
	}
	c := cands[best]
	if c.err != nil {
		return apiChoice{}, c.err
	}
	d.physical = c.pd
	maxAlloc, drvName, drvInfo := d.ext.DeviceProperties(unsafe.Pointer(c.pd), c.choice.API.atLeast(MakeVersion(1, 2, 0)))
	d.info = Info{
		Name:                    c.name,
		Type:                    deviceTypeNames[c.typ],
		DeviceAPI:               c.api,
		API:                     c.choice.API,
		Sync2:                   "core",
		Driver:                  strings.TrimSpace(drvName + " " + drvInfo),
		BufferImageGranularity:  uint64(c.limits.BufferImageGranularity),
		MaxMemoryAllocationSize: maxAlloc,
		QueueFamily:             c.family,
		Validation:              d.info.Validation,
	}
	if d.info.Type == "" {
		d.info.Type = "other"
	}
	l := &c.limits
	d.limits = planner.Limits{MaxImageDimension1D: l.MaxImageDimension1D, MaxImageDimension2D: l.MaxImageDimension2D,
		MaxImageDimension3D: l.MaxImageDimension3D, MaxImageArrayLayers: l.MaxImageArrayLayers,
		SampleCounts: uint32(l.FramebufferColorSampleCounts | l.FramebufferDepthSampleCounts | l.FramebufferStencilSampleCounts |
			l.SampledImageColorSampleCounts | l.SampledImageDepthSampleCounts | l.StorageImageSampleCounts),
		MaxMemoryAllocationSize: maxAlloc}
	if c.choice.Sync2Ext {
		d.info.Sync2 = extSync2
	}
	var mp vk.PhysicalDeviceMemoryProperties
	vk.GetPhysicalDeviceMemoryProperties(c.pd, &mp)
	mp.Deref()
	d.types = make([]planner.MemoryType, mp.MemoryTypeCount)
	for i := range d.types {
		mt := mp.MemoryTypes[i]
		mt.Deref()
		d.types[i] = planner.MemoryType{Flags: planner.MemoryProperty(mt.PropertyFlags), Heap: mt.HeapIndex}
		if mt.HeapIndex < mp.MemoryHeapCount {
			h := mp.MemoryHeaps[mt.HeapIndex]
			h.Deref()
			d.types[i].HeapSize = uint64(h.Size)
		}
	}
	return c.choice, nil
}

func queueFamily(pd vk.PhysicalDevice) (uint32, bool) {
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nil)
	props := make([]vk.QueueFamilyProperties, n)
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, props)
	for _, want := range []vk.QueueFlagBits{vk.QueueGraphicsBit, vk.QueueComputeBit} {
		for i := range props[:n] {
			props[i].Deref()
			if props[i].QueueCount > 0 && props[i].QueueFlags&vk.QueueFlags(want) != 0 {
				return uint32(i), true
			}
		}
	}
	return 0, false
}

func (d *Device) createDevice(choice apiChoice) error {
	var exts []string
	if choice.Sync2Ext {
		exts = append(exts, extSync2+"\x00")
	}
	if d.replay {
		exts = append(exts, extRobustness2+"\x00")
		if e := loadStoreOpNone(d.physical); e != "" {
			exts, d.loadOpNone = append(exts, e+"\x00"), true
		}
		exts = append(exts, d.chooseExtras()...) // replay_extras.go
		exts = append(exts, d.chooseDGC()...)    // replay_dgc.go
	}
	chain := vkext.Sync2Chain()
	var features []vk.PhysicalDeviceFeatures
	if d.replay {
		chain.Free()
		chain = vkext.ReplayChain()
		features = replayFeatures(d.physical)
	}
	defer chain.Free()
	xc, xfb, cond := d.xfbCondChain(chain.Head(), &exts) // replay_xfbcond.go
	defer xc.Free()
	fc := d.fsrChain(xc.Head(), &exts) // replay_fsr.go
	defer fc.Free()
	xchain := d.extraChain(fc.Head()) // replay_extras.go
	defer xchain.Free()
	head := xchain.Head()
	dchain := d.dgcChain(head) // replay_dgc.go
	defer dchain.Free()
	if dchain.Head() != nil {
		head = dchain.Head()
	}
	qs, counts := chooseQueues(familyProperties(d.physical), d.info.QueueFamily)
	d.info.Queues = qs
	queues := queueCreateInfos(counts)
	info := vk.DeviceCreateInfo{
		SType:                   vk.StructureTypeDeviceCreateInfo,
		PNext:                   head,
		QueueCreateInfoCount:    uint32(len(queues)),
		PQueueCreateInfos:       queues,
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
		PEnabledFeatures:        features,
	}
	var dev vk.Device
	r := vk.CreateDevice(d.physical, &info, nil, &dev)
	info.Free()
	if err := check("vkCreateDevice", r); err != nil {
		return err
	}
	d.device = dev
	dext, err := d.ext.LoadDevice(unsafe.Pointer(dev), choice.Sync2Ext)
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
	}
	d.dext = dext
	if d.replay {
		if d.rendering, err = d.ext.LoadRendering(unsafe.Pointer(dev)); err != nil {
			return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
		}
		if d.xfbCond, err = d.ext.LoadXfbCond(unsafe.Pointer(dev), xfb, cond); err != nil {
			return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
		}
		if err := d.loadExtras(); err != nil { // replay_extras.go
			return err
		}
		if err := d.loadDGC(); err != nil { // replay_dgc.go
			return err
		}
	}
	// Out-parameters are locals: a pointer into d would make cgo check all
	// of d, which holds Go pointers.
	var q vk.Queue
	vk.GetDeviceQueue(dev, d.info.QueueFamily, 0, &q)
	d.queue = q
	pinfo := vk.CommandPoolCreateInfo{
		SType:            vk.StructureTypeCommandPoolCreateInfo,
		Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateTransientBit | vk.CommandPoolCreateResetCommandBufferBit),
		QueueFamilyIndex: d.info.QueueFamily,
	}
	var pool vk.CommandPool
	r = vk.CreateCommandPool(dev, &pinfo, nil, &pool)
	pinfo.Free()
	if err := check("vkCreateCommandPool", r); err != nil {
		return err
	}
	d.pool = pool
	if d.submit, err = d.ext.LoadSubmit(unsafe.Pointer(dev), choice.Sync2Ext); err != nil {
		return fmt.Errorf("%w: %q: %v", ErrUnsupported, d.info.Name, err)
	}
	return d.createQueues()
}

// Close waits for the device to go idle and destroys, in reverse order of
// creation, the command pool, the device (where the validation layer
// reports objects left alive), the messenger and the instance. Messages
// stay readable afterwards. It returns an error when buffers, images or
// allocations made through this package are still alive (they leaked:
// destroy every Resources first). Closing twice is a no-op.
func (d *Device) Close() error {
	var err error
	if d.device != nil {
		vk.DeviceWaitIdle(d.device)
		for _, f := range d.onClose {
			f()
		}
		d.onClose = nil
		if d.live != (liveCounts{}) {
			err = fmt.Errorf("vulkan: Close with objects alive: %d allocations, %d buffers, %d images, %d semaphores", d.live.Memory, d.live.Buffers, d.live.Images, d.live.Semaphores)
		}
		d.destroyQueuePools()
		if d.pool != vk.NullCommandPool {
			vk.DestroyCommandPool(d.device, d.pool, nil)
			d.pool = vk.NullCommandPool
		}
		vk.DestroyDevice(d.device, nil)
		d.device = nil
	}
	if d.instance != nil {
		if d.messenger != nil {
			d.ext.DestroyMessenger(d.messenger)
			d.messenger = nil
		}
		vk.DestroyInstance(d.instance, nil)
		d.instance = nil
	}
	if d.handler != 0 {
		// Only now: vkDestroyInstance reports through the handler too.
		vkext.DeleteHandler(d.handler)
		d.handler = 0
	}
	return err
}

// Info describes the device.
func (d *Device) Info() Info { return d.info }

// Describe implements planner.RequirementsSource's naming:
// "device NVIDIA H200 (Vulkan 1.4.312)".
func (d *Device) Describe() string {
	return fmt.Sprintf("device %s (Vulkan %s)", d.info.Name, d.info.DeviceAPI)
}

// MemoryTypes returns the device's memory types, index = memory type
// index. The slice is the device's: do not modify it.
func (d *Device) MemoryTypes() []planner.MemoryType { return d.types }

// Limits returns the device's image limits (VkPhysicalDeviceLimits), as
// the planner checks images against them.
func (d *Device) Limits() planner.Limits { return d.limits }

// Handle returns the VkDevice, for a renderer's own calls.
func (d *Device) Handle() vk.Device { return d.device }

// Physical returns the VkPhysicalDevice.
func (d *Device) Physical() vk.PhysicalDevice { return d.physical }

// Queue returns the device's graphics queue (of family
// Info().QueueFamily). A plan with submissions runs on QueueOf each
// submission's queue (Resources.Execute); one without, on this queue.
func (d *Device) Queue() vk.Queue { return d.queue }

// Run records one command buffer with record, submits it, and waits with
// vkDeviceWaitIdle. When record fails nothing is submitted.
func (d *Device) Run(record func(cb vk.CommandBuffer) error) error {
	cbs := make([]vk.CommandBuffer, 1)
	ai := vk.CommandBufferAllocateInfo{
		SType:              vk.StructureTypeCommandBufferAllocateInfo,
		CommandPool:        d.pool,
		Level:              vk.CommandBufferLevelPrimary,
		CommandBufferCount: 1,
	}
	r := vk.AllocateCommandBuffers(d.device, &ai, cbs)
	ai.Free()
	if err := check("vkAllocateCommandBuffers", r); err != nil {
		return err
	}
	defer vk.FreeCommandBuffers(d.device, d.pool, 1, cbs)
	cb := cbs[0]
	bi := vk.CommandBufferBeginInfo{
		SType: vk.StructureTypeCommandBufferBeginInfo,
		Flags: vk.CommandBufferUsageFlags(vk.CommandBufferUsageOneTimeSubmitBit),
	}
	r = vk.BeginCommandBuffer(cb, &bi)
	bi.Free()
	if err := check("vkBeginCommandBuffer", r); err != nil {
		return err
	}
	recErr := record(cb)
	if err := check("vkEndCommandBuffer", vk.EndCommandBuffer(cb)); err != nil || recErr != nil {
		return errors.Join(recErr, err)
	}
	fi := vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
	var fence vk.Fence
	r = vk.CreateFence(d.device, &fi, nil, &fence)
	fi.Free()
	if err := check("vkCreateFence", r); err != nil {
		return err
	}
	defer vk.DestroyFence(d.device, fence, nil)
	si := []vk.SubmitInfo{{
		SType:              vk.StructureTypeSubmitInfo,
		CommandBufferCount: 1,
		PCommandBuffers:    cbs,
	}}
	if err := check("vkQueueSubmit", vk.QueueSubmit(d.queue, 1, si, fence)); err != nil {
		return err
	}
	if err := check("vkWaitForFences", vk.WaitForFences(d.device, 1, []vk.Fence{fence}, vk.True, ^uint64(0))); err != nil {
		return err
	}
	return check("vkDeviceWaitIdle", vk.DeviceWaitIdle(d.device))
}

// Severity is a message's VkDebugUtilsMessageSeverityFlagBitsEXT.
type Severity uint32

const (
	SeverityWarning Severity = 0x100
	SeverityError   Severity = 0x1000
)

func (s Severity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return fmt.Sprintf("Severity(%#x)", uint32(s))
}

// Message is one warning or error from the validation layer (or the
// loader), its strings copied.
type Message struct {
	Severity Severity
	// ID is the message's name: a VUID, or e.g.
	// "SYNC-HAZARD-WRITE-AFTER-WRITE" for a synchronization hazard.
	ID   string
	Text string
}

func (m Message) String() string { return m.Severity.String() + " " + m.ID + ": " + m.Text }

// messages collects what the debug messenger reports; the callback can
// run on any thread that calls Vulkan.
type messages struct {
	mu   sync.Mutex
	list []Message
}

func (m *messages) add(msg vkext.Message) {
	m.mu.Lock()
	m.list = append(m.list, Message{Severity: Severity(msg.Severity), ID: msg.ID, Text: msg.Text})
	m.mu.Unlock()
}

// Messages returns a copy of the messages collected so far (empty without
// Config.Validation).
func (d *Device) Messages() []Message {
	d.msgs.mu.Lock()
	defer d.msgs.mu.Unlock()
	return append([]Message(nil), d.msgs.list...)
}

// TakeMessages returns the messages collected so far and forgets them.
func (d *Device) TakeMessages() []Message {
	d.msgs.mu.Lock()
	defer d.msgs.mu.Unlock()
	out := d.msgs.list
	d.msgs.list = nil
	return out
}
