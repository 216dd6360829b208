#!/usr/bin/env bash
# h200-replay-sweep.sh, run THERE on the H200 device machine (repository
# root, .gl and .vk carried: scripts/h200-prepare.sh builds .vk/replay.test,
# which holds TestSweep): the replay sweep of scripts/replay-sweep.sh on the
# NVIDIA GPU with the validation layer (synchronization validation on),
# SWEEP_GRAPHS random graphs (default 200) × four flag sets, plus the shared
# frames when .vk/frames is there. Log: $OUT/replay-sweep-h200.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
. "$(dirname "$0")/h200-env.sh"
# One device per test binary for the loops over many graphs: the NVIDIA
# driver with the validation layer refuses a 30th vkCreateInstance.
export ALIASPLAN_SHARE_DEVICE=1
export ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_SWEEP_GRAPHS="${SWEEP_GRAPHS:-200}"
# The test reads the shared frames at ../../../shared/data/frames from its
# package folder: link .vk/frames there when it was carried.
if [ -d .vk/frames ] && [ ! -e ../shared/data/frames ]; then
	mkdir -p ../shared/data && ln -s "$(pwd)/.vk/frames" ../shared/data/frames
fi
cd vulkan/replay
../../.vk/replay.test -test.run '^TestSweep$' -test.v -test.count=1 -test.timeout 9m >"$out/replay-sweep-h200.log" 2>&1
status=$?
pass=$(grep -cE -- '--- PASS: TestSweep/.*/(dag|execution|budget|pool-prefers-dedicated) ' "$out/replay-sweep-h200.log")
fail=$(grep -cE -- '--- FAIL: TestSweep/.*/(dag|execution|budget|pool-prefers-dedicated) ' "$out/replay-sweep-h200.log")
echo "h200-replay-sweep: $pass replays passed, $fail failed (log $out/replay-sweep-h200.log)"
grep -E -- '--- FAIL|validation:' "$out/replay-sweep-h200.log" | head -40
exit "$status"
