#!/usr/bin/env bash
# h200-ordering.sh, run THERE on the device machine from the repository
# root with .gl and .vk carried (scripts/h200-prepare.sh makes them; copy
# this script into .vk), replays every frame in each ordering mode: dag,
# execution, and a budget halfway between the two modes' pooled bytes on
# this device. Each replay runs the plan aliased and every transient alone,
# with synchronization validation, and compares digests; GPU times are
# medians of REPLAY_RUNS (default 20) runs per mode. Output in $OUT:
#   ordering-h200.log    one table row per frame and mode
#   ordering-h200.jsonl  every replay's JSON report, tagged with its mode
# Environment: REPLAY_FLAGS (extra planning flags for every replay),
# REPLAY_FRAMES (default .vk/frames/*.json), REPLAY_SAMPLE (0 skips the
# sample frame at 3840x2160).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/ordering-h200.log"
jsonl="$out/ordering-h200.jsonl"
: >"$log"
: >"$jsonl"
. "$(dirname "$0")/h200-env.sh"
dev="${ALIASPLAN_VULKAN_DEVICE:-H200}"
runs="${REPLAY_RUNS:-20}"
status=0
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
echo "| frame | mode | pooled bytes | serializations | GPU aliased | GPU unaliased | ratio | digests equal | validation messages |" | tee -a "$log"
one() { # one replay: frame label, mode label, then replay arguments
	local frame=$1 mode=$2
	shift 2
	# shellcheck disable=SC2086 # REPLAY_FLAGS is several flags
	if ! .vk/aliasplan replay --vk-device "$dev" --runs "$runs" ${REPLAY_FLAGS:-} "$@" --format json >/tmp/r.json 2>>"$log"; then
		status=1
	fi
	python3 - /tmp/r.json "$frame" "$mode" "$jsonl" <<'PY' | tee -a "$log"
import json, sys
path, frame, mode, jsonl = sys.argv[1:5]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"| {frame} | {mode} | no report ({e}) |")
    sys.exit(0)
r["frame"], r["mode"] = frame, mode
with open(jsonl, "a") as f:
    f.write(json.dumps(r) + "\n")
ratio = r["gpuNsAliased"] / r["gpuNsUnaliased"] if r.get("gpuNsUnaliased") else 0
ser = r.get("serializations", "")
if isinstance(ser, list):
    ser = len(ser)
print(f'| {frame} | {mode} | {r["pooledBytes"]:,} | {ser} | {r["gpuNsAliased"]/1e6:.3f} ms | {r["gpuNsUnaliased"]/1e6:.3f} ms | {ratio:.3f} | {r["digestsEqual"]} | {r["validationMessages"]} |')
open("/tmp/pooled", "w").write(str(r["pooledBytes"]))
PY
}
modes() { # frame label, then replay arguments
	local frame=$1
	shift
	one "$frame" dag --order dag "$@"
	local dag
	dag=$(cat /tmp/pooled)
	one "$frame" execution --order execution "$@"
	local exe
	exe=$(cat /tmp/pooled)
	if [ "$exe" -lt "$dag" ]; then
		one "$frame" "budget $(((dag + exe) / 2))" --budget "$(((dag + exe) / 2))" "$@"
	else
		echo "| $frame | budget | execution pools no less than dag: no budget between |" | tee -a "$log"
	fi
}
if [ "${REPLAY_SAMPLE:-1}" != 0 ]; then
	modes "sample 3840x2160" --resolution 3840x2160
fi
for f in ${REPLAY_FRAMES:-.vk/frames/*.json}; do
	modes "$(basename "$f" .json)" "$f"
done
exit "$status"
