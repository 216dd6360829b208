#!/usr/bin/env bash
# h200-frames.sh, run THERE on the device machine from the repository root
# with .gl and .vk carried (scripts/h200-prepare.sh makes them), replays
# frame sequences (issue 25): frames planned by one aliasplan.Frames,
# each bound into the held allocations (vulkan.Resources.BindHeld) and
# submitted back to back with no wait between them, with the validation
# layer, synchronization validation and its submit-time checks
# (VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT) on;
# every frame's digests against its unaliased run, and the negative
# control (one frame's entry barrier removed; on several queues the last
# frame's frame waits). Sizes: the lavapipe
# sequence (64 wide) and SEQUENCE_WIDTHS (default "640 1920 3840"); then
# multi-queue sequences (QUEUE_SEQUENCE_WIDTHS, default "160 640 1920").
# Output: $OUT/frames-h200.log. It fails when a test fails or skips.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/frames-h200.log"
: >"$log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_SEQUENCE_FULL=1 # five frames (a larger one planned afresh mid-sequence)
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
status=0
# ONE_QUEUE=0 skips TestFramesHeld and the one-queue sequences (only the
# multi-queue ones below run).
if [ "${ONE_QUEUE:-1}" != 0 ]; then
	(cd vulkan && ../.vk/vulkan.test -test.run '^TestFramesHeld$' -test.v -test.count=1) 2>&1 | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
	for w in 64 ${SEQUENCE_WIDTHS:-640 1920 3840}; do
		echo "== sequence, first frame ${w} wide" | tee -a "$log"
		(cd vulkan/replay && ALIASPLAN_SEQUENCE_WIDTH="$w" ../../.vk/replay.test -test.run '^TestFrameSequence$' -test.v -test.count=1 -test.timeout 30m) 2>&1 | tee -a "$log"
		[ "${PIPESTATUS[0]}" = 0 ] || status=1
	done
fi
# Multi-queue frame sequences (TestFrameQueueSequence): the async sample
# frame with a compute tail nothing on graphics waits for (luma.downsample
# and luma.analyze on the compute queue after the tonemap) at
# 100/100/90/80/70/100% of the width, async compute off in the second
# frame, ordered across frames by the entry barriers and the plans' frame
# waits (binary semaphores). On distinct VkQueues the negative control
# drops the last frame's frame waits alone: the tail of the frame before
# it shares pooled bytes with the last frame's first graphics batch (the
# test checks that on the plans and logs the pairs), so the layer must
# report a hazard there. 1280 wide and more: full-size shadow cascades.
for w in ${QUEUE_SEQUENCE_WIDTHS:-160 640 1920}; do
	echo "== multi-queue sequence, first frame ${w} wide" | tee -a "$log"
	(cd vulkan/replay && ALIASPLAN_SEQUENCE_WIDTH="$w" ../../.vk/replay.test -test.run '^TestFrameQueueSequence$' -test.v -test.count=1 -test.timeout 30m) 2>&1 | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
done
if grep -q -- '--- SKIP' "$log"; then
	echo "h200-frames: a test skipped" | tee -a "$log"
	status=1
fi
exit "$status"
