#!/usr/bin/env bash
# chromium-vvl.sh DIR writes, in DIR, a loader manifest for the Khronos
# validation layer that Debian's chromium ships (/usr/lib/chromium), a
# build newer than Debian 12's vulkan-validationlayers 1.3.239: it knows
# VK_EXT_device_generated_commands and VK_KHR_maintenance5, whose
# structures and entry points layer 1.3.239 calls unknown and lets pass
# unchecked (vulkan/replay/dgc.go). It has no synchronization validation
# (measured: a barrier moved to the wrong stage raises no hazard), so it
# checks the API use only. Use it with VK_LAYER_PATH=DIR, e.g.
#   scripts/chromium-vvl.sh /tmp/vvl && . /work/lvp25/env.sh &&
#   VK_LAYER_PATH=/tmp/vvl go test -run 'TestDGC' ./vulkan/replay
# (TestDGCWrongStage's control then fails, saying synchronization
# validation is off: expected with this layer).
set -euo pipefail
dir="${1:?usage: chromium-vvl.sh DIR}"
lib=/usr/lib/chromium/libVkLayer_khronos_validation.so
[ -f "$lib" ] || { echo "chromium-vvl: no $lib (apt-get install chromium)" >&2; exit 1; }
mkdir -p "$dir"
cat >"$dir/VkLayer_khronos_validation.json" <<JSON
{
 "file_format_version": "1.2.0",
 "layer": {
  "name": "VK_LAYER_KHRONOS_validation",
  "type": "GLOBAL",
  "library_path": "$lib",
  "api_version": "1.4.309",
  "implementation_version": "1",
  "description": "Khronos Validation Layer (chromium's build)",
  "instance_extensions": [
   {"name": "VK_EXT_debug_report", "spec_version": "9"},
   {"name": "VK_EXT_debug_utils", "spec_version": "1"},
   {"name": "VK_EXT_validation_features", "spec_version": "2"}
  ]
 }
}
JSON
echo "$dir"
