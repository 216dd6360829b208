#!/usr/bin/env bash
# h200-depthstencil.sh, run THERE on the device machine from the
# repository root, with .gl and .vk carried (scripts/h200-prepare.sh makes
# them, puts this script in .vk and the variants in .vk/frames-ds):
# issue 23's depth-stencil GPU-time miss (the ranged frame 1.28-1.33x its
# GENERAL twin on the H200). Replays at full size (1024x1024), with the
# validation layer and synchronization validation, and per-command GPU
# timestamps (--per-command), each of:
#   ranged                 the ranged frame (per-aspect layouts)
#   twin                   its whole-image GENERAL twin
#   ranged-all-general     the ranged accesses and aspects, every D/S
#                          layout GENERAL (the same work as ranged: only
#                          the layouts and so the transitions differ)
#   ranged-depth-general   the DEPTH-aspect accesses GENERAL
#   ranged-stencil-general the STENCIL-aspect accesses GENERAL
#   ranged-outline-both    outline tests depth and stencil, as the twin's
#                          whole-image read does (ranged layouts)
# once as the replay does it and once with ALIASPLAN_REPLAY_TESTS_ALWAYS=1
# (every depth/stencil compare op ALWAYS: every draw shades its whole
# render area, vulkan/replay/dstests.go), and prints the table.
# Output in $OUT: ds-h200.log (the table), normal/ and always/ (each
# h200-replay.sh's replay-h200.log and .jsonl).
# REPLAY_RUNS (default 20) passes through.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
status=0
names="ranged twin ranged-all-general ranged-depth-general ranged-stencil-general ranged-outline-both"
frames=""
for n in $names; do frames="$frames .vk/frames-ds/$n.json"; done
for mode in normal always; do
	mkdir -p "$out/$mode"
	always=0
	[ "$mode" = always ] && always=1
	OUT="$out/$mode" ALIASPLAN_REPLAY_TESTS_ALWAYS=$always REPLAY_FRAMES="$frames" REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 \
		REPLAY_GENERATED=0 REPLAY_FLAGS="--per-command ${REPLAY_FLAGS:-}" bash .vk/h200-replay.sh || status=1
done
python3 - "$out" $names <<'PY' | tee "$out/ds-h200.log"
import json, os, sys
out, names = sys.argv[1], sys.argv[2:]
print("| variant | tests | frame GPU ms (aliased) | / ranged | prepass | decals | ssao | outline (per-command µs, aliased) | hazard barriers | messages | digests equal |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for mode in ("normal", "always"):
    path = os.path.join(out, mode, "replay-h200.jsonl")
    rows = [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []
    base = None
    for n, r in zip(names, rows):
        ms = r.get("gpuNsAliased", 0) / 1e6
        if base is None:
            base = ms
        pc = {c["command"]: c["nsAliased"] / 1e3 for c in r.get("perCommand", [])}
        cells = " | ".join(f'{pc.get(c, 0):.1f}' for c in ("prepass", "decals", "ssao", "outline"))
        print(f'| {n} | {"as replayed" if mode == "normal" else "always pass"} | {ms:.3f} | {ms / base if base else 0:.3f} | {cells} | '
              f'{r.get("hazardBarriers")} | {r.get("validationMessages")} | {r.get("digestsEqual")} |')
PY
exit "$status"
