#!/bin/sh
# gen.sh compiles the replay shaders to SPIR-V (go generate in
# vulkan/replay runs it). Needs glslangValidator (Debian: glslang-tools).
# Each line of variants.txt is: output, source, then -D flags; the
# SPIR-V test compiles the same list and compares.
set -eu
cd "$(dirname "$0")"
while read -r out src flags; do
	case "$out" in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086
	glslangValidator -V --target-env vulkan1.1 $flags -o "$out" "$src" >/dev/null
done <variants.txt
