package replay

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
)

// videoGraph is a frame with one video decode command, "decode": a
// transfer writes the bitstream image src, decode reads it
// (VIDEO_DECODE_READ) and writes dst (VIDEO_DECODE_WRITE), a transfer
// reads dst.
func videoGraph() *p.Graph {
	g := &p.Graph{}
	img := func(name string, u vk.ImageUsage) p.ResourceID {
		return g.AddImage(name, p.ImageDesc{Format: vk.FormatR8Unorm, Width: 64, Height: 64, Usage: u | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst})
	}
	src, dst := img("src", vk.ImageUsageVideoDecodeSrc), img("dst", vk.ImageUsageVideoDecodeDst)
	g.AddCommand("fill", p.Access{Resource: src, Stages: vk.StageClear, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	g.AddCommand("decode",
		p.Access{Resource: src, Stages: vk.StageVideoDecode, Access: vk.AccessVideoDecodeRead, Layout: vk.LayoutVideoDecodeSrc},
		p.Access{Resource: dst, Stages: vk.StageVideoDecode, Access: vk.AccessVideoDecodeWrite, Layout: vk.LayoutVideoDecodeDst})
	g.AddCommand("use", p.Access{Resource: dst, Stages: vk.StageCopy, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal})
	return g
}

// TestVideoDecodeReason checks each refusal videoDecodeReason gives, from
// written-out queue families (the H200's among them).
func TestVideoDecodeReason(t *testing.T) {
	h200 := []uint32{0xf, 0xc, 0xe, 0x2c, 0x10c} // as the H200 reports them
	for _, c := range []struct {
		name   string
		ext    bool
		fams   []uint32
		gfx    uint32
		want   string
		notNot bool // the reason must not say "not built"
	}{
		{"no extension", false, h200, 0, "dev lacks VK_KHR_video_decode_queue (queried): the device cannot run video decode", true},
		{"no family", true, []uint32{0xf, 0xc}, 0, "no queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR (queried; families: 0: GRAPHICS|COMPUTE|TRANSFER|SPARSE_BINDING, 1: TRANSFER|SPARSE_BINDING)", true},
		{"H200", true, h200, 0, "dev decodes video only on queue family 3 (TRANSFER|SPARSE_BINDING|VIDEO_DECODE), not on the graphics queue's family 0 (GRAPHICS|COMPUTE|TRANSFER|SPARSE_BINDING) (queried)", true},
		{"two decode families", true, []uint32{0xf, 0x2c, 0x2c}, 0, "only on queue family 1 (TRANSFER|SPARSE_BINDING|VIDEO_DECODE) and 2 (", true},
		{"decode on graphics", true, []uint32{0x2f}, 0, "decodes video on the graphics queue's family 0, but the replay has no video decode work (not built", false},
	} {
		got := videoDecodeReason("dev", c.ext, c.fams, c.gfx)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: reason %q\nlacks %q", c.name, got, c.want)
		}
		if c.notNot && strings.Contains(got, "not built") {
			t.Errorf("%s: reason %q calls a device limit not built", c.name, got)
		}
	}
}

// TestVideoDecodeRefused: New refuses a video decode command on the test
// device, naming what the device reports (checked from the queried
// families here, not through videoDecodeReason). ALIASPLAN_REQUIRE_EXT=1
// (the H200 scripts) fails it where the extension is missing.
func TestVideoDecodeRefused(t *testing.T) {
	d := sharedDevice(t)
	f := queryOpticalFlow(d)
	has := deviceExtensionSet(d)[extVideoDecode]
	t.Logf("%s: %s listed: %v; graphics queue family %d; families: %s", f.name, extVideoDecode, has, f.GraphicsFamily, familyList(f.Families))
	_, err := New(d, videoGraph())
	t.Logf("refusal: %v", err)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "decode" {
		t.Fatalf("New: %v, want an UnsupportedError of command \"decode\"", err)
	}
	dec := -1
	for i, fl := range f.Families {
		if fl&queueVideoDecode != 0 && dec < 0 {
			dec = i
		}
	}
	var want string
	switch {
	case !has:
		want = "lacks VK_KHR_video_decode_queue (queried)"
	case dec < 0:
		want = "no queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR (queried"
	case f.Families[f.GraphicsFamily]&queueVideoDecode == 0:
		want = fmt.Sprintf("decodes video only on queue family %d (", dec)
	default:
		want = "on the graphics queue's family"
	}
	if !strings.Contains(ue.Reason, want) {
		t.Errorf("reason %q lacks %q", ue.Reason, want)
	}
	if !has && os.Getenv("ALIASPLAN_REQUIRE_EXT") == "1" {
		t.Fatalf("ALIASPLAN_REQUIRE_EXT=1 and %s lacks %s (queried)", f.name, extVideoDecode)
	}
}
