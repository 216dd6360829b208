#!/usr/bin/env bash
# h200-cover.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): issue 21's last round of replay kinds on the H200.
# h200-replay.sh sets up the loader and the layer and replays the
# generated frames (REPLAY_GENERATED, default 70: every ReplayKinds kind
# twice (35 kinds since session 8), tessellation/geometry, image self-copies, tiled copies, lone copy
# sides, read-only colour attachments and big uniform buffers included);
# then replay.test's stage controls (a barrier to the wrong stage must
# raise a hazard), the big-uniform ranges and the refusals naming the
# extension of stages without replay work (the H200 has mesh shaders and
# ray tracing: "has ..., but"), and the transfer frames of session 8
# (TestTransferStandIns: stand-in images for lone multisampled, BLIT and
# RESOLVE sides, resolves into 3D images, block-compressed copies; each
# with its wrong-stage controls), and session 9's format-less storage
# reads (TestFormatless*; session 10: vertex and fragment stages too,
# TestFormatlessGraphicsFrames) and signed-integer storage writes
# (TestSignedWrite*). Output in $OUT/cover-h200.log and
# $OUT/fmtless-h200.log. Then h200-standin.sh (session 10: the probe of
# resolves into 3D-image slices, frames 35/58/66 with their digests),
# output in $OUT/standin-h200.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
status=0
REPLAY_FRAMES=" " REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 REPLAY_GENERATED="${REPLAY_GENERATED:-70}" bash .vk/h200-replay.sh || status=1
export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH="/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvicd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -e "$nvicd" ]; then export VK_DRIVER_FILES="$nvicd"; fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
log="$out/cover-h200.log"
(cd vulkan/replay && ../../.vk/replay.test -test.run 'TestCoverStageControls|TestBigUniformRanges|TestUnbuiltStagesNamed|TestTransferStandIns|TestTransferRefusals' -test.v -test.count=1 2>&1) | tee "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
# Format-less storage-image reads (replay/fmtless.go): the H200 has
# shaderStorageImageReadWithoutFormat, so ALIASPLAN_REQUIRE_FMTLESS=1
# fails the tests where it is missing. Output in $OUT/fmtless-h200.log.
(cd vulkan/replay && ALIASPLAN_REQUIRE_FMTLESS=1 ../../.vk/replay.test -test.run 'TestFormatless|TestSignedWrite' -test.v -test.count=1 2>&1) | tee "$out/fmtless-h200.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
bash "$(dirname "$0")/h200-standin.sh" || status=1
exit "$status"
