#!/usr/bin/env bash
# h200-prepare.sh, run HERE (in the repository), gets everything the Vulkan
# test binary needs on the H200 device machine, which can fetch nothing:
#   .gl/  the Vulkan loader (libvulkan1), as the device README says;
#   .vk/  the Khronos validation layer (vulkan-validationlayers) and the
#         self-contained test binary vulkan.test (go test -c ./vulkan).
# Both folders are ignored through .git/info/exclude. Then run there:
#   device run: command "bash scripts/h200-vulkan.sh", carry [".gl", ".vk"]
set -euo pipefail
cd "$(dirname "$0")/.."
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
GOARCH=amd64 go test -c -o .vk/vulkan.test ./vulkan
du -sh .gl .vk
