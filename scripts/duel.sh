#!/usr/bin/env bash
# duel.sh: the equal-compute duel (docs/explanation/experiments.md,
# "Equal-compute duels"): td2048 and TDL2048+ train the same network by
# TC on all cores for the same wall time, one after the other, then
# td2048 evaluates both sets of weights on the same games and prints the
# ratios.
#
#   scripts/duel.sh TDLBIN SECONDS OUTDIR [NETWORK [TDL_FIRST_EPISODES]]
#
# NETWORK is td2048's name for it (4x6, 5x6, 6x6, 7x6 or 8x6; default 8x6),
# given to TDL2048+ as NETWORKpatt. TDL2048+ has no time limit, so it runs
# in chunks (scripts/tdlchunks.sh), the first of TDL_FIRST_EPISODES
# (default: a third of what td2048 trained in the same time). td2048 runs
# first: `train --recipe tc --network NETWORK --threads CORES --duration
# SECONDS --seed 1`; TDL2048+ then `-n NETWORKpatt -a 1.0 -p CORES`.
# Evaluation (`td2048 eval --seed 2 --threads CORES`): GAMES1 greedy games
# (default 10000: a 1000-game mean moves by about 3k at 250k points) and
# GAMES2 2-ply games (default 3000; 0 skips). Everything goes to OUTDIR,
# which must not exist. Environment: TD2048 (a td2048 binary; default:
# built from this checkout into OUTDIR), GAMES1, GAMES2, CORES (default:
# all of them).
set -euo pipefail

usage="usage: scripts/duel.sh TDLBIN SECONDS OUTDIR [NETWORK [TDL_FIRST_EPISODES]]"
tdl=${1:?$usage}
secs=${2:?$usage}
out=${3:?$usage}
net=${4:-8x6}
first=${5:-}
games1=${GAMES1:-10000}
games2=${GAMES2:-3000}
cores=${CORES:-$(nproc)}
here=$(cd "$(dirname "$0")/.." && pwd)

[ -x "$tdl" ] || { echo "duel.sh: $tdl is not an executable TDL2048+ binary" >&2; exit 2; }
tdl=$(cd "$(dirname "$tdl")" && pwd)/$(basename "$tdl")
[[ $secs =~ ^[0-9]+$ ]] && ((secs >= 10)) || { echo "duel.sh: SECONDS $secs: want a whole number of at least 10" >&2; exit 2; }
case $net in 4x6 | 5x6 | 6x6 | 7x6 | 8x6) ;; *) echo "duel.sh: NETWORK $net: want 4x6, 5x6, 6x6, 7x6 or 8x6 (TDL2048+'s NxMpatt)" >&2; exit 2 ;; esac
[ -z "$first" ] || [[ $first =~ ^[0-9]+$ && $first -ge 2000 ]] || { echo "duel.sh: TDL_FIRST_EPISODES $first: want a number of at least 2000" >&2; exit 2; }
[ ! -e "$out" ] || { echo "duel.sh: $out exists; give a new directory" >&2; exit 2; }
mkdir -p "$out"
td=${TD2048:-}
if [ -z "$td" ]; then
	td=$out/td2048
	(cd "$here" && go build -o "$td" ./cmd/td2048)
fi
cd "$out"

echo "td2048: $secs s of $net TC on $cores threads ($(date -u +%H:%M:%S))"
"$td" train --recipe tc --network "$net" --threads "$cores" --duration "${secs}s" --episodes 1000000000 \
	--checkpoint-every 0 --seed 1 --save td.td2048 --log td.jsonl >td.txt 2>&1
tdeps=$(sed -n 's/^\([0-9]*\) episodes in .*/\1/p' td.txt)
[ -n "$tdeps" ] || { echo "duel.sh: td2048's run did not finish; see $out/td.txt" >&2; exit 1; }
if [ -z "$first" ]; then
	first=$((tdeps / 3 / 2000 * 2000))
	((first >= 2000)) || first=2000
fi

echo "TDL2048+: $secs s of ${net}patt TC on $cores processes, first chunk $first episodes ($(date -u +%H:%M:%S))"
mkdir tdl
(cd tdl && "$here/scripts/tdlchunks.sh" "$tdl" "$secs" tdl.w "$first" -n "${net}patt" -a 1.0 -p "$cores")
tdleps=$(awk '/^done:/ { printf "%d %.0f", $2, $5 }' tdl/chunks.txt)

evaluate() { # WEIGHTS DEPTH GAMES OUT: prints the average
	"$td" eval --load "$1" --depth "$2" --games "$3" --seed 2 --threads "$cores" >"$4" 2>&1
	sed -n "s/^$3"$'\t'"avg = \([0-9]*\).*/\1/p" "$4"
}
echo "evaluating ($(date -u +%H:%M:%S))"
a1=$(evaluate td.td2048 1 "$games1" td-e1.txt)
b1=$(evaluate tdl/tdl.w 1 "$games1" tdl-e1.txt)
a2=- b2=-
if ((games2 > 0)); then
	a2=$(evaluate td.td2048 2 "$games2" td-e2.txt)
	b2=$(evaluate tdl/tdl.w 2 "$games2" tdl-e2.txt)
fi

ratio() { if [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; fi; }
{
	echo "duel: $net TC, $secs s on $cores cores, seed 1; evaluated by td2048 eval --seed 2"
	printf '%-10s %-28s %-14s %-14s\n' program "episodes (seconds)" "1-ply ($games1)" "2-ply ($games2)"
	printf '%-10s %-28s %-14s %-14s\n' td2048 "$tdeps ($secs)" "$a1" "$a2"
	printf '%-10s %-28s %-14s %-14s\n' TDL2048+ "${tdleps% *} (${tdleps#* })" "$b1" "$b2"
	printf '%-10s %-28s %-14s %-14s\n' ratio "" "$(ratio "$a1" "$b1")" "$(ratio "$a2" "$b2")"
} | tee result.txt
