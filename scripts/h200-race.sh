#!/usr/bin/env bash
# h200-race.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them). It runs
# the replay's racing control (TestRacingControl, docs/replay.md): a frame
# whose alias barrier is removed or narrowed, where a slow pass and the
# next occupant's pass overlap on the GPU; it prints, per frame and
# breakage, the share of runs whose digests differ from the unaliased
# twin's, and checks that the intact plan differs in none. Then the
# generated frames (every kind of use, MSAA included) and the negative
# controls. Output in $OUT/race-h200.log (the RACE lines are the rates).
# Environment:
#   RACE_RUNS      runs per plan (default 20: the intact plan's 20 runs)
#   RACE_SPIN      hash rounds per slow invocation (default 200000, ~1 ms)
#   RACE_LARGE     0 skips the 64 MiB configuration
#   RACE_FRAMES    0 skips the generated frames and negative controls
# Expected: about 1 minute of device time in all.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/race-h200.log"
: >"$log"
. "$(dirname "$0")/h200-env.sh"
# One device per test binary for the loops over many graphs: the NVIDIA
# driver with the validation layer refuses a 30th vkCreateInstance.
export ALIASPLAN_SHARE_DEVICE=1
export ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
status=0
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
race() { # label, then environment assignments
	local label=$1
	shift
	echo "== racing control: $label" | tee -a "$log"
	(cd .vk && env ALIASPLAN_RACE_RUNS="${RACE_RUNS:-20}" ALIASPLAN_RACE_SPIN="${RACE_SPIN:-200000}" "$@" \
		./replay.test -test.run 'TestRacingControl' -test.v -test.count=1 2>&1) | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
}
# A quarter of the H200's resident threads (256 KiB): the next occupant's
# pass finds room beside the slow one.
race "65536 elements (256 KiB)" ALIASPLAN_RACE_ELEMENTS=65536
if [ "${RACE_LARGE:-1}" != 0 ]; then
	# Large resources: 64 MiB, a lighter spin (the pass fills the GPU).
	race "16M elements (64 MiB)" ALIASPLAN_RACE_ELEMENTS=16777216 ALIASPLAN_RACE_SPIN="${RACE_SPIN_LARGE:-2000}"
fi
if [ "${RACE_FRAMES:-1}" != 0 ]; then
	echo "== generated frames and negative controls" | tee -a "$log"
	(cd .vk && ./replay.test -test.run 'TestGeneratedFrames|TestNegativeControls' -test.v -test.count=1 2>&1) |
		grep -E '^(---|ok|PASS|FAIL)|^    ---|racing|negative|validation|mismatch' | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
echo "== rates" | tee -a "$log"
grep -h 'RACE ' "$log" | sed 's/^ *racing_test.go:[0-9]*: //' | sort -u | tee -a "$log.rates"
cat "$log.rates" >>"$log" 2>/dev/null
exit "$status"
