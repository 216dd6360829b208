package replay

import (
	"fmt"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// A copy side without its other side in the same command: a
// TRANSFER_WRITE (COPY or ALL_TRANSFER, no CLEAR to make it a clear)
// with no TRANSFER_READ beside it, or a TRANSFER_READ with no
// TRANSFER_WRITE left to pair it with. The replay stands in the missing
// side with a buffer of its own, outside the graph (no hazard with the
// frame's resources, and none between commands: every lone read has its
// own region):
//
//   - a lone write is a copy from the replay's source buffer (host-visible,
//     filled once with the pattern imported resources start with: finite
//     floats in [0, 1), valid in every format) into the whole resource:
//     vkCmdCopyBuffer, or vkCmdCopyBufferToImage of every mip level and
//     layer (each aspect of a depth/stencil image);
//   - a lone read is a copy of the whole resource into the command's own
//     region of the replay's sink buffer (host-visible), whose bytes are
//     hashed after every run and compared like a digest.
//
// Both are COPY-stage transfers, the stage the access declares.
// Block-compressed images are copied in whole blocks (blocks.go).
// Multisampled images have no buffer copies in Vulkan, and BLIT and
// RESOLVE take two images: those lone sides get a stand-in image instead
// (standin.go).

type loneOp struct {
	res    p.ResourceID
	layout vk.Layout
	read   bool   // into the sink; else from the source buffer
	off    uint64 // a read's region in the sink (setupLone)
	bytes  uint64
	// via: a buffer, or a stand-in image (standin.go) described by sdesc
	// (hdesc: a multisampled read stand-in's resolve target), r.lone.stands[stand].
	via          loneVia
	sdesc, hdesc p.ImageDesc
	stand        int
}

type loneBuffers struct {
	src, sink ownBuffer
	regions   []loneRegion // the sink's regions, in work order
	stands    []standIn    // standin.go
}

type loneRegion struct{ off, bytes uint64 }

// addLone adds a lone copy side of resource id (read: a source without a
// destination), or says why it has none.
func addLone(g *p.Graph, w *work, id p.ResourceID, layout vk.Layout, read bool) error {
	cmd := &g.Commands[w.cmd]
	r := &g.Resources[id]
	var st vk.Stage
	for _, a := range cmd.Accesses {
		if a.Resource == id {
			st |= a.Stages
		}
	}
	bad := func(format string, args ...any) error {
		return &UnsupportedError{Command: cmd.Name, Resource: r.Name, Access: describe(g, findAccess(cmd, id)), Reason: fmt.Sprintf(format, args...)}
	}
	side, other := "destination", "source (TRANSFER_READ)"
	if read {
		side, other = "source", "destination (TRANSFER_WRITE)"
	}
	op := loneOp{res: id, layout: layout, read: read}
	if r.Kind == p.KindBuffer {
		if st&(vk.StageCopy|vk.StageAllTransfer) == 0 {
			return bad("a buffer copy %s without a %s in the same command is replayed as a copy from or to a buffer of the replay's own: declare COPY or ALL_TRANSFER (BLIT and RESOLVE take images)", side, other)
		}
		op.bytes = r.Buffer.Size
	} else {
		im := &r.Image
		via, why := addStandIn(r, st, read) // standin.go: multisampled images, BLIT and RESOLVE
		if why != "" {
			return bad("a copy %s without a %s: %s", side, other, why)
		}
		op.via = via
		op.bytes = copyBufferBytes(im) // blocks.go: whole blocks of a block-compressed format
		if n := stencilBytes(im); n > 0 {
			op.bytes = (op.bytes+15)&^15 + n
		}
	}
	w.lone = append(w.lone, op)
	return nil
}

// stencilBytes is the stencil aspect's bytes of a combined depth/stencil
// image (its own region in a copy to or from a buffer).
func stencilBytes(im *p.ImageDesc) uint64 {
	if !im.Format.HasDepth() || !im.Format.HasStencil() {
		return 0
	}
	var n uint64
	for l := uint32(0); l < im.MipLevels; l++ {
		n += texels(im, l) * uint64(im.ArrayLayers)
	}
	return (n + 15) &^ 15
}

// lcm16 is the least common multiple of 16 and a texel block's bytes:
// a buffer offset of an image copy is a multiple of both.
func lcm16(b uint64) uint64 {
	b = max(b, 1)
	x, y := uint64(16), b
	for y != 0 {
		x, y = y, x%y
	}
	return 16 * b / x
}

// setupLone makes the source and sink buffers and places every lone
// read in the sink.
func (r *Replayer) setupLone() error {
	var src, sink uint64
	for i := range r.works {
		for j := range r.works[i].lone {
			op := &r.works[i].lone[j]
			if op.via != viaBuffer {
				if err := r.setupStandIn(op, &src, &sink); err != nil { // standin.go
					return err
				}
				continue
			}
			if !op.read {
				src = max(src, op.bytes)
				continue
			}
			a := uint64(16)
			if res := &r.g.Resources[op.res]; res.Kind == p.KindImage {
				a = lcm16(res.Image.Format.BytesPerBlock())
			}
			op.off = (sink + a - 1) / a * a
			sink = op.off + op.bytes
			r.lone.regions = append(r.lone.regions, loneRegion{op.off, op.bytes})
		}
	}
	if src == 0 && sink == 0 {
		return nil
	}
	var err error
	if src > 0 {
		if r.lone.src, err = r.k.newBuffer(src, vkg.BufferUsageFlags(vkg.BufferUsageTransferSrcBit), true); err != nil {
			return err
		}
		fillPattern(r.lone.src.bytes())
	}
	if sink > 0 {
		r.lone.sink, err = r.k.newBuffer(sink, vkg.BufferUsageFlags(vkg.BufferUsageTransferDstBit), true)
	}
	return err
}

// loneHashes hashes every lone read's region of the sink after a run.
func (r *Replayer) loneHashes() []uint64 {
	var out []uint64
	for _, rg := range r.lone.regions {
		out = append(out, hashBytes(r.lone.sink.bytes()[rg.off:rg.off+rg.bytes]))
	}
	return out
}

// recordLone records w's lone copy sides.
func (m *mode) recordLone(cb vkg.CommandBuffer, w *work) {
	r := m.r
	for _, op := range w.lone {
		res := &r.g.Resources[op.res]
		buf, img := m.handle(op.res)
		if res.Kind == p.KindBuffer {
			if op.read {
				vkg.CmdCopyBuffer(cb, buf, r.lone.sink.buf, 1, []vkg.BufferCopy{{DstOffset: vkg.DeviceSize(op.off), Size: vkg.DeviceSize(op.bytes)}})
			} else {
				vkg.CmdCopyBuffer(cb, r.lone.src.buf, buf, 1, []vkg.BufferCopy{{Size: vkg.DeviceSize(op.bytes)}})
			}
			continue
		}
		if op.via != viaBuffer {
			m.recordStandIn(cb, op) // standin.go
			continue
		}
		im := &res.Image
		off := op.off
		if !op.read {
			off = 0
		}
		regions := imageSinkRegions(im, off) // standin.go
		if op.read {
			vkg.CmdCopyImageToBuffer(cb, img, vkg.ImageLayout(op.layout), r.lone.sink.buf, uint32(len(regions)), regions)
		} else {
			vkg.CmdCopyBufferToImage(cb, r.lone.src.buf, img, vkg.ImageLayout(op.layout), uint32(len(regions)), regions)
		}
	}
}
