package replay

import (
	"regexp"
	"strconv"
	"strings"

	vkg "github.com/goki/vulkan"
)

// The byte-count quirk of lavapipe 22.3 (found in session 9: the
// xfb-indirect-hang frame, docs/replay.md). Mesa 22.3's lavapipe executes
// vkCmdDrawIndirectByteCountEXT as draw_vbo(..., &state->indirect_info,
// ...): the indirect-draw state that the command buffer's last
// vkCmdDraw*Indirect left behind. After an indirect draw in the same
// command buffer the byte-count draw becomes an indirect draw from that
// earlier draw's argument buffer, and ignores the counter. In the aliased
// plan those bytes belong to a later resource by then (in the frame: the
// captured buffer, whose words are large) and the draw gets billions of
// vertices: llvmpipe at 100% CPU, the fence never signalled. Unaliased
// the stale arguments are still the earlier draw's (small), so it passes,
// drawing the wrong count in both runs. Measured: the counter holds 1024
// in both runs (copied out and read back), the hang goes when the
// byte-count draw is not recorded, and the frame passes on Mesa 25.0.7's
// lavapipe. The plan is right: verify.Plan passes it and its barriers
// order the counter's writes before the draw; the stale arguments are
// bytes the plan has rightly given to another resource.
//
// On such a driver the replay records, just before each byte-count draw,
// a vkCmdDrawIndirect of zero vertices from an argument record of its
// own, so that the stale state lavapipe reuses is that record: the
// byte-count draw then draws nothing in either run (on lavapipe 22.3 the
// sink region it feeds stays zero; the counter's writes and the draw are
// still recorded, and validated, as the plan has them). Every other
// device draws the byte count.

// byteCountQuirk says whether k's device is lavapipe (llvmpipe) of a Mesa
// older than 25 (22.3.6 measured wrong, 25.0.7 right; versions between
// are not measured and get the workaround).
func (k *kit) byteCountQuirk() bool {
	info := k.dev.Info()
	s := strings.ToLower(info.Name + " " + info.Driver)
	if !strings.Contains(s, "llvmpipe") {
		return false
	}
	m := mesaVersion.FindStringSubmatch(s)
	if m == nil {
		return true
	}
	major, err := strconv.Atoi(m[1])
	return err != nil || major < 25
}

var mesaVersion = regexp.MustCompile(`mesa (\d+)\.`)

// setupByteCountReset makes the zero argument record (host-visible,
// zeroed before any submission) on a byteCountQuirk device whose frame
// has byte-count draws.
func (r *Replayer) setupByteCountReset() error {
	if !r.k.byteCountQuirk() {
		return nil
	}
	any := false
	for i := range r.works {
		for j := range r.works[i].xfb {
			any = any || r.works[i].xfb[j].byteCount
		}
	}
	if !any {
		return nil
	}
	b, err := r.k.newBuffer(16, vkg.BufferUsageFlags(vkg.BufferUsageIndirectBufferBit), true)
	if err != nil {
		return err
	}
	clear(b.bytes())
	r.xfb.reset, r.xfb.resetting = b, true
	return nil
}

// recordByteCountReset records the zero-vertex indirect draw before a
// byte-count draw (inside its pass, with the transform feedback pipeline
// bound).
func (m *mode) recordByteCountReset(cb vkg.CommandBuffer) {
	if m.r.xfb.resetting {
		vkg.CmdDrawIndirect(cb, m.r.xfb.reset.buf, 0, 1, 16)
	}
}
