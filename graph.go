package aliasplan

import (
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Graph is a frame: resources and commands in recorded order. The zero
// value is an empty graph; Reset empties it for the next frame and keeps
// its storage. Add resources, then commands whose accesses name them
// (the preset methods below fill in the stages, access flags and layout of
// the common uses; an Access literal says anything else). The builder
// never fails: Planner.Plan validates the graph and reports every rule it
// breaks, naming the resource or command.
//
// The embedded planner.Graph holds the slices (Resources, Commands) and is
// what the lower-level packages take (planner.Compile(&g.Graph)).
type Graph struct {
	planner.Graph
}

// AddBuffer adds a transient buffer and returns its ID.
func (g *Graph) AddBuffer(name string, desc BufferDesc) ResourceID {
	return g.Graph.AddBuffer(name, desc)
}

// AddImage adds a transient image and returns its ID. Depth, MipLevels,
// ArrayLayers and Samples left at 0 mean 1, as in graph files; Tiling's
// zero value is OPTIMAL and InitialLayout's UNDEFINED.
func (g *Graph) AddImage(name string, desc ImageDesc) ResourceID {
	return g.Graph.AddImage(name, desc)
}

// AddResource adds a resource described in full — imported (the caller's
// memory: a swapchain image, a history buffer), host-visible, dedicated,
// or with explicit requirements — and returns its ID.
func (g *Graph) AddResource(r Resource) ResourceID { return g.Graph.AddResource(r) }

// AddCommand appends a command in recorded order and returns its ID. The
// accesses slice is retained.
func (g *Graph) AddCommand(name string, accesses ...Access) CommandID {
	return g.Graph.AddCommand(name, accesses...)
}

// AddCommandOn appends a command that runs on queue q (QueueCompute,
// QueueTransfer; AddCommand runs it on QueueGraphics) and returns its ID.
func (g *Graph) AddCommandOn(q Queue, name string, accesses ...Access) CommandID {
	return g.Graph.AddCommandOn(q, name, accesses...)
}

// Reset empties the graph, keeping its storage for the next frame.
func (g *Graph) Reset() { g.Graph.Reset() }

// Presets: one Access each for the common uses, with stages, access flags
// and layout that agree with each other (Vulkan's rules, which Plan
// checks). Stages are the shader stages of the use (vk.StageComputeShader,
// vk.StageFragmentShader, ...); where a use has one stage, it takes none.
// Each presets the whole image; WithMips, WithLayers and WithAspects narrow
// it to a subresource range (g.ColorAttachment(bloom).WithMips(1, 1)).

// ReadBuffer is a storage-buffer read in stages.
func (g *Graph) ReadBuffer(r ResourceID, stages vk.Stage) Access {
	return Access{Resource: r, Stages: stages, Access: vk.AccessShaderStorageRead}
}

// WriteBuffer is a storage-buffer write in stages (read-modify-write
// included: a write orders like one).
func (g *Graph) WriteBuffer(r ResourceID, stages vk.Stage) Access {
	return Access{Resource: r, Stages: stages, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite}
}

// Uniform is a uniform-buffer read in stages.
func (g *Graph) Uniform(r ResourceID, stages vk.Stage) Access {
	return Access{Resource: r, Stages: stages, Access: vk.AccessUniformRead}
}

// ReadImage is a storage-image read in stages (layout GENERAL).
func (g *Graph) ReadImage(r ResourceID, stages vk.Stage) Access {
	return Access{Resource: r, Stages: stages, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}
}

// WriteImage is a storage-image write in stages (layout GENERAL).
func (g *Graph) WriteImage(r ResourceID, stages vk.Stage) Access {
	return Access{Resource: r, Stages: stages, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
}

// Sampled is a sampled read in stages: SHADER_READ_ONLY_OPTIMAL for a
// colour image, DEPTH_STENCIL_READ_ONLY_OPTIMAL for a depth/stencil one
// (so a depth buffer sampled after a depth test needs no transition).
func (g *Graph) Sampled(r ResourceID, stages vk.Stage) Access {
	layout := vk.LayoutShaderReadOnlyOptimal
	if g.isDepth(r) {
		layout = vk.LayoutDepthStencilReadOnlyOptimal
	}
	return Access{Resource: r, Stages: stages, Access: vk.AccessShaderSampledRead, Layout: layout}
}

// ColorAttachment is a colour attachment written by a draw (load op
// CLEAR or DONT_CARE).
func (g *Graph) ColorAttachment(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite,
		Layout: vk.LayoutColorAttachmentOptimal}
}

// BlendAttachment is a colour attachment read and written (load op
// LOAD, blending).
func (g *Graph) BlendAttachment(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageColorAttachmentOutput,
		Access: vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal}
}

// DepthAttachment is a depth/stencil attachment tested and written.
func (g *Graph) DepthAttachment(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead | vk.AccessDepthStencilAttachmentWrite,
		Layout: vk.LayoutDepthStencilAttachmentOptimal}
}

// DepthTest is a depth/stencil attachment tested, not written.
func (g *Graph) DepthTest(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageEarlyFragmentTests | vk.StageLateFragmentTests,
		Access: vk.AccessDepthStencilAttachmentRead, Layout: vk.LayoutDepthStencilReadOnlyOptimal}
}

// InputAttachment is an input-attachment read by the fragment shader.
func (g *Graph) InputAttachment(r ResourceID) Access {
	layout := vk.LayoutShaderReadOnlyOptimal
	if g.isDepth(r) {
		layout = vk.LayoutDepthStencilReadOnlyOptimal
	}
	return Access{Resource: r, Stages: vk.StageFragmentShader, Access: vk.AccessInputAttachmentRead, Layout: layout}
}

// TransferSrc is the source of a copy or blit (images in
// TRANSFER_SRC_OPTIMAL).
func (g *Graph) TransferSrc(r ResourceID) Access {
	return g.transfer(r, vk.AccessTransferRead, vk.LayoutTransferSrcOptimal)
}

// TransferDst is the destination of a copy, blit, clear or fill (images in
// TRANSFER_DST_OPTIMAL).
func (g *Graph) TransferDst(r ResourceID) Access {
	return g.transfer(r, vk.AccessTransferWrite, vk.LayoutTransferDstOptimal)
}

// Indirect is a buffer of indirect draw or dispatch arguments.
func (g *Graph) Indirect(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageDrawIndirect, Access: vk.AccessIndirectCommandRead}
}

// VertexBuffer is a vertex-buffer read.
func (g *Graph) VertexBuffer(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageVertexAttributeInput, Access: vk.AccessVertexAttributeRead}
}

// IndexBuffer is an index-buffer read.
func (g *Graph) IndexBuffer(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageIndexInput, Access: vk.AccessIndexRead}
}

// Present hands an image to the presentation engine: layout
// PRESENT_SRC_KHR, no access (the caller's queue-present semaphore orders
// it).
func (g *Graph) Present(r ResourceID) Access {
	return Access{Resource: r, Stages: vk.StageBottomOfPipe, Layout: vk.LayoutPresentSrc}
}

func (g *Graph) transfer(r ResourceID, a vk.AccessFlags, layout vk.Layout) Access {
	if !g.isImage(r) {
		layout = vk.LayoutUndefined
	}
	return Access{Resource: r, Stages: vk.StageAllTransfer, Access: a, Layout: layout}
}

func (g *Graph) isImage(r ResourceID) bool {
	return int(r) >= 0 && int(r) < len(g.Resources) && g.Resources[r].Kind == planner.KindImage
}

func (g *Graph) isDepth(r ResourceID) bool {
	return g.isImage(r) && g.Resources[r].Image.Format.IsDepthStencil()
}
