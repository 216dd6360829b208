# h200-env.sh is sourced (not run) by the scripts/h200-*.sh run scripts,
# THERE on the device machine, from the repository root with .gl and .vk
# carried: it installs what scripts/h200-prepare.sh fetched and exports
# what every run needs. Once per machine: a second script sourcing it
# finds the layer unpacked and keeps it.
#   .gl/*.deb  the Vulkan loader, unpacked into / as the device README says;
#   .vk/*.deb  the Khronos validation layer, unpacked into /tmp/vvl (other
#              packages unpacked into / can break the machine).
# SKIP_UNPACK=1 leaves the machine's own Vulkan alone (a trial run on
# lavapipe here). The NVIDIA driver's ICD is named where the loader does
# not look for it. XDG_RUNTIME_DIR is set when unset (the layer wants it).
# shellcheck shell=bash
if [ "${SKIP_UNPACK:-0}" != 1 ]; then
	if [ ! -e /tmp/vvl/usr/share/vulkan/explicit_layer.d ]; then
		for f in .gl/*.deb; do dpkg -x "$f" /; done
		ldconfig
		rm -rf /tmp/vvl && mkdir -p /tmp/vvl
		for f in .vk/*.deb; do dpkg -x "$f" /tmp/vvl; done
	fi
	export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
	export LD_LIBRARY_PATH="/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	nvicd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
	if [ -z "${VK_DRIVER_FILES:-}" ] && [ -e "$nvicd" ]; then export VK_DRIVER_FILES="$nvicd"; fi
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
