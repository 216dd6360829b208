#!/usr/bin/env bash
# device-cpu-bench.sh: CPU benchmarks on a quiet many-core host (the
# device machine): BenchmarkFrame of several test binaries side by side,
# each pinned to its own two cores with GOMAXPROCS=2, ROUNDS rounds, and
# proptest's PlanMipChains/PlanLayerChains when PT=1. Prepare here:
#   go test -c -ldflags='-s -w' -o .vk/bench/root-NAME.test .   (at each commit NAME)
#   go test -c -ldflags='-s -w' -o .vk/bench/pt-H.test ./proptest
#   mkdir -p .vk/bench/frames && cp ../shared/data/frames/{deferred-1080p,random-200,random-1000}.json .vk/bench/frames/
#   cp scripts/device-cpu-bench.sh .vk/bench/run.sh
# Run there (carry [".vk/bench"]): BINS="A B H" PT=1 bash .vk/bench/run.sh
# Then here: benchstat $files_at/bf-A.txt $files_at/bf-B.txt
set -u
out="${OUT:-.}"
mkdir -p ../shared/data/frames && cp .vk/bench/frames/*.json ../shared/data/frames/
for r in $(seq "${ROUNDS:-8}"); do
	i=0
	for n in ${BINS:-A H}; do
		taskset -c $((2 * i)),$((2 * i + 1)) env GOMAXPROCS=2 .vk/bench/root-$n.test -test.run '^$' -test.bench 'BenchmarkFrame$' \
			-test.benchmem -test.count 1 -test.benchtime 0.3s >>"$out/bf-$n.txt" 2>&1 &
		i=$((i + 1))
	done
	if [ -n "${PT:-}" ]; then
		(cd proptest && taskset -c $((2 * i)),$((2 * i + 1)) env GOMAXPROCS=2 ../.vk/bench/pt-H.test -test.run '^$' \
			-test.bench 'PlanMipChains|PlanLayerChains' -test.benchtime 0.3s >>"$out/pt-H.txt" 2>&1) &
	fi
	wait
done
uptime
