#!/usr/bin/env bash
# install-chromium.sh makes sure Debian's chromium is present for the
# browser tests of cmd/aliasplan/internal/picture, which load the HTML page
# headless through the DevTools protocol. It is idempotent: with a chromium
# on PATH it does nothing, so `make test` can run it every time.
#
# Exit status: 0 when chromium is present afterwards (or nothing could be
# done on a machine without apt-get, where the browser tests then SKIP, or
# FAIL under ALIASPLAN_REQUIRE_BROWSER=1), non-zero when an install was
# attempted and failed.
set -euo pipefail

for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		echo "install-chromium: $b already installed"
		exit 0
	fi
done

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-chromium: no apt-get here; install chromium by hand (the browser tests skip without it)" >&2
	exit 0
fi

echo "install-chromium: installing chromium"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has stale or no package lists: without an update the
# install may name a version the mirror no longer has.
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core

if ! command -v chromium >/dev/null 2>&1; then
	echo "install-chromium: chromium is still not installed" >&2
	exit 1
fi
echo "install-chromium: done"
