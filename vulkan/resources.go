package vulkan

import (
	"errors"
	"fmt"
	avk "github.com/aliasplan/aliasplan/vk"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Resources holds the Vulkan objects of one graph. It is the
// planner.RequirementsSource for that graph: Requirements creates each
// resource unbound (once) and queries vkGet*MemoryRequirements2 with
// VkMemoryDedicatedRequirements (once); Bind then allocates the plan's
// pools and own allocations and binds those same handles, so every
// resource's requirements are queried exactly once through plan,
// validation and bind.
//
// Ownership: each pool's VkDeviceMemory belongs to the resources bound to
// it. Destroy(id) destroys one resource; the pool's memory is freed
// exactly when the last resource bound to it is destroyed. Dedicated and
// host-visible resources own their allocations, freed with them. Imported
// resources stay the caller's: Resources only records barriers on them.
// Close destroys whatever is left.
//
// A Resources is not safe for concurrent use. The graph must not change
// while it is in use.
type Resources struct {
	dev  *Device
	g    *planner.Graph
	objs []object // indexed by ResourceID
	// pools are the plan's pools once allocated, indexed like plan.Pools.
	pools []pool
	plan  *planner.Plan
	bound bool
	// sharing: how resources used on several queue families are created
	// (SetSharing; queues.go, submit.go).
	sharing Sharing

	// held, when set (BindHeld), is the memory of each plan pool: the
	// caller's, bound into and never freed here.
	held []vk.DeviceMemory

	// deps[k] is the dependency recorded before plan.Order[k]; pos[c] is
	// command c's position in the order (-1 when absent).
	deps    []barriers.Batch
	final   barriers.Batch // Plan.FinalBarriers, recorded after the last command
	pos     []int32
	scratch vkext.Barriers
	// releases and acquires: per command, the plan's ownership transfers
	// recorded after and before it (ownership.go).
	releases, acquires [][]int32
	// excl: under SharingExclusive, planner.Compiled.Exclusive of each
	// resource (computed on first use; ownership.go).
	excl []bool

	queries, created int
}

type object struct {
	buffer   vk.Buffer
	image    vk.Image
	imported bool // the handle is the caller's
	queried  bool
	req      planner.Requirements
	pool     int             // index into Resources.pools; -1 when not pooled
	memory   vk.DeviceMemory // own allocation (dedicated, host-visible)
	mapped   unsafe.Pointer  // host-visible: the mapped allocation base
	aliasBit bool            // created with VK_IMAGE_CREATE_ALIAS_BIT
}

func (o *object) exists() bool { return o.buffer != vk.NullBuffer || o.image != vk.NullImage }

type pool struct {
	memory   vk.DeviceMemory
	refs     int  // resources bound to it (or about to be, during Bind)
	borrowed bool // memory is the caller's (BindHeld): never freed here
}

// NewResources returns an empty Resources for g on d. It creates nothing:
// objects appear when the planner asks for requirements, or at Bind.
func (d *Device) NewResources(g *planner.Graph) *Resources {
	r := &Resources{dev: d, g: g, objs: make([]object, len(g.Resources))}
	for i := range r.objs {
		r.objs[i].pool = -1
	}
	return r
}

// Describe implements planner.RequirementsSource.
func (r *Resources) Describe() string { return r.dev.Describe() }

// MemoryTypes implements planner.RequirementsSource.
func (r *Resources) MemoryTypes() []planner.MemoryType { return r.dev.MemoryTypes() }

// Limits implements planner.LimitsSource: the device's image limits, so
// that an image the device cannot create is a graph error before any
// object is made.
func (r *Resources) Limits() planner.Limits { return r.dev.Limits() }

// Requirements implements planner.RequirementsSource: it creates res
// unbound from its description (the first time) and returns the real
// requirements, cached for Bind. res must be one of the graph's resources
// (by address, else by name). Imported resources have no requirements
// here: the caller owns their memory.
//
// Images get VK_IMAGE_CREATE_ALIAS_BIT when they may be pooled (see
// aliasable): whether one is pooled is only known after placement, and
// the bit does not change requirements.
func (r *Resources) Requirements(res *planner.Resource) (planner.Requirements, error) {
	id, err := r.resolve(res)
	if err != nil {
		return planner.Requirements{}, err
	}
	if err := r.ensure(id); err != nil {
		return planner.Requirements{}, err
	}
	return r.objs[id].req, nil
}

// resolve finds res's ID: by address when res points into the graph (what
// planner.Place passes), else by name.
func (r *Resources) resolve(res *planner.Resource) (planner.ResourceID, error) {
	if n := len(r.g.Resources); n > 0 {
		base := uintptr(unsafe.Pointer(&r.g.Resources[0]))
		size := unsafe.Sizeof(r.g.Resources[0])
		p := uintptr(unsafe.Pointer(res))
		if p >= base && p < base+uintptr(n)*size && (p-base)%size == 0 {
			return planner.ResourceID((p - base) / size), nil
		}
	}
	if id, ok := r.g.ResourceByName(res.Name); ok {
		return id, nil
	}
	return -1, fmt.Errorf("vulkan: resource %q is not in this Resources' graph", res.Name)
}

// ensure creates resource id unbound and queries its requirements, unless
// that was done already.
func (r *Resources) ensure(id planner.ResourceID) error {
	o := &r.objs[id]
	if o.queried {
		return nil
	}
	res := &r.g.Resources[id]
	if res.Imported {
		return fmt.Errorf("vulkan: resource %q is imported: the caller owns its memory, so it has no requirements here", res.Name)
	}
	if err := r.create(id); err != nil {
		return err
	}
	var q vkext.Requirements
	if res.Kind == planner.KindBuffer {
		q = r.dev.dext.BufferRequirements(unsafe.Pointer(o.buffer))
	} else {
		q = r.dev.dext.ImageRequirements(unsafe.Pointer(o.image))
	}
	r.queries++
	o.req = planner.Requirements{Size: q.Size, Alignment: q.Alignment, MemoryTypeBits: q.MemoryTypeBits,
		PrefersDedicated: q.PrefersDedicated, RequiresDedicated: q.RequiresDedicated}
	o.queried = true
	return nil
}

// aliasable reports whether an image gets VK_IMAGE_CREATE_ALIAS_BIT:
// every transient, device-local image not marked dedicated, since any of
// them may end up pooled (the validation layer tracks aliased images
// together only when they carry the bit).
func aliasable(res *planner.Resource) bool {
	return res.Kind == planner.KindImage && !res.Imported && res.Memory == planner.GPUOnly && !res.Dedicated
}

func (r *Resources) create(id planner.ResourceID) error {
	res := &r.g.Resources[id]
	o := &r.objs[id]
	if res.Kind == planner.KindBuffer {
		info := vk.BufferCreateInfo{
			SType:       vk.StructureTypeBufferCreateInfo,
			Size:        vk.DeviceSize(res.Buffer.Size),
			Usage:       vk.BufferUsageFlags(res.Buffer.Usage),
			SharingMode: vk.SharingModeExclusive,
		}
		if fams := r.concurrentFamilies(id); fams != nil {
			info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = vk.SharingModeConcurrent, uint32(len(fams)), fams
		}
		next, free, err := r.dev.preprocessUsage(res.Buffer.Usage, nil) // replay_dgc.go
		if err != nil {
			return fmt.Errorf("vulkan: resource %q: %w", res.Name, err)
		}
		info.PNext = next
		info.Usage &^= vk.BufferUsageFlags(BufferUsagePreprocessEXT) // a flags2 bit, given by the chain
		var b vk.Buffer
		ret := vk.CreateBuffer(r.dev.device, &info, nil, &b)
		info.Free()
		free()
		if err := check("vkCreateBuffer", ret); err != nil {
			return fmt.Errorf("vulkan: resource %q: %w", res.Name, err)
		}
		o.buffer = b
		r.dev.live.Buffers++
		r.created++
		return nil
	}
	im := &res.Image
	if im.InitialLayout != avk.LayoutUndefined && im.InitialLayout != avk.LayoutPreinitialized {
		return fmt.Errorf("vulkan: resource %q: vkCreateImage starts an image in UNDEFINED or PREINITIALIZED, not %s", res.Name, im.InitialLayout)
	}
	typ := vk.ImageType2d
	if im.Depth > 1 {
		typ = vk.ImageType3d
	}
	var flags vk.ImageCreateFlags
	if im.Depth > 1 && im.Usage&(avk.ImageUsageColorAttachment|avk.ImageUsageDepthStencilAttachment) != 0 {
		// A 3D image is rendered to through 2D views of its slices.
		flags |= vk.ImageCreateFlags(vk.ImageCreate2dArrayCompatibleBit)
	}
	if aliasable(res) {
		flags |= vk.ImageCreateFlags(vk.ImageCreateAliasBit)
		o.aliasBit = true
	}
	usage := im.Usage
	if usage&ImageUsageMutableFormatReplay != 0 {
		usage &^= ImageUsageMutableFormatReplay
		flags |= vk.ImageCreateFlags(vk.ImageCreateMutableFormatBit)
	}
	info := vk.ImageCreateInfo{
		SType:         vk.StructureTypeImageCreateInfo,
		Flags:         flags,
		ImageType:     typ,
		Format:        vk.Format(im.Format),
		Extent:        vk.Extent3D{Width: im.Width, Height: im.Height, Depth: im.Depth},
		MipLevels:     im.MipLevels,
		ArrayLayers:   im.ArrayLayers,
		Samples:       vk.SampleCountFlagBits(im.Samples),
		Tiling:        vk.ImageTiling(im.Tiling),
		Usage:         vk.ImageUsageFlags(usage),
		SharingMode:   vk.SharingModeExclusive,
		InitialLayout: vk.ImageLayout(im.InitialLayout),
	}
	if fams := r.concurrentFamilies(id); fams != nil {
		info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = vk.SharingModeConcurrent, uint32(len(fams)), fams
	}
	var img vk.Image
	ret := vk.CreateImage(r.dev.device, &info, nil, &img)
	info.Free()
	if err := check("vkCreateImage", ret); err != nil {
		return fmt.Errorf("vulkan: resource %q: %w", res.Name, err)
	}
	o.image = img
	r.dev.live.Images++
	r.created++
	return nil
}

// ImageUsageMutableFormatReplay is no Vulkan usage bit: package
// vulkan/replay sets it, in its copy of a graph, on signed-integer images
// it renders to or samples through unsigned views of the same texels, and
// Resources creates such an image with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT
// instead (the bit itself never reaches Vulkan). The plan's requirements
// come from the images so created, so they agree with what is bound.
const ImageUsageMutableFormatReplay avk.ImageUsage = 0x80000000

// Queries returns how many vkGet*MemoryRequirements2 calls this
// Resources made: at most one per resource.
func (r *Resources) Queries() int { return r.queries }

// Created returns how many buffers and images this Resources created.
func (r *Resources) Created() int { return r.created }

// Buffer returns resource id's VkBuffer (the caller's, for an imported
// one); NullBuffer when it has none (an image, unused, not yet created, or
// destroyed).
func (r *Resources) Buffer(id planner.ResourceID) vk.Buffer { return r.objs[id].buffer }

// Image returns resource id's VkImage, like Buffer.
func (r *Resources) Image(id planner.ResourceID) vk.Image { return r.objs[id].image }

// ImportBuffer hands over the caller's buffer for imported resource id;
// barriers on it are recorded on this handle. It may be called again
// (e.g. each frame); the caller keeps ownership.
func (r *Resources) ImportBuffer(id planner.ResourceID, b vk.Buffer) error {
	if err := r.checkImport(id, planner.KindBuffer); err != nil {
		return err
	}
	r.objs[id].buffer, r.objs[id].imported = b, true
	return nil
}

// ImportImage hands over the caller's image for imported resource id,
// like ImportBuffer (a swapchain image changes every frame).
func (r *Resources) ImportImage(id planner.ResourceID, im vk.Image) error {
	if err := r.checkImport(id, planner.KindImage); err != nil {
		return err
	}
	r.objs[id].image, r.objs[id].imported = im, true
	return nil
}

func (r *Resources) checkImport(id planner.ResourceID, kind planner.Kind) error {
	res := &r.g.Resources[id]
	if !res.Imported {
		return fmt.Errorf("vulkan: resource %q is not imported", res.Name)
	}
	if res.Kind != kind {
		return fmt.Errorf("vulkan: resource %q is a %s, not a %s", res.Name, res.Kind, kind)
	}
	return nil
}

// bindHook, when set by a test, runs at the start of each Bind step and
// can fail it, to prove that Bind cleans up after a failure at any step.
var bindHook func(step string) error

func (r *Resources) step(name string) error {
	if bindHook != nil {
		if err := bindHook(name); err != nil {
			return &BindError{Step: name, Err: err}
		}
	}
	return nil
}

// Bind applies a plan made for this graph with this Resources as the
// requirements source (or with the graph's explicit requirements):
//
//  1. create: every resource the plan allocates that is not yet created
//     is created and queried (once); unused transients are never created
//     (and destroyed if something created them);
//  2. validate: every pooled resource's real requirements are checked
//     against its placement: offset alignment, the pool's memory type in
//     memoryTypeBits, the real size within the planned size and within
//     the pool (a *BindError with a Rule, naming the resource);
//  3. allocate: one VkDeviceMemory per pool, of the pool's memory type
//     and size;
//  4. bind: per pool, all its buffers in one vkBindBufferMemory2 call and
//     all its images in one vkBindImageMemory2 call, at their offsets;
//  5. own allocations: dedicated resources get their own memory with
//     VkMemoryDedicatedAllocateInfo, host-visible ones a host-visible,
//     host-coherent allocation that stays mapped; bound in grouped calls.
//
// Bind is transactional: on any failure everything created so far, by
// Bind and by Requirements, is destroyed, and the *BindError names the
// step. The plan is retained for Record; it must not change.
func (r *Resources) Bind(plan *planner.Plan) (err error) {
	if r.bound {
		return &BindError{Step: "validate", Rule: RulePlan, Detail: "this Resources is already bound"}
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if len(plan.Resources) != len(r.g.Resources) {
		return &BindError{Step: "validate", Rule: RulePlan,
			Detail: fmt.Sprintf("the plan has %d resources, the graph %d", len(plan.Resources), len(r.g.Resources))}
	}
	if err := r.step("create"); err != nil {
		return err
	}
	for id := range plan.Resources {
		res := &r.g.Resources[id]
		switch plan.Resources[id].Status {
		case planner.StatusUnused:
			if o := &r.objs[id]; o.exists() && !o.imported {
				r.Destroy(planner.ResourceID(id))
			}
		case planner.StatusImported:
		default:
			if res.Imported {
				return &BindError{Step: "validate", Resource: res.Name, Rule: RulePlan, Detail: "the graph imports it but the plan allocates it"}
			}
			if err := r.ensure(planner.ResourceID(id)); err != nil {
				return &BindError{Step: "create", Resource: res.Name, Err: err}
			}
		}
	}
	if err := r.step("validate"); err != nil {
		return err
	}
	if err := r.validate(plan); err != nil {
		return err
	}
	own := make([]uint32, len(plan.Resources)) // memory type per own allocation
	for id := range plan.Resources {
		switch plan.Resources[id].Status {
		case planner.StatusDedicated, planner.StatusHostVisible:
			res := &r.g.Resources[id]
			t, ok := ownMemoryType(r.dev.types, r.objs[id].req.MemoryTypeBits, res.Memory)
			if !ok {
				return &BindError{Step: "validate", Resource: res.Name, Rule: RuleMemoryType,
					Detail: fmt.Sprintf("no memory type in memoryTypeBits %#x suits %s memory", r.objs[id].req.MemoryTypeBits, res.Memory)}
			}
			own[id] = t
		}
	}
	r.pools = make([]pool, len(plan.Pools))
	for id := range plan.Resources {
		if plan.Resources[id].Status == planner.StatusPooled {
			p := plan.Resources[id].Placement.Pool
			r.objs[id].pool = p
			r.pools[p].refs++
		}
	}
	addressedPools := r.addressedPools(plan) // address.go
	for i := range plan.Pools {
		if r.pools[i].refs == 0 {
			continue // nothing to bind: allocating it would only leak
		}
		step := fmt.Sprintf("allocate pool %d", i)
		if err := r.step(step); err != nil {
			return err
		}
		if r.held != nil { // frames.go
			if err := r.borrowPool(i, plan); err != nil {
				return err
			}
			continue
		}
		head, free := addressChain(addressedPools[i], nil) // address.go
		m, err := r.allocate(plan.Pools[i].Size, plan.Pools[i].MemoryTypeIndex, head)
		free()
		if err != nil {
			return &BindError{Step: step, Detail: fmt.Sprintf("%d bytes of memory type %d", plan.Pools[i].Size, plan.Pools[i].MemoryTypeIndex), Err: err}
		}
		r.pools[i].memory = m
	}
	var bufs, imgs []vkext.Bind
	for i := range plan.Pools {
		bufs, imgs = bufs[:0], imgs[:0]
		for id := range plan.Resources {
			if rp := &plan.Resources[id]; rp.Status == planner.StatusPooled && rp.Placement.Pool == i {
				bufs, imgs = r.appendBind(bufs, imgs, planner.ResourceID(id), r.pools[i].memory, rp.Placement.Offset)
			}
		}
		if err := r.bindGroup(fmt.Sprintf("bind pool %d", i), bufs, imgs); err != nil {
			return err
		}
	}
	if err := r.step("allocate own"); err != nil {
		return err
	}
	bufs, imgs = bufs[:0], imgs[:0]
	for id := range plan.Resources {
		st := plan.Resources[id].Status
		if st != planner.StatusDedicated && st != planner.StatusHostVisible {
			continue
		}
		o := &r.objs[id]
		var chain vkext.Chain
		if st == planner.StatusDedicated {
			chain = vkext.DedicatedAllocateInfo(unsafe.Pointer(o.buffer), unsafe.Pointer(o.image))
		}
		head, free := addressChain(r.dev.deviceAddresses() && addressed(&r.g.Resources[id]), chain.Head()) // address.go
		m, err := r.allocate(o.req.Size, own[id], head)
		free()
		chain.Free()
		if err != nil {
			return &BindError{Step: "allocate own", Resource: r.g.Resources[id].Name, Err: err}
		}
		o.memory = m
		bufs, imgs = r.appendBind(bufs, imgs, planner.ResourceID(id), m, 0)
	}
	if err := r.bindGroup("bind own", bufs, imgs); err != nil {
		return err
	}
	if err := r.step("map"); err != nil {
		return err
	}
	for id := range plan.Resources {
		if plan.Resources[id].Status != planner.StatusHostVisible {
			continue
		}
		o := &r.objs[id]
		var p unsafe.Pointer
		if err := check("vkMapMemory", vk.MapMemory(r.dev.device, o.memory, 0, vk.DeviceSize(vk.WholeSize), 0, &p)); err != nil {
			return &BindError{Step: "map", Resource: r.g.Resources[id].Name, Err: err}
		}
		o.mapped = p
	}
	if err := r.checkOwnership(plan); err != nil { // ownership.go
		return err
	}
	r.plan = plan
	r.prepareRecording()
	r.bound = true
	return nil
}

// validate checks each pooled resource's real requirements against its
// placement and pool.
func (r *Resources) validate(plan *planner.Plan) error {
	nc, nr := planner.CommandID(len(r.g.Commands)), planner.ResourceID(len(r.g.Resources))
	inOrder := make([]bool, nc)
	for _, c := range plan.Order {
		if c < 0 || c >= nc || inOrder[c] {
			return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("the order names command %d twice or out of range (the graph has %d)", c, nc)}
		}
		inOrder[c] = true
	}
	for i := range plan.Barriers {
		b := &plan.Barriers[i]
		if b.Before < 0 || b.Before >= nc || !inOrder[b.Before] || b.Resource < 0 || b.Resource >= nr {
			return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("barrier %d is before command %d on resource %d: not in the order or the graph", i, b.Before, b.Resource)}
		}
	}
	for i := range plan.FinalBarriers {
		b := &plan.FinalBarriers[i]
		if b.Before != planner.EndOfFrame || b.Resource < 0 || b.Resource >= nr || r.g.Resources[b.Resource].Kind != planner.KindImage {
			return &BindError{Step: "validate", Rule: RulePlan, Detail: fmt.Sprintf("final barrier %d on resource %d: not an image of the graph at the end of the frame", i, b.Resource)}
		}
	}
	for id := range plan.Resources {
		rp := &plan.Resources[id]
		if rp.Status != planner.StatusPooled {
			continue
		}
		name := r.g.Resources[id].Name
		q := &r.objs[id].req
		pl := &rp.Placement
		fail := func(rule BindRule, format string, args ...any) error {
			return &BindError{Step: "validate", Resource: name, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		}
		if pl.Pool < 0 || pl.Pool >= len(plan.Pools) {
			return fail(RulePlan, "pool %d does not exist (the plan has %d)", pl.Pool, len(plan.Pools))
		}
		p := &plan.Pools[pl.Pool]
		if int(p.MemoryTypeIndex) >= len(r.dev.types) {
			return fail(RulePlan, "pool %d has memory type %d; the device has %d", pl.Pool, p.MemoryTypeIndex, len(r.dev.types))
		}
		if q.MemoryTypeBits&(1<<p.MemoryTypeIndex) == 0 {
			return fail(RuleMemoryTypeBits, "pool %d is memory type %d, not in memoryTypeBits %#x", pl.Pool, p.MemoryTypeIndex, q.MemoryTypeBits)
		}
		if q.Alignment != 0 && pl.Offset%q.Alignment != 0 {
			return fail(RuleAlignment, "offset %d is not a multiple of the alignment %d", pl.Offset, q.Alignment)
		}
		if q.Size > pl.Size {
			return fail(RuleSize, "the device needs %d bytes, the plan gives %d", q.Size, pl.Size)
		}
		if pl.Offset > p.Size || q.Size > p.Size-pl.Offset {
			return fail(RuleBounds, "[%d, %d) runs past the end of pool %d (%d bytes)", pl.Offset, pl.Offset+q.Size, pl.Pool, p.Size)
		}
	}
	return nil
}

// ownMemoryType picks the memory type of a resource's own allocation:
// device-local for gpu_only; host-visible and host-coherent (no flushes)
// for the host-visible kinds, cached for readback, uncached for upload.
func ownMemoryType(types []planner.MemoryType, bits uint32, mem planner.Memory) (uint32, bool) {
	best, bestRank := uint32(0), -1
	for i := range types {
		if i >= 32 || bits&(1<<i) == 0 {
			continue
		}
		f := types[i].Flags
		rank := 0
		switch mem {
		case planner.GPUOnly:
			if f&planner.MemoryDeviceLocal != 0 {
				rank += 2
			}
			if f&planner.MemoryHostVisible == 0 {
				rank++
			}
		default:
			if f&(planner.MemoryHostVisible|planner.MemoryHostCoherent) != planner.MemoryHostVisible|planner.MemoryHostCoherent {
				continue
			}
			cached := f&planner.MemoryHostCached != 0
			if cached == (mem == planner.GPUToCPU) {
				rank++
			}
		}
		if rank > bestRank {
			best, bestRank = uint32(i), rank
		}
	}
	return best, bestRank >= 0
}

func (r *Resources) allocate(size uint64, typeIndex uint32, pNext unsafe.Pointer) (vk.DeviceMemory, error) {
	info := vk.MemoryAllocateInfo{
		SType:           vk.StructureTypeMemoryAllocateInfo,
		PNext:           pNext,
		AllocationSize:  vk.DeviceSize(size),
		MemoryTypeIndex: typeIndex,
	}
	var m vk.DeviceMemory
	ret := vk.AllocateMemory(r.dev.device, &info, nil, &m)
	info.Free()
	if err := check("vkAllocateMemory", ret); err != nil {
		return vk.NullDeviceMemory, err
	}
	r.dev.live.Memory++
	return m, nil
}

func (r *Resources) appendBind(bufs, imgs []vkext.Bind, id planner.ResourceID, m vk.DeviceMemory, offset uint64) ([]vkext.Bind, []vkext.Bind) {
	o := &r.objs[id]
	if o.buffer != vk.NullBuffer {
		return append(bufs, vkext.Bind{Object: unsafe.Pointer(o.buffer), Memory: unsafe.Pointer(m), Offset: offset}), imgs
	}
	return bufs, append(imgs, vkext.Bind{Object: unsafe.Pointer(o.image), Memory: unsafe.Pointer(m), Offset: offset})
}

// bindGroup binds bufs with one vkBindBufferMemory2 call and imgs with one
// vkBindImageMemory2 call.
func (r *Resources) bindGroup(step string, bufs, imgs []vkext.Bind) error {
	if len(bufs) > 0 {
		s := step + " buffers"
		if err := r.step(s); err != nil {
			return err
		}
		if err := check("vkBindBufferMemory2", vk.Result(r.dev.dext.BindBuffers(bufs))); err != nil {
			return &BindError{Step: s, Detail: fmt.Sprintf("%d buffers", len(bufs)), Err: err}
		}
	}
	if len(imgs) > 0 {
		s := step + " images"
		if err := r.step(s); err != nil {
			return err
		}
		if err := check("vkBindImageMemory2", vk.Result(r.dev.dext.BindImages(imgs))); err != nil {
			return &BindError{Step: s, Detail: fmt.Sprintf("%d images", len(imgs)), Err: err}
		}
	}
	return nil
}

// Map returns the mapped bytes of a bound host-visible resource: the
// buffer's size, or the image's required size. The memory is host-coherent:
// no flush or invalidate is needed, but the host must only read after the
// GPU work is waited for (make a graph command with a HOST stage and
// HOST_READ access the resource's last use, so the plan has a barrier for
// it) and only write before submitting.
func (r *Resources) Map(id planner.ResourceID) ([]byte, error) {
	o := &r.objs[id]
	res := &r.g.Resources[id]
	if o.mapped == nil {
		return nil, fmt.Errorf("vulkan: resource %q is not a bound host-visible resource", res.Name)
	}
	n := o.req.Size
	if res.Kind == planner.KindBuffer {
		n = res.Buffer.Size
	}
	return unsafe.Slice((*byte)(o.mapped), n), nil
}

// Destroy destroys resource id's buffer or image and its own allocation.
// A pooled resource releases its pool: the pool's memory is freed when the
// last resource bound to it is destroyed. An imported resource's handle is
// only forgotten. Destroying a resource twice, or one never created, is a
// no-op. The GPU must be done with it (e.g. after vkDeviceWaitIdle).
func (r *Resources) Destroy(id planner.ResourceID) {
	o := &r.objs[id]
	dev := r.dev.device
	if o.imported {
		*o = object{pool: -1}
		return
	}
	if o.buffer != vk.NullBuffer {
		vk.DestroyBuffer(dev, o.buffer, nil)
		r.dev.live.Buffers--
	}
	if o.image != vk.NullImage {
		vk.DestroyImage(dev, o.image, nil)
		r.dev.live.Images--
	}
	if o.memory != vk.NullDeviceMemory {
		// vkFreeMemory unmaps implicitly.
		vk.FreeMemory(dev, o.memory, nil)
		r.dev.live.Memory--
	}
	if o.pool >= 0 {
		r.releasePool(o.pool)
	}
	*o = object{pool: -1}
}

func (r *Resources) releasePool(i int) {
	p := &r.pools[i]
	p.refs--
	if p.refs == 0 && p.memory != vk.NullDeviceMemory && p.borrowed {
		p.memory = vk.NullDeviceMemory
	}
	if p.refs == 0 && p.memory != vk.NullDeviceMemory {
		vk.FreeMemory(r.dev.device, p.memory, nil)
		r.dev.live.Memory--
		p.memory = vk.NullDeviceMemory
	}
}

// Close destroys every resource still alive (and so frees every pool) and
// forgets the plan; the Resources can plan and bind again. The GPU must be
// done with them.
func (r *Resources) Close() {
	for id := range r.objs {
		r.Destroy(planner.ResourceID(id))
	}
	// A pool allocated for members that were never bound (a Bind that
	// failed between allocating and binding) was released with them; this
	// only guards against a plan whose pool has no member.
	for i := range r.pools {
		if r.pools[i].memory != vk.NullDeviceMemory && !r.pools[i].borrowed {
			vk.FreeMemory(r.dev.device, r.pools[i].memory, nil)
			r.dev.live.Memory--
		}
	}
	r.pools, r.plan, r.bound, r.held = nil, nil, false, nil
	r.deps, r.pos = nil, nil
}

// PoolMemory returns pool i's VkDeviceMemory: NullDeviceMemory when it is
// not allocated or already freed (its last resource was destroyed).
func (r *Resources) PoolMemory(i int) vk.DeviceMemory {
	if i < 0 || i >= len(r.pools) {
		return vk.NullDeviceMemory
	}
	return r.pools[i].memory
}

// Live returns how many allocations, buffers and images made through this
// package on the device are still alive; all zero once every Resources is
// closed.
func (d *Device) Live() (allocations, buffers, images int) {
	return d.live.Memory, d.live.Buffers, d.live.Images
}

var errNotBound = errors.New("vulkan: Resources is not bound (call Bind first)")
