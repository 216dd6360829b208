#!/usr/bin/env bash
# h200-oflow.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): issue 21's optical flow (VK_NV_optical_flow, branch
# oflow12). The replay refuses OPTICAL_FLOW_NV uses (docs/replay.md,
# "Optical flow"); this run says, from what the H200 reports, what it
# lacks and what a build would have to work with:
#   replay.test TestOpticalFlowRefused  the refusal names what the device
#                                       reports missing (logs the queue
#                                       families, the opticalFlow feature,
#                                       grid sizes, extents, formats per
#                                       usage); TestOpticalFlowReason; the
#                                       other unbuilt stages' refusals.
#   vulkan.test TestOpticalFlowSession  a session on a second device with
#                                       the extension and one queue of the
#                                       optical-flow family: image and
#                                       session creation and bind results,
#                                       three runs (A,B; A,B again: the
#                                       flow vectors must be identical;
#                                       A',B: they must change), the mean
#                                       flow vector (A moved 4 pixels:
#                                       about (+4, 0)); and
#               TestOpticalFlowProbePlumbing, the probe without optical flow.
# ALIASPLAN_REQUIRE_EXT=1 makes a missing extension, feature or family
# fail instead of skip. Output in $OUT/oflow-h200.log.
#   device run: command "bash .vk/h200-oflow.sh", carry [".gl", ".vk"]
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/oflow-h200.log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_REQUIRE_EXT="${REQUIRE_EXT:-1}"
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$log"
(cd vulkan/replay && ../../.vk/replay.test -test.run 'TestOpticalFlow|TestVideoDecode|TestUnbuiltStagesNamed' -test.v -test.count=1 2>&1) | tee -a "$log"
status=${PIPESTATUS[0]}
(cd vulkan && ../.vk/vulkan.test -test.run 'TestOpticalFlow' -test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
grep -E "^(--- |ok|FAIL|PASS)|SKIP" "$log" | tail -30
exit "$status"
