#!/usr/bin/env bash
# install-vulkan.sh makes sure the Vulkan runtime the GPU-gated tests of
# ./vulkan need is present: the loader (libvulkan1), Mesa's software driver
# lavapipe (mesa-vulkan-drivers) and the Khronos validation layer
# (vulkan-validationlayers), plus glslangValidator (glslang-tools), with
# which vulkan/replay checks that its SPIR-V matches its GLSL. It is
# idempotent: it checks first and calls
# apt-get only for what is missing, so `make test` can run it every time.
#
# No Vulkan headers or -dev packages are needed: the Go package loads
# libvulkan.so.1 at run time.
#
# Exit status: 0 when everything is present afterwards (or nothing could be
# done on a machine without apt-get, where the tests then SKIP, or FAIL under
# ALIASPLAN_REQUIRE_VULKAN=1), non-zero when an install was attempted and
# failed.
set -euo pipefail

pkgs=(libvulkan1 mesa-vulkan-drivers vulkan-validationlayers glslang-tools)

installed() {
	# dpkg-query prints "install ok installed" for a fully installed package.
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "install-vulkan: no dpkg/apt-get here; install a Vulkan loader, driver and validation layer by hand" >&2
	exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-vulkan: ${pkgs[*]} already installed"
	exit 0
fi

echo "install-vulkan: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists: without an update the install
# finds nothing.
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

for p in "${pkgs[@]}"; do
	if ! installed "$p"; then
		echo "install-vulkan: $p is still not installed" >&2
		exit 1
	fi
done
echo "install-vulkan: done"
