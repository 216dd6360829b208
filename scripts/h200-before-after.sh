#!/usr/bin/env bash
# h200-before-after.sh, run THERE on the device machine from the repository
# root, with .gl and .vk carried (scripts/h200-before-after-prepare.sh makes
# them). Replays the sample frame at 3840x2160 and every frame in
# .vk/frames with the CLI built before issue 18's barrier rework
# (.vk/before) and at this branch (.vk/after), each under the four flag sets
# (dag, execution, a halfway budget, --pool-prefers-dedicated), validation
# and synchronization validation on, and prints one markdown row per frame
# and flag set: validation messages, barriers (hazard + alias), median GPU
# time of the aliased frame and pooled bytes, before and after, and the GPU
# time ratio. Output in $OUT: before-after.md (the table), before-after.log
# (every message), before-after.jsonl (the raw reports).
# Environment: REPLAY_RUNS (default 20), REPLAY_SAMPLE=0 (no sample frame),
# REPLAY_FRAMES (default
# .vk/frames/*.json), REPLAY_MODES (default "dag execution budget
# pool-prefers-dedicated"), SKIP_UNPACK=1 (Vulkan already installed: a
# trial here on lavapipe with ALIASPLAN_VULKAN_DEVICE=llvmpipe).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
md="$out/before-after.md" log="$out/before-after.log" jsonl="$out/before-after.jsonl"
: >"$md"; : >"$log"; : >"$jsonl"
. "$(dirname "$0")/h200-env.sh"
dev="${ALIASPLAN_VULKAN_DEVICE:-H200}"
runs="${REPLAY_RUNS:-20}"
status=0
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
echo "before $(cat .vk/before/commit), after $(cat .vk/after/commit), $runs runs per mode" | tee -a "$md"
echo "| frame | flags | messages before → after | barriers (hazard+alias) before → after | GPU ms before → after (ratio) | pooled bytes before → after |" | tee -a "$md"
echo "|---|---|---|---|---|---|" | tee -a "$md"
flags() { # mode, frame arguments: the planning flags of one mode
	local mode=$1
	shift
	case "$mode" in
	dag) ;;
	execution) echo "--order execution" ;;
	pool-prefers-dedicated) echo "--pool-prefers-dedicated" ;;
	budget) # halfway between this branch's execution and DAG pooled bytes
		local d e
		d=$(.vk/after/aliasplan plan --format json "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["memory"]["pooledBytes"])')
		e=$(.vk/after/aliasplan plan --format json --order execution "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["memory"]["pooledBytes"])')
		echo "--budget $(((d + e) / 2))" ;;
	esac
}
replay() { # tree, json file, arguments
	local tree=$1 j=$2
	shift 2
	if ! ".vk/$tree/aliasplan" replay --vk-device "$dev" --runs "$runs" "$@" --format json >"$j" 2>>"$log"; then
		status=1
		echo "$tree $*: failed (see the log)" >>"$log"
	fi
	tr -d '\n' <"$j" >>"$jsonl" && echo >>"$jsonl"
}
row() { # label, frame arguments...
	local label=$1
	shift
	for mode in ${REPLAY_MODES:-dag execution budget pool-prefers-dedicated}; do
		local fl
		fl=$(flags "$mode" "$@")
		echo "== $label $mode ($fl)" >>"$log"
		# shellcheck disable=SC2086
		replay before /tmp/before.json $fl "$@"
		# shellcheck disable=SC2086
		replay after /tmp/after.json $fl "$@"
		python3 - /tmp/before.json /tmp/after.json "$label" "$mode" <<'PY' 2>>"$log" | tee -a "$md" "$log"
import json, sys
def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return None
b, a = load(sys.argv[1]), load(sys.argv[2])
def f(r, k, fmt="{}"):
    return fmt.format(r[k]) if r and k in r else "—"
def bar(r):
    return str(r["hazardBarriers"] + r["aliasBarriers"]) if r else "—"
def ms(r):
    return f'{r["gpuNsAliased"] / 1e6:.3f}' if r else "—"
ratio = f'{a["gpuNsAliased"] / b["gpuNsAliased"]:.4f}' if a and b and b["gpuNsAliased"] else "—"
print(f'| {sys.argv[3]} | {sys.argv[4]} | {f(b, "validationMessages")} → {f(a, "validationMessages")} | {bar(b)} → {bar(a)} | {ms(b)} → {ms(a)} ({ratio}) | {f(b, "pooledBytes", "{:,}")} → {f(a, "pooledBytes", "{:,}")} |')
for r, t in ((b, "before"), (a, "after")):
    for m in (r or {}).get("messages", [])[:5]:
        print(f"  {t} message: {m[:300]}", file=sys.stderr)
    for m in (r or {}).get("mismatches", [])[:5]:
        print(f"  {t} mismatch: {m}", file=sys.stderr)
PY
	done
}
if [ "${REPLAY_SAMPLE:-1}" != 0 ]; then
	row "sample 3840x2160" --resolution 3840x2160
fi
for f in ${REPLAY_FRAMES:-.vk/frames/*.json}; do
	row "$(basename "$f" .json)" "$f"
done
exit "$status"
