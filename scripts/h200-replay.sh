#!/usr/bin/env bash
# h200-replay.sh, run THERE on the device machine from the repository
# root, with .gl and .vk carried (scripts/h200-prepare.sh makes them:
# the loader, the validation layer, .vk/aliasplan, .vk/replay.test and
# the frames in .vk/frames). It replays the sample frame at 3840x2160 and
# every frame in .vk/frames at full size, aliased and unaliased, with the
# validation layer and synchronization validation on, and runs the
# negative controls. Output in $OUT:
#   replay-h200.log   the text reports and the negative controls' log
#   replay-h200.jsonl one JSON report per frame (aliasplan replay --format json)
# Environment:
#   REPLAY_RUNS       timed runs per mode (default 20)
#   REPLAY_FLAGS      extra flags for every aliasplan replay, e.g.
#                     "--strategy bestfit" or a planner ordering flag
#   REPLAY_FRAMES     frame files to replay (default .vk/frames/*.json)
#   REPLAY_SAMPLE     0 skips the sample frame
#   REPLAY_NEGATIVE   0 skips the negative controls
#   REPLAY_GENERATED  how many proptest.ReplayFrame seeds replay.test
#                     replays (TestGeneratedFrames: every ReplayKinds kind,
#                     generic-buffers and generic-images included, plus
#                     TestGenericFrame, TestMSAAFrame and TestMSAACompute:
#                     4x images sampled and storage-accessed in compute);
#                     default 100, 0 skips
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/replay-h200.log"
jsonl="$out/replay-h200.jsonl"
: >"$log"
: >"$jsonl"
. "$(dirname "$0")/h200-env.sh"
# One device per test binary for the loops over many graphs: the NVIDIA
# driver with the validation layer refuses a 30th vkCreateInstance.
export ALIASPLAN_SHARE_DEVICE=1
export ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
runs="${REPLAY_RUNS:-20}"
status=0
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
one() { # one replay: label, then aliasplan replay arguments
	local label=$1
	shift
	echo "== $label" | tee -a "$log"
	# shellcheck disable=SC2086 # REPLAY_FLAGS is several flags
	if ! .vk/aliasplan replay --vk-device "$ALIASPLAN_VULKAN_DEVICE" --runs "$runs" ${REPLAY_FLAGS:-} "$@" --format json >/tmp/r.json 2>>"$log"; then
		status=1
	fi
	tr -d '\n' </tmp/r.json >>"$jsonl" && echo >>"$jsonl"
	python3 - /tmp/r.json "$label" <<'PY' 2>/dev/null | tee -a "$log" || cat /tmp/r.json >>"$log"
import json, sys
r = json.load(open(sys.argv[1]))
saved = 100 * (1 - r["pooledBytes"] / r["transientBytes"]) if r["transientBytes"] else 0
ratio = r["gpuNsAliased"] / r["gpuNsUnaliased"] if r["gpuNsUnaliased"] else 0
print(f'| {sys.argv[2]} | {r["transientBytes"]:,} | {r["pooledBytes"]:,} | {saved:.1f}% | {r["gpuNsAliased"]/1e6:.3f} ms | {r["gpuNsUnaliased"]/1e6:.3f} ms | {ratio:.3f} | {r["digestsEqual"]} | {r["validationMessages"]} | {r.get("layerQuirks", {})} |')
for m in r.get("mismatches", [])[:10]: print("  mismatch:", m)
for m in r.get("messages", [])[:10]: print("  message:", m[:400])
PY
}
if [ "${REPLAY_NEGATIVE:-1}" != 0 ]; then
	echo "== negative controls" | tee -a "$log"
	(cd .vk && ./replay.test -test.run 'TestNegativeControls|TestSampleFrame' -test.v -test.count=1 2>&1) | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if [ "${REPLAY_GENERATED:-100}" != 0 ]; then
	echo "== generated frames (${REPLAY_GENERATED:-100} seeds), generic uses, MSAA" | tee -a "$log"
	(cd .vk && ALIASPLAN_REPLAY_FRAMES="${REPLAY_GENERATED:-100}" ./replay.test \
		-test.run 'TestGeneratedFrames|TestGenericFrame|TestGenericChoices|TestMSAAFrame|TestMSAACompute' -test.count=1 2>&1 | tail -40) | tee -a "$log"
	[ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if [ "${REPLAY_SAMPLE:-1}" != 0 ]; then
	one "sample 3840x2160" --resolution 3840x2160 --per-command
fi
for f in ${REPLAY_FRAMES:-.vk/frames/*.json}; do
	one "$(basename "$f")" "$f"
done
exit "$status"
