#!/usr/bin/env bash
# h200-queues.sh, run THERE on the device machine (from the repository
# root, .gl and .vk carried; scripts/h200-prepare.sh builds .vk/vulkan.test
# and .vk/replay.test and copies this script to .vk), runs issue 24's
# Vulkan side on the H200 with submit-time synchronization validation on
# (VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT):
#   1. package vulkan: the queue choice (compute on the COMPUTE|TRANSFER
#      family), Execute on two queues, the missing-semaphore control
#      (it must run here, not skip), the cross-submission control;
#   2. the async sample frame at 1920x1080 vs the same frame planned on one
#      queue (GPU time, pooled bytes, batches, semaphores, barriers; digests
#      equal across the two), ASYNC_RUNS timed runs (default 5);
#   3. QUEUE_GRAPHS random graphs with queues (default 100): digests equal
#      to the unaliased run, 0 messages;
#   4. (PARTS=sharing, not in the default) the ownership alternative: the
#      async sample frame at ASYNC_FRAME planned with Sharing exclusive
#      (EXCLUSIVE resources, release/acquire pairs across the graphics and
#      COMPUTE|TRANSFER families) and with concurrent, GPU time of each and
#      the ratio (TestExclusiveSharing logs "exclusive/concurrent GPU
#      time"), digests equal to the unaliased run and 0 messages in both,
#      then SHARING_GRAPHS random queue graphs (default 100) exclusive.
# PARTS (default "vulkan async random") picks the parts, to stay within
# one device command's 10 minutes. Log: $OUT/queues-h200.log. It fails
# when a test fails or skips.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/queues-h200.log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$log"
status=0
parts=" ${PARTS:-vulkan async random} "
[[ $parts == *" vulkan "* ]] && { (cd vulkan && ../.vk/vulkan.test -test.run 'TestChooseQueues|TestOwnershipNeutralized|TestExecuteQueues|TestMissingSemaphoreIsCaught|TestCrossSubmissionHazardIsCaught' \
	-test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1; }
[[ $parts == *" async "* ]] && { (cd .vk && ALIASPLAN_ASYNC_FRAME="${ASYNC_FRAME:-1920x1080}" ALIASPLAN_ASYNC_RUNS="${ASYNC_RUNS:-5}" \
	./replay.test -test.run '^TestAsyncSampleFrame$' -test.v -test.count=1 -test.timeout 9m 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1; }
[[ $parts == *" random "* ]] && { (cd .vk && ALIASPLAN_QUEUE_GRAPHS="${QUEUE_GRAPHS:-100}" \
	./replay.test -test.run '^TestRandomQueues$|^TestQueueMisuseRejected$' -test.v -test.count=1 -test.timeout 9m 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1; }
[[ $parts == *" sharing "* ]] && { (cd .vk && ALIASPLAN_ASYNC_FRAME="${ASYNC_FRAME:-1920x1080}" ALIASPLAN_ASYNC_RUNS="${ASYNC_RUNS:-5}" \
	ALIASPLAN_QUEUE_GRAPHS="${SHARING_GRAPHS:-100}" ./replay.test -test.run '^TestExclusiveSharing$' -test.v -test.count=1 -test.timeout 9m 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1; }
if grep -q -- '--- SKIP' "$log"; then
	echo "h200-queues: a test skipped" | tee -a "$log"
	status=1
fi
exit "$status"
