package planner

import "github.com/aliasplan/aliasplan/vk"
import "fmt"

// ResourceID indexes Graph.Resources. IDs are dense: 0..len(Resources)-1.
type ResourceID int32

// CommandID indexes Graph.Commands; it is also the command's position in
// recorded order.
type CommandID int32

// Kind says whether a resource is a buffer or an image.
type Kind uint8

const (
	KindBuffer Kind = iota
	KindImage
)

func (k Kind) String() string {
	switch k {
	case KindBuffer:
		return "buffer"
	case KindImage:
		return "image"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Memory is the kind of memory a resource lives in. Host-visible kinds are
// never pooled: mapping returns the allocation base.
type Memory uint8

const (
	GPUOnly  Memory = iota // device-local; the default
	CPUToGPU               // host-visible upload memory
	GPUToCPU               // host-visible readback memory
)

var memoryNames = [...]string{GPUOnly: "gpu_only", CPUToGPU: "cpu_to_gpu", GPUToCPU: "gpu_to_cpu"}

func (m Memory) String() string {
	if int(m) < len(memoryNames) {
		return memoryNames[m]
	}
	return fmt.Sprintf("Memory(%d)", uint8(m))
}

// ParseMemory maps a file name ("gpu_only", ...) to its Memory.
func ParseMemory(name string) (Memory, bool) {
	for i, n := range memoryNames {
		if n == name {
			return Memory(i), true
		}
	}
	return 0, false
}

// HostVisible reports whether the memory kind is mapped by the host.
func (m Memory) HostVisible() bool { return m != GPUOnly }

// BufferDesc describes a buffer as vkCreateBuffer would see it.
type BufferDesc struct {
	Size  uint64 // > 0
	Usage vk.BufferUsage
}

// ImageDesc describes an image as vkCreateImage would see it.
type ImageDesc struct {
	Format                 vk.Format
	Width, Height, Depth   uint32 // each > 0
	MipLevels, ArrayLayers uint32 // each > 0
	Samples                uint32 // a power of two
	Tiling                 vk.Tiling
	Usage                  vk.ImageUsage
	InitialLayout          vk.Layout
	// FinalLayout, for an imported image, is the layout the frame must
	// leave it in (what the next frame, or the presentation engine,
	// declares it arrives in): the plan transitions it there after its
	// last use (Plan.FinalBarriers). LayoutUndefined, the zero value,
	// means none: the image stays in its last use's layout, and the plan
	// warns when that differs from InitialLayout. Transient images have
	// none (their contents end with the frame).
	FinalLayout vk.Layout
}

// Class separates pool contents so that bufferImageGranularity never needs
// padding: linear resources (buffers, linear-tiled images) and optimal-tiled
// images never share a pool.
type Class uint8

const (
	ClassLinear Class = iota
	ClassOptimal
)

func (c Class) String() string {
	switch c {
	case ClassLinear:
		return "linear"
	case ClassOptimal:
		return "optimal"
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// ParseClass maps "linear" or "optimal" to its Class.
func ParseClass(name string) (Class, bool) {
	switch name {
	case "linear":
		return ClassLinear, true
	case "optimal":
		return ClassOptimal, true
	}
	return 0, false
}

// Requirements are a resource's memory requirements, as
// vkGet*MemoryRequirements2 reports them.
type Requirements struct {
	Size              uint64 // > 0
	Alignment         uint64 // a power of two
	MemoryTypeBits    uint32 // != 0
	PrefersDedicated  bool
	RequiresDedicated bool
}

// Resource is a buffer or an image used by the graph's commands.
type Resource struct {
	Name   string // unique among resources, non-empty
	Kind   Kind
	Buffer BufferDesc // meaningful when Kind == KindBuffer
	Image  ImageDesc  // meaningful when Kind == KindImage

	// Imported resources are owned by the caller: tracked for hazards,
	// never placed.
	Imported bool
	Memory   Memory
	// Dedicated asks for an allocation of its own.
	Dedicated bool
	// Requirements, when non-nil, are explicit memory requirements (from a
	// file or a device). When nil, the planner asks its RequirementsSource.
	Requirements *Requirements
}

// Class is the pool class implied by the resource's kind and tiling.
func (r *Resource) Class() Class {
	if r.Kind == KindImage && r.Image.Tiling == vk.TilingOptimal {
		return ClassOptimal
	}
	return ClassLinear
}

// Access is one use of a resource by a command.
//
// An image access may name a subresource range (Mips, Layers, Aspects:
// WithMips, WithLayers, WithAspects); their zero values mean the whole
// image, and a range that covers the whole image costs Compile nothing
// extra. Ranges are ignored for buffers (Validate rejects one that is set).
type Access struct {
	Resource ResourceID
	// Layers is the range of array layers accessed (declared here, in the
	// padding after Resource, so that Access stays 32 bytes).
	Layers LayerRange
	Stages vk.Stage       // != 0
	Access vk.AccessFlags // may be 0 (an execution-only dependency)
	// Layout is the image layout the command needs; ignored for buffers.
	Layout vk.Layout
	// Mips is the range of mip levels accessed.
	Mips MipRange
	// Aspects are the aspects accessed; 0 is every aspect of the format.
	Aspects vk.Aspect
}

// Command is one unit of recorded GPU work and the resources it touches.
type Command struct {
	Name     string // unique among commands, non-empty
	Accesses []Access
	Queue    Queue // the queue it runs on; graphics when left zero
}

// Graph is a frame: resources and commands in recorded order. The zero
// value is an empty graph ready for use. A renderer typically builds one
// per frame with AddBuffer, AddImage and AddCommand, then compiles it.
//
// The builder methods never fail; Validate (called by Compile) reports
// every rule a graph breaks, up to MaxValidateErrors at once.
type Graph struct {
	Resources []Resource
	Commands  []Command
}

// AddBuffer adds a transient buffer and returns its ID.
func (g *Graph) AddBuffer(name string, desc BufferDesc) ResourceID {
	return g.AddResource(Resource{Name: name, Kind: KindBuffer, Buffer: desc})
}

// AddImage adds a transient image and returns its ID. Depth, MipLevels,
// ArrayLayers and Samples left at 0 mean 1, as in graph files.
func (g *Graph) AddImage(name string, desc ImageDesc) ResourceID {
	return g.AddResource(Resource{Name: name, Kind: KindImage, Image: desc})
}

// AddResource adds a resource described in full (imported, host-visible,
// dedicated, explicit requirements) and returns its ID. An image's Depth,
// MipLevels, ArrayLayers and Samples left at 0 mean 1, as in graph files.
func (g *Graph) AddResource(r Resource) ResourceID {
	if r.Kind == KindImage {
		r.Image.defaults()
	}
	g.Resources = append(g.Resources, r)
	return ResourceID(len(g.Resources) - 1)
}

// AddCommand appends a command in recorded order and returns its ID. The
// accesses slice is retained.
func (g *Graph) AddCommand(name string, accesses ...Access) CommandID {
	g.Commands = append(g.Commands, Command{Name: name, Accesses: accesses})
	return CommandID(len(g.Commands) - 1)
}

// Reset empties the graph, keeping its storage for the next frame.
func (g *Graph) Reset() {
	clear(g.Resources)
	clear(g.Commands)
	g.Resources = g.Resources[:0]
	g.Commands = g.Commands[:0]
}

// ResourceByName returns the ID of the named resource.
func (g *Graph) ResourceByName(name string) (ResourceID, bool) {
	for i := range g.Resources {
		if g.Resources[i].Name == name {
			return ResourceID(i), true
		}
	}
	return -1, false
}

// CommandByName returns the ID of the named command.
func (g *Graph) CommandByName(name string) (CommandID, bool) {
	for i := range g.Commands {
		if g.Commands[i].Name == name {
			return CommandID(i), true
		}
	}
	return -1, false
}

// defaults sets the counts a graph file may leave out (and the builder
// may leave at 0) to 1.
func (d *ImageDesc) defaults() {
	for _, n := range []*uint32{&d.Depth, &d.MipLevels, &d.ArrayLayers, &d.Samples} {
		if *n == 0 {
			*n = 1
		}
	}
}

// validateFinalLayout checks ImageDesc.FinalLayout: only on imported
// images, and a layout an image can be transitioned into.
func validateFinalLayout(r *Resource, fail func(Rule, string, ...any) error) error {
	f := r.Image.FinalLayout
	switch {
	case r.Kind != KindImage || f == vk.LayoutUndefined:
		return nil
	case !r.Imported:
		return fail(RuleFinalLayout, "final layout %s on a transient image: only imported images have one (a transient's contents end with the frame)", f)
	case f == vk.LayoutPreinitialized:
		return fail(RuleFinalLayout, "final layout %s: no barrier can transition an image into it", f)
	}
	if _, ok := vk.ParseLayout(f.String()); !ok {
		return fail(RuleField, "unknown final layout %d", uint32(f))
	}
	return nil
}
