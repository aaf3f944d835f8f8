#!/usr/bin/env bash
# tdlchunks.sh: TDL2048+ trained for a budget of wall time, for the
# equal-compute duel (docs/explanation/experiments.md, "Equal-compute duels"). TDL2048+ has no time limit,
# so it runs in chunks (each reloading and saving the weights and TC
# tables with -io), the next chunk sized to 60% of what the last one's rate
# fits in the time left, until less than 2000 episodes would fit. Games
# grow longer as the network learns, so a chunk runs slower than the one
# before: at 90% an 8x6 duel's second chunk overran by 237 s.
#
#   scripts/tdlchunks.sh TDLBIN BUDGET_SECONDS OUT.w FIRST_EPISODES TDL_FLAGS...
#
# for example, 60 minutes of 8x6 TC on both cores, 180k episodes first
# (about half of what its default build trains in the hour here):
#
#   scripts/tdlchunks.sh /tmp/tdlb/default/2048 3600 tdl8.w 180000 -n 8x6patt -a 1.0 -p 2
#
# Chunk k uses seed k (-s k). Each chunk's output goes to chunkK.txt and a
# line per chunk to chunks.txt, in the current directory; the last line
# says how many episodes ran in how many seconds. Episodes are counted in
# thousands (TDL2048+'s blocks), chunks rounded to 2000 so that -p 2 gives
# both threads the same work.
set -euo pipefail
bin=${1:?usage: tdlchunks.sh TDLBIN BUDGET_SECONDS OUT.w FIRST_EPISODES TDL_FLAGS...}
budget=${2:?usage}
w=${3:?usage}
n=${4:?usage}
shift 4
[ -x "$bin" ] || { echo "tdlchunks.sh: $bin is not an executable" >&2; exit 2; }
[ ! -e "$w" ] || { echo "tdlchunks.sh: $w exists; give a new file" >&2; exit 2; }
[ ! -e chunks.txt ] || { echo "tdlchunks.sh: chunks.txt exists here; run in a new directory" >&2; exit 2; }
start=$(date +%s.%N)
total=0
k=1
while :; do
	cs=$(date +%s.%N)
	if [ $k = 1 ]; then io=(-o "$w"); else io=(-io "$w"); fi
	"$bin" "$@" -t $((n / 1000)) -e 0 -s $k "${io[@]}" >"chunk$k.txt" 2>&1
	ce=$(date +%s.%N)
	total=$((total + n))
	used=$(echo "$ce - $start" | bc)
	dt=$(echo "$ce - $cs" | bc)
	echo "chunk $k: $n episodes in $dt s; total $total in $used s" >>chunks.txt
	# 10 s kept for reloading and saving the weights
	n=$(echo "($budget - $used - 10) * $n / $dt * 0.6 / 1" | bc)
	if [ "$n" -lt 2000 ]; then break; fi
	n=$((n / 2000 * 2000))
	k=$((k + 1))
done
echo "done: $total episodes in $used s" >>chunks.txt
