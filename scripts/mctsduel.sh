#!/usr/bin/env bash
# mctsduel.sh: Monte Carlo tree search against expectimax at equal time
# per move (docs/explanation/experiments.md, "MCTS against expectimax"):
# scripts/mctsduel (the same games with both, in turn) for each weights
# file given, 2048's or Threes!', at each budget.
#
#   scripts/mctsduel.sh OUTDIR WEIGHTS...
#
# Environment: BUDGETS (default 1ms,3ms,10ms), GAMES (games a side at each
# budget, default 10), ROLLOUT (MCTS's --rollout-depth, default 0), JOBS
# (weights files duelled at once, default 2). Each duel's report goes to
# OUTDIR/NAME.txt, NAME being the weights file's name; OUTDIR must not
# exist.
set -euo pipefail

usage="usage: scripts/mctsduel.sh OUTDIR WEIGHTS..."
out=${1:?$usage}
shift
(($# > 0)) || { echo "$usage" >&2; exit 2; }
budgets=${BUDGETS:-1ms,3ms,10ms}
games=${GAMES:-10}
rollout=${ROLLOUT:-0}
jobs=${JOBS:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
for w in "$@"; do
	[ -f "$w" ] || { echo "mctsduel.sh: $w is not a file" >&2; exit 2; }
done
[ ! -e "$out" ] || { echo "mctsduel.sh: $out exists; give a new directory" >&2; exit 2; }
mkdir -p "$out"
(cd "$here" && go build -o "$out/mctsduel" ./scripts/mctsduel)

for w in "$@"; do
	name=$(basename "$w" .td2048)
	echo "$name: $budgets, $games games a side ($(date -u +%H:%M:%S))"
	"$out/mctsduel" --load "$w" --games "$games" --chunk 1 --budgets "$budgets" --rollout-depth "$rollout" >"$out/$name.txt" 2>&1 &
	while (($(jobs -rp | wc -l) >= jobs)); do sleep 5; done
done
wait
cat "$out"/*.txt
