#!/usr/bin/env bash
# h200-ranges.sh, run THERE on the device machine from the repository
# root, with .gl and .vk carried (scripts/h200-prepare.sh makes them and
# puts this script in .vk): issue 23's per-range frames (a bloom chain in
# one 6-mip image, a depth pyramid one mip per dispatch, 4 shadow
# cascades in one array, a cube map per face, depth-read-only +
# stencil-write) at full size, each beside its GENERAL twin (the same
# frame with whole-image GENERAL accesses), aliased and unaliased, with
# the validation layer and synchronization validation; then the ranged
# replay tests of replay.test (TestRangedFrames, which replays the bloom
# GENERAL twin too: own-pixel reads with LOAD_OP_NONE, selfrace.go;
# TestRangedNegativeControl, TestRandomRangedGraphs with
# ALIASPLAN_RANGED_GRAPHS random frames (default 40 here: per-range
# blits, copies, resolves, an imported image), TestRangedQueues,
# TestRangedTransferCoverage, TestBlitMipChain, TestOwnPixelReads).
# Output in $OUT:
#   replay-h200.log, replay-h200.jsonl   as h200-replay.sh writes them
#   ownload/                             the bloom twin with
#                                        ALIASPLAN_REPLAY_OWN_LOAD=1
#   always/                              every frame and twin with
#                                        ALIASPLAN_REPLAY_TESTS_ALWAYS=1
#                                        (equal fragment work)
#   ranges-h200.log                      the tests' log and the table of
#                                        GPU time, ranged / GENERAL twin
# REPLAY_RUNS (default 20) passes through.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
status=0
frames=""
for f in bloom depth-pyramid cascades cubemap depth-stencil; do
	frames="$frames .vk/frames-ranges/$f.json .vk/frames-ranges/$f-general.json"
done
REPLAY_FRAMES="$frames" REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 bash .vk/h200-replay.sh || status=1
# The bloom twin again through the path of devices without LOAD_OP_NONE
# (ALIASPLAN_REPLAY_OWN_LOAD=1: own-pixel reads of write-only attachments
# after LOAD_OP_LOAD, selfrace.go): digests equal over REPLAY_RUNS runs
# on a GPU that runs passes in parallel. Output in $OUT/ownload.
mkdir -p "$out/ownload"
OUT="$out/ownload" ALIASPLAN_REPLAY_OWN_LOAD=1 REPLAY_FRAMES=".vk/frames-ranges/bloom-general.json" REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 \
	REPLAY_GENERATED=0 bash .vk/h200-replay.sh || status=1
# Every frame and twin again with equal fragment work (the fair GPU-time
# comparison, docs/replay.md "The depth-stencil frame's GPU time"):
# ALIASPLAN_REPLAY_TESTS_ALWAYS=1, no early test discards. Output in
# $OUT/always; the table below has both.
mkdir -p "$out/always"
OUT="$out/always" ALIASPLAN_REPLAY_TESTS_ALWAYS=1 REPLAY_FRAMES="$frames" REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 \
	REPLAY_GENERATED=0 bash .vk/h200-replay.sh || status=1
# h200-replay.sh set up the loader and the layer in this machine's /; the
# environment it exported is set again here for the test binary.
export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH="/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvicd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -e "$nvicd" ]; then export VK_DRIVER_FILES="$nvicd"; fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_RANGED_GRAPHS="${ALIASPLAN_RANGED_GRAPHS:-40}"
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
log="$out/ranges-h200.log"
(cd vulkan/replay && ../../.vk/replay.test -test.run 'TestRangedFrames|TestRangedNegativeControl|TestRandomRangedGraphs|TestRangedQueues|TestRangedTransferCoverage|TestBlitMipChain|TestOwnPixelReads|TestOwnLoadPlan|TestTiledTransfers|TestDepthStencilWork' -test.v -test.count=1 2>&1) | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
python3 - "$out/replay-h200.jsonl" "$out/always/replay-h200.jsonl" <<'PY' | tee -a "$log"
import json, os, sys
names = ["bloom", "depth-pyramid", "cascades", "cubemap", "depth-stencil"]
print("| frame | tests | ranged GPU ms (aliased) | GENERAL twin GPU ms (aliased) | ranged / twin | messages (ranged, twin) | digests equal (ranged, twin) |")
print("|---|---|---|---|---|---|---|")
for path, tests in zip(sys.argv[1:], ["as replayed", "always pass"]):
    rows = [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []
    for i, n in enumerate(names):
        if 2 * i + 1 >= len(rows):
            break
        r, t = rows[2 * i], rows[2 * i + 1]
        ratio = r["gpuNsAliased"] / t["gpuNsAliased"] if t.get("gpuNsAliased") else 0
        print(f'| {n} | {tests} | {r["gpuNsAliased"]/1e6:.3f} | {t["gpuNsAliased"]/1e6:.3f} | {ratio:.3f} | {r["validationMessages"]}, {t["validationMessages"]} | {r["digestsEqual"]}, {t["digestsEqual"]} |')
PY
exit "$status"
