#!/usr/bin/env bash
# exact-families.sh: docs/exact.md's generated-families table (issue 22) on
# a many-core host, each shard of problems pinned to two cores of its own.
#
# Build (here, with Go):   go test -c ./strategies/exact -o .vk/exact.test
# Run (there, no Go):      scripts/exact-families.sh .vk/exact.test [limit] [shards] [seeds-from] [seeds]
#   limit       time limit per problem (default 30s)
#   shards      parallel shards, two cores each (default: nproc/2)
#   seeds-from  first seed (default 1)
#   seeds       seeds per family and size (default 4: seeds 1–4, 32 problems)
# Environment: OUT (default ./exact-families-out) gets one log per shard and
# table.md, the problems sorted as in the test, with load before and after.
set -euo pipefail
bin=${1:?usage: exact-families.sh path/to/exact.test [limit] [shards] [seeds-from] [seeds]}
limit=${2:-30s}
cores=$(nproc)
shards=${3:-$((cores / 2))}
from=${4:-1}
seeds=${5:-4}
out=${OUT:-./exact-families-out}
mkdir -p "$out"
bin=$(readlink -f "$bin")
command -v taskset >/dev/null || { echo "exact-families.sh: taskset not found (util-linux)" >&2; exit 2; }
if ((shards < 1 || 2 * shards > cores)); then
	echo "exact-families.sh: $shards shards need $((2 * shards)) cores, this host has $cores" >&2
	exit 2
fi
echo "host $(hostname) cores $cores shards $shards limit $limit seeds $from..$((from + seeds - 1)) load $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/header.txt"
pids=()
for ((j = 0; j < shards; j++)); do
	c0=$((2 * j)) c1=$((2 * j + 1))
	GOMAXPROCS=2 ALIASPLAN_FAMILIES="$limit" ALIASPLAN_FAMILIES_SEED="$from" ALIASPLAN_FAMILIES_SEEDS="$seeds" \
		ALIASPLAN_FAMILIES_SHARD="$j/$shards" taskset -c "$c0,$c1" \
		"$bin" -test.run '^TestFamiliesReport$' -test.v -test.timeout 3h >"$out/shard-$j.log" 2>&1 &
	pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
echo "done load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/header.txt"
{
	cat "$out/header.txt"
	echo
	echo "| # | problem | items | peak | target | vs target | bound | result |"
	echo "|---|---|---|---|---|---|---|---|"
	# Lines: "families_test.go:NNN: #07 slack/n=500/seed=1 n=480 peak P target C (+x%) bound B <result>"
	grep -h ' peak .* target ' "$out"/shard-*.log | sed 's/^ *[a-z_]*\.go:[0-9]*: #//' | sort -n |
		awk '{ r=$0; sub(/.* bound [0-9]+ /, "", r); gsub(/[()]/, "", $8)
			printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, substr($3,3), $5, $7, $8, $10, r }'
} >"$out/table.md"
cat "$out/table.md"
exit $rc
