package replay

import (
	"slices"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// Generic uses: stages ALL_COMMANDS / ALL_GRAPHICS and accesses
// MEMORY_READ / MEMORY_WRITE name no particular work, so the replay picks
// one concrete piece of work that such a use stands for (concreteGraph)
// and replays that, under the barriers the plan emitted for the generic
// use (which cover every stage and access the concrete work has, since
// the concrete stages lie inside the declared ones and the concrete
// flags are reads for MEMORY_READ and writes for MEMORY_WRITE). The
// choice, first that fits the resource's usage, layout, sample count and
// the command's queue, in this order (docs/replay.md: generic uses):
//
//   - stages generic, flags concrete: each flag in its own stage (shader
//     flags in the compute shader, or the fragment shader where compute is
//     not among the stages or the image is multisampled; attachment flags
//     in their attachment stages; transfer flags in ALL_TRANSFER; ...).
//   - MEMORY_WRITE of a buffer: a compute (else fragment) storage write
//     with STORAGE_BUFFER usage, else a fill (CLEAR) with TRANSFER_DST.
//   - MEMORY_WRITE of an image: a compute storage write in GENERAL, a
//     colour (or depth) attachment write in an attachment layout, a clear
//     in TRANSFER_DST_OPTIMAL or GENERAL, a fragment storage write.
//   - MEMORY_READ: a read that feeds the digest: a uniform, storage or
//     texel read of a buffer in the compute (else fragment) shader, else
//     an indirect, vertex or index read; a sampled read of an image in a
//     sampled layout, a storage read in GENERAL, an input-attachment read,
//     a read-only depth attachment.
//   - MEMORY_READ|MEMORY_WRITE: the write with its read where the work
//     has one (storage read and write, blending, depth test and write);
//     otherwise the write alone (a declared read the work does not do
//     leaves the plan's barriers still covering what it does).
//
// A generic use no candidate fits keeps its flags and is refused by
// analyzeCommand naming the usage and layout it lacks.

const (
	genericStages = vk.StageAllCommands | vk.StageAllGraphics
	genericAccess = vk.AccessMemoryRead | vk.AccessMemoryWrite
)

func isGeneric(a *p.Access) bool {
	return a.Access != 0 && (a.Stages&genericStages != 0 || a.Access&genericAccess != 0)
}

// concreteGraph is g with every generic use replaced by the concrete use
// the replay performs for it; g itself when it has none.
func concreteGraph(g *p.Graph) *p.Graph {
	var out *p.Graph
	for c := range g.Commands {
		cmd := &g.Commands[c]
		cloned := false
		for i := range cmd.Accesses {
			a := &cmd.Accesses[i]
			if !isGeneric(a) {
				continue
			}
			na, ok := concreteAccess(&g.Resources[a.Resource], a, cmd.Queue)
			if !ok {
				continue
			}
			if out == nil {
				cp := *g
				cp.Commands = slices.Clone(g.Commands)
				out = &cp
			}
			if !cloned {
				out.Commands[c].Accesses, cloned = slices.Clone(cmd.Accesses), true
			}
			out.Commands[c].Accesses[i] = na
		}
	}
	if out == nil {
		return g
	}
	return out
}

// queueStages are the stages a queue's commands can run work in.
func queueStages(q p.Queue) vk.Stage {
	switch q {
	case p.QueueCompute:
		return vk.StageComputeShader | transferStages
	case p.QueueTransfer:
		return transferStages
	}
	return ^vk.Stage(0) &^ vk.StageHost
}

type candidate struct {
	stages vk.Stage
	flags  vk.AccessFlags
	fits   bool
}

// concreteAccess is the concrete use standing for a (see above), and
// whether one fits.
func concreteAccess(r *p.Resource, a *p.Access, q p.Queue) (p.Access, bool) {
	allowed := (a.Stages &^ orderingStages).Expand() & queueStages(q)
	if a.Stages&vk.StageHost != 0 {
		allowed |= vk.StageHost
	}
	na := *a
	explicit := a.Access &^ genericAccess
	if a.Stages&genericStages != 0 {
		na.Stages = a.Stages &^ genericStages
		if explicit != 0 {
			st, ok := explicitStages(r, explicit, allowed)
			if !ok {
				return *a, false
			}
			na.Stages |= st
		}
	}
	na.Access = explicit
	if a.Access&genericAccess == 0 {
		return na, true
	}
	read, write := a.Access&vk.AccessMemoryRead != 0, a.Access&vk.AccessMemoryWrite != 0
	for _, c := range candidates(r, a.Layout, read, write) {
		if c.fits && c.stages&allowed == c.stages {
			if a.Stages&genericStages != 0 {
				na.Stages |= c.stages
			}
			na.Access |= c.flags
			return na, true
		}
	}
	return *a, false
}

// explicitStages are the stages performing the concrete flags f.
func explicitStages(r *p.Resource, f vk.AccessFlags, allowed vk.Stage) (vk.Stage, bool) {
	var st vk.Stage
	msaa := r.Kind == p.KindImage && r.Image.Samples > 1
	pick := func(want vk.Stage, flags vk.AccessFlags) bool {
		if f&flags == 0 {
			return true
		}
		if want&allowed != want {
			return false
		}
		st |= want
		return true
	}
	shader := vk.StageComputeShader
	if allowed&shader == 0 || msaa {
		shader = vk.StageFragmentShader
	}
	return st, pick(shader, shaderFlags) &&
		pick(vk.StageFragmentShader, vk.AccessInputAttachmentRead) &&
		pick(vk.StageColorAttachmentOutput, vk.AccessColorAttachmentRead|vk.AccessColorAttachmentWrite) &&
		pick(vk.StageEarlyFragmentTests|vk.StageLateFragmentTests, vk.AccessDepthStencilAttachmentRead|vk.AccessDepthStencilAttachmentWrite) &&
		pick(vk.StageDrawIndirect, vk.AccessIndirectCommandRead) &&
		pick(vk.StageVertexAttributeInput, vk.AccessVertexAttributeRead) &&
		pick(vk.StageIndexInput, vk.AccessIndexRead) &&
		pick(vk.StageAllTransfer, vk.AccessTransferRead|vk.AccessTransferWrite) &&
		pick(vk.StageHost, vk.AccessHostRead|vk.AccessHostWrite)
}

// candidates are the concrete uses of r in layout l that stand for a
// read, a write or both, best first, each with whether r allows it.
func candidates(r *p.Resource, l vk.Layout, read, write bool) []candidate {
	cs, fs := vk.StageComputeShader, vk.StageFragmentShader
	if r.Kind == p.KindBuffer {
		b := &r.Buffer
		storage := b.Usage&vk.BufferUsageStorageBuffer != 0
		if write {
			sf := vk.AccessShaderStorageWrite
			if read {
				sf |= vk.AccessShaderStorageRead
			}
			return []candidate{{cs, sf, storage}, {fs, sf, storage},
				{vk.StageClear, vk.AccessTransferWrite, b.Usage&vk.BufferUsageTransferDst != 0}}
		}
		ub := b.Usage&vk.BufferUsageUniformBuffer != 0 && b.Size <= maxUBBytes
		tb := b.Usage&vk.BufferUsageUniformTexelBuffer != 0 && b.Size >= 4
		return []candidate{{cs, vk.AccessUniformRead, ub}, {cs, vk.AccessShaderStorageRead, storage}, {cs, vk.AccessShaderSampledRead, tb},
			{fs, vk.AccessUniformRead, ub}, {fs, vk.AccessShaderStorageRead, storage}, {fs, vk.AccessShaderSampledRead, tb},
			{vk.StageDrawIndirect, vk.AccessIndirectCommandRead, b.Usage&vk.BufferUsageIndirectBuffer != 0 && b.Size >= 16},
			{vk.StageVertexAttributeInput, vk.AccessVertexAttributeRead, b.Usage&vk.BufferUsageVertexBuffer != 0},
			{vk.StageIndexInput, vk.AccessIndexRead, b.Usage&vk.BufferUsageIndexBuffer != 0 && b.Size >= 4}}
	}
	im := &r.Image
	ds := im.Format.IsDepthStencil()
	single := im.Samples <= 1
	is3D := im.Depth > 1
	_, readable := storageCategory(im.Format, is3D)
	readable = readable || is3D && im.Format == vk.FormatR32Uint
	if !single {
		_, readable = msStorageRead(im.Format)
	}
	storage := !ds && im.Usage&vk.ImageUsageStorage != 0 && (l == vk.LayoutGeneral || l == vk.LayoutSharedPresent)
	tests := vk.StageEarlyFragmentTests | vk.StageLateFragmentTests
	dsUsage := ds && im.Usage&vk.ImageUsageDepthStencilAttachment != 0
	dsOK, dw, _ := depthLayout(l)
	if ds && !im.Format.HasDepth() {
		dsOK, dw, _ = stencilOnlyLayout(l)
	}
	if write {
		sf, cf, df := vk.AccessShaderStorageWrite, vk.AccessColorAttachmentWrite, vk.AccessDepthStencilAttachmentWrite
		if read {
			cf |= vk.AccessColorAttachmentRead
			df |= vk.AccessDepthStencilAttachmentRead
			if readable {
				sf |= vk.AccessShaderStorageRead
			}
		}
		colour := !ds && im.Usage&vk.ImageUsageColorAttachment != 0 && !is3D &&
			(l == vk.LayoutColorAttachmentOptimal || l == vk.LayoutAttachmentOptimal || l == vk.LayoutGeneral)
		clear := im.Usage&vk.ImageUsageTransferDst != 0 && (l == vk.LayoutTransferDstOptimal || l == vk.LayoutGeneral)
		return []candidate{{cs, sf, storage && single}, {vk.StageColorAttachmentOutput, cf, colour},
			{tests, df, dsUsage && dsOK && dw && !is3D}, {vk.StageClear, vk.AccessTransferWrite, clear}, {fs, sf, storage}}
	}
	aspect := uint32(aspectColor)
	if ds {
		aspect = aspectDepth
		if !im.Format.HasDepth() {
			aspect = aspectStencil
		}
	}
	sampled := im.Usage&vk.ImageUsageSampled != 0 && sampledLayout(l, aspect)
	input := im.Usage&vk.ImageUsageInputAttachment != 0 && !is3D && sampledLayout(l, aspect)
	return []candidate{{cs, vk.AccessShaderSampledRead, sampled && single}, {fs, vk.AccessShaderSampledRead, sampled},
		{cs, vk.AccessShaderStorageRead, storage && readable && single}, {fs, vk.AccessShaderStorageRead, storage && readable},
		{fs, vk.AccessInputAttachmentRead, input}, {tests, vk.AccessDepthStencilAttachmentRead, dsUsage && dsOK && !is3D}}
}

// usageOf names r's usage flags.
func usageOf(r *p.Resource) string {
	if r.Kind == p.KindBuffer {
		return r.Buffer.Usage.String()
	}
	return r.Image.Usage.String()
}
