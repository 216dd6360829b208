#!/usr/bin/env bash
# h200-fsr.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): issue 21's shading-rate attachments on the H200
# (branch fsr12; vulkan/replay/fsr.go). replay.test's TestFSR* tests open
# their own devices with FRAGMENT_SHADING_RATE_ATTACHMENT in
# vulkan.Config.ReplayStages (VK_KHR_fragment_shading_rate with
# pipelineFragmentShadingRate and attachmentFragmentShadingRate enabled)
# and log what the device offers (texel sizes, rates, R8_UINT format
# features, the texel size chosen); then: the analysis and refusals
# (TestFSRAnalyze, TestFSRRefusal), the intact frame in both layouts
# (TestFSRFrame), the digest clobber control (TestFSRClobber), the
# wrong-stage control (TestFSRWrongStage: it skips, saying so, where the
# layer raises no hazard for the stage) and FSR_FRAMES (default 20)
# seeds of proptest.FSRReplayFrame (TestFSRGeneratedFrames); also
# TestUnbuiltStagesNamed. ALIASPLAN_REQUIRE_EXT=1 makes a missing
# extension fail instead of skip. Output in $OUT/fsr-h200.log.
#   device run: command "bash .vk/h200-fsr.sh", carry [".gl", ".vk"]
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/fsr-h200.log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_REQUIRE_EXT=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_FSR_FRAMES="${FSR_FRAMES:-20}"
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$log"
tests="${FSR_TESTS:-TestFSR|TestUnbuiltStagesNamed}"
(cd vulkan/replay && ../../.vk/replay.test -test.run "$tests" -test.v -test.count=1 2>&1) | tee -a "$log"
status=${PIPESTATUS[0]}
grep -E "^(--- |ok|FAIL|PASS)|SKIP" "$log" | tail -60
exit "$status"
