#!/usr/bin/env bash
# h200-blocks.sh, run THERE on the device machine from the repository
# root, with .gl and .vk carried (scripts/h200-prepare.sh makes them and
# puts this script in .vk): issue 21's block-compressed copies with
# partial edge blocks and between block extents (session 13, blocks13).
#   1. TestTransferStandIns/block (the block-compressed and block-edges
#      frames: texels into partial edge blocks through the replay's buffer,
#      blocks out into texels, 0 messages, equal digests, every transfer
#      barrier's wrong-stage control), TestMixedTilesCover,
#      TestCompressedFormatSupport (what the H200 reports for ASTC 5x5,
#      ETC2 and BC7: refused naming the format and its feature, or
#      replayed), TestAliasedEdgeBlocksLayer (the whole-block twin clean;
#      how many hazards layer 1.3.239 reports on the partial edge blocks
#      of aliased images on the NVIDIA driver, each on a region with
#      partial blocks), TestPoisonCatchesUndefinedReads.
#   2. TestGeneratedFrames for every seed of 1..100 with the
#      block-compressed kind (ALIASPLAN_REPLAY_KIND), with
#      ALIASPLAN_REPLAY_DIGESTS=1.
# Output in $OUT/blocks-h200.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/blocks-h200.log"
: >"$log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
status=0
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee -a "$log"
echo "== block-compressed transfer frames, tiles, format support, aliased edge blocks" | tee -a "$log"
(cd vulkan/replay && ../../.vk/replay.test \
	-test.run 'TestTransferStandIns/block|TestMixedTilesCover|TestCompressedFormatSupport|TestAliasedEdgeBlocksLayer|TestPoisonCatchesUndefinedReads' -test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "== block-compressed frames of seeds 1..100" | tee -a "$log"
(cd vulkan/replay && ALIASPLAN_REPLAY_KIND=block-compressed ALIASPLAN_REPLAY_FRAMES=100 ALIASPLAN_REPLAY_DIGESTS=1 \
	../../.vk/replay.test -test.run 'TestGeneratedFrames$' -test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
exit "$status"
