#!/usr/bin/env bash
# h200-vulkan.sh, run THERE on the device machine (from the repository
# root, with .gl and .vk carried; scripts/h200-prepare.sh makes them), runs
# the Vulkan test binary on the NVIDIA GPU with the validation layer and
# synchronization validation, and keeps the log in $OUT/vulkan-h200.log.
# It prints the requirements seen, the pools, the bytes saved and every
# validation message; it fails when a test fails or skips.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
. "$(dirname "$0")/h200-env.sh"
# One device per test binary for the loops over many graphs: the NVIDIA
# driver with the validation layer refuses a 30th vkCreateInstance.
export ALIASPLAN_SHARE_DEVICE=1
export ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$out/vulkan-h200.log"
cd vulkan
../.vk/vulkan.test -test.v -test.count=1 2>&1 | tee -a "$out/vulkan-h200.log"
status=${PIPESTATUS[0]}
if grep -q -- '--- SKIP' "$out/vulkan-h200.log"; then
	echo "h200-vulkan: a test skipped" | tee -a "$out/vulkan-h200.log"
	status=1
fi
# REPLAY=1 also replays the frames (scripts/h200-replay.sh, from .vk where
# h200-prepare.sh puts it; REPLAY_FLAGS, REPLAY_RUNS, ... pass through).
if [ "${REPLAY:-0}" = 1 ]; then
	cd ..
	bash .vk/h200-replay.sh || status=1
fi
exit "$status"
