#!/usr/bin/env bash
# h200-before-after-prepare.sh, run HERE (in the repository): everything
# scripts/h200-prepare.sh puts in .gl/ and .vk/ (loader, validation layer,
# this tree's binaries, the shared frames), plus the CLI (whose replay is
# the replay package's) built at BEFORE (default 6ddf461, the last commit before issue 18's
# barrier rework) in .vk/before/, this tree's in .vk/after/, and
# scripts/h200-before-after.sh in .vk/. Then, on the device machine:
#   device run: command "bash .vk/h200-before-after.sh", carry [".gl", ".vk"]
# The first argument is the target checkout (as for h200-prepare.sh).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
dst="$(cd "${1:-$src}" && pwd)"
before="${BEFORE:-6ddf461}"
"$src/scripts/h200-prepare.sh" "$dst"
tmp="$(mktemp -d /tmp/before-after.XXXXXX)"
trap 'git -C "$src" worktree remove --force "$tmp/tree" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$src" worktree add --detach "$tmp/tree" "$before" >/dev/null
mkdir -p "$dst/.vk/before" "$dst/.vk/after"
# The CLI's replay (aliasplan replay) is the replay package's Compare with
# its report as JSON; only the CLIs travel (the carry is 64 MiB in all).
# REPLAY_TEST=1 also builds each tree's replay test binary.
build() { # tree, output folder
	(cd "$1" && GOARCH=amd64 go build -ldflags='-s -w' -o "$2/aliasplan" ./cmd/aliasplan)
	if [ "${REPLAY_TEST:-0}" = 1 ]; then
		(cd "$1" && GOARCH=amd64 go test -c -ldflags='-s -w' -o "$2/replay.test" ./vulkan/replay)
	fi
}
build "$tmp/tree" "$dst/.vk/before"
build "$src" "$dst/.vk/after"
git -C "$src" rev-parse --short HEAD >"$dst/.vk/after/commit"
git -C "$src" rev-parse --short "$before" >"$dst/.vk/before/commit"
cp "$src/scripts/h200-env.sh" "$src/scripts/h200-before-after.sh" "$dst/.vk/"
du -sh "$dst/.gl" "$dst/.vk"
du -sck "$dst/.gl" "$dst/.vk" | awk '$2 == "total" && $1 > 60000 {print "h200-before-after-prepare: .gl + .vk is " $1 " KiB, near the 64 MiB carry limit" > "/dev/stderr"}'
