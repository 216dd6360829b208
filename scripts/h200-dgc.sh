#!/usr/bin/env bash
# h200-dgc.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): device-generated commands on the H200 (issue 21,
# branch dgc12; vulkan/replay/dgc.go). replay.test's TestDGC* open their
# own devices with COMMAND_PREPROCESS in vulkan.Config.ReplayStages
# (VK_EXT_device_generated_commands with VK_KHR_maintenance5), replay the
# intact frame (aliased and unaliased: no message but the layer's
# "layer-predates-dgc" notes, equal digests), its digest clobber control,
# the wrong-stage control (logged: layer 1.3.239 does not see the
# generated commands; its synchronization validation control is
# asserted), the graph rules, and DGC_FRAMES (40) frames of
# proptest.DGCReplayFrame; vulkan.test's TestDeviceAddressMemory checks
# DEVICE_ADDRESS memory. ALIASPLAN_REQUIRE_EXT=1 makes a missing
# extension fail instead of skip. Output in $OUT/dgc-h200.log, with the
# preprocess buffer size the driver asked for (TestDGCIntact logs it).
# Session 13 (branch dgc13) adds, taken by the same pattern, the
# preprocessing in one command executed in another (isPreprocessed):
# TestDGCSplit (intact, the count clobber control on the execution's
# digest, a second execution of the same preprocessing) and
# TestDGCSplitRules, and the dgc-split and dgc-split-twice kinds among
# the DGC_FRAMES generated frames.
#   device run: command "bash .vk/h200-dgc.sh", carry [".gl", ".vk"]
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/dgc-h200.log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_REQUIRE_EXT=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_DGC_FRAMES="${DGC_FRAMES:-40}"
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$log"
tests="${DGC_TESTS:-TestDGC|TestUnbuiltStagesNamed}"
(cd vulkan/replay && ../../.vk/replay.test -test.run "$tests" -test.v -test.count=1 2>&1) | tee -a "$log"
status=${PIPESTATUS[0]}
(cd vulkan && ../.vk/vulkan.test -test.run 'TestDeviceAddressMemory' -test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
grep -E "^(--- |ok|FAIL|PASS)|SKIP|preprocess buffer" "$log" | tail -60
exit "$status"
