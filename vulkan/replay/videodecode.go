package replay

import (
	"fmt"
	"strings"
)

// Video decode (VK_KHR_video_decode_queue, the VIDEO_DECODE_KHR stage) is
// not replayed. Like optical flow (oflow.go) it needs a queue the graph
// model cannot name: a command may name VIDEO_DECODE_KHR only on the
// graphics queue (planner.QueueStages), so its plan records the command's
// barriers there with that stage in their masks, and Vulkan allows the
// stage, its barriers and vkCmdDecodeVideoKHR only in command buffers of
// a family with VK_QUEUE_VIDEO_DECODE_BIT_KHR. Where the device reports
// that bit on no family its graphics queue can use, the plan cannot run
// there: a device limit, named from the queried families. Where the
// graphics family has it the refusal says the work is not built (a
// decode needs a video session, its parameters and a bitstream the
// model's accesses do not describe; docs/replay.md, what is left).

const (
	extVideoDecode   = "VK_KHR_video_decode_queue"
	queueVideoDecode = 0x20 // VK_QUEUE_VIDEO_DECODE_BIT_KHR
)

// videoDecodeReason is the refusal of a VIDEO_DECODE_KHR use on the device
// named name, which lists the extension or not (hasExt), with queue
// families fams (VkQueueFlags each) and the replay's graphics queue on
// family gfx.
func videoDecodeReason(name string, hasExt bool, fams []uint32, gfx uint32) string {
	if !hasExt {
		return fmt.Sprintf("%s lacks %s (queried): the device cannot run video decode", name, extVideoDecode)
	}
	dec, onGraphics, gfl := familiesWith(fams, queueVideoDecode, gfx)
	if len(dec) == 0 {
		return fmt.Sprintf("%s has %s, but no queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR (queried; families: %s): the device cannot run video decode",
			name, extVideoDecode, familyList(fams))
	}
	if !onGraphics {
		return fmt.Sprintf("%s decodes video only on queue family %s, not on the graphics queue's family %d (%s) (queried): "+
			"the graph model puts a VIDEO_DECODE_KHR command on the graphics queue (the only queue that may name the stage), and Vulkan allows the stage, "+
			"its barriers and vkCmdDecodeVideoKHR only on a family with VK_QUEUE_VIDEO_DECODE_BIT_KHR, so the device cannot run the plan's barriers for it "+
			"(a video-decode queue in the model would be needed; docs/replay.md, video decode)",
			name, strings.Join(dec, " and "), gfx, queueFlagNames(gfl))
	}
	return fmt.Sprintf("%s decodes video on the graphics queue's family %d, but the replay has no video decode work (not built; docs/replay.md, what is left)", name, gfx)
}
