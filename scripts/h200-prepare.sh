#!/usr/bin/env bash
# h200-prepare.sh, run HERE (in the repository), gets everything the Vulkan
# test binary needs on the H200 device machine, which can fetch nothing:
#   .gl/  the Vulkan loader (libvulkan1), as the device README says;
#   .vk/  the Khronos validation layer (vulkan-validationlayers), the
#         self-contained test binaries vulkan.test (go test -c ./vulkan)
#         and replay.test (./vulkan/replay), the CLI .vk/aliasplan,
#         scripts/h200-replay.sh, the shared frames and two full-size
#         4x MSAA frames (scripts/genmsaa) in .vk/frames. h200-replay.sh
#         also runs replay.test on 100 generated frames (every
#         proptest.ReplayKinds kind, the generic ALL_COMMANDS / MEMORY_*
#         uses included; REPLAY_GENERATED sets the count).
# Both folders are ignored through .git/info/exclude. Then run there:
#   device run: command "bash scripts/h200-vulkan.sh", carry [".gl", ".vk"]
#   device run: command "bash .vk/h200-replay.sh", carry [".gl", ".vk"]
#   device run: command "bash .vk/h200-race.sh", carry [".gl", ".vk"]
#   device run: command "bash .vk/h200-queues.sh", carry [".gl", ".vk"]
#               (issue 24: queues, async sample frame, 100 random graphs)
#   device run: command "bash .vk/h200-ranges.sh", carry [".gl", ".vk"]
#               (issue 23: ranged frames vs GENERAL twins, ranged tests)
#   device run: command "bash .vk/h200-cover.sh", carry [".gl", ".vk"]
#   device run: command "bash .vk/h200-standin.sh", carry [".gl", ".vk"]
#               (session 10: resolves into 3D slices probe, frames 35/58/66)
#   device run: command "bash .vk/h200-depthstencil.sh", carry [".gl", ".vk"]
#               (issue 23: the depth-stencil frame's GPU time, variants)
#               (issue 21's last kinds: tessellation/geometry, self-copies, ...)
#   device run: command "bash .vk/h200-xfb.sh", carry [".gl", ".vk"]
#               (transform feedback, conditional rendering, their racing controls)
#   device run: command "bash .vk/h200-mesh.sh", carry [".gl", ".vk"]
#               (issue 21's extension stages: mesh/task shaders, ray queries)
#   device run: command "bash .vk/h200-oflow.sh", carry [".gl", ".vk"]
#               (optical flow: what the H200 reports, the refusal, a session probe)
#   device run: command "bash .vk/h200-dgc.sh", carry [".gl", ".vk"]
#               (issue 21: device-generated commands, VK_EXT_device_generated_commands)
#   device run: command "bash .vk/h200-fsr.sh", carry [".gl", ".vk"]
#               (issue 21: shading-rate attachments, VK_KHR_fragment_shading_rate)
#   device run: command "bash .vk/h200-blocks.sh", carry [".gl", ".vk"]
#               (issue 21: block-compressed copies with partial edge blocks, blocks13)
#   device run: command "bash .vk/h200-frames.sh", carry [".gl", ".vk"]
#               (frame sequences back to back into held memory, issue 25)
#               (the racing control's rates, the generated frames)
#               (REPLAY_FLAGS="--pool-prefers-dedicated ..." for planning flags)
# The device copies the lead's checkout: run this there, or give the target
# checkout as the first argument (e.g. scripts/h200-prepare.sh /work/main).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
cd "${1:-$src}"
for d in /.gl/ /.vk/; do
	grep -qxF "$d" .git/info/exclude 2>/dev/null || echo "$d" >>.git/info/exclude
done
mkdir -p .gl .vk /tmp/amd64/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
# shellcheck disable=SC2086 # $o is several options
apt-get $o update -qq
# shellcheck disable=SC2086
(cd .gl && rm -f ./*.deb && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
# shellcheck disable=SC2086
(cd .vk && rm -f vulkan-validationlayers_*.deb && apt-get $o download vulkan-validationlayers)
dst="$(pwd)"
(cd "$src" && GOARCH=amd64 go test -c -o "$dst/.vk/vulkan.test" ./vulkan &&
	GOARCH=amd64 go test -c -ldflags='-s -w' -o "$dst/.vk/replay.test" ./vulkan/replay &&
	GOARCH=amd64 go build -ldflags='-s -w' -o "$dst/.vk/aliasplan" ./cmd/aliasplan)
cp "$src/scripts/h200-env.sh" "$src/scripts/h200-replay.sh" "$src/scripts/h200-race.sh" "$src/scripts/h200-queues.sh" "$src/scripts/h200-frames.sh" .vk/
# Issue 23's ranged frames and their GENERAL twins, made replayable
# (scripts/replayable-frame.py), for h200-ranges.sh.
cp "$src/scripts/h200-ranges.sh" .vk/
cp "$src/scripts/h200-cover.sh" "$src/scripts/h200-standin.sh" "$src/scripts/h200-mesh.sh" "$src/scripts/h200-xfb.sh" .vk/
cp "$src/scripts/h200-oflow.sh" .vk/
cp "$src/scripts/h200-dgc.sh" .vk/ # device-generated commands (branch dgc12)
cp "$src/scripts/h200-fsr.sh" .vk/ # shading-rate attachments (fsr.go)
cp "$src/scripts/h200-blocks.sh" .vk/ # block-compressed partial edges (blocks13)
mkdir -p .vk/frames-ranges
for f in "$src"/proptest/testdata/frames/*.json; do
	python3 "$src/scripts/replayable-frame.py" "$f" ".vk/frames-ranges/$(basename "$f")"
done
# The depth-stencil frame's variants for h200-depthstencil.sh (issue 23's
# GPU-time miss; scripts/ds-variants.py).
cp "$src/scripts/h200-depthstencil.sh" .vk/
python3 "$src/scripts/ds-variants.py" "$src/proptest/testdata/frames/depth-stencil.json" .vk/frames-ds
cp .vk/frames-ranges/depth-stencil-general.json .vk/frames-ds/twin.json
mkdir -p .vk/frames
cp "$src"/../shared/data/frames/*.json .vk/frames/ 2>/dev/null || echo "h200-prepare: no shared frames beside $src" >&2
# Full-size 4x MSAA forward+ frames (proptest.MSAAFrame): h200-replay.sh
# replays them with the rest; alone:
#   REPLAY_FRAMES=".vk/frames/forwardplus-msaa-1080p.json .vk/frames/forwardplus-msaa-4k.json" \
#   REPLAY_SAMPLE=0 REPLAY_NEGATIVE=0 bash .vk/h200-replay.sh
(cd "$src" && go run ./scripts/genmsaa -size 1920x1080 -o "$dst/.vk/frames/forwardplus-msaa-1080p.json" &&
	go run ./scripts/genmsaa -size 3840x2160 -o "$dst/.vk/frames/forwardplus-msaa-4k.json")
du -sh .gl .vk
