#!/usr/bin/env bash
# Regenerates cmd/td2048/default.pgo, the CPU profile the Go toolchain uses
# for profile-guided optimization whenever it builds the command (go build,
# go install, go run: -pgo=auto). The profile is of the work users wait
# for: the course's training (backward and online, two games in turn),
# 8x6 and TC training, greedy play and 2-ply search, from the packages'
# benchmarks. Rerun it after changing the hot path, then compare the
# command built with and without it (`go build -pgo=off`).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/learn.test" ./learn
go test -c -o "$tmp/search.test" ./search
"$tmp/learn.test" -test.run x -test.benchtime 15000x \
  -test.bench 'TrainInterleave/4x6/.*/interleave=2$|TrainInterleave/8x6/.*/interleave=1$|TrainTC4x6' \
  -test.cpuprofile "$tmp/learn.prof" >/dev/null
"$tmp/search.test" -test.run x -test.bench 'Expectimax2048Depth2|Greedy4x6' \
  -test.cpuprofile "$tmp/search.prof" >/dev/null
go tool pprof -proto "$tmp/learn.prof" "$tmp/search.prof" > cmd/td2048/default.pgo
echo "wrote cmd/td2048/default.pgo ($(wc -c < cmd/td2048/default.pgo) bytes)"
