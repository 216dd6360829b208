// Package vulkan applies aliasplan's plans to a real Vulkan device: it
// supplies exact memory requirements to the planner, allocates aliasable
// pools, binds resources at their planned offsets and records the planned
// synchronization2 barriers around a renderer's own work.
//
// # Layers
//
// The 1.0 entry points come from github.com/goki/vulkan (v1.0.8). The
// promoted ones it does not wrap (vkGetBufferMemoryRequirements2,
// vkGetImageMemoryRequirements2, vkBindBufferMemory2, vkBindImageMemory2,
// vkCmdPipelineBarrier2) and the debug-utils messenger are called by the
// small cgo layer in internal/vkext through vkGetDeviceProcAddr. That
// layer dlopens libvulkan.so.1 itself (goki's loader wants libvulkan.so,
// which only the -dev package has) and declares the few structures it
// needs by hand, checked against Vulkan's header by a test. Building
// needs neither Vulkan headers nor libraries; without a loader or a
// device, Open fails with an error for which Unavailable is true.
//
// # Device
//
// Open creates an instance and a device with Vulkan 1.3 where the device
// has it, otherwise Vulkan 1.1 plus VK_KHR_synchronization2; when neither
// is available the error names what is missing. Config.Validation turns on
// VK_LAYER_KHRONOS_validation with synchronization validation
// (VkValidationFeaturesEXT) and collects its warnings and errors
// (Device.Messages), including those of instance creation and
// destruction; leaked objects are reported when the device is destroyed.
//
// # Requirements, pools and binding
//
// Device.NewResources(g) returns a Resources: the planner.RequirementsSource
// for graph g. The planner's first question about a resource creates it
// unbound and queries vkGet*MemoryRequirements2 with
// VkMemoryDedicatedRequirements; the handle and the requirements are
// cached, and Bind binds that same handle, so each resource is queried
// once through plan, validation and bind. Images that may be pooled
// (transient, device-local, not marked dedicated) are created with
// VK_IMAGE_CREATE_ALIAS_BIT; whether one ends up pooled is only known
// after placement, and the bit does not change requirements.
//
// Bind allocates one VkDeviceMemory per pool, of the pool's memory type,
// binds all of a pool's buffers with one vkBindBufferMemory2 call and all
// its images with one vkBindImageMemory2 call, after checking each
// resource's real alignment, memoryTypeBits and size against its placement
// (a *BindError with a BindRule, naming the resource). Dedicated resources
// get their own allocation with VkMemoryDedicatedAllocateInfo;
// host-visible ones a host-visible, host-coherent allocation that stays
// mapped (Map). Unused transients are never created; imported resources
// are the caller's (ImportBuffer, ImportImage). Bind is transactional: a
// failure at any step destroys everything created so far and the error
// names the step.
//
// Ownership: a pool's memory belongs to the resources bound to it and is
// freed exactly when the last of them is destroyed (Resources.Destroy);
// own allocations are freed with their resource; Resources.Close destroys
// all that is left. Device.Close reports objects left alive.
//
// # Recording
//
// Resources.Record is the executor: for each command of the plan's
// execution order it records the barriers anchored before it (one
// vkCmdPipelineBarrier2 from barriers.Dependencies, handles substituted)
// and then calls the renderer's Work for that command.
// Resources.RecordBarriers does one command, for renderers that drive the
// order themselves. Recording allocates nothing once warm. Plans are
// single-queue: submit on Device.Queue.
//
// # Cost and concurrency
//
// Requirements costs one vkCreate* and one query per resource, once.
// Bind is O(R·P) for R resources and P pools, plus one allocation per pool
// and per own allocation and two bind calls per pool. Neither Device nor
// Resources is safe for concurrent use, except Device.Messages and
// Device.TakeMessages. goki keeps its instance-level function pointers
// process-wide (the loader's trampolines, valid for any instance), so
// several Devices may be open at once.
//
// # Tests
//
// The GPU tests run on whatever device the loader offers (lavapipe in CI,
// installed by scripts/install-vulkan.sh) with validation and
// synchronization validation on; any message fails them. Without a device
// they skip, unless ALIASPLAN_REQUIRE_VULKAN=1 makes them fail.
// ALIASPLAN_VULKAN_DEVICE picks a device by name. With -test.v they log
// the requirements seen, the pools and the bytes saved.
package vulkan
