#!/usr/bin/env bash
# replay-sweep.sh, run HERE on lavapipe (make replay-sweep): replays
# SWEEP_GRAPHS random graphs (default 200), the sample frame and every
# shared frame (random-1000 included) under the four flag sets of issue 18
# (dag, execution, a halfway budget, --pool-prefers-dedicated), with the
# validation layer and synchronization validation on. Fails on any
# validation message or digest difference; the log is $OUT/replay-sweep.log
# (default out/). Its summary line counts the replays and their failures.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out}"
mkdir -p "$out"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_SWEEP_GRAPHS="${SWEEP_GRAPHS:-200}"
start=$(date +%s)
go test -count=1 -timeout 300m -run '^TestSweep$' -v ./vulkan/replay >"$out/replay-sweep.log" 2>&1
status=$?
pass=$(grep -cE -- '--- PASS: TestSweep/.*/(dag|execution|budget|pool-prefers-dedicated) ' "$out/replay-sweep.log")
fail=$(grep -cE -- '--- FAIL: TestSweep/.*/(dag|execution|budget|pool-prefers-dedicated) ' "$out/replay-sweep.log")
graphs=$(grep -cE -- '--- (PASS|FAIL): TestSweep/(random/seed=[0-9]+|frame/sample|frame/heldout/[^/ ]+) ' "$out/replay-sweep.log")
messages=$(grep -oE ' [0-9]+ messages$' "$out/replay-sweep.log" | awk '{s += $1} END {print s + 0}')
mismatches=$(grep -cE 'mismatch: |digests differ' "$out/replay-sweep.log")
largest=$(grep -oE ': [0-9]+ commands,' "$out/replay-sweep.log" | tr -dc '0-9\n' | sort -n | tail -1)
echo "replay-sweep: $graphs graphs (largest ${largest:-0} commands), $pass replays passed, $fail failed, $messages validation messages, $mismatches digest mismatches, $(($(date +%s) - start)) s (log $out/replay-sweep.log)"
exit "$status"
