#!/usr/bin/env bash
# h200-xfb.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): issue 21's transform feedback and conditional
# rendering on the H200. h200-replay.sh sets up the loader and the layer
# and replays the generated frames (REPLAY_GENERATED, default 64: twice
# every ReplayKinds kind, transform-feedback and cond-rendering
# included); then replay.test's transform feedback and conditional
# rendering tests (exact captured words and counter, the predicate
# deciding), the refusals naming stages without replay work, and the
# racing controls: each barrier before a transform feedback or
# conditional-rendering use removed, XFB_RACE runs (default 20) each,
# digests compared with the intact plan's (layer 1.3.239 records neither
# access, so only the digests can catch them). Output in
# $OUT/xfb-h200.log; the rates are its "xfb-control ..." lines (one per
# control, at the end of TestXfbCondControls' output).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
status=0
REPLAY_FRAMES=" " REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 REPLAY_GENERATED="${REPLAY_GENERATED:-64}" bash .vk/h200-replay.sh || status=1
export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH="/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvicd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -e "$nvicd" ]; then export VK_DRIVER_FILES="$nvicd"; fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_XFB_RACE="${XFB_RACE:-20}"
log="$out/xfb-h200.log"
(cd vulkan/replay && ../../.vk/replay.test -test.run 'TestTransformFeedback|TestConditionalRendering|TestXfbCondControls|TestUnbuiltStagesNamed|TestXfbCondRefusals' -test.v -test.count=1 2>&1) | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
exit "$status"
